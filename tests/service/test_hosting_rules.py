"""The platform's pure hosted-play functions (``tribes.core.hosting``), case by case."""

from __future__ import annotations

from dataclasses import replace

import pytest

from tests.support.server import catalog_with_example_game
from tribes.core import hosting
from tribes.core.errors import BadRequestError
from tribes.core.records import RECORD, Clock, GameRecord, Seat, apply_system, timeout_id
from tribes.engine import Result

GOOFSPIEL = catalog_with_example_game().get("goofspiel").game


def record(
    seats: int, clock: Clock | None, now: int = 1000, to_act: tuple[int, ...] = (0,)
) -> GameRecord:
    fresh = GameRecord(False, tuple(Seat() for _ in range(seats)), clock)
    return hosting.started(fresh, to_act, now)


def test_no_limit_is_no_clock_and_bad_limits_are_refused() -> None:
    assert hosting.clock_of(0, 0, 0, "") is None
    assert hosting.clock_of(60, 0, 0, "bot") == Clock(60_000, 0, 0, forfeit=False)
    for bad in ((0, 0, 5, ""), (0, 0, 0, "bot"), (-1, 0, 0, ""), (10, 0, 0, "draw")):
        with pytest.raises(BadRequestError):
            hosting.clock_of(*bad)


def test_a_simultaneous_decision_keeps_running_for_those_still_to_decide() -> None:
    start = record(3, Clock(0, 100_000, 1_000, True), to_act=(0, 1, 2))
    after = hosting.charged(start, (0, 1, 2), (1, 2), 0, 11_000)
    assert [(s.remaining_ms, s.since_ms) for s in after.seats] == [
        (91_000, 0),  # paid 10 s, got 1 s back
        (100_000, 1000),  # still deciding since the start: its clock runs on
        (100_000, 1000),
    ]
    assert hosting.next_deadline(after) == 101_000
    assert hosting.timed_out(after, 101_000) == 1  # the earliest; ties go to the lower seat
    assert hosting.timed_out(after, 100_999) is None


def test_a_seat_newly_to_act_starts_its_clock_and_a_bot_is_never_on_it() -> None:
    start = record(2, Clock(30_000, 0, 0, True))
    after = hosting.charged(start, (0,), (1,), 0, 5_000)
    assert [s.since_ms for s in after.seats] == [0, 5_000]
    assert hosting.deadlines(after) == [0, 35_000]
    gone = hosting.left(after, 1, "resign")
    assert gone.seats[1].bot == "random" and hosting.deadlines(gone) == [0, 0]


def test_no_clock_runs_until_a_listed_tables_last_seat_is_joined() -> None:
    """While a seat is open nothing runs and nothing is charged; the last join starts the
    seats to act at its time, with the time each clock has."""
    clock = Clock(0, 100_000, 1_000, True)
    fresh = GameRecord(True, (Seat(open=True), Seat(open=True), Seat(open=True)), clock)
    waiting = hosting.started(fresh, (0, 1), 1_000)
    assert hosting.waiting(waiting) and [s.since_ms for s in waiting.seats] == [0, 0, 0]
    assert hosting.deadlines(waiting) == [0, 0, 0] and hosting.timed_out(waiting, 10**9) is None
    joined = replace(waiting, seats=(Seat(name="a"), Seat(open=True), Seat(name="c")))
    assert hosting.table_full(joined, (0, 1), 5_000) is joined  # seat 1 is still open
    moved = hosting.charged(joined, (0, 1), (1,), 0, 6_000)
    assert moved is joined  # a move before the table is full charges nobody
    full = replace(joined, seats=(Seat(name="a"), Seat(name="b"), Seat(name="c")))
    full = replace(full, seats=tuple(replace(s, remaining_ms=100_000) for s in full.seats))
    started = hosting.table_full(full, (0, 1), 9_000)
    assert [s.since_ms for s in started.seats] == [9_000, 9_000, 0]
    assert hosting.deadlines(started) == [109_000, 109_000, 0]


def test_a_bot_deciding_after_a_timeout_stops_the_clock_until_it_moves() -> None:
    start = record(2, Clock(30_000, 0, 0, False))
    deciding = apply_system(start, timeout_id(0, forfeit=False))
    assert deciding.seats[0].bot_decides and hosting.deadlines(deciding)[0] == 0
    moved = hosting.charged(deciding, (0,), (0,), 0, 40_000)
    assert not moved.seats[0].bot_decides and hosting.deadlines(moved)[0] == 70_000


@pytest.mark.parametrize("seats", [2, 3, 4])
def test_leaving_ends_the_game_when_one_seat_is_left(seats: int) -> None:
    current = record(seats, None)
    for seat in range(seats - 1):
        assert not current.over
        current = hosting.left(current, seat, "resign" if seat % 2 else "timeout")
    assert current.over
    state = GOOFSPIEL.new_game(seats, {"cards": "3"}, 1)  # still running by its rules
    result = hosting.result(GOOFSPIEL, state, current)
    assert result is not None
    assert list(result.ranks) == [2] * (seats - 1) + [1]


def test_leavers_rank_below_every_stayer_whatever_their_score() -> None:
    class Finished:
        result = staticmethod(lambda state: Result(scores=(9, 5, 1), ranks=(1, 2, 3), summary="s"))

    gone = hosting.left(record(3, None), 0, "resign")
    result = hosting.result(Finished, None, gone)  # type: ignore[arg-type]
    assert result is not None
    assert list(result.ranks) == [3, 1, 2] and list(result.scores) == [9, 5, 1]
    # the rules' summary named seat 0, which left: the summary names the seat that wins
    assert result.summary == "seat 1 wins (seat 0 resigned; ranked last)"
    kept = hosting.result(Finished, None, hosting.left(record(3, None), 2, "timeout"))  # type: ignore[arg-type]
    assert kept is not None and list(kept.ranks) == [1, 2, 3]
    assert kept.summary == "s (seat 2 lost on time; ranked last)"  # the rules' winner stayed


def test_a_game_ended_by_leaving_names_the_seat_left() -> None:
    """Seats leave until one is left: it wins, though the rules had not ended the game."""

    class Running:
        result = staticmethod(lambda state: None)

    current = hosting.left(record(3, None), 0, "resign")
    current = hosting.left(current, 2, "timeout")
    assert current.over
    result = hosting.result(Running, None, current)  # type: ignore[arg-type]
    assert result is not None and list(result.ranks) == [2, 1, 2]
    assert result.summary == (
        "seat 1 wins, the game ended early (seat 0 resigned, seat 2 lost on time; ranked last)"
    )


@pytest.mark.parametrize(
    ("clock", "left_ms"),
    [
        (Clock(0, 2_000, 500, True), 0),  # the chess clock ran out: nothing left
        (Clock(300, 5_000, 0, True), 4_700),  # the per-move limit: 300 ms of 5 s used
        (Clock(300, 0, 0, True), -1),  # no chess clock to charge
    ],
)
def test_a_seat_that_lost_on_time_is_charged_to_its_deadline(clock: Clock, left_ms: int) -> None:
    """Its clock stops (it is no longer to act) showing the time it had left at its
    deadline, not the time it had when its last decision began."""
    start = record(3, clock, now=1_000, to_act=(0,))
    out = hosting.left(start, 0, "timeout").seats[0]
    assert (out.remaining_ms, out.since_ms, out.timed_out) == (left_ms, 0, True)
    resigned = hosting.left(start, 0, "resign").seats[0]  # a resignation charges nothing
    assert resigned.remaining_ms == start.seats[0].remaining_ms


def test_the_record_with_clocks_round_trips() -> None:
    start = record(3, Clock(1, 2, 3, False), to_act=(1,))
    assert RECORD.decode(RECORD.encode(start)) == start

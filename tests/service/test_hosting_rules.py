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
    assert result.summary == "s (seat 0 resigned; ranked last)"


def test_the_record_with_clocks_round_trips() -> None:
    start = record(3, Clock(1, 2, 3, False), to_act=(1,))
    assert RECORD.decode(RECORD.encode(start)) == start

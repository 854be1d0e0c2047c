"""Hosted play, the platform's part of a game the rules know nothing of: clocks, timeouts,
resignations and the result they lead to (pure functions over the seat record).

Time lives in the record, never in a rule module. A seat's clock runs while it is to act:
``since_ms`` is when its current decision began (the store's clock at the commit that
made it to act), ``remaining_ms`` its chess-clock time as of then (-1 without a clock).
A seat's deadline is ``since + min(per-move limit, remaining)``; the game's deadline is the
earliest of its seats to act. A move charges its seat the time since ``since`` (and adds
the increment); a seat that stays to act through a simultaneous decision keeps running.

No clock runs while a seat of a listed game is still open (nobody has joined it): the
join that fills the table starts the clocks of the seats to act (``table_full``).

A seat that resigned or lost on time ranks below every seat that did not; in a two-seat
game either ends the game at once (``GameRecord.over``), in a larger one the seat is
played out by a bot. The result then says so.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import Any

from tribes.core.errors import BadRequestError
from tribes.core.records import Clock, GameRecord, Seat
from tribes.engine import GameDef, Result
from tribes.engine.game import competition_ranks

MAX_SECONDS = 30 * 86400  # a month per decision or per clock: correspondence play
ON_TIMEOUT = ("forfeit", "bot")
DEFAULT_BOT = "random"  # plays out a seat that resigned or lost on time


def clock_of(per_move: int, initial: int, increment: int, on_timeout: str) -> Clock | None:
    """The clock of a TimeControl request (None when it sets no limit), checked."""
    if not (per_move or initial):
        if increment or on_timeout:
            raise BadRequestError(
                "a time control needs per_move_seconds or initial_seconds", "BAD_TIME_CONTROL"
            )
        return None
    for name, value in (("per_move", per_move), ("initial", initial), ("increment", increment)):
        if not 0 <= value <= MAX_SECONDS:
            raise BadRequestError(f"{name}_seconds must be 0..{MAX_SECONDS}", "BAD_TIME_CONTROL")
    if on_timeout not in ("", *ON_TIMEOUT):
        raise BadRequestError("on_timeout must be forfeit or bot", "BAD_TIME_CONTROL")
    return Clock(per_move * 1000, initial * 1000, increment * 1000, on_timeout != "bot")


def waiting(record: GameRecord) -> bool:
    """A listed game with a seat nobody has joined yet: no clock runs."""
    return any(seat.open for seat in record.seats)


def started(record: GameRecord, to_act: Sequence[int], now_ms: int) -> GameRecord:
    """The record of a new game: every seat's clock full, those to act running (unless
    the game waits for players to join)."""
    clock = record.clock
    if clock is None:
        return record
    running = not waiting(record)
    seats = tuple(
        replace(
            seat,
            remaining_ms=clock.initial_ms if clock.initial_ms else -1,
            since_ms=now_ms if running and i in to_act else 0,
        )
        for i, seat in enumerate(record.seats)
    )
    return replace(record, seats=seats)


def table_full(record: GameRecord, to_act: Sequence[int], now_ms: int) -> GameRecord:
    """The record once the last open seat is joined: the seats to act start their clocks
    now (the clocks keep the time they have)."""
    if record.clock is None or waiting(record):
        return record
    seats = tuple(
        replace(seat, since_ms=now_ms) if i in to_act and not seat.since_ms else seat
        for i, seat in enumerate(record.seats)
    )
    return replace(record, seats=seats)


def charged(
    record: GameRecord,
    before: Sequence[int],
    after: Sequence[int],
    mover: int | None,
    now_ms: int,
) -> GameRecord:
    """The clocks after a commit at ``now_ms``: the mover pays its time (and gets the
    increment), seats that stay to act keep running, seats newly to act start."""
    clock = record.clock
    if clock is None or waiting(record):
        return record  # nothing runs before the table is full
    seats = list(record.seats)
    for i, seat in enumerate(seats):
        remaining, since, bot_decides = seat.remaining_ms, seat.since_ms, seat.bot_decides
        if i == mover:
            bot_decides = False
            if since:
                if remaining >= 0:
                    remaining = max(0, remaining - (now_ms - since)) + clock.increment_ms
                since = 0
        if i in after:
            if not since or i not in before:
                since = now_ms
        else:
            since, bot_decides = 0, False
        if (remaining, since, bot_decides) != (seat.remaining_ms, seat.since_ms, seat.bot_decides):
            seats[i] = replace(
                seat, remaining_ms=remaining, since_ms=since, bot_decides=bot_decides
            )
    return replace(record, seats=tuple(seats))


def seat_deadline(clock: Clock, seat: Seat) -> int:
    """When this seat's current decision times out (0: not to act, no limit, or a bot is
    making it after a timeout)."""
    if not seat.since_ms or seat.bot or seat.bot_decides:
        return 0
    limits = []
    if clock.per_move_ms:
        limits.append(clock.per_move_ms)
    if seat.remaining_ms >= 0:
        limits.append(seat.remaining_ms)
    return seat.since_ms + min(limits) if limits else 0


def deadlines(record: GameRecord) -> list[int]:
    clock = record.clock
    if clock is None or record.over or waiting(record):
        return [0] * len(record.seats)
    return [seat_deadline(clock, seat) for seat in record.seats]


def next_deadline(record: GameRecord) -> int:
    """The earliest deadline of the game (0 = none)."""
    return min((d for d in deadlines(record) if d), default=0)


def timed_out(record: GameRecord, now_ms: int) -> int | None:
    """The seat whose deadline has passed first, if any."""
    due = [(d, i) for i, d in enumerate(deadlines(record)) if d and d <= now_ms]
    return min(due)[1] if due else None


def left(record: GameRecord, seat: int, how: str) -> GameRecord:
    """The record after ``seat`` resigned (``how="resign"``) or lost on time ("timeout"):
    a two-seat game is over; otherwise a bot plays the seat out. A seat that lost on time
    is charged the time its decision took up to its deadline: its chess clock then shows
    what it had left (none, when the chess clock ran out)."""
    seats = list(record.seats)
    others = [i for i, s in enumerate(seats) if i != seat and not (s.resigned or s.timed_out)]
    old = seats[seat]
    remaining = old.remaining_ms
    deadline = seat_deadline(record.clock, old) if record.clock is not None else 0
    if how == "timeout" and deadline and remaining >= 0:
        remaining = max(0, remaining - (deadline - old.since_ms))
    seats[seat] = replace(
        old,
        bot=old.bot or DEFAULT_BOT,
        remaining_ms=remaining,
        since_ms=0,
        resigned=old.resigned or how == "resign",
        timed_out=old.timed_out or how == "timeout",
    )
    return replace(record, seats=tuple(seats), over=len(others) <= 1)


def is_over(game: GameDef[Any, Any, Any], state: Any, record: GameRecord) -> bool:
    return record.over or game.result(state) is not None


def result(game: GameDef[Any, Any, Any], state: Any, record: GameRecord) -> Result | None:
    """The game's result, with seats that resigned or lost on time ranked last."""
    ruled = game.result(state)
    gone = [i for i, s in enumerate(record.seats) if s.resigned or s.timed_out]
    if not gone:
        return ruled
    if ruled is None and not record.over:
        return None
    seats = len(record.seats)
    scores = ruled.scores if ruled is not None else tuple([0] * seats)
    own = ruled.ranks if ruled is not None else tuple([1] * seats)
    # staying seats first, by the rules' ranks; then the ones that left, tied
    keys = [(0 if i in gone else 1, -own[i]) for i in range(seats)]
    ranks = competition_ranks(keys)
    why = ", ".join(
        f"seat {i} {'resigned' if record.seats[i].resigned else 'lost on time'}" for i in gone
    )
    winners = [i for i, rank in enumerate(ranks) if rank == 1]
    if ruled is not None and list(ruled.winners) == winners:
        summary = ruled.summary  # the rules' own words name the right seats
    else:  # the rules' winner left, or the game ended before its rules ended it
        summary = " and ".join(f"seat {i}" for i in winners)
        summary += " wins" if len(winners) == 1 else " win"
        if ruled is None:
            summary += ", the game ended early"
    return Result(scores=scores, ranks=ranks, summary=f"{summary} ({why}; ranked last)")

"""Hosted play in the core: resignation, timeouts applied once, the sweep's due work, and
bot suggestions (README "Hosted play"); the pure rules of clocks and leaving are
``tribes.core.hosting``, the seats the service plays ``tribes.core.botseats``.

Functions of the core (``tribes.core.games.Games`` delegates ``Resign``, ``SuggestMove``
and the sweep here; its move path asks ``timed_out`` before a move).
"""

from __future__ import annotations

import asyncio
import secrets
from dataclasses import replace
from typing import TYPE_CHECKING

from tribes.core import hosting, limits
from tribes.core.cache import Cached
from tribes.core.catalog import Entry
from tribes.core.errors import (
    FailedPreconditionError,
    GameNotFoundError,
    StaleVersionError,
    TokenRequiredError,
)
from tribes.core.records import resign_id, timeout_id
from tribes.engine import SPECTATOR, GameFinishedError, NotYourTurnError
from tribes.store import CommitStatus
from tribes.v1 import game_service_pb2 as spb

if TYPE_CHECKING:
    from tribes.core.games import Caller, Games


async def suggest_move(
    games: Games, caller: Caller, request: spb.SuggestMoveRequest
) -> spb.SuggestMoveResponse:
    """A bot's choice among the caller's legal moves; the game does not change.

    The bot sees the stored state only through ``determinize`` for the caller's seat
    (``tribes.bots``) and runs in a worker thread, so the event loop goes on serving.
    """
    game_id = limits.game_id(request.name)
    if caller.token is None:
        raise TokenRequiredError("suggestions need a seat token (authorization: Bearer <token>)")
    kind = limits.bot_kind(request.bot or games.default_bot, games.bot_kinds)
    budget_ms = limits.bot_budget(request.budget_ms, games.bot_budget_ms, games.bot_max_budget_ms)
    cached = await games.current_state(game_id)
    entry = games.catalog.get(cached.meta.game_type)
    game = entry.game
    seat = games.tokens.seat_of(game_id, cached.meta.salt, cached.meta.seat_count, caller.token)
    if hosting.is_over(game, cached.state, cached.record):
        raise GameFinishedError("the game is over")
    check_still_playing(cached, seat)
    if not games.legal(entry, cached, seat):
        raise NotYourTurnError(f"seat {seat} is not to act now")
    move = await asyncio.to_thread(
        games.suggester, game, cached.state, seat, kind, secrets.randbits(64), budget_ms
    )
    games.metrics.inc(games.metrics.suggestions, game.id, kind)
    return spb.SuggestMoveResponse(move_id=move.key, description=game.describe(cached.state, move))


# -- hosted play: resignation, timeouts, bots ----------------------------------------


async def resign(games: Games, caller: Caller, request: spb.ResignRequest) -> bytes:
    """The caller's seat leaves: a two-seat game ends, a larger one plays on with the
    seat played out by a bot; the seat ranks below every seat that did not resign."""
    game_id = limits.game_id(request.name)
    if caller.token is None:
        raise TokenRequiredError("resigning needs a seat token")
    request_id = limits.request_id(request.request_id)
    owner = caller.token.partition(".")[0]
    request_key = f"{owner}:resign:{request_id}" if request_id else None
    for _ in range(limits.MAX_SEATS + 1):
        entry, current, prior = await games.stored_state(game_id, request_key)
        meta = current.meta
        seat = games.tokens.seat_of(game_id, meta.salt, meta.seat_count, caller.token)
        if prior is not None:  # a retry: the version it made
            played = await games.replay_answer(entry, game_id, current, seat, prior, "Resign")
            return games.snapshot(entry, game_id, played.cached, seat)
        if current.record.clock is not None and await timed_out(games, entry, game_id, current):
            continue  # a deadline that passed first decides first (as for a move)
        if hosting.is_over(entry.game, current.state, current.record):
            raise GameFinishedError("the game is over")
        check_still_playing(current, seat)  # resigning twice, or after losing on time
        record = hosting.left(current.record, seat, "resign")
        logged = games.system_entry(current, seat, resign_id(seat), f"Seat {seat} resigned")
        outcome, fresh = await games.commit_record(
            entry, game_id, current, record, logged, request_key
        )
        if fresh is not None:  # applied
            games.metrics.inc(games.metrics.resignations, entry.game.id)
            return games.snapshot(entry, game_id, fresh, seat)
        if outcome.status is CommitStatus.DUPLICATE:
            played = await games.replay_answer(
                entry, game_id, current, seat, outcome.version, "Resign"
            )
            return games.snapshot(entry, game_id, played.cached, seat)
        if outcome.status is CommitStatus.MISSING:
            raise GameNotFoundError(f"there is no game 'games/{game_id}'")
    raise StaleVersionError("the game is changing too fast; try again")


async def timed_out(
    games: Games, entry: Entry, game_id: str, cached: Cached, now: int | None = None
) -> bool:
    """Apply a passed deadline of this game (once, by compare-and-set); True if one was
    due at the store's time ``now`` (the caller looks at the game again)."""
    if now is None:
        now = await games.store.now_ms()
    seat = hosting.timed_out(cached.record, now)
    if seat is None:
        return False
    clock = cached.record.clock
    assert clock is not None
    if clock.forfeit:
        record = hosting.left(cached.record, seat, "timeout")
        text = f"Seat {seat} ran out of time and loses"
    else:  # a bot makes this decision (BotSeats, once); the seat then plays on
        seats = list(cached.record.seats)
        seats[seat] = replace(seats[seat], bot_decides=True)
        record = replace(cached.record, seats=tuple(seats))
        text = f"Seat {seat} ran out of time; a bot makes this decision"
    logged = games.system_entry(cached, seat, timeout_id(seat, clock.forfeit), text)
    outcome, _ = await games.commit_record(entry, game_id, cached, record, logged)
    if outcome.status is CommitStatus.APPLIED:
        games.metrics.inc(games.metrics.timeouts, entry.game.id)
    return True


async def service_due(games: Games, game_id: str, now_ms: int) -> None:
    """The sweep's work for one game: a passed deadline, or a bot's turn."""
    try:
        cached = await games.current_state(game_id)
    except GameNotFoundError:
        await games.store.due_set(game_id, 0)
        return
    entry = games.catalog.get(cached.meta.game_type)
    if cached.record.clock is not None and await timed_out(games, entry, game_id, cached, now_ms):
        return
    if games.bots.to_play(entry, cached) is not None:
        games.bots.kick(entry, game_id, cached)
        return
    over = hosting.is_over(entry.game, cached.state, cached.record)
    await games.store.due_set(game_id, 0 if over else hosting.next_deadline(cached.record))


def plays(cached: Cached, viewer: int) -> bool:
    """Whether the viewer is a seat its person still plays (not one that resigned or lost
    on time, which a bot plays out): only then does its snapshot list legal moves."""
    if viewer == SPECTATOR:
        return False
    seat = cached.record.seats[viewer]
    return not (seat.resigned or seat.timed_out)


def check_still_playing(cached: Cached, seat: int) -> None:
    if not plays(cached, seat):
        gone = cached.record.seats[seat]
        why = "resigned" if gone.resigned else "lost on time"
        raise FailedPreconditionError(
            f"this seat has {why}: a bot plays it out", "ALREADY_RESIGNED"
        )

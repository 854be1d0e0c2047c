"""The lobby: listed games in pages, and joins that claim their seats (README "Lobby").

Functions of the core (``tribes.core.games.Games`` delegates ``ListGames`` and
``JoinGame`` here), over its store, tokens, cache and snapshots.
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

from tribes.core import hosting, limits
from tribes.core.cache import Cached
from tribes.core.catalog import Entry
from tribes.core.errors import (
    BadRequestError,
    FailedPreconditionError,
    GameNotFoundError,
    StaleVersionError,
)
from tribes.core.records import join_id, unpack
from tribes.core.snapshots import join_response
from tribes.engine import GameFinishedError
from tribes.store import CommitStatus, Loaded
from tribes.v1 import common_pb2 as pb
from tribes.v1 import game_service_pb2 as spb

if TYPE_CHECKING:
    from tribes.core.games import Caller, Games


async def list_games(
    games: Games, caller: Caller, request: spb.ListGamesRequest
) -> spb.ListGamesResponse:
    """The lobby: listed games, newest first, optionally of one type or with open seats.

    The index is scanned in batches until the page is full (bounded: a page looks at
    most ``_LOBBY_SCAN`` times its size); games that expired are dropped from it on
    the way. The page token is a signed cursor (creation time, game id), given only
    when a game may follow (with ``open_only``, a game beyond the scanned batches may
    turn out full, so such a token can lead to an empty page). A finished game has no
    open seats: nobody can join it.
    """
    kind = limits.game_type(request.game_type) if request.game_type else ""
    if kind:
        games.catalog.get(kind)  # an unknown type is NOT_FOUND, as for CreateGame
    size = limits.lobby_page_size(request.page_size)
    scope = f"lobby:{kind}:{int(request.open_only)}"
    before = _cursor(games.tokens.cursor_of(scope, request.page_token))
    page: list[pb.GameSummary] = []
    scanned = 0
    more = True
    while len(page) < size and scanned < size * _LOBBY_SCAN:
        # one more than a batch: whether any game lies beyond it (no token for a last page)
        batch = await games.store.list_page(kind, before, size + 1)
        more, batch = len(batch) > size, batch[:size]
        scanned += len(batch)
        loaded = await games.store.load_many([game_id for game_id, _ in batch])
        for index, ((game_id, created), found) in enumerate(zip(batch, loaded, strict=True)):
            before = (created, game_id)
            if found is None:
                meta = games.cache.meta(game_id)
                kinds = ("", meta.game_type) if meta is not None else ("",)
                await games.store.list_remove(game_id, kinds)
                continue
            summary = _summary(games, game_id, found)
            if request.open_only and not summary.open_seats:
                continue
            page.append(summary)
            if len(page) == size:
                rest = zip(batch[index + 1 :], loaded[index + 1 :], strict=True)
                more = more or any(
                    found is not None
                    and (not request.open_only or _summary(games, game_id, found).open_seats)
                    for (game_id, _), found in rest
                )
                break
        if not more:
            break
    token = ""
    if more and before is not None:
        payload = before[0].to_bytes(8, "big") + before[1].encode()
        token = games.tokens.cursor_token(scope, payload)
    return spb.ListGamesResponse(games=page, next_page_token=token)


def _summary(games: Games, game_id: str, loaded: Loaded) -> pb.GameSummary:
    meta = games.meta_of(game_id, loaded)
    record, _ = unpack(loaded.state, meta)
    return pb.GameSummary(
        name=f"games/{game_id}",
        game_type=meta.game_type,
        seat_count=meta.seat_count,
        open_seats=() if loaded.finished else record.open_seats,  # none to join once over
        player_names=[seat.name for seat in record.seats],
        finished=loaded.finished,
        version=loaded.version,
        create_time_unix_ms=meta.created_ms,
        options=dict(meta.options),
    )


async def join_game(games: Games, caller: Caller, request: spb.JoinGameRequest) -> bytes:
    """Claim a seat of a listed game; its token goes to this caller only.

    A claim is a version of the game (a system entry in the log), committed with the
    compare-and-set, so of two racing joins for one seat exactly one wins; a join for
    "any seat" that loses a race tries the next open seat. A retry with the same
    ``request_id`` gets the seat and token of its first answer.
    """
    game_id = limits.game_id(request.name)
    name = limits.player_name(request.player_name)
    request_id = limits.request_id(request.request_id)
    request_key = f"join:{request_id}" if request_id else None
    wanted = request.seat if request.HasField("seat") else None
    for _ in range(limits.MAX_SEATS + 1):
        entry, current, prior = await games.stored_state(game_id, request_key)
        if prior is not None:
            return await _joined(games, entry, game_id, current, prior)
        seat = _seat_to_claim(entry, current, wanted)
        # the seat's name changes, and the join that fills the table starts the clocks
        # (``hosting.table_full``); the platform's end stays
        seats = list(current.record.seats)
        seats[seat] = replace(seats[seat], name=name, open=False)
        record = replace(current.record, seats=tuple(seats))
        if record.clock is not None and not hosting.waiting(record):
            to_act = entry.game.to_act(current.state)
            record = hosting.table_full(record, to_act, await games.store.now_ms())
        text = f"{name or 'A player'} joined as seat {seat}"
        logged = games.system_entry(current, seat, join_id(seat, name), text)
        # committed like every system entry; a bot deciding against the version before
        # the join takes the new one up (``after_commit``)
        outcome, fresh = await games.commit_record(
            entry, game_id, current, record, logged, request_key
        )
        if fresh is not None:
            return join_response(
                seat,
                games.tokens.issue(game_id, seat, current.meta.salt),
                games.snapshot(entry, game_id, fresh, seat),
            )
        if outcome.status is CommitStatus.DUPLICATE:
            return await _joined(games, entry, game_id, current, outcome.version)
        if outcome.status is CommitStatus.MISSING:
            raise GameNotFoundError(f"there is no game 'games/{game_id}'")
        # CONFLICT: another join (or move) landed first; look again
    raise StaleVersionError("the game is changing too fast; try again")


def _seat_to_claim(entry: Entry, current: Cached, wanted: int | None) -> int:
    record, seat_count = current.record, current.meta.seat_count
    if not record.listed:
        raise FailedPreconditionError(
            "this game is not listed: its seat tokens went to its creator", "NOT_LISTED"
        )
    if hosting.is_over(entry.game, current.state, record):  # or ended by the platform
        raise GameFinishedError("the game is over")
    if wanted is None:
        if not record.open_seats:
            raise FailedPreconditionError("every seat of this game is taken", "GAME_FULL")
        return record.open_seats[0]
    if not 0 <= wanted < seat_count:
        raise BadRequestError(f"seat must be 0..{seat_count - 1}", "BAD_SEAT")
    if not record.seats[wanted].open:
        raise FailedPreconditionError(f"seat {wanted} is taken", "SEAT_TAKEN")
    return wanted


async def _joined(games: Games, entry: Entry, game_id: str, current: Cached, version: int) -> bytes:
    """The first answer to a retried join: the seat its system entry names."""
    games.metrics.inc(games.metrics.idempotent_replays, "JoinGame")
    blobs = await games.store.read_log(game_id, version - 2, 1)
    logged = games.log_entry(blobs[0])
    seat = logged.seat
    return join_response(
        seat,
        games.tokens.issue(game_id, seat, current.meta.salt),
        games.snapshot(entry, game_id, current, seat),
    )


_LOBBY_SCAN = 10


def _cursor(payload: bytes | None) -> tuple[int, str] | None:
    if payload is None:
        return None
    return int.from_bytes(payload[:8], "big"), payload[8:].decode("ascii", "replace")

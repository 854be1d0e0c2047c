"""Play sessions (``rpc Play`` and its WebSocket): one stream per seat, snapshots pushed.

A session is opened on one game for the caller's seat (or as a read-only spectator).
From then on one loop serves it: it wakes on a single event for both the game's changes
(the store's change feed, so moves made through any replica and any door arrive) and
the client's requests (read by one task into the same inbox), plays the requests with
exactly ``ApplyMove``'s code path (limits, tokens, idempotency, errors), and pushes the
seat's snapshot — built once per (game, version, seat) and shared with every other
caller — after every change. A refused move is answered in the stream as
``MoveRejected`` and the session goes on. A session that falls behind gets the newest
snapshot, never a backlog (its inbox keeps few changes and it sends only the last).
The stream ends after the final snapshot of a finished game. Everything is released on
every way out: the reader task is cancelled and the subscription dropped.
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
from collections.abc import AsyncGenerator, AsyncIterator
from typing import TYPE_CHECKING, Any

from tribes.core import hosting, limits
from tribes.core.errors import BadRequestError
from tribes.core.status import KNOWN, failure_of
from tribes.store import Change, Mailbox
from tribes.v1 import game_service_pb2 as spb
from tribes.wire import protowire as pw

if TYPE_CHECKING:
    from tribes.core.games import Caller, Games

#: Requests a client may have queued before its reader waits (backpressure).
MAX_PENDING_REQUESTS = 8
_SNAPSHOT, _REJECTED, _REQUEST_ID = 1, 2, 3  # PlayEvent fields


class Inbox(Mailbox):
    """A session's one wake-up: the game's changes and the client's requests."""

    __slots__ = ("_requests", "_space", "closed")

    def __init__(self) -> None:
        super().__init__(capacity=4)
        self._requests: collections.deque[Any] = collections.deque()
        self._space = asyncio.Event()
        self._space.set()
        self.closed = False  # the client sent its last request

    def put_request(self, request: Any) -> None:
        self._requests.append(request)
        if len(self._requests) >= MAX_PENDING_REQUESTS:
            self._space.clear()
        self._ready.set()

    @property
    def full(self) -> bool:
        return not self._space.is_set()

    async def room(self) -> None:
        await self._space.wait()

    def end_requests(self) -> None:
        self.closed = True
        self._ready.set()

    async def next(self) -> tuple[list[Any], Change | None, bytes | None]:
        """The pending requests, the newest change (older ones are dropped) and the newest
        presence notice (or None)."""
        await self.wait_until(
            lambda: bool(self._requests or self._changes) or self.notice is not None
        )
        notice, self.notice = self.notice, None
        requests = list(self._requests)
        self._requests.clear()
        self._space.set()
        change = None
        if self._changes:
            change = self._changes[-1]
            self.dropped += len(self._changes) - 1
            self._changes.clear()
        return requests, change, notice


def snapshot_event(snapshot: bytes, request_id: str = "") -> bytes:
    """``PlayEvent{snapshot, request_id}`` bytes around pre-serialized snapshot bytes;
    ``request_id`` names the move it answers (empty for a push)."""
    return pw.message_field(_SNAPSHOT, snapshot) + pw.string_field(_REQUEST_ID, request_id)


def rejected_event(request_id: str, error: Exception) -> bytes:
    rejected = spb.MoveRejected(request_id=request_id, status=failure_of(error).status())
    return pw.message_field(_REJECTED, rejected.SerializeToString()) + pw.string_field(
        _REQUEST_ID, request_id
    )


async def _read(requests: AsyncIterator[Any], inbox: Inbox) -> None:
    """Move the client's requests into the inbox, waiting while too many are queued."""
    try:
        async for request in requests:
            if inbox.full:
                await inbox.room()
            inbox.put_request(request)
    finally:
        inbox.end_requests()


async def play(
    games: Games, caller: Caller, requests: AsyncIterator[Any], *, transport: str = "grpc"
) -> AsyncGenerator[bytes, None]:
    """The session: PlayEvent bytes out for PlayRequest messages in."""
    first = await anext(requests, None)
    if first is None:
        return
    if not isinstance(first, spb.PlayRequest) or first.WhichOneof("kind") != "open":
        raise BadRequestError("a session starts with an open request", "SESSION_NOT_OPEN")
    opened = first.open
    game_id = limits.game_id(opened.name)
    inbox = Inbox()
    async with games.stream_limit.held(caller.peer), games.store.watch(game_id, inbox):
        entry, current = await games.watched_state(game_id)  # after the subscription
        meta = current.meta
        viewer = games.viewer_of(caller, game_id, meta)
        gauge = games.metrics.child(games.metrics.sessions, transport)
        gauge.inc()
        hold = None
        reader = asyncio.create_task(_read(requests, inbox))
        games.viewer_opened(game_id, viewer)
        try:
            hold = await games.presence.opened(game_id, viewer)
            held = opened.from_version if opened.HasField("from_version") else None
            last = current
            seats = meta.seat_count
            shown = games.presence.known(game_id, seats)  # the presence last pushed
            if held != current.version:
                yield snapshot_event(games.snapshot(entry, game_id, current, viewer, shown))
            while not hosting.is_over(entry.game, last.state, last.record):
                inbox.catch_up(last.version)  # e.g. its own moves' changes need not wake it
                moves, change, notice = await inbox.next()
                for request in moves:
                    event, played = await _move(games, caller, game_id, request)
                    if played is not None and played.version > last.version:
                        last = played
                    yield event
                if notice is not None:
                    games.presence.absorb(game_id, notice)
                if change is not None and change.version > last.version:
                    last = games.cached_state(entry, game_id, meta, change.version, change.state)
                    shown = games.presence.known(game_id, seats)
                    yield snapshot_event(games.snapshot(entry, game_id, last, viewer, shown))
                elif notice is not None and (seen := games.presence.known(game_id, seats)) != shown:
                    # a seat came or went: the same version with a new seat list
                    shown = seen
                    yield snapshot_event(games.snapshot(entry, game_id, last, viewer, shown))
        finally:
            games.viewer_closed(game_id, viewer)
            gauge.dec()
            reader.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await reader
            if hold is not None:
                await games.presence.release(hold)


async def _move(games: Games, caller: Caller, game_id: str, request: Any) -> tuple[bytes, Any]:
    """One in-session request: (the event answering it, the Cached it produced or None)."""
    if not isinstance(request, spb.PlayRequest) or request.WhichOneof("kind") != "move":
        kind = request.WhichOneof("kind") if isinstance(request, spb.PlayRequest) else None
        error = BadRequestError(
            "this session is open; send moves" if kind == "open" else "not a play request",
            "SESSION_ALREADY_OPEN" if kind == "open" else "MALFORMED_REQUEST",
        )
        return rejected_event("", error), None
    move = request.move
    request_id = move.request_id if len(move.request_id) <= limits.MAX_REQUEST_ID else ""
    if not move.name:
        move.name = f"games/{game_id}"
    try:
        # a move naming another game is answered as ApplyMove answers it: the session's
        # token is its own game's, so it is refused (BAD_TOKEN; GAME_NOT_FOUND, BAD_NAME)
        played = await games.play_move(caller, move)
    except KNOWN as exc:  # UNAVAILABLE too: the client retries with the same request_id
        return rejected_event(request_id, exc), None
    snapshot = games.snapshot(played.entry, played.game_id, played.cached, played.seat)
    return snapshot_event(snapshot, request_id), (
        played.cached if played.game_id == game_id else None
    )

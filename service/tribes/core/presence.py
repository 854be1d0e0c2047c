"""Presence: which seats have a live session or watch open, on any replica, and since when.

Every session and seat watch is a *holder* of its seat: it is written to the game's
presence hash in the store when it opens, refreshed every ``REFRESH_S`` while it lives
and removed (leaving a "last seen" mark) when it closes. A holder not refreshed for
``EXPIRY_MS`` — its replica died — counts as gone. A seat is present while it has a live
holder (``since`` = its earliest); otherwise ``since`` is when it was last seen, so a
frontend can say "disconnected 2 min ago". Opening and closing publish a notice on the
game's change feed carrying every entry (one store round trip each), so open sessions on
every replica push the new seat list at once without reading it again.

Reading is cached per game for ``CACHE_MS`` of the store's clock (a snapshot does not
cost a store read).
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import os
from collections.abc import Coroutine
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, TypeVar

from tribes.engine import SPECTATOR
from tribes.store import PresenceEntries, Store, StoreUnavailableError, decode_presence

if TYPE_CHECKING:
    from tribes.core.games import StoreClock

T = TypeVar("T")

REFRESH_S = 10.0
EXPIRY_MS = 30_000
CACHE_MS = 2_000

Seen = tuple[bool, int]  # (present, since or last seen)


@dataclass(frozen=True, slots=True)
class Hold:
    game_id: str
    seat: int
    holder: str
    since_ms: int


def interpret(entries: PresenceEntries, seats: int, now_ms: int) -> tuple[Seen, ...]:
    """Each seat's (present, since) from the stored ``seat:holder -> (since, seen)``."""
    live: dict[int, int] = {}
    seen: dict[int, int] = {}
    for field, (since, last) in entries.items():
        seat_text, _, holder = field.partition(":")
        if not seat_text.isdigit():
            continue
        seat = int(seat_text)
        if holder != "left" and now_ms - last <= EXPIRY_MS:
            live[seat] = min(since, live.get(seat, since))
        else:
            seen[seat] = max(last, seen.get(seat, 0))
    return tuple((True, live[s]) if s in live else (False, seen.get(s, 0)) for s in range(seats))


class Presence:
    def __init__(self, store: Store, clock: StoreClock) -> None:
        self.store = store
        self.clock = clock
        self._prefix = f"{os.getpid()}-{os.urandom(3).hex()}"
        self._ids = itertools.count()
        self._held: set[Hold] = set()
        self._cache: dict[str, tuple[int, PresenceEntries]] = {}
        #: the last interpretation per game: (entries, seats, valid until ms, result)
        self._seen: dict[str, tuple[PresenceEntries, int, int, tuple[Seen, ...]]] = {}
        self._refresher: asyncio.Task[None] | None = None
        self._fetching: set[str] = set()
        self._tasks: set[asyncio.Task[Any]] = set()
        self._closed = False

    @property
    def holds(self) -> int:
        """How many presence holds this process keeps refreshing."""
        return len(self._held)

    async def ensure(self, game_id: str) -> None:
        """Read the game's presence unless a fresh enough reading is at hand."""
        if self._stale(game_id):
            await self._fetch(game_id)

    def _stale(self, game_id: str) -> bool:
        cached = self._cache.get(game_id)
        return cached is None or self.clock.estimate() - cached[0] > CACHE_MS

    def known(self, game_id: str, count: int) -> tuple[Seen, ...]:
        """Each seat's presence as last read (refreshed in the background when older than
        ``CACHE_MS``): what every snapshot shows without waiting for the store."""
        cached = self._cache.get(game_id)
        if self._stale(game_id) and game_id not in self._fetching:
            self._fetching.add(game_id)
            self._spawn(self._fetch(game_id))
        entries = cached[1] if cached is not None else {}
        now = self.clock.estimate()
        memo = self._seen.get(game_id)
        if memo is not None and memo[0] is entries and memo[1] == count and now <= memo[2]:
            return memo[3]
        seen = interpret(entries, count, now)
        # the same until a live holder's last sighting expires
        lives = (last + EXPIRY_MS for f, (_, last) in entries.items() if not f.endswith(":left"))
        until = min(lives, default=1 << 62)
        if len(self._seen) > 10_000:
            self._seen.clear()
        self._seen[game_id] = (entries, count, until, seen)
        return seen

    async def _fetch(self, game_id: str) -> None:
        try:
            entries = await self.store.presence(game_id)
        except StoreUnavailableError:
            return
        finally:
            self._fetching.discard(game_id)
        self._remember(game_id, entries)

    def _remember(self, game_id: str, entries: PresenceEntries) -> None:
        if len(self._cache) > 10_000:
            self._cache.clear()
        self._cache[game_id] = (self.clock.estimate(), entries)

    def created(self, game_id: str) -> None:
        """A game this process has just created: no seat can be present in it yet, so
        its first snapshots need no read of the store."""
        self._remember(game_id, {})

    def absorb(self, game_id: str, notice: bytes) -> None:
        """A presence notice from the change feed: every entry, as the store wrote them
        (no read needed)."""
        self._remember(game_id, decode_presence(notice))

    def forget(self, game_id: str) -> None:
        self._cache.pop(game_id, None)
        self._seen.pop(game_id, None)

    async def opened(self, game_id: str, viewer: int) -> Hold | None:
        """A stream opens for ``viewer``: a seat holds its presence (its enter reads every
        seat's); a spectator only reads the stored seat list when
        this replica's reading is stale, since no push would correct a wrong one."""
        if viewer != SPECTATOR:
            return await self.hold(game_id, viewer)
        await self.ensure(game_id)
        return None

    async def hold(self, game_id: str, seat: int) -> Hold:
        """Enter ``seat``'s presence as a new holder. The store's write runs to its end even
        if the caller is cancelled meanwhile (a stream closed as it opens): the holder is
        then left again at once, after the write, so the seat is not shown present until
        the entry expires, and a leave never overtakes its enter."""
        now = self.clock.estimate()
        hold = Hold(game_id, seat, f"{self._prefix}-{next(self._ids)}", now)
        self._held.add(hold)
        entering = self._spawn(self.store.presence_enter(game_id, seat, hold.holder, now))
        try:
            try:
                entries = await asyncio.shield(entering)
            except StoreUnavailableError:
                pass
            else:
                self._remember(game_id, entries)
        except BaseException:
            self._held.discard(hold)
            entering.add_done_callback(lambda done: self._leave_after(hold, done))
            raise
        if self._refresher is None or self._refresher.done():
            self._refresher = asyncio.get_running_loop().create_task(self._refresh())
        return hold

    def _spawn(self, work: Coroutine[Any, Any, T]) -> asyncio.Task[T]:
        """A task of this object's, cancelled by ``close``."""
        task = asyncio.get_running_loop().create_task(work)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
        return task

    def _leave_after(self, hold: Hold, entering: asyncio.Task[Any]) -> None:
        """A hold whose taker was cancelled, once its enter is done: released (but not
        after ``close``, which leaves holds to expire)."""
        if not entering.cancelled():
            entering.exception()  # retrieved: its caller is gone, and a leave follows
        if not self._closed:
            self._spawn(self.release(hold))

    async def release(self, hold: Hold) -> None:
        self._held.discard(hold)
        with contextlib.suppress(StoreUnavailableError):
            await self.store.presence_leave(
                hold.game_id, hold.seat, hold.holder, self.clock.estimate()
            )
        self.forget(hold.game_id)

    async def _refresh(self) -> None:
        while self._held:
            await asyncio.sleep(REFRESH_S)
            now = self.clock.estimate()
            for hold in list(self._held):
                if hold not in self._held:
                    continue  # released while this pass awaited another: not written again
                with contextlib.suppress(StoreUnavailableError):
                    await self.store.presence_touch(
                        hold.game_id, hold.seat, hold.holder, hold.since_ms, now
                    )

    async def close(self) -> None:
        """Stop refreshing (the holds then expire on their own) and reading."""
        self._closed = True
        tasks = [*self._tasks, *([self._refresher] if self._refresher is not None else [])]
        for task in tasks:
            task.cancel()
        for task in tasks:
            # a store failure of a task whose caller has gone was theirs to see, not ours
            with contextlib.suppress(asyncio.CancelledError, StoreUnavailableError):
                await task

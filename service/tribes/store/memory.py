"""The embedded store: the same contract as Redis, inside the server process.

Chosen when no ``REDIS_URL`` is configured, so a newcomer's ``make run`` needs
nothing else. It is single-process (games vanish on restart, and a second server
process cannot see them); everything else — compare-and-set, idempotency records,
expiry, the change feed — behaves exactly as with Redis, and the same contract tests
run against both. Every method completes without awaiting in between its checks and
its writes, which is what makes them atomic on one event loop.

It holds at most ``max_games`` live games (``TRIBES_MAX_GAMES``); a create beyond that
first drops expired games and then raises StoreFullError, so an anonymous flood of
``CreateGame`` cannot grow the process without bound.
"""

from __future__ import annotations

import time
from collections.abc import AsyncIterator, Callable, Sequence
from contextlib import asynccontextmanager
from dataclasses import dataclass, field

from tribes.store.base import (
    Change,
    CommitOutcome,
    CommitStatus,
    Loaded,
    Mailbox,
    PresenceEntries,
    Store,
    StoreFullError,
    StoreUnavailableError,
    Ttls,
    WatchEndedError,
    encode_presence,
)


@dataclass
class _Game:
    meta: bytes
    version: int
    state: bytes
    finished: bool
    log: list[bytes] = field(default_factory=list)
    requests: dict[str, tuple[int, float]] = field(default_factory=dict)  # key -> (version, expiry)
    expires: float = 0.0  # 0 = never


class MemoryStore(Store):
    def __init__(
        self,
        ttls: Ttls = Ttls(),
        clock: Callable[[], float] = time.monotonic,
        *,
        max_games: int = 100_000,
        wall: Callable[[], float] | None = None,
    ) -> None:
        self._ttls = ttls
        self._clock = clock
        # the store's own wall clock (hosted play's time): a given clock is the wall
        # clock too, so tests move both
        self._wall = wall if wall is not None else (time.time if clock is time.monotonic else clock)
        self._max_games = max_games
        self._games: dict[str, _Game] = {}
        self._watchers: dict[str, set[Mailbox]] = {}
        self._lobby: dict[str, dict[str, int]] = {}  # kind -> game id -> created_ms
        self._due: dict[str, int] = {}
        self._leases: dict[tuple[str, str], tuple[float, str]] = {}  # -> (expiry, holder)
        self._presence: dict[str, PresenceEntries] = {}
        self._secret: bytes | None = None
        self._closed = False

    def _live(self, game_id: str) -> _Game | None:
        self._check_open()
        game = self._games.get(game_id)
        if game is not None and game.expires and game.expires <= self._clock():
            del self._games[game_id]
            return None
        return game

    def _drop_expired(self) -> None:
        now = self._clock()
        for game_id in [
            g for g, game in self._games.items() if game.expires and game.expires <= now
        ]:
            del self._games[game_id]

    def _check_open(self) -> None:
        if self._closed:
            raise StoreUnavailableError("the embedded store is closed")

    def _expiry(self, seconds: int) -> float:
        return self._clock() + seconds if seconds else 0.0

    async def create(self, game_id: str, meta: bytes, state: bytes) -> bool:
        if self._live(game_id) is not None:
            return False
        if len(self._games) >= self._max_games:
            self._drop_expired()
            if len(self._games) >= self._max_games:
                raise StoreFullError(f"the embedded store holds {self._max_games} games")
        self._games[game_id] = _Game(meta, 1, state, False, expires=self._expiry(self._ttls.idle))
        return True

    async def load(self, game_id: str, request_key: str | None = None) -> Loaded | None:
        game = self._live(game_id)
        if game is None:
            return None
        prior = self._prior(game, request_key)
        return Loaded(game.meta, game.version, game.state, game.finished, prior)

    def _prior(self, game: _Game, request_key: str | None) -> int | None:
        if request_key is None or request_key not in game.requests:
            return None
        version, expires = game.requests[request_key]
        if expires and expires <= self._clock():
            del game.requests[request_key]
            return None
        return version

    async def commit(
        self,
        game_id: str,
        expected_version: int,
        state: bytes,
        log_entry: bytes,
        *,
        finished: bool,
        request_key: str | None = None,
        meanwhile: Callable[[], object] | None = None,  # nothing travels: never called
    ) -> CommitOutcome:
        game = self._live(game_id)
        if game is None:
            return CommitOutcome(CommitStatus.MISSING, 0)
        prior = self._prior(game, request_key)
        if prior is not None:
            return CommitOutcome(CommitStatus.DUPLICATE, prior)
        if game.version != expected_version:
            return CommitOutcome(CommitStatus.CONFLICT, game.version)
        game.version += 1
        game.state = state
        game.finished = finished
        game.log.append(log_entry)
        game.expires = self._expiry(self._ttls.finished if finished else self._ttls.idle)
        if request_key is not None:
            game.requests[request_key] = (game.version, self._expiry(self._ttls.request))
        change = Change(game.version, state)
        for mailbox in self._watchers.get(game_id, ()):
            mailbox.put(change)
        return CommitOutcome(CommitStatus.APPLIED, game.version)

    async def read_log(self, game_id: str, start: int, count: int) -> list[bytes]:
        game = self._live(game_id)
        if game is None or count <= 0:
            return []
        return game.log[start : start + count]

    @asynccontextmanager
    async def watch(self, game_id: str, mailbox: Mailbox | None = None) -> AsyncIterator[Mailbox]:
        self._check_open()
        mailbox = mailbox if mailbox is not None else Mailbox()
        self._watchers.setdefault(game_id, set()).add(mailbox)
        try:
            yield mailbox
        finally:
            watchers = self._watchers.get(game_id, set())
            watchers.discard(mailbox)
            if not watchers:
                self._watchers.pop(game_id, None)

    async def load_many(self, game_ids: Sequence[str]) -> list[Loaded | None]:
        return [await self.load(game_id) for game_id in game_ids]

    async def list_add(self, game_id: str, kinds: Sequence[str], created_ms: int) -> None:
        self._check_open()
        for kind in kinds:
            self._lobby.setdefault(kind, {})[game_id] = created_ms

    async def list_page(
        self, kind: str, before: tuple[int, str] | None, count: int
    ) -> list[tuple[str, int]]:
        self._check_open()
        entries = sorted(
            ((created, game_id) for game_id, created in self._lobby.get(kind, {}).items()),
            reverse=True,
        )
        if before is not None:
            entries = [e for e in entries if e < before]
        return [(game_id, created) for created, game_id in entries[:count]]

    async def list_remove(self, game_id: str, kinds: Sequence[str]) -> None:
        for kind in kinds:
            self._lobby.get(kind, {}).pop(game_id, None)

    def clock_source(self) -> Callable[[], int] | None:
        return lambda: int(self._wall() * 1000)

    async def now_ms(self) -> int:
        self._check_open()
        return int(self._wall() * 1000)

    async def due_set(self, game_id: str, when_ms: int) -> None:
        if when_ms:
            self._due[game_id] = when_ms
        else:
            self._due.pop(game_id, None)

    async def due_before(self, when_ms: int, count: int) -> list[str]:
        self._check_open()
        due = sorted((when, g) for g, when in self._due.items() if when <= when_ms)
        return [g for _, g in due[:count]]

    async def claim(self, game_id: str, name: str, ttl_ms: int, holder: str) -> bool:
        self._check_open()
        now = self._clock()
        key = (game_id, name)
        if self._leases.get(key, (0.0, ""))[0] > now:
            return False
        self._leases[key] = (now + ttl_ms / 1000, holder)
        if len(self._leases) > 10_000:
            self._leases = {k: v for k, v in self._leases.items() if v[0] > now}
        return True

    async def unclaim(self, game_id: str, name: str, holder: str) -> None:
        self._check_open()
        key = (game_id, name)
        lease = self._leases.get(key)
        if lease is not None and lease[1] == holder:
            del self._leases[key]

    async def presence_touch(
        self, game_id: str, seat: int, holder: str, since_ms: int, seen_ms: int
    ) -> None:
        self._check_open()
        entries = self._presence.get(game_id, {})
        if f"{seat}:{holder}" in entries:  # a holder that left is not brought back
            entries[f"{seat}:{holder}"] = (since_ms, seen_ms)

    async def presence_enter(
        self, game_id: str, seat: int, holder: str, since_ms: int
    ) -> PresenceEntries:
        self._check_open()
        entries = self._presence.setdefault(game_id, {})
        entries[f"{seat}:{holder}"] = (since_ms, since_ms)
        self._announce(game_id, entries)
        return dict(entries)

    async def presence_leave(self, game_id: str, seat: int, holder: str, seen_ms: int) -> None:
        self._check_open()
        entries = self._presence.setdefault(game_id, {})
        entries.pop(f"{seat}:{holder}", None)
        entries[f"{seat}:left"] = (seen_ms, seen_ms)
        self._announce(game_id, entries)

    async def presence(self, game_id: str) -> PresenceEntries:
        self._check_open()
        return dict(self._presence.get(game_id, {}))

    def _announce(self, game_id: str, entries: PresenceEntries) -> None:
        notice = Change(0, encode_presence(entries))
        for mailbox in self._watchers.get(game_id, ()):
            mailbox.put(notice)

    def end_watches(self, reason: str) -> None:
        for mailboxes in self._watchers.values():
            for mailbox in mailboxes:
                mailbox.fail(reason, WatchEndedError)

    async def shared_secret(self, proposal: bytes) -> bytes:
        self._check_open()
        if self._secret is None:
            self._secret = proposal
        return self._secret

    async def ping(self) -> None:
        self._check_open()

    async def close(self) -> None:
        self._closed = True
        self.end_watches("the embedded store was closed")

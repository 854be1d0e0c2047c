"""The store contract every implementation obeys (and one test suite checks).

A store keeps, per game: an immutable metadata blob, the encoded state with its
version (1 at creation, +1 per move), a finished flag, the append-only move log, the
versions produced by recent request ids (idempotent retries) and a change feed.
Stores deal in bytes only; what the bytes mean is the service's business.

The one write that matters is ``commit``: a compare-and-set on the version that, in
one atomic step, checks the request id, checks the version, writes the new state,
appends the log entry, records the request id and publishes the change. Nothing is
ever half-written. A conflict is reported, never retried here.
"""

from __future__ import annotations

import abc
import asyncio
import collections
import enum
from collections.abc import Callable, Sequence
from contextlib import AbstractAsyncContextManager
from dataclasses import dataclass


class StoreUnavailableError(Exception):
    """The store cannot be reached, or did not answer in time.

    For a write this means the outcome is unknown: the write may or may not have landed,
    so a caller retries with the same request id (which the store answers exactly once).
    """


class WatchEndedError(StoreUnavailableError):
    """This process ended its watches itself (``Store.end_watches``, ``Store.close``: it
    is shutting down). The store may be fine: the watcher reconnects, to any replica."""


class StoreFullError(Exception):
    """The store holds as many live games as it is configured to (embedded store)."""


@dataclass(frozen=True, slots=True)
class Ttls:
    """Expiry times in seconds (0 = never)."""

    idle: int = 30 * 86400  # a game nobody moves in for this long is dropped
    finished: int = 7 * 86400  # a finished game is kept this long after its last move
    request: int = 86400  # how long a request id is remembered for retries


@dataclass(frozen=True, slots=True)
class Loaded:
    """A game as stored. ``prior_version`` is set when the request id was seen before:
    it is the version that request produced."""

    meta: bytes
    version: int
    state: bytes
    finished: bool
    prior_version: int | None = None


class CommitStatus(enum.Enum):
    APPLIED = "applied"  # version = the new version
    CONFLICT = "conflict"  # version = the stored version, which was not the expected one
    DUPLICATE = "duplicate"  # version = what the earlier request with this id produced
    MISSING = "missing"  # the game does not exist (expired or never created)


@dataclass(frozen=True, slots=True)
class CommitOutcome:
    status: CommitStatus
    version: int


@dataclass(frozen=True, slots=True)
class Change:
    """One committed version, as published on the change feed."""

    version: int
    state: bytes


#: a game's presence entries: "seat:holder" (or "seat:left") -> (since, last seen) in ms
PresenceEntries = dict[str, tuple[int, int]]


def encode_presence(entries: PresenceEntries) -> bytes:
    """A presence notice's payload: ``seat:holder=since:seen`` lines (what the Redis
    store's script writes)."""
    return "".join(f"{k}={a}:{b}\n" for k, (a, b) in entries.items()).encode()


def decode_presence(payload: bytes) -> PresenceEntries:
    entries: PresenceEntries = {}
    for line in payload.decode("ascii", "replace").splitlines():
        field, _, value = line.partition("=")
        since, _, seen = value.partition(":")
        if field and since.isdigit():
            entries[field] = (int(since), int(seen) if seen.isdigit() else int(since))
    return entries


class Mailbox:
    """One watcher's pending changes: bounded, newest kept.

    A commit is put here without waiting; when a watcher falls ``capacity`` changes
    behind, the oldest are dropped (``dropped`` counts them), because every change carries
    the whole state: a slow watcher gets the latest version, never an ever-growing backlog.
    ``fail`` ends the watch with StoreUnavailableError (or the subclass given) once the
    queued changes are read.
    ``get`` may be cancelled at any await (e.g. by a timeout for heartbeats) and called
    again.
    """

    __slots__ = ("_changes", "_failure", "_ready", "dropped", "known", "notice")

    def __init__(self, capacity: int = 16) -> None:
        self._changes: collections.deque[Change] = collections.deque(maxlen=capacity)
        self._ready = asyncio.Event()
        self._failure: tuple[type[StoreUnavailableError], str] | None = None
        self.dropped = 0
        #: the payload of the newest notice without a version (the seats' presence)
        self.notice: bytes | None = None
        #: the watcher already has every version up to this one (e.g. its own moves'):
        #: changes at or below it are not queued and do not wake it
        self.known = 0

    def put(self, change: Change) -> None:
        if change.version == 0:  # a notice (tribes.core.presence), not a version
            self.notice = change.state
            self._ready.set()
            return
        if change.version <= self.known:
            return
        if self._changes and change.version <= self._changes[-1].version:
            return  # a replica's own commit can arrive after a later one of another
        if len(self._changes) == self._changes.maxlen:
            self.dropped += 1
        self._changes.append(change)
        self._ready.set()

    def catch_up(self, version: int) -> None:
        """The watcher has every version up to ``version`` (e.g. its own move's): changes
        at or below it are dropped when queued and not queued later."""
        self.known = version
        while self._changes and self._changes[0].version <= version:
            self._changes.popleft()

    def fail(self, reason: str, error: type[StoreUnavailableError] = StoreUnavailableError) -> None:
        self._failure = (error, reason)
        self._ready.set()

    async def wait_until(self, ready: Callable[[], bool]) -> None:
        """Wake on every put until ``ready()``; StoreUnavailableError once the watch
        failed and nothing it waits for is left."""
        while not ready():
            if self._failure is not None:
                error, reason = self._failure
                raise error(reason)
            self._ready.clear()
            await self._ready.wait()

    async def get(self) -> Change:
        await self.wait_until(lambda: bool(self._changes))
        return self._changes.popleft()

    async def get_or_notice(self) -> Change | bytes:
        """The oldest change, or — when none is queued — the newest notice (taken)."""
        await self.wait_until(lambda: bool(self._changes) or self.notice is not None)
        if self._changes:
            return self._changes.popleft()
        notice, self.notice = self.notice, None
        assert notice is not None
        return notice


class Store(abc.ABC):
    """Async store of games. All methods raise StoreUnavailableError on I/O failure."""

    @abc.abstractmethod
    async def create(self, game_id: str, meta: bytes, state: bytes) -> bool:
        """Store a new game at version 1; False (and nothing written) if the id exists."""

    @abc.abstractmethod
    async def load(self, game_id: str, request_key: str | None = None) -> Loaded | None:
        """The stored game, or None. With ``request_key``, also whether it was seen."""

    @abc.abstractmethod
    async def commit(
        self,
        game_id: str,
        expected_version: int,
        state: bytes,
        log_entry: bytes,
        *,
        finished: bool,
        request_key: str | None = None,
        meanwhile: Callable[[], object] | None = None,
    ) -> CommitOutcome:
        """Atomically: request id unseen? version == expected? then write version+1.

        ``meanwhile``: the caller's work that does not need the outcome (building what
        it will send if the commit lands). A store may call it once while the commit's
        reply travels (after the write, before the read), so the process works instead
        of waiting; or not at all. Its exceptions are ignored."""

    @abc.abstractmethod
    async def read_log(self, game_id: str, start: int, count: int) -> list[bytes]:
        """Log entries ``start .. start+count-1`` (0 = the first move), oldest first."""

    @abc.abstractmethod
    def watch(
        self, game_id: str, mailbox: Mailbox | None = None
    ) -> AbstractAsyncContextManager[Mailbox]:
        """Subscribe to the game's changes, delivered into ``mailbox`` (a new one when
        None); the subscription is live on entering and is released on leaving, however
        the block ends."""

    def latest(self, game_id: str) -> Change | None:
        """The newest change of the game this store has handed its watchers since their
        subscription was confirmed, or None when it knows of none (here: never). For a
        caller whose watch of the game is open it is the game's current version up to the
        change feed's delay, since every later change reaches that caller's mailbox: a
        watch can start from it instead of reading the store."""
        return None

    def read_while_watched(self, game_id: str, change: Change) -> None:
        """The game's state as a caller whose watch of it is open has just read it from
        the store: newer than every change the store's watchers missed, since each
        later commit reaches them, so a store that keeps ``latest`` keeps it too (when it
        is the newest it knows). Here: nothing is kept."""
        return None

    @abc.abstractmethod
    async def load_many(self, game_ids: Sequence[str]) -> list[Loaded | None]:
        """Several games at once (a lobby page), None for any that no longer exist."""

    # -- the lobby index: listed games by creation time, per kind ("" = all) --------------

    @abc.abstractmethod
    async def list_add(self, game_id: str, kinds: Sequence[str], created_ms: int) -> None:
        """Index a listed game under each kind (idempotent)."""

    @abc.abstractmethod
    async def list_page(
        self, kind: str, before: tuple[int, str] | None, count: int
    ) -> list[tuple[str, int]]:
        """Up to ``count`` (game id, created_ms) of ``kind``, newest first, strictly after
        the cursor ``before`` = (created_ms, game id) in that order."""

    @abc.abstractmethod
    async def list_remove(self, game_id: str, kinds: Sequence[str]) -> None:
        """Drop a game from the index (it expired)."""

    # -- hosted play: the store's clock, work that falls due, leases, presence -----------

    def clock_source(self) -> Callable[[], int] | None:
        """The store's clock as a plain function, for a store inside this process."""
        return None

    @abc.abstractmethod
    async def now_ms(self) -> int:
        """The store's clock (Unix ms): the one time every replica agrees on."""

    @abc.abstractmethod
    async def due_set(self, game_id: str, when_ms: int) -> None:
        """Note that the game needs the service at ``when_ms`` (a deadline, a bot's turn);
        0 forgets it."""

    @abc.abstractmethod
    async def due_before(self, when_ms: int, count: int) -> list[str]:
        """Up to ``count`` games whose time has come, earliest first."""

    @abc.abstractmethod
    async def claim(self, game_id: str, name: str, ttl_ms: int, holder: str) -> bool:
        """Take the lease ``name`` of a game for ``ttl_ms`` as ``holder``; False if
        someone holds it."""

    @abc.abstractmethod
    async def unclaim(self, game_id: str, name: str, holder: str) -> None:
        """Give back a lease ``holder`` took, before it expires; one that expired and
        was taken by somebody else since stays theirs."""

    @abc.abstractmethod
    async def presence_touch(
        self, game_id: str, seat: int, holder: str, since_ms: int, seen_ms: int
    ) -> None:
        """``holder`` (a session or watch) has ``seat`` open since ``since_ms``, seen now:
        written only while its entry is there (a refresh landing after the holder's
        leave writes nothing)."""

    @abc.abstractmethod
    async def presence_enter(
        self, game_id: str, seat: int, holder: str, since_ms: int
    ) -> PresenceEntries:
        """``holder`` opened ``seat`` now: written, announced on the change feed as a
        notice (version 0) carrying every entry (``encode_presence``), and every entry
        returned — one round trip."""

    @abc.abstractmethod
    async def presence_leave(self, game_id: str, seat: int, holder: str, seen_ms: int) -> None:
        """``holder`` closed; the seat's last sighting is ``seen_ms``; announced as
        ``presence_enter`` announces — one round trip."""

    @abc.abstractmethod
    async def presence(self, game_id: str) -> PresenceEntries:
        """Every ``seat:holder`` (and ``seat:left``) entry: (since, last seen) in ms."""

    @abc.abstractmethod
    def end_watches(self, reason: str) -> None:
        """End every open watch of this process (WatchEndedError in each)."""

    @abc.abstractmethod
    async def shared_secret(self, proposal: bytes) -> bytes:
        """A secret shared by every server on this store (the first proposal wins)."""

    @abc.abstractmethod
    async def ping(self) -> None:
        """Return if the store answers; raise StoreUnavailableError if not."""

    @abc.abstractmethod
    async def close(self) -> None:
        """Release connections; open watches end (WatchEndedError)."""

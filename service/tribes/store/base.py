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
import enum
from collections.abc import AsyncIterator
from contextlib import AbstractAsyncContextManager
from dataclasses import dataclass


class StoreUnavailableError(Exception):
    """The store cannot be reached (or answered nonsense); nothing was written."""


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
    ) -> CommitOutcome:
        """Atomically: request id unseen? version == expected? then write version+1."""

    @abc.abstractmethod
    async def read_log(self, game_id: str, start: int, count: int) -> list[bytes]:
        """Log entries ``start .. start+count-1`` (0 = the first move), oldest first."""

    @abc.abstractmethod
    def watch(self, game_id: str) -> AbstractAsyncContextManager[AsyncIterator[Change]]:
        """Subscribe to the game's changes; the subscription is live on entering."""

    @abc.abstractmethod
    async def shared_secret(self, proposal: bytes) -> bytes:
        """A secret shared by every server on this store (the first proposal wins)."""

    @abc.abstractmethod
    async def ping(self) -> None:
        """Return if the store answers; raise StoreUnavailableError if not."""

    @abc.abstractmethod
    async def close(self) -> None:
        """Release connections; watchers end."""

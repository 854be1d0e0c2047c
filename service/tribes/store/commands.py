"""How the Redis store sends commands: through redis-py, one command per connection at a time.

Every command goes through redis-py: its URL parsing, connection class (TCP, TLS for
``rediss://``, Unix sockets, AUTH, SELECT), command packer and reply parser (hiredis when
installed). The standalone path uses the library's lower layers directly — it checks a
``redis.asyncio.Connection`` out of a small idle list, sends one packed command, reads its
one reply, and puts the connection back — because the library's full client spends about
twice the CPU per command on pooling, retries and instrumentation this service does not
use (``make bench``; README "Performance"). Cluster and Sentinel deployments use the
library's own clients, which know slots, redirections and failover.

The ownership rule that makes replies impossible to confuse: a connection belongs to one
caller from the write of its command to the read of that command's reply, and a command
whose exchange did not finish cleanly (timeout, cancellation, a broken socket, a reply
that could not be parsed) never gives its connection back: the connection is closed and
a fresh one is opened for the next caller. Arguments are packed before any connection is
touched, so an argument the packer refuses costs nothing but an error for its caller.

There are no automatic retries: a resent commit whose first reply was lost must be
answered by the request-id record, not re-executed blindly by a client library.
"""

from __future__ import annotations

import abc
import asyncio
import contextlib
import hashlib
from collections.abc import Sequence
from typing import Any

import redis.asyncio as aioredis
from redis.asyncio.connection import AbstractConnection, ConnectionPool
from redis.exceptions import DataError, NoScriptError, ResponseError

Arg = bytes | str | int | float


class Script:
    """A Lua script run by its SHA1 (EVALSHA), loaded on first use or after a flush."""

    def __init__(self, source: str) -> None:
        self.source = source
        self.sha = hashlib.sha1(source.encode()).hexdigest()


class Commands(abc.ABC):
    """One round trip per call; raises redis-py's errors (or TimeoutError) on failure."""

    @abc.abstractmethod
    async def execute(self, *args: Arg) -> Any:
        """Run one command and return its parsed reply."""

    async def run(self, script: Script, keys: Sequence[str], args: Sequence[Arg]) -> Any:
        """Run a Lua script with EVALSHA; on NOSCRIPT (never executed) send its source."""
        try:
            return await self.execute("EVALSHA", script.sha, len(keys), *keys, *args)
        except NoScriptError:
            return await self.execute("EVAL", script.source, len(keys), *keys, *args)

    @abc.abstractmethod
    def pubsub_client(self) -> Any:
        """A redis-py client whose ``pubsub()`` serves the change feed."""

    @abc.abstractmethod
    async def close(self) -> None:
        """Close every connection."""


class ConnectionCommands(Commands):
    """Standalone Redis through redis-py connections, one command per connection at a time.

    At most ``size`` connections are open; more concurrent callers wait for one (inside
    their timeout). Each whole command — waiting for a connection, connecting, writing,
    reading — is bounded by ``timeout`` with ``asyncio.timeout``, which never swallows a
    caller's own cancellation.
    """

    def __init__(self, pool: ConnectionPool, *, size: int = 32, timeout: float = 2.0) -> None:
        self._pool = pool  # used only as the factory of configured connections
        self._packer = pool.make_connection()  # type: ignore[no-untyped-call]  # never connected
        self._idle: list[AbstractConnection] = []
        self._slots = asyncio.Semaphore(size)
        self._timeout = timeout
        self._closed = False

    @classmethod
    def from_url(cls, url: str, *, size: int = 32, timeout: float = 2.0) -> ConnectionCommands:
        pool = ConnectionPool.from_url(url, socket_timeout=None, socket_connect_timeout=timeout)
        return cls(pool, size=size, timeout=timeout)

    async def execute(self, *args: Arg) -> Any:
        try:
            packed = self._packer.pack_command(*args)
        except (ValueError, TypeError) as exc:  # e.g. an int too long to write as text
            raise DataError(f"cannot pack the command: {type(exc).__name__}") from exc
        async with asyncio.timeout(self._timeout), self._slots:
            if self._closed:
                raise ConnectionError("the store client is closed")
            conn = self._idle.pop() if self._idle else self._pool.make_connection()  # type: ignore[no-untyped-call]
            clean = False
            try:
                await conn.send_packed_command(packed, check_health=False)
                try:
                    reply = await conn.read_response()
                except ResponseError:
                    clean = True  # an error reply: the exchange itself completed
                    raise
                clean = True
                return reply
            finally:
                if clean and not self._closed:
                    self._idle.append(conn)
                else:
                    _discard(conn)

    def pubsub_client(self) -> Any:
        kwargs = dict(self._pool.connection_kwargs)
        kwargs["socket_timeout"] = None  # a subscriber waits for messages indefinitely
        return aioredis.Redis(
            connection_pool=ConnectionPool(connection_class=self._pool.connection_class, **kwargs)
        )

    async def close(self) -> None:
        self._closed = True
        idle, self._idle = self._idle, []
        for conn in idle:
            with contextlib.suppress(Exception):
                await conn.disconnect()


def _discard(conn: AbstractConnection) -> None:
    """Close a connection whose exchange did not complete; its next bytes are nobody's."""
    if conn.is_connected:
        # redis-py already closes on the errors it sees; this covers the rest (e.g. a
        # cancellation between the write and the read) without awaiting in a finally
        with contextlib.suppress(Exception):
            task = asyncio.get_running_loop().create_task(conn.disconnect(nowait=True))
            _CLOSING.add(task)
            task.add_done_callback(_CLOSING.discard)


_CLOSING: set[asyncio.Task[None]] = set()  # closes in flight (a task needs a reference)

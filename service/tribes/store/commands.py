"""How the Redis store sends commands: through redis-py, one exchange per connection at a time.

Every command goes through redis-py and hiredis: redis-py's URL parsing, connection
class (TCP, TLS for ``rediss://``, Unix sockets, AUTH, SELECT) and reply parser (hiredis's),
hiredis's command packer (``pack_command`` below: the bytes redis-py's own packer writes,
at a quarter of its CPU). The standalone path uses the library's lower layers directly —
it checks a ``redis.asyncio.Connection`` out of a small idle list, writes the packed
command (or a batch of them, as redis-py's own pipelines do), reads the replies in order,
and puts the connection back — because the library's full client spends about twice the
CPU per command on pooling, retries and instrumentation this service does not use
(``make bench``; README "Performance"). Cluster and Sentinel deployments use the
library's own clients, which know slots, redirections and failover.

The ownership rule that makes replies impossible to confuse: a connection belongs to one
exchange (one caller's command, or one batch) from the write of its commands to the read
of their last reply, and an exchange that did not finish cleanly (timeout, cancellation,
a broken socket, a reply that could not be parsed) never gives its connection back: the
connection is closed and a fresh one is opened for the next exchange. Arguments are
packed before any connection is touched, so an argument the packer refuses costs nothing
but an error for its caller.

There are no automatic retries on the standalone and Sentinel paths: a resent commit
whose first reply was lost must be answered by the request-id record, not re-executed
blindly by a client library. Redis Cluster goes through redis-py's ``RedisCluster``, which
knows slots, ``MOVED``/``ASK`` redirections and failover; the change feed there is sharded
pub/sub (``SPUBLISH``/``SSUBSCRIBE``), so a change travels only within its game's shard.

``run_and_wait`` is the durable write of ``TRIBES_REDIS_MIN_REPLICAS``: the script and a
``WAIT`` pipelined on one connection, so ``WAIT`` counts the replicas that acknowledged
exactly that write.
"""

from __future__ import annotations

import abc
import asyncio
import contextlib
import functools
import hashlib
import logging
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from typing import Any, TypeVar

import hiredis
import redis.asyncio as aioredis
from redis.asyncio.cluster import RedisCluster
from redis.asyncio.connection import AbstractConnection, ConnectionPool
from redis.asyncio.sentinel import Sentinel, SentinelConnectionPool
from redis.exceptions import DataError, NoScriptError, ResponseError

Arg = bytes | str | int | float
T = TypeVar("T")
log = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class Feed:
    """How the change feed is published and read on one kind of deployment."""

    publish: str  # the command the commit script publishes with
    subscribe: str  # redis-py PubSub methods
    unsubscribe: str
    read: str
    confirmation: str  # the message type of a confirmed subscription
    message: str  # the message type of a published change
    #: how long one read waits: None blocks on the one connection (no timer per message);
    #: a cluster's reader takes turns between shards' connections, so it must come back
    wait: float | None


PLAIN = Feed("PUBLISH", "subscribe", "unsubscribe", "get_message", "subscribe", "message", None)
SHARDED = Feed(
    "SPUBLISH", "ssubscribe", "sunsubscribe", "get_sharded_message", "ssubscribe", "smessage", 1.0
)


class _torn_down:
    """A connection torn down under a call is a lost connection: redis-py can let it out
    as an AttributeError or TypeError from its streams (``'NoneType' object has no
    attribute 'writelines'``; upstream redis/redis-py#4287, #2349), which is no
    ``RedisError`` and would reach a caller as an unknown failure. Raised instead as
    ``ConnectionError``, so the caller sees UNAVAILABLE ("unknown outcome") and the
    connection is not given back."""

    __slots__ = ()

    def __enter__(self) -> None:
        return None

    def __exit__(self, kind: type[BaseException] | None, exc: BaseException | None, _: Any) -> None:
        if isinstance(exc, AttributeError | TypeError):
            raise ConnectionError(f"the connection was torn down: {exc}") from exc


def _with_wait(
    command: str, script: Script, keys: Sequence[str], args: Sequence[Arg], replicas: int, ms: int
) -> list[tuple[Arg, ...]]:
    """The script (by EVALSHA or EVAL) and a WAIT for ``replicas`` after it, to pipeline."""
    body = script.sha if command == "EVALSHA" else script.source
    return [(command, body, len(keys), *keys, *args), ("WAIT", replicas, ms)]


async def _exchange_with_wait(conn: AbstractConnection, packed: Any) -> tuple[Any, Any]:
    """Send a packed script and its WAIT on one connection and read both replies: (the
    script's reply, or its error reply as the exception, WAIT's count)."""
    await conn.send_packed_command(packed, check_health=False)
    first: Any
    try:
        first = await conn.read_response()
    except ResponseError as exc:
        first = exc
    return first, await conn.read_response()


def pack_command(args: Sequence[Arg]) -> bytes:
    """One command in the Redis protocol, by hiredis's packer (C; about 2 µs for a commit
    against 9 µs for redis-py's Python packer, which gives the same bytes). Integers are
    written here first: hiredis 3.5.0 crashes the process when it cannot write an integer
    as text (more than 4,300 digits; the hostile-input suite sends one), where ``b"%d"``
    raises ``ValueError``. Raises ``DataError`` for anything that cannot be packed (a
    bool, None, an unencodable string), before any connection is touched."""
    try:
        if int in map(type, args):
            args = tuple(b"%d" % a if type(a) is int else a for a in args)
        # (hiredis's stub types the tuple as of one element)
        packed: bytes = hiredis.pack_command(tuple(args))  # type: ignore[arg-type]
        return packed
    except (ValueError, TypeError) as exc:  # e.g. an int too long to write as text
        raise DataError(f"cannot pack the command: {type(exc).__name__}") from exc


class Script:
    """A Lua script run by its SHA1 (EVALSHA), loaded on first use or after a flush."""

    def __init__(self, source: str) -> None:
        self.source = source
        self.sha = hashlib.sha1(source.encode()).hexdigest()


class Commands(abc.ABC):
    """One round trip per call; raises redis-py's errors (or TimeoutError) on failure."""

    feed: Feed = PLAIN

    @abc.abstractmethod
    async def execute(self, *args: Arg) -> Any:
        """Run one command and return its parsed reply."""

    async def execute_then(self, meanwhile: Callable[[], object], *args: Arg) -> Any:
        """``execute``, calling ``meanwhile`` at most once while the reply travels: after
        the command is written, before its reply is read (``Store.commit``). Here never."""
        return await self.execute(*args)

    async def run(
        self,
        script: Script,
        keys: Sequence[str],
        args: Sequence[Arg],
        *,
        meanwhile: Callable[[], object] | None = None,
    ) -> Any:
        """Run a Lua script with EVALSHA; on NOSCRIPT (never executed) send its source.
        ``meanwhile``: see ``execute_then`` (on the first attempt only)."""
        command = ("EVALSHA", script.sha, len(keys), *keys, *args)
        try:
            if meanwhile is not None:
                return await self.execute_then(meanwhile, *command)
            return await self.execute(*command)
        except NoScriptError:
            return await self.execute("EVAL", script.source, len(keys), *keys, *args)

    @abc.abstractmethod
    async def run_and_wait(
        self, script: Script, keys: Sequence[str], args: Sequence[Arg], replicas: int, ms: int
    ) -> tuple[Any, int]:
        """The script's reply and how many replicas acknowledged it within ``ms``."""

    @abc.abstractmethod
    def pubsub_client(self) -> Any:
        """A redis-py client whose ``pubsub()`` serves the change feed."""

    async def ready_to_subscribe(self) -> None:
        """Make the change feed's client able to subscribe (a cluster's must know its
        slots first, even before this store has sent any command)."""
        return None

    @abc.abstractmethod
    async def close(self) -> None:
        """Close every connection."""


class ConnectionCommands(Commands):
    """Standalone Redis through redis-py connections, one exchange per connection at a time.

    A command sent while no other is in flight goes alone: its caller writes it and reads
    its reply. Commands sent while others are in flight are batched: those of one turn of
    the event loop are written together on one connection (one write, their replies read
    in order, as redis-py's pipelines do), by a task of their own, so the loop makes one
    system call where it made one per command and Redis reads them in one go (a saturated
    replica has several commands in flight at any time). A caller's cancellation or
    timeout does not disturb a batch: a command not yet written is dropped, one written
    has its reply read and discarded.

    At most ``size`` connections are open; more concurrent exchanges wait for one (inside
    their timeout). Each whole exchange — waiting for a connection, connecting, writing,
    reading — is bounded by ``timeout`` with ``asyncio.timeout``, which never swallows a
    caller's own cancellation.
    """

    def __init__(self, pool: ConnectionPool, *, size: int = 32, timeout: float = 2.0) -> None:
        self._pool = pool  # used only as the factory of configured connections
        self._idle: list[AbstractConnection] = []
        self._slots = asyncio.Semaphore(size)
        self._timeout = timeout
        self._closed = False
        self._pubsub_pool: Callable[[], ConnectionPool] | None = None
        self._busy = 0  # exchanges in flight
        self._queued: list[tuple[bytes, asyncio.Future[Any]]] = []  # the next batch
        self._batches: set[asyncio.Task[None]] = set()

    @classmethod
    def from_url(cls, url: str, *, size: int = 32, timeout: float = 2.0) -> ConnectionCommands:
        pool = ConnectionPool.from_url(url, socket_timeout=None, socket_connect_timeout=timeout)
        return cls(pool, size=size, timeout=timeout)

    async def execute(self, *args: Arg) -> Any:
        return await self._send(pack_command(args), None)

    async def execute_then(self, meanwhile: Callable[[], object], *args: Arg) -> Any:
        """A command sent alone runs ``meanwhile`` between its write and the read of its
        reply; one that joins a batch does not (its write waits for the batch's turn)."""
        return await self._send(pack_command(args), meanwhile)

    async def _send(self, packed: bytes, meanwhile: Callable[[], object] | None) -> Any:
        if not self._busy and not self._queued:
            return await self._alone(packed, meanwhile)
        loop = asyncio.get_running_loop()
        waiter: asyncio.Future[Any] = loop.create_future()
        self._queued.append((packed, waiter))
        if len(self._queued) == 1:
            loop.call_soon(self._flush, loop)
        # no timer of its own: the batch's exchange is bounded by the timeout, and every
        # way out of it settles every waiter (a reply, an error reply or the failure)
        return await waiter

    async def _alone(self, packed: bytes, meanwhile: Callable[[], object] | None) -> Any:
        async def exchange(conn: AbstractConnection) -> Any:
            await conn.send_packed_command(packed, check_health=False)
            if meanwhile is not None:
                _run_meanwhile(meanwhile)
            return await conn.read_response()

        return await self._exchange(exchange, self._timeout)

    async def _exchange(
        self, work: Callable[[AbstractConnection], Awaitable[T]], seconds: float
    ) -> T:
        """``work`` on a connection of its own, within ``seconds``: the connection goes
        back to the idle list if the exchange completed (an error reply completes it),
        else it is closed (the ownership rule above)."""
        self._busy += 1
        try:
            async with asyncio.timeout(seconds), self._slots:
                if self._closed:
                    raise ConnectionError("the store client is closed")
                conn = self._idle.pop() if self._idle else self._pool.make_connection()  # type: ignore[no-untyped-call]
                clean = False
                try:
                    with _torn_down():
                        if not conn.is_connected:
                            await conn.connect()  # the class's own: Sentinel's finds the master
                        try:
                            result = await work(conn)
                        except ResponseError:
                            clean = True  # an error reply: the exchange itself completed
                            raise
                    clean = True
                    return result
                finally:
                    if clean and not self._closed:
                        self._idle.append(conn)
                    else:
                        _discard(conn)
        finally:
            self._busy -= 1

    def _flush(self, loop: asyncio.AbstractEventLoop) -> None:
        batch, self._queued = self._queued, []
        task = loop.create_task(self._batch(batch))
        self._batches.add(task)
        task.add_done_callback(self._batches.discard)

    async def _batch(self, batch: list[tuple[bytes, asyncio.Future[Any]]]) -> None:
        """Write the batch's commands in one go on one connection and hand each reply
        (or error reply) to its caller; a failure of the exchange fails every caller
        still waiting, and the connection is not given back."""
        batch = [(packed, waiter) for packed, waiter in batch if not waiter.done()]
        if not batch:
            return  # every caller gave up before anything was written

        async def exchange(conn: AbstractConnection) -> None:
            await conn.send_packed_command([p for p, _ in batch], check_health=False)
            for _, waiter in batch:
                try:
                    reply = await conn.read_response()
                except ResponseError as exc:
                    if not waiter.done():
                        waiter.set_exception(exc)
                    continue
                if not waiter.done():
                    waiter.set_result(reply)

        try:
            await self._exchange(exchange, self._timeout)
        except BaseException as exc:
            # each caller still waiting gets an error of its own (one exception object
            # raised in several tasks would collect all their tracebacks)
            for _, waiter in batch:
                if not waiter.done():
                    waiter.set_exception(_failure(exc))
            if not isinstance(exc, Exception):
                raise  # the task's own cancellation (a closing store) goes on

    @classmethod
    def sentinel(
        cls,
        hosts: Sequence[tuple[str, int]],
        service: str,
        *,
        size: int = 32,
        timeout: float = 2.0,
        **kwargs: Any,
    ) -> ConnectionCommands:
        """The master of a Sentinel-managed Redis: connections find it when they connect."""
        sentinel = Sentinel(  # type: ignore[no-untyped-call,unused-ignore]  # typed from redis-py 8
            list(hosts), socket_timeout=timeout, socket_connect_timeout=timeout, **kwargs
        )

        def pool() -> ConnectionPool:
            return SentinelConnectionPool(  # type: ignore[no-untyped-call]
                service, sentinel, socket_timeout=None, socket_connect_timeout=timeout, **kwargs
            )

        commands = cls(pool(), size=size, timeout=timeout)
        commands._pubsub_pool = pool
        return commands

    async def run_and_wait(
        self, script: Script, keys: Sequence[str], args: Sequence[Arg], replicas: int, ms: int
    ) -> tuple[Any, int]:
        for command in ("EVALSHA", "EVAL"):
            packed = b"".join(
                map(pack_command, _with_wait(command, script, keys, args, replicas, ms))
            )
            first, acked = await self._exchange(
                functools.partial(_exchange_with_wait, packed=packed), self._timeout + ms / 1000
            )
            if isinstance(first, NoScriptError) and command == "EVALSHA":
                continue  # the script was not there: nothing ran; send its source
            if isinstance(first, ResponseError):
                raise first
            return first, int(acked)
        raise AssertionError("unreachable")

    def pubsub_client(self) -> Any:
        if self._pubsub_pool is not None:
            return aioredis.Redis(connection_pool=self._pubsub_pool())
        kwargs = dict(self._pool.connection_kwargs)
        kwargs["socket_timeout"] = None  # a subscriber waits for messages indefinitely
        return aioredis.Redis(
            connection_pool=ConnectionPool(connection_class=self._pool.connection_class, **kwargs)
        )

    async def close(self) -> None:
        self._closed = True
        for batch in list(self._batches):
            batch.cancel()  # its callers get a ConnectionError; its connection is closed
        idle, self._idle = self._idle, []
        for conn in idle:
            with contextlib.suppress(Exception):
                await conn.disconnect()


def _run_meanwhile(meanwhile: Callable[[], object]) -> None:
    """The caller's work while a reply travels: its failure is the caller's to meet again
    on its own path, never the exchange's (the reply must still be read)."""
    try:
        meanwhile()
    except Exception:  # redone after the reply, on the caller's path, where it is handled
        log.debug("work while a reply travelled failed", exc_info=True)


def _failure(exc: BaseException) -> BaseException:
    """The error of its own a batched caller sees when its batch's exchange failed: a
    timeout stays a ``TimeoutError``, anything else is a lost connection (the outcome of
    a written command is unknown either way)."""
    if isinstance(exc, TimeoutError):
        return TimeoutError("the store did not answer in time")
    return ConnectionError(f"the exchange failed: {type(exc).__name__}")


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


class ClusterCommands(Commands):
    """Redis Cluster through redis-py's ``RedisCluster`` (slots, redirections, failover).

    Every key of a game shares its ``{id}`` hash tag, so a game's commit script runs on
    one shard; the lobby index keys are single keys, each on its own slot.
    """

    feed = SHARDED

    def __init__(self, client: RedisCluster, *, timeout: float = 2.0) -> None:
        self._client = client
        self._timeout = timeout

    @classmethod
    def from_url(cls, url: str, *, timeout: float = 2.0) -> ClusterCommands:
        client = RedisCluster.from_url(url, socket_timeout=timeout, socket_connect_timeout=timeout)
        return cls(client, timeout=timeout)

    async def execute(self, *args: Arg) -> Any:
        async with asyncio.timeout(self._timeout * 3):  # redirections and a failover retry
            with _torn_down():
                return await self._client.execute_command(*args)

    async def run_and_wait(
        self, script: Script, keys: Sequence[str], args: Sequence[Arg], replicas: int, ms: int
    ) -> tuple[Any, int]:
        async with asyncio.timeout(self._timeout * 3 + ms / 1000):
            if not self._client.nodes_manager.default_node:
                await self._client.initialize()
            node = self._client.get_node_from_key(keys[0])
            if node is None:
                raise ConnectionError("no cluster node serves this game's slot")
            conn = node.acquire_connection()
            clean = False
            try:
                for command in ("EVALSHA", "EVAL"):
                    packed = conn.pack_commands(
                        _with_wait(command, script, keys, args, replicas, ms)
                    )
                    with _torn_down():
                        first, acked = await _exchange_with_wait(conn, packed)
                    if isinstance(first, NoScriptError) and command == "EVALSHA":
                        continue
                    clean = True
                    if isinstance(first, ResponseError):
                        raise first
                    return first, int(acked)
                raise AssertionError("unreachable")
            finally:
                if clean:
                    node.release(conn)
                else:
                    _discard(conn)
                    node.release(conn)

    def pubsub_client(self) -> Any:
        return self._client

    async def ready_to_subscribe(self) -> None:
        if not self._client.nodes_manager.default_node:
            async with asyncio.timeout(self._timeout * 3):
                with _torn_down():
                    await self._client.initialize()

    async def close(self) -> None:
        await self._client.aclose()

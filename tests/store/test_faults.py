"""The Redis command path under faults: every caller gets its own reply or an error.

Real Redis throughout; faults come from the callers (arguments the packer refuses,
cancellation at every await point) and from the network (a TCP proxy in front of the
real server that cuts connections in the middle of a reply).
"""

from __future__ import annotations

import asyncio
import contextlib
import random
import uuid
from collections.abc import AsyncIterator

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from redis.asyncio.connection import Connection
from redis.exceptions import DataError, RedisError

from tribes.store.commands import ConnectionCommands, Script, pack_command

ECHO = Script("return {KEYS[1], ARGV[1]}")


@contextlib.asynccontextmanager
async def commands(url: str, **kw: object) -> AsyncIterator[ConnectionCommands]:
    client = ConnectionCommands.from_url(url, **kw)  # type: ignore[arg-type]
    try:
        yield client
    finally:
        await client.close()


async def _own_echo(client: ConnectionCommands, prefix: str, value: bytes) -> None:
    """One round trip that can only be answered correctly with this caller's own reply."""
    key = f"{prefix}:{uuid.uuid4().hex}"
    reply = await client.run(ECHO, [key], [value])
    assert reply == [key.encode(), value], "a reply went to the wrong caller"


values = st.one_of(
    st.binary(max_size=9000),  # past redis-py's 6000-byte packing cut-off
    st.text(max_size=300).map(str.encode),
    st.integers().map(lambda i: str(i).encode()),  # arbitrarily large integers as text
)


@settings(
    max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(batch=st.lists(values, min_size=1, max_size=24))
def test_concurrent_callers_get_their_own_replies(
    redis_url: str, redis_prefix: str, batch: list[bytes]
) -> None:
    """Any keys and values, many callers at once on few connections: no reply is mixed up."""

    async def run() -> None:
        async with commands(redis_url, size=3) as client:
            await asyncio.gather(*(_own_echo(client, redis_prefix, v) for v in batch))

    asyncio.run(run())


@settings(max_examples=200, deadline=None)
@given(
    args=st.lists(
        st.one_of(
            st.binary(max_size=7000),
            st.text(max_size=50),
            st.integers(min_value=-(10**4299), max_value=10**4299),
            st.floats(),
        ),
        min_size=1,
        max_size=12,
    )
)
def test_the_packer_writes_what_redis_py_writes(args: list[bytes | str | int | float]) -> None:
    """hiredis's packer (the fast one this client uses) gives, byte for byte, what
    redis-py's own Python packer gives, for every kind of argument the store sends after
    a command name (redis-py also splits a name with spaces in it; the store's have none)."""
    command = ("EVALSHA", *args)
    assert pack_command(command) == b"".join(Connection().pack_command(*command))


@settings(
    max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    numbers=st.lists(st.integers(min_value=-(10**4000), max_value=10**4000), max_size=8),
    bad=st.sampled_from(
        [None, True, {"a": 1}, [1, 2], object(), bytearray(b"x"), "\ud800", 10**4300, -(10**5000)]
    ),
)
def test_refused_arguments_cost_only_their_caller(
    redis_url: str, redis_prefix: str, numbers: list[int], bad: object
) -> None:
    """An argument the packer refuses (wrong type, an integer too long to write as text)
    fails before any connection is used; big integers are packed; the callers around it
    are answered correctly."""

    async def run() -> None:
        async with commands(redis_url, size=2) as client:

            async def refused() -> None:
                with pytest.raises(DataError):
                    await client.execute("SET", f"{redis_prefix}:bad", bad)  # type: ignore[arg-type]

            async def big(n: int) -> None:
                key = f"{redis_prefix}:n:{uuid.uuid4().hex}"
                assert await client.execute("SET", key, n) == b"OK"
                assert await client.execute("GET", key) == str(n).encode()

            jobs = [refused(), *(big(n) for n in numbers)]
            jobs += [_own_echo(client, redis_prefix, b"x" * k) for k in range(5)]
            random.Random(len(numbers)).shuffle(jobs)
            await asyncio.gather(*jobs)

    asyncio.run(run())


@pytest.mark.parametrize(
    "fault",
    [
        AttributeError("'NoneType' object has no attribute 'writelines'"),
        TypeError("'NoneType' object is not callable"),
    ],
)
async def test_a_connection_torn_down_under_a_call_is_a_lost_connection(
    redis_url: str, redis_prefix: str, fault: Exception
) -> None:
    """redis-py can let a connection torn down under a call out as an AttributeError or
    TypeError of its streams (the form of redis/redis-py#4287): the caller gets a
    ConnectionError (the store's UNAVAILABLE), that connection is closed, not reused,
    and the next caller is answered on a fresh one."""
    async with commands(redis_url, size=1) as client:
        await _own_echo(client, redis_prefix, b"before")
        (broken,) = client._idle

        async def torn_down(*args: object, **kwargs: object) -> object:
            raise fault

        broken.read_response = torn_down  # type: ignore[method-assign]
        with pytest.raises(ConnectionError, match="torn down"):
            await client.execute("PING")
        assert broken not in client._idle
        await _own_echo(client, redis_prefix, b"after")
        assert client._idle and client._idle[0] is not broken


async def test_cancellation_at_every_await_point_never_misroutes(
    redis_url: str, redis_prefix: str
) -> None:
    """Callers cancelled after 0, 1, 2, ... event-loop steps (before the write, between
    write and read, mid-read) never leave a reply for the next caller."""
    async with commands(redis_url, size=2) as client:
        for steps in range(40):
            victim = asyncio.ensure_future(_own_echo(client, redis_prefix, b"v" * (steps * 500)))
            for _ in range(steps):
                await asyncio.sleep(0)
            victim.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await victim
            await asyncio.gather(*(_own_echo(client, redis_prefix, b"%d" % i) for i in range(6)))


async def test_a_timed_out_command_does_not_poison_the_connection(
    redis_url: str, redis_prefix: str
) -> None:
    """A command that times out (a blocking pop) is dropped with its connection: the reply
    that arrives later reaches nobody."""
    async with commands(redis_url, size=1, timeout=0.1) as client:
        with pytest.raises(TimeoutError):
            await client.execute("BLPOP", f"{redis_prefix}:empty", 0.3)
        await asyncio.sleep(0.4)  # the slow reply has arrived on the dropped connection
        for i in range(5):
            await _own_echo(client, redis_prefix, b"after-%d" % i)


class CuttingProxy:
    """A TCP proxy to Redis that closes a connection after forwarding ``cut`` bytes of
    replies, once armed — a connection dropped in the middle of a reply."""

    def __init__(self, port: int) -> None:
        self.port = port
        self.cut: int | None = None
        self.server: asyncio.Server | None = None

    async def start(self) -> int:
        self.server = await asyncio.start_server(self._serve, "127.0.0.1", 0)
        return int(self.server.sockets[0].getsockname()[1])

    async def _serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        up_reader, up_writer = await asyncio.open_connection("127.0.0.1", self.port)

        async def pump(src: asyncio.StreamReader, dst: asyncio.StreamWriter, replies: bool) -> None:
            with contextlib.suppress(OSError, asyncio.CancelledError):
                while data := await src.read(65536):
                    if replies and self.cut is not None:
                        dst.write(data[: self.cut])
                        await dst.drain()
                        self.cut = None
                        break
                    dst.write(data)
                    await dst.drain()
            for w in (writer, up_writer):
                w.close()

        await asyncio.gather(pump(reader, up_writer, False), pump(up_reader, writer, True))

    async def close(self) -> None:
        if self.server is not None:
            self.server.close()
            await self.server.wait_closed()


@contextlib.asynccontextmanager
async def cutting_proxy(redis_url: str) -> AsyncIterator[tuple[CuttingProxy, str]]:
    """A ``CuttingProxy`` in front of the test Redis, and the URL that goes through it."""
    proxy = CuttingProxy(int(redis_url.rsplit(":", 1)[1].split("/")[0]))
    proxy_port = await proxy.start()
    try:
        yield proxy, f"redis://127.0.0.1:{proxy_port}/0"
    finally:
        await proxy.close()


async def test_a_connection_dropped_mid_reply_fails_only_its_caller(
    redis_url: str, redis_prefix: str
) -> None:
    """The caller whose reply was cut gets an error; everyone after gets their own reply."""
    async with cutting_proxy(redis_url) as (proxy, url), commands(url, size=2) as client:
        await _own_echo(client, redis_prefix, b"warm-up")
        for cut in (1, 5, 17, 900):
            proxy.cut = cut
            with pytest.raises((RedisError, OSError)):
                await _own_echo(client, redis_prefix, b"y" * 2000)
            await asyncio.gather(*(_own_echo(client, redis_prefix, b"z%d" % i) for i in range(8)))

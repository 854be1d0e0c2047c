"""The pipelining RESP client: parsing, ordering, failures, reconnection, AUTH/SELECT."""

from __future__ import annotations

import asyncio
import uuid
from collections.abc import Iterator

import pytest

from tests.support.redis_server import PrivateRedis
from tribes.store.resp import (
    RespClient,
    RespConnectionError,
    RespError,
    RespScript,
    _Incomplete,
    _parse,
    pack,
)


def test_pack_writes_resp_arrays_of_bulk_strings() -> None:
    """Strings, bytes and ints become bulk strings with their byte lengths."""
    assert pack(("SET", b"k\r\n", 12, "é")) == (
        b"*4\r\n$3\r\nSET\r\n$3\r\nk\r\n\r\n$2\r\n12\r\n$2\r\n\xc3\xa9\r\n"
    )


def test_parser_reads_every_reply_type_and_waits_for_more() -> None:
    """Each RESP2 type parses; a reply cut anywhere is incomplete, never misread."""
    wire = b"*5\r\n$3\r\nabc\r\n:-42\r\n$-1\r\n+OK\r\n*1\r\n$0\r\n\r\n"
    value, end = _parse(bytearray(wire), 0)
    assert value == [b"abc", -42, None, b"OK", [b""]] and end == len(wire)
    for cut in range(len(wire)):
        with pytest.raises(_Incomplete):
            _parse(bytearray(wire[:cut]), 0)
    error, _ = _parse(bytearray(b"-NOSCRIPT No matching script\r\n"), 0)
    assert isinstance(error, RespError) and str(error).startswith("NOSCRIPT")


async def test_pipelined_calls_get_their_own_replies(redis_url: str) -> None:
    """Hundreds of concurrent calls on one connection each get their own answer."""
    client = RespClient(redis_url)
    key = f"tribes-test-resp-{uuid.uuid4().hex}"
    try:
        replies = await asyncio.gather(*(client.call("ECHO", f"m{i}") for i in range(300)))
        assert replies == [f"m{i}".encode() for i in range(300)]
        blob = bytes(range(256)) * 40  # binary, larger than one socket read
        assert await client.call("SET", key, blob) == b"OK"
        assert await client.call("GET", key) == blob
        with pytest.raises(RespError, match="WRONGTYPE"):
            await client.call("LPUSH", key, "x")
        assert await client.call("DEL", key) == 1  # the error spoiled nothing after it
    finally:
        await client.close()


async def test_scripts_load_themselves_on_first_use(redis_url: str) -> None:
    """A script unknown to the server is sent once with EVAL, then runs by SHA."""
    client = RespClient(redis_url)
    source = f"return {{KEYS[1], ARGV[1], '{uuid.uuid4().hex}'}}"
    script = RespScript(client, source)
    try:
        first = await script(keys=["k"], args=["v"])
        again = await script(keys=["k2"], args=[7])
        assert first[:2] == [b"k", b"v"] and again[:2] == [b"k2", b"7"]
        assert await client.call("SCRIPT", "EXISTS", script._sha) == [1]
    finally:
        await client.close()


@pytest.fixture
def private_redis() -> Iterator[PrivateRedis]:
    server = PrivateRedis(extra=("--requirepass", "s3cret"))
    server.start()
    yield server
    server.close()


async def test_auth_select_failure_and_reconnection(private_redis: PrivateRedis) -> None:
    """AUTH and SELECT come from the URL; a stopped server fails calls; a restarted
    one is reconnected to by the next call."""
    url = f"redis://:s3cret@127.0.0.1:{private_redis.port}/3"
    client = RespClient(url, timeout=1)
    try:
        assert await client.call("SET", "k", "v") == b"OK"
        assert await client.call("CLIENT", "INFO") is not None
        assert b"db=3" in await client.call("CLIENT", "INFO")
        private_redis.stop()
        with pytest.raises(RespConnectionError):
            await client.call("GET", "k")
        private_redis.start()
        assert await client.call("PING") == b"PONG"
    finally:
        await client.close()
    wrong = RespClient(f"redis://:nope@127.0.0.1:{private_redis.port}/0", timeout=1)
    with pytest.raises(RespError, match=r"WRONGPASS|invalid"):
        await wrong.call("PING")
    await wrong.close()


async def test_a_silent_server_times_out() -> None:
    """A server that accepts but never answers fails the call after the timeout."""

    async def silent(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        await reader.read(1 << 16)
        await asyncio.sleep(30)

    server = await asyncio.start_server(silent, "127.0.0.1", 0)
    port = server.sockets[0].getsockname()[1]
    client = RespClient(f"redis://127.0.0.1:{port}/0", timeout=0.3)
    try:
        with pytest.raises(RespConnectionError, match="in time"):
            await asyncio.wait_for(client.call("PING"), 5)
    finally:
        await client.close()
        server.close()


async def test_refused_connection_is_a_connection_error() -> None:
    """Nothing listening: the call fails at once with RespConnectionError."""
    client = RespClient("redis://127.0.0.1:1/0", timeout=0.5)
    with pytest.raises(RespConnectionError):
        await client.call("PING")
    await client.close()

"""Commands sent while others are in flight are written together (store/commands.py).

Real Redis throughout. What batching must never change: every caller gets its own reply
or an error of its own; a command whose caller gave up before it was written never runs;
an error reply or a failed exchange costs only the callers of that batch.
"""

from __future__ import annotations

import asyncio
import contextlib
import uuid

import pytest
import redis
from redis.exceptions import RedisError, ResponseError

from tests.store.test_faults import ECHO, _own_echo, commands, cutting_proxy


def _connections_named(url: str, name: str) -> int:
    client = redis.Redis.from_url(url)
    try:
        return sum(1 for c in client.client_list() if c.get("name") == name)
    finally:
        client.close()


async def _hold(client: object, key: str, seconds: float) -> None:
    """A command that keeps one exchange in flight (a blocking pop on an empty list), so
    what is sent meanwhile is batched."""
    await client.execute("BLPOP", key, seconds)  # type: ignore[attr-defined]


async def test_commands_in_flight_together_share_connections(
    redis_url: str, redis_prefix: str
) -> None:
    """Forty callers at once on a client allowed 32 connections: each gets its own reply,
    and they use two connections (the first alone, the rest in one batch), not forty.

    The script is loaded first: on a Redis that has never run it, each caller's EVALSHA
    is answered NOSCRIPT and sent again as EVAL, a second round of exchanges."""
    name = f"batch-{uuid.uuid4().hex[:10]}"
    async with commands(f"{redis_url}?client_name={name}", size=32) as client:
        await client.execute("SCRIPT", "LOAD", ECHO.source)
        await asyncio.gather(*(_own_echo(client, redis_prefix, b"%d" % i) for i in range(40)))
        assert _connections_named(redis_url, name) <= 2


async def test_a_command_given_up_before_it_is_written_never_runs(
    redis_url: str, redis_prefix: str
) -> None:
    async with commands(redis_url, size=4) as client:
        holder = asyncio.ensure_future(_hold(client, f"{redis_prefix}:empty", 0.3))
        await asyncio.sleep(0.05)  # the pop is in flight: what follows is batched
        counter = f"{redis_prefix}:counter"
        victim = asyncio.ensure_future(client.execute("INCR", counter))
        await asyncio.sleep(0)  # it is queued for the next batch, not yet written
        victim.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await victim
        assert victim.cancelled()
        await asyncio.gather(*(_own_echo(client, redis_prefix, b"%d" % i) for i in range(4)))
        await holder
        assert await client.execute("GET", counter) is None


async def test_an_error_reply_in_a_batch_goes_to_its_caller_only(
    redis_url: str, redis_prefix: str
) -> None:
    async with commands(redis_url, size=4) as client:
        text = f"{redis_prefix}:text"
        await client.execute("SET", text, b"not a number")
        holder = asyncio.ensure_future(_hold(client, f"{redis_prefix}:empty", 0.2))
        await asyncio.sleep(0.05)
        results = await asyncio.gather(
            *(_own_echo(client, redis_prefix, b"a%d" % i) for i in range(3)),
            client.execute("INCR", text),
            *(_own_echo(client, redis_prefix, b"b%d" % i) for i in range(3)),
            return_exceptions=True,
        )
        assert [type(r) for r in results] == [type(None)] * 3 + [ResponseError] + [type(None)] * 3
        await holder


async def test_a_batch_that_times_out_fails_each_of_its_callers(
    redis_url: str, redis_prefix: str
) -> None:
    """A slow command in a batch holds the replies behind it: past the timeout every caller
    of that batch gets a TimeoutError, the connection is dropped (the late replies reach
    nobody) and later callers are answered."""
    async with commands(redis_url, size=4, timeout=0.5) as client:
        # (Redis wakes a blocked pop on its 100 ms clock: the timeouts leave room for it)
        holder = asyncio.ensure_future(_hold(client, f"{redis_prefix}:empty", 0.05))
        await asyncio.sleep(0.02)
        results = await asyncio.gather(
            client.execute("BLPOP", f"{redis_prefix}:empty2", 1.0),
            _own_echo(client, redis_prefix, b"behind the slow one"),
            return_exceptions=True,
        )
        assert all(isinstance(r, TimeoutError) for r in results), results
        await holder
        await asyncio.sleep(0.8)  # the slow reply has arrived on the dropped connection
        await asyncio.gather(*(_own_echo(client, redis_prefix, b"after%d" % i) for i in range(6)))


@pytest.mark.parametrize("cut", [1, 40, 300])
async def test_a_batch_cut_mid_reply_never_misroutes(
    redis_url: str, redis_prefix: str, cut: int
) -> None:
    """A connection dropped while a batch's replies arrive: each caller gets its own reply
    or an error, and everyone after is answered on a fresh connection."""
    async with cutting_proxy(redis_url) as (proxy, url), commands(url, size=4) as client:
        await _own_echo(client, redis_prefix, b"warm-up")
        holder = asyncio.ensure_future(_hold(client, f"{redis_prefix}:empty", 0.2))
        await asyncio.sleep(0.05)
        proxy.cut = cut
        results = await asyncio.gather(
            *(_own_echo(client, redis_prefix, b"c%d" % i * 50) for i in range(8)),
            return_exceptions=True,
        )
        # an AssertionError would be a reply that reached the wrong caller
        assert all(r is None or isinstance(r, RedisError | OSError) for r in results), results
        assert any(r is not None for r in results)
        with contextlib.suppress(RedisError, OSError):
            await holder
        await asyncio.gather(*(_own_echo(client, redis_prefix, b"d%d" % i) for i in range(8)))


async def test_work_while_a_reply_travels_runs_once_for_a_command_sent_alone(
    redis_url: str, redis_prefix: str
) -> None:
    """``meanwhile`` runs once, after the command is written and before its reply is
    read, for a command sent alone; the caller still gets its own reply."""
    async with commands(redis_url, size=4) as client:
        ran: list[int] = []
        key = f"{redis_prefix}:{uuid.uuid4().hex}"
        reply = await client.run(ECHO, [key], [b"alone"], meanwhile=lambda: ran.append(1))
        assert reply == [key.encode(), b"alone"] and ran == [1]


async def test_work_while_a_reply_travels_is_skipped_for_a_batched_command(
    redis_url: str, redis_prefix: str
) -> None:
    """A command that joins a batch is written on the batch's turn: ``meanwhile`` is not
    run ahead of its write, and the reply is still its caller's."""
    async with commands(redis_url, size=4) as client:
        holder = asyncio.ensure_future(_hold(client, f"{redis_prefix}:empty", 0.2))
        await asyncio.sleep(0.05)  # the pop is in flight: what follows is batched
        ran: list[int] = []
        key = f"{redis_prefix}:{uuid.uuid4().hex}"
        reply = await client.run(ECHO, [key], [b"batched"], meanwhile=lambda: ran.append(1))
        assert reply == [key.encode(), b"batched"] and ran == []
        await holder


async def test_failing_work_while_a_reply_travels_costs_the_exchange_nothing(
    redis_url: str, redis_prefix: str
) -> None:
    """An exception from ``meanwhile`` is the caller's to meet again on its own path: the
    reply is still read and returned, the connection goes back clean (one connection for
    everything after) and every later caller gets its own reply."""
    name = f"meanwhile-{uuid.uuid4().hex[:10]}"
    async with commands(f"{redis_url}?client_name={name}", size=4) as client:

        def fails() -> None:
            raise RuntimeError("a view that cannot be built")

        key = f"{redis_prefix}:{uuid.uuid4().hex}"
        assert await client.run(ECHO, [key], [b"v"], meanwhile=fails) == [key.encode(), b"v"]
        for i in range(20):
            await _own_echo(client, redis_prefix, b"%d" % i)
        assert _connections_named(redis_url, name) == 1

"""Regression tests for the defects a hostile-client review found (one test each).

Real servers (in-process and as child processes), real gRPC channels, real Redis.
"""

from __future__ import annotations

import asyncio
import io
import json
import logging
import pathlib

import grpc
import pytest
from grpc_health.v1 import health_pb2, health_pb2_grpc

from tests.service.helpers import create, fails, get, move, stored
from tests.support.redis_server import PrivateRedis
from tests.support.server import running_app, server_process
from tribes.server import _AbandonedCalls
from tribes.store.memory import MemoryStore
from tribes.store.redis import RedisStore
from tribes.v1 import game_service_pb2 as spb
from tribes.v1 import game_service_pb2_grpc as spb_grpc

SC = grpc.StatusCode
ROOT = pathlib.Path(__file__).resolve().parents[2]


async def test_a_huge_page_token_leaves_the_store_client_in_step(
    stub: spb_grpc.GameServiceStub, redis_url: str, redis_prefix: str
) -> None:
    """ListMoves with 4,300 nines is refused before any store work, and every move after
    it is acknowledged and in the log (the store client did not fall out of step)."""
    created = await create(stub)
    for bad in ("9" * 4300, "9" * 20, "²"):
        code, reason, _ = await fails(
            stub.ListMoves(spb.ListMovesRequest(name=created.name, page_token=bad))
        )
        assert (code, reason) == (SC.INVALID_ARGUMENT, "BAD_PAGE_TOKEN")
    version = created.snapshot.version
    for card in (1, 2, 3):
        for seat in (0, 1):
            snap = await move(stub, created.name, created.tokens[seat], f"bid:{card}", version)
            version = snap.version
    _, _, log_length = stored(redis_url, redis_prefix, created.game_id)
    assert log_length == 6 and version == 7
    page = await stub.ListMoves(spb.ListMovesRequest(name=created.name))
    assert [r.version for r in page.moves] == [2, 3, 4, 5, 6, 7]


def test_cancelled_watches_do_not_crash_the_server(redis_url: str, redis_prefix: str) -> None:
    """Open WatchGame without a token, read one message, cancel; 300 times, with request
    logging on: the server process stays up and keeps answering."""
    env = {"REDIS_URL": redis_url, "TRIBES_REDIS_PREFIX": redis_prefix, "TRIBES_LOG_REQUESTS": "1"}
    with server_process(env) as server:

        async def run() -> None:
            async with grpc.aio.insecure_channel(server.target) as channel:
                stub = spb_grpc.GameServiceStub(channel)
                created = await create(stub)
                for _ in range(300):
                    call = stub.WatchGame(spb.WatchGameRequest(name=created.name))
                    await call.read()
                    call.cancel()
                assert (await get(stub, created.name)).version == 1

        asyncio.run(run())
        assert server.proc.poll() is None, "".join(server.tail)


async def test_stop_ends_even_when_the_probe_races_the_cancellation() -> None:
    """200 start/stop cycles with a store ping that finishes as the stop arrives: every
    stop returns (the health probe never swallows its cancellation)."""

    class RacingStore(MemoryStore):
        async def ping(self) -> None:
            await asyncio.sleep(0)

    for _ in range(200):
        async with asyncio.timeout(10):
            async with running_app(RacingStore(), health_interval=0.0):
                await asyncio.sleep(0)


def test_no_wait_for_around_work_that_must_stop() -> None:
    """The service never wraps must-stop work in asyncio.wait_for (it can swallow a
    cancellation on Python 3.11); asyncio.timeout is used instead."""
    offenders = [
        str(path.relative_to(ROOT))
        for path in (ROOT / "service" / "tribes").rglob("*.py")
        if "v1" not in path.parts and "wait_for(" in path.read_text()
    ]
    assert offenders == []


async def test_a_watch_refused_during_an_outage_works_after_it() -> None:
    """A WatchGame refused while Redis is down does not leave a broken subscription
    behind: once Redis is back, watching that game works on the same process."""
    redis = PrivateRedis()
    redis.start()
    try:
        async with running_app(RedisStore(redis.url, prefix="outage", timeout=0.5)) as app:
            async with grpc.aio.insecure_channel(f"127.0.0.1:{app.port}") as channel:
                stub = spb_grpc.GameServiceStub(channel)
                created = await create(stub)
                redis.stop()
                code, reason, _ = await fails(
                    stub.WatchGame(spb.WatchGameRequest(name=created.name)).read()
                )
                assert (code, reason) == (SC.UNAVAILABLE, "STORE_UNAVAILABLE")
                redis.start()
                await asyncio.sleep(0.3)  # the game is gone (no persistence): make another
                created = await create(stub)
                call = stub.WatchGame(spb.WatchGameRequest(name=created.name))
                first = await call.read()
                await move(stub, created.name, created.tokens[0], "bid:1")
                await move(stub, created.name, created.tokens[1], "bid:1")
                async with asyncio.timeout(5):
                    versions = [first.version]
                    while versions[-1] < 3:
                        versions.append((await call.read()).version)
                call.cancel()
                assert versions[0] == 1 and versions[-1] == 3
    finally:
        redis.stop()


async def test_health_watch_streams_the_serving_status(channel: grpc.aio.Channel) -> None:
    """grpc.health.v1.Health/Watch (used by client-side health checking) answers."""
    health = health_pb2_grpc.HealthStub(channel)
    call = health.Watch(health_pb2.HealthCheckRequest(service="tribes.v1.GameService"))
    first = await call.read()
    call.cancel()
    assert first.status == health_pb2.HealthCheckResponse.SERVING


@pytest.mark.parametrize(
    ("request_", "reason"),
    [
        (spb.GetGameRequest(name="games/" + "x" * 1_000_000), "BAD_NAME"),
        (spb.GetGameRequest(name="\0" * 1_000_000), "BAD_NAME"),
        (spb.CreateGameRequest(game_type="g" * 1_000_000, seat_count=2), "BAD_GAME_TYPE"),
        (
            spb.CreateGameRequest(
                game_type="goofspiel", seat_count=2, options={f"o{i}": "v" for i in range(100_000)}
            ),
            "BAD_OPTIONS",
        ),
        (
            spb.CreateGameRequest(
                game_type="goofspiel", seat_count=2, options={"cards": "9" * 1_000_000}
            ),
            "BAD_OPTIONS",
        ),
    ],
    ids=["long-name", "nul-name", "long-game-type", "many-options", "long-option"],
)
async def test_unbounded_input_is_refused_with_a_short_message(
    request_: object, reason: str
) -> None:
    """Megabyte fields and 100,000 options get INVALID_ARGUMENT with their reason, a short
    message, and a short log line."""
    stream = io.StringIO()
    async with running_app(MemoryStore(), request_stream=stream, log_requests=True) as app:
        async with grpc.aio.insecure_channel(f"127.0.0.1:{app.port}") as channel:
            stub = spb_grpc.GameServiceStub(channel)
            method = stub.GetGame if isinstance(request_, spb.GetGameRequest) else stub.CreateGame
            with pytest.raises(grpc.aio.AioRpcError) as raised:
                await method(request_)
            code, got, _ = await fails(method(request_))
    assert raised.value.code() == SC.INVALID_ARGUMENT == code
    assert len(raised.value.details() or "") < 300
    assert got == reason
    assert all(len(line) < 1024 for line in stream.getvalue().splitlines())


async def test_a_long_move_id_is_malformed(stub: spb_grpc.GameServiceStub) -> None:
    """A megabyte move_id is MALFORMED_MOVE with a short message."""
    created = await create(stub)
    code, reason, _ = await fails(move(stub, created.name, created.tokens[0], "bid:" + "1" * 10**6))
    assert (code, reason) == (SC.INVALID_ARGUMENT, "MALFORMED_MOVE")


async def test_undecodable_bodies_are_invalid_argument_and_logged_quietly(
    caplog: pytest.LogCaptureFixture,
) -> None:
    """Bytes that are no message of the method's type: INVALID_ARGUMENT, no ERROR log."""
    async with running_app(MemoryStore()) as app:
        async with grpc.aio.insecure_channel(f"127.0.0.1:{app.port}") as channel:
            for method in ("GetGame", "CreateGame", "ApplyMove", "ListMoves", "WatchGame"):
                path = f"/tribes.v1.GameService/{method}"
                if method == "WatchGame":
                    call = channel.unary_stream(path)(b"\xff\xff\xff")
                    awaitable = call.read()
                else:
                    awaitable = channel.unary_unary(path)(b"\x0a\xff\xff\xff\x0f")
                with caplog.at_level(logging.ERROR):
                    code, reason, _ = await fails(awaitable)
                assert (code, reason) == (SC.INVALID_ARGUMENT, "MALFORMED_REQUEST"), method
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR]


def test_abandoned_call_tracebacks_are_kept_at_debug() -> None:
    """grpc's ExecuteBatchError traceback (a client hung up) is not an ERROR of ours."""
    message = "ExecuteBatchError raised in core by servicer method [%s]"
    record = logging.LogRecord(
        "grpc._cython.cygrpc", logging.ERROR, "", 0, message, ("/tribes.v1.GameService/X",), None
    )
    assert _AbandonedCalls().filter(record) is False
    assert record.levelno == logging.DEBUG
    other = logging.LogRecord("grpc._cython.cygrpc", logging.ERROR, "", 0, "boom", (), None)
    assert _AbandonedCalls().filter(other) is True and other.levelno == logging.ERROR


async def test_a_respelled_seat_token_is_refused(stub: spb_grpc.GameServiceStub) -> None:
    """``01.<mac>`` is not seat 1's token: one spelling per token, so a retry cannot be
    moved into another idempotency scope and played twice."""
    created = await create(stub)
    token = created.tokens[1]
    respelled = "0" + token
    code, reason, _ = await fails(move(stub, created.name, respelled, "bid:1", request_id="r1"))
    assert (code, reason) == (SC.PERMISSION_DENIED, "BAD_TOKEN")
    first = await move(stub, created.name, token, "bid:1", request_id="r1")
    again = await move(stub, created.name, token, "bid:1", request_id="r1")
    assert first.version == again.version == 2


async def test_create_game_is_rate_limited_per_peer() -> None:
    """A peer over its CreateGame budget gets RESOURCE_EXHAUSTED (RATE_LIMITED)."""
    async with running_app(
        MemoryStore(), create_rate=0.001, create_burst=3, limit_loopback=True
    ) as app:
        async with grpc.aio.insecure_channel(f"127.0.0.1:{app.port}") as channel:
            stub = spb_grpc.GameServiceStub(channel)
            for _ in range(3):
                await create(stub, seed=None)
            code, reason, meta = await fails(create(stub, seed=None))
    assert (code, reason) == (SC.RESOURCE_EXHAUSTED, "RATE_LIMITED")
    assert float(meta["retry_after_seconds"]) > 0


async def test_the_embedded_store_caps_live_games() -> None:
    """Beyond TRIBES_MAX_GAMES the embedded store refuses with GAME_LIMIT."""
    async with running_app(MemoryStore(max_games=2), create_rate=0) as app:
        async with grpc.aio.insecure_channel(f"127.0.0.1:{app.port}") as channel:
            stub = spb_grpc.GameServiceStub(channel)
            await create(stub, seed=None)
            await create(stub, seed=None)
            code, reason, _ = await fails(create(stub, seed=None))
    assert (code, reason) == (SC.RESOURCE_EXHAUSTED, "GAME_LIMIT")


async def test_version_conflicts_count_stale_rejections(app: object) -> None:
    """A move refused as STALE_VERSION counts as a version conflict."""
    from tribes.server import App

    assert isinstance(app, App)
    async with grpc.aio.insecure_channel(f"127.0.0.1:{app.port}") as channel:
        stub = spb_grpc.GameServiceStub(channel)
        created = await create(stub)
        await move(stub, created.name, created.tokens[0], "bid:1", 1)
        before = app.metrics.registry.get_sample_value(
            "tribes_version_conflicts_total", {"game": "goofspiel"}
        )
        code, reason, _ = await fails(move(stub, created.name, created.tokens[1], "bid:1", 1))
        assert (code, reason) == (SC.ABORTED, "STALE_VERSION")
        after = app.metrics.registry.get_sample_value(
            "tribes_version_conflicts_total", {"game": "goofspiel"}
        )
    assert (after or 0) == (before or 0) + 1


async def test_reflection_answers_v1_and_v1alpha(channel: grpc.aio.Channel) -> None:
    """grpc.reflection.v1 and v1alpha both list the service (grpcurl asks v1 first)."""
    from grpc_reflection.v1alpha import reflection_pb2

    for name in ("grpc.reflection.v1.ServerReflection", "grpc.reflection.v1alpha.ServerReflection"):
        call = channel.stream_stream(
            f"/{name}/ServerReflectionInfo",
            request_serializer=reflection_pb2.ServerReflectionRequest.SerializeToString,
            response_deserializer=reflection_pb2.ServerReflectionResponse.FromString,
        )(iter([reflection_pb2.ServerReflectionRequest(list_services="")]))
        reply = await call.read()
        services = {s.name for s in reply.list_services_response.service}
        assert "tribes.v1.GameService" in services, name
        call.cancel()


def test_json_of_the_log_line_is_valid_for_odd_input() -> None:
    """Request-log lines stay valid JSON for NUL bytes and quotes in caller input."""
    from tribes.grpc.interceptors import RequestLog

    stream = io.StringIO()
    log = RequestLog(stream)
    log.add('"method":"GetGame"', '\0"\\' * 1000, "InvalidArgument", 1.0, 'ipv4:"x"')
    log.flush()
    line = json.loads(stream.getvalue())
    assert len(line["game"]) <= 48 and line["code"] == "InvalidArgument"


async def test_loopback_peers_are_not_rate_limited_by_default() -> None:
    """Local tools and benchmarks on the same host create freely unless
    TRIBES_LIMIT_LOOPBACK=1 (a deployment behind a local proxy)."""
    async with running_app(MemoryStore(), create_rate=0.001, create_burst=1) as app:
        async with grpc.aio.insecure_channel(f"127.0.0.1:{app.port}") as channel:
            stub = spb_grpc.GameServiceStub(channel)
            for _ in range(5):
                await create(stub, seed=None)


def test_loopback_is_recognised_in_both_doors_spellings() -> None:
    """gRPC peers (ipv4:/ipv6: with ports) and HTTP peers (bare addresses)."""
    from tribes.core.quotas import is_loopback

    assert all(map(is_loopback, ["ipv4:127.0.0.1:5000", "ipv6:[::1]:5000", "127.0.0.1", "::1"]))
    assert not any(map(is_loopback, ["ipv4:10.0.0.7:5000", "ipv6:[2001:db8::1]:80", "8.8.8.8"]))


def test_an_address_is_one_key_in_both_doors_spellings() -> None:
    """The key limits count under: the address alone, canonical, from either door."""
    from tribes.core.quotas import address_of

    assert {address_of(p) for p in ["ipv4:10.0.0.7:5000", "10.0.0.7", "::ffff:10.0.0.7"]} == {
        "10.0.0.7"
    }
    assert {address_of(p) for p in ["ipv6:[2001:DB8::1]:80", "2001:db8:0::1"]} == {"2001:db8::1"}
    assert address_of("unix:/run/tribes.sock") == "unix:/run/tribes.sock"


async def test_two_authorization_values_are_refused(stub: spb_grpc.GameServiceStub) -> None:
    """Two ``authorization`` entries (which one did a proxy in front check?): BAD_TOKEN,
    on a unary call and on a session, and the game is untouched."""
    created = await create(stub)
    both = tuple(("authorization", f"Bearer {token}") for token in created.tokens)
    request = spb.ApplyMoveRequest(name=created.name, move_id="bid:1")
    code, reason, _ = await fails(stub.ApplyMove(request, metadata=both))
    assert (code, reason) == (SC.PERMISSION_DENIED, "BAD_TOKEN")
    stream = stub.Play(metadata=both)
    await stream.write(spb.PlayRequest(open=spb.OpenSession(name=created.name)))
    assert await stream.code() == SC.PERMISSION_DENIED
    assert "one authorization value, not 2" in (await stream.details() or "")
    assert (await get(stub, created.name)).version == 1
    assert (await move(stub, created.name, created.tokens[0], "bid:1")).version == 2

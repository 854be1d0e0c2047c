"""Operations: metrics, health against a Redis that stops, replicas sharing Redis,
replay from the log, graceful shutdown, the embedded store."""

from __future__ import annotations

import asyncio
import io
import json
import os
import signal
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from typing import Any

import aiohttp
import grpc
import pytest
import redis as sync_redis
from grpc_health.v1 import health_pb2, health_pb2_grpc

from tests.games.goofspiel import GAME
from tests.service.helpers import create, fails, get, goofspiel_view, move
from tests.support.redis_server import PrivateRedis, free_port
from tests.support.server import (
    ROOT,
    bearer,
    running_app,
    server_process,
)
from tribes.core.records import ENTRY, META, unpack
from tribes.engine.driver import replay
from tribes.server import App
from tribes.store.memory import MemoryStore
from tribes.store.redis import RedisStore
from tribes.v1 import game_service_pb2 as spb
from tribes.v1 import game_service_pb2_grpc as spb_grpc

SERVING = health_pb2.HealthCheckResponse.SERVING
NOT_SERVING = health_pb2.HealthCheckResponse.NOT_SERVING


@pytest.fixture
def private_redis() -> Iterator[PrivateRedis]:
    server = PrivateRedis()
    server.start()
    yield server
    server.close()


def _scrape(port: int) -> str:
    with urllib.request.urlopen(f"http://127.0.0.1:{port}/metrics", timeout=5) as response:
        return str(response.read().decode())


def _sample(text: str, name: str, **labels: str) -> float:
    """The value of one sample in Prometheus text format."""
    from prometheus_client.parser import text_string_to_metric_families

    for family in text_string_to_metric_families(text):
        for sample in family.samples:
            if sample.name == name and all(sample.labels.get(k) == v for k, v in labels.items()):
                return float(sample.value)
    raise AssertionError(f"no sample {name} {labels}")


async def test_metrics_count_calls_moves_and_rejections(app: App) -> None:
    """The /metrics endpoint reports gRPC calls by method and code and the game metrics."""
    async with grpc.aio.insecure_channel(f"127.0.0.1:{app.port}") as channel:
        stub = spb_grpc.GameServiceStub(channel)
        created = await create(stub)
        await move(stub, created.name, created.tokens[0], "bid:1")
        await fails(move(stub, created.name, created.tokens[0], "bid:2"))
        await fails(move(stub, created.name, created.tokens[1], "bid:1", expected=1))
        await get(stub, created.name)
    assert app.metrics_port is not None
    text = await asyncio.to_thread(_scrape, app.metrics_port)  # the server shares this loop
    method = {"grpc_service": "tribes.v1.GameService", "grpc_type": "unary"}
    assert _sample(text, "grpc_server_started_total", grpc_method="ApplyMove", **method) == 3
    assert (
        _sample(
            text, "grpc_server_handled_total", grpc_method="ApplyMove", grpc_code="OK", **method
        )
        == 1
    )
    assert (
        _sample(
            text,
            "grpc_server_handled_total",
            grpc_method="ApplyMove",
            grpc_code="FailedPrecondition",
            **method,
        )
        == 1
    )
    assert (
        _sample(
            text,
            "grpc_server_handled_total",
            grpc_method="ApplyMove",
            grpc_code="Aborted",
            **method,
        )
        == 1
    )
    assert _sample(text, "grpc_server_handling_seconds_count", grpc_method="GetGame", **method) == 1
    assert _sample(text, "tribes_moves_applied_total", game="goofspiel") == 1
    assert (
        _sample(text, "tribes_moves_rejected_total", game="goofspiel", reason="NOT_YOUR_TURN") == 1
    )
    assert (
        _sample(text, "tribes_moves_rejected_total", game="goofspiel", reason="STALE_VERSION") == 1
    )
    assert _sample(text, "tribes_games_created_total", game="goofspiel") == 1
    assert _sample(text, "tribes_store_seconds_count", operation="commit") == 1
    assert _sample(text, "tribes_rule_seconds_count", game="goofspiel", operation="apply") >= 2


async def test_health_follows_redis_down_and_back(private_redis: PrivateRedis) -> None:
    """Health turns NOT_SERVING when Redis stops and SERVING when it returns; moves
    meanwhile fail with UNAVAILABLE and change nothing."""
    store = RedisStore(private_redis.url, prefix="health", timeout=0.5)
    async with running_app(store) as app:
        async with grpc.aio.insecure_channel(f"127.0.0.1:{app.port}") as channel:
            health = health_pb2_grpc.HealthStub(channel)
            stub = spb_grpc.GameServiceStub(channel)
            created = await create(stub)
            assert await _health(health) == SERVING
            private_redis.stop()
            assert await _wait_health(health, NOT_SERVING)
            code, reason, _ = await fails(move(stub, created.name, created.tokens[0], "bid:1"))
            assert (code, reason) == (grpc.StatusCode.UNAVAILABLE, "STORE_UNAVAILABLE")
            private_redis.start()  # same port, empty: the game is gone with the old server
            assert await _wait_health(health, SERVING)
            fresh = await create(stub)
            assert (await move(stub, fresh.name, fresh.tokens[0], "bid:1")).version == 2


async def _health(stub: health_pb2_grpc.HealthStub) -> int:
    reply = await stub.Check(health_pb2.HealthCheckRequest(service="tribes.v1.GameService"))
    return int(reply.status)


async def _wait_health(stub: health_pb2_grpc.HealthStub, wanted: int) -> bool:
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        if await _health(stub) == wanted:
            return True
        await asyncio.sleep(0.1)
    return False


async def test_watch_sees_moves_made_through_another_server_process(
    redis_url: str, redis_prefix: str
) -> None:
    """Two server processes on one Redis: a watcher on one sees moves made on the other."""
    env = {"REDIS_URL": redis_url, "TRIBES_REDIS_PREFIX": redis_prefix}
    with server_process(env) as first, server_process(env) as second:
        async with (
            grpc.aio.insecure_channel(first.target) as ch1,
            grpc.aio.insecure_channel(second.target) as ch2,
        ):
            on_first, on_second = spb_grpc.GameServiceStub(ch1), spb_grpc.GameServiceStub(ch2)
            created = await create(on_first, cards="3")
            stream = on_second.WatchGame(spb.WatchGameRequest(name=created.name))
            assert (await stream.read()).version == 1
            await move(on_first, created.name, created.tokens[0], "bid:2")
            await move(on_first, created.name, created.tokens[1], "bid:3")
            seen = [await asyncio.wait_for(stream.read(), 10) for _ in range(2)]
            assert [s.version for s in seen] == [2, 3]
            assert len(goofspiel_view(seen[1]).tricks) == 1
            # tokens from one process work on the other (shared signing secret)
            snap = await move(on_second, created.name, created.tokens[0], "bid:1", expected=3)
            assert snap.version == 4
            stream.cancel()


async def test_replaying_seed_and_log_reproduces_the_stored_state(
    stub: spb_grpc.GameServiceStub, redis_url: str, redis_prefix: str
) -> None:
    """The stored seed and move log rebuild exactly the stored state bytes (the stored
    blob is the seat record beside the rules' state)."""
    created = await create(stub, seats=3, cards="5")
    for _ in range(4):
        for seat in range(3):
            snap = await get(stub, created.name, created.tokens[seat])
            await move(stub, created.name, created.tokens[seat], snap.legal_moves[-1].id)
    client = sync_redis.Redis.from_url(redis_url)
    key = f"{redis_prefix}:{{{created.game_id}}}"
    meta = META.decode(client.hget(key, "m"))
    stored_state = client.hget(key, "s")
    entries = [ENTRY.decode(b) for b in client.lrange(f"{key}:log", 0, -1)]
    client.close()
    assert len(entries) == 12
    moves = [(entry.seat, entry.move_id) for entry in entries]
    state = replay(GAME, meta.seat_count, meta.options_dict, meta.seed, moves)
    record, rules_state = unpack(stored_state, meta)
    assert GAME.encode(state) == rules_state
    assert record == meta.first_record


def test_sigterm_shuts_down_gracefully(redis_url: str, redis_prefix: str) -> None:
    """SIGTERM stops the server promptly with exit status 0."""
    with server_process({"REDIS_URL": redis_url, "TRIBES_REDIS_PREFIX": redis_prefix}) as proc:
        channel = grpc.insecure_channel(proc.target)
        stub = spb_grpc.GameServiceStub(channel)
        stub.ListGameTypes(spb.ListGameTypesRequest(), timeout=5)
        channel.close()
        began = time.monotonic()
        proc.proc.send_signal(signal.SIGTERM)
        assert proc.proc.wait(10) == 0
        assert time.monotonic() - began < 8


async def test_embedded_store_plays_a_whole_game() -> None:
    """With no Redis configured the embedded store serves a complete game."""
    async with running_app(MemoryStore()) as app:
        async with grpc.aio.insecure_channel(f"127.0.0.1:{app.port}") as channel:
            stub = spb_grpc.GameServiceStub(channel)
            created = await create(stub, cards="3")
            snap = None
            while snap is None or not snap.finished:
                for seat, token in enumerate(created.tokens):
                    current = await get(stub, created.name, token)
                    if seat in current.to_act:
                        snap = await move(stub, created.name, token, current.legal_moves[0].id)
            assert snap.version == 7 and snap.result.winners
            log = await stub.ListMoves(
                spb.ListMovesRequest(name=created.name), metadata=bearer(created.tokens[0])
            )
            assert len(log.moves) == 6


async def test_unreadable_stored_state_is_data_loss(
    stub: spb_grpc.GameServiceStub, redis_url: str, redis_prefix: str
) -> None:
    """A stored state that cannot be decoded answers DATA_LOSS (CORRUPT_GAME)."""
    created = await create(stub)
    client = sync_redis.Redis.from_url(redis_url)
    client.hset(f"{redis_prefix}:{{{created.game_id}}}", mapping={"v": 2, "s": b"garbage"})
    client.close()
    code, reason, _ = await fails(get(stub, created.name))
    assert (code, reason) == (grpc.StatusCode.DATA_LOSS, "CORRUPT_GAME")


async def test_watch_ends_unavailable_when_redis_goes_away(private_redis: PrivateRedis) -> None:
    """An open WatchGame stream ends with UNAVAILABLE when the change feed is lost."""
    store = RedisStore(private_redis.url, prefix="watch", timeout=0.5)
    async with running_app(store) as app:
        async with grpc.aio.insecure_channel(f"127.0.0.1:{app.port}") as channel:
            stub = spb_grpc.GameServiceStub(channel)
            created = await create(stub)
            stream = stub.WatchGame(spb.WatchGameRequest(name=created.name))
            assert (await stream.read()).version == 1
            private_redis.stop()
            code, reason, _ = await fails(asyncio.wait_for(stream.read(), 15))
            assert (code, reason) == (grpc.StatusCode.UNAVAILABLE, "STORE_UNAVAILABLE")


async def test_one_structured_log_line_per_request() -> None:
    """Each call logs one JSON line with time, method, game, status code and duration."""
    stream = io.StringIO()
    async with running_app(MemoryStore(), request_stream=stream, log_requests=True) as app:
        async with grpc.aio.insecure_channel(f"127.0.0.1:{app.port}") as channel:
            stub = spb_grpc.GameServiceStub(channel)
            created = await create(stub)
            await fails(move(stub, created.name, created.tokens[0], "bid:9"))
    lines = [json.loads(line) for line in stream.getvalue().splitlines()]
    assert [(line["method"], line["code"]) for line in lines] == [
        ("CreateGame", "OK"),
        ("ApplyMove", "FailedPrecondition"),
    ]
    assert lines[0]["game"] == "goofspiel" and lines[1]["game"] == created.name
    assert all(line["ms"] >= 0 and line["ts"] > 1.7e9 and line["peer"] for line in lines)


def test_workers_share_one_port_and_one_metrics_endpoint(redis_url: str, redis_prefix: str) -> None:
    """TRIBES_WORKERS=2: two processes serve one port; /metrics sums both; SIGTERM ends all."""
    port, metrics_port = free_port(), free_port()
    env = {
        **os.environ,
        "PYTHONPATH": f"{ROOT}{os.pathsep}{ROOT / 'service'}",
        "REDIS_URL": redis_url,
        "TRIBES_REDIS_PREFIX": redis_prefix,
        "TRIBES_WORKERS": "2",
        "TRIBES_PORT": str(port),
        "TRIBES_METRICS_PORT": str(metrics_port),
        "TRIBES_GAME_PLUGINS": "tests.games.goofspiel.plugin",
        "TRIBES_LOG_REQUESTS": "0",
    }
    proc = subprocess.Popen([sys.executable, "-m", "tribes"], env=env, cwd=ROOT)
    try:
        deadline = time.monotonic() + 20
        calls = 0
        while time.monotonic() < deadline and calls < 40:
            try:
                with grpc.insecure_channel(
                    f"127.0.0.1:{port}", options=[("grpc.use_local_subchannel_pool", 1)]
                ) as channel:
                    spb_grpc.GameServiceStub(channel).ListGameTypes(
                        spb.ListGameTypesRequest(), timeout=2
                    )
                    calls += 1
            except grpc.RpcError:
                time.sleep(0.2)
        assert calls == 40
        text = _scrape(metrics_port)
        served = _sample(
            text,
            "grpc_server_handled_total",
            grpc_method="ListGameTypes",
            grpc_code="OK",
        )
        assert served == 40  # summed over the workers' metric files
        children = subprocess.run(
            ["pgrep", "-P", str(proc.pid)], capture_output=True, text=True, check=False
        ).stdout.split()
        assert len(children) == 2
    finally:
        proc.send_signal(signal.SIGTERM)
        assert proc.wait(20) == 0


@pytest.mark.parametrize("kind", ["redis", "memory"])
async def test_stopping_ends_every_stream_as_shutting_down(
    kind: str, redis_url: str, redis_prefix: str
) -> None:
    """A stopping server ends every open session and watch, through both doors, with
    UNAVAILABLE and the reason SERVER_SHUTTING_DOWN — not a store failure; a WebSocket
    closes with 1001 (going away); each stream is logged and counted with the status its
    client was sent (101 for a WebSocket, 200 for server-sent events), never as a 500."""
    store = MemoryStore() if kind == "memory" else RedisStore(redis_url, prefix=redis_prefix)
    log = io.StringIO()
    async with (
        running_app(store, request_stream=log, log_requests=True) as app,
        grpc.aio.insecure_channel(f"127.0.0.1:{app.port}") as channel,
        aiohttp.ClientSession(f"http://127.0.0.1:{app.http_port}") as http,
    ):
        stub = spb_grpc.GameServiceStub(channel)
        created = await create(stub)
        play = stub.Play(metadata=bearer(created.tokens[0]))
        await play.write(spb.PlayRequest(open=spb.OpenSession(name=created.name)))
        watch = stub.WatchGame(spb.WatchGameRequest(name=created.name))
        socket = await http.ws_connect(f"/v1/{created.name}:play?access_token={created.tokens[1]}")
        events = await http.get(f"/v1/{created.name}:watch")
        async with asyncio.timeout(10):
            assert (await play.read()).snapshot.version == 1
            assert (await watch.read()).version == 1
            assert json.loads((await socket.receive()).data)["snapshot"]["version"] == "1"
            assert (await events.content.readuntil(b"\n\n")).startswith(b"id: 1\n")

        stopping = asyncio.create_task(app.stop(grace=1.0))
        async with asyncio.timeout(10):
            for stream in (play, watch):
                code, reason, _ = await fails(_drain(stream))
                assert (code, reason) == (grpc.StatusCode.UNAVAILABLE, "SERVER_SHUTTING_DOWN")
            frames = [frame async for frame in socket]
            assert socket.close_code == aiohttp.WSCloseCode.GOING_AWAY
            ended = json.loads(frames[-1].data)["error"]
            assert (ended["code"], ended["details"][0]["reason"]) == (14, "SERVER_SHUTTING_DOWN")
            assert "shutting down" in ended["message"]
            tail = (await events.content.read()).split(b"\n\n")
            last = next(e for e in reversed(tail) if e.startswith(b"event: error"))
            assert b'"reason":"SERVER_SHUTTING_DOWN"' in last.replace(b" ", b"")
            await stopping
    logged = [json.loads(line) for line in log.getvalue().splitlines()]
    lines = {line["method"]: line["code"] for line in logged}
    assert lines["Play"] == lines["WatchGame"] == "Unavailable"
    assert lines["GET /v1/{name=games/*}:play"] == "101"
    assert lines["GET /v1/{name=games/*}:watch"] == "200"
    served = app.metrics.registry.get_sample_value
    for route, status in (("/v1/{name=games/*}:play", "101"), ("/v1/{name=games/*}:watch", "200")):
        labels = {"method": "GET", "route": route}
        assert served("http_server_requests_total", {**labels, "code": status}) == 1
        assert served("http_server_requests_total", {**labels, "code": "500"}) is None


async def _drain(stream: Any) -> None:
    """Read a stream to its end (a failed stream raises its status)."""
    while await stream.read() is not grpc.aio.EOF:
        pass

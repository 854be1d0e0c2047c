"""Long reliability runs (``make soak``; skipped in the default run).

* 100 cycles of start -> load -> SIGTERM of a real server process on Redis: every
  process exits by itself within its grace period, and every acknowledged move is in
  the store afterwards;
* thousands of watches cancelled at random points, the server up and answering;
* the hostile-input suite with many more requests (``TRIBES_SOAK_FUZZ`` per method).
"""

from __future__ import annotations

import asyncio
import os
import random
import signal
import subprocess
import sys
import time

import grpc
import pytest

from tests.service.helpers import create, get, move
from tests.support.server import server_process
from tribes.v1 import game_service_pb2 as spb
from tribes.v1 import game_service_pb2_grpc as spb_grpc

CYCLES = int(os.environ.get("TRIBES_SOAK_CYCLES", "100"))
WATCHES = int(os.environ.get("TRIBES_SOAK_WATCHES", "5000"))
GRACE = 1.0


async def _load(target: str, seconds: float, acknowledged: list[tuple[str, int]]) -> None:
    """Whole goofspiel games by 8 workers; every acknowledged (game, version) is recorded."""
    deadline = time.monotonic() + seconds

    async def worker(stub: spb_grpc.GameServiceStub) -> None:
        while time.monotonic() < deadline:
            created = await create(stub, cards="5", seed=None)
            version = 1
            for card in range(1, 6):
                for seat in (0, 1):
                    snap = await move(
                        stub, created.name, created.tokens[seat], f"bid:{card}", version
                    )
                    version = snap.version
                    acknowledged.append((created.name, version))

    async with grpc.aio.insecure_channel(target) as channel:
        stub = spb_grpc.GameServiceStub(channel)
        await asyncio.gather(*(worker(stub) for _ in range(8)), return_exceptions=True)


@pytest.mark.soak
@pytest.mark.timeout(4 * 3600)
def test_start_load_sigterm_cycles_always_end(redis_url: str, redis_prefix: str) -> None:
    """Every cycle's SIGTERM (with calls in flight) ends the process within its grace,
    and no acknowledged move is missing afterwards."""
    acknowledged: list[tuple[str, int]] = []
    env = {
        "REDIS_URL": redis_url,
        "TRIBES_REDIS_PREFIX": redis_prefix,
        "TRIBES_GRACE_SECONDS": str(GRACE),
        "TRIBES_LOG_REQUESTS": "1",
        "TRIBES_CREATE_RATE": "0",
    }
    rng = random.Random(7)
    for cycle in range(CYCLES):
        with server_process(env) as server:
            load = asyncio.new_event_loop()
            try:
                task = load.create_task(_load(server.target, 10.0, acknowledged))
                load.run_until_complete(asyncio.sleep(0.3 + rng.random() * 0.7))
                server.proc.send_signal(signal.SIGTERM)
                began = time.monotonic()
                try:
                    code = server.proc.wait(GRACE + 10)
                except subprocess.TimeoutExpired:
                    raise AssertionError(f"cycle {cycle}: no exit after SIGTERM") from None
                took = time.monotonic() - began
                load.run_until_complete(task)
            finally:
                load.close()
            assert code == 0, f"cycle {cycle}: exit code {code}"
            assert took < GRACE + 5, f"cycle {cycle}: {took:.1f} s to stop"

    async def check() -> None:
        with server_process(env) as server:
            async with grpc.aio.insecure_channel(server.target) as channel:
                stub = spb_grpc.GameServiceStub(channel)
                latest: dict[str, int] = {}
                for name, version in acknowledged:
                    latest[name] = max(version, latest.get(name, 0))
                for name, version in latest.items():
                    assert (await get(stub, name)).version >= version, name

    asyncio.run(check())
    assert acknowledged, "the load made no moves"
    print(f"{CYCLES} cycles: {len(acknowledged)} moves acknowledged, none lost")


@pytest.mark.soak
@pytest.mark.timeout(4 * 3600)
def test_thousands_of_cancelled_watches(redis_url: str, redis_prefix: str) -> None:
    """Watches cancelled after a random number of messages, while moves land: the
    server survives and its watcher gauge returns to zero."""
    env = {"REDIS_URL": redis_url, "TRIBES_REDIS_PREFIX": redis_prefix, "TRIBES_LOG_REQUESTS": "1"}
    with server_process(env) as server:

        async def run() -> None:
            rng = random.Random(3)
            async with grpc.aio.insecure_channel(server.target) as channel:
                stub = spb_grpc.GameServiceStub(channel)
                created = await create(stub, cards="13", seed=None)
                for i in range(WATCHES):
                    metadata = (("authorization", f"Bearer {created.tokens[i % 2]}"),)
                    call = stub.WatchGame(
                        spb.WatchGameRequest(name=created.name),
                        metadata=metadata if i % 3 else None,
                    )
                    if rng.random() < 0.7:
                        await call.read()
                    if rng.random() < 0.3:
                        await asyncio.sleep(0)
                    call.cancel()
                assert (await get(stub, created.name)).version == 1

        asyncio.run(run())
        assert server.proc.poll() is None, "".join(server.tail)


@pytest.mark.soak
@pytest.mark.timeout(4 * 3600)
def test_hostile_input_at_length(redis_url: str, redis_prefix: str) -> None:
    """The hostile-input suite with TRIBES_SOAK_FUZZ requests per RPC and store."""
    per_method = os.environ.get("TRIBES_SOAK_FUZZ", "20000")
    result = subprocess.run(
        [
            sys.executable,
            "-m",
            "pytest",
            "-q",
            "-p",
            "no:cacheprovider",
            "tests/service/test_hostile.py",
        ],
        env={**os.environ, "TRIBES_FUZZ_PER_METHOD": per_method},
        capture_output=True,
        text=True,
        timeout=3600,
    )
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr[-2000:]

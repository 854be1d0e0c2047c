"""tribes-load against a real server process: every mode plays whole games without errors."""

from __future__ import annotations

import pytest

from tests.support.server import server_process
from tribes_client.load import LoadConfig, run_load


@pytest.mark.parametrize("mode", ["unary", "session", "websocket"])
async def test_every_mode_plays_whole_games(redis_url: str, redis_prefix: str, mode: str) -> None:
    """Short games (3 cards) finish, moves are timed, the server's CPU is read, no errors."""
    env = {"REDIS_URL": redis_url, "TRIBES_REDIS_PREFIX": redis_prefix}
    with server_process(env) as server:
        report = await run_load(
            LoadConfig(
                target=server.target,
                http_target=f"127.0.0.1:{server.http_port}",
                concurrency=2,
                mix={"goofspiel": 1.0},
                options={"goofspiel": {"cards": "3"}},
                warmup=0.3,
                duration=1.5,
                server_pids=(server.proc.pid,),
                progress=False,
                mode=mode,
            )
        )
    assert report["errors"] == {}, report["errors"]
    assert report["games_finished"] >= 2
    moves = report["per_rpc"]["ApplyMove"]["count"]
    # 3 cards: 6 moves a game; only the games under way when the window opened (one per
    # worker) may have played moves before it
    assert moves >= 6 * (report["games_finished"] - 2)
    assert report["server_cpu_us_per_req"] > 0

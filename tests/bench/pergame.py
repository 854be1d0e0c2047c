"""What a game costs beside its moves: server CPU and Redis commands per game, no move made.

A session move's CPU includes a share of its game's own work — the ``CreateGame`` call, both
seats' WebSocket handshakes, their sessions' subscription, state reads, presence entries and
exits, the first snapshots and the closes — which at 50 moves a game is about a fifth of a
move's CPU (README "Performance"). This measures that part alone, on one service process
and a private Redis, in two phases that alternate pass by pass:

- ``create``: ``CreateGame`` (the test game, 2 seats) and nothing else;
- ``sessions``: the same, then both seats open a WebSocket session (binary frames), read
  their first snapshot and close.

Each phase plays a fixed number of games, ``concurrency`` at a time, and prints games/s, the
service's CPU per game (``/proc``, all threads) and the Redis commands per game
(``INFO commandstats``; commands that scripts run count too). Figures only.

Run: ``.venv/bin/python -m tests.bench.pergame [--games 2000] [--concurrency 16]
[--passes 2]``
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import time
from collections.abc import Sequence
from typing import Any

import aiohttp
import grpc
import redis

from tests.bench.bench import _free_port, child, private_redis, service_env
from tribes_client.client import PLAY_SUBPROTOCOL
from tribes_client.load import proc_cpu_seconds
from tribes_client.v1 import game_service_pb2 as spb
from tribes_client.v1 import game_service_pb2_grpc as spb_grpc

PHASES = ("create", "sessions")


async def _phase(phase: str, ports: tuple[int, int], games: int, concurrency: int) -> float:
    """Play ``games`` games of ``phase``; the seconds they took."""
    port, http_port = ports
    left = games
    async with (
        grpc.aio.insecure_channel(f"127.0.0.1:{port}") as channel,
        aiohttp.ClientSession() as http,
    ):
        stub = spb_grpc.GameServiceStub(channel)
        request = spb.CreateGameRequest(game_type="goofspiel", seat_count=2, options={"cards": "3"})

        async def one() -> None:
            created = await stub.CreateGame(request, timeout=10)
            if phase == "create":
                return
            sockets = []
            for token in created.seat_tokens:
                socket = await http.ws_connect(
                    f"http://127.0.0.1:{http_port}/v1/{created.game.name}:play",
                    protocols=(PLAY_SUBPROTOCOL,),
                    headers={"authorization": f"Bearer {token}"},
                )
                frame = await socket.receive(timeout=10)
                if frame.type is not aiohttp.WSMsgType.BINARY:
                    raise RuntimeError(f"the session sent {frame.type!r}, not a snapshot")
                sockets.append(socket)
            for socket in sockets:
                await socket.close()

        async def worker() -> None:
            nonlocal left
            while left > 0:
                left -= 1
                await one()

        start = time.perf_counter()
        await asyncio.gather(*(worker() for _ in range(concurrency)))
        return time.perf_counter() - start


def _commands(client: redis.Redis) -> dict[str, int]:
    stats: dict[str, Any] = client.info("commandstats")
    return {name.removeprefix("cmdstat_"): int(entry["calls"]) for name, entry in stats.items()}


def measure(games: int, concurrency: int, passes: int) -> list[dict[str, Any]]:
    """Alternating passes of both phases against one service process: a row per pass and
    phase with games/s, CPU µs per game and Redis commands per game."""
    rows: list[dict[str, Any]] = []
    with private_redis() as (url, _):
        port, http_port = _free_port(), _free_port()
        env = service_env(url, port, TRIBES_HTTP_PORT=str(http_port))
        with (
            redis.Redis.from_url(url) as store,
            child([sys.executable, "-m", "tribes"], env, port) as pid,
        ):
            # warm: imports, the first connections, the scripts loaded
            asyncio.run(_phase("sessions", (port, http_port), concurrency, concurrency))
            for rep in range(passes):
                for phase in PHASES if rep % 2 == 0 else PHASES[::-1]:
                    before, cpu = _commands(store), proc_cpu_seconds(pid)
                    seconds = asyncio.run(_phase(phase, (port, http_port), games, concurrency))
                    used, after = proc_cpu_seconds(pid) - cpu, _commands(store)
                    per_game = {
                        name: (count - before.get(name, 0)) / games
                        for name, count in after.items()
                        if count != before.get(name, 0) and name != "info"
                    }
                    rows.append(
                        {
                            "phase": phase,
                            "rep": rep,
                            "games_per_s": games / seconds,
                            "cpu_us_per_game": used / games * 1e6,
                            "commands_per_game": per_game,
                        }
                    )
    return rows


def table(rows: list[dict[str, Any]]) -> str:
    out = [
        "| phase | pass | games/s | server CPU µs/game "
        "| Redis commands/game (scripts' own included) |",
        "|---|--:|--:|--:|---|",
    ]
    for row in rows:
        commands = ", ".join(
            f"{name} {count:.2f}"
            for name, count in sorted(row["commands_per_game"].items())
            if count >= 0.005  # health probes and sweeps, not the games' own
        )
        out.append(
            f"| {row['phase']} | {row['rep'] + 1} | {row['games_per_s']:.0f} "
            f"| {row['cpu_us_per_game']:.0f} | {commands} |"
        )
    return "\n".join(out)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="tribes-pergame", description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=2000, help="games per phase and pass")
    parser.add_argument("--concurrency", type=int, default=16)
    parser.add_argument("--passes", type=int, default=2)
    args = parser.parse_args(argv)
    print(table(measure(args.games, args.concurrency, args.passes)))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

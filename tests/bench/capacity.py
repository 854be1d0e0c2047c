"""The capacity plan's inputs, measured, and the plan computed from them.

For each game (at its smallest seat count) one service process on a private Redis plays
closed-loop load (``tribes-load``'s engine, unary moves, N in flight). Measured per move:

* service CPU (all server work: creates, reads, moves, divided by moves made);
* Redis CPU (``INFO cpu`` before and after) and commands (``INFO stats``) per move;
* Redis memory per stored game: every key of the run grouped by its game's hash tag,
  ``MEMORY USAGE`` summed per game (state, move log, request records, indexes excluded).

From those the plan: how many moves/s one core of service and one Redis shard carry, and
what N service cores and M shards hold at a given move rate per game (the README's
"Capacity plan" shows the arithmetic). Figures only, never a test.

Run alone: ``.venv/bin/python -m tests.bench.capacity [--duration 8] [--concurrency 16]``.
"""

from __future__ import annotations

import argparse
import asyncio
import collections
import math
import pathlib
import statistics
import sys
import time
from collections.abc import Sequence
from typing import Any

import grpc
import redis

from tests.bench.bench import _free_port, child, load_phase, private_redis, service_env
from tribes.core.catalog import build_catalog

#: the planning assumptions, stated once (README "Capacity plan")
SECONDS_PER_MOVE = 10.0  # a hosted game between people: one decision every ~10 s
CORE_BUDGET = 0.6  # plan service cores at 60 % busy (headroom for bursts, GC, restarts)
SHARD_BUDGET = 0.5  # plan a Redis shard's single command thread at 50 % busy
SEATS_STREAMING = 1.0  # live sessions per seat (one tab/app per player)


def _redis_cpu(client: redis.Redis) -> float:
    info = client.info("cpu")
    return float(info["used_cpu_user"]) + float(info["used_cpu_sys"])


def _redis_commands(client: redis.Redis) -> int:
    return int(client.info("stats")["total_commands_processed"])


def memory_per_game(client: redis.Redis, prefix: str) -> tuple[float, float, int]:
    """Mean and 90th percentile bytes of a stored game, and how many games were seen."""
    per_game: dict[str, int] = collections.defaultdict(int)
    for key in client.scan_iter(match=f"{prefix}:{{*", count=1000):
        text = key.decode()
        tag = text[text.index("{") : text.index("}") + 1]
        per_game[tag] += int(client.memory_usage(key, samples=0) or 0)
    sizes = sorted(per_game.values())
    if not sizes:
        return float("nan"), float("nan"), 0
    return statistics.fmean(sizes), float(sizes[int(0.9 * (len(sizes) - 1))]), len(sizes)


def measure(game: str, seats: int, concurrency: int, duration: float) -> dict[str, Any]:
    prefix = f"cap{game[:4]}"
    with private_redis() as (url, _redis_pid):
        port = _free_port()
        env = service_env(url, port, TRIBES_REDIS_PREFIX=prefix)
        client = redis.Redis.from_url(url)
        with child([sys.executable, "-m", "tribes"], env, port) as pid:
            cpu0, cmd0 = _redis_cpu(client), _redis_commands(client)
            started = time.monotonic()
            report = load_phase(
                port,
                pid,
                concurrency=concurrency,
                mix={game: 1.0},
                seats={game: seats},
                warmup=0.0,
                duration=duration,
            )
            elapsed = time.monotonic() - started
            cpu1, cmd1 = _redis_cpu(client), _redis_commands(client)
        moves = int(report["per_rpc"].get("ApplyMove", {}).get("count", 0))
        # Redis was measured over the whole run, the service over the load window: scale
        # the moves to the whole run (the load runs at a steady rate from its start)
        run_moves = moves * elapsed / report["window_s"] if report["window_s"] else moves
        mean_bytes, p90_bytes, stored = memory_per_game(client, prefix)
        client.close()
    service_us = report["server_cpu_us_per_req"] * report["requests"] / moves
    return {
        "game": game,
        "seats": seats,
        "concurrency": concurrency,
        "moves_per_s": moves / report["window_s"],
        "service_cpu_us_per_move": service_us,
        "redis_cpu_us_per_move": (cpu1 - cpu0) / run_moves * 1e6,
        "redis_commands_per_move": (cmd1 - cmd0) / run_moves,
        "game_bytes_mean": mean_bytes,
        "game_bytes_p90": p90_bytes,
        "games_stored": stored,
        "errors": report["errors"],
    }


def _rss(pid: int) -> int:
    for line in pathlib.Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) * 1024
    return 0


async def _open_sessions(target: str, games: int) -> list[Any]:
    """``games`` two-seat games with both seats' Play sessions open (each read its snapshot)."""
    from tribes.v1 import game_service_pb2 as spb
    from tribes.v1 import game_service_pb2_grpc as spb_grpc

    channel = grpc.aio.insecure_channel(target)
    stub = spb_grpc.GameServiceStub(channel)
    streams: list[Any] = [channel]
    for _ in range(games):
        created = await stub.CreateGame(
            spb.CreateGameRequest(game_type="goofspiel", seat_count=2, options={"cards": "25"})
        )
        for token in created.seat_tokens:
            stream = stub.Play(metadata=(("authorization", f"Bearer {token}"),))
            await stream.write(spb.PlayRequest(open=spb.OpenSession(name=created.game.name)))
            await stream.read()
            streams.append(stream)
    return streams


def session_memory(sessions: int = 2000) -> dict[str, float]:
    """Server memory per open Play session (resident set before and after opening them)."""
    with private_redis() as (url, _):
        port = _free_port()
        env = service_env(url, port, TRIBES_CREATE_RATE="0")
        with child([sys.executable, "-m", "tribes"], env, port) as pid:

            async def measure() -> tuple[int, int]:
                warm = await _open_sessions(f"127.0.0.1:{port}", 20)  # first-use allocations
                before = _rss(pid)
                streams = await _open_sessions(f"127.0.0.1:{port}", sessions // 2)
                await asyncio.sleep(1.0)
                after = _rss(pid)
                for group in (streams, warm):
                    for stream in group[1:]:
                        stream.cancel()
                    await group[0].close()
                return before, after

            before, after = asyncio.run(measure())
    return {"sessions": sessions, "bytes_per_session": (after - before) / sessions}


def per_game_table(rows: Sequence[dict[str, Any]]) -> str:
    out = [
        "| game | seats | service CPU µs/move | moves/s per core | Redis CPU µs/move "
        "| moves/s per shard | Redis commands/move | bytes per stored game (mean / p90) |",
        "|---|--:|--:|--:|--:|--:|--:|--:|",
    ]
    for r in rows:
        out.append(
            f"| {r['game']} | {r['seats']} | {r['service_cpu_us_per_move']:.0f} "
            f"| {1e6 / r['service_cpu_us_per_move']:,.0f} "
            f"| {r['redis_cpu_us_per_move']:.0f} | {1e6 / r['redis_cpu_us_per_move']:,.0f} "
            f"| {r['redis_commands_per_move']:.1f} "
            f"| {r['game_bytes_mean']:,.0f} / {r['game_bytes_p90']:,.0f} |"
        )
    return "\n".join(out)


def plan(
    rows: Sequence[dict[str, Any]], games: Sequence[int], per_session: float = float("nan")
) -> str:
    """Service cores, Redis shards and memory for a number of concurrent games (worst game)."""
    worst_service = max(r["service_cpu_us_per_move"] for r in rows)
    worst_redis = max(r["redis_cpu_us_per_move"] for r in rows)
    worst_bytes = max(r["game_bytes_p90"] for r in rows)
    worst_seats = 4
    out = [
        f"Assumptions: one move per game every {SECONDS_PER_MOVE:.0f} s; service cores planned at "
        f"{CORE_BUDGET:.0%} busy, a Redis shard at {SHARD_BUDGET:.0%}; the most expensive game's "
        f"figures ({worst_service:.0f} µs service CPU, {worst_redis:.0f} µs Redis CPU, "
        f"{worst_bytes:,.0f} bytes per game at p90); {worst_seats} live sessions per game.",
        "",
        "| concurrent games | moves/s | service cores | pods (1 core each) | Redis shards "
        "| Redis memory (data) | open sessions | their service memory |",
        "|--:|--:|--:|--:|--:|--:|--:|--:|",
    ]
    for count in games:
        rate = count / SECONDS_PER_MOVE
        cores = rate * worst_service / 1e6 / CORE_BUDGET
        shards = rate * worst_redis / 1e6 / SHARD_BUDGET
        memory = count * worst_bytes
        out.append(
            f"| {count:,} | {rate:,.0f} | {cores:.1f} | {max(2, math.ceil(cores))} "
            f"| {max(1, math.ceil(shards))} | {memory / 2**30:.2f} GiB "
            f"| {count * worst_seats * SEATS_STREAMING:,.0f} "
            f"| {count * worst_seats * SEATS_STREAMING * per_session / 2**30:.1f} GiB |"
        )
    return "\n".join(out)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="tribes-capacity", description=__doc__.split("\n\n")[0])
    parser.add_argument("--duration", type=float, default=6.0)
    parser.add_argument("--concurrency", type=int, default=16)
    parser.add_argument("--games", default="", help="game types (default: every built-in game)")
    parser.add_argument("--sessions", type=int, default=2000, help="sessions held open at once")
    args = parser.parse_args(argv)
    rows = run(args.games, args.concurrency, args.duration)
    print(report(rows, session_memory(args.sessions)))
    return 0


def run(games: str, concurrency: int, duration: float) -> list[dict[str, Any]]:
    catalog = build_catalog([])
    wanted = [g for g in games.split(",") if g] or [entry.game.id for entry in catalog]
    rows = []
    for game in wanted:
        seats = min(catalog.get(game).game.seat_counts)
        row = measure(game, seats, concurrency, duration)
        print(
            f"capacity {game}: {row['moves_per_s']:.0f} moves/s, service "
            f"{row['service_cpu_us_per_move']:.0f} µs, "
            f"redis {row['redis_cpu_us_per_move']:.0f} µs, "
            f"{row['game_bytes_mean']:.0f} B/game, errors {row['errors'] or 0}",
            file=sys.stderr,
            flush=True,
        )
        rows.append(row)
    return rows


def report(rows: Sequence[dict[str, Any]], sessions: dict[str, float] | None = None) -> str:
    per_session = sessions["bytes_per_session"] if sessions else float("nan")
    memory = (
        f"Open Play sessions: {per_session / 1024:.1f} KiB of service memory each "
        f"({sessions['sessions']:.0f} open at once, resident set before and after).\n\n"
        if sessions
        else ""
    )
    return (
        "## Capacity (per move, one service process, N in flight)\n\n"
        + per_game_table(rows)
        + "\n\n"
        + memory
        + plan(rows, [1_000, 10_000, 100_000, 250_000], per_session)
    )


if __name__ == "__main__":
    sys.exit(main())

"""``tribes-load``: a closed-loop load generator that plays whole games.

N workers each keep one game in play. A worker plays its own games, from
``CreateGame`` to the end, choosing random legal moves by ``move_id`` and sending the
version they were chosen against as ``expected_version``. Two modes:

* ``unary`` (default): one call in flight per worker; the move's reply is the mover's next
  snapshot, and when the turn passes to another seat it fetches that seat's snapshot
  (``GetGame``);
* ``session``: one ``Play`` stream per seat; every seat's snapshot is pushed after every
  change, and the seat first in ``to_act`` answers with a move in its stream
  (``ApplyMove`` in the report is then an in-stream move, timed from its write to the
  snapshot that acknowledges it).

Workers never share a game, so a correct service shows zero ABORTED.

Bounded in time and count: only loopback targets (unless ``--allow-remote``), a
warm-up then a fixed measurement window, ``--max-requests`` in total, a deadline on
every call. Reports requests/s, p50/p95/p99 per RPC, errors by status code, games
finished per second and CPU time (this process, and the server's when ``--server-pid``
is given), as a table and as JSON (``--json FILE``).

    tribes-load --target 127.0.0.1:50051 --concurrency 16 --mix five_tribes=1
"""

from __future__ import annotations

import argparse
import asyncio
import collections
import contextlib
import functools
import ipaddress
import json
import os
import random
import sys
import time
import uuid
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import grpc

from tribes_client.client import PLAY_SUBPROTOCOL
from tribes_client.v1 import common_pb2 as pb
from tribes_client.v1 import game_service_pb2 as spb
from tribes_client.v1 import game_service_pb2_grpc as spb_grpc

CLK_TCK = os.sysconf("SC_CLK_TCK")


@dataclass
class LoadConfig:
    target: str = "127.0.0.1:50051"
    concurrency: int = 16
    mix: dict[str, float] = field(default_factory=lambda: {"five_tribes": 1.0})
    seats: dict[str, int] = field(default_factory=dict)  # game type -> seats (default: fewest)
    options: dict[str, dict[str, str]] = field(default_factory=dict)
    warmup: float = 2.0
    duration: float = 10.0
    max_requests: int = 2_000_000
    channels: int = 4
    timeout: float = 10.0
    seed: int = 1
    progress: bool = True
    server_pids: tuple[int, ...] = ()
    allow_remote: bool = False
    mode: str = "unary"  # or "session" (gRPC Play) or "websocket" (the HTTP door's)
    http_target: str = "127.0.0.1:8080"  # the HTTP door, for "websocket"


@dataclass
class _Stats:
    latencies: dict[str, list[float]] = field(default_factory=lambda: collections.defaultdict(list))
    errors: collections.Counter[str] = field(default_factory=collections.Counter)
    finished: int = 0
    sent: int = 0
    done_all: int = 0


def is_loopback(target: str) -> bool:
    host = target.rsplit(":", 1)[0].strip("[]")
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def proc_cpu_seconds(pid: int) -> float:
    """utime + stime of a process (all threads)."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            fields = f.read().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / CLK_TCK
    except (OSError, IndexError, ValueError):
        return float("nan")


def _percentile(values: Sequence[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


async def run_load(cfg: LoadConfig) -> dict[str, Any]:
    """Run one load phase and return its report."""
    for target in (cfg.target, cfg.http_target) if cfg.mode == "websocket" else (cfg.target,):
        if not cfg.allow_remote and not is_loopback(target):
            raise SystemExit(f"refusing non-loopback target {target!r} (use --allow-remote)")
    channels = [
        grpc.aio.insecure_channel(
            cfg.target,
            options=[("grpc.use_local_subchannel_pool", 1), ("tribes.load.channel", i)],
        )
        for i in range(max(1, cfg.channels))
    ]
    try:
        async with asyncio.timeout(10):
            await asyncio.gather(*(c.channel_ready() for c in channels))
        stubs = [spb_grpc.GameServiceStub(c) for c in channels]
        seats = dict(cfg.seats)
        listed = await stubs[0].ListGameTypes(spb.ListGameTypesRequest(), timeout=cfg.timeout)
        for game_type in listed.game_types:
            seats.setdefault(game_type.id, min(game_type.seat_counts))
        unknown = sorted(set(cfg.mix) - {t.id for t in listed.game_types})
        if unknown:
            raise SystemExit(f"the server does not host {', '.join(unknown)}")
        if cfg.mode != "websocket":
            return await _measure(cfg, stubs, seats, None)
        try:
            import aiohttp
        except ImportError:
            raise SystemExit("--mode websocket needs aiohttp (pip install aiohttp)") from None
        connector = aiohttp.TCPConnector(limit=0)
        limits = aiohttp.ClientTimeout(total=None, connect=cfg.timeout)
        async with aiohttp.ClientSession(connector=connector, timeout=limits) as http:
            return await _measure(cfg, stubs, seats, http)
    finally:
        for channel in channels:
            await channel.close()


async def _measure(
    cfg: LoadConfig, stubs: list[spb_grpc.GameServiceStub], seats: dict[str, int], http: Any
) -> dict[str, Any]:
    stats = _Stats()
    began = time.perf_counter()
    window_start = began + cfg.warmup
    window_end = window_start + cfg.duration
    cpu: dict[str, tuple[float, float, list[float]]] = {}
    types, weights = zip(*sorted(cfg.mix.items()), strict=True)

    def in_window(t: float) -> bool:
        return window_start <= t <= window_end

    async def call(name: str, coro: Any) -> Any:
        stats.sent += 1
        t0 = time.perf_counter()
        try:
            return await coro
        except grpc.aio.AioRpcError as err:
            if in_window(time.perf_counter()):
                stats.errors[err.code().name] += 1
            return None
        finally:
            t1 = time.perf_counter()
            stats.done_all += 1
            if in_window(t1):
                stats.latencies[name].append(t1 - t0)

    async def worker(index: int) -> None:
        rng = random.Random(cfg.seed * 1_000_003 + index)
        stub = stubs[index % len(stubs)]
        while time.perf_counter() < window_end and stats.sent < cfg.max_requests:
            game_type = rng.choices(types, weights)[0]
            created = await call(
                "CreateGame",
                stub.CreateGame(
                    spb.CreateGameRequest(
                        game_type=game_type,
                        seat_count=seats[game_type],
                        options=cfg.options.get(game_type, {}),
                        request_id=uuid.uuid4().hex,
                    ),
                    timeout=cfg.timeout,
                ),
            )
            if created is None:
                await asyncio.sleep(0.05)
                continue
            if cfg.mode == "unary":
                await _play(created, stub, rng, call, stats, in_window, window_end, cfg)
                continue
            seat_of: Callable[[str], _GrpcSeat | _WebSocketSeat]
            if cfg.mode == "session":
                seat_of = functools.partial(_GrpcSeat, stub, cfg=cfg)
            else:
                seat_of = functools.partial(_WebSocketSeat, http, cfg=cfg)
            await _play_sessions(created, seat_of, rng, stats, in_window, window_end, cfg)

    async def sampler() -> None:
        now = time.perf_counter()
        await asyncio.sleep(max(0.0, window_start - now))
        cpu["start"] = (time.perf_counter(), time.process_time(), _server_cpu(cfg))
        await asyncio.sleep(max(0.0, window_end - time.perf_counter()))
        cpu["end"] = (time.perf_counter(), time.process_time(), _server_cpu(cfg))

    async def progress() -> None:
        while time.perf_counter() < window_end:
            await asyncio.sleep(0.5)
            now = time.perf_counter()
            phase = "warm-up" if now < window_start else "measuring"
            done = sum(len(v) for v in stats.latencies.values())
            rate = done / max(1e-9, now - window_start) if now >= window_start else 0.0
            errors = sum(stats.errors.values())
            print(
                f"\r  N={cfg.concurrency:<3} {phase:<9} {now - began:5.1f}s  "
                f"{rate:8.0f} req/s  errors {errors}  games done {stats.finished}   ",
                end="",
                file=sys.stderr,
                flush=True,
            )
        print(file=sys.stderr)

    tasks = [asyncio.create_task(worker(i)) for i in range(cfg.concurrency)]
    side = [asyncio.create_task(sampler())]
    if cfg.progress:
        side.append(asyncio.create_task(progress()))
    hard_deadline = cfg.warmup + cfg.duration + cfg.timeout + 5
    try:
        async with asyncio.timeout(hard_deadline):
            await asyncio.gather(*tasks, *side)
    except TimeoutError:
        for task in tasks + side:
            task.cancel()
    return _report(cfg, stats, cpu)


async def _play(
    created: spb.CreateGameResponse,
    stub: spb_grpc.GameServiceStub,
    rng: random.Random,
    call: Any,
    stats: _Stats,
    in_window: Any,
    window_end: float,
    cfg: LoadConfig,
) -> None:
    """Play one game to its end (or the end of the window) with random legal moves."""
    name, tokens = created.game.name, list(created.seat_tokens)
    auth = [(("authorization", f"Bearer {t}"),) for t in tokens]
    snap: pb.GameSnapshot | None = None
    seat = -1
    current = created.game
    while time.perf_counter() < window_end and stats.sent < cfg.max_requests:
        if current.finished:
            if in_window(time.perf_counter()):
                stats.finished += 1
            return
        if snap is None or seat not in current.to_act:
            seat = current.to_act[0]
            snap = await call(
                "GetGame",
                stub.GetGame(
                    spb.GetGameRequest(name=name), metadata=auth[seat], timeout=cfg.timeout
                ),
            )
            if snap is None:
                return
        chosen = rng.choice(snap.legal_moves)
        reply = await call(
            "ApplyMove",
            stub.ApplyMove(
                spb.ApplyMoveRequest(
                    name=name,
                    move_id=chosen.id,
                    expected_version=snap.version,
                    request_id=uuid.uuid4().hex,
                ),
                metadata=auth[seat],
                timeout=cfg.timeout,
            ),
        )
        if reply is None:
            return
        current = snap = reply


class _GrpcSeat:
    """One seat's ``Play`` stream over gRPC."""

    def __init__(self, stub: spb_grpc.GameServiceStub, token: str, cfg: LoadConfig) -> None:
        self._stream = stub.Play(
            metadata=(("authorization", f"Bearer {token}"),), timeout=cfg.timeout * 10
        )

    async def open(self, name: str) -> None:
        await self._stream.write(spb.PlayRequest(open=spb.OpenSession(name=name)))

    async def send(self, request: spb.PlayRequest) -> None:
        await self._stream.write(request)

    async def receive(self) -> spb.PlayEvent | None:
        event = await self._stream.read()
        return None if event is grpc.aio.EOF else event

    async def close(self) -> None:
        self._stream.cancel()


class _WebSocketSeat:
    """One seat's session over the HTTP door's WebSocket, binary protobuf frames
    (the ``tribes.v1.proto`` subprotocol)."""

    def __init__(self, http: Any, token: str, cfg: LoadConfig) -> None:
        self._http, self._token, self._cfg = http, token, cfg
        self._socket: Any = None

    async def open(self, name: str) -> None:
        import aiohttp

        url = f"http://{self._cfg.http_target}/v1/{name}:play"
        self._socket = await self._http.ws_connect(
            url,
            protocols=(PLAY_SUBPROTOCOL,),
            headers={"authorization": f"Bearer {self._token}"},
            timeout=aiohttp.ClientWSTimeout(ws_close=self._cfg.timeout),
        )

    async def send(self, request: spb.PlayRequest) -> None:
        await self._socket.send_bytes(request.SerializeToString())

    async def receive(self) -> spb.PlayEvent | None:
        import aiohttp

        frame = await self._socket.receive()
        if frame.type is not aiohttp.WSMsgType.BINARY:
            return None
        return spb.PlayEvent.FromString(frame.data)

    async def close(self) -> None:
        if self._socket is not None:
            await self._socket.close()


async def _play_sessions(
    created: spb.CreateGameResponse,
    seat_of: Any,
    rng: random.Random,
    stats: _Stats,
    in_window: Any,
    window_end: float,
    cfg: LoadConfig,
) -> None:
    """Play one game through one session per seat, moves answering pushed snapshots."""
    name, tokens = created.game.name, list(created.seat_tokens)
    seats = [seat_of(token) for token in tokens]
    finished = asyncio.Event()

    async def seat_loop(seat: int, stream: Any) -> None:
        await stream.open(name)
        chosen_at, t0 = 0, 0.0
        while not finished.is_set():
            event = await stream.receive()
            if event is None:
                return
            kind = event.WhichOneof("kind")
            if kind != "snapshot":
                if in_window(time.perf_counter()):
                    status = event.rejected.status if kind == "rejected" else event.error
                    stats.errors[grpc.StatusCode(_code(status.code)).name] += 1
                if kind != "rejected":
                    return
                chosen_at = 0
                continue
            snap = event.snapshot
            if chosen_at and snap.version > chosen_at:
                t1 = time.perf_counter()
                stats.done_all += 1
                if in_window(t1):
                    stats.latencies["ApplyMove"].append(t1 - t0)
                chosen_at = 0
            if snap.finished:
                if not finished.is_set() and in_window(time.perf_counter()):
                    stats.finished += 1
                finished.set()
                return
            past = time.perf_counter() >= window_end or stats.sent >= cfg.max_requests
            if past:
                finished.set()
                return
            if snap.to_act and snap.to_act[0] == seat and snap.legal_moves and not chosen_at:
                move = rng.choice(snap.legal_moves)
                chosen_at, t0 = snap.version, time.perf_counter()
                stats.sent += 1
                await stream.send(
                    spb.PlayRequest(
                        move=spb.ApplyMoveRequest(
                            move_id=move.id,
                            expected_version=snap.version,
                            request_id=uuid.uuid4().hex,
                        )
                    )
                )

    try:
        await asyncio.gather(*(seat_loop(i, s) for i, s in enumerate(seats)))
    except grpc.aio.AioRpcError as err:
        if in_window(time.perf_counter()):
            stats.errors[err.code().name] += 1
    except (OSError, TimeoutError) as err:  # the WebSocket failed
        if in_window(time.perf_counter()):
            stats.errors[type(err).__name__] += 1
    finally:
        for stream in seats:
            await stream.close()


def _code(value: int) -> tuple[int, str]:
    return next(c.value for c in grpc.StatusCode if c.value[0] == value)


def _server_cpu(cfg: LoadConfig) -> list[float]:
    return [proc_cpu_seconds(pid) for pid in cfg.server_pids]


def _report(cfg: LoadConfig, stats: _Stats, cpu: dict[str, Any]) -> dict[str, Any]:
    window = cfg.duration
    if "start" in cpu and "end" in cpu:
        window = cpu["end"][0] - cpu["start"][0]
    total = sum(len(v) for v in stats.latencies.values())
    per_rpc = {
        name: {
            "count": len(values),
            "p50_ms": _percentile(values, 0.50) * 1000,
            "p95_ms": _percentile(values, 0.95) * 1000,
            "p99_ms": _percentile(values, 0.99) * 1000,
        }
        for name, values in sorted(stats.latencies.items())
    }
    every = [v for values in stats.latencies.values() for v in values]
    report: dict[str, Any] = {
        "target": cfg.target,
        "concurrency": cfg.concurrency,
        "mode": cfg.mode,
        "mix": cfg.mix,
        "window_s": window,
        "requests": total,
        "requests_per_s": total / window if window else float("nan"),
        "p50_ms": _percentile(every, 0.50) * 1000,
        "p95_ms": _percentile(every, 0.95) * 1000,
        "p99_ms": _percentile(every, 0.99) * 1000,
        "per_rpc": per_rpc,
        "errors": dict(stats.errors),
        "games_finished": stats.finished,
        "games_per_s": stats.finished / window if window else float("nan"),
    }
    if "start" in cpu and "end" in cpu:
        client_cpu = cpu["end"][1] - cpu["start"][1]
        server_cpu = sum(cpu["end"][2]) - sum(cpu["start"][2])
        report["client_cpu_us_per_req"] = client_cpu / total * 1e6 if total else float("nan")
        if cfg.server_pids:
            report["server_cpu_us_per_req"] = server_cpu / total * 1e6 if total else float("nan")
            report["server_cpu_pct"] = server_cpu / window * 100
    return report


def format_report(report: dict[str, Any]) -> str:
    lines = [
        f"N={report['concurrency']}: {report['requests_per_s']:.0f} req/s, "
        f"p50 {report['p50_ms']:.2f} ms, p99 {report['p99_ms']:.2f} ms, "
        f"{report['games_per_s']:.2f} games/s, errors {report['errors'] or 0}"
        + (
            f", server CPU {report['server_cpu_us_per_req']:.0f} µs/req"
            if "server_cpu_us_per_req" in report
            else ""
        )
    ]
    for name, row in report["per_rpc"].items():
        lines.append(
            f"    {name:<11} {row['count']:>7}  p50 {row['p50_ms']:6.2f}  "
            f"p95 {row['p95_ms']:6.2f}  p99 {row['p99_ms']:6.2f} ms"
        )
    return "\n".join(lines)


def _parse_mix(text: str) -> dict[str, float]:
    mix = {}
    for part in text.split(","):
        name, _, weight = part.partition("=")
        mix[name.strip()] = float(weight or 1)
    return mix


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="tribes-load", description=__doc__.split("\n\n")[0])
    parser.add_argument("--target", default="127.0.0.1:50051")
    parser.add_argument("--concurrency", default="1,16,64", help="comma-separated N values")
    parser.add_argument("--mix", default="five_tribes=1", help="game=weight,... (per-type mix)")
    parser.add_argument("--seats", default="", help="game=seats,... (default: fewest seats)")
    parser.add_argument("--warmup", type=float, default=2.0)
    parser.add_argument("--duration", type=float, default=10.0)
    parser.add_argument("--max-requests", type=int, default=2_000_000)
    parser.add_argument("--channels", type=int, default=4)
    parser.add_argument("--timeout", type=float, default=10.0)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--server-pid", type=int, action="append", default=[])
    parser.add_argument("--json", help="append each report as a JSON line to this file")
    parser.add_argument("--quiet", action="store_true", help="no live progress line")
    parser.add_argument("--allow-remote", action="store_true")
    parser.add_argument(
        "--mode",
        choices=("unary", "session", "websocket"),
        default="unary",
        help="moves by unary call, by gRPC Play stream or by WebSocket session",
    )
    parser.add_argument(
        "--http-target", default="127.0.0.1:8080", help="the HTTP door (--mode websocket)"
    )
    parser.add_argument(
        "--option",
        action="append",
        default=[],
        help="game option as game.name=value (e.g. goofspiel.cards=25); repeatable",
    )
    args = parser.parse_args(argv)
    options: dict[str, dict[str, str]] = {}
    for item in args.option:
        key, _, value = item.partition("=")
        game, _, option = key.partition(".")
        if not (game and option and value):
            parser.error(f"--option {item!r}: expected game.name=value")
        options.setdefault(game, {})[option] = value
    seats = {k: int(v) for k, v in (p.split("=") for p in args.seats.split(",") if p)}
    with contextlib.suppress(ImportError):
        import uvloop

        asyncio.set_event_loop_policy(uvloop.EventLoopPolicy())
    for n in (int(x) for x in args.concurrency.split(",")):
        cfg = LoadConfig(
            target=args.target,
            concurrency=n,
            mix=_parse_mix(args.mix),
            seats=seats,
            options=options,
            mode=args.mode,
            http_target=args.http_target,
            warmup=args.warmup,
            duration=args.duration,
            max_requests=args.max_requests,
            channels=args.channels,
            timeout=args.timeout,
            seed=args.seed,
            progress=not args.quiet,
            server_pids=tuple(args.server_pid),
            allow_remote=args.allow_remote,
        )
        report = asyncio.run(run_load(cfg))
        print(format_report(report), flush=True)
        if args.json:
            with open(args.json, "a") as out:
                out.write(json.dumps(report) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())

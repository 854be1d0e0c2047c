"""The cost model: where the CPU of one move goes, from a sampling profile under load.

One service process on a private Redis plays closed-loop load (the test game at 25 cards,
as the peer benchmark plays, or any game; unary or session mode) while ``py-spy`` samples
it. Every sample is charged to the innermost frame that belongs to a stage (rules, codec,
view and snapshot, wire, protobuf, store client, session push, service core, gRPC); asyncio's
own frames count for the stage that awaited them. py-spy sees Python frames only: a sample
whose innermost frame is the event loop's ``run`` itself is native work the loop runs with
no Python frame above it — grpc's C core (HTTP/2, reading and writing frames) and uvloop's
I/O; a sample of a thread whose innermost frame is ``Thread.run`` is grpc.aio's poller
thread, which runs the C core's completion queue. The stages' shares times the measured
server CPU per move give µs per move. Figures only.

Run: ``.venv/bin/python -m tests.bench.profile [--mode session] [--game goofspiel]``
(needs ``py-spy`` on PATH or in the venv: ``.venv/bin/pip install py-spy``).
"""

from __future__ import annotations

import argparse
import collections
import pathlib
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Sequence
from typing import Any

from tests.bench.bench import _free_port, child, game_phase, per_move, private_redis, service_env

#: (stage, substrings of a frame's file path); the first stage a frame matches wins
STAGES: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("codec (state bytes)", ("tribes/engine/codec", "/codec.py")),
    ("view + snapshot", ("/view.py", "tribes/core/snapshots", "tribes/wire/snapshot")),
    ("rules", ("tribes/games/", "tests/games/", "tribes/engine/")),
    ("wire (proto <-> domain)", ("tribes/wire/",)),
    ("session push", ("tribes/core/sessions",)),
    ("store client", ("tribes/store/", "/redis/", "hiredis")),
    ("service core", ("tribes/core/", "tribes/grpc/", "tribes/server")),
    ("HTTP door (aiohttp, WebSocket frames)", ("tribes/http/", "/aiohttp/")),
    ("protobuf", ("google/protobuf",)),
    ("gRPC (Python side)", ("/grpc/", "grpc._cython")),
    ("gRPC poller thread (C core)", ("threading.py",)),
)
NATIVE = "gRPC C core + uvloop I/O (native, below Python)"
LOOP = "asyncio machinery"


def stage_of(frame: str) -> str | None:
    for stage, needles in STAGES:
        if any(needle in frame for needle in needles):
            return stage
    return None


def charge(raw: str) -> collections.Counter[str]:
    """Samples per stage from py-spy's raw (collapsed) output: ``f1;f2;...;fn count``."""
    counts: collections.Counter[str] = collections.Counter()
    for line in raw.splitlines():
        stack, _, number = line.rpartition(" ")
        if not stack or not number.isdigit():
            continue
        frames = stack.split(";")
        if "asyncio/runners.py" in frames[-1]:
            stage: str | None = NATIVE  # the loop itself is innermost: native work
        else:
            stage = next((s for f in reversed(frames) if (s := stage_of(f))), LOOP)
        counts[stage] += int(number)
    return counts


def py_spy() -> str:
    found = shutil.which("py-spy") or str(pathlib.Path(sys.executable).parent / "py-spy")
    if not pathlib.Path(found).exists():
        raise SystemExit("the cost model needs py-spy: .venv/bin/pip install py-spy")
    return found


def profile(game: str, mode: str, concurrency: int, duration: float) -> dict[str, Any]:
    spy = py_spy()
    with private_redis() as (url, _):
        port, http_port = _free_port(), _free_port()
        env = service_env(url, port)
        if mode == "websocket":
            env["TRIBES_HTTP_PORT"] = str(http_port)
        out = pathlib.Path(tempfile.mkdtemp()) / "profile.txt"
        with child([sys.executable, "-m", "tribes"], env, port) as pid:
            recorder = subprocess.Popen(
                [
                    *(spy, "record", "--pid", str(pid), "--rate", "250", "--format", "raw"),
                    *("--duration", str(int(duration)), "--output", str(out), "--nonblocking"),
                ],
                stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL,
            )
            report = game_phase((port, http_port), pid, game, mode, concurrency, duration, 0.5)
            recorder.wait(duration + 30)
        raw = out.read_text() if out.exists() else ""
        samples = charge(raw)
    figures = per_move(report)
    total = sum(samples.values()) or 1
    return {
        "game": game,
        "mode": mode,
        "concurrency": concurrency,
        **figures,
        "samples": total,
        "raw": raw,
        "stages_us": {
            stage: figures["server_cpu_us_per_move"] * count / total
            for stage, count in samples.most_common()
        },
    }


def table(result: dict[str, Any]) -> str:
    out = [
        f"{result['game']}, {result['mode']} mode, N={result['concurrency']}: "
        f"{result['moves_per_s']:.0f} moves/s, {result['server_cpu_us_per_move']:.0f} µs of "
        f"server CPU per move ({result['samples']} samples)",
        "",
        "| stage | µs per move | share |",
        "|---|--:|--:|",
    ]
    cpu = result["server_cpu_us_per_move"]
    for stage, us in result["stages_us"].items():
        out.append(f"| {stage} | {us:.0f} | {us / cpu:.0%} |")
    return "\n".join(out)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="tribes-profile", description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", default="goofspiel")
    parser.add_argument("--mode", default="session", choices=["unary", "session", "websocket"])
    parser.add_argument("--concurrency", type=int, default=16)
    parser.add_argument("--duration", type=float, default=8.0)
    args = parser.parse_args(argv)
    print(table(profile(args.game, args.mode, args.concurrency, args.duration)))
    return 0


if __name__ == "__main__":
    sys.exit(main())

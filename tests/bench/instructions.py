"""Instructions per move: the service under ``valgrind --tool=callgrind`` for a fixed load.

On a shared two-core virtual machine two wall-clock passes of one build differ by up to
±15 %, so a change worth 5 % cannot be told apart from noise by moves/s or CPU seconds.
callgrind counts the instructions the service process executes (every thread; the kernel
excluded): for the same build and load it repeats within about 1 %, whatever else the
machine does. The service starts under callgrind with instrumentation off (start-up and
imports are not counted), it is switched on for the load window and the total is divided
by the moves made. Under callgrind the service runs 30 to 50 times slower, so the figures are
instructions, never rates. Figures only.

Run: ``.venv/bin/python -m tests.bench.instructions [--tree DIR ...] [--mode websocket]``
(each ``--tree`` is a checkout of the project, e.g. a ``git worktree`` of the commit
before a change, with its generated code: ``make protos`` there); needs ``valgrind``.
"""

from __future__ import annotations

import argparse
import glob
import pathlib
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterable, Sequence
from typing import Any

from tests.bench.bench import (
    ROOT,
    _free_port,
    _wait_port,
    child,
    game_phase,
    private_redis,
    service_env,
)


def callgrind_total(lines: Iterable[str]) -> int:
    """The instruction count of one callgrind output file (its ``totals:`` or
    ``summary:`` line; 0 when it has neither)."""
    total = 0
    for line in lines:
        if line.startswith(("totals:", "summary:")):
            total = max(total, int(line.split()[1]))
    return total


def measure(
    tree: pathlib.Path, mode: str, game: str, concurrency: int, duration: float
) -> dict[str, Any]:
    valgrind = shutil.which("valgrind")
    control = shutil.which("callgrind_control")
    if valgrind is None or control is None:
        raise SystemExit("instructions per move need valgrind (Debian's valgrind package)")
    with private_redis() as (url, _):
        port, http = _free_port(), _free_port()
        out = pathlib.Path(tempfile.mkdtemp()) / "callgrind.out"
        callgrind = [
            valgrind,
            "--tool=callgrind",
            "--instr-atstart=no",
            f"--callgrind-out-file={out}",
        ]
        server = [*callgrind, sys.executable, "-m", "tribes"]
        env = service_env(url, port, TRIBES_HTTP_PORT=str(http))
        with child(server, env, port, tree=tree, wait=300) as pid:
            _wait_port(http, 300)
            subprocess.run([control, "-i", "on", str(pid)], check=True, capture_output=True)
            report = game_phase(
                (port, http), pid, game, mode, concurrency, duration, 0.0, seed=1, timeout=30.0
            )
            subprocess.run([control, "-i", "off", str(pid)], check=True, capture_output=True)
            subprocess.run([control, "-d", str(pid)], check=True, capture_output=True)
            time.sleep(5)  # the dump is written by the service's own thread
        total = 0
        for name in glob.glob(f"{out}*"):
            with open(name, errors="replace") as f:
                total = max(total, callgrind_total(f))
    moves = report["per_rpc"].get("ApplyMove", {}).get("count", 0)
    return {
        "tree": str(tree),
        "mode": mode,
        "game": game,
        "concurrency": concurrency,
        "moves": moves,
        "instructions": total,
        "per_move": total / moves if moves else float("nan"),
    }


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="tribes-instructions", description=__doc__.split("\n\n")[0]
    )
    parser.add_argument(
        "--tree", action="append", type=pathlib.Path, help="a checkout (repeatable)"
    )
    parser.add_argument("--mode", default="websocket", choices=["unary", "session", "websocket"])
    parser.add_argument("--game", default="goofspiel")
    parser.add_argument("--concurrency", type=int, default=1)
    parser.add_argument("--duration", type=float, default=30.0)
    parser.add_argument("--repeats", type=int, default=1, help="runs per tree, alternating")
    args = parser.parse_args(argv)
    trees = args.tree or [ROOT]
    print("| tree | mode | N | moves | instructions per move |")
    print("|---|---|--:|--:|--:|")
    for _ in range(args.repeats):
        for tree in trees:
            row = measure(tree.resolve(), args.mode, args.game, args.concurrency, args.duration)
            print(
                f"| {row['tree']} | {row['mode']} | {row['concurrency']} | {row['moves']} "
                f"| {row['per_move']:,.0f} |",
                flush=True,
            )
    return 0


if __name__ == "__main__":
    sys.exit(main())

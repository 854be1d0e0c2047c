"""Paired passes: the service with and without a setting, under the same load, alternating.

A setting (``--env NAME=VALUE``, any number) is judged the way every change of the move
path is judged here: the service runs as A (the environment as it is) and as B (with the
given variables), each pass on a fresh process and a fresh private Redis, A and B
alternating with the order rotated per pass, at each N in flight; it prints moves/s and
server CPU per move (all the server's work divided by the moves made) for every pass and
the ratios of the medians. Passes of one build on a shared two-core machine differ by up to
±15 %, so only a difference that holds pass after pass says anything. Figures only.

Run: ``.venv/bin/python -m tests.bench.paired --env TRIBES_GRPC_POLLER=1 --mode session
[--concurrency 1 16 64] [--passes 3] [--game goofspiel] [--duration 10]``
"""

from __future__ import annotations

import argparse
import statistics
import sys
from collections.abc import Sequence
from typing import Any

from tests.bench.bench import _free_port, child, game_phase, per_move, private_redis, service_env


def one_pass(
    extra: dict[str, str], mode: str, game: str, concurrency: int, duration: float
) -> dict[str, float]:
    """One load phase against a fresh service (with ``extra`` in its environment)."""
    with private_redis() as (url, _):
        port, http = _free_port(), _free_port()
        env = service_env(url, port, **{"TRIBES_LOG_REQUESTS": "0", **extra})
        if mode == "websocket":
            env["TRIBES_HTTP_PORT"] = str(http)
        with child([sys.executable, "-m", "tribes"], env, port) as pid:
            report = game_phase((port, http), pid, game, mode, concurrency, duration, 1.0)
    return per_move(report)


def compare(
    extra: dict[str, str], mode: str, game: str, ns: Sequence[int], passes: int, duration: float
) -> list[dict[str, Any]]:
    rows = []
    for n in ns:
        runs: dict[str, list[dict[str, float]]] = {"A": [], "B": []}
        for i in range(passes):
            for side in ("A", "B") if i % 2 == 0 else ("B", "A"):
                runs[side].append(one_pass(extra if side == "B" else {}, mode, game, n, duration))
        rows.append({"n": n, **runs})
    return rows


def table(rows: list[dict[str, Any]], extra: dict[str, str]) -> str:
    given = " ".join(f"{k}={v}" for k, v in extra.items())
    out = [
        f"A = as configured, B = with {given}",
        "",
        "| N | moves/s A | moves/s B | CPU µs/move A | CPU µs/move B | moves/s B/A | CPU B/A |",
        "|--:|--:|--:|--:|--:|--:|--:|",
    ]
    for row in rows:
        a, b = row["A"], row["B"]
        rate = _median(b, "moves_per_s") / _median(a, "moves_per_s")
        cpu = _median(b, "server_cpu_us_per_move") / _median(a, "server_cpu_us_per_move")
        out.append(
            f"| {row['n']} | {_cells(a, 'moves_per_s')} | {_cells(b, 'moves_per_s')} | "
            f"{_cells(a, 'server_cpu_us_per_move')} | {_cells(b, 'server_cpu_us_per_move')} | "
            f"{rate:.2f} | {cpu:.2f} |"
        )
    return "\n".join(out)


def _cells(runs: list[dict[str, float]], key: str) -> str:
    return " / ".join(f"{r[key]:,.0f}" for r in runs)


def _median(runs: list[dict[str, float]], key: str) -> float:
    return statistics.median(r[key] for r in runs)


def _assignment(text: str) -> tuple[str, str]:
    name, sep, value = text.partition("=")
    if not sep or not name:
        raise argparse.ArgumentTypeError(f"expected NAME=VALUE, not {text[:40]!r}")
    return name, value


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="tribes-paired", description=__doc__.split("\n\n")[0])
    parser.add_argument("--env", type=_assignment, action="append", required=True)
    parser.add_argument("--mode", default="session", choices=["unary", "session", "websocket"])
    parser.add_argument("--game", default="goofspiel")
    parser.add_argument("--concurrency", type=int, nargs="+", default=[1, 16, 64])
    parser.add_argument("--passes", type=int, default=3)
    parser.add_argument("--duration", type=float, default=10.0)
    args = parser.parse_args(argv)
    extra = dict(args.env)
    rows = compare(extra, args.mode, args.game, args.concurrency, args.passes, args.duration)
    print(f"{args.game}, {args.mode} mode")
    print(table(rows, extra))
    return 0


if __name__ == "__main__":
    sys.exit(main())

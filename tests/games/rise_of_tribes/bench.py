"""Rule-engine speed of Rise of Tribes: ``legal_moves`` + ``apply`` per move (not a test).

    .venv/bin/python -m tests.games.rise_of_tribes.bench [games per player count]

Runs the client's ``bench_rules`` (the figures the README reports for every game:
median and 99th percentile per move, games per second, stored state size) for 2, 3
and 4 players with the default options. Speed is measured here, never asserted.
"""

from __future__ import annotations

import sys
import types

from tribes.games.rise_of_tribes import GAME
from tribes_client.bench import bench_rules


def main() -> None:
    games = int(sys.argv[1]) if len(sys.argv) > 1 else 100
    entry = types.SimpleNamespace(game=GAME)
    for seats in GAME.seat_counts:
        r = bench_rules(entry, seats, games)  # type: ignore[arg-type]
        print(
            f"{seats}p: median {r['median_us']:.1f} us, p99 {r['p99_us']:.1f} us, "
            f"{r['moves_per_game']:.0f} moves/game, {r['games_per_s']:.1f} games/s, "
            f"state {r['state_bytes_mean']:.0f} B mean / {r['state_bytes_max']} B max"
        )


if __name__ == "__main__":
    main()

"""Bot strength and speed: seeded matches between the bots of ``tribes.bots``.

For each game and player count, every pairing (ismcts vs greedy, ismcts vs random,
greedy vs random) plays ``--games`` seeded games. The first bot of a pairing sits in
one seat (seat ``g mod n`` in game ``g``, so it takes every seat in turn) and the
second bot fills the others. A win is a first place (a shared first place counts one
over the number of winners); the table gives the win rate with a 95 % Wilson interval
and the mean milliseconds per decision (decisions with a choice only). Figures, not
pass/fail: ``python -m tests.bench.bots --games 20`` or ``make bench BENCH_ARGS="--bots 20"``.
"""

from __future__ import annotations

import argparse
import math
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from tribes.bots import Budget, Options, choose
from tribes.core.catalog import build_catalog
from tribes.engine import Result
from tribes.engine.driver import new_game, play

PAIRINGS = (("ismcts", "greedy"), ("ismcts", "random"), ("greedy", "random"))
Z95 = 1.959964


def wilson(wins: float, games: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of a win rate."""
    if games == 0:
        return 0.0, 1.0
    p = wins / games
    centre = (p + z * z / (2 * games)) / (1 + z * z / games)
    half = z * math.sqrt(p * (1 - p) / games + z * z / (4 * games * games)) / (1 + z * z / games)
    return max(0.0, centre - half), min(1.0, centre + half)


@dataclass
class Row:
    game: str
    seats: int
    first: str
    second: str
    games: int = 0
    wins: float = 0.0
    ms: dict[str, list[float]] = field(default_factory=dict)

    def line(self) -> str:
        low, high = wilson(self.wins, self.games)
        rate = self.wins / self.games if self.games else 0.0

        def mean(kind: str) -> str:
            values = self.ms.get(kind, [])
            return f"{sum(values) / len(values):.0f}" if values else "-"

        return (
            f"| {self.game} | {self.seats} | {self.first} vs {self.second} | {self.games} | "
            f"{rate:.0%} | {low:.0%}-{high:.0%} | {mean(self.first)} | {mean(self.second)} |"
        )


HEADER = (
    "| game | players | match | games | first wins | 95 % CI | ms/decision first | "
    "ms/decision second |\n|---|---|---|---|---|---|---|---|"
)


def play_match(
    game: Any, seats: int, kinds: Sequence[str], seed: int, budget: Budget, row: Row
) -> Result:
    """One seeded game, ``kinds[s]`` playing seat s, timing each decision into ``row``."""
    state = new_game(game, seats, {}, seed)
    decision = 0
    while (result := game.result(state)) is None:
        seat = game.to_act(state)[0]
        kind = kinds[seat]
        began = time.perf_counter()
        move = choose(game, state, seat, kind, seed * 100_003 + decision, budget=budget)
        elapsed = (time.perf_counter() - began) * 1000
        if len(game.legal_moves(state, seat)) > 1:
            row.ms.setdefault(kind, []).append(elapsed)
        state = play(game, state, seat, move)
        decision += 1
    return result


def share(game_id: str, seats: int, result: Result, mine: int) -> float:
    """The seat's share of first place (a 4p Fate of Akalon team wins together)."""
    winners = result.winners
    if mine not in winners:
        return 0.0
    if game_id == "fate_of_akalon" and seats == 4:
        return 1.0 if all(w % 2 == mine % 2 for w in winners) else 0.5
    return 1 / len(winners)


def run_row(game: Any, seats: int, first: str, second: str, games: int, budget: Budget) -> Row:
    row = Row(game.id, seats, first, second)
    for g in range(games):
        mine = g % seats
        kinds = [first if s == mine else second for s in range(seats)]
        result = play_match(game, seats, kinds, 1000 + g, budget, row)
        row.games += 1
        row.wins += share(game.id, seats, result, mine)
    return row


def run(
    games: int,
    iterations: int,
    seat_counts: Sequence[int],
    only: Sequence[str] = (),
    out: Any = sys.stdout,
) -> list[Row]:
    """Every game (or ``only``) x seat count x pairing; the table printed as it grows."""
    budget = Budget(iterations=iterations)
    print(
        f"## Bots ({games} games per row; ismcts {iterations} iterations, "
        f"rollouts cut after {Options().rollout_moves} moves)\n\n{HEADER}",
        file=out,
        flush=True,
    )
    rows = []
    for entry in build_catalog([]):
        game = entry.game
        if only and game.id not in only:
            continue
        for seats in seat_counts:
            if seats not in game.seat_counts:
                continue
            for first, second in PAIRINGS:
                row = run_row(game, seats, first, second, games, budget)
                rows.append(row)
                print(row.line(), file=out, flush=True)
    return rows


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="tribes-bench-bots", description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=4, help="seeded games per row")
    parser.add_argument("--iterations", type=int, default=60, help="ismcts iterations")
    parser.add_argument("--seats", default="2", help="player counts, comma-separated")
    parser.add_argument("--only", default="", help="game ids, comma-separated (default all)")
    args = parser.parse_args(argv)
    run(
        args.games,
        args.iterations,
        [int(s) for s in args.seats.split(",")],
        [g for g in args.only.split(",") if g],
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())

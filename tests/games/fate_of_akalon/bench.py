"""Rule-engine speed of Fate of Akalon: ``legal_moves`` + ``apply`` per move (not a test).

    .venv/bin/python -m tests.games.fate_of_akalon.bench [games per line-up]

Plays seeded random games and prints the median and 99th percentile time per move and
whole games per second (setup included). Speed is measured here, never asserted.
"""

from __future__ import annotations

import statistics
import sys
import time

from tribes.engine.driver import new_game
from tribes.engine.rng import Rng
from tribes.games.fate_of_akalon import GAME

LINE_UPS = ((2, "elf,orc"), (2, "dwarf,undead"), (3, "dwarf,orc,elf"), (4, "orc,elf,undead,dwarf"))


def measure(seats: int, factions: str, games: int) -> tuple[list[int], float]:
    """Nanoseconds per move over ``games`` seeded random games, and games per second."""
    samples: list[int] = []
    start = time.perf_counter()
    for seed in range(games):
        state = new_game(GAME, seats, {"factions": factions}, seed)
        chooser = Rng(seed ^ 77)
        while GAME.result(state) is None:
            seat = GAME.to_act(state)[0]
            began = time.perf_counter_ns()
            legal = GAME.legal_moves(state, seat)
            state = GAME.apply(state, seat, legal[chooser.below(len(legal))])
            samples.append(time.perf_counter_ns() - began)
    return samples, games / (time.perf_counter() - start)


def _line(label: str, samples: list[int]) -> str:
    ordered = sorted(samples)
    median = statistics.median(ordered) / 1000
    p99 = ordered[int(len(ordered) * 0.99)] / 1000
    return f"{label}: median {median:.1f} us, p99 {p99:.1f} us"


def main() -> None:
    games = int(sys.argv[1]) if len(sys.argv) > 1 else 200
    everything: list[int] = []
    for seats, factions in LINE_UPS:
        samples, rate = measure(seats, factions, games)
        everything += samples
        moves = len(samples) / games
        print(
            f"{_line(f'{seats}p {factions}', samples)}, {moves:.0f} moves/game, {rate:.0f} games/s"
        )
    print(_line("all", everything))


if __name__ == "__main__":
    main()

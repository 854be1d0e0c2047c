"""What every bot shares: budgets, options, and the per-seat reward of a finished game.

A bot sees a game only through the rule-module contract (``tribes.engine.game``): the
seat's own ``legal_moves`` on the real state, and otherwise only states returned by
``game.determinize(state, seat, seed)``, which are a function of the seat's view and the
seed. So whatever a bot computes depends on what its seat may know and nothing else.
"""

from __future__ import annotations

import time
from collections.abc import Collection
from dataclasses import dataclass
from typing import Any

from tribes.engine import GameDef, Move, Result
from tribes.engine.rng import Rng

AnyGame = GameDef[Any, Any, Any]

#: A rollout longer than this is scored as a draw (the contract promises an end).
MAX_ROLLOUT = 20_000


@dataclass(frozen=True, slots=True)
class Budget:
    """How much a decision may cost: search iterations, wall milliseconds, or both.

    With neither set, ``DEFAULT_ITERATIONS`` apply. The deadline is checked once per
    iteration, so a decision overruns by at most one iteration; at least one iteration
    always runs. With iterations only, a decision is a function of its seed.
    """

    iterations: int | None = None
    ms: int | None = None

    def __post_init__(self) -> None:
        if self.iterations is not None and self.iterations < 1:
            raise ValueError("iterations must be at least 1")
        if self.ms is not None and self.ms < 0:
            raise ValueError("ms must not be negative")

    def limit(self) -> int:
        if self.iterations is not None:
            return self.iterations
        return DEFAULT_ITERATIONS if self.ms is None else 1 << 62

    def deadline(self) -> float | None:
        return None if self.ms is None else time.perf_counter() + self.ms / 1000


DEFAULT_ITERATIONS = 300


def past(deadline: float | None) -> bool:
    return deadline is not None and time.perf_counter() >= deadline


@dataclass(frozen=True, slots=True)
class Options:
    """Tuning shared by the bots (README "Bots" lists them).

    ``exploration`` is the UCB constant of ismcts; ``rollout_moves`` cuts an ismcts
    rollout after that many moves and scores it with the game's ``evaluate`` (games
    without one roll out to the end; 0 = always to the end); ``samples`` is how many
    determinizations greedy averages each move over.
    """

    exploration: float = 0.7
    rollout_moves: int = 12
    samples: int = 4


def rank_rewards(result: Result) -> tuple[float, ...]:
    """Per-seat reward in [0, 1] from the ranks: 1 for a winner, 0 for the last."""
    seats = len(result.ranks)
    if seats < 2:
        return (1.0,) * seats
    return tuple((seats - rank) / (seats - 1) for rank in result.ranks)


def random_step(game: AnyGame, state: Any, rng: Rng) -> Any:
    """One random move by one random seat to act (a rollout step)."""
    actor = rng.choice(game.to_act(state))
    return game.apply(state, actor, rng.choice(game.legal_moves(state, actor)))


def rollout(
    game: AnyGame, state: Any, seats: Collection[int], rng: Rng, moves: int | None
) -> dict[int, float]:
    """Random play from ``state``: the rewards of ``seats`` at the end, or their
    ``evaluate`` once ``moves`` moves are played (when the game has one)."""
    steps = 0
    while True:
        result = game.result(state)
        if result is not None:
            reward = rank_rewards(result)
            return {seat: reward[seat] for seat in seats}
        if moves is not None and steps >= moves and game.evaluate is not None:
            return {seat: game.evaluate(state, seat) for seat in seats}
        if steps >= MAX_ROLLOUT:
            return dict.fromkeys(seats, 0.5)
        state = random_step(game, state, rng)
        steps += 1


def own_moves(game: AnyGame, state: Any, seat: int) -> list[Move]:
    """The seat's legal moves; a seat not to act has no decision to make."""
    if seat not in game.to_act(state):
        raise ValueError(f"seat {seat} is not to act")
    legal = list(game.legal_moves(state, seat))
    if not legal:
        raise ValueError(f"seat {seat} has no legal move")
    return legal


def require_determinize(game: AnyGame) -> Any:
    """Searching bots need ``determinize``: without it they could only read hidden data."""
    if game.determinize is None:
        raise ValueError(f"{game.id} has no determinize hook: only the random bot can play it")
    return game.determinize

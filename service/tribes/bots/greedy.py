"""The greedy bot: one ply, each legal move scored by the game's own ``evaluate``.

Each move is applied to a few determinizations of the seat's information and the
resulting states' ``evaluate(state, seat)`` averaged; the best average wins (ties
broken by the seeded generator). A game without ``evaluate`` is scored by one random
rollout to the end per determinization (the reward of the seat's final rank), which
makes greedy a flat Monte Carlo player there.
"""

from __future__ import annotations

from typing import Any

from tribes.bots.base import AnyGame, Budget, Options, own_moves, past, require_determinize, rollout
from tribes.engine import Move
from tribes.engine.rng import Rng


def _score(game: AnyGame, state: Any, seat: int, rng: Rng) -> float:
    if game.evaluate is not None:
        return game.evaluate(state, seat)
    return rollout(game, state, (seat,), rng, None)[seat]


def choose(
    game: AnyGame, state: Any, seat: int, seed: int, budget: Budget, options: Options
) -> Move:
    """The move with the best average evaluation one ply ahead."""
    legal = own_moves(game, state, seat)
    if len(legal) == 1:
        return legal[0]
    determinize = require_determinize(game)
    rng = Rng(seed)
    deadline = budget.deadline()
    totals = [0.0] * len(legal)
    for _ in range(max(1, min(options.samples, budget.limit()))):
        guess = determinize(state, seat, rng.next_u64())
        for i, move in enumerate(legal):
            totals[i] += _score(game, game.apply(guess, seat, move), seat, rng)
        if past(deadline):
            break
    best = max(totals)
    return rng.choice([move for move, total in zip(legal, totals, strict=True) if total == best])

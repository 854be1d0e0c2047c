"""The random bot: a uniform choice among the seat's legal moves (a baseline)."""

from __future__ import annotations

from typing import Any

from tribes.bots.base import AnyGame, Budget, Options, own_moves
from tribes.engine import Move
from tribes.engine.rng import Rng


def choose(
    game: AnyGame, state: Any, seat: int, seed: int, budget: Budget, options: Options
) -> Move:
    """Any legal move, each equally likely; it reads nothing but the seat's own moves."""
    return Rng(seed).choice(own_moves(game, state, seat))

"""Bots for every game: ``random``, ``greedy`` and ``ismcts``, over the rule-module contract.

Pure and game-agnostic: a bot is given a ``GameDef``, the stored state, a seat, a seed
and a ``Budget``, and returns one of the seat's legal moves. It reads the state only
through ``game.legal_moves`` for its own seat and ``game.determinize(state, seat,
seed)`` (a state drawn from what the seat may know), so it never sees another seat's
hidden data or the PRNG state. The only per-game code is each game's ``evaluate``.

``choose`` has the ``Chooser`` shape of the service's bot seats
(``tribes.core.botseats``) plus a keyword ``budget``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from tribes.bots import greedy, ismcts, uniform
from tribes.bots.base import DEFAULT_ITERATIONS, AnyGame, Budget, Options
from tribes.engine import Move

_BOTS: dict[str, Callable[[AnyGame, Any, int, int, Budget, Options], Move]] = {
    "random": uniform.choose,
    "greedy": greedy.choose,
    "ismcts": ismcts.choose,
}

#: The bot kinds, weakest first.
KINDS: tuple[str, ...] = tuple(_BOTS)
#: The kind used when a caller names none.
DEFAULT_KIND = "ismcts"


def choose(
    game: AnyGame,
    state: Any,
    seat: int,
    kind: str,
    seed: int,
    *,
    budget: Budget | None = None,
    options: Options | None = None,
) -> Move:
    """The ``kind`` bot's move for ``seat``: one of its current legal moves.

    A game without ``determinize`` can only be played without search: every kind is
    then the random bot. Raises ``ValueError`` for an unknown kind or a seat with no
    decision to make.
    """
    bot = _BOTS.get(kind)
    if bot is None:
        raise ValueError(f"unknown bot kind {kind!r} (kinds: {', '.join(KINDS)})")
    if game.determinize is None:
        bot = uniform.choose
    return bot(game, state, seat, seed, budget or Budget(), options or Options())


def within(ms: int) -> Callable[[AnyGame, Any, int, str, int], Move]:
    """``choose`` with a thinking time of ``ms`` milliseconds: the ``Chooser`` of bot seats."""
    budget = Budget(ms=ms)

    def chooser(game: AnyGame, state: Any, seat: int, kind: str, seed: int) -> Move:
        return choose(game, state, seat, kind, seed, budget=budget)

    return chooser


def suggest(game: AnyGame, state: Any, seat: int, kind: str, seed: int, ms: int) -> Move:
    """``choose`` within ``ms`` milliseconds: the service's SuggestMove."""
    return choose(game, state, seat, kind, seed, budget=Budget(ms=ms))


__all__ = [
    "DEFAULT_ITERATIONS",
    "DEFAULT_KIND",
    "KINDS",
    "Budget",
    "Options",
    "choose",
    "suggest",
    "within",
]

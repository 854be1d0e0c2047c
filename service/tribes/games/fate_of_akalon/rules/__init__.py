"""Fate of Akalon's rules as pure functions over ``State`` (spec §4-§7).

The package splits the rules by phase: ``setup`` (creation and skirmish, §4),
``battle`` (the battle steps B0-B7 and the engine loop, §5.3), ``steps`` (ability
resolution and the DSL primitives, §5.5-§5.6.2), ``values`` (values, text-ignore and
play limits, §5.6.3-§5.6.5), ``victory`` (initiative, victory, scoring, §7),
``decisions`` (the options of each decision, §5.4), ``view`` (§6), ``describe`` and
``invariants`` (§10.3). This module holds the entry points the ``GameDef`` names.
"""

from __future__ import annotations

from tribes.engine import Result
from tribes.games.fate_of_akalon.moves import AkalonMove
from tribes.games.fate_of_akalon.rules.battle import resume
from tribes.games.fate_of_akalon.rules.board import Board
from tribes.games.fate_of_akalon.rules.decisions import legal_moves
from tribes.games.fate_of_akalon.rules.describe import describe, explain_illegal, public_move
from tribes.games.fate_of_akalon.rules.invariants import check_invariants
from tribes.games.fate_of_akalon.rules.setup import new_game
from tribes.games.fate_of_akalon.rules.view import scores, view
from tribes.games.fate_of_akalon.state import State

__all__ = [
    "apply",
    "check_invariants",
    "describe",
    "explain_illegal",
    "legal_moves",
    "new_game",
    "public_move",
    "result",
    "scores",
    "to_act",
    "view",
]


def to_act(state: State) -> tuple[int, ...]:
    """Exactly the pending decision's actor; nobody once the game is over (§5.2)."""
    return () if state.pending is None else (state.pending.actor,)


def apply(state: State, seat: int, move: AkalonMove) -> State:
    """Resume the suspended task with a legal ``move`` and run every automatic step after it."""
    board = Board(state)
    resume(board, move)
    return board.freeze()


def result(state: State) -> Result | None:
    """Stored when the game ends (§7), so this is free."""
    return state.result

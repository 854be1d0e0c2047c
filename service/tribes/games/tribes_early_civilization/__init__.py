"""Tribes: Early Civilization (KOSMOS edition rules, 2-4 players): lead a tribe through
three epochs, completing achievements with resources of a private hex territory.

The rule module for game id ``tribes_early_civilization``, implementing
``shared/rules/tribes-early-civilization.md`` (the "spec"; section numbers in docstrings
refer to it, its §12 review log included). Files: ``data`` (components and tables, §2,
§3, RECONSTRUCTED items marked), ``options`` (§3.7, §5.9, §6), ``hexes`` (territory
geometry, §3.2), ``state`` (State and View, §5.11, §6), ``moves`` (§5.2), ``rules/``
(setup §4; turn §5.3, §5.9; actions §5.4-§5.6; achieve §5.7; events §5.8; scoring §7),
``view`` (§6), ``describe``/``explain`` (player-readable text), ``invariants`` (§5.1,
§8), ``bots`` (determinize, evaluate) and ``codec``.
"""

from __future__ import annotations

from tribes.engine import GameDef
from tribes.games.tribes_early_civilization import codec
from tribes.games.tribes_early_civilization.bots import determinize, evaluate
from tribes.games.tribes_early_civilization.data import SEAT_COUNTS
from tribes.games.tribes_early_civilization.describe import describe
from tribes.games.tribes_early_civilization.explain import explain_illegal
from tribes.games.tribes_early_civilization.invariants import check_invariants
from tribes.games.tribes_early_civilization.moves import Move, parse_move
from tribes.games.tribes_early_civilization.options import OPTIONS
from tribes.games.tribes_early_civilization.rules import apply, legal_moves, result, scores, to_act
from tribes.games.tribes_early_civilization.rules.setup import new_game
from tribes.games.tribes_early_civilization.state import State, View
from tribes.games.tribes_early_civilization.view import view

GAME: GameDef[State, Move, View] = GameDef(
    id="tribes_early_civilization",
    title="Tribes: Early Civilization",
    seat_counts=SEAT_COUNTS,
    options=OPTIONS,
    new_game=new_game,
    to_act=to_act,
    legal_moves=legal_moves,
    apply=apply,
    view=view,
    result=result,
    describe=describe,
    parse_move=parse_move,
    encode=codec.encode,
    decode=codec.decode,
    scores=scores,
    explain_illegal=explain_illegal,
    check_invariants=check_invariants,
    determinize=determinize,
    evaluate=evaluate,
)

__all__ = ["GAME"]

"""Rise of Tribes (Breaking Games, 2018; designer Brad Brooks), the base game, 2-4 players.

The rule module for game id ``rise_of_tribes``, implementing
``shared/rules/rise-of-tribes.md`` (the "spec"; section numbers in docstrings refer to
it). Files: ``data`` (constants, dice, Action Board, tribe boards and the HOUSE-RULE
leader powers, §2-§3.5), ``maps`` (layouts, §3.4), ``cards`` (goal cards and events,
§3.6-§3.7), ``options``, ``state`` (§5.0), ``moves`` and ``keys`` (§5.9), ``rules/`` (the
rules by phase, §4-§5.8), ``view`` (§6), ``describe``/``explain`` (player-readable
text), ``invariants`` (§5.6, §7, §8), ``bots`` (determinize, evaluate) and ``codec``.
Items the spec marks RECONSTRUCTED are data, marked so where they are defined.
"""

from __future__ import annotations

from tribes.engine import GameDef
from tribes.games.rise_of_tribes import codec
from tribes.games.rise_of_tribes.bots import determinize, evaluate
from tribes.games.rise_of_tribes.data import SEAT_COUNTS
from tribes.games.rise_of_tribes.describe import describe
from tribes.games.rise_of_tribes.explain import explain_illegal
from tribes.games.rise_of_tribes.invariants import check_invariants
from tribes.games.rise_of_tribes.keys import parse_move
from tribes.games.rise_of_tribes.moves import Move
from tribes.games.rise_of_tribes.options import OPTIONS
from tribes.games.rise_of_tribes.rules import apply, legal_moves, new_game, result, scores, to_act
from tribes.games.rise_of_tribes.state import State
from tribes.games.rise_of_tribes.view import View, view

GAME: GameDef[State, Move, View] = GameDef(
    id="rise_of_tribes",
    title="Rise of Tribes",
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

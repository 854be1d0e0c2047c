"""Five Tribes: The Djinns of Naqala (Days of Wonder, 2014), base game, 2-4 players.

The rule module for game id ``five_tribes``, implementing ``shared/rules/five-tribes.md``
(the "spec"; section numbers in docstrings refer to it). Files: ``data`` (components,
§2-§3), ``grid`` (board geometry and the walk tables of §5.5.4), ``state`` (State and
View, §5.1 and §6), ``moves`` (§5.12), ``rules/`` (setup §4; rounds: bidding §5.3,
turn order §5.4, sale §5.10, clean-up §5.11; movement §5.5; tribes §5.7; tiles §5.8;
Djinns §5.9; scoring §7), ``view`` (§6), ``describe``/``explain`` (player-readable
text), ``invariants`` (§8) and ``codec``.
"""

from __future__ import annotations

from tribes.engine import GameDef
from tribes.games.five_tribes import codec
from tribes.games.five_tribes.bots import determinize, evaluate
from tribes.games.five_tribes.data import OPTIONS, SEAT_COUNTS
from tribes.games.five_tribes.describe import describe
from tribes.games.five_tribes.explain import explain_illegal
from tribes.games.five_tribes.invariants import check_invariants
from tribes.games.five_tribes.moves import Move, parse_move
from tribes.games.five_tribes.rules import apply, legal_moves, result, scores, to_act
from tribes.games.five_tribes.rules.setup import new_game
from tribes.games.five_tribes.state import State, View
from tribes.games.five_tribes.view import view

GAME: GameDef[State, Move, View] = GameDef(
    id="five_tribes",
    title="Five Tribes",
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

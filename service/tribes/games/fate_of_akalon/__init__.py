"""Fate of Akalon: Tribes (Foursight Games, 2016), the card game of battling tribes.

Spec: ``shared/rules/fate-of-akalon-tribes.md``. Two to four players each command one
28-card faction deck (Elf, Dwarf, Orc, Undead); battles are fought by playing cards to
a shared battlefield; losing cards go to the cemetery and the lowest cemetery value
wins once one reaches 30 (60 for a 4p team). Modes: 2 players, 3 (free-for-all with
elimination) and 4 (teams of seats 0+2 and 1+3). The faction of each seat is the
``factions`` option.

Files: ``dsl.py`` (the effect vocabulary), ``data.py`` (the cards), ``cards.py``
(instance tables), ``options.py``, ``state.py``, ``moves.py``, ``rules/`` (the rules by
phase) and ``codec.py``.
"""

from __future__ import annotations

from tribes.engine import GameDef
from tribes.games.fate_of_akalon import codec, rules
from tribes.games.fate_of_akalon.bots import determinize, evaluate
from tribes.games.fate_of_akalon.moves import AkalonMove, parse_move
from tribes.games.fate_of_akalon.options import OPTIONS, SEAT_COUNTS
from tribes.games.fate_of_akalon.state import State, View

GAME: GameDef[State, AkalonMove, View] = GameDef(
    id="fate_of_akalon",
    title="Fate of Akalon: Tribes",
    seat_counts=SEAT_COUNTS,
    options=OPTIONS,
    new_game=rules.new_game,
    to_act=rules.to_act,
    legal_moves=rules.legal_moves,
    apply=rules.apply,
    view=rules.view,
    result=rules.result,
    describe=rules.describe,
    parse_move=parse_move,
    encode=codec.encode,
    decode=codec.decode,
    public_move=rules.public_move,
    scores=rules.scores,
    explain_illegal=rules.explain_illegal,
    check_invariants=rules.check_invariants,
    determinize=determinize,
    evaluate=evaluate,
)

__all__ = ["GAME"]

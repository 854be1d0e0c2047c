"""Tribes: Early Civilization's protobuf face, derived from its dataclasses by ``tribes.wire.auto``.

``protos/tribes/v1/tribes_early_civilization.proto`` is generated from the same types
(``make game-protos``).
"""

from __future__ import annotations

import typing

from tribes.games.tribes_early_civilization import GAME
from tribes.games.tribes_early_civilization.moves import Move
from tribes.v1 import tribes_early_civilization_pb2
from tribes.wire.auto import AutoWire

TABLE = AutoWire(
    prefix="TribesEarlyCivilization",
    module=tribes_early_civilization_pb2,
    move_types=typing.get_args(Move),
    view_type=typing.get_type_hints(GAME.view)["return"],
    parse_move=GAME.parse_move,
)
WIRE = TABLE.wire(GAME.id, "tribes_early_civilization")

"""Rise of Tribes's protobuf face, derived from its dataclasses by ``tribes.wire.auto``.

``protos/tribes/v1/rise_of_tribes.proto`` is generated from the same types
(``make game-protos``).
"""

from __future__ import annotations

import typing

from tribes.games.rise_of_tribes import GAME
from tribes.games.rise_of_tribes.moves import Move
from tribes.v1 import rise_of_tribes_pb2
from tribes.wire.auto import AutoWire

TABLE = AutoWire(
    prefix="RiseOfTribes",
    module=rise_of_tribes_pb2,
    move_types=typing.get_args(Move),
    view_type=typing.get_type_hints(GAME.view)["return"],
    parse_move=GAME.parse_move,
)
WIRE = TABLE.wire(GAME.id, "rise_of_tribes")

"""What a game's wire module provides: typed moves in both directions, typed views.

Each game has ``tribes/wire/<game>.py`` exposing ``WIRE = GameWire(...)``. The
converters only translate; legality stays with the rules (a typed move that converts
fine but is not legal now is the rules' ILLEGAL_MOVE, not a wire error).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from tribes.v1 import common_pb2 as pb

M = TypeVar("M")
V = TypeVar("V")


@dataclass(frozen=True, slots=True)
class GameWire(Generic[M, V]):
    """A game's protobuf face.

    move_to_proto(move) -> tribes.v1.Move        with this game's arm set
    move_from_proto(msg) -> move                 msg is this game's arm (e.g. FiveTribesMove);
                                                 raises MalformedMoveError for nonsense
    view_to_proto(view) -> tribes.v1.View        with this game's arm set
    arm                                          the oneof arm name in Move and View
    view_to_bytes(view) -> bytes                 optional: the serialized tribes.v1.View,
                                                 for games that assemble it faster
    """

    game_id: str
    arm: str
    move_to_proto: Callable[[M], pb.Move]
    move_from_proto: Callable[[Any], M]
    view_to_proto: Callable[[V], pb.View]
    view_to_bytes: Callable[[V], bytes] | None = None

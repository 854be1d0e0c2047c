"""A game's protobuf face derived from its dataclasses: no per-game wire code.

A game whose moves and view are trees of frozen dataclasses (fields of ``int``, ``str``,
``bool``, ``enum.Enum``, ``X | None``, ``tuple[X, ...]`` and nested dataclasses) gets its
``.proto`` generated from those types (``deploy/scripts/game_proto.py``) and its
``GameWire`` built here, by table, from the same types and the generated descriptors:

* dataclass ``Foo`` of game prefix ``Game`` <-> message ``GameFoo``, field by field name;
* ``enum.Enum`` ``Bar`` <-> enum ``GameBar``, member ``X`` <-> value ``GAME_BAR_X`` (0 is the
  proto's ``..._UNSPECIFIED``, never a member);
* ``X | None`` <-> an ``optional`` scalar or enum, or a message field left unset;
* ``tuple[X, ...]`` <-> ``repeated X``;
* the moves: message ``GameMove`` with ``oneof kind``, one arm per move class.

Views are written straight to protobuf bytes by encoders compiled once per dataclass;
a nested value's bytes are remembered by the identity of the (immutable) value, so the
parts a view shares with the previous one cost a dictionary lookup. A typed move from a
client is rebuilt as the game's dataclass and must give back a canonical move id, so any
shape no legal move can have is MALFORMED_MOVE; whether it is legal is the rules' business.
Every name is checked when the wire is built: a renamed field or member fails at import.
"""

from __future__ import annotations

import dataclasses
import enum
import re
import types
import typing
from collections.abc import Callable, Sequence
from typing import Any

from google.protobuf.descriptor import Descriptor, EnumDescriptor, FieldDescriptor
from google.protobuf.message import Message

from tribes.engine import MalformedMoveError
from tribes.v1 import common_pb2 as pb
from tribes.wire import protowire as pw
from tribes.wire.base import GameWire

Encoder = Callable[[Any], bytes]
_MEMO_LIMIT = 50_000  # remembered encodings of nested values, per game


def snake(name: str) -> str:
    """``PlaceLand`` -> ``place_land`` (a move class's oneof arm)."""
    return re.sub(r"(?<!^)(?=[A-Z])", "_", name).lower()


def upper_snake(name: str) -> str:
    return snake(name).upper()


@dataclasses.dataclass(frozen=True, slots=True)
class FieldType:
    """A dataclass field's type as the mapping sees it."""

    base: Any  # int, str, bool, an Enum class or a dataclass
    optional: bool
    repeated: bool


def field_type(hint: Any) -> FieldType:
    """Classify a type hint; TypeError for anything the mapping does not carry."""
    optional = repeated = False
    origin = typing.get_origin(hint)
    if origin in (types.UnionType, typing.Union):
        present = [a for a in typing.get_args(hint) if a is not type(None)]
        if len(present) != 1 or len(typing.get_args(hint)) != 2:
            raise TypeError(f"only X | None unions are mapped, not {hint}")
        optional, hint, origin = True, present[0], typing.get_origin(present[0])
    if origin is tuple:
        args = typing.get_args(hint)
        if len(args) != 2 or args[1] is not Ellipsis or optional:
            raise TypeError(f"only tuple[X, ...] is mapped, not {hint}")
        repeated, hint = True, args[0]
        if typing.get_origin(hint) is not None:
            raise TypeError(f"nested containers are not mapped: {hint}")
    if hint in (int, str, bool) or (isinstance(hint, type) and issubclass(hint, enum.Enum)):
        return FieldType(hint, optional, repeated)
    if dataclasses.is_dataclass(hint):
        return FieldType(hint, optional, repeated)
    raise TypeError(f"type {hint!r} is not mapped")


def fields_of(cls: type) -> list[tuple[str, FieldType]]:
    hints = typing.get_type_hints(cls)
    return [(f.name, field_type(hints[f.name])) for f in dataclasses.fields(cls)]


def types_of(roots: Sequence[type]) -> tuple[list[type], list[type[enum.Enum]]]:
    """Every dataclass and enum reachable from ``roots``, in discovery order."""
    classes: list[type] = []
    enums: list[type[enum.Enum]] = []

    def visit(cls: type) -> None:
        if cls in classes:
            return
        classes.append(cls)
        for _, kind in fields_of(cls):
            if isinstance(kind.base, type) and issubclass(kind.base, enum.Enum):
                if kind.base not in enums:
                    enums.append(kind.base)
            elif isinstance(kind.base, type) and dataclasses.is_dataclass(kind.base):
                visit(kind.base)

    for root in roots:
        visit(root)
    names = [c.__name__ for c in (*classes, *enums)]
    clashes = sorted({n for n in names if names.count(n) > 1})
    if clashes:
        raise TypeError(f"two types share the name {', '.join(clashes)}")
    return classes, enums


class AutoWire:
    """The table from one game's dataclasses to its generated messages, both ways."""

    def __init__(
        self,
        *,
        prefix: str,
        module: types.ModuleType,
        move_types: Sequence[type],
        view_type: type,
        parse_move: Callable[[str], Any],
    ) -> None:
        self.prefix = prefix
        self.module = module
        self.move_types = tuple(move_types)
        self.view_type = view_type
        self.parse_move = parse_move
        classes, enums = types_of([view_type, *move_types])
        self._enum_to: dict[type, dict[Any, int]] = {}
        self._enum_from: dict[type, dict[int, Any]] = {}
        for kind in enums:
            self._map_enum(kind)
        self._encoders: dict[type, Encoder] = {}
        self._memo: dict[int, tuple[Any, bytes]] = {}
        for cls in classes:
            self._encoders[cls] = self._compile(cls)
        move_message = self.message(f"{prefix}Move")
        oneof = move_message.DESCRIPTOR.oneofs_by_name["kind"]
        self._arms: dict[type, tuple[str, int]] = {}
        for cls in self.move_types:
            arm = snake(cls.__name__)
            proto_field = move_message.DESCRIPTOR.fields_by_name.get(arm)
            if proto_field is None or proto_field.containing_oneof is not oneof:
                raise TypeError(f"{prefix}Move has no oneof arm {arm}")
            self._arms[cls] = (arm, proto_field.number)
        self._by_arm = {arm: cls for cls, (arm, _) in self._arms.items()}

    # -- names -------------------------------------------------------------------------

    def message(self, name: str) -> type[Message]:
        cls = getattr(self.module, name, None)
        if cls is None:
            raise TypeError(f"{self.module.__name__} has no message {name}")
        return cls  # type: ignore[no-any-return]

    def descriptor(self, cls: type) -> Descriptor:
        return self.message(self.prefix + cls.__name__).DESCRIPTOR  # type: ignore[return-value]

    def _map_enum(self, kind: type[enum.Enum]) -> None:
        name = self.prefix + kind.__name__
        described: EnumDescriptor | None = self.module.DESCRIPTOR.enum_types_by_name.get(name)
        if described is None:
            raise TypeError(f"{self.module.__name__} has no enum {name}")
        head = upper_snake(name)
        to: dict[Any, int] = {}
        for member in kind:
            value = described.values_by_name.get(f"{head}_{member.name}")
            if value is None:
                raise TypeError(f"enum {name} has no value {head}_{member.name}")
            to[member] = value.number
        self._enum_to[kind] = to
        self._enum_from[kind] = {number: member for member, number in to.items()}

    # -- encoding ------------------------------------------------------------------------

    def _compile(self, cls: type) -> Encoder:
        descriptor = self.descriptor(cls)
        parts: list[tuple[str, Encoder]] = []
        for name, kind in fields_of(cls):
            proto_field = descriptor.fields_by_name.get(name)
            if proto_field is None:
                raise TypeError(f"{descriptor.full_name} has no field {name}")
            parts.append((name, self._field_encoder(proto_field, kind)))
        getters = [(name, encode) for name, encode in parts]

        def encode(value: Any) -> bytes:
            return b"".join([encode_field(getattr(value, name)) for name, encode_field in getters])

        return encode

    def _scalar(self, proto_field: FieldDescriptor, kind: FieldType) -> Callable[[Any], bytes]:
        """The payload (no tag) of one scalar or enum value."""
        base = kind.base
        if base is str:
            return lambda v: pw.varint(len(b := v.encode())) + b
        if isinstance(base, type) and issubclass(base, enum.Enum):
            numbers = self._enum_to[base]
            return lambda v: pw.varint(numbers[v])
        return lambda v: pw.varint(int(v))

    def _field_encoder(self, proto_field: FieldDescriptor, kind: FieldType) -> Encoder:
        number = proto_field.number
        base = kind.base
        if isinstance(base, type) and dataclasses.is_dataclass(base):
            sub = self._nested(base)
            head = pw.tag(number, 2)
            if kind.repeated:
                return self._remembered(
                    lambda vs: b"".join([head + pw.varint(len(b := sub(v))) + b for v in vs])
                )
            return lambda v: b"" if v is None else head + pw.varint(len(b := sub(v))) + b
        payload = self._scalar(proto_field, kind)
        wire_type = 2 if base is str else 0
        head = pw.tag(number, wire_type)
        if kind.repeated:
            if base is str:
                return lambda vs: b"".join([head + payload(v) for v in vs])
            packed = pw.tag(number, 2)
            return lambda vs: (
                packed + pw.varint(len(b := b"".join([payload(v) for v in vs]))) + b if vs else b""
            )
        if kind.optional:  # explicit presence: written even when it is the zero value
            return lambda v: b"" if v is None else head + payload(v)
        if base is str:
            return lambda v: head + payload(v) if v else b""
        if isinstance(base, type) and issubclass(base, enum.Enum):
            return lambda v: head + payload(v)  # never the UNSPECIFIED zero
        return lambda v: head + payload(v) if v else b""

    def _remembered(self, encode: Encoder) -> Encoder:
        """``encode``, remembering its result by the identity of the (immutable) value."""
        memo = self._memo

        def remembered(value: Any) -> bytes:
            key = id(value)
            hit = memo.get(key)
            if hit is not None and hit[0] is value:
                return hit[1]
            data = encode(value)
            if len(memo) >= _MEMO_LIMIT:
                memo.clear()
            memo[key] = (value, data)  # holding the value keeps its id from being reused
            return data

        return remembered

    def _nested(self, cls: type) -> Encoder:
        encoders = self._encoders
        if all(not dataclasses.is_dataclass(kind.base) for _, kind in fields_of(cls)):
            return self._leaf(cls)
        return self._remembered(lambda value: encoders[type(value)](value))

    def _leaf(self, cls: type) -> Encoder:
        """A message of scalars only: remembered by value (hashing a few scalars is cheaper
        than encoding them, and equal leaves recur across versions as new objects)."""
        encoders = self._encoders
        memo: dict[Any, bytes] = {}

        def encode(value: Any) -> bytes:
            data = memo.get(value)
            if data is None:
                if len(memo) >= _MEMO_LIMIT:
                    memo.clear()
                data = memo[value] = encoders[type(value)](value)
            return data

        return encode

    def encode(self, value: Any) -> bytes:
        """The message bytes of a dataclass value (a view, a move, a part of one)."""
        return self._encoders[type(value)](value)

    # -- decoding --------------------------------------------------------------------------

    def decode(self, cls: type, message: Message) -> Any:
        """The dataclass value of a message (MalformedMoveError for unknown enum values)."""
        values: dict[str, Any] = {}
        for name, kind in fields_of(cls):
            raw = getattr(message, name)
            if kind.repeated:
                values[name] = tuple(self._value(kind, item) for item in raw)
            elif kind.optional and not message.HasField(name):
                values[name] = None
            else:
                values[name] = self._value(kind, raw)
        return cls(**values)

    def _value(self, kind: FieldType, raw: Any) -> Any:
        base = kind.base
        if dataclasses.is_dataclass(base):
            return self.decode(base, raw)  # type: ignore[arg-type]
        if isinstance(base, type) and issubclass(base, enum.Enum):
            member = self._enum_from[base].get(raw)
            if member is None:
                raise MalformedMoveError(f"{raw} is not a {base.__name__} of this game")
            return member
        return base(raw)

    # -- the GameWire ----------------------------------------------------------------------

    def wire(self, game_id: str, arm: str) -> GameWire[Any, Any]:
        move_arm = pb.Move.DESCRIPTOR.fields_by_name[arm].number
        view_arm = pb.View.DESCRIPTOR.fields_by_name[arm].number
        move_message = self.message(f"{self.prefix}Move")

        def move_to_bytes(move: Any) -> bytes:
            _, number = self._arms[type(move)]
            return pw.message_field(move_arm, pw.message_field(number, self.encode(move)))

        def move_to_proto(move: Any) -> pb.Move:
            return pb.Move.FromString(move_to_bytes(move))

        def move_from_proto(message: Any) -> Any:
            if not isinstance(message, move_message):
                raise MalformedMoveError(f"not a {move_message.DESCRIPTOR.full_name}")
            arm_name = message.WhichOneof("kind")
            if arm_name is None:
                raise MalformedMoveError("the move names no kind")
            cls = self._by_arm[arm_name]
            move = self.decode(cls, getattr(message, arm_name))
            try:
                canonical = self.parse_move(move.key) == move
            except (MalformedMoveError, ValueError, KeyError, IndexError, TypeError):
                canonical = False
            if not canonical:
                raise MalformedMoveError("no move of this game has that shape")
            return move

        encode_view = self._remembered(self.encode)

        def view_to_bytes(view: Any) -> bytes:
            return pw.message_field(view_arm, encode_view(view))

        def view_to_proto(view: Any) -> pb.View:
            return pb.View.FromString(view_to_bytes(view))

        return GameWire(
            game_id=game_id,
            arm=arm,
            move_to_proto=move_to_proto,
            move_from_proto=move_from_proto,
            view_to_proto=view_to_proto,
            view_to_bytes=view_to_bytes,
        )

"""The table-driven wire (tribes.wire.auto) over every game that uses it.

On sampled states of seeded random games: every legal move survives proto and back, the
serialized view parses as ``tribes.v1.View`` and decodes back to the rules' view, and the
byte encoder agrees with protobuf's own serializer. Malformed typed moves are refused.
The committed .proto of each such game is what the generator writes today.
"""

from __future__ import annotations

import dataclasses
import enum
import importlib
import pathlib
import random
import typing
from typing import Any

import pytest

from tribes.core.catalog import build_catalog
from tribes.engine import SPECTATOR, IllegalMoveError, MalformedMoveError, driver
from tribes.engine.driver import new_game
from tribes.v1 import common_pb2 as pb
from tribes.wire import protogen
from tribes.wire.auto import AutoWire

ROOT = pathlib.Path(__file__).resolve().parents[2]
GAMES = {
    "tribes_early_civilization": "TribesEarlyCivilization",
    "rise_of_tribes": "RiseOfTribes",
}
CATALOG = {entry.game.id: entry for entry in build_catalog()}


def _table(game_id: str) -> AutoWire:
    return importlib.import_module(f"tribes.wire.{game_id}").TABLE  # type: ignore[no-any-return]


def _states(game_id: str, seats: int, seed: int, every: int = 29) -> list[Any]:
    game = CATALOG[game_id].game
    rng = random.Random(seed)
    state = new_game(game, seats, {}, seed)
    out = [state]
    for step in range(2000):
        if game.result(state) is not None:
            break
        seat = rng.choice(game.to_act(state))
        state = game.apply(state, seat, rng.choice(game.legal_moves(state, seat)))
        if step % every == 0:
            out.append(state)
    out.append(state)
    return out


def _message_bytes(table: AutoWire, value: Any) -> bytes:
    """The oracle: the same value built with protobuf's message API and serialized."""

    def build(obj: Any) -> Any:
        cls = table.message(table.prefix + type(obj).__name__)
        kwargs: dict[str, Any] = {}
        for field in dataclasses.fields(obj):
            raw = getattr(obj, field.name)
            if raw is None:
                continue
            if isinstance(raw, tuple):
                kwargs[field.name] = [_convert(table, item, build) for item in raw]
            else:
                kwargs[field.name] = _convert(table, raw, build)
        return cls(**kwargs)

    return bytes(build(value).SerializeToString())


def _convert(table: AutoWire, raw: Any, build: Any) -> Any:
    if dataclasses.is_dataclass(raw):
        return build(raw)
    if isinstance(raw, enum.Enum):
        return table._enum_to[type(raw)][raw]
    return raw


CASES = [(g, n) for g in GAMES for n in CATALOG[g].game.seat_counts]


@pytest.mark.parametrize(("game_id", "seats"), CASES, ids=[f"{g}-{n}p" for g, n in CASES])
def test_moves_and_views_round_trip(game_id: str, seats: int) -> None:
    """Every legal move and every viewer's view of sampled states, through the wire and back."""
    entry, table = CATALOG[game_id], _table(game_id)
    game, wire = entry.game, entry.wire
    view_type = typing.get_type_hints(game.view)["return"]
    for state in _states(game_id, seats, seed=seats * 11):
        for seat in game.to_act(state):
            for move in game.legal_moves(state, seat):
                proto = wire.move_to_proto(move)
                assert proto.WhichOneof("game") == wire.arm
                assert wire.move_from_proto(getattr(proto, wire.arm)) == move
        for viewer in (SPECTATOR, *range(seats)):
            view = game.view(state, viewer)
            data = wire.view_to_bytes(view)  # type: ignore[misc]
            parsed = pb.View.FromString(data)
            assert parsed.WhichOneof("game") == wire.arm
            assert table.decode(view_type, getattr(parsed, wire.arm)) == view
            assert data == pb.View.FromString(data).SerializeToString()
            assert getattr(parsed, wire.arm).SerializeToString() == _message_bytes(table, view)


@pytest.mark.parametrize("game_id", GAMES)
def test_malformed_typed_moves_are_refused(game_id: str) -> None:
    """No kind, an unknown enum value or a foreign message is MALFORMED; a coordinate far
    off the board is refused too (malformed or illegal, as the game's parser decides)."""
    entry, table = CATALOG[game_id], _table(game_id)
    wire = entry.wire
    move_message = table.message(f"{table.prefix}Move")
    with pytest.raises(MalformedMoveError):
        wire.move_from_proto(move_message())
    with pytest.raises(MalformedMoveError):
        wire.move_from_proto(pb.GameSnapshot())
    state = new_game(entry.game, entry.game.seat_counts[0], {}, 1)
    seat = entry.game.to_act(state)[0]
    move = entry.game.legal_moves(state, seat)[0]
    proto = getattr(wire.move_to_proto(move), wire.arm)
    arm = proto.WhichOneof("kind")
    inner = getattr(proto, arm)
    for field in inner.DESCRIPTOR.fields:
        if field.enum_type is not None and not field.is_repeated:
            bad = move_message()
            bad.CopyFrom(proto)
            setattr(getattr(bad, arm), field.name, 999)
            with pytest.raises(MalformedMoveError):
                wire.move_from_proto(bad)
        if field.message_type is not None and not field.is_repeated:
            sub = field.message_type
            number = next((f for f in sub.fields if f.type == f.TYPE_INT32), None)
            if number is not None:
                bad = move_message()
                bad.CopyFrom(proto)
                setattr(getattr(getattr(bad, arm), field.name), number.name, 10**6)
                with pytest.raises((MalformedMoveError, IllegalMoveError)):
                    # refused as a shape no move has, or as a move the rules forbid
                    driver.play(entry.game, state, seat, wire.move_from_proto(bad))


@pytest.mark.parametrize("game_id", GAMES)
def test_the_committed_proto_is_what_the_generator_writes(game_id: str) -> None:
    """Change a game's dataclasses and forget `make game-protos`: this fails."""
    path = ROOT / "protos" / "tribes" / "v1" / f"{game_id}.proto"
    rendered = protogen.render_game(f"tribes.games.{game_id}", GAMES[game_id], path)
    assert rendered == path.read_text()


def test_regenerating_keeps_numbers_and_appends_new_fields() -> None:
    """A new field takes the next free number; existing fields keep theirs."""

    @dataclasses.dataclass(frozen=True)
    class View:
        b: int
        a: str

    @dataclasses.dataclass(frozen=True)
    class Go:
        @property
        def key(self) -> str:
            return "go"

    first = protogen.Generator("T").render("T", [Go], View)
    assert "int32 b = 1;" in first and "string a = 2;" in first

    @dataclasses.dataclass(frozen=True)
    class View2:  # a field inserted first, another appended
        c: bool
        b: int
        a: str

    View2.__name__ = "View"
    second = protogen.Generator("T").render("T", [Go], View2, existing=first)
    assert "int32 b = 1;" in second and "string a = 2;" in second and "bool c = 3;" in second


def test_a_renamed_field_fails_when_the_wire_is_built() -> None:
    """The table checks every name against the descriptors at import."""
    game_id = "tribes_early_civilization"
    table = _table(game_id)

    @dataclasses.dataclass(frozen=True)
    class View:
        no_such_field: int

    with pytest.raises(TypeError, match="no field no_such_field"):
        AutoWire(
            prefix=table.prefix,
            module=table.module,
            move_types=table.move_types,
            view_type=View,
            parse_move=table.parse_move,
        )

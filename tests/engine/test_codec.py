"""The generic state codec: exact round trips, determinism, clear errors."""

from __future__ import annotations

import enum
import json
from dataclasses import dataclass, replace

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tribes.engine.codec import CodecError, StateCodec


class Colour(enum.Enum):
    RED = "R"
    BLUE = "B"


class Size(enum.IntEnum):
    SMALL = 1
    LARGE = 2


@dataclass(frozen=True, slots=True)
class Piece:
    colour: Colour
    size: Size


@dataclass(frozen=True, slots=True)
class Board:
    name: str
    cells: tuple[Piece | None, ...]
    counts: dict[str, int]
    seen: frozenset[int]
    pair: tuple[int, str]
    nested: tuple[tuple[int, ...], ...]
    ratio: float
    flag: bool
    maybe: int | None


def _board() -> Board:
    return Board(
        name="ü-board",
        cells=(Piece(Colour.RED, Size.LARGE), None, Piece(Colour.BLUE, Size.SMALL)),
        counts={"b": 2, "a": 1},
        seen=frozenset({5, 1, 3}),
        pair=(7, "x"),
        nested=((1, 2), (), (3,)),
        ratio=0.5,
        flag=True,
        maybe=None,
    )


def test_round_trip_is_exact() -> None:
    """Every supported field type comes back equal and with its own type."""
    codec = StateCodec(Board)
    board = _board()
    back = codec.decode(codec.encode(board))
    assert back == board
    assert isinstance(back.cells[0].colour, Colour) and isinstance(back.cells, tuple)
    assert isinstance(back.seen, frozenset)


def test_encoding_is_deterministic_for_sets_and_dicts() -> None:
    """Equal states encode to equal bytes whatever the insertion order."""
    codec = StateCodec(Board)
    one = _board()
    two = Board(**{**_as_kwargs(one), "counts": {"a": 1, "b": 2}, "seen": frozenset({3, 1, 5})})
    assert codec.encode(one) == codec.encode(two)


def _as_kwargs(board: Board) -> dict[str, object]:
    return {name: getattr(board, name) for name in Board.__dataclass_fields__}


def test_layout_version_mismatch_is_refused() -> None:
    """A state written by another layout version is not silently misread."""
    blob = StateCodec(Board, version=1).encode(_board())
    with pytest.raises(CodecError, match="layout version 1, expected 2"):
        StateCodec(Board, version=2).decode(blob)


def test_garbage_is_a_codec_error() -> None:
    """Corrupt bytes raise CodecError, not an arbitrary exception."""
    codec = StateCodec(Board)
    with pytest.raises(CodecError):
        codec.decode(b"not json")
    with pytest.raises(CodecError):
        codec.decode(b"[1, [1, 2]]")


def test_unsupported_field_type_fails_at_construction() -> None:
    """A state type the codec cannot store is reported when the game is defined."""

    @dataclass(frozen=True)
    class Bad:
        items: list[int]

    with pytest.raises(TypeError, match="cannot store"):
        StateCodec(Bad)


def test_remembered_parts_give_the_bytes_of_a_fresh_encoding() -> None:
    """Consecutive states that share, grow and replace parts (tuples one element longer,
    a field replaced, the same state twice) encode with one long-lived codec to exactly
    the bytes a fresh codec gives, and to json.dumps' compact form of the same data."""
    kept = StateCodec(Board)
    board = _board()
    pieces = [Piece(Colour.RED, Size.SMALL), None, Piece(Colour.BLUE, Size.LARGE)]
    for step in range(12):
        if step % 3 == 0:
            board = replace(board, cells=(*board.cells, pieces[step % len(pieces)]))
        elif step % 3 == 1:
            board = replace(board, nested=((*board.nested[0], step), *board.nested[1:]))
        else:
            board = replace(board, name=f"b{step}", maybe=step)
        for _ in range(2):  # the same state twice in a row
            blob = kept.encode(board)
            assert blob == StateCodec(Board).encode(board)
            parsed = json.loads(blob)
            assert blob == json.dumps(parsed, separators=(",", ":"), ensure_ascii=False).encode()
            assert kept.decode(blob) == board


@dataclass(frozen=True, slots=True)
class Tally:
    flat: tuple[int, ...]
    rows: tuple[tuple[int, ...], ...]
    names: tuple[str, ...]


@given(
    flat=st.lists(st.integers(-(2**70), 2**70) | st.integers(-2, 1100), max_size=30),
    rows=st.lists(st.lists(st.integers(-5, 2000), max_size=8), max_size=5),
    names=st.lists(st.text(max_size=5), max_size=4),
)
def test_int_tuples_are_written_as_the_json_encoder_writes_them(
    flat: list[int], rows: list[list[int]], names: list[str]
) -> None:
    """Tuples of ints (at the root and as elements) are written from a table of small
    ints' texts: the bytes are json.dumps' for any int, negative and huge ones too."""
    tally = Tally(tuple(flat), tuple(tuple(r) for r in rows), tuple(names))
    blob = StateCodec(Tally).encode(tally)
    expected = json.dumps([1, [flat, rows, names]], separators=(",", ":"), ensure_ascii=False)
    assert blob == expected.encode()
    assert StateCodec(Tally).decode(blob) == tally


def test_a_bool_in_an_int_tuple_is_still_written_as_json_writes_it() -> None:
    """An element that is not an int (a bool is an int subclass) takes the encoder's
    path, so the bytes stay json.dumps' (``true``, not ``1``)."""
    blob = StateCodec(Tally).encode(Tally((1, True), ((False, 2),), ()))  # type: ignore[arg-type]
    assert blob == b"[1,[[1,true],[[false,2]],[]]]"

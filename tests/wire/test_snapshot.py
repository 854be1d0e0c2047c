"""The byte-level snapshot writer against snapshots built with the protobuf API."""

from __future__ import annotations

import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tests.support.server import catalog_with_example_game
from tribes.core.catalog import Entry
from tribes.core.records import GameMeta
from tribes.core.snapshots import SnapshotWriter, create_response
from tribes.engine import SPECTATOR
from tribes.engine.driver import new_game
from tribes.v1 import common_pb2 as pb
from tribes.v1 import game_service_pb2 as spb
from tribes.wire import protowire as pw

CATALOG = catalog_with_example_game()


def _expected(
    entry: Entry, meta: GameMeta, version: int, state: object, viewer: int
) -> pb.GameSnapshot:
    """The snapshot as the protobuf API builds it: the oracle for the writer."""
    game, wire = entry.game, entry.wire
    result = game.result(state)
    snap = pb.GameSnapshot(
        name="games/g123",
        game_type=game.id,
        version=version,
        finished=result is not None,
        to_act=game.to_act(state),
        viewer_seat=viewer,
        view=wire.view_to_proto(game.view(state, viewer)),
        seat_count=meta.seat_count,
        options=dict(meta.options),
        seats=[
            pb.SeatInfo(seat=i, player_name=s.name, open=s.open, bot=s.bot, resigned=s.resigned)
            for i, s in enumerate(meta.first_record.seats)
        ],
        listed=meta.first_record.listed,
    )
    if result is None:
        snap.scores.extend(game.scores(state, viewer))
    else:
        snap.scores.extend(result.scores)
        snap.result.CopyFrom(
            pb.Result(
                scores=result.scores,
                ranks=result.ranks,
                winners=result.winners,
                summary=result.summary,
            )
        )
    if viewer in game.to_act(state):
        for move in game.legal_moves(state, viewer):
            snap.legal_moves.add(
                id=move.key, description=game.describe(state, move), move=wire.move_to_proto(move)
            )
    return snap


@pytest.mark.parametrize("game_id", ["goofspiel", "five_tribes", "fate_of_akalon"])
def test_writer_matches_the_protobuf_api(game_id: str) -> None:
    """Every field of written snapshots equals the protobuf-built one, for every viewer."""
    entry = CATALOG.get(game_id)
    game = entry.game
    seats = game.seat_counts[-1]
    meta = GameMeta(game_id, seats, tuple(sorted(game.resolve_options({}).items())), 1, "s", 0)
    writer = SnapshotWriter()
    rng = random.Random(3)
    state = new_game(game, seats, {}, 3)
    checked = 0
    for step in range(2000):
        if step % 7 == 0 or game.result(state) is not None:
            for viewer in (SPECTATOR, *range(seats)):
                legal = game.legal_moves(state, viewer) if viewer in game.to_act(state) else ()
                core = writer.snapshot(entry, "g123", meta, step + 1, state, viewer, legal)
                tail = writer.seats_tail(meta.first_record, [(False, 0)] * seats, 0)
                assert pb.GameSnapshot.FromString(core + tail) == _expected(
                    entry, meta, step + 1, state, viewer
                )
                again = writer.snapshot(entry, "g123", meta, step + 1, state, viewer, legal)
                assert again == core
                checked += 1
        if game.result(state) is not None:
            break
        seat = rng.choice(game.to_act(state))
        state = game.apply(state, seat, rng.choice(list(game.legal_moves(state, seat))))
    assert game.result(state) is not None and checked > 10


def test_create_response_carries_snapshot_and_tokens() -> None:
    """CreateGameResponse bytes parse back to the snapshot and the tokens in order."""
    snapshot = pb.GameSnapshot(name="games/x", version=1, viewer_seat=-1)
    parsed = spb.CreateGameResponse.FromString(
        create_response(snapshot.SerializeToString(), ["0.a", "1.b"])
    )
    assert parsed.game == snapshot and list(parsed.seat_tokens) == ["0.a", "1.b"]


@pytest.mark.parametrize("value", [0, 1, 127, 128, 300, 2**32, 2**63 - 1, -1, -(2**31)])
def test_varints_match_protobuf(value: int) -> None:
    """Our varints are protobuf's: an int64 field written by hand parses back."""
    parsed = pb.Result.FromString(pw.packed_field(1, [value]))
    assert list(parsed.scores) == [value]
    if -(2**31) <= value < 2**31:  # viewer_seat is an int32
        assert pb.GameSnapshot.FromString(pw.uint_field(6, value)).viewer_seat == value


@given(
    scores=st.lists(st.integers(-(2**63), 2**63 - 1), max_size=40)
    | st.lists(st.integers(0, 127), max_size=40),
    summary=st.text(max_size=300),
    field=st.sampled_from([1, 15, 16, 2047, 2048, 100_000]),
)
def test_hand_written_fields_are_protobufs_bytes(
    scores: list[int], summary: str, field: int
) -> None:
    """The short paths (one-byte packed elements, table tags and lengths) write exactly
    protobuf's bytes, and fields past the tag table the same bytes as the long path."""
    expected = pb.Result(scores=scores, summary=summary).SerializeToString()
    assert pw.packed_field(1, scores) + pw.string_field(4, summary) == expected
    assert pw.packed_field(1, iter(scores)) == pw.packed_field(1, tuple(scores))
    body = summary.encode()
    assert pw.message_field(field, body) == pw.tag(field, 2) + pw.varint(len(body)) + body
    for value in (0, 1, 127, 128, 16383, 16384, 2**40):
        long = pw.tag(field, 0) + pw.varint(value) if value else b""
        assert pw.uint_field(field, value) == long

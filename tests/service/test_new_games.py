"""Tribes: Early Civilization and Rise of Tribes, whole games through a real server on
Redis by move ids only (a generic client knowing nothing of either game's moves)."""

from __future__ import annotations

import random

import pytest

from tests.support.server import bearer
from tribes.v1 import common_pb2 as pb
from tribes.v1 import game_service_pb2 as spb
from tribes.v1 import game_service_pb2_grpc as spb_grpc

Stub = spb_grpc.GameServiceStub


async def _play_by_ids(
    stub: Stub, game_type: str, seats: int, seed: int, options: dict[str, str] | None = None
) -> tuple[pb.GameSnapshot, list[str], str]:
    created = await stub.CreateGame(
        spb.CreateGameRequest(
            game_type=game_type, seat_count=seats, seed=seed, options=options or {}
        )
    )
    name, tokens = created.game.name, list(created.seat_tokens)
    assert created.game.view.WhichOneof("game") == game_type
    chooser = random.Random(seed)
    snap = created.game
    for _ in range(5000):
        if snap.finished:
            return snap, tokens, name
        seat = snap.to_act[0]
        mine = await stub.GetGame(spb.GetGameRequest(name=name), metadata=bearer(tokens[seat]))
        assert mine.viewer_seat == seat and mine.legal_moves
        check_view(game_type, mine)
        chosen = chooser.choice(list(mine.legal_moves))
        assert chosen.description and chosen.move.WhichOneof("game") == game_type
        snap = await stub.ApplyMove(
            spb.ApplyMoveRequest(name=name, move_id=chosen.id, expected_version=mine.version),
            metadata=bearer(tokens[seat]),
        )
        assert snap.version == mine.version + 1
    raise AssertionError("the game did not end")


def check_view(game_type: str, snap: pb.GameSnapshot) -> None:
    """Redaction as the specs' §6 say, seen through the wire."""
    if game_type == "tribes_early_civilization":
        view = snap.view.tribes_early_civilization
        for player in view.players:  # other seats' VP are hidden while the game runs
            assert player.HasField("vp") == (player.seat == snap.viewer_seat or snap.finished)
        assert not snap.scores or snap.finished


@pytest.mark.parametrize(("seats", "seed"), [(2, 3), (3, 4), (4, 5)])
async def test_tribes_early_civilization_plays_to_the_end(
    stub: Stub, seats: int, seed: int
) -> None:
    """A seeded game by move ids reaches its scored result; the log has every move."""
    final, _, name = await _play_by_ids(stub, "tribes_early_civilization", seats, seed)
    assert final.result.summary and len(final.result.ranks) == seats
    assert all(p.HasField("vp") for p in final.view.tribes_early_civilization.players)
    log = await stub.ListMoves(spb.ListMovesRequest(name=name, page_size=1000))
    assert len(log.moves) == min(final.version - 1, 1000)


@pytest.mark.parametrize(
    ("seats", "seed", "leaders"), [(2, 6, "off"), (3, 7, "house"), (4, 8, "off")]
)
async def test_rise_of_tribes_plays_to_a_winner_or_the_cap(
    stub: Stub, seats: int, seed: int, leaders: str
) -> None:
    """Every seat and a spectator see the same public game; it ends with a result."""
    final, tokens, name = await _play_by_ids(
        stub, "rise_of_tribes", seats, seed, {"leaders": leaders}
    )
    assert len(final.result.ranks) == seats and 1 in final.result.ranks
    assert final.options["leaders"] == leaders
    views = []
    for token in (None, *tokens):
        metadata = bearer(token) if token else None
        snap = await stub.GetGame(spb.GetGameRequest(name=name), metadata=metadata)
        views.append(snap.view.SerializeToString())
    assert len(set(views)) == 1, "every viewer sees the same public game"


async def test_bad_options_are_invalid_argument(stub: Stub) -> None:
    """An unknown leaders value is INVALID_ARGUMENT (BAD_OPTIONS) for each new game."""
    import grpc

    from tests.support.server import error_info

    for game_type, options in (
        ("rise_of_tribes", {"leaders": "kings"}),
        ("tribes_early_civilization", {"turn_cap": "0"}),
    ):
        with pytest.raises(grpc.aio.AioRpcError) as raised:
            await stub.CreateGame(
                spb.CreateGameRequest(game_type=game_type, seat_count=2, options=options)
            )
        assert raised.value.code() == grpc.StatusCode.INVALID_ARGUMENT
        assert error_info(raised.value).reason == "BAD_OPTIONS"

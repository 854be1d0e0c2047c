"""A whole Five Tribes game through a real server on Redis, by move ids and typed moves."""

from __future__ import annotations

import random

import grpc

from tests.service.helpers import fails, get
from tests.support.server import bearer
from tribes.v1 import common_pb2 as pb
from tribes.v1 import game_service_pb2 as spb
from tribes.v1 import game_service_pb2_grpc as spb_grpc

Stub = spb_grpc.GameServiceStub
SEATS = 3
SEED = 2015


def assert_gold_redacted(snap: pb.GameSnapshot) -> None:
    """The viewer sees its own gold and no opponent's (spec §6), until the game is over;
    running scores would reveal gold, so there are none before the end."""
    if not snap.finished:
        assert not snap.scores
    players = snap.view.five_tribes.players
    assert len(players) == SEATS
    for seat, player in enumerate(players):
        assert player.HasField("gold") == (snap.finished or seat == snap.viewer_seat)


async def test_a_three_player_game_plays_to_the_end(stub: Stub) -> None:
    """Legal move ids (and one typed move) carry a seeded game to a scored result."""
    created = await stub.CreateGame(
        spb.CreateGameRequest(game_type="five_tribes", seat_count=SEATS, seed=SEED)
    )
    name, tokens = created.game.name, list(created.seat_tokens)
    assert created.game.view.WhichOneof("game") == "five_tribes"
    assert all(not p.HasField("gold") for p in created.game.view.five_tribes.players)

    chooser = random.Random(SEED)
    (seat,) = created.game.to_act
    snap = await get(stub, name, tokens[seat])
    assert snap.version == 1 and snap.legal_moves
    typed_sent = False
    moves = 0
    while not snap.finished:
        assert snap.viewer_seat == seat and list(snap.to_act) == [seat]
        assert_gold_redacted(snap)
        chosen = chooser.choice(list(snap.legal_moves))
        request = spb.ApplyMoveRequest(name=name, expected_version=snap.version)
        if not typed_sent and chosen.move.five_tribes.WhichOneof("kind") == "drop":
            request.move.CopyFrom(chosen.move)  # once: the typed move, not its id
            typed_sent = True
        else:
            request.move_id = chosen.id
        after = await stub.ApplyMove(request, metadata=bearer(tokens[seat]))
        assert after.version == snap.version + 1
        moves += 1
        if after.finished or seat in after.to_act:
            snap = after
        else:
            (seat,) = after.to_act
            snap = await get(stub, name, tokens[seat])
            assert snap.version == after.version
    assert typed_sent and moves > 100

    final = await get(stub, name)  # a spectator
    assert final.finished and final.version == 1 + moves and not final.to_act
    assert list(final.result.scores) == list(final.scores)
    assert len(final.result.scores) == SEATS and min(final.result.ranks) == 1
    view = final.view.five_tribes
    assert list(view.final_scores) == list(final.scores)
    assert all(p.HasField("gold") for p in view.players)  # everyone's gold at the end


async def test_spectators_see_no_gold_and_illegal_typed_moves_are_refused(stub: Stub) -> None:
    """A spectator sees nobody's gold; a typed move of no kind is INVALID_ARGUMENT, a
    well-formed one the rules forbid now is FAILED_PRECONDITION."""
    created = await stub.CreateGame(
        spb.CreateGameRequest(game_type="five_tribes", seat_count=SEATS, seed=SEED)
    )
    name = created.game.name
    spectator = await get(stub, name)
    assert spectator.viewer_seat == -1 and not spectator.legal_moves
    assert not any(p.HasField("gold") for p in spectator.view.five_tribes.players)

    (seat,) = created.game.to_act
    token = created.seat_tokens[seat]
    empty = pb.Move()
    empty.five_tribes.SetInParent()
    code, reason, _ = await fails(
        stub.ApplyMove(spb.ApplyMoveRequest(name=name, move=empty), metadata=bearer(token))
    )
    assert (code, reason) == (grpc.StatusCode.INVALID_ARGUMENT, "MALFORMED_MOVE")
    end_turn = pb.Move()
    end_turn.five_tribes.end_turn.SetInParent()  # the game starts with bids
    code, reason, _ = await fails(
        stub.ApplyMove(spb.ApplyMoveRequest(name=name, move=end_turn), metadata=bearer(token))
    )
    assert (code, reason) == (grpc.StatusCode.FAILED_PRECONDITION, "ILLEGAL_MOVE")
    assert (await get(stub, name)).version == 1

"""Fate of Akalon: Tribes played whole through a real server on a real Redis."""

from __future__ import annotations

import random

import grpc
import pytest

from tests.service.helpers import fails, get
from tests.support.server import bearer
from tribes.engine import driver
from tribes.games.fate_of_akalon import GAME
from tribes.v1 import common_pb2 as pb
from tribes.v1 import fate_of_akalon_pb2 as fpb
from tribes.v1 import game_service_pb2 as spb
from tribes.v1 import game_service_pb2_grpc as spb_grpc

Stub = spb_grpc.GameServiceStub


async def create(stub: Stub, seats: int, factions: str, seed: int) -> spb.CreateGameResponse:
    response: spb.CreateGameResponse = await stub.CreateGame(
        spb.CreateGameRequest(
            game_type="fate_of_akalon",
            seat_count=seats,
            options={"factions": factions},
            seed=seed,
        )
    )
    return response


def hidden_moves(seats: int, factions: str, seed: int, played: list[tuple[int, str]]) -> set[int]:
    """Indices of the moves other seats may not see, by replaying the rules locally."""
    state = driver.new_game(GAME, seats, {"factions": factions}, seed)
    hidden = set()
    for index, (seat, move_id) in enumerate(played):
        move = driver.find_move(GAME, state, seat, move_id)
        if GAME.public_move(state, seat, move) is None:
            hidden.add(index)
        state = driver.play(GAME, state, seat, move)
    return hidden


@pytest.mark.parametrize(
    ("seats", "factions"), [(2, "elf,orc"), (4, "orc,elf,undead,dwarf")], ids=["2p", "4p"]
)
async def test_a_whole_game_by_move_ids(stub: Stub, seats: int, factions: str) -> None:
    """Seats play to the end from their legal move ids; the log hides face-down hand choices."""
    seed = 1
    created = await create(stub, seats, factions, seed)
    name, tokens = created.game.name, list(created.seat_tokens)
    spectator = created.game
    assert spectator.view.WhichOneof("game") == "fate_of_akalon"
    assert dict(spectator.options) == {"factions": factions}
    assert [p.hand_size for p in spectator.view.fate_of_akalon.players] == [0] * seats
    chooser = random.Random(seed)
    played: list[tuple[int, str]] = []
    version = spectator.version
    seat = spectator.to_act[0]
    snap = await get(stub, name, tokens[seat])
    while not snap.finished:
        assert list(snap.to_act) == [seat] and snap.viewer_seat == seat
        view = snap.view.fate_of_akalon
        assert view.pending.actor == seat
        assert list(view.pending.options) == [m.id for m in snap.legal_moves]
        chosen = chooser.choice(list(snap.legal_moves))
        if not played:  # the first move goes typed, the rest by id
            request = spb.ApplyMoveRequest(name=name, expected_version=version, move=chosen.move)
        else:
            request = spb.ApplyMoveRequest(name=name, expected_version=version, move_id=chosen.id)
        snap = await stub.ApplyMove(request, metadata=bearer(tokens[seat]))
        assert snap.version == version + 1
        version = snap.version
        played.append((seat, chosen.id))
        if not snap.finished and list(snap.to_act) != [seat]:
            seat = snap.to_act[0]
            snap = await get(stub, name, tokens[seat])
    assert snap.HasField("result") and snap.result.summary
    assert len(snap.scores) == seats
    final = await get(stub, name)
    view = final.view.fate_of_akalon
    assert final.finished and not final.to_act and not final.legal_moves
    assert view.phase == fpb.FATE_OF_AKALON_PHASE_OVER and view.HasField("result")
    assert list(final.result.scores) == [p.cemetery_value for p in view.players]
    assert list(view.result.winners) == list(final.result.winners)
    assert all(not p.hand for p in view.players)

    hidden = hidden_moves(seats, factions, seed, played)
    assert hidden, "the seed should include a face-down hand choice (Elf Knight)"
    for viewer in (-1, *range(seats)):
        log = await stub.ListMoves(
            spb.ListMovesRequest(name=name, page_size=1000),
            metadata=bearer(tokens[viewer]) if viewer >= 0 else None,
        )
        assert [r.version for r in log.moves] == list(range(2, version + 1))
        for index, record in enumerate(log.moves):
            seat, move_id = played[index]
            assert record.seat == seat
            if index in hidden and viewer != seat:
                assert record.hidden and not record.move_id and not record.HasField("move")
            else:
                assert not record.hidden and record.move_id == move_id
                assert record.move.WhichOneof("game") == "fate_of_akalon"


async def test_typed_moves_are_checked(stub: Stub) -> None:
    """A malformed typed move is INVALID_ARGUMENT; a well-formed illegal one FAILED_PRECONDITION."""
    created = await create(stub, 2, "dwarf,undead", 4)
    seat = created.game.to_act[0]
    metadata = bearer(created.seat_tokens[seat])
    bad = pb.Move(
        fate_of_akalon=fpb.FateOfAkalonMove(play_card=fpb.FateOfAkalonPlayCard(card="goblin"))
    )
    empty = pb.Move(fate_of_akalon=fpb.FateOfAkalonMove())
    for move in (bad, empty):
        code, reason, _ = await fails(
            stub.ApplyMove(
                spb.ApplyMoveRequest(name=created.game.name, move=move), metadata=metadata
            )
        )
        assert (code, reason) == (grpc.StatusCode.INVALID_ARGUMENT, "MALFORMED_MOVE")
    illegal = pb.Move(fate_of_akalon=fpb.FateOfAkalonMove(decline=fpb.FateOfAkalonDecline()))
    code, reason, _ = await fails(
        stub.ApplyMove(
            spb.ApplyMoveRequest(name=created.game.name, move=illegal), metadata=metadata
        )
    )
    assert (code, reason) == (grpc.StatusCode.FAILED_PRECONDITION, "ILLEGAL_MOVE")


@pytest.mark.parametrize("factions", ["elf,goblin", "elf,elf", "elf", "auto,orc"])
async def test_bad_factions_are_bad_options(stub: Stub, factions: str) -> None:
    """An unknown, duplicate or missing faction answers INVALID_ARGUMENT / BAD_OPTIONS."""
    code, reason, _ = await fails(create(stub, 2, factions, 1))
    assert (code, reason) == (grpc.StatusCode.INVALID_ARGUMENT, "BAD_OPTIONS")


async def test_listed_with_its_factions_option(stub: Stub) -> None:
    """ListGameTypes shows the game, its seat counts and the factions option's default."""
    response = await stub.ListGameTypes(spb.ListGameTypesRequest())
    (akalon,) = [t for t in response.game_types if t.id == "fate_of_akalon"]
    assert list(akalon.seat_counts) == [2, 3, 4]
    assert [(o.name, o.default_value) for o in akalon.options] == [("factions", "auto")]

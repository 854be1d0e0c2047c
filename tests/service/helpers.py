"""Small helpers shared by the service tests."""

from __future__ import annotations

from dataclasses import dataclass

import grpc
import redis

from tests.games.goofspiel import goofspiel_pb2 as gpb
from tests.support.server import bearer, error_info
from tribes.v1 import common_pb2 as pb
from tribes.v1 import game_service_pb2 as spb
from tribes.v1 import game_service_pb2_grpc as spb_grpc


@dataclass
class Created:
    name: str
    tokens: list[str]
    snapshot: pb.GameSnapshot

    @property
    def game_id(self) -> str:
        return self.name.removeprefix("games/")


async def create(
    stub: spb_grpc.GameServiceStub,
    seats: int = 2,
    cards: str = "3",
    seed: int | None = 5,
    **kw: str,
) -> Created:
    request = spb.CreateGameRequest(
        game_type="goofspiel", seat_count=seats, options={"cards": cards}, **kw
    )
    if seed is not None:
        request.seed = seed
    response = await stub.CreateGame(request)
    return Created(response.game.name, list(response.seat_tokens), response.game)


async def get(
    stub: spb_grpc.GameServiceStub, name: str, token: str | None = None
) -> pb.GameSnapshot:
    metadata = bearer(token) if token else None
    return await stub.GetGame(spb.GetGameRequest(name=name), metadata=metadata)


async def move(
    stub: spb_grpc.GameServiceStub,
    name: str,
    token: str,
    move_id: str,
    expected: int = 0,
    request_id: str = "",
) -> pb.GameSnapshot:
    return await stub.ApplyMove(
        spb.ApplyMoveRequest(
            name=name, move_id=move_id, expected_version=expected, request_id=request_id
        ),
        metadata=bearer(token),
    )


async def fails(awaitable: object) -> tuple[grpc.StatusCode, str, dict[str, str]]:
    """(code, reason, metadata) of a call that must fail."""
    try:
        await awaitable  # type: ignore[misc]
    except grpc.aio.AioRpcError as err:
        info = error_info(err)
        return err.code(), info.reason, dict(info.metadata)
    raise AssertionError("the call succeeded")


def stored(redis_url: str, prefix: str, game_id: str) -> tuple[bytes, bytes, int]:
    """(version, state, log length) straight from Redis, bypassing the service."""
    client = redis.Redis.from_url(redis_url)
    try:
        version, state = client.hmget(f"{prefix}:{{{game_id}}}", "v", "s")
        length = client.llen(f"{prefix}:{{{game_id}}}:log")
        return version, state, int(length)
    finally:
        client.close()


def goofspiel_view(snapshot: pb.GameSnapshot) -> gpb.GoofspielView:
    """The test game's view, unpacked from the snapshot's plugin arm."""
    view = gpb.GoofspielView()
    assert snapshot.view.plugin.Unpack(view), snapshot.view
    return view


def goofspiel_move(move: pb.Move) -> gpb.GoofspielMove:
    """The test game's typed move, unpacked from a Move's plugin arm."""
    out = gpb.GoofspielMove()
    assert move.plugin.Unpack(out), move
    return out

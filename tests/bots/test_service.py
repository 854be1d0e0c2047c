"""Bots through the service: SuggestMove over gRPC and REST, and bot seats playing whole
games with a person, in one process and across two (README "Bots")."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator

import aiohttp
import grpc
import pytest

from tests.support.http import call, reason
from tests.support.server import bearer, error_info, running_app, server_process
from tribes.core import limits
from tribes.server import App
from tribes.store.memory import MemoryStore
from tribes.v1 import game_service_pb2 as spb
from tribes.v1 import game_service_pb2_grpc as spb_grpc

Stub = spb_grpc.GameServiceStub


@contextlib.asynccontextmanager
async def served(**settings: object) -> AsyncIterator[tuple[App, Stub]]:
    overrides = {"bot_budget_ms": 20, "bot_max_budget_ms": 50, "sweep_interval": 0.02}
    async with running_app(MemoryStore(), **{**overrides, **settings}) as app:
        async with grpc.aio.insecure_channel(f"127.0.0.1:{app.port}") as channel:
            yield app, Stub(channel)


async def create(
    stub: Stub, game: str, seats: int, bots: dict[int, str], **options: str
) -> spb.CreateGameResponse:
    return await stub.CreateGame(
        spb.CreateGameRequest(game_type=game, seat_count=seats, options=options, bots=bots, seed=3)
    )


async def suggest(
    stub: Stub, name: str, token: str, bot: str = "", ms: int = 0
) -> spb.SuggestMoveResponse:
    return await stub.SuggestMove(
        spb.SuggestMoveRequest(name=name, bot=bot, budget_ms=ms), metadata=bearer(token)
    )


@pytest.mark.parametrize("bot", ["", "random", "greedy", "ismcts"])
async def test_suggest_move_answers_one_of_the_callers_legal_moves(bot: str) -> None:
    """SuggestMove: a legal move id with its description, for any kind or the default."""
    async with served() as (app, stub):
        created = await create(stub, "rise_of_tribes", 2, {})
        name, token = created.game.name, created.seat_tokens[created.game.to_act[0]]
        mine = await stub.GetGame(spb.GetGameRequest(name=name), metadata=bearer(token))
        answer = await suggest(stub, name, token, bot, 30)
        legal = {m.id: m.description for m in mine.legal_moves}
        assert answer.move_id in legal and answer.description == legal[answer.move_id]
        after = await stub.GetGame(spb.GetGameRequest(name=name))
        assert after.version == created.game.version, "a suggestion changes nothing"
        kind = bot or app.settings.bot_default
        labels = {"game": "rise_of_tribes", "bot": kind}
        assert app.metrics.registry.get_sample_value("tribes_bot_suggestions_total", labels) == 1


async def test_suggest_move_refusals() -> None:
    """No token, an unknown bot, a negative budget, a seat not to act: typed errors."""
    async with served() as (_, stub):
        created = await create(stub, "fate_of_akalon", 2, {})
        name = created.game.name
        actor = created.game.to_act[0]
        waiting = created.seat_tokens[1 - actor]
        cases = [
            (spb.SuggestMoveRequest(name=name), (), "UNAUTHENTICATED", "TOKEN_REQUIRED"),
            (
                spb.SuggestMoveRequest(name=name, bot="oracle"),
                bearer(waiting),
                "INVALID_ARGUMENT",
                "BAD_BOT",
            ),
            (
                spb.SuggestMoveRequest(name=name, budget_ms=-1),
                bearer(waiting),
                "INVALID_ARGUMENT",
                "BAD_BUDGET",
            ),
            (
                spb.SuggestMoveRequest(name=name),
                bearer(waiting),
                "FAILED_PRECONDITION",
                "NOT_YOUR_TURN",
            ),
            (spb.SuggestMoveRequest(name=name), bearer("x.y"), "PERMISSION_DENIED", "BAD_TOKEN"),
        ]
        for request, metadata, code, why in cases:
            with pytest.raises(grpc.aio.AioRpcError) as raised:
                await stub.SuggestMove(request, metadata=metadata)
            assert raised.value.code().name == code
            assert error_info(raised.value).reason == why


async def test_the_server_caps_the_budget() -> None:
    """A budget above the cap is served within the cap (iterations stay bounded)."""
    async with served(bot_max_budget_ms=1) as (_, stub):
        created = await create(stub, "tribes_early_civilization", 2, {})
        token = created.seat_tokens[created.game.to_act[0]]
        answer = await suggest(stub, created.game.name, token, "ismcts", 60_000)
        assert answer.move_id
    assert limits.bot_budget(60_000, 20, 50) == 50 and limits.bot_budget(0, 20, 50) == 20
    assert limits.bot_budget(30, 20, 50) == 30


async def test_suggest_move_over_rest(app: App) -> None:
    """POST /v1/games/{id}:suggestMove answers the same message as JSON; errors as Status."""
    async with aiohttp.ClientSession(f"http://127.0.0.1:{app.http_port}") as http:
        body = {"gameType": "five_tribes", "seatCount": 2, "seed": "4"}
        status, created = await call(http, "POST", "/v1/games", body)
        assert status == 200
        name = created["game"]["name"]
        token = created["seatTokens"][created["game"]["toAct"][0]]
        status, mine = await call(http, "GET", f"/v1/{name}", token=token)
        status, answer = await call(
            http, "POST", f"/v1/{name}:suggestMove", {"bot": "greedy", "budgetMs": 30}, token
        )
        assert status == 200, answer
        assert answer["moveId"] in {m["id"] for m in mine["legalMoves"]} and answer["description"]
        status, refused = await call(http, "POST", f"/v1/{name}:suggestMove", {"bot": "x"}, token)
        assert status == 400 and reason(refused) == "BAD_BOT"


async def _play_as_person(stub: Stub, name: str, token: str, seat: int, limit: float) -> int:
    """Seat ``seat`` takes SuggestMove's random advice whenever it is to act; its moves."""
    moves = 0
    deadline = asyncio.get_running_loop().time() + limit
    while True:
        snap = await stub.GetGame(spb.GetGameRequest(name=name), metadata=bearer(token))
        if snap.finished:
            return moves
        assert asyncio.get_running_loop().time() < deadline, f"stuck at version {snap.version}"
        if seat in snap.to_act:
            advice = await suggest(stub, name, token, "random")
            try:
                await stub.ApplyMove(
                    spb.ApplyMoveRequest(
                        name=name, move_id=advice.move_id, expected_version=snap.version
                    ),
                    metadata=bearer(token),
                )
                moves += 1
            except grpc.aio.AioRpcError as err:  # a bot moved in between: look again
                if err.code() != grpc.StatusCode.ABORTED:
                    raise
        else:
            await asyncio.sleep(0.01)


async def test_an_ismcts_seat_finishes_a_game_with_one_person() -> None:
    """Rise of Tribes, seat 1 played by ismcts, seat 0 by a person: the game ends."""
    async with served() as (app, stub):
        created = await create(stub, "rise_of_tribes", 2, {1: "ismcts"})
        assert created.game.seats[1].bot == "ismcts" and created.seat_tokens[1] == ""
        name = created.game.name
        mine = await _play_as_person(stub, name, created.seat_tokens[0], 0, 120)
        log = (await stub.ListMoves(spb.ListMovesRequest(name=name, page_size=1000))).moves
        assert mine == sum(1 for r in log if r.seat == 0) and any(r.seat == 1 for r in log)
        labels = {"game": "rise_of_tribes", "bot": "ismcts"}
        bot_moves = app.metrics.registry.get_sample_value("tribes_bot_moves_total", labels)
        assert bot_moves == sum(1 for r in log if r.seat == 1)


def test_bot_seats_across_two_processes_move_once_per_decision(
    redis_url: str, redis_prefix: str
) -> None:
    """Goofspiel with a person and greedy + ismcts seats on two servers: no double move."""
    env = {
        "REDIS_URL": redis_url,
        "TRIBES_REDIS_PREFIX": redis_prefix,
        "TRIBES_SWEEP_SECONDS": "0.02",
        "TRIBES_BOT_BUDGET_MS": "20",
    }

    async def run(a: str, b: str) -> None:
        async with grpc.aio.insecure_channel(a) as ca, grpc.aio.insecure_channel(b) as cb:
            created = await create(Stub(ca), "goofspiel", 3, {1: "ismcts", 2: "greedy"}, cards="8")
            name = created.game.name
            assert await _play_as_person(Stub(cb), name, created.seat_tokens[0], 0, 60) == 8
            log = (await Stub(ca).ListMoves(spb.ListMovesRequest(name=name, page_size=100))).moves
            assert sorted(r.seat for r in log) == sorted(list(range(3)) * 8)
            final = await Stub(ca).GetGame(spb.GetGameRequest(name=name))
            assert final.finished and final.version == 1 + 8 * 3

    with server_process(env) as a, server_process(env) as b:
        asyncio.run(run(a.target, b.target))

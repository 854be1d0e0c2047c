"""The Python client, async and sync, against real servers."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator

import grpc
import pytest

from tests.service.conftest import app  # noqa: F401  (the in-process server fixture)
from tests.support.server import ServerProcess, running_app, server_process
from tribes.server import App
from tribes.store.redis import RedisStore
from tribes_client import AsyncClient, Client, TribesError


@pytest.fixture
def process(redis_url: str, redis_prefix: str) -> Iterator[ServerProcess]:
    with server_process({"REDIS_URL": redis_url, "TRIBES_REDIS_PREFIX": redis_prefix}) as proc:
        yield proc


async def test_async_client_plays_and_reports_errors(app: App) -> None:  # noqa: F811
    """The async client creates, moves with the seat token, and raises TribesError."""
    async with AsyncClient(f"127.0.0.1:{app.port}") as client:
        types = {t.id for t in await client.list_game_types()}
        assert "goofspiel" in types
        game, tokens = await client.create_game("goofspiel", 2, {"cards": "3"}, seed=3)
        seat0 = client.with_token(tokens[0])
        snap = await seat0.get_game(game.name)
        after = await seat0.apply_move(
            game.name, move_id=snap.legal_moves[0].id, expected_version=1
        )
        assert after.version == 2 and after.viewer_seat == 0
        with pytest.raises(TribesError) as caught:
            await seat0.apply_move(game.name, move_id="bid:2")
        assert (caught.value.code, caught.value.reason) == (
            grpc.StatusCode.FAILED_PRECONDITION,
            "NOT_YOUR_TURN",
        )
        with pytest.raises(TribesError) as stale:
            await client.with_token(tokens[1]).apply_move(
                game.name, move_id="bid:1", expected_version=1
            )
        assert stale.value.reason == "STALE_VERSION" and stale.value.metadata == {
            "current_version": "2"
        }
        log = await seat0.list_moves(game.name, page_size=1)
        assert [r.move_id for r in log] == [snap.legal_moves[0].id]


async def test_async_client_request_id_makes_retries_safe(app: App) -> None:  # noqa: F811
    """Two sends with one request_id play the move once and answer alike."""
    async with AsyncClient(f"127.0.0.1:{app.port}") as client:
        game, tokens = await client.create_game("goofspiel", 2, {"cards": "5"})
        seat = client.with_token(tokens[0])
        first = await seat.apply_move(game.name, move_id="bid:5", request_id="same")
        second = await seat.apply_move(game.name, move_id="bid:5", request_id="same")
        assert first == second and first.version == 2


async def test_async_client_watch_with_presence_sees_a_seat_come(app: App) -> None:  # noqa: F811
    """``watch(presence=True)`` yields the version again when a seat opens a watch."""
    async with AsyncClient(f"127.0.0.1:{app.port}") as client:
        game, tokens = await client.create_game("goofspiel", 2, {"cards": "3"})
        spectator = client.watch(game.name, presence=True)
        first = await anext(spectator)
        seat = client.with_token(tokens[0]).watch(game.name)
        await anext(seat)
        async with asyncio.timeout(10):
            came = await anext(spectator)
        assert came.version == first.version
        assert [s.present for s in came.seats] == [True, False]
        await seat.aclose()
        await spectator.aclose()


async def test_async_client_gives_up_on_an_unreachable_server() -> None:
    """With no server, calls end in TribesError UNAVAILABLE after the retries."""
    async with AsyncClient("127.0.0.1:1", timeout=1, retries=1) as client:
        with pytest.raises(TribesError) as caught:
            await client.list_game_types()
    assert caught.value.code == grpc.StatusCode.UNAVAILABLE


def test_sync_client_plays_a_whole_game_and_watches(process: ServerProcess) -> None:
    """The sync wrapper plays a full game; its watch stream ends with the game."""
    with Client(process.target) as client:
        game, tokens = client.create_game("goofspiel", 2, {"cards": "3"})
        seats = [client.with_token(t) for t in tokens]
        snap = game
        while not snap.finished:
            for seat in list(snap.to_act):
                current = seats[seat].get_game(game.name)
                snap = seats[seat].apply_move(
                    game.name, move_id=current.legal_moves[-1].id, expected_version=current.version
                )
        versions = [s.version for s in client.watch(game.name)]
        assert versions == [7]
        assert snap.result.summary


async def test_async_client_watch_carries_on_across_a_server_restart(
    redis_url: str, redis_prefix: str
) -> None:
    """A watch its server ends as it stops (UNAVAILABLE, SERVER_SHUTTING_DOWN) is opened
    again on the server that takes the address after a while (the client's default
    retries), and goes on with the next version without yielding one twice."""
    async with running_app(RedisStore(redis_url, prefix=redis_prefix)) as first:
        async with AsyncClient(f"127.0.0.1:{first.port}") as client:
            game, tokens = await client.create_game("goofspiel", 2, {"cards": "3"})
            watch = client.watch(game.name)
            assert (await anext(watch)).version == 1
            waiting = asyncio.ensure_future(anext(watch))  # as `tribes watch` always is
            await first.stop(grace=0.5)
            await asyncio.sleep(1.5)  # the address serves nothing for a while
            async with running_app(RedisStore(redis_url, prefix=redis_prefix), port=first.port):
                await client.with_token(tokens[0]).apply_move(game.name, move_id="bid:1")
                async with asyncio.timeout(20):
                    assert (await waiting).version == 2
                await watch.aclose()

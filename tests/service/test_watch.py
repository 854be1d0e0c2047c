"""Watching: every version once, in order, even for a consumer that falls behind or
resumes (the core's watch_game, as every door uses it)."""

from __future__ import annotations

import contextlib

import pytest

from tests.support.server import running_app
from tribes.core.games import Caller
from tribes.store import Store
from tribes.store.memory import MemoryStore
from tribes.store.redis import RedisStore
from tribes.v1 import common_pb2 as pb
from tribes.v1 import game_service_pb2 as spb

SPECTATOR = Caller(None, "test")


@pytest.fixture(params=["redis", "memory"])
def store(request: pytest.FixtureRequest, redis_url: str) -> Store:
    if request.param == "redis":
        return RedisStore(redis_url, prefix=request.getfixturevalue("redis_prefix"))
    return MemoryStore()


async def _goofspiel(games: object, cards: int = 13) -> tuple[str, list[str]]:
    reply = spb.CreateGameResponse.FromString(
        await games.create_game(  # type: ignore[attr-defined]
            SPECTATOR,
            spb.CreateGameRequest(
                game_type="goofspiel", seat_count=2, options={"cards": str(cards)}, seed=3
            ),
        )
    )
    return reply.game.name, list(reply.seat_tokens)


async def _play_all(games: object, name: str, tokens: list[str], cards: int) -> None:
    for card in range(1, cards + 1):
        for token in tokens:
            await games.apply_move(  # type: ignore[attr-defined]
                Caller(token, "test"), spb.ApplyMoveRequest(name=name, move_id=f"bid:{card}")
            )


async def test_a_consumer_that_falls_behind_gets_every_version(store: Store) -> None:
    """26 moves land while the watcher reads nothing (its mailbox holds 16): it still
    sees versions 1..27, each once, in order, the last one finished."""
    async with running_app(store) as app:
        name, tokens = await _goofspiel(app.games)
        watch = app.games.watch_game(SPECTATOR, spb.WatchGameRequest(name=name))
        game_id = name.removeprefix("games/")
        async with contextlib.aclosing(watch):
            first = pb.GameSnapshot.FromString(await anext(watch))
            assert app.games.viewers_here(game_id) == (-1,)  # moves build its view ahead
            await _play_all(app.games, name, tokens, 13)
            rest = [pb.GameSnapshot.FromString(s) async for s in watch if s is not None]
        assert app.games.viewers_here(game_id) == ()  # released with the watch
    versions = [first.version, *(s.version for s in rest)]
    assert versions == list(range(1, 28))
    assert rest[-1].finished


async def test_resuming_from_a_version_sends_only_what_came_after(store: Store) -> None:
    """from_version = 5 (e.g. SSE's Last-Event-ID): versions 6.. follow, 5 is not repeated,
    and the rebuilt snapshots equal the live ones."""
    async with running_app(store) as app:
        name, tokens = await _goofspiel(app.games, cards=5)
        live = app.games.watch_game(SPECTATOR, spb.WatchGameRequest(name=name))
        async with contextlib.aclosing(live):
            await anext(live)
            await _play_all(app.games, name, tokens, 5)
            live_snaps = [s async for s in live if s is not None]
        resumed = app.games.watch_game(SPECTATOR, spb.WatchGameRequest(name=name), from_version=5)
        async with contextlib.aclosing(resumed):
            resumed_snaps = [s async for s in resumed if s is not None]
    assert [pb.GameSnapshot.FromString(s).version for s in resumed_snaps] == list(range(6, 12))
    assert resumed_snaps == live_snaps[4:]


async def test_idle_ticks_come_while_nothing_changes(store: Store) -> None:
    """With idle_seconds, a quiet game yields None ticks (a door's heartbeat)."""
    async with running_app(store) as app:
        name, _ = await _goofspiel(app.games)
        watch = app.games.watch_game(SPECTATOR, spb.WatchGameRequest(name=name), idle_seconds=0.05)
        async with contextlib.aclosing(watch):
            assert await anext(watch) is not None
            assert await anext(watch) is None
            assert await anext(watch) is None

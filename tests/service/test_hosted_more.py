"""Hosted play where it meets the rest of the service: a timeout another replica applied,
joins of listed games with a clock, a bot thinking while a seat is joined.

Helpers and the hand-moved clock are those of ``test_hosted``. README "Hosted play".
"""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Mapping
from typing import Any

import grpc

from tests.service.helpers import fails
from tests.service.test_hosted import (
    HandClock,
    Stub,
    create,
    get,
    hosted,
    log_of,
    resign,
    until,
)
from tests.support.server import bearer, running_app
from tribes.core.botseats import random_choice
from tribes.store import StoreUnavailableError
from tribes.store.redis import RedisStore
from tribes.v1 import common_pb2 as pb
from tribes.v1 import game_service_pb2 as spb


async def listed(
    stub: Stub, *, per_move: int = 0, bots: Mapping[int, str] | None = None
) -> spb.CreateGameResponse:
    request = spb.CreateGameRequest(
        game_type="goofspiel",
        seat_count=2,
        options={"cards": "3"},
        listed=True,
        bots=dict(bots or {}),
        seed=5,
    )
    if per_move:
        request.time_control.CopyFrom(pb.TimeControl(per_move_seconds=per_move))
    return await stub.CreateGame(request)


async def join(stub: Stub, name: str, seat: int) -> spb.JoinGameResponse:
    return await stub.JoinGame(spb.JoinGameRequest(name=name, seat=seat, player_name=f"p{seat}"))


async def test_a_late_move_naming_its_version_finds_the_timeout_another_replica_applied(
    redis_url: str, redis_prefix: str
) -> None:
    """Replica A still has the version the move names; replica B applied its timeout. The
    move finds the game lost (it went round for ever: A's timeout against its cached
    version lost the compare-and-set, and the next look hit the same cached version)."""

    def store() -> RedisStore:
        return RedisStore(redis_url, prefix=redis_prefix)

    async with (
        running_app(store(), sweep_interval=3600) as a,
        running_app(store(), sweep_interval=3600) as b,
        grpc.aio.insecure_channel(f"127.0.0.1:{a.port}") as ca,
        grpc.aio.insecure_channel(f"127.0.0.1:{b.port}") as cb,
    ):
        sa, sb = Stub(ca), Stub(cb)
        request = spb.CreateGameRequest(
            game_type="goofspiel", seat_count=2, options={"cards": "3"}, seed=5
        )
        request.time_control.CopyFrom(pb.TimeControl(per_move_seconds=1))
        created = await sa.CreateGame(request)  # A caches version 1
        name = created.game.name
        snap = await until(sb, name, lambda s: s.finished)  # B's reads apply the timeout
        assert snap.version == 2
        late = sa.ApplyMove(
            spb.ApplyMoveRequest(name=name, move_id="bid:1", expected_version=1),
            metadata=bearer(created.seat_tokens[1]),
            timeout=10,  # a hang guard only
        )
        code, reason, _ = await fails(late)
        assert (code, reason) == (grpc.StatusCode.FAILED_PRECONDITION, "GAME_FINISHED")
        log = await log_of(sb, name)
        assert [r.move_id for r in log] == ["!timeout:0:forfeit"]


async def test_a_listed_games_clocks_start_when_its_table_is_full() -> None:
    """No clock runs while a seat of a listed game is open (nobody can lose on time before
    the players are there: an unjoined seat forfeited after the per-move limit); the last
    join starts the clocks of the seats to act, and the time control outlives the joins."""
    clock = HandClock()
    async with hosted(clock, sweep=0.02) as (_, stub):
        created = await listed(stub, per_move=60)
        name = created.game.name
        assert created.game.deadline_unix_ms == 0
        assert [s.clock_since_unix_ms for s in created.game.seats] == [0, 0]
        clock.advance(120)  # two limits pass with nobody there
        first = (await join(stub, name, 0)).game
        assert first.deadline_unix_ms == 0 and not first.finished
        clock.advance(120)  # one seat waits for the other: no clock yet
        joined = (await join(stub, name, 1)).game
        assert not joined.finished and joined.time_control.per_move_seconds == 60
        assert joined.deadline_unix_ms == clock.ms + 60_000
        assert [s.clock_since_unix_ms for s in joined.seats] == [clock.ms, clock.ms]
        clock.advance(61)
        snap = await until(stub, name, lambda s: s.finished)
        assert snap.seats[0].timed_out
        log = await log_of(stub, name)
        assert [r.move_id for r in log if r.system] == [
            "!join:0:p0",
            "!join:1:p1",
            "!timeout:0:forfeit",
        ]


async def test_a_join_does_not_revive_a_game_a_resignation_ended() -> None:
    """Ended by a resignation, a listed game stays ended: a later join is GAME_FINISHED
    (it claimed the seat and cleared ``over``, and play went on past the result)."""
    async with hosted(HandClock(), sweep=3600) as (_, stub):
        created = await listed(stub)
        name = created.game.name
        first = await join(stub, name, 0)
        ended = await resign(stub, name, first.seat_token)
        assert ended.finished
        code, reason, _ = await fails(join(stub, name, 1))
        assert (code, reason) == (grpc.StatusCode.FAILED_PRECONDITION, "GAME_FINISHED")
        snap = await get(stub, name)
        assert snap.finished and snap.version == ended.version
        assert list(snap.result.ranks) == [2, 1] and snap.seats[1].open


async def test_a_bot_thinking_while_a_seat_is_joined_plays_without_the_sweep() -> None:
    """The bot chose against the version before the join: the join's version is kicked as
    its decision ends, with no sweep in the test's time (nothing kicked it: the bot's move
    was stale, and the bot waited for the sweep)."""
    thinking, go = threading.Event(), threading.Event()
    first: list[bool] = []

    def held(game: Any, state: Any, seat: int, kind: str, seed: int) -> Any:
        if not first:  # the first decision waits until the seat is joined
            first.append(True)
            thinking.set()
            go.wait(10)
        return random_choice(game, state, seat, kind, seed)

    async with hosted(HandClock(), sweep=3600) as (app, stub):
        app.games.bots.chooser = held
        created = await listed(stub, bots={1: "random"})
        name = created.game.name
        assert await asyncio.to_thread(thinking.wait, 10)
        seat = await join(stub, name, 0)
        assert seat.game.version == 2
        go.set()
        snap = await until(stub, name, lambda s: 1 not in s.to_act, 10)
        assert snap.version == 3
        log = await log_of(stub, name)
        assert [(r.system, r.seat) for r in log] == [(True, 0), (False, 1)]  # the join, the bot


async def test_a_bot_decision_the_store_refused_gives_its_lease_back() -> None:
    """A decision whose move the store refused (unavailable) hands its lease back, so the
    sweep's next look plays it: it waited out the whole lease (30 s) first."""
    async with hosted(HandClock()) as (app, stub):  # the store's clock stands still
        games = app.games
        real, refused = games.play_as, []

        async def unavailable_once(*args: Any) -> int:
            if not refused:
                refused.append(args)
                raise StoreUnavailableError("redis commit failed: ConnectionError")
            return await real(*args)

        games.play_as = unavailable_once  # type: ignore[method-assign]
        created = await create(stub, bots={1: "random"})
        snap = await until(stub, created.game.name, lambda s: 1 not in s.to_act, 10)
        assert len(refused) == 1 and snap.version == 2
        log = await log_of(stub, created.game.name)
        assert [(r.system, r.seat) for r in log] == [(False, 1)]


async def test_a_watch_ends_after_the_final_snapshot_of_a_game_ended_by_resignation() -> None:
    """A resignation (or a forfeit on time) ends a 2-seat game that its rules have not
    finished: the watch sends that final snapshot and ends, as a session does (it stayed
    open, waiting for versions that never come)."""
    async with hosted(HandClock(), sweep=3600) as (_, stub):
        created = await create(stub)
        name = created.game.name
        watch = stub.WatchGame(
            spb.WatchGameRequest(name=name), metadata=bearer(created.seat_tokens[1])
        )
        first = await watch.read()
        assert not first.finished
        await resign(stub, name, created.seat_tokens[0])
        async with asyncio.timeout(10):
            final = await watch.read()
            assert final.finished and list(final.result.ranks) == [2, 1]
            assert await watch.read() is grpc.aio.EOF


async def test_a_seat_that_resigned_makes_no_more_moves() -> None:
    """In a game of 3 the seat that resigned is played out by a bot: its token no longer
    moves for it (the person went on playing the seat beside the bot), in a unary call or
    in a session; a retry of a move it made before resigning still gets its answer."""
    async with hosted(HandClock(), sweep=3600) as (app, stub):
        app.games.bots.chooser = lambda *_: (_ for _ in ()).throw(RuntimeError("no bot here"))
        created = await create(stub, seats=3, options={"cards": "5"})
        name, tokens = created.game.name, created.seat_tokens
        before = await stub.ApplyMove(
            spb.ApplyMoveRequest(name=name, move_id="bid:1", request_id="m-1"),
            metadata=bearer(tokens[1]),
        )
        await resign(stub, name, tokens[1])
        for seat in (0, 2):  # the next round: seat 1 is to act again
            await stub.ApplyMove(
                spb.ApplyMoveRequest(name=name, move_id="bid:1"), metadata=bearer(tokens[seat])
            )
        shown = await get(stub, name, tokens[1])
        assert 1 in shown.to_act and not shown.legal_moves  # nothing for the person to play
        code, reason, _ = await fails(
            stub.SuggestMove(spb.SuggestMoveRequest(name=name), metadata=bearer(tokens[1]))
        )
        assert (code, reason) == (grpc.StatusCode.FAILED_PRECONDITION, "ALREADY_RESIGNED")
        code, reason, _ = await fails(
            stub.ApplyMove(
                spb.ApplyMoveRequest(name=name, move_id="bid:2"), metadata=bearer(tokens[1])
            )
        )
        assert (code, reason) == (grpc.StatusCode.FAILED_PRECONDITION, "ALREADY_RESIGNED")
        retried = await stub.ApplyMove(
            spb.ApplyMoveRequest(name=name, move_id="bid:1", request_id="m-1"),
            metadata=bearer(tokens[1]),
        )
        assert retried.version == before.version
        session = stub.Play(metadata=bearer(tokens[1]))
        await session.write(spb.PlayRequest(open=spb.OpenSession(name=name)))
        await session.read()
        await session.write(
            spb.PlayRequest(move=spb.ApplyMoveRequest(move_id="bid:3", request_id="m-2"))
        )
        event = await session.read()
        assert event.WhichOneof("kind") == "rejected"
        assert event.rejected.status.message.startswith("this seat has resigned")
        session.cancel()
        log = await log_of(stub, name)
        assert [(r.system, r.seat) for r in log] == [(False, 1), (True, 1), (False, 0), (False, 2)]


async def test_a_stopping_server_gives_back_the_lease_of_a_decision_under_way(
    redis_url: str, redis_prefix: str
) -> None:
    """A bot decision under way when its server stops is cancelled and hands its lease
    back, so another replica's sweep takes the game up at its next look, not 30 s later."""
    thinking, go = threading.Event(), threading.Event()

    def held(game: Any, state: Any, seat: int, kind: str, seed: int) -> Any:
        thinking.set()
        go.wait(10)
        return random_choice(game, state, seat, kind, seed)

    store = RedisStore(redis_url, prefix=redis_prefix)
    async with running_app(store, sweep_interval=3600) as app:
        app.games.bots.chooser = held
        try:
            async with grpc.aio.insecure_channel(f"127.0.0.1:{app.port}") as channel:
                created = await create(Stub(channel), bots={1: "random"})
            assert await asyncio.to_thread(thinking.wait, 10)
            await app.stop(grace=0.5)
        finally:
            go.set()
    other = RedisStore(redis_url, prefix=redis_prefix)
    try:
        decision = f"bot:{created.game.version}:1"
        assert await other.claim(created.game.name[6:], decision, 30_000, "another replica")
    finally:
        await other.close()

"""The Python client's play session (``AsyncClient.play``) against real servers: a game
played out through two sessions, refusals, a session-ending error, closing, and a server
restart under open sessions."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator

import grpc
import pytest

from tests.service.conftest import app  # noqa: F401  (the in-process server fixture)
from tests.support.server import running_app
from tribes.server import App
from tribes.store.redis import RedisStore
from tribes_client import AsyncClient, PlaySession, TribesError
from tribes_client.v1 import game_service_pb2 as spb


async def _answering(
    session: PlaySession, seat: int, cards: list[int], opened: spb.PlayEvent
) -> list[spb.PlayEvent]:
    """Every event of ``session`` from its ``opened`` snapshot on; the seat bids its next
    card whenever a new version puts it first in ``to_act`` (a seat-list change repeats a
    version)."""
    events, acted = [], 0

    async def each() -> AsyncIterator[spb.PlayEvent]:
        yield opened
        async for later in session:
            yield later

    async for event in each():
        events.append(event)
        snap = event.snapshot
        if event.WhichOneof("kind") == "snapshot" and snap.to_act[:1] == [seat]:
            if snap.version <= acted:
                continue
            acted = snap.version
            answer = await session.move(move_id=f"bid:{cards.pop()}", expected_version=snap.version)
            assert answer.version == snap.version + 1 and answer.viewer_seat == seat
    return events


async def _taken(session: PlaySession, count: int) -> list[spb.PlayEvent]:
    async with asyncio.timeout(10):
        return [await anext(session) for _ in range(count)]


def _versions(events: list[spb.PlayEvent]) -> list[int]:
    """The versions of the snapshots among ``events``, each once (a seat-list change
    repeats one)."""
    return list(dict.fromkeys(e.snapshot.version for e in events if e.snapshot.version))


async def test_two_sessions_play_a_game_out_and_see_every_version(app: App) -> None:  # noqa: F811
    """Each seat answers its pushed snapshots in its own session; both see every version
    once, in order, and their iterations end after the final snapshot. After the end a
    move is answered as ``ApplyMove`` answers it."""
    async with AsyncClient(f"127.0.0.1:{app.port}") as client:
        game, tokens = await client.create_game("goofspiel", 2, {"cards": "3"}, seed=3)
        seats = [client.with_token(t) for t in tokens]
        async with seats[0].play(game.name) as zero, seats[1].play(game.name) as one:
            async with asyncio.timeout(20):
                # both sessions are open before either seat moves, so both open at version 1
                opened = [await anext(zero), await anext(one)]
                events = await asyncio.gather(
                    _answering(zero, 0, [1, 2, 3], opened[0]),
                    _answering(one, 1, [3, 1, 2], opened[1]),
                )
            assert [_versions(e) for e in events] == [list(range(1, 8))] * 2
            assert zero.snapshot is not None and zero.snapshot.finished
            with pytest.raises(TribesError) as over:
                await zero.move(move_id="bid:1")
            assert over.value.reason == "GAME_FINISHED"


async def test_a_refused_move_raises_and_the_session_goes_on(app: App) -> None:  # noqa: F811
    """A second bid in one round raises its refusal (and shows as a rejected event with
    its request id); the same session plays on once the round is over."""
    async with AsyncClient(f"127.0.0.1:{app.port}") as client:
        game, tokens = await client.create_game("goofspiel", 2, {"cards": "3"})
        async with client.with_token(tokens[1]).play(game.name) as session:
            assert (await anext(session)).snapshot.version == 1
            assert (await session.move(move_id="bid:1")).version == 2
            with pytest.raises(TribesError) as refused:
                await session.move(move_id="bid:2", request_id="again")
            assert (refused.value.code, refused.value.reason) == (
                grpc.StatusCode.FAILED_PRECONDITION,
                "NOT_YOUR_TURN",
            )
            kinds = [(e.WhichOneof("kind"), e.request_id) for e in (await _taken(session, 2))]
            assert kinds[1] == ("rejected", "again")
            await client.with_token(tokens[0]).apply_move(game.name, move_id="bid:2")
            pushed = (await _taken(session, 1))[0].snapshot
            assert (pushed.version, list(pushed.to_act)) == (3, [0, 1])
            answer = await session.move(move_id="bid:2", expected_version=3)
            assert answer.version == 4


async def test_a_session_ending_error_is_raised_and_close_ends_the_iteration(
    app: App,  # noqa: F811
) -> None:
    """A wrong token fails the iteration and every move with PERMISSION_DENIED; a closed
    session's iteration stops and its unanswered move raises SESSION_CLOSED."""
    async with AsyncClient(f"127.0.0.1:{app.port}") as client:
        game, tokens = await client.create_game("goofspiel", 2, {"cards": "3"})
        forged = client.with_token("0.forged").play(game.name)
        with pytest.raises(TribesError) as denied:
            await anext(forged)
        assert (denied.value.code, denied.value.reason) == (
            grpc.StatusCode.PERMISSION_DENIED,
            "BAD_TOKEN",
        )
        with pytest.raises(TribesError):
            await forged.move(move_id="bid:1")
        session = client.with_token(tokens[1]).play(game.name)
        assert (await anext(session)).snapshot.version == 1
        # sent as the session closes: its answer is never read
        waiting = asyncio.ensure_future(session.move(move_id="bid:1"))
        await session.close()
        with pytest.raises(TribesError) as closed:
            await waiting
        assert closed.value.reason == "SESSION_CLOSED"
        assert [e async for e in session] == []
        with pytest.raises(TribesError) as again:
            await session.move(move_id="bid:2")
        assert again.value.reason == "SESSION_CLOSED"


async def test_moves_left_unanswered_at_the_end_are_answered_as_apply_move(
    app: App,  # noqa: F811
) -> None:
    """A session opened on a finished game ends after its one snapshot without reading
    the moves sent on it: each is then answered as ``ApplyMove`` answers it. The move
    that ended the game, sent again with its ``request_id``, gets its first answer; a
    new one is refused GAME_FINISHED. Both are registered before the session's stream
    task first runs (asyncio runs ready tasks in order), so both wait on the stream and
    are settled when it ends."""
    async with AsyncClient(f"127.0.0.1:{app.port}") as client:
        game, tokens = await client.create_game("goofspiel", 2, {"cards": "3"}, seed=3)
        zero, one = (client.with_token(t) for t in tokens)
        for bid_zero, bid_one in ((1, 3), (2, 1)):
            await zero.apply_move(game.name, move_id=f"bid:{bid_zero}")
            await one.apply_move(game.name, move_id=f"bid:{bid_one}")
        await zero.apply_move(game.name, move_id="bid:3")
        final = await one.apply_move(game.name, move_id="bid:2", request_id="last")
        assert final.finished and final.version == 7
        async with one.play(game.name) as session:
            again = asyncio.ensure_future(session.move(move_id="bid:2", request_id="last"))
            fresh = asyncio.ensure_future(session.move(move_id="bid:2", request_id="fresh"))
            async with asyncio.timeout(10):
                replayed = await again
                with pytest.raises(TribesError) as refused:
                    await fresh
                events = [event async for event in session]
        assert replayed == final
        assert (refused.value.code, refused.value.reason) == (
            grpc.StatusCode.FAILED_PRECONDITION,
            "GAME_FINISHED",
        )
        assert [(e.WhichOneof("kind"), e.snapshot.version) for e in events] == [("snapshot", 7)]


async def test_sessions_carry_on_across_a_server_restart(redis_url: str, redis_prefix: str) -> None:
    """A server stops under two open sessions and another takes its address after a
    while: each session resumes from the version it held, a move made meanwhile is
    played once, and pushes go on."""
    async with running_app(RedisStore(redis_url, prefix=redis_prefix)) as first:
        async with AsyncClient(f"127.0.0.1:{first.port}") as client:
            game, tokens = await client.create_game("goofspiel", 2, {"cards": "3"})
            zero = client.with_token(tokens[0]).play(game.name)
            one = client.with_token(tokens[1]).play(game.name)
            assert (await anext(zero)).snapshot.version == 1
            assert (await anext(one)).snapshot.version == 1
            assert (await zero.move(move_id="bid:2")).version == 2
            await first.stop(grace=0.5)
            meanwhile = asyncio.ensure_future(one.move(move_id="bid:1", request_id="down"))
            await asyncio.sleep(1.5)  # the address serves nothing for a while
            async with running_app(RedisStore(redis_url, prefix=redis_prefix), port=first.port):
                async with asyncio.timeout(20):
                    assert (await meanwhile).version == 3
                    # its move's answer, then the push of version 3 (seat-list changes
                    # repeat a version: seat 1 came, went and came back)
                    seen: list[int] = []
                    while not seen or seen[-1] < 3:
                        seen.append((await anext(zero)).snapshot.version)
                assert 2 in seen and seen == sorted(seen)
                log = await client.with_token(tokens[1]).list_moves(game.name)
                assert [(r.version, r.seat, r.move_id) for r in log] == [
                    (2, 0, ""),  # seat 0's bid is hidden from seat 1
                    (3, 1, "bid:1"),
                ]
                await zero.close()
                await one.close()

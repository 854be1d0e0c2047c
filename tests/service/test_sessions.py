"""Play sessions over real gRPC streams: pushes, in-stream rejections, retries, resume."""

from __future__ import annotations

import asyncio
import contextlib
import pathlib
from collections.abc import AsyncIterator
from typing import Any

import grpc
import pytest

from tests.service.helpers import create, fails, get, goofspiel_view, move
from tests.support.server import bearer, error_info, running_app, server_process
from tribes.core.games import Caller
from tribes.core.snapshots import SnapshotWriter
from tribes.server import App
from tribes.settings import Settings, grpc_prepared, prepare_grpc
from tribes.store.memory import MemoryStore
from tribes.store.redis import RedisStore
from tribes.v1 import common_pb2 as pb
from tribes.v1 import game_service_pb2 as spb
from tribes.v1 import game_service_pb2_grpc as spb_grpc

Stub = spb_grpc.GameServiceStub
SC = grpc.StatusCode


def _open(name: str, held: int | None = None) -> spb.PlayRequest:
    opened = spb.OpenSession(name=name)
    if held is not None:
        opened.from_version = held
    return spb.PlayRequest(open=opened)


def _move(move_id: str, expected: int = 0, request_id: str = "", name: str = "") -> spb.PlayRequest:
    return spb.PlayRequest(
        move=spb.ApplyMoveRequest(
            name=name, move_id=move_id, expected_version=expected, request_id=request_id
        )
    )


async def _event(stream: Any) -> spb.PlayEvent:
    async with asyncio.timeout(10):
        event = await stream.read()
    assert event is not grpc.aio.EOF, "the session ended"
    return event  # type: ignore[no-any-return]


async def _snapshot(stream: Any) -> Any:
    event = await _event(stream)
    assert event.WhichOneof("kind") == "snapshot", event
    return event.snapshot


async def _settle(streams: list[Any], first: list[Any]) -> None:
    """Read each stream's pushes until its seat list shows every seat present: a seat's
    session opening pushes the new seat list to the sessions already open."""
    for stream, snap in zip(streams, first, strict=True):
        while not all(seat.present for seat in snap.seats):
            snap = await _snapshot(stream)
            assert snap.version == first[0].version  # a presence push: the same version


def _rejection(event: spb.PlayEvent) -> tuple[int, str, str]:
    assert event.WhichOneof("kind") == "rejected", event
    status = event.rejected.status
    for detail in status.details:
        from google.rpc import error_details_pb2

        info = error_details_pb2.ErrorInfo()
        if detail.Unpack(info):
            return status.code, info.reason, event.rejected.request_id
    raise AssertionError("no ErrorInfo")


async def test_every_seat_gets_every_change_and_the_stream_ends(stub: Stub) -> None:
    """Two seats' sessions: each move (in-stream or by ApplyMove) reaches both seats,
    redacted for each; both streams end after the final snapshot."""
    created = await create(stub, cards="3")
    streams = [stub.Play(metadata=bearer(t)) for t in created.tokens]
    for s in streams:
        await s.write(_open(created.name))
    firsts = [await _snapshot(s) for s in streams]
    assert [f.viewer_seat for f in firsts] == [0, 1] and all(f.version == 1 for f in firsts)
    assert [m.id for m in firsts[0].legal_moves] == ["bid:1", "bid:2", "bid:3"]
    await _settle(streams, firsts)
    await streams[0].write(_move("bid:2", expected=1))
    mine, theirs = await _snapshot(streams[0]), await _snapshot(streams[1])
    assert mine.version == theirs.version == 2
    await move(stub, created.name, created.tokens[1], "bid:3")  # a move from outside
    assert (await _snapshot(streams[0])).version == 3
    assert (await _snapshot(streams[1])).version == 3
    version = 3
    for card in (1, 3):
        for seat in (0, 1):
            if (seat, card) == (1, 3):
                await streams[1].write(_move("bid:2", expected=version))
            else:
                await streams[seat].write(_move(f"bid:{card}", expected=version))
            version += 1
            for s in streams:
                assert (await _snapshot(s)).version == version
    assert version == 7
    for s in streams:
        async with asyncio.timeout(10):
            assert await s.read() is grpc.aio.EOF
        assert await s.code() == SC.OK


async def test_rejected_moves_are_answered_in_stream_and_the_session_goes_on(
    stub: Stub,
) -> None:
    """Illegal, stale, malformed, foreign-game and repeated-open requests each get a
    MoveRejected with ApplyMove's code and reason (a move naming another game: the very
    status ApplyMove answers it with); the next good move still lands."""
    created = await create(stub)
    stream = stub.Play(metadata=bearer(created.tokens[0]))
    await stream.write(_open(created.name))
    await _snapshot(stream)
    cases = [
        (
            _move("bid:9", request_id="r-illegal"),
            (SC.FAILED_PRECONDITION.value[0], "ILLEGAL_MOVE", "r-illegal"),
        ),
        (_move("bid:1", expected=5), (SC.ABORTED.value[0], "STALE_VERSION", "")),
        (_move("nonsense!"), (SC.INVALID_ARGUMENT.value[0], "MALFORMED_MOVE", "")),
        (_open(created.name), (SC.INVALID_ARGUMENT.value[0], "SESSION_ALREADY_OPEN", "")),
        (spb.PlayRequest(), (SC.INVALID_ARGUMENT.value[0], "MALFORMED_REQUEST", "")),
    ]
    for request, expected in cases:
        await stream.write(request)
        assert _rejection(await _event(stream)) == expected
    # a move naming another game (one that exists, one that does not, a bad name): the
    # rejection ApplyMove gives the same request with the session's token, message included
    other = await create(stub)
    for name, reason in (
        (other.name, "BAD_TOKEN"),
        ("games/nosuchgame", "GAME_NOT_FOUND"),
        ("games/bad name", "BAD_NAME"),
    ):
        request = _move("bid:1", request_id=f"r-{reason}", name=name)
        await stream.write(request)
        event = await _event(stream)
        assert _rejection(event)[1:] == (reason, f"r-{reason}")
        try:
            await stub.ApplyMove(request.move, metadata=bearer(created.tokens[0]))
        except grpc.aio.AioRpcError as err:
            unary = (err.code().value[0], err.details(), error_info(err).reason)
        else:
            raise AssertionError("ApplyMove played a move of another game")
        status = event.rejected.status
        assert (status.code, status.message, _rejection(event)[1]) == unary
    assert (await get(stub, other.name, other.tokens[0])).version == 1
    await stream.write(_move("bid:1", expected=1))
    assert (await _snapshot(stream)).version == 2
    await stream.write(_move("bid:2"))  # not our turn any more (seat 1 bids)
    assert _rejection(await _event(stream))[1] == "NOT_YOUR_TURN"
    stream.cancel()


async def test_retries_play_once_inside_and_across_sessions(stub: Stub) -> None:
    """The same request_id twice in one session, again in a new session, and once more
    by ApplyMove: one move in the log."""
    created = await create(stub)
    first = stub.Play(metadata=bearer(created.tokens[0]))
    await first.write(_open(created.name))
    opened = await _event(first)
    assert opened.request_id == ""  # the opening snapshot answers no move
    await first.write(_move("bid:1", request_id="once"))
    answer = await _event(first)
    assert (answer.snapshot.version, answer.request_id) == (2, "once")  # names its move
    await first.write(_move("bid:1", request_id="once"))
    answer = await _event(first)
    assert (answer.snapshot.version, answer.request_id) == (2, "once")  # not replayed
    await first.write(_move("bid:3", request_id="late"))
    refused = await _event(first)
    assert (refused.rejected.request_id, refused.request_id) == ("late", "late")
    first.cancel()
    second = stub.Play(metadata=bearer(created.tokens[0]))
    await second.write(_open(created.name))
    await _snapshot(second)
    await second.write(_move("bid:1", request_id="once"))
    assert (await _snapshot(second)).version == 2
    watcher = stub.Play(metadata=bearer(created.tokens[1]))
    await watcher.write(_open(created.name))
    await _snapshot(watcher)
    await move(stub, created.name, created.tokens[1], "bid:2")
    pushed = await _event(second)
    while pushed.snapshot.version == 2:  # a presence push of the watcher's session
        pushed = await _event(second)
    assert (pushed.snapshot.version, pushed.request_id) == (3, "")  # a push answers nothing
    second.cancel()
    watcher.cancel()
    again = await move(stub, created.name, created.tokens[0], "bid:1", request_id="once")
    assert again.version == 2
    log = await stub.ListMoves(spb.ListMovesRequest(name=created.name))
    assert [m.seat for m in log.moves] == [0, 1]  # seat 0's move once, then seat 1's


async def test_spectators_are_read_only(stub: Stub) -> None:
    """Without a token a session sees the public snapshot and its moves are refused."""
    created = await create(stub)
    stream = stub.Play()
    await stream.write(_open(created.name))
    snap = await _snapshot(stream)
    assert snap.viewer_seat == -1 and not snap.legal_moves
    await stream.write(_move("bid:1"))
    assert _rejection(await _event(stream))[:2] == (SC.UNAUTHENTICATED.value[0], "TOKEN_REQUIRED")
    await move(stub, created.name, created.tokens[0], "bid:1")
    assert (await _snapshot(stream)).version == 2
    stream.cancel()


async def test_open_errors_end_the_session_with_a_status(stub: Stub) -> None:
    """A session on no game, with a bad token, or without an open fails as a call."""
    created = await create(stub)
    for metadata, first, reason in [
        (None, _open("games/nope"), "GAME_NOT_FOUND"),
        (bearer("0.forged"), _open(created.name), "BAD_TOKEN"),
        (None, _move("bid:1"), "SESSION_NOT_OPEN"),
    ]:
        stream = stub.Play(metadata=metadata)
        await stream.write(first)
        with pytest.raises(grpc.aio.AioRpcError) as raised:
            await _event(stream)
        assert error_info(raised.value).reason == reason


async def test_resume_from_a_held_version(stub: Stub) -> None:
    """from_version = the current version: nothing until the next change; an older one:
    the latest snapshot at once."""
    created = await create(stub)
    await move(stub, created.name, created.tokens[0], "bid:1")
    current = spb.PlayRequest(open=spb.OpenSession(name=created.name, from_version=2))
    quiet = stub.Play(metadata=bearer(created.tokens[1]))
    await quiet.write(current)
    behind = stub.Play(metadata=bearer(created.tokens[1]))
    await behind.write(spb.PlayRequest(open=spb.OpenSession(name=created.name, from_version=1)))
    assert (await _snapshot(behind)).version == 2
    await move(stub, created.name, created.tokens[1], "bid:1")
    assert (await _snapshot(quiet)).version == 3  # the first event is the next change
    quiet.cancel()
    behind.cancel()


def test_pushes_reach_seats_on_another_process(redis_url: str, redis_prefix: str) -> None:
    """Seat 0's session on process A, seat 1's on B: each sees the other's moves."""
    env = {"REDIS_URL": redis_url, "TRIBES_REDIS_PREFIX": redis_prefix}
    with server_process(env) as a, server_process(env) as b:

        async def run() -> None:
            async with (
                grpc.aio.insecure_channel(a.target) as ca,
                grpc.aio.insecure_channel(b.target) as cb,
            ):
                created = await create(Stub(ca))
                s0 = Stub(ca).Play(metadata=bearer(created.tokens[0]))
                s1 = Stub(cb).Play(metadata=bearer(created.tokens[1]))
                firsts = []
                for s in (s0, s1):
                    await s.write(_open(created.name))
                    firsts.append(await _snapshot(s))
                await _settle([s0, s1], firsts)
                await s0.write(_move("bid:3", expected=1))
                assert (await _snapshot(s0)).version == 2
                assert (await _snapshot(s1)).version == 2
                await s1.write(_move("bid:1", expected=2))
                assert (await _snapshot(s1)).version == 3
                assert (await _snapshot(s0)).version == 3
                s0.cancel()
                s1.cancel()

        asyncio.run(run())


async def _requests(items: list[spb.PlayRequest]) -> AsyncIterator[spb.PlayRequest]:
    for item in items:
        yield item
    await asyncio.Event().wait()  # the client keeps its stream open


async def test_a_slow_session_gets_the_latest_snapshot_not_a_backlog() -> None:
    """26 moves land while a session reads nothing: it then gets the newest snapshot,
    a few events in all, not 26."""
    async with running_app(MemoryStore()) as app:
        games = app.games
        reply = spb.CreateGameResponse.FromString(
            await games.create_game(
                Caller(None, "t"),
                spb.CreateGameRequest(game_type="goofspiel", seat_count=2, options={"cards": "13"}),
            )
        )
        name, tokens = reply.game.name, list(reply.seat_tokens)
        session = games.play(Caller(tokens[0], "t"), _requests([_open(name)]))
        async with contextlib.aclosing(session):
            first = spb.PlayEvent.FromString(await anext(session))
            for card in range(1, 14):
                for token in tokens:
                    await games.apply_move(
                        Caller(token, "t"), spb.ApplyMoveRequest(name=name, move_id=f"bid:{card}")
                    )
            rest = [spb.PlayEvent.FromString(e) async for e in session]
    assert first.snapshot.version == 1
    assert len(rest) <= 5 and rest[-1].snapshot.version == 27 and rest[-1].snapshot.finished


async def test_cancelled_sessions_leave_nothing_behind(app: App, stub: Stub) -> None:
    """Sessions cancelled at random points: the gauge returns to zero, no Redis
    subscription remains for the game, the replica no longer follows it and no viewer
    of it is left registered (whose snapshots moves would build ahead)."""
    created = await create(stub, cards="13")
    for i in range(60):
        stream = stub.Play(metadata=bearer(created.tokens[i % 2]) if i % 3 else None)
        await stream.write(_open(created.name))
        if i % 2:
            await _snapshot(stream)
        if i % 5 == 0:
            await stream.write(_move("bid:13"))
        stream.cancel()
    async with asyncio.timeout(10):
        while True:
            open_sessions = app.metrics.registry.get_sample_value(
                "tribes_sessions", {"transport": "grpc"}
            )
            store = app.store
            channel = store.keys.changes(created.game_id, store.replica)  # type: ignore[attr-defined]
            subscribers = await _numsub(app, channel)
            followers = await _followers(store.keys.followers(created.game_id))  # type: ignore[attr-defined]
            viewers = app.games.viewers_here(created.game_id)
            if open_sessions == 0 and subscribers == 0 and not followers and not viewers:
                break
            await asyncio.sleep(0.05)


async def _numsub(app: App, channel: str) -> int:
    import redis.asyncio as aioredis

    from tests.conftest import REDIS_URL

    client = aioredis.Redis.from_url(REDIS_URL)
    try:
        [(_, count)] = await client.pubsub_numsub(channel)
        return int(count)
    finally:
        await client.aclose()


async def _followers(key: str) -> list[bytes]:
    import redis.asyncio as aioredis

    from tests.conftest import REDIS_URL

    client = aioredis.Redis.from_url(REDIS_URL)
    try:
        return list(await client.zrange(key, 0, -1))
    finally:
        await client.aclose()


async def test_a_session_cancelled_between_events_is_counted_cancelled(
    app: App, stub: Stub
) -> None:
    """A client that cancels while the server still has events to send (gRPC then closes
    the handler's generator at its ``yield``) is a cancelled call in the metrics and the
    request log, not an UNKNOWN failure of the server (which alerts would page on)."""
    created = await create(stub)
    bad = [_move("bid:99")] * 8  # eight refusals queued behind the first snapshot
    for _ in range(20):
        stream = stub.Play(iter([_open(created.name), *bad]), metadata=bearer(created.tokens[0]))
        await _snapshot(stream)
        await _event(stream)
        stream.cancel()

    def handled(code: str) -> float:
        labels = {"grpc_type": "bidi_stream", "grpc_service": "tribes.v1.GameService"}
        sample = app.metrics.registry.get_sample_value(
            "grpc_server_handled_total", {**labels, "grpc_method": "Play", "grpc_code": code}
        )
        return sample or 0.0

    async with asyncio.timeout(10):
        while True:  # the server counts a call once its handler has ended
            if handled("Canceled") + handled("Unknown") >= 20:
                break
            await asyncio.sleep(0.05)
    assert (handled("Canceled"), handled("Unknown")) == (20, 0)


async def test_open_streams_per_address_are_bounded() -> None:
    """A peer address holds at most TRIBES_STREAMS_PER_PEER sessions and watches at once
    (each one holds a subscription and a presence entry): one more is RESOURCE_EXHAUSTED
    TOO_MANY_STREAMS before any store work, and a closed one frees its place."""
    async with running_app(MemoryStore(), streams_per_peer=2, limit_loopback=True) as app:
        async with grpc.aio.insecure_channel(f"127.0.0.1:{app.port}") as channel:
            stub = spb_grpc.GameServiceStub(channel)
            created = await create(stub)
            first = stub.Play(metadata=bearer(created.tokens[0]))
            await first.write(_open(created.name))
            await _snapshot(first)
            watch = stub.WatchGame(spb.WatchGameRequest(name=created.name))
            await watch.read()
            for extra in (
                stub.Play(iter([_open(created.name)])),
                stub.WatchGame(spb.WatchGameRequest(name=created.name)),
            ):
                with pytest.raises(grpc.aio.AioRpcError) as refused:
                    await extra.read()
                assert refused.value.code() == grpc.StatusCode.RESOURCE_EXHAUSTED
                assert error_info(refused.value).reason == "TOO_MANY_STREAMS"
            first.cancel()
            async with asyncio.timeout(10):
                while True:  # the cancelled session gives its place back as it ends
                    again = stub.Play(iter([_open(created.name)]))
                    try:
                        event = await again.read()
                    except grpc.aio.AioRpcError as err:
                        code = err.code()
                    else:
                        code = grpc.StatusCode.OK
                        assert event.WhichOneof("kind") == "snapshot"
                    finally:
                        again.cancel()
                    assert code in (grpc.StatusCode.OK, grpc.StatusCode.RESOURCE_EXHAUSTED)
                    if code == grpc.StatusCode.OK:
                        break
                    await asyncio.sleep(0.05)
            watch.cancel()


async def test_a_move_builds_its_viewers_snapshots_while_its_commit_travels(
    app: App, stub: Stub
) -> None:
    """While a move's commit travels to Redis the process builds the snapshots that a
    landed move sends at once: the mover's, and those of the viewers with a session or
    watch open here (each redacted for its viewer, the bytes a fresh build gives) — and
    nobody else's. Seat 0's snapshot has no other builder here: no session is open."""
    created = await create(stub, cards="5")
    games, goofspiel = app.games, app.games.catalog.get("goofspiel")
    await move(stub, created.name, created.tokens[0], "bid:3", expected=1)
    assert set(games.cache.at(created.game_id, 2).snapshots) == {0}  # nobody watches
    games.viewer_opened(created.game_id, 0)  # as a session of seat 0 on this process
    built_ahead = []
    try:
        # seat 1's moves at versions 2, 4 and 6 (seat 0 bids between them); a commit that
        # happened to join a batch (the health probe in flight) builds nothing ahead
        for version, (seat, card) in enumerate([(1, 5), (0, 1), (1, 4), (0, 2), (1, 1)], 2):
            await move(stub, created.name, created.tokens[seat], f"bid:{card}", version)
            cached = games.cache.at(created.game_id, version + 1)
            assert set(cached.snapshots) <= {0, 1}
            if seat == 1 and 0 in cached.snapshots:
                built_ahead.append(version + 1)
            for viewer, built in cached.snapshots.items():
                shown = pb.GameSnapshot.FromString(built)
                assert shown.viewer_seat == viewer and shown.version == version + 1
                legal = games.legal(goofspiel, cached, viewer)
                assert built == SnapshotWriter().snapshot(
                    goofspiel,
                    created.game_id,
                    cached.meta,
                    version + 1,
                    cached.state,
                    viewer,
                    legal,
                    cached.record,
                )
    finally:
        games.viewer_closed(created.game_id, 0)
    assert built_ahead  # 3, 5 and 7, unless each of the three commits was batched
    assert games.viewers_here(created.game_id) == ()


@contextlib.asynccontextmanager
async def _two_replicas(redis_url: str, prefix: str) -> AsyncIterator[tuple[App, Stub, Stub]]:
    """Two service replicas on one Redis: the first's app, and a stub for each."""
    async with (
        running_app(RedisStore(redis_url, prefix=prefix)) as one,
        running_app(RedisStore(redis_url, prefix=prefix)) as two,
        grpc.aio.insecure_channel(f"127.0.0.1:{one.port}") as first,
        grpc.aio.insecure_channel(f"127.0.0.1:{two.port}") as second,
    ):
        yield one, Stub(first), Stub(second)


async def test_a_commit_that_lost_the_race_keeps_nothing_it_built_ahead(
    redis_url: str, redis_prefix: str
) -> None:
    """Two replicas hold version 1; the second commits first. The first's move against
    version 1 is refused, and the state it built ahead for version 2 is never served:
    both replicas show the second replica's version 2."""
    async with _two_replicas(redis_url, redis_prefix) as (one, stub_one, stub_two):
        created = await create(stub_one, cards="5")
        await get(stub_two, created.name)  # both replicas now hold version 1
        one.games.viewer_opened(created.game_id, 1)  # so the loser builds seat 1's too
        await move(stub_two, created.name, created.tokens[1], "bid:4", expected=1)
        code, reason, _ = await fails(move(stub_one, created.name, created.tokens[0], "bid:2", 1))
        assert code == SC.ABORTED and reason == "STALE_VERSION"
        assert one.games.cache.at(created.game_id, 2) is None  # nothing of its own kept
        for stub in (stub_one, stub_two):
            shown = goofspiel_view(await get(stub, created.name, created.tokens[1]))
            assert list(shown.has_bid) == [False, True] and shown.my_bid == 4
        one.games.viewer_closed(created.game_id, 1)


def _event_engine_wakeups(pid: int) -> int:
    """How often gRPC's EventEngine threads of process ``pid`` have woken up so far."""
    total = 0
    for task in pathlib.Path(f"/proc/{pid}/task").iterdir():
        with contextlib.suppress(OSError):  # a thread that ended meanwhile
            if (task / "comm").read_text().strip() != "event_engine":
                continue
            for line in (task / "status").read_text().splitlines():
                if line.startswith("voluntary_ctxt_switches:"):
                    total += int(line.split(":")[1])
    return total


@pytest.mark.parametrize("poller", [True, False], ids=["poller", "event-engine"])
def test_play_sessions_with_the_io_on_the_grpc_poller_thread(
    redis_url: str, redis_prefix: str, poller: bool
) -> None:
    """``TRIBES_GRPC_POLLER=1``: a whole game played through two seats' ``Play`` streams,
    every change pushed to both, with the connections' I/O on grpc.aio's poller thread:
    gRPC's EventEngine threads stay asleep, where by default they wake for every message."""
    # none of the runner's own gRPC experiments (the suite may run under some)
    env = {"REDIS_URL": redis_url, "TRIBES_REDIS_PREFIX": redis_prefix, "GRPC_EXPERIMENTS": ""}
    if poller:
        env["TRIBES_GRPC_POLLER"] = "1"
    with server_process(env) as server:

        async def run() -> tuple[int, int]:
            async with grpc.aio.insecure_channel(server.target) as channel:
                stub = Stub(channel)
                created = await create(stub, cards="13")
                streams = [stub.Play(metadata=bearer(t)) for t in created.tokens]
                firsts = []
                for s in streams:
                    await s.write(_open(created.name))
                    firsts.append(await _snapshot(s))
                await _settle(streams, firsts)
                before = _event_engine_wakeups(server.proc.pid)
                snaps, moves = firsts, 0  # each seat's last snapshot holds its legal moves
                while not snaps[0].finished:
                    seat, version = snaps[0].to_act[0], snaps[0].version
                    choice = snaps[seat].legal_moves[0].id
                    await streams[seat].write(_move(choice, expected=version))
                    snaps = [await _snapshot(s) for s in streams]
                    assert [p.version for p in snaps] == [version + 1] * 2
                    moves += 1
                for s in streams:
                    async with asyncio.timeout(10):
                        assert await s.read() is grpc.aio.EOF
                return moves, _event_engine_wakeups(server.proc.pid) - before

        moves, wakeups = asyncio.run(run())
    assert moves == 26
    if poller:
        assert wakeups < moves  # a few timers'
    else:
        assert wakeups > 2 * moves  # several per message


def test_the_poller_setting_keeps_the_operators_grpc_experiments() -> None:
    """``TRIBES_GRPC_POLLER`` adds its one experiment to what the operator set, and an
    operator who named that experiment themselves has the last word."""
    assert not Settings.from_env({}).grpc_poller
    for env, wanted in [
        ({}, None),
        ({"TRIBES_GRPC_POLLER": "0", "GRPC_EXPERIMENTS": "a"}, "a"),
        ({"TRIBES_GRPC_POLLER": "1"}, "-event_engine_listener"),
        ({"TRIBES_GRPC_POLLER": "1", "GRPC_EXPERIMENTS": "a, b"}, "a,b,-event_engine_listener"),
        ({"TRIBES_GRPC_POLLER": "1", "GRPC_EXPERIMENTS": "event_engine_listener"}, None),
    ]:
        given = env.get("GRPC_EXPERIMENTS")
        # prepared already where there is nothing to add
        assert grpc_prepared(env) == ((wanted or given) == given)
        prepare_grpc(env)
        assert env.get("GRPC_EXPERIMENTS") == (wanted or given), env
        assert grpc_prepared(env)


async def test_a_session_on_a_followed_game_opens_without_reading_the_store(
    redis_url: str, redis_prefix: str
) -> None:
    """Seat 0's session on replica one makes it follow the game; seat 1 then moves through
    replica two. A spectator's session opened on replica one starts from the version the
    change feed brought there, without reading the store, and goes on with the next one."""
    async with _two_replicas(redis_url, redis_prefix) as (one, stub_one, stub_two):
        created = await create(stub_one, cards="5")
        seat = stub_one.Play(metadata=bearer(created.tokens[0]))
        await seat.write(_open(created.name))
        assert (await _snapshot(seat)).version == 1
        await move(stub_two, created.name, created.tokens[1], "bid:4", expected=1)
        while (await _snapshot(seat)).version < 2:
            pass  # a presence push of version 1
        store = one.games.store
        reads: list[str] = []
        load = store.load

        async def counted(game_id: str, request_key: str | None = None) -> Any:
            reads.append(game_id)
            return await load(game_id, request_key)

        store.load = counted  # type: ignore[method-assign]
        watcher = stub_one.Play()
        await watcher.write(_open(created.name))
        opened = await _snapshot(watcher)
        assert opened.version == 2 and opened.viewer_seat == -1 and reads == []
        await move(stub_two, created.name, created.tokens[0], "bid:2", expected=2)
        assert (await _snapshot(watcher)).version == 3
        seat.cancel()
        watcher.cancel()


async def test_the_second_seat_opens_from_the_first_seats_read(
    redis_url: str, redis_prefix: str
) -> None:
    """Seat 0's session reads the stored state once its subscription is confirmed; that
    read is the newest version the replica knows, so seat 1's session on the same replica,
    opened before any move, reads nothing from the store. A move made through the other
    replica then reaches both."""
    async with _two_replicas(redis_url, redis_prefix) as (one, stub_one, stub_two):
        created = await create(stub_one, cards="5")
        store = one.games.store
        reads: list[str] = []
        load = store.load

        async def counted(game_id: str, request_key: str | None = None) -> Any:
            reads.append(game_id)
            return await load(game_id, request_key)

        store.load = counted  # type: ignore[method-assign]
        first = stub_one.Play(metadata=bearer(created.tokens[0]))
        await first.write(_open(created.name))
        assert (await _snapshot(first)).version == 1
        assert len(reads) == 1
        second = stub_one.Play(metadata=bearer(created.tokens[1]))
        await second.write(_open(created.name))
        opened = await _snapshot(second)
        assert (opened.version, opened.viewer_seat, len(reads)) == (1, 1, 1)
        await move(stub_two, created.name, created.tokens[1], "bid:4", expected=1)
        for stream in (first, second):
            while (await _snapshot(stream)).version < 2:
                pass  # presence pushes of version 1
        assert len(reads) == 1
        first.cancel()
        second.cancel()


async def test_a_spectator_opening_on_another_replica_sees_who_is_present(
    redis_url: str, redis_prefix: str
) -> None:
    """Seat 0's session is open on replica one. A spectator's first snapshot on replica
    two, which has never read the game's presence, shows seat 0 present: a session
    (``Play``) and a watch (``WatchGame``) alike read the stored seat list at open,
    since no push would correct a wrong one until the game changes."""
    async with _two_replicas(redis_url, redis_prefix) as (_, stub_one, stub_two):
        created = await create(stub_one, cards="5")
        seat = stub_one.Play(metadata=bearer(created.tokens[0]))
        await seat.write(_open(created.name))
        assert [s.present for s in (await _snapshot(seat)).seats] == [True, False]
        watcher = stub_two.Play()
        await watcher.write(_open(created.name))
        assert [s.present for s in (await _snapshot(watcher)).seats] == [True, False]
        created_two = await create(stub_one, cards="5")  # the same on a watch
        other = stub_one.Play(metadata=bearer(created_two.tokens[1]))
        await other.write(_open(created_two.name))
        assert [s.present for s in (await _snapshot(other)).seats] == [False, True]
        watch = stub_two.WatchGame(spb.WatchGameRequest(name=created_two.name))
        async with asyncio.timeout(10):
            first = await watch.read()
        assert [s.present for s in first.seats] == [False, True]
        for stream in (seat, watcher, other, watch):
            stream.cancel()

"""Every RPC through a real gRPC channel to a real server backed by a real Redis."""

from __future__ import annotations

import asyncio

import grpc
import redis as sync_redis

from tests.games.goofspiel import goofspiel_pb2 as gpb
from tests.service.helpers import (
    create,
    fails,
    get,
    goofspiel_move,
    goofspiel_view,
    move,
    stored,
)
from tests.support.server import bearer, running_app
from tribes.core.records import META
from tribes.server import App
from tribes.store.redis import RedisStore
from tribes.v1 import common_pb2 as pb
from tribes.v1 import game_service_pb2 as spb
from tribes.v1 import game_service_pb2_grpc as spb_grpc

Stub = spb_grpc.GameServiceStub
OK = grpc.StatusCode


async def test_list_game_types_describes_each_game(stub: Stub) -> None:
    """ListGameTypes gives ids, titles, seat counts and options with choices."""
    response = await stub.ListGameTypes(spb.ListGameTypesRequest())
    types = {t.id: t for t in response.game_types}
    goof = types["goofspiel"]
    assert goof.title == "Goofspiel"
    assert list(goof.seat_counts) == [2, 3, 4]
    (option,) = goof.options
    assert (option.name, option.default_value, list(option.choices)) == (
        "cards",
        "13",
        ["3", "5", "8", "13", "25"],
    )


async def test_listed_bot_kinds_are_the_ones_a_seat_can_be_given(stub: Stub) -> None:
    """Every game type lists the bots this server seats (GameType.bot_kinds): each one is
    accepted for a seat at creation, and a kind not listed is refused."""
    response = await stub.ListGameTypes(spb.ListGameTypesRequest())
    kinds = [list(t.bot_kinds) for t in response.game_types]
    assert kinds[0] and all(k == kinds[0] for k in kinds)
    for kind in kinds[0]:
        created = await create(stub, bots={1: kind})
        assert created.snapshot.seats[1].bot == kind
    code, reason, _ = await fails(create(stub, bots={1: "oracle"}))
    assert (code, reason) == (OK.INVALID_ARGUMENT, "BAD_BOTS")


async def test_create_game_returns_version_one_and_a_token_per_seat(stub: Stub) -> None:
    """CreateGame answers the spectator's snapshot at version 1 and one token per seat."""
    created = await create(stub, seats=3)
    snap = created.snapshot
    assert snap.name.startswith("games/") and snap.game_type == "goofspiel"
    assert (snap.version, snap.finished, snap.viewer_seat, snap.seat_count) == (1, False, -1, 3)
    assert list(snap.to_act) == [0, 1, 2]
    assert dict(snap.options) == {"cards": "3"}
    assert len(created.tokens) == 3 and len(set(created.tokens)) == 3
    assert not snap.legal_moves  # spectators have no moves
    assert snap.view.WhichOneof("game") == "plugin"
    assert snap.view.plugin.type_url.endswith("tribes.examples.goofspiel.GoofspielView")


async def test_create_game_fills_default_options(stub: Stub) -> None:
    """Options left out take their defaults and are reported in the snapshot."""
    response = await stub.CreateGame(spb.CreateGameRequest(game_type="goofspiel", seat_count=2))
    assert dict(response.game.options) == {"cards": "13"}


async def test_create_game_errors(stub: Stub) -> None:
    """Unknown type is NOT_FOUND; bad seats or options are INVALID_ARGUMENT."""
    assert await fails(stub.CreateGame(spb.CreateGameRequest(game_type="chess", seat_count=2))) == (
        OK.NOT_FOUND,
        "UNKNOWN_GAME_TYPE",
        {},
    )
    code, reason, _ = await fails(
        stub.CreateGame(spb.CreateGameRequest(game_type="goofspiel", seat_count=7))
    )
    assert (code, reason) == (OK.INVALID_ARGUMENT, "BAD_OPTIONS")
    code, reason, _ = await fails(
        stub.CreateGame(
            spb.CreateGameRequest(game_type="goofspiel", seat_count=2, options={"cards": "4"})
        )
    )
    assert (code, reason) == (OK.INVALID_ARGUMENT, "BAD_OPTIONS")
    code, reason, _ = await fails(
        stub.CreateGame(
            spb.CreateGameRequest(game_type="goofspiel", seat_count=2, options={"speed": "x"})
        )
    )
    assert (code, reason) == (OK.INVALID_ARGUMENT, "BAD_OPTIONS")
    code, reason, _ = await fails(
        stub.CreateGame(
            spb.CreateGameRequest(game_type="goofspiel", seat_count=2, request_id="has space")
        )
    )
    assert (code, reason) == (OK.INVALID_ARGUMENT, "BAD_REQUEST_ID")


async def test_seed_is_honoured_only_when_allowed(redis_url: str, redis_prefix: str) -> None:
    """With TRIBES_ALLOW_SEED off the server ignores the requested seed."""
    for allowed in (True, False):
        store = RedisStore(redis_url, prefix=redis_prefix)
        async with running_app(store, allow_seed=allowed) as app:
            async with grpc.aio.insecure_channel(f"127.0.0.1:{app.port}") as channel:
                created = await create(Stub(channel), seed=424242)
        client = sync_redis.Redis.from_url(redis_url)
        meta = META.decode(client.hget(f"{redis_prefix}:{{{created.game_id}}}", "m"))
        client.close()
        assert (meta.seed == 424242) is allowed


async def test_get_game_as_seat_and_as_spectator(stub: Stub) -> None:
    """A seat sees its viewer seat and legal moves; a spectator sees neither."""
    created = await create(stub)
    seat1 = await get(stub, created.name, created.tokens[1])
    assert seat1.viewer_seat == 1
    assert [m.id for m in seat1.legal_moves] == ["bid:1", "bid:2", "bid:3"]
    first = seat1.legal_moves[0]
    assert first.description.startswith("Bid 1")
    assert goofspiel_move(first.move).bid.card == 1
    spectator = await get(stub, created.name)
    assert spectator.viewer_seat == -1 and not spectator.legal_moves


async def test_get_game_errors(stub: Stub) -> None:
    """Bad names, unknown games and wrong tokens each get their own status."""
    created = await create(stub)
    other = await create(stub)
    assert (await fails(get(stub, "nonsense")))[:2] == (OK.INVALID_ARGUMENT, "BAD_NAME")
    assert (await fails(get(stub, "games/does-not-exist")))[:2] == (
        OK.NOT_FOUND,
        "GAME_NOT_FOUND",
    )
    assert (await fails(get(stub, created.name, "0.forged")))[:2] == (
        OK.PERMISSION_DENIED,
        "BAD_TOKEN",
    )
    # a real token, but of another game
    assert (await fails(get(stub, created.name, other.tokens[0])))[:2] == (
        OK.PERMISSION_DENIED,
        "BAD_TOKEN",
    )
    bad_scheme = stub.GetGame(
        spb.GetGameRequest(name=created.name), metadata=(("authorization", "Basic abc"),)
    )
    assert (await fails(bad_scheme))[:2] == (OK.PERMISSION_DENIED, "BAD_TOKEN")


async def test_apply_move_by_id_and_by_typed_move(stub: Stub) -> None:
    """Moves by move_id and as typed messages both land and bump the version."""
    created = await create(stub)
    after_first = await move(stub, created.name, created.tokens[0], "bid:3", expected=1)
    assert (after_first.version, list(after_first.to_act), after_first.viewer_seat) == (2, [1], 0)
    assert goofspiel_view(after_first).my_bid == 3
    typed = pb.Move()
    typed.plugin.Pack(gpb.GoofspielMove(bid=gpb.GoofspielBid(card=1)))
    after_second = await stub.ApplyMove(
        spb.ApplyMoveRequest(name=created.name, move=typed, expected_version=2),
        metadata=bearer(created.tokens[1]),
    )
    assert after_second.version == 3
    trick = goofspiel_view(after_second).tricks[0]
    assert list(trick.bids) == [3, 1] and trick.winner == 0
    assert list(after_second.scores) == [trick.prize, 0]


async def test_every_rejected_move_changes_nothing(
    stub: Stub, redis_url: str, redis_prefix: str
) -> None:
    """Each kind of rejection has its status and leaves the stored game untouched."""
    created = await create(stub)
    name, tokens = created.name, created.tokens
    await move(stub, name, tokens[0], "bid:2")
    before = stored(redis_url, redis_prefix, created.game_id)
    wrong_arm = pb.Move(five_tribes=pb.Move().five_tribes)
    cases = [
        (
            stub.ApplyMove(spb.ApplyMoveRequest(name=name, move_id="bid:1")),
            (OK.UNAUTHENTICATED, "TOKEN_REQUIRED"),
        ),
        (move(stub, name, "1.forged", "bid:1"), (OK.PERMISSION_DENIED, "BAD_TOKEN")),
        (move(stub, name, tokens[0], "bid:1"), (OK.FAILED_PRECONDITION, "NOT_YOUR_TURN")),
        (move(stub, name, tokens[1], "bid:9"), (OK.FAILED_PRECONDITION, "ILLEGAL_MOVE")),
        (move(stub, name, tokens[1], "castle"), (OK.INVALID_ARGUMENT, "MALFORMED_MOVE")),
        (
            stub.ApplyMove(
                spb.ApplyMoveRequest(name=name, move=wrong_arm), metadata=_auth(tokens[1])
            ),
            (OK.INVALID_ARGUMENT, "MALFORMED_MOVE"),
        ),
        (
            stub.ApplyMove(spb.ApplyMoveRequest(name=name), metadata=_auth(tokens[1])),
            (OK.INVALID_ARGUMENT, "MALFORMED_MOVE"),
        ),
        (move(stub, name, tokens[1], "bid:1", expected=1), (OK.ABORTED, "STALE_VERSION")),
        (move(stub, "games/nope", tokens[1], "bid:1"), (OK.NOT_FOUND, "GAME_NOT_FOUND")),
        (move(stub, "bad/name", tokens[1], "bid:1"), (OK.INVALID_ARGUMENT, "BAD_NAME")),
    ]
    for call, expected in cases:
        code, reason, _ = await fails(call)
        assert (code, reason) == expected
        assert stored(redis_url, redis_prefix, created.game_id) == before, reason
    snap = await get(stub, name, tokens[1])
    assert snap.version == 2 and [m.id for m in snap.legal_moves] == ["bid:1", "bid:2", "bid:3"]


def _auth(token: str) -> tuple[tuple[str, str], ...]:
    return bearer(token)


async def test_stale_version_reports_the_current_version(stub: Stub) -> None:
    """ABORTED carries the stored version so a client can refresh and retry."""
    created = await create(stub)
    await move(stub, created.name, created.tokens[0], "bid:1", expected=1)
    code, reason, metadata = await fails(
        move(stub, created.name, created.tokens[1], "bid:1", expected=1)
    )
    assert (code, reason, metadata) == (OK.ABORTED, "STALE_VERSION", {"current_version": "2"})


async def test_finished_game_refuses_moves(stub: Stub, redis_url: str, redis_prefix: str) -> None:
    """After the last move the game is finished, has a result and refuses moves."""
    created = await create(stub, cards="3")
    snap = None
    for card in (1, 2, 3):
        await move(stub, created.name, created.tokens[0], f"bid:{card}")
        snap = await move(stub, created.name, created.tokens[1], f"bid:{4 - card}")
    assert snap is not None and snap.finished and snap.version == 7
    assert not snap.to_act and not snap.legal_moves
    assert list(snap.result.scores) == list(snap.scores)
    assert sorted(snap.result.ranks)[0] == 1
    assert snap.result.summary
    before = stored(redis_url, redis_prefix, created.game_id)
    code, reason, _ = await fails(move(stub, created.name, created.tokens[0], "bid:1"))
    assert (code, reason) == (OK.FAILED_PRECONDITION, "GAME_FINISHED")
    assert stored(redis_url, redis_prefix, created.game_id) == before


async def test_racing_moves_exactly_one_lands(
    stub: Stub, redis_url: str, redis_prefix: str
) -> None:
    """Moves racing at one version: exactly one lands; every other one is ABORTED."""
    created = await create(stub, seats=4, cards="5")
    calls = [
        move(stub, created.name, created.tokens[seat], f"bid:{card}", expected=1)
        for seat in range(4)
        for card in (1, 2, 3)
    ]
    results = await asyncio.gather(*calls, return_exceptions=True)
    landed = [r for r in results if isinstance(r, pb.GameSnapshot)]
    aborted = [r for r in results if isinstance(r, grpc.aio.AioRpcError)]
    assert len(landed) == 1 and landed[0].version == 2
    assert len(aborted) == 11 and all(e.code() == OK.ABORTED for e in aborted)
    version, _, log_length = stored(redis_url, redis_prefix, created.game_id)
    assert (int(version), log_length) == (2, 1)


async def test_unchecked_moves_from_simultaneous_seats_all_land(stub: Stub) -> None:
    """With expected_version 0, simultaneous bids by different seats all land."""
    created = await create(stub, seats=4, cards="5")
    results = await asyncio.gather(
        *(move(stub, created.name, created.tokens[seat], "bid:2") for seat in range(4))
    )
    assert sorted(r.version for r in results) == [2, 3, 4, 5]
    snap = await get(stub, created.name)
    assert snap.version == 5 and len(goofspiel_view(snap).tricks) == 1


async def test_idempotent_retry_returns_the_first_answer(
    stub: Stub, redis_url: str, redis_prefix: str
) -> None:
    """A retried request_id answers as the first time and does not move again."""
    created = await create(stub, cards="5")
    first = await move(stub, created.name, created.tokens[0], "bid:4", request_id="req-1")
    retry = await move(stub, created.name, created.tokens[0], "bid:4", request_id="req-1")
    assert retry == first
    version, _, log_length = stored(redis_url, redis_prefix, created.game_id)
    assert (int(version), log_length) == (2, 1)
    # the game moves on; the retry still gets the snapshot its request produced
    await move(stub, created.name, created.tokens[1], "bid:1")
    late = await move(stub, created.name, created.tokens[0], "bid:4", request_id="req-1")
    assert late == first
    # the same request id from another seat is another request
    other = await move(stub, created.name, created.tokens[1], "bid:2", request_id="req-1")
    assert other.version == 4


async def test_idempotent_retry_with_expected_version(stub: Stub) -> None:
    """A retry that names the version it was made against also gets the first answer."""
    created = await create(stub, cards="5")
    first = await move(stub, created.name, created.tokens[0], "bid:4", 1, "req-2")
    retry = await move(stub, created.name, created.tokens[0], "bid:4", 1, "req-2")
    assert retry == first and retry.version == 2


async def test_create_game_retry_returns_the_same_game(stub: Stub) -> None:
    """CreateGame with a seen request_id returns the same game and tokens."""
    first = await create(stub, request_id="create-1")
    again = await create(stub, request_id="create-1")
    assert (again.name, again.tokens) == (first.name, first.tokens)
    code, reason, _ = await fails(create(stub, seats=3, request_id="create-1"))
    assert (code, reason) == (OK.INVALID_ARGUMENT, "REQUEST_ID_REUSED")
    # another game asked under the same id: listed (no tokens), other options, a bot
    lobby = spb.CreateGameRequest(
        game_type="goofspiel", seat_count=2, options={"cards": "3"}, request_id="create-1"
    )
    lobby.seed, lobby.listed = 5, True
    other_cards = spb.CreateGameRequest(
        game_type="goofspiel", seat_count=2, options={"cards": "5"}, request_id="create-1"
    )
    botted = spb.CreateGameRequest(
        game_type="goofspiel", seat_count=2, options={"cards": "3"}, request_id="create-1"
    )
    botted.bots[1] = "random"
    for different in (lobby, other_cards, botted):
        code, reason, _ = await fails(stub.CreateGame(different))
        assert (code, reason) == (OK.INVALID_ARGUMENT, "REQUEST_ID_REUSED")
    # a timed game with a bot, retried later, is the same game (its clock is not compared)
    timed = spb.CreateGameRequest(
        game_type="goofspiel", seat_count=2, options={"cards": "3"}, request_id="create-2"
    )
    timed.time_control.per_move_seconds = 60
    timed.bots[1] = "random"
    made = await stub.CreateGame(timed)
    await asyncio.sleep(0.01)
    assert (await stub.CreateGame(timed)).game.name == made.game.name


async def test_spectators_and_other_seats_never_see_a_hidden_bid(stub: Stub) -> None:
    """A face-down bid shows only to its bidder, in views and in the move log."""
    created = await create(stub)
    await move(stub, created.name, created.tokens[0], "bid:3")
    mover = await get(stub, created.name, created.tokens[0])
    other = await get(stub, created.name, created.tokens[1])
    spectator = await get(stub, created.name)
    assert goofspiel_view(mover).my_bid == 3
    for snap in (other, spectator):
        assert not goofspiel_view(snap).HasField("my_bid")
        assert list(goofspiel_view(snap).has_bid) == [True, False]
    for token in (created.tokens[1], None):
        moves = await stub.ListMoves(
            spb.ListMovesRequest(name=created.name), metadata=bearer(token) if token else None
        )
        (record,) = moves.moves
        assert record.hidden and not record.move_id and not record.HasField("move")
        assert "3" not in record.description
    mine = await stub.ListMoves(
        spb.ListMovesRequest(name=created.name), metadata=bearer(created.tokens[0])
    )
    (record,) = mine.moves
    assert (record.move_id, record.seat, record.version, record.hidden) == ("bid:3", 0, 2, False)
    assert goofspiel_move(record.move).bid.card == 3


async def test_list_moves_pages(stub: Stub) -> None:
    """The move log comes in pages with a continuation token."""
    created = await create(stub, cards="5")
    for card in (1, 2):
        await move(stub, created.name, created.tokens[0], f"bid:{card}")
        await move(stub, created.name, created.tokens[1], f"bid:{card}")
    token = created.tokens[0]
    page1 = await stub.ListMoves(
        spb.ListMovesRequest(name=created.name, page_size=3), metadata=bearer(token)
    )
    assert [r.version for r in page1.moves] == [2, 3, 4] and page1.next_page_token
    page2 = await stub.ListMoves(
        spb.ListMovesRequest(name=created.name, page_size=3, page_token=page1.next_page_token),
        metadata=bearer(token),
    )
    assert [r.version for r in page2.moves] == [5] and not page2.next_page_token
    assert [r.seat for r in page1.moves] == [0, 1, 0]
    # above the maximum, page_size is coerced to it (AIP-158)
    everything = await stub.ListMoves(spb.ListMovesRequest(name=created.name, page_size=5000))
    assert [r.version for r in everything.moves] == [2, 3, 4, 5]
    code, reason, _ = await fails(
        stub.ListMoves(spb.ListMovesRequest(name=created.name, page_size=-1))
    )
    assert (code, reason) == (OK.INVALID_ARGUMENT, "BAD_PAGE_SIZE")
    forged = page1.next_page_token[:-2] + ("AA" if page1.next_page_token[-2:] != "AA" else "BB")
    for bad in ("zz", "9" * 4300, "3", forged, "²"):
        code, reason, _ = await fails(
            stub.ListMoves(spb.ListMovesRequest(name=created.name, page_token=bad))
        )
        assert (code, reason) == (OK.INVALID_ARGUMENT, "BAD_PAGE_TOKEN"), bad[:20]


async def test_watch_game_streams_every_version_then_ends(stub: Stub) -> None:
    """A watcher gets the current snapshot, one per move, and the stream ends at the end."""
    created = await create(stub, cards="3")
    stream = stub.WatchGame(
        spb.WatchGameRequest(name=created.name), metadata=bearer(created.tokens[1])
    )
    first = await stream.read()
    assert first.version == 1 and first.viewer_seat == 1 and len(first.legal_moves) == 3
    for card in (1, 2, 3):
        await move(stub, created.name, created.tokens[0], f"bid:{card}")
        await move(stub, created.name, created.tokens[1], f"bid:{card}")
    seen = [await stream.read() for _ in range(6)]
    assert [s.version for s in seen] == [2, 3, 4, 5, 6, 7]
    assert not goofspiel_view(seen[0]).HasField("my_bid")  # seat 0's bid stays hidden
    assert seen[-1].finished
    assert await stream.read() == grpc.aio.EOF
    assert await stream.code() == OK.OK


async def test_watch_unknown_game_is_not_found(stub: Stub) -> None:
    """Watching a game that does not exist fails with NOT_FOUND."""
    stream = stub.WatchGame(spb.WatchGameRequest(name="games/missing"))
    code, reason, _ = await fails(stream.read())
    assert (code, reason) == (OK.NOT_FOUND, "GAME_NOT_FOUND")


async def test_health_and_reflection(app: App, channel: grpc.aio.Channel) -> None:
    """Health says SERVING for the service; reflection lists it."""
    from grpc_health.v1 import health_pb2, health_pb2_grpc
    from grpc_reflection.v1alpha import reflection_pb2, reflection_pb2_grpc

    health = health_pb2_grpc.HealthStub(channel)
    for service in ("", "tribes.v1.GameService"):
        reply = await health.Check(health_pb2.HealthCheckRequest(service=service))
        assert reply.status == health_pb2.HealthCheckResponse.SERVING
    reflect = reflection_pb2_grpc.ServerReflectionStub(channel)
    call = reflect.ServerReflectionInfo()
    await call.write(reflection_pb2.ServerReflectionRequest(list_services=""))
    reply = await call.read()
    await call.done_writing()
    names = {s.name for s in reply.list_services_response.service}
    assert {"tribes.v1.GameService", "grpc.health.v1.Health"} <= names

"""The lobby over real gRPC: listed games, filters, pages, joins, races, tokens."""

from __future__ import annotations

import asyncio

import grpc
import pytest

from tests.service.helpers import fails
from tests.support.server import bearer, running_app
from tribes.store import Ttls
from tribes.store.memory import MemoryStore
from tribes.v1 import game_service_pb2 as spb
from tribes.v1 import game_service_pb2_grpc as spb_grpc

Stub = spb_grpc.GameServiceStub
SC = grpc.StatusCode


async def _listed(stub: Stub, game_type: str = "goofspiel", seats: int = 2) -> str:
    options = {"cards": "3"} if game_type == "goofspiel" else {}
    created = await stub.CreateGame(
        spb.CreateGameRequest(game_type=game_type, seat_count=seats, listed=True, options=options)
    )
    assert list(created.seat_tokens) == [], "the creator of a listed game gets no tokens"
    assert created.game.listed and all(s.open for s in created.game.seats)
    # the lobby orders by creation millisecond (ties by id): the next game gets a later one
    await asyncio.sleep(0.003)
    return created.game.name


async def _join(
    stub: Stub, name: str, player: str, seat: int | None = None, rid: str = ""
) -> spb.JoinGameResponse:
    request = spb.JoinGameRequest(name=name, player_name=player, request_id=rid)
    if seat is not None:
        request.seat = seat
    return await stub.JoinGame(request)


async def test_listed_games_newest_first_with_filters_and_pages(stub: Stub) -> None:
    """Newest first; game_type and open_only filter; pages follow with signed tokens."""
    names = [await _listed(stub) for _ in range(4)]
    five = await _listed(stub, "five_tribes", 3)
    everything = await stub.ListGames(spb.ListGamesRequest(page_size=200))
    listed = [g.name for g in everything.games]
    assert listed[:5] == [five, *reversed(names)]
    only = await stub.ListGames(spb.ListGamesRequest(game_type="five_tribes"))
    assert [g.name for g in only.games] == [five]
    summary = only.games[0]
    assert (summary.game_type, summary.seat_count, list(summary.open_seats)) == (
        "five_tribes",
        3,
        [0, 1, 2],
    )
    assert not summary.finished and summary.version == 1 and summary.create_time_unix_ms > 0
    first = await stub.ListGames(spb.ListGamesRequest(game_type="goofspiel", page_size=3))
    assert [g.name for g in first.games] == list(reversed(names))[:3] and first.next_page_token
    second = await stub.ListGames(
        spb.ListGamesRequest(game_type="goofspiel", page_size=3, page_token=first.next_page_token)
    )
    assert [g.name for g in second.games] == [names[0]]
    for who in ("ana", "bo"):
        await _join(stub, names[3], who)
    open_only = await stub.ListGames(spb.ListGamesRequest(game_type="goofspiel", open_only=True))
    assert names[3] not in [g.name for g in open_only.games]
    full = next(
        g for g in (await stub.ListGames(spb.ListGamesRequest())).games if g.name == names[3]
    )
    assert list(full.player_names) == ["ana", "bo"] and list(full.open_seats) == []


async def test_a_last_page_has_no_token_and_a_finished_game_no_open_seat(stub: Stub) -> None:
    """A page that holds the last games carries no token, even when it is full. A listed
    game that ended with a seat still open (its one player resigned) shows no open seat
    and is not among the games open to join."""
    names = [await _listed(stub, "fate_of_akalon", 2) for _ in range(3)]
    kind = "fate_of_akalon"
    whole = await stub.ListGames(spb.ListGamesRequest(game_type=kind, page_size=3))
    assert [g.name for g in whole.games] == names[::-1] and whole.next_page_token == ""
    first = await stub.ListGames(spb.ListGamesRequest(game_type=kind, page_size=2))
    assert len(first.games) == 2 and first.next_page_token
    rest = await stub.ListGames(
        spb.ListGamesRequest(game_type=kind, page_size=2, page_token=first.next_page_token)
    )
    assert [g.name for g in rest.games] == [names[0]] and rest.next_page_token == ""
    joined = await _join(stub, names[1], "ana")
    await stub.Resign(
        spb.ResignRequest(name=names[1], request_id="r1"), metadata=bearer(joined.seat_token)
    )
    over = await stub.ListGames(spb.ListGamesRequest(game_type=kind))
    ended = next(g for g in over.games if g.name == names[1])
    assert ended.finished and list(ended.open_seats) == []
    open_now = await stub.ListGames(spb.ListGamesRequest(game_type=kind, open_only=True))
    assert [g.name for g in open_now.games] == [names[2], names[0]]
    assert open_now.next_page_token == ""


async def test_lobby_input_errors(stub: Stub) -> None:
    """Bad page tokens, sizes and types are documented errors; big sizes are coerced."""
    page = await stub.ListGames(spb.ListGamesRequest(page_size=10_000))
    assert len(page.games) <= 200
    other = await stub.ListGames(spb.ListGamesRequest(game_type="goofspiel", page_size=1))
    for request, code, reason in [
        (spb.ListGamesRequest(page_token="nope"), SC.INVALID_ARGUMENT, "BAD_PAGE_TOKEN"),
        (spb.ListGamesRequest(page_size=-1), SC.INVALID_ARGUMENT, "BAD_PAGE_SIZE"),
        (spb.ListGamesRequest(game_type="chess"), SC.NOT_FOUND, "UNKNOWN_GAME_TYPE"),
        (spb.ListGamesRequest(game_type="Bad Type"), SC.INVALID_ARGUMENT, "BAD_GAME_TYPE"),
    ]:
        assert (await fails(stub.ListGames(request)))[:2] == (code, reason)
    if other.next_page_token:  # a token of one listing is refused by another
        foreign = spb.ListGamesRequest(game_type="five_tribes", page_token=other.next_page_token)
        assert (await fails(stub.ListGames(foreign)))[:2] == (SC.INVALID_ARGUMENT, "BAD_PAGE_TOKEN")


async def test_joining_gives_the_claimant_its_token_and_everyone_its_name(stub: Stub) -> None:
    """A join answers with the seat, its token and its snapshot; the name is in every
    snapshot's seat list and in the log as a system record; a watcher sees the join."""
    name = await _listed(stub)
    watch = stub.WatchGame(spb.WatchGameRequest(name=name))
    assert (await watch.read()).version == 1
    ana = await _join(stub, name, "Ana")
    assert ana.seat == 0 and ana.game.viewer_seat == 0 and ana.game.legal_moves
    assert [(s.player_name, s.open) for s in ana.game.seats] == [("Ana", False), ("", True)]
    pushed = await watch.read()
    assert pushed.version == 2 and pushed.seats[0].player_name == "Ana"
    watch.cancel()
    mine = await stub.GetGame(spb.GetGameRequest(name=name), metadata=bearer(ana.seat_token))
    assert mine.viewer_seat == 0
    await stub.ApplyMove(
        spb.ApplyMoveRequest(name=name, move_id="bid:1"), metadata=bearer(ana.seat_token)
    )
    log = await stub.ListMoves(spb.ListMovesRequest(name=name))
    assert (log.moves[0].system, log.moves[0].description) == (True, "Ana joined as seat 0")
    assert not log.moves[1].system and log.moves[1].seat == 0
    raw = (await stub.GetGame(spb.GetGameRequest(name=name))).SerializeToString()
    assert ana.seat_token.encode() not in raw


async def test_join_errors(stub: Stub) -> None:
    """Taken, full, out of range, unlisted, finished, bad names: documented reasons."""
    name = await _listed(stub)
    await _join(stub, name, "a", seat=1)
    assert (await fails(_join(stub, name, "b", seat=1)))[:2] == (
        SC.FAILED_PRECONDITION,
        "SEAT_TAKEN",
    )
    assert (await fails(_join(stub, name, "b", seat=7)))[:2] == (SC.INVALID_ARGUMENT, "BAD_SEAT")
    assert (await fails(_join(stub, name, "x" * 41)))[:2] == (
        SC.INVALID_ARGUMENT,
        "BAD_PLAYER_NAME",
    )
    await _join(stub, name, "c")
    assert (await fails(_join(stub, name, "d")))[:2] == (SC.FAILED_PRECONDITION, "GAME_FULL")
    plain = await stub.CreateGame(
        spb.CreateGameRequest(game_type="goofspiel", seat_count=2, options={"cards": "3"})
    )
    assert len(plain.seat_tokens) == 2 and not plain.game.listed
    assert (await fails(_join(stub, plain.game.name, "e")))[:2] == (
        SC.FAILED_PRECONDITION,
        "NOT_LISTED",
    )
    assert (await fails(_join(stub, "games/none", "e")))[:2] == (SC.NOT_FOUND, "GAME_NOT_FOUND")


async def test_a_retried_join_gets_the_same_seat_and_token(stub: Stub) -> None:
    """The same request_id twice: one claim, the same answer."""
    name = await _listed(stub)
    first = await _join(stub, name, "Ana", rid="join-1")
    again = await _join(stub, name, "Ana", rid="join-1")
    assert (first.seat, first.seat_token) == (again.seat, again.seat_token)
    other = await _join(stub, name, "Bo")
    assert other.seat == 1 and other.seat_token != first.seat_token


async def test_racing_joins_claim_each_seat_once(stub: Stub) -> None:
    """Five callers race for one seat: exactly one wins. Six race for any seat of a
    three-seat game: exactly three win, each a different seat."""
    name = await _listed(stub)
    results = await asyncio.gather(
        *(_join(stub, name, f"p{i}", seat=0) for i in range(5)), return_exceptions=True
    )
    winners = [r for r in results if isinstance(r, spb.JoinGameResponse)]
    assert len(winners) == 1 and winners[0].seat == 0
    losers = [r for r in results if not isinstance(r, spb.JoinGameResponse)]
    assert all(isinstance(r, grpc.aio.AioRpcError) for r in losers)
    three = await _listed(stub, seats=3)
    results = await asyncio.gather(
        *(_join(stub, three, f"q{i}") for i in range(6)), return_exceptions=True
    )
    seats = sorted(r.seat for r in results if isinstance(r, spb.JoinGameResponse))
    assert seats == [0, 1, 2]
    refused = [r for r in results if isinstance(r, grpc.aio.AioRpcError)]
    assert len(refused) == 3 and all(r.code() == SC.FAILED_PRECONDITION for r in refused)


async def test_expired_games_leave_the_lobby() -> None:
    """A listed game that expires is not listed any more (and leaves the index)."""
    now = [1000.0]
    store = MemoryStore(Ttls(idle=60), clock=lambda: now[0])
    async with running_app(store) as app:
        async with grpc.aio.insecure_channel(f"127.0.0.1:{app.port}") as channel:
            stub = Stub(channel)
            name = await _listed(stub)
            assert [g.name for g in (await stub.ListGames(spb.ListGamesRequest())).games] == [name]
            now[0] += 61
            assert list((await stub.ListGames(spb.ListGamesRequest())).games) == []
            assert await store.list_page("", None, 10) == []


@pytest.mark.parametrize("seats", [2, 3])
async def test_listed_games_play_like_any_other(stub: Stub, seats: int) -> None:
    """Once every seat is joined, the claimants play the game to its end."""
    name = await _listed(stub, seats=seats)
    tokens = [(await _join(stub, name, f"p{i}")).seat_token for i in range(seats)]
    for card in (1, 2, 3):
        for token in tokens:
            snap = await stub.ApplyMove(
                spb.ApplyMoveRequest(name=name, move_id=f"bid:{card}"), metadata=bearer(token)
            )
    assert snap.finished and [s.player_name for s in snap.seats] == [f"p{i}" for i in range(seats)]

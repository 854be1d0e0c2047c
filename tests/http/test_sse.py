"""Live updates for browsers: GET /v1/games/{id}:watch as Server-Sent Events."""

from __future__ import annotations

import asyncio

import aiohttp

from tests.support.http import Event, call, events, reason
from tests.support.server import server_process
from tribes.server import App

Http = aiohttp.ClientSession


async def _create(http: Http, cards: int = 3) -> tuple[str, list[str]]:
    body = {"gameType": "goofspiel", "seatCount": 2, "options": {"cards": str(cards)}, "seed": "1"}
    _, created = await call(http, "POST", "/v1/games", body)
    return created["game"]["name"], created["seatTokens"]


async def _bid(http: Http, name: str, token: str, card: int) -> None:
    status, body = await call(
        http, "POST", f"/v1/{name}:applyMove", {"moveId": f"bid:{card}"}, token
    )
    assert status == 200, body


async def _next(stream: object) -> Event:
    """The next snapshot/end event, skipping heartbeats."""
    async with asyncio.timeout(10):
        while True:
            item = await anext(stream)  # type: ignore[call-overload]
            if item is not None:
                return item  # type: ignore[no-any-return]


async def test_events_per_version_redacted_with_heartbeats_and_an_end(http: Http) -> None:
    """A seat's stream: one snapshot event per version (id = version) with its own legal
    moves, heartbeats while idle, and an end event after the final snapshot."""
    name, tokens = await _create(http)
    async with http.get(f"/v1/{name}:watch", params={"access_token": tokens[0]}) as response:
        assert response.status == 200
        assert response.headers["Content-Type"].startswith("text/event-stream")
        stream = events(response)
        first = await _next(stream)
        assert (first.event, first.id, first.data["version"]) == ("snapshot", "1", "1")
        assert first.data["viewerSeat"] == 0 and len(first.data["legalMoves"]) == 3
        async with asyncio.timeout(5):
            assert await anext(stream) is None  # a heartbeat (0.2 s in these tests)
        for card in (1, 2, 3):
            await _bid(http, name, tokens[0], card)
            await _bid(http, name, tokens[1], card)
        seen = [await _next(stream) for _ in range(6)]
        assert [e.id for e in seen] == ["2", "3", "4", "5", "6", "7"]
        assert seen[-1].data["finished"] is True
        assert (await _next(stream)).event == "end"


async def test_a_spectator_stream_shows_no_seat_data(http: Http) -> None:
    """Without a token the stream is the spectator's: no legal moves, no pending bid."""
    name, tokens = await _create(http)
    async with http.get(f"/v1/{name}:watch") as response:
        stream = events(response)
        await _next(stream)
        await _bid(http, name, tokens[0], 2)
        second = await _next(stream)
    view = second.data["view"]["plugin"]  # the test game is a plugin: its view is an Any
    assert view["@type"].endswith("GoofspielView")
    assert second.data["viewerSeat"] == -1 and second.data["legalMoves"] == []
    assert view["hasBid"] == [True, False] and "myBid" not in view


async def test_presence_true_repeats_the_version_when_a_seat_comes(http: Http) -> None:
    """``?presence=true``: a seat opening a WebSocket session is pushed to the watch as
    the same version (the same event id) with the seat now present."""
    name, tokens = await _create(http)
    async with http.get(f"/v1/{name}:watch", params={"presence": "true"}) as response:
        stream = events(response)
        first = await _next(stream)
        assert [seat["present"] for seat in first.data["seats"]] == [False, False]
        params = {"access_token": tokens[0]}
        async with http.ws_connect(f"/v1/{name}:play", params=params) as session:
            await session.receive()
            came = await _next(stream)
    assert (came.id, came.data["version"]) == (first.id, first.data["version"])
    assert [seat["present"] for seat in came.data["seats"]] == [True, False]


async def test_bad_last_event_id_is_400(http: Http) -> None:
    """A Last-Event-ID that is not a version is refused before the stream starts."""
    name, _ = await _create(http)
    status, body = await call(http, "GET", f"/v1/{name}:watch", headers={"Last-Event-ID": "x²"})
    assert (status, reason(body)) == (400, "BAD_LAST_EVENT_ID")


async def test_resume_at_the_end_of_a_finished_game_is_204(app: App, http: Http) -> None:
    """Resuming after the final version answers 204, which stops EventSource retrying."""
    name, tokens = await _create(http, cards=3)
    for card in (1, 2, 3):
        await _bid(http, name, tokens[0], card)
        await _bid(http, name, tokens[1], card)
    async with http.get(f"/v1/{name}:watch", headers={"Last-Event-ID": "7"}) as response:
        assert response.status == 204


async def test_resume_at_the_current_version_of_a_game_in_play_streams(http: Http) -> None:
    """Resuming at the version the game is at (a browser reconnecting while nothing
    moves) starts the stream at once and goes on with the next version; 204 is only for
    a finished game, since it stops EventSource for good."""
    name, tokens = await _create(http, cards=3)
    resume = {"Last-Event-ID": "1"}
    async with http.get(f"/v1/{name}:watch", headers=resume) as response:
        assert response.status == 200
        stream = events(response)
        await _bid(http, name, tokens[0], 1)
        moved = await _next(stream)
        assert (moved.event, moved.id) == ("snapshot", "2")
    query = {"last_event_id": "2", "access_token": tokens[1], "presence": "true"}
    async with http.get(f"/v1/{name}:watch", params=query) as response:
        assert response.status == 200
        stream = events(response)
        await _bid(http, name, tokens[1], 2)
        while (moved := await _next(stream)).id == "2":
            pass  # the same version again, with its seat list (presence)
        assert (moved.id, moved.data["viewerSeat"]) == ("3", 1)


def test_resume_with_last_event_id_across_two_processes(redis_url: str, redis_prefix: str) -> None:
    """Watch on process A, drop the stream, moves land, resume on process B with
    Last-Event-ID: exactly the versions after it arrive, none missed, none repeated."""
    env = {"REDIS_URL": redis_url, "TRIBES_REDIS_PREFIX": redis_prefix}
    with server_process(env) as a, server_process(env) as b:

        async def run() -> None:
            async with (
                aiohttp.ClientSession(f"http://127.0.0.1:{a.http_port}") as on_a,
                aiohttp.ClientSession(f"http://127.0.0.1:{b.http_port}") as on_b,
            ):
                name, tokens = await _create(on_a, cards=5)
                async with on_a.get(f"/v1/{name}:watch") as response:
                    stream = events(response)
                    assert (await _next(stream)).id == "1"
                    await _bid(on_b, name, tokens[0], 1)  # moves through the other process
                    await _bid(on_b, name, tokens[1], 1)
                    assert [(await _next(stream)).id for _ in range(2)] == ["2", "3"]
                for card in (2, 3):  # while nobody watches
                    await _bid(on_a, name, tokens[0], card)
                    await _bid(on_a, name, tokens[1], card)
                headers = {"Last-Event-ID": "3"}
                async with on_b.get(f"/v1/{name}:watch", headers=headers) as response:
                    stream = events(response)
                    resumed = [await _next(stream) for _ in range(4)]
                    assert [e.id for e in resumed] == ["4", "5", "6", "7"]
                    for card in (4, 5):
                        await _bid(on_a, name, tokens[0], card)
                        await _bid(on_a, name, tokens[1], card)
                    tail = [await _next(stream) for _ in range(5)]
                assert [e.id for e in tail[:4]] == ["8", "9", "10", "11"]
                assert tail[3].data["finished"] is True and tail[4].event == "end"

        asyncio.run(run())

"""The lobby over REST: GET /v1/games (filters, pages) and POST /v1/games/{id}:join."""

from __future__ import annotations

import aiohttp

from tests.support.http import call, reason

Http = aiohttp.ClientSession


async def test_list_join_and_play_over_rest(http: Http) -> None:
    """Create listed, find it with query filters, join two seats, see names, play."""
    body = {"gameType": "goofspiel", "seatCount": 2, "listed": True, "options": {"cards": "3"}}
    status, created = await call(http, "POST", "/v1/games", body)
    assert status == 200 and created["seatTokens"] == [] and created["game"]["listed"] is True
    name = created["game"]["name"]
    status, page = await call(http, "GET", "/v1/games?gameType=goofspiel&openOnly=true&pageSize=5")
    assert status == 200 and name in [g["name"] for g in page["games"]]
    summary = next(g for g in page["games"] if g["name"] == name)
    assert summary["openSeats"] == [0, 1] and summary["version"] == "1"
    status, ana = await call(http, "POST", f"/v1/{name}:join", {"playerName": "Ana", "seat": 1})
    assert status == 200 and ana["seat"] == 1 and ana["seatToken"]
    status, bo = await call(http, "POST", f"/v1/{name}:join", {"playerName": "Bo"})
    assert status == 200 and bo["seat"] == 0
    status, taken = await call(http, "POST", f"/v1/{name}:join", {"playerName": "Cy"})
    assert (status, reason(taken)) == (400, "GAME_FULL")
    status, snap = await call(
        http, "POST", f"/v1/{name}:applyMove", {"moveId": "bid:2"}, ana["seatToken"]
    )
    assert status == 200
    assert [s["playerName"] for s in snap["seats"]] == ["Bo", "Ana"]
    status, page = await call(http, "GET", "/v1/games?gameType=goofspiel&openOnly=true")
    assert name not in [g["name"] for g in page["games"]]


async def test_lobby_errors_over_rest(http: Http) -> None:
    """Query and body errors keep their reasons and HTTP statuses."""
    checks = [
        (await call(http, "GET", "/v1/games?pageToken=forged"), 400, "BAD_PAGE_TOKEN"),
        (await call(http, "GET", "/v1/games?openOnly=maybe"), 400, "BAD_QUERY"),
        (await call(http, "GET", "/v1/games?gameType=chess"), 404, "UNKNOWN_GAME_TYPE"),
        (
            await call(http, "POST", "/v1/games/nope:join", {"playerName": "x"}),
            404,
            "GAME_NOT_FOUND",
        ),
    ]
    for (status, body), want_status, want_reason in checks:
        assert (status, reason(body)) == (want_status, want_reason), body

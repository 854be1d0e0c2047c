"""The REST/JSON door over real HTTP: every route, every error, tokens, retries, CORS."""

from __future__ import annotations

import asyncio
import json
import math
from typing import Any

import aiohttp
import grpc
import pytest

from tests.support.http import call, reason
from tests.support.redis_server import PrivateRedis
from tests.support.server import bearer, running_app
from tribes import bots
from tribes.server import App
from tribes.store.redis import RedisStore
from tribes.v1 import game_service_pb2 as spb
from tribes.v1 import game_service_pb2_grpc as spb_grpc

Http = aiohttp.ClientSession


async def create(http: Http, game: str = "goofspiel", seats: int = 2, **kw: Any) -> dict[str, Any]:
    body = {"gameType": game, "seatCount": seats, "seed": "5", **kw}
    if game == "goofspiel":
        body.setdefault("options", {"cards": "3"})
    status, created = await call(http, "POST", "/v1/games", body)
    assert status == 200, created
    return created  # type: ignore[no-any-return]


async def test_list_game_types(http: Http) -> None:
    """GET /v1/gameTypes lists every hosted game with its seat counts and options."""
    status, body = await call(http, "GET", "/v1/gameTypes")
    assert status == 200
    ids = {t["id"]: t for t in body["gameTypes"]}
    assert {"five_tribes", "fate_of_akalon", "goofspiel"} <= set(ids)
    assert ids["five_tribes"]["seatCounts"] == [2, 3, 4]
    assert ids["five_tribes"]["botKinds"] == list(bots.KINDS)


async def test_create_get_move_and_list_moves(http: Http) -> None:
    """A game played over REST: create, get as a seat, apply by id and typed, page the log."""
    created = await create(http)
    name, tokens = created["game"]["name"], created["seatTokens"]
    assert created["game"]["version"] == "1" and created["game"]["viewerSeat"] == -1
    status, mine = await call(http, "GET", f"/v1/{name}", token=tokens[0])
    assert status == 200 and mine["viewerSeat"] == 0
    assert [m["id"] for m in mine["legalMoves"]] == ["bid:1", "bid:2", "bid:3"]
    status, after = await call(
        http,
        "POST",
        f"/v1/{name}:applyMove",
        {"moveId": "bid:2", "expectedVersion": "1"},
        tokens[0],
    )
    assert status == 200 and after["version"] == "2"
    typed = next(m["move"] for m in mine["legalMoves"] if m["id"] == "bid:3")
    status, after = await call(http, "POST", f"/v1/{name}:applyMove", {"move": typed}, tokens[1])
    assert status == 200 and after["version"] == "3", after
    status, page = await call(http, "GET", f"/v1/{name}/moves?pageSize=1", token=tokens[0])
    assert status == 200 and [m["version"] for m in page["moves"]] == ["2"]
    status, rest = await call(
        http, "GET", f"/v1/{name}/moves", params={"pageToken": page["nextPageToken"]}
    )
    assert status == 200 and [m["version"] for m in rest["moves"]] == ["3"]
    # a spectator sees the face-down bid as a hidden record
    assert rest["moves"][0]["hidden"] is True and rest["moves"][0]["moveId"] == ""
    assert rest["nextPageToken"] == ""


async def test_spectators_see_no_hidden_information(http: Http) -> None:
    """Over HTTP as over gRPC: a spectator sees no gold in Five Tribes, a seat its own."""
    created = await create(http, "five_tribes")
    name, tokens = created["game"]["name"], created["seatTokens"]
    _, spectator = await call(http, "GET", f"/v1/{name}")
    _, seat0 = await call(http, "GET", f"/v1/{name}", token=tokens[0])
    players = lambda snap: snap["view"]["fiveTribes"]["players"]  # noqa: E731
    assert all("gold" not in p for p in players(spectator))
    assert "gold" in players(seat0)[0] and "gold" not in players(seat0)[1]


async def test_retries_with_one_request_id_play_once_across_doors(app: App, http: Http) -> None:
    """The same request_id over HTTP and then over gRPC answers the first result."""
    created = await create(http)
    name, token = created["game"]["name"], created["seatTokens"][0]
    body = {"moveId": "bid:1", "requestId": "retry-1"}
    _, first = await call(http, "POST", f"/v1/{name}:applyMove", body, token)
    _, again = await call(http, "POST", f"/v1/{name}:applyMove", body, token)
    async with grpc.aio.insecure_channel(f"127.0.0.1:{app.port}") as channel:
        stub = spb_grpc.GameServiceStub(channel)
        via_grpc = await stub.ApplyMove(
            spb.ApplyMoveRequest(name=name, move_id="bid:1", request_id="retry-1"),
            metadata=bearer(token),
        )
    assert first["version"] == again["version"] == "2" == str(via_grpc.version)
    _, log = await call(http, "GET", f"/v1/{name}/moves")
    assert len(log["moves"]) == 1


@pytest.mark.parametrize(
    ("request_", "status", "code", "why"),
    [
        (("GET", "/v1/games/bad%20name", None, None), 400, 3, "BAD_NAME"),
        (("POST", "/v1/games", b"{not json", None), 400, 3, "MALFORMED_REQUEST"),
        (
            ("POST", "/v1/games", {"gameType": "goofspiel", "nope": 1}, None),
            400,
            3,
            "MALFORMED_REQUEST",
        ),
        (("POST", "/v1/games", [1, 2], None), 400, 3, "MALFORMED_REQUEST"),
        (("POST", "/v1/games", b"[" * 5000 + b"]" * 5000, None), 400, 3, "MALFORMED_REQUEST"),
        (
            ("POST", "/v1/games", b'{"options":' + b'{"a":' * 5000 + b"1" + b"}" * 5001, None),
            400,
            3,
            "MALFORMED_REQUEST",
        ),
        (
            ("POST", "/v1/games", {"gameType": "goofspiel", "seatCount": 7}, None),
            400,
            3,
            "BAD_OPTIONS",
        ),
        (
            ("POST", "/v1/games", {"gameType": "chess", "seatCount": 2}, None),
            404,
            5,
            "UNKNOWN_GAME_TYPE",
        ),
        (("GET", "/v1/games/nosuchgame", None, None), 404, 5, "GAME_NOT_FOUND"),
        (("GET", "/v1/nothing/here", None, None), 404, 5, "NO_ROUTE"),
        (("DELETE", "/v1/games", None, None), 405, 12, "METHOD_NOT_ALLOWED"),
        (("GET", "/v1/gameTypes?bogus=1", None, None), 400, 3, "BAD_QUERY"),
        (("GET", "/v1/games?pageSize=abc", None, None), 400, 3, "BAD_QUERY"),
        (("GET", "/v1/games?pageSize=1.5", None, None), 400, 3, "BAD_QUERY"),
        (("GET", "/v1/games?pageSize=99999999999", None, None), 400, 3, "BAD_QUERY"),
        (("GET", "/v1/games/abc/moves?pageSize=", None, None), 400, 3, "BAD_QUERY"),
        (("GET", "/v1/games/abc?access_token=0.x", None, None), 400, 3, "BAD_QUERY"),
        (("GET", "/v1/games?last_event_id=3", None, None), 400, 3, "BAD_QUERY"),
        (("POST", "/v1/games", b"x" * (5 * 1024 * 1024), None), 413, 3, "REQUEST_TOO_LARGE"),
        (("GET", "/v1/gameTypes", None, "Basic abc"), 403, 7, "BAD_TOKEN"),
    ],
    ids=lambda v: v if isinstance(v, str) else None,
)
async def test_request_errors_map_to_http_statuses(
    http: Http, request_: tuple[str, str, Any, str | None], status: int, code: int, why: str
) -> None:
    """Each error has its HTTP status and a google.rpc.Status body with its ErrorInfo."""
    method, path, body, authorization = request_
    headers = {"Authorization": authorization} if authorization else {}
    got, error = await call(http, method, path, body, headers=headers)
    assert (got, error["code"], reason(error)) == (status, code, why), error
    assert error["message"] and len(error["message"]) < 300


async def test_game_errors_map_to_http_statuses(http: Http) -> None:
    """Rules, turn, version and token errors of a real game, with their statuses."""
    created = await create(http)
    name, tokens = created["game"]["name"], created["seatTokens"]
    move = f"/v1/{name}:applyMove"
    checks = [
        (await call(http, "POST", move, {"moveId": "bid:1"}), 401, "TOKEN_REQUIRED"),
        (await call(http, "POST", move, {"moveId": "bid:1"}, "0.forged"), 403, "BAD_TOKEN"),
        (await call(http, "POST", move, {"moveId": "bid:9"}, tokens[0]), 400, "ILLEGAL_MOVE"),
        (await call(http, "POST", move, {"moveId": "??"}, tokens[0]), 400, "MALFORMED_MOVE"),
        (await call(http, "POST", move, {}, tokens[0]), 400, "MALFORMED_MOVE"),
        (
            await call(http, "POST", move, {"moveId": "bid:1", "expectedVersion": "9"}, tokens[0]),
            409,
            "STALE_VERSION",
        ),
    ]
    for (status, body), want_status, want_reason in checks:
        assert (status, reason(body)) == (want_status, want_reason), body
    await call(http, "POST", move, {"moveId": "bid:1"}, tokens[0])
    status, body = await call(http, "POST", move, {"moveId": "bid:2"}, tokens[0])
    assert (status, reason(body)) == (400, "NOT_YOUR_TURN")
    for card in (1, 2, 3):
        if card > 1:
            await call(http, "POST", move, {"moveId": f"bid:{card}"}, tokens[0])
        await call(http, "POST", move, {"moveId": f"bid:{card}"}, tokens[1])
    status, body = await call(http, "POST", move, {"moveId": "bid:1"}, tokens[0])
    assert (status, reason(body)) == (400, "GAME_FINISHED")
    status, body = await call(http, "GET", f"/v1/{name}/moves?pageSize=-1")
    assert (status, reason(body)) == (400, "BAD_PAGE_SIZE")
    status, body = await call(http, "GET", f"/v1/{name}/moves?pageToken=999")
    assert (status, reason(body)) == (400, "BAD_PAGE_TOKEN")


@pytest.mark.parametrize(
    ("headers", "query"),
    [
        ({"authorization": "Bearer " + "SECRETTOKEN" * 2000}, ""),  # a header over 8,190 bytes
        ({f"x-h{i}": "v" for i in range(300)}, ""),  # too many headers
        ({}, "?pageToken=" + "PAGETOKEN" * 2000),  # a request line over 8,190 bytes
    ],
)
async def test_requests_over_the_parser_limits_are_400_and_logged_without_their_bytes(
    headers: dict[str, str], query: str, caplog: pytest.LogCaptureFixture
) -> None:
    """The server library refuses them before any route (a plain 400: README Decisions);
    its log line names the refusal at WARNING and quotes none of the input, a token
    least of all."""
    caplog.set_level("INFO")
    async with running_app(http_port=0) as app:
        async with aiohttp.ClientSession(f"http://127.0.0.1:{app.http_port}") as http:
            async with http.get("/v1/gameTypes" + query, headers=headers) as response:
                assert response.status == 400
            status, _ = await call(http, "GET", "/v1/gameTypes")  # the server goes on
            assert status == 200
    refused = [r for r in caplog.records if r.name == "aiohttp.server"]
    assert refused and all(r.levelname == "WARNING" and not r.exc_info for r in refused)
    assert "SECRETTOKEN" not in caplog.text and "PAGETOKEN" not in caplog.text


async def test_rate_limit_is_429() -> None:
    """RESOURCE_EXHAUSTED is HTTP 429, with Retry-After in whole seconds."""
    from tribes.store.memory import MemoryStore

    async with running_app(
        MemoryStore(), create_rate=0.001, create_burst=1, limit_loopback=True
    ) as app:
        async with aiohttp.ClientSession(f"http://127.0.0.1:{app.http_port}") as http:
            body = {"gameType": "goofspiel", "seatCount": 2}
            assert (await call(http, "POST", "/v1/games", body))[0] == 200
            async with http.post("/v1/games", json=body) as refused:
                status, error = refused.status, await refused.json()
                retry_after = refused.headers.get("Retry-After")
    assert (status, error["code"], reason(error)) == (429, 8, "RATE_LIMITED")
    wait = float(error["details"][0]["metadata"]["retry_after_seconds"])
    assert retry_after == str(max(1, math.ceil(wait)))


async def test_streams_over_the_per_address_limit_are_429_or_a_last_error_frame() -> None:
    """Over TRIBES_STREAMS_PER_PEER, an SSE watch is a plain 429 and a WebSocket session
    ends with a RESOURCE_EXHAUSTED error frame (TOO_MANY_STREAMS)."""
    from tribes.store.memory import MemoryStore

    async with running_app(MemoryStore(), streams_per_peer=1, limit_loopback=True) as app:
        async with aiohttp.ClientSession(f"http://127.0.0.1:{app.http_port}") as http:
            name = (await create(http))["game"]["name"]
            async with http.ws_connect(f"/v1/{name}:play") as held:
                assert "snapshot" in json.loads((await held.receive()).data)
                async with http.get(f"/v1/{name}:watch") as watch:
                    assert watch.status == 429
                    assert reason(await watch.json()) == "TOO_MANY_STREAMS"
                async with http.ws_connect(f"/v1/{name}:play") as refused:
                    frame = json.loads((await refused.receive()).data)
                    assert frame["error"]["code"] == 8
                    assert reason(frame["error"]) == "TOO_MANY_STREAMS"
                    assert (await refused.receive()).type == aiohttp.WSMsgType.CLOSE


async def test_one_address_has_one_budget_through_both_doors() -> None:
    """gRPC names a peer ``ipv4:127.0.0.1:<port>``, the HTTP door ``127.0.0.1``: both are
    one address, so a CreateGame budget spent over gRPC is spent for HTTP too, and a
    stream open over gRPC counts against an SSE watch."""
    from tribes.store.memory import MemoryStore

    async with running_app(
        MemoryStore(),
        create_rate=0.001,
        create_burst=1,
        streams_per_peer=1,
        limit_loopback=True,
    ) as app:
        async with (
            grpc.aio.insecure_channel(f"127.0.0.1:{app.port}") as channel,
            aiohttp.ClientSession(f"http://127.0.0.1:{app.http_port}") as http,
        ):
            stub = spb_grpc.GameServiceStub(channel)
            created = await stub.CreateGame(
                spb.CreateGameRequest(game_type="goofspiel", seat_count=2)
            )
            body = {"gameType": "goofspiel", "seatCount": 2}
            status, error = await call(http, "POST", "/v1/games", body)
            assert (status, reason(error)) == (429, "RATE_LIMITED")
            session = stub.Play()
            await session.write(spb.PlayRequest(open=spb.OpenSession(name=created.game.name)))
            assert (await session.read()).snapshot.version == 1
            async with http.get(f"/v1/{created.game.name}:watch") as watch:
                assert (watch.status, reason(await watch.json())) == (429, "TOO_MANY_STREAMS")
            session.cancel()


async def test_store_outage_is_503_and_readyz_follows() -> None:
    """A Redis that stops answers 503 UNAVAILABLE; /readyz turns 503, /healthz stays 200."""
    redis = PrivateRedis()
    redis.start()
    try:
        store = RedisStore(redis.url, prefix="outage", timeout=0.3)
        async with running_app(store, health_interval=0.1) as app:
            async with aiohttp.ClientSession(f"http://127.0.0.1:{app.http_port}") as http:
                assert (await call(http, "GET", "/readyz"))[0] == 200
                redis.stop()
                status, error = await call(http, "GET", "/v1/games/abc")
                assert (status, error["code"], reason(error)) == (503, 14, "STORE_UNAVAILABLE")
                await asyncio.sleep(0.6)
                assert (await call(http, "GET", "/readyz"))[0] == 503
                assert (await call(http, "GET", "/healthz"))[0] == 200
    finally:
        redis.stop()


async def test_cors_preflight_and_allow_list(http: Http) -> None:
    """Allowed origins get their preflight answered and the allow-origin header; others
    get neither."""
    preflight = {
        "Access-Control-Request-Method": "POST",
        "Access-Control-Request-Headers": "authorization",
    }
    async with http.options(
        "/v1/games", headers={"Origin": "https://play.example", **preflight}
    ) as ok:
        assert ok.status == 204
        assert ok.headers["Access-Control-Allow-Origin"] == "https://play.example"
        assert "Authorization" in ok.headers["Access-Control-Allow-Headers"]
        assert "POST" in ok.headers["Access-Control-Allow-Methods"]
    async with http.options(
        "/v1/games", headers={"Origin": "https://evil.example", **preflight}
    ) as bad:
        assert bad.status == 403 and "Access-Control-Allow-Origin" not in bad.headers
    async with http.get("/v1/gameTypes", headers={"Origin": "https://play.example"}) as got:
        assert got.headers["Access-Control-Allow-Origin"] == "https://play.example"
        assert got.headers["Access-Control-Expose-Headers"] == "Retry-After"
    async with http.get("/v1/gameTypes", headers={"Origin": "https://evil.example"}) as got:
        assert got.status == 200 and "Access-Control-Allow-Origin" not in got.headers


async def test_an_ill_typed_query_value_is_named_and_a_query_token_is_not_ignored(
    http: Http,
) -> None:
    """An ill-typed query value is BAD_QUERY naming the parameter (escaped, cut short).
    A token in the query of a route that does not stream would be ignored, the caller
    served as a spectator: it is refused instead, with what to send."""
    status, error = await call(http, "GET", "/v1/games?gameType=goofspiel&pageSize=" + "x" * 500)
    assert (status, reason(error)) == (400, "BAD_QUERY")
    assert "'pageSize'" in error["message"] and "x" * 100 not in error["message"]
    created = await create(http)
    name, tokens = created["game"]["name"], created["seatTokens"]
    status, error = await call(http, "GET", f"/v1/{name}?access_token={tokens[0]}")
    assert (status, reason(error)) == (400, "BAD_QUERY")
    assert "Authorization" in error["message"] and tokens[0] not in error["message"]
    status, seat = await call(
        http, "GET", f"/v1/{name}", headers={"Authorization": f"Bearer {tokens[0]}"}
    )
    assert (status, seat["viewerSeat"]) == (200, 0)
    status, listed = await call(http, "GET", "/v1/games?pageSize=2&openOnly=true")
    assert status == 200 and "games" in listed


async def test_cors_headers_reach_a_stream(http: Http) -> None:
    """A server-sent event stream from an allowed origin carries the allow-origin header
    (its headers go out before the handler returns); another origin's does not."""
    created = await create(http)
    path = f"/v1/{created['game']['name']}:watch"
    async with http.get(path, headers={"Origin": "https://play.example"}) as stream:
        assert stream.status == 200
        assert stream.headers["Access-Control-Allow-Origin"] == "https://play.example"
        assert stream.headers["Vary"] == "Origin"
    async with http.get(path, headers={"Origin": "https://evil.example"}) as stream:
        assert stream.status == 200 and "Access-Control-Allow-Origin" not in stream.headers


async def test_cors_star_allows_any_origin() -> None:
    """TRIBES_CORS_ORIGINS=* (development) allows every origin."""
    from tribes.store.memory import MemoryStore

    async with running_app(MemoryStore(), cors_origins=("*",)) as app:
        async with aiohttp.ClientSession(f"http://127.0.0.1:{app.http_port}") as http:
            headers = {"Origin": "http://localhost:5173", "Access-Control-Request-Method": "GET"}
            async with http.options("/v1/gameTypes", headers=headers) as ok:
                assert ok.status == 204
                assert ok.headers["Access-Control-Allow-Origin"] == "http://localhost:5173"


async def test_http_metrics_count_by_route_template(app: App, http: Http) -> None:
    """http_server_requests_total is labelled by the annotation's template, not the path."""
    created = await create(http)
    await call(http, "GET", f"/v1/{created['game']['name']}")
    await call(http, "GET", "/v1/games/missing")
    sample = app.metrics.registry.get_sample_value
    labels = {"method": "GET", "route": "/v1/{name=games/*}"}
    assert sample("http_server_requests_total", {**labels, "code": "200"}) == 1
    assert sample("http_server_requests_total", {**labels, "code": "404"}) == 1
    assert sample("http_server_request_duration_seconds_count", labels) == 2


async def test_openapi_describes_every_route(http: Http) -> None:
    """GET /openapi.json: an OpenAPI 3 document with a path per annotated RPC."""
    status, doc = await call(http, "GET", "/openapi.json")
    assert status == 200 and doc["openapi"].startswith("3.")
    ops = {op["operationId"] for path in doc["paths"].values() for op in path.values()}
    assert ops == {
        "ListGameTypes",
        "CreateGame",
        "GetGame",
        "ApplyMove",
        "ListMoves",
        "WatchGame",
        "ListGames",
        "JoinGame",
        "Resign",
        "SuggestMove",
        "PlayWebSocket",
    }
    assert "/v1/games/{name}:applyMove" in doc["paths"]
    watch = doc["paths"]["/v1/games/{name}:watch"]["get"]["parameters"]
    assert {p["name"] for p in watch} >= {"name", "presence", "Last-Event-ID", "access_token"}
    assert "last_event_id" in {p["name"] for p in watch}
    play = doc["paths"]["/v1/games/{name}:play"]["get"]
    assert {p["name"] for p in play["parameters"]} >= {"name", "access_token", "from_version"}
    assert "101" in play["responses"]
    messages = play["x-websocket-messages"]
    assert messages["client"] == {"$ref": "#/components/schemas/tribes.v1.PlayRequest"}
    assert "tribes.v1.PlayEvent" in doc["components"]["schemas"]
    snapshot = doc["components"]["schemas"]["tribes.v1.GameSnapshot"]["properties"]
    assert snapshot["version"]["type"] == "string" and snapshot["legalMoves"]["type"] == "array"
    json.dumps(doc)  # serialisable as served


async def test_the_playground_is_served_at_the_root(http: Http) -> None:
    """GET / is the playground's page; its files are under /web/; nothing outside."""
    async with http.get("/") as page:
        assert page.status == 200 and "<html" in (await page.text()).lower()
    async with http.get("/web/index.html") as same:
        assert same.status == 200
    for escape in ("/web/../../README.md", "/web/%2e%2e/%2e%2e/README.md"):
        async with http.get(escape) as refused:
            assert refused.status == 404

"""The play session over WebSocket: GET /v1/games/{id}:play, JSON frames both ways (or
binary protobuf frames under the ``tribes.v1.proto`` subprotocol)."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import aiohttp
import pytest
from multidict import CIMultiDict

from tests.support.http import auth, call, reason
from tests.support.server import running_app, server_process
from tribes.http import gateway
from tribes.settings import Settings
from tribes.store.redis import RedisStore
from tribes.v1 import game_service_pb2 as spb

Http = aiohttp.ClientSession


async def _create(http: Http, cards: int = 3) -> tuple[str, list[str]]:
    body = {"gameType": "goofspiel", "seatCount": 2, "options": {"cards": str(cards)}, "seed": "2"}
    _, created = await call(http, "POST", "/v1/games", body)
    return created["game"]["name"], created["seatTokens"]


async def _frame(socket: aiohttp.ClientWebSocketResponse) -> Any:
    async with asyncio.timeout(10):
        message = await socket.receive()
    assert message.type is aiohttp.WSMsgType.TEXT, message
    return json.loads(message.data)


async def test_a_seat_plays_over_websocket(http: Http) -> None:
    """Snapshot at connect, a move in, the new snapshot out, a rejection in-stream."""
    name, tokens = await _create(http)
    headers = {"Authorization": f"Bearer {tokens[0]}"}
    async with http.ws_connect(f"/v1/{name}:play", headers=headers) as socket:
        first = await _frame(socket)
        assert first["snapshot"]["version"] == "1" and first["snapshot"]["viewerSeat"] == 0
        await socket.send_str(json.dumps({"move": {"moveId": "bid:2", "expectedVersion": "1"}}))
        after = await _frame(socket)
        assert after["snapshot"]["version"] == "2"
        await socket.send_str(json.dumps({"move": {"moveId": "bid:3", "requestId": "x1"}}))
        rejected = (await _frame(socket))["rejected"]
        assert rejected["requestId"] == "x1" and rejected["status"]["code"] == 9
        reason = rejected["status"]["details"][0]["reason"]
        assert reason == "NOT_YOUR_TURN"
        await socket.send_str("{not json")
        bad = (await _frame(socket))["rejected"]["status"]["details"][0]["reason"]
        assert bad == "MALFORMED_REQUEST"


async def test_a_first_open_frame_for_the_urls_game_is_taken_as_the_opening(http: Http) -> None:
    """The URL opens the session; a client that also sends ``open`` first, as it would on
    ``Play``, is not refused for it (with or without the name, in JSON or binary). A later
    ``open``, or a first one naming another game, is refused and the session goes on."""
    name, tokens = await _create(http)
    other, _ = await _create(http)
    url = f"/v1/{name}:play"
    async with http.ws_connect(url, headers=auth(tokens[0])) as socket:
        assert (await _frame(socket))["snapshot"]["version"] == "1"
        await socket.send_str(json.dumps({"open": {"name": name, "fromVersion": "1"}}))
        await socket.send_str(json.dumps({"move": {"moveId": "bid:2", "requestId": "m1"}}))
        answer = await _frame(socket)  # the move's answer comes next: no rejection before it
        assert (answer["snapshot"]["version"], answer["requestId"]) == ("2", "m1")
        await socket.send_str(json.dumps({"open": {"name": name}}))
        again = (await _frame(socket))["rejected"]["status"]["details"][0]["reason"]
        assert again == "SESSION_ALREADY_OPEN"
    protocols = ("tribes.v1.proto",)
    async with http.ws_connect(url, headers=auth(tokens[1]), protocols=protocols) as socket:
        assert (await _binary(socket)).snapshot.version == 2
        await socket.send_bytes(spb.PlayRequest(open=spb.OpenSession()).SerializeToString())
        await socket.send_bytes(_move("bid:1", 2, "m2"))
        answer = await _binary(socket)
        assert (answer.snapshot.version, answer.request_id) == (3, "m2")
    async with http.ws_connect(url, headers=auth(tokens[0])) as socket:
        assert (await _frame(socket))["snapshot"]["version"] == "3"
        await socket.send_str(json.dumps({"open": {"name": other}}))
        refused = (await _frame(socket))["rejected"]["status"]["details"][0]["reason"]
        assert refused == "SESSION_ALREADY_OPEN"
        await socket.send_str(json.dumps({"move": {"moveId": "bid:3", "expectedVersion": "3"}}))
        assert (await _frame(socket))["snapshot"]["version"] == "4"


async def test_a_browser_style_session_takes_the_token_in_the_query(http: Http) -> None:
    """?access_token= (a browser WebSocket cannot set headers) and ?from_version=."""
    name, tokens = await _create(http)
    await call(http, "POST", f"/v1/{name}:applyMove", {"moveId": "bid:1"}, tokens[0])
    query = {"access_token": tokens[1], "from_version": "2"}
    async with http.ws_connect(f"/v1/{name}:play", params=query) as socket:
        await socket.send_str(json.dumps({"move": {"moveId": "bid:1", "expectedVersion": "2"}}))
        snap = (await _frame(socket))["snapshot"]
        assert snap["version"] == "3" and snap["viewerSeat"] == 1


async def test_two_tokens_are_refused_in_every_spelling(http: Http) -> None:
    """Two ``Authorization`` headers or two ``access_token`` values: BAD_TOKEN (403) before
    anything is read or played, on a unary route and at a session's handshake; one token
    still opens the session at the untouched version."""
    name, tokens = await _create(http)
    two_headers = CIMultiDict(("Authorization", f"Bearer {token}") for token in tokens)
    move = json.dumps({"moveId": "bid:1"})
    async with http.post(f"/v1/{name}:applyMove", data=move, headers=two_headers) as response:
        assert (response.status, reason(await response.json())) == (403, "BAD_TOKEN")
    two_queries = [("access_token", token) for token in tokens]
    for kw in ({"headers": two_headers}, {"params": two_queries}):
        with pytest.raises(aiohttp.WSServerHandshakeError) as refused:
            await http.ws_connect(f"/v1/{name}:play", **kw)
        assert refused.value.status == 403, kw
        async with http.get(f"/v1/{name}:play", **kw) as response:
            body = await response.json()
            assert (response.status, reason(body)) == (403, "BAD_TOKEN"), kw
            assert "not 2" in body["message"]
    async with http.ws_connect(f"/v1/{name}:play", params=two_queries[:1]) as socket:
        assert (await _frame(socket))["snapshot"]["version"] == "1"


async def test_errors_that_end_the_session_come_as_a_last_frame(http: Http) -> None:
    """A wrong token: one {"error": Status} frame, then the close."""
    name, _ = await _create(http)
    headers = {"Authorization": "Bearer 0.forged"}
    async with http.ws_connect(f"/v1/{name}:play", headers=headers) as socket:
        last = await _frame(socket)
        assert last["error"]["code"] == 7
        assert last["error"]["details"][0]["reason"] == "BAD_TOKEN"
        async with asyncio.timeout(5):
            closing = await socket.receive()
        assert closing.type in (aiohttp.WSMsgType.CLOSE, aiohttp.WSMsgType.CLOSED)


async def test_a_request_without_a_handshake_gets_a_status_body(http: Http) -> None:
    """A plain GET, or a broken handshake, on the session route: 400 WEBSOCKET_REQUIRED
    as a ``google.rpc.Status`` JSON body, like every other refusal of the HTTP door."""
    name, tokens = await _create(http)
    broken = {"Upgrade": "websocket", "Connection": "Upgrade", "Sec-WebSocket-Version": "7"}
    for headers in ({}, broken, {**broken, "Sec-WebSocket-Version": "13"}):
        status, body = await call(http, "GET", f"/v1/{name}:play", token=tokens[0], headers=headers)
        assert (status, body["code"], reason(body)) == (400, 3, "WEBSOCKET_REQUIRED"), headers
    # the game is untouched and a proper session still opens at version 1
    async with http.ws_connect(f"/v1/{name}:play", headers=auth(tokens[0])) as socket:
        assert (await _frame(socket))["snapshot"]["version"] == "1"


async def _binary(socket: aiohttp.ClientWebSocketResponse) -> spb.PlayEvent:
    async with asyncio.timeout(10):
        message = await socket.receive()
    assert message.type is aiohttp.WSMsgType.BINARY, message
    return spb.PlayEvent.FromString(message.data)


def _move(move_id: str, version: int = 0, request_id: str = "") -> bytes:
    move = spb.ApplyMoveRequest(move_id=move_id, expected_version=version, request_id=request_id)
    return spb.PlayRequest(move=move).SerializeToString()


async def test_the_binary_subprotocol_carries_protobuf_frames(http: Http) -> None:
    """Under tribes.v1.proto every frame is one PlayRequest / PlayEvent in protobuf bytes:
    the same snapshots, rejections (with request ids) and reasons as the JSON frames."""
    name, tokens = await _create(http)
    headers = {"Authorization": f"Bearer {tokens[0]}"}
    url = f"/v1/{name}:play"
    async with http.ws_connect(url, headers=headers, protocols=("tribes.v1.proto",)) as socket:
        assert socket.protocol == "tribes.v1.proto"
        first = await _binary(socket)
        assert first.snapshot.version == 1 and first.snapshot.viewer_seat == 0
        await socket.send_bytes(_move("bid:2", 1, "m1"))
        after = await _binary(socket)
        assert (after.snapshot.version, after.request_id) == (2, "m1")
        await socket.send_bytes(_move("bid:3", 0, "m2"))
        rejected = await _binary(socket)
        assert rejected.WhichOneof("kind") == "rejected" and rejected.request_id == "m2"
        assert rejected.rejected.status.code == 9
        await socket.send_bytes(b"\xff\xff\xff")  # not a PlayRequest
        bad = await _binary(socket)
        assert bad.rejected.status.code == 3
        await socket.send_str('{"move": {"moveId": "bid:1"}}')  # text under the binary protocol
        text = await _binary(socket)
        assert text.rejected.status.code == 3
        async with http.ws_connect(url, params={"access_token": tokens[1]}) as other:
            assert (await _frame(other))["snapshot"]["version"] == "2"  # JSON beside binary
    async with http.ws_connect(
        url, headers={"Authorization": "Bearer 0.forged"}, protocols=("tribes.v1.proto",)
    ) as socket:
        ended = await _binary(socket)
        assert ended.WhichOneof("kind") == "error" and ended.error.code == 7


async def test_spectators_of_one_game_share_one_json_conversion(http: Http) -> None:
    """Two spectators get the same JSON frames for a push; the second is the remembered
    text of the same event bytes (the mapping ran once), and a seat's own frame differs."""
    name, tokens = await _create(http)
    url = f"/v1/{name}:play"
    async with (
        http.ws_connect(url) as one,
        http.ws_connect(url) as two,
        http.ws_connect(url, params={"access_token": tokens[1]}) as seat,
    ):
        before = gateway._play_json.cache_info()
        await call(http, "POST", f"/v1/{name}:applyMove", {"moveId": "bid:2"}, tokens[0])

        async def at_version_2(socket: aiohttp.ClientWebSocketResponse) -> Any:
            while (frame := await _frame(socket))["snapshot"]["version"] != "2":
                pass  # the opening snapshot and seat-list pushes of version 1
            return frame

        first, second, mine = [await at_version_2(s) for s in (one, two, seat)]
        assert first == second and mine["snapshot"]["viewerSeat"] == 1 and mine != first
        assert gateway._play_json.cache_info().hits > before.hits


def test_websocket_session_sees_moves_made_on_another_process(
    redis_url: str, redis_prefix: str
) -> None:
    """A WebSocket session on process A follows moves made over REST on process B, to
    the end of the game, and the socket closes after the final snapshot."""
    env = {"REDIS_URL": redis_url, "TRIBES_REDIS_PREFIX": redis_prefix}
    with server_process(env) as a, server_process(env) as b:

        async def run() -> None:
            async with (
                aiohttp.ClientSession(f"http://127.0.0.1:{a.http_port}") as on_a,
                aiohttp.ClientSession(f"http://127.0.0.1:{b.http_port}") as on_b,
            ):
                name, tokens = await _create(on_a)
                async with on_a.ws_connect(f"/v1/{name}:play") as socket:
                    assert (await _frame(socket))["snapshot"]["version"] == "1"
                    for card in (1, 2, 3):
                        for token in tokens:
                            move = {"moveId": f"bid:{card}"}
                            await call(on_b, "POST", f"/v1/{name}:applyMove", move, token)
                    versions = []
                    while not versions or versions[-1] != "7":
                        versions.append((await _frame(socket))["snapshot"]["version"])
                    assert versions == sorted(versions, key=int)
                    async with asyncio.timeout(5):
                        closing = await socket.receive()
                    assert closing.type in (aiohttp.WSMsgType.CLOSE, aiohttp.WSMsgType.CLOSED)

        asyncio.run(run())


async def test_a_socket_the_client_closes_ends_its_session(app: Any, http: Http) -> None:
    """A client that closes its WebSocket on a game nobody moves in: the session ends then
    and gives back what it held (the sessions gauge, the seat's presence), not at the
    game's next change, when a push would find the socket gone."""
    name, tokens = await _create(http)
    gauge = {"transport": "websocket"}
    for token in (tokens[0], None):  # a seat and a spectator
        headers = {"Authorization": f"Bearer {token}"} if token else {}
        async with http.ws_connect(f"/v1/{name}:play", headers=headers) as socket:
            await _frame(socket)
            assert app.metrics.registry.get_sample_value("tribes_sessions", gauge) == 1
        async with asyncio.timeout(10):
            while True:  # the server sees the close and ends the session
                if app.metrics.registry.get_sample_value("tribes_sessions", gauge) == 0:
                    break
                await asyncio.sleep(0.05)
    seats = (await call(http, "GET", f"/v1/{name}"))[1]["seats"]
    assert not seats[0].get("present", False), seats  # the seat left when its socket closed
    assert app.games.presence.holds == 0


def test_the_python_client_names_the_services_subprotocol() -> None:
    """The client distribution cannot import the service: its constant is checked here."""
    from tribes_client import PLAY_SUBPROTOCOL

    assert PLAY_SUBPROTOCOL == gateway.BINARY_SUBPROTOCOL


async def test_permessage_deflate_is_declined_unless_configured(
    http: Http, redis_url: str, redis_prefix: str
) -> None:
    """Browsers always offer permessage-deflate; the service declines it by default (a
    compressor and decompressor per socket cost ~120 KiB each session, for frames of a few
    hundred bytes) and accepts it under TRIBES_WS_COMPRESS=1, where a session still plays."""
    assert not Settings.from_env({}).ws_compress
    assert Settings.from_env({"TRIBES_WS_COMPRESS": "1"}).ws_compress
    name, tokens = await _create(http)
    headers = {"Authorization": f"Bearer {tokens[0]}"}
    async with http.ws_connect(f"/v1/{name}:play", headers=headers, compress=15) as socket:
        assert socket.compress == 0  # no Sec-WebSocket-Extensions in the answer
        assert (await _frame(socket))["snapshot"]["version"] == "1"
    store = RedisStore(redis_url, prefix=redis_prefix)
    async with (
        running_app(store, ws_compress=True) as app,
        aiohttp.ClientSession(f"http://127.0.0.1:{app.http_port}") as other,
    ):
        async with other.ws_connect(f"/v1/{name}:play", headers=headers, compress=15) as socket:
            assert socket.compress == 15
            assert (await _frame(socket))["snapshot"]["version"] == "1"
            await socket.send_str(json.dumps({"move": {"moveId": "bid:2"}}))
            assert (await _frame(socket))["snapshot"]["version"] == "2"

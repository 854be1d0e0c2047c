"""Hostile frames on the WebSocket session, in both frame formats: every frame is answered
in-stream with a documented code (the session goes on), an oversized one closes the socket
with 1009, the game is untouched and nothing is left open."""

from __future__ import annotations

import asyncio
import json
import random
from typing import Any

import aiohttp
import pytest
from google.protobuf import json_format

from tests.support.http import call
from tests.support.mutate import mutate
from tribes.http import gateway
from tribes.v1 import game_service_pb2 as spb

Http = aiohttp.ClientSession
FRAMES = 300
#: what an in-stream rejection may carry: INVALID_ARGUMENT, NOT_FOUND, PERMISSION_DENIED,
#: FAILED_PRECONDITION, ABORTED, UNAUTHENTICATED
DOCUMENTED = {3, 5, 7, 9, 10, 16}
_SEEDS = (
    spb.PlayRequest(move=spb.ApplyMoveRequest(move_id="move:1,2,3", expected_version=1)),
    spb.PlayRequest(move=spb.ApplyMoveRequest(move_id="bid:1", request_id="r" * 128)),
    spb.PlayRequest(move=spb.ApplyMoveRequest(name="games/other", move_id="x")),
    spb.PlayRequest(open=spb.OpenSession(name="games/AAAA", from_version=3)),
)


def _text(rng: random.Random) -> str:
    """A hostile text frame: broken, deep, huge-numbered or wrongly typed JSON."""
    choices = [
        lambda: "{" * rng.randrange(1, 5000),
        lambda: "[" * 3000 + "]" * 3000,
        lambda: json.dumps({"move": {"moveId": rng.randrange(10**30), "expectedVersion": "-1"}}),
        lambda: json.dumps({"move": {"expectedVersion": str(10 ** rng.randrange(1, 400))}}),
        lambda: json.dumps({"open": {"name": "games/" + "A" * rng.randrange(200)}}),
        lambda: json.dumps({"move": {"moveId": "\u0000\ud7ff" * rng.randrange(50)}}),
        lambda: json.dumps({"nope": 1, "move": None}),
        lambda: "".join(chr(rng.randrange(32, 0x2FFF)) for _ in range(rng.randrange(100))),
        lambda: json_format.MessageToJson(rng.choice(_SEEDS)),  # well-formed, refused
        lambda: _scramble(rng, json_format.MessageToJson(rng.choice(_SEEDS))),
    ]
    return rng.choice(choices)()


def _scramble(rng: random.Random, text: str) -> str:
    chars = list(text)
    for _ in range(rng.randrange(1, 4)):
        chars[rng.randrange(len(chars))] = chr(rng.randrange(32, 127))
    return "".join(chars)


def _bytes(rng: random.Random) -> bytes:
    seed = rng.choice(_SEEDS).SerializeToString()
    return mutate(rng, seed) if rng.random() < 0.8 else rng.randbytes(rng.randrange(200))


async def _answer(socket: aiohttp.ClientWebSocketResponse, binary: bool) -> spb.PlayEvent:
    async with asyncio.timeout(10):
        message = await socket.receive()
    if binary:
        assert message.type is aiohttp.WSMsgType.BINARY, message
        return spb.PlayEvent.FromString(message.data)
    assert message.type is aiohttp.WSMsgType.TEXT, message
    return json_format.Parse(message.data, spb.PlayEvent())


@pytest.mark.parametrize("binary", [False, True], ids=["json", "binary"])
async def test_hostile_frames_are_answered_and_change_nothing(
    app: Any, http: Http, binary: bool
) -> None:
    body = {"gameType": "five_tribes", "seatCount": 2, "seed": "11"}
    _, created = await call(http, "POST", "/v1/games", body)
    name = created["game"]["name"]
    idle = next(s for s in range(2) if s not in created["game"]["toAct"])
    headers = {"Authorization": f"Bearer {created['seatTokens'][idle]}"}
    protocols = (gateway.BINARY_SUBPROTOCOL,) if binary else ()
    rng = random.Random(20261201 + binary)
    codes: dict[int, int] = {}
    async with http.ws_connect(f"/v1/{name}:play", headers=headers, protocols=protocols) as socket:
        assert (await _answer(socket, binary)).WhichOneof("kind") == "snapshot"
        for _ in range(FRAMES):
            wrong_kind = rng.random() < 0.1  # a text frame under the binary protocol, or back
            if binary != wrong_kind:
                await socket.send_bytes(_bytes(rng))
            else:
                await socket.send_str(_text(rng))
            event = await _answer(socket, binary)
            assert event.WhichOneof("kind") == "rejected", event
            code = event.rejected.status.code
            assert code in DOCUMENTED, event
            assert len(event.rejected.status.message) < 400  # a short prefix of the input
            codes[code] = codes.get(code, 0) + 1
        await socket.send_bytes(b"\0" * (gateway._WS_MAX_MESSAGE + 1))
        async with asyncio.timeout(10):
            closing = await socket.receive()
        assert closing.type is aiohttp.WSMsgType.CLOSE and closing.data == 1009
    assert len(codes) >= 2, codes  # the fuzz reached more than one kind of refusal
    _, after = await call(http, "GET", f"/v1/{name}")
    assert after["version"] == "1"  # no hostile frame played a move
    gauge = {"transport": "websocket"}
    async with asyncio.timeout(10):
        while True:
            if app.metrics.registry.get_sample_value("tribes_sessions", gauge) == 0:
                break
            await asyncio.sleep(0.05)
    assert (await call(http, "GET", "/healthz"))[0] == 200

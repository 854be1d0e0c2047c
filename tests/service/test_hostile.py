"""Hostile input against a real server on each store: only documented codes come back.

Thousands of requests to every RPC — random bytes as bodies, mutated valid messages, huge
and odd strings, another game's move arm, bogus seat and page tokens — with the request
log on. The suite asserts that every answer is a documented status (never UNKNOWN or
INTERNAL), that the server stays up and healthy, and that no stored game changed (the
only tokens that are valid belong to seats that are not to act, so no move can land).
``make soak`` runs the same with many more requests (TRIBES_SOAK_FUZZ).
"""

from __future__ import annotations

import asyncio
import io
import os
import random
from collections.abc import AsyncIterator, Callable

import grpc
import pytest
from grpc_health.v1 import health_pb2, health_pb2_grpc

from tests.support.mutate import mutate
from tests.support.server import running_app
from tribes.server import App
from tribes.store import Store
from tribes.store.memory import MemoryStore
from tribes.store.redis import RedisStore
from tribes.v1 import common_pb2 as pb
from tribes.v1 import five_tribes_pb2 as fpb
from tribes.v1 import game_service_pb2 as spb
from tribes.v1 import game_service_pb2_grpc as spb_grpc

SC = grpc.StatusCode
DOCUMENTED = {
    SC.OK,
    SC.INVALID_ARGUMENT,
    SC.NOT_FOUND,
    SC.FAILED_PRECONDITION,
    SC.ABORTED,
    SC.UNAUTHENTICATED,
    SC.PERMISSION_DENIED,
    SC.RESOURCE_EXHAUSTED,
}
METHODS = (
    "ListGameTypes",
    "CreateGame",
    "GetGame",
    "ApplyMove",
    "ListMoves",
    "WatchGame",
    "Play",
    "ListGames",
    "JoinGame",
    "Resign",
    "SuggestMove",
)
#: a well-formed game name that names no game (Resign with a real seat's token would end it)
NO_GAME = "games/AAAAAAAAAAAAAAAA"
PER_METHOD = int(os.environ.get("TRIBES_FUZZ_PER_METHOD", "1000"))

ODD = [
    "",
    " ",
    "\0",
    "\0" * 5000,
    "²",
    "games/",
    "games/../x",
    "games/" + "x" * 65,
    "games/\u202e",
    "x" * 100_000,
    "🎲" * 1000,
    "bid:" + "9" * 4300,
    "9" * 4300,
    "%s%s%n",
    "'\"\\",
    "Bearer",
    "Bearer ",
    "0.",
    "00.AAAA",
    "-1.AAAA",
    "1" * 200 + ".x",
]


def _odd(rng: random.Random) -> str:
    if rng.random() < 0.6:
        return rng.choice(ODD)
    return "".join(chr(rng.randrange(1, 0x2FFF)) for _ in range(rng.randrange(0, 60)))


class Fuzzer:
    """Builds hostile (body, metadata) pairs for each method from a seeded generator."""

    def __init__(self, rng: random.Random, games: list[str], idle: list[tuple[str, str]]) -> None:
        self.rng = rng
        self.games = games
        self.idle = idle  # (game name, token of a seat not to act there)
        self.tokens = [token for _, token in idle]
        self.name = games[0]  # the game of the request being built

    def metadata(self) -> tuple[tuple[str, str], ...]:
        """No token, an idle seat's token, or nonsense (as legal header text: a client
        library refuses to send anything else)."""
        rng = self.rng
        roll = rng.random()
        if roll < 0.3:
            return ()
        if roll < 0.55:
            return (("authorization", f"Bearer {rng.choice(self.tokens)}"),)
        odd = "".join(c for c in _odd(rng) if " " <= c <= "~")[:4000]
        if roll < 0.8:
            return (("authorization", f"Bearer {odd}"),)
        return (("authorization", odd),)

    def valid(self, method: str) -> bytes:
        rng = self.rng
        name = self.name
        if method == "CreateGame":
            msg: object = spb.CreateGameRequest(
                game_type=rng.choice(["goofspiel", "five_tribes", "fate_of_akalon"]),
                seat_count=rng.choice([-1, 0, 2, 3, 99, 2**31 - 1]),
                options=rng.choice([{}, {"cards": "3"}, {"nope": "1"}, {"cards": "x" * 300}]),
                request_id=rng.choice(["", "r1", _odd(rng)]),
            )
        elif method == "GetGame":
            msg = spb.GetGameRequest(name=rng.choice([name, _odd(rng)]))
        elif method == "ApplyMove":
            request = spb.ApplyMoveRequest(
                name=rng.choice([name, name, _odd(rng)]),
                expected_version=rng.choice([0, 1, 2, 2**63]),
                request_id=rng.choice(["", "r", _odd(rng)]),
            )
            arm = rng.randrange(3)
            if arm == 0:
                request.move_id = rng.choice(["bid:1", "pickup:2-3", "end-turn", _odd(rng)])
            elif arm == 1:  # another game's typed move, or this game's with nonsense
                request.move.CopyFrom(
                    pb.Move(
                        five_tribes=fpb.FiveTribesMove(
                            bid=fpb.FiveTribesBid(spot=rng.randrange(-5, 50))
                        )
                    )
                )
            msg = request
        elif method == "ListMoves":
            msg = spb.ListMovesRequest(
                name=rng.choice([name, _odd(rng)]),
                page_size=rng.choice([-5, 0, 1, 10**9]),
                page_token=rng.choice(["", _odd(rng), "AAAAAAAAAAAAAAAAAAAAAA"]),
            )
        elif method == "WatchGame":
            msg = spb.WatchGameRequest(name=rng.choice([name, _odd(rng)]))
        elif method == "Play":
            if rng.random() < 0.5:
                opened = spb.OpenSession(name=rng.choice([name, _odd(rng)]))
                if rng.random() < 0.3:
                    opened.from_version = rng.choice([0, 1, 2**63])
                msg = spb.PlayRequest(open=opened)
            else:
                msg = spb.PlayRequest(
                    move=spb.ApplyMoveRequest(move_id=rng.choice(["bid:1", _odd(rng)]))
                )
        elif method == "ListGames":
            msg = spb.ListGamesRequest(
                game_type=rng.choice(["", "goofspiel", "five_tribes", _odd(rng)]),
                open_only=rng.random() < 0.5,
                page_size=rng.choice([-5, 0, 1, 10**9]),
                page_token=rng.choice(["", _odd(rng), "AAAAAAAAAAAAAAAAAAAAAA"]),
            )
        elif method == "JoinGame":  # every game is unlisted or full: no join can land
            join = spb.JoinGameRequest(
                name=rng.choice([name, name, _odd(rng)]),
                player_name=rng.choice(["", "Ana", _odd(rng)]),
                request_id=rng.choice(["", "j", _odd(rng)]),
            )
            if rng.random() < 0.6:
                join.seat = rng.choice([-1, 0, 1, 5, 2**31 - 1])
            msg = join
        elif method == "Resign":  # never a stored game's name: a resignation would change it
            msg = spb.ResignRequest(
                name=rng.choice([NO_GAME, _odd(rng)]), request_id=rng.choice(["", "r", _odd(rng)])
            )
        elif method == "SuggestMove":  # tokens are of seats not to act: no bot ever thinks
            msg = spb.SuggestMoveRequest(
                name=rng.choice([name, name, _odd(rng)]),
                bot=rng.choice(["", "random", "ismcts", _odd(rng)]),
                budget_ms=rng.choice([-1, 0, 50, 2**31 - 1]),
            )
        else:
            msg = spb.ListGameTypesRequest()
        return msg.SerializeToString()  # type: ignore[attr-defined]

    def request(self, method: str) -> tuple[bytes, tuple[tuple[str, str], ...]]:
        """A body and metadata; often a coherent pair (an idle seat of the named game)."""
        if self.rng.random() < 0.4:
            self.name, token = self.rng.choice(self.idle)
            return self.body(method), (("authorization", f"Bearer {token}"),)
        self.name = self.rng.choice(self.games)
        return self.body(method), self.metadata()

    def body(self, method: str) -> bytes:
        rng = self.rng
        roll = rng.random()
        if roll < 0.25:
            return bytes(rng.randrange(256) for _ in range(rng.randrange(0, 200)))
        if roll < 0.6:
            return mutate(rng, self.valid(method))
        return self.valid(method)


async def _snapshot(store: Store, game_ids: list[str]) -> list[tuple[int, bytes, list[bytes]]]:
    out = []
    for game_id in game_ids:
        loaded = await store.load(game_id)
        assert loaded is not None
        out.append((loaded.version, loaded.state, await store.read_log(game_id, 0, 10_000)))
    return out


async def _call(
    channel: grpc.aio.Channel, method: str, body: bytes, metadata: tuple[tuple[str, str], ...]
) -> SC:
    path = f"/tribes.v1.GameService/{method}"
    try:
        if method == "Play":  # a session: an open (or not), then more hostile frames
            # Frames are written one by one, the next only once the first was answered: a
            # write pending when the server ends the call makes grpc.aio's client report
            # INTERNAL ("Internal error from Core") instead of the server's status
            # (grpc/grpc#36066), which would hide the code the server sent.
            call = channel.stream_stream(path)(metadata=metadata, timeout=5)
            try:
                await call.write(body)
                async with asyncio.timeout(0.2):  # resumed at the current version: silent
                    first = await call.read()
                if first is not grpc.aio.EOF:
                    for frame in (mutate(random.Random(len(body)), body) for _ in range(3)):
                        await call.write(frame)
                    async with asyncio.timeout(0.2):  # answers to the hostile frames
                        for _ in range(3):
                            if await call.read() is grpc.aio.EOF:
                                break
            except TimeoutError:
                pass  # an open session waits for the game to change
            finally:
                call.cancel()
            return SC.OK
        if method == "WatchGame":
            call = channel.unary_stream(path)(body, metadata=metadata, timeout=5)
            try:
                await call.read()
            finally:
                call.cancel()
            return SC.OK
        await channel.unary_unary(path)(body, metadata=metadata, timeout=5)
        return SC.OK
    except grpc.aio.AioRpcError as err:
        return err.code()


@pytest.fixture(params=["redis", "memory"])
async def hostile_app(
    request: pytest.FixtureRequest, redis_url: str
) -> AsyncIterator[tuple[App, io.StringIO]]:
    if request.param == "redis":
        store: Store = RedisStore(redis_url, prefix=request.getfixturevalue("redis_prefix"))
    else:
        store = MemoryStore()
    log = io.StringIO()
    async with running_app(store, request_stream=log, log_requests=True) as app:
        yield app, log


async def test_hostile_requests_get_only_documented_codes(
    hostile_app: tuple[App, io.StringIO],
) -> None:
    """Fuzzed requests to every RPC: documented codes only, server up, nothing changed."""
    app, log = hostile_app
    seen: dict[str, dict[SC, int]] = {m: {} for m in METHODS}
    async with grpc.aio.insecure_channel(f"127.0.0.1:{app.port}") as channel:
        stub = spb_grpc.GameServiceStub(channel)
        names: list[str] = []
        idle: list[tuple[str, str]] = []
        for game_type, seats in (("five_tribes", 2), ("five_tribes", 3), ("goofspiel", 2)):
            created = await stub.CreateGame(
                spb.CreateGameRequest(game_type=game_type, seat_count=seats, seed=11)
            )
            names.append(created.game.name)
            acting = set(created.game.to_act)
            if game_type == "goofspiel":  # every seat bids at once: keep no valid token
                continue
            idle += [
                (created.game.name, t)
                for seat, t in enumerate(created.seat_tokens)
                if seat not in acting
            ]
        # a listed game with every seat claimed: the lobby lists it, joins find it full
        listed = await stub.CreateGame(
            spb.CreateGameRequest(
                game_type="goofspiel", seat_count=2, seed=11, listed=True, options={"cards": "3"}
            )
        )
        for seat in (0, 1):
            await stub.JoinGame(
                spb.JoinGameRequest(name=listed.game.name, seat=seat, player_name=f"p{seat}")
            )
        names.append(listed.game.name)
        ids = [n.removeprefix("games/") for n in names]
        before = await _snapshot(app.store, ids)
        fuzzer = Fuzzer(random.Random(20261201), names, idle)
        for _ in range(PER_METHOD):
            batch: list[tuple[str, Callable[[], object]]] = []
            for method in METHODS:
                body, metadata = fuzzer.request(method)
                batch.append((method, _call(channel, method, body, metadata)))  # type: ignore[arg-type]
            codes = await asyncio.gather(*(job for _, job in batch))
            for (method, _), code in zip(batch, codes, strict=True):
                seen[method][code] = seen[method].get(code, 0) + 1
        undocumented = {
            m: {c.name: n for c, n in codes.items() if c not in DOCUMENTED}
            for m, codes in seen.items()
        }
        assert not any(undocumented.values()), undocumented
        health = health_pb2_grpc.HealthStub(channel)
        status = await health.Check(health_pb2.HealthCheckRequest(service=""))
        assert status.status == health_pb2.HealthCheckResponse.SERVING
        assert (await stub.GetGame(spb.GetGameRequest(name=names[0]))).version == 1
    assert await _snapshot(app.store, ids) == before, "a hostile request changed a stored game"
    assert all(len(line) < 1024 for line in log.getvalue().splitlines())
    assert sum(sum(c.values()) for c in seen.values()) == PER_METHOD * len(METHODS)
    totals: dict[str, int] = {}
    for codes in seen.values():
        for code, count in codes.items():
            totals[code.name] = totals.get(code.name, 0) + count
    print(f"hostile requests by code: {dict(sorted(totals.items()))}")

"""The "bare plumbing" reference server for benchmarks: the same API, no game.

It serves ``tribes.v1.GameService`` with raw-bytes handlers and does only what every
``ApplyMove`` must do anyway: read the game's state blob and version from Redis
(one ``HMGET``), write a state blob of the same size with one compare-and-set (a Lua
script), and answer with a pre-serialized snapshot of realistic size. The game never
ends, seat 0 is always to act and every move id is accepted, so the load generator
drives it exactly like the real service. ``make bench`` runs the two side by side, so
the ratio says what share of the machine the service's own work costs.

    python -m tribes_client.bare --port 50061 --redis redis://127.0.0.1:6379/0 \
        --template snapshot.bin --state-bytes 3000
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import signal
import sys
import uuid

import grpc
import redis.asyncio as aioredis

from tribes.v1 import common_pb2 as pb
from tribes.v1 import game_service_pb2 as spb

SERVICE = "tribes.v1.GameService"

_CAS = """
local v = redis.call('HGET', KEYS[1], 'v')
if not v then return -2 end
if tonumber(v) ~= tonumber(ARGV[1]) then return -1 end
redis.call('HSET', KEYS[1], 's', ARGV[2], 'v', tonumber(v) + 1)
return tonumber(v) + 1
"""


def _varint(value: int) -> bytes:
    out = bytearray()
    while True:
        byte = value & 0x7F
        value >>= 7
        if value:
            out.append(byte | 0x80)
        else:
            out.append(byte)
            return bytes(out)


def _snapshot_bytes(name: str, version: int, template: bytes) -> bytes:
    """GameSnapshot bytes: name (field 1) and version (field 3) prepended to a template
    serialized without them (protobuf allows fields in any order)."""
    raw = name.encode()
    return b"\x0a" + _varint(len(raw)) + raw + b"\x18" + _varint(version) + template


class Bare:
    def __init__(self, url: str, template: bytes, state_bytes: int, prefix: str) -> None:
        self.redis = aioredis.Redis.from_url(url)
        self.cas = self.redis.register_script(_CAS)
        self.template = template
        self.state = os.urandom(state_bytes)
        self.prefix = prefix

    def key(self, name: str) -> str:
        return f"{self.prefix}:{{{name.removeprefix('games/')}}}"

    async def create(
        self, request: bytes, context: grpc.aio.ServicerContext[bytes, bytes]
    ) -> bytes:
        name = f"games/{uuid.uuid4().hex[:12]}"
        await self.redis.hset(self.key(name), mapping={"v": 1, "s": self.state})
        game = _snapshot_bytes(name, 1, self.template)
        response = spb.CreateGameResponse(seat_tokens=["0.bare", "1.bare", "2.bare", "3.bare"])
        tail = response.SerializeToString()
        return b"\x0a" + _varint(len(game)) + game + tail

    async def get(self, request: bytes, context: grpc.aio.ServicerContext[bytes, bytes]) -> bytes:
        name = spb.GetGameRequest.FromString(request).name
        version, _state = await self.redis.hmget(self.key(name), "v", "s")
        if version is None:
            await context.abort(grpc.StatusCode.NOT_FOUND, "no such game")
        return _snapshot_bytes(name, int(version), self.template)

    async def apply(self, request: bytes, context: grpc.aio.ServicerContext[bytes, bytes]) -> bytes:
        req = spb.ApplyMoveRequest.FromString(request)
        key = self.key(req.name)
        version, state = await self.redis.hmget(key, "v", "s")
        if version is None or state is None:
            await context.abort(grpc.StatusCode.NOT_FOUND, "no such game")
        current = int(version)
        if req.expected_version and req.expected_version != current:
            await context.abort(grpc.StatusCode.ABORTED, "stale version")
        new_version = await self.cas(keys=[key], args=[current, state])
        if new_version < 0:
            await context.abort(grpc.StatusCode.ABORTED, "lost the race")
        return _snapshot_bytes(req.name, int(new_version), self.template)

    async def list_types(
        self, request: bytes, context: grpc.aio.ServicerContext[bytes, bytes]
    ) -> bytes:
        return spb.ListGameTypesResponse(
            game_types=[pb.GameType(id=t, title=t, seat_counts=[2, 3, 4]) for t in TYPES]
        ).SerializeToString()


#: Game types the bare server pretends to host (the load generator checks its mix).
TYPES = ("five_tribes", "fate_of_akalon", "goofspiel")


def _identity(data: bytes) -> bytes:
    return data


async def serve(args: argparse.Namespace, template: bytes) -> None:
    bare = Bare(args.redis, template, args.state_bytes, args.prefix)
    handlers = {
        "ListGameTypes": bare.list_types,
        "CreateGame": bare.create,
        "GetGame": bare.get,
        "ApplyMove": bare.apply,
    }
    generic = grpc.method_handlers_generic_handler(
        SERVICE,
        {
            name: grpc.unary_unary_rpc_method_handler(
                fn, request_deserializer=_identity, response_serializer=_identity
            )
            for name, fn in handlers.items()
        },
    )
    server = grpc.aio.server(options=[("grpc.so_reuseport", 0)])
    server.add_generic_rpc_handlers((generic,))
    port = server.add_insecure_port(f"127.0.0.1:{args.port}")
    await server.start()
    print(f"bare: listening on 127.0.0.1:{port}", file=sys.stderr, flush=True)
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(sig, stop.set)
    await stop.wait()
    await server.stop(1)
    await bare.redis.aclose()


def main() -> None:
    parser = argparse.ArgumentParser(prog="tribes-bare", description=__doc__.split("\n\n")[0])
    parser.add_argument("--port", type=int, default=50061)
    parser.add_argument("--redis", default="redis://127.0.0.1:6379/0")
    parser.add_argument("--prefix", default="tribes-bare")
    parser.add_argument("--template", required=True, help="GameSnapshot bytes without name/version")
    parser.add_argument("--state-bytes", type=int, default=4096)
    parser.add_argument("--uvloop", action=argparse.BooleanOptionalAction, default=True)
    args = parser.parse_args()
    loop_factory = None
    if args.uvloop:
        with contextlib.suppress(ImportError):
            import uvloop

            loop_factory = uvloop.new_event_loop
    with asyncio.Runner(loop_factory=loop_factory) as runner:
        with open(args.template, "rb") as f:
            template = f.read()
        runner.run(serve(args, template))


if __name__ == "__main__":
    main()

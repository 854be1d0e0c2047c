"""The gRPC door: ``tribes.v1.GameService`` over ``tribes.core.games``.

Each RPC takes what it needs from the call when it starts (the ``authorization``
metadata and the peer, as a ``Caller``), calls the core, and turns a domain error into a
rich status (``tribes.core.status``). Requests whose bytes do not decode arrive as
``UNDECODABLE`` (the deserializer never raises, which would answer UNKNOWN with a
traceback) and are answered INVALID_ARGUMENT (``MALFORMED_REQUEST``).
"""

from __future__ import annotations

import contextlib
import functools
from collections.abc import AsyncIterator, Awaitable, Callable
from typing import Any, TypeVar

import grpc
from google.protobuf.message import DecodeError, Message
from google.protobuf.message_factory import GetMessageClass

from tribes.core.errors import BadRequestError
from tribes.core.games import Caller, Games
from tribes.core.status import KNOWN, failure_of
from tribes.v1 import game_service_pb2 as spb

Req = TypeVar("Req")
Resp = TypeVar("Resp")
Context = grpc.aio.ServicerContext[Any, Any]


class _Undecodable:
    """Stands for a request whose bytes are not a message of the method's type."""

    __slots__ = ()
    name = ""


UNDECODABLE = _Undecodable()


def safe_deserializer(message: type[Message]) -> Callable[[bytes], Any]:
    parse = message.FromString

    def deserialize(data: bytes) -> Any:
        try:
            return parse(data)
        except (DecodeError, ValueError, RuntimeError):
            return UNDECODABLE

    return deserialize


def _check(request: Any) -> None:
    if request is UNDECODABLE:
        raise BadRequestError("the request body is not a valid message", "MALFORMED_REQUEST")


async def abort(context: Context, exc: Exception) -> None:
    failure = failure_of(exc)
    trailers = (("grpc-status-details-bin", failure.status().SerializeToString()),)
    code = _GRPC_CODES[int(failure.code)]
    await context.abort(code, failure.message, trailing_metadata=trailers)


_GRPC_CODES = {code.value[0]: code for code in grpc.StatusCode}


def caller_of(context: Context) -> Caller:
    """The caller's token and peer, read once at the start of the call."""
    authorization = None
    for key, value in context.invocation_metadata() or ():
        if key == "authorization":
            authorization = value.decode("latin-1") if isinstance(value, bytes) else value
            break
    return Caller.of(authorization, context.peer() or "")


def _unary(
    method: Callable[[GameServicer, Req, Context], Awaitable[Resp]],
) -> Callable[[GameServicer, Req, Context], Awaitable[Resp]]:
    """Refuse undecodable requests; turn domain errors into rich statuses."""

    @functools.wraps(method)
    async def wrapper(self: GameServicer, request: Req, context: Context) -> Resp:
        try:
            _check(request)
            return await method(self, request, context)
        except KNOWN as exc:
            await abort(context, exc)
            raise  # unreachable: abort raises

    return wrapper


class GameServicer:
    def __init__(self, games: Games) -> None:
        self.games = games

    @_unary
    async def ListGameTypes(
        self, request: spb.ListGameTypesRequest, context: Context
    ) -> spb.ListGameTypesResponse:
        return self.games.list_game_types()

    @_unary
    async def CreateGame(self, request: spb.CreateGameRequest, context: Context) -> bytes:
        return await self.games.create_game(caller_of(context), request)

    @_unary
    async def GetGame(self, request: spb.GetGameRequest, context: Context) -> bytes:
        return await self.games.get_game(caller_of(context), request)

    @_unary
    async def ApplyMove(self, request: spb.ApplyMoveRequest, context: Context) -> bytes:
        return await self.games.apply_move(caller_of(context), request)

    @_unary
    async def ListMoves(
        self, request: spb.ListMovesRequest, context: Context
    ) -> spb.ListMovesResponse:
        return await self.games.list_moves(caller_of(context), request)

    async def WatchGame(
        self, request: spb.WatchGameRequest, context: Context
    ) -> AsyncIterator[bytes]:
        """A snapshot now, then one per committed version, until the game ends."""
        try:
            _check(request)
            caller = caller_of(context)
            async with contextlib.aclosing(self.games.watch(caller, request)) as snapshots:
                async for snapshot in snapshots:
                    yield snapshot
        except KNOWN as exc:
            await abort(context, exc)


def _serialize(reply: Any) -> bytes:
    """Replies are pre-serialized bytes (snapshots) or messages (everything else)."""
    return reply if type(reply) is bytes else bytes(reply.SerializeToString())


_HANDLERS = {  # (client streaming, server streaming) -> grpc's handler factory
    (False, False): grpc.unary_unary_rpc_method_handler,
    (False, True): grpc.unary_stream_rpc_method_handler,
    (True, False): grpc.stream_unary_rpc_method_handler,
    (True, True): grpc.stream_stream_rpc_method_handler,
}

SERVICE = spb.DESCRIPTOR.services_by_name["GameService"]


def add_to_server(servicer: GameServicer, server: grpc.aio.Server) -> None:
    """Register every RPC of the service descriptor (replies may be pre-serialized bytes)."""
    handlers: dict[str, grpc.RpcMethodHandler[Any, Any]] = {
        method.name: _HANDLERS[method.client_streaming, method.server_streaming](
            getattr(servicer, method.name),
            request_deserializer=safe_deserializer(GetMessageClass(method.input_type)),
            response_serializer=_serialize,
        )
        for method in SERVICE.methods
    }
    server.add_generic_rpc_handlers(
        (grpc.method_handlers_generic_handler(SERVICE.full_name, handlers),)
    )

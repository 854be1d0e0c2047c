"""The gRPC door: ``tribes.v1.GameService`` over ``tribes.core.games``.

Nothing here is written per RPC: every method of the service descriptor is served by
the core method of the same name (``ApplyMove`` -> ``Games.apply_move(caller, request)``),
so an RPC added to the proto and the core is served without door code. Each call takes
what it needs from the call when it starts (the ``authorization`` metadata and the peer,
as a ``Caller``), calls the core, and turns a domain error into a rich status
(``tribes.core.status``). Requests whose bytes do not decode arrive as
``UNDECODABLE`` (the deserializer never raises, which would answer UNKNOWN with a
traceback) and are answered INVALID_ARGUMENT (``MALFORMED_REQUEST``).
"""

from __future__ import annotations

import contextlib
from collections.abc import AsyncGenerator, AsyncIterator, Awaitable, Callable
from typing import Any

import grpc
from google.protobuf.message import DecodeError, Message
from google.protobuf.message_factory import GetMessageClass

from tribes.core import limits
from tribes.core.errors import BadRequestError
from tribes.core.games import Caller, Games
from tribes.core.proxies import TrustedProxies
from tribes.core.status import KNOWN, failure_of
from tribes.grpc.interceptors import peer_of
from tribes.v1 import game_service_pb2 as spb

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


def caller_of(context: Context, proxies: TrustedProxies) -> Caller:
    """The caller's token and address, read once at the start of the call."""
    values = [
        value.decode("latin-1") if isinstance(value, bytes) else value
        for key, value in context.invocation_metadata() or ()
        if key == "authorization"
    ]
    return Caller.of(limits.one_authorization(values), peer_of(context, proxies))


def _unary(
    call: Callable[[Caller, Any], Awaitable[Any]], proxies: TrustedProxies
) -> Callable[[Any, Context], Awaitable[Any]]:
    async def handle(request: Any, context: Context) -> Any:
        try:
            _check(request)
            return await call(caller_of(context, proxies), request)
        except KNOWN as exc:
            await abort(context, exc)
            raise  # unreachable: abort raises

    return handle


def _server_stream(
    call: Callable[[Caller, Any], AsyncGenerator[Any, None]], proxies: TrustedProxies
) -> Callable[[Any, Context], AsyncIterator[Any]]:
    async def handle(request: Any, context: Context) -> AsyncIterator[Any]:
        try:
            _check(request)
            async with contextlib.aclosing(call(caller_of(context, proxies), request)) as replies:
                async for reply in replies:
                    if reply is not None:  # None is an idle tick; gRPC has keepalives
                        yield reply
        except KNOWN as exc:
            await abort(context, exc)

    return handle


def _bidi_stream(
    call: Callable[[Caller, AsyncIterator[Any]], AsyncGenerator[Any, None]],
    proxies: TrustedProxies,
) -> Callable[[AsyncIterator[Any], Context], AsyncIterator[Any]]:
    async def handle(requests: AsyncIterator[Any], context: Context) -> AsyncIterator[Any]:
        try:
            async with contextlib.aclosing(call(caller_of(context, proxies), requests)) as replies:
                async for reply in replies:
                    yield reply
        except KNOWN as exc:
            await abort(context, exc)

    return handle


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


def add_to_server(games: Games, server: grpc.aio.Server) -> None:
    """Serve every RPC of the service descriptor with the core method of its name
    (replies may be pre-serialized bytes)."""
    doors: dict[tuple[bool, bool], Callable[..., Any]] = {
        (False, False): _unary,
        (False, True): _server_stream,
        (True, True): _bidi_stream,
    }
    handlers: dict[str, grpc.RpcMethodHandler[Any, Any]] = {
        method.name: _HANDLERS[method.client_streaming, method.server_streaming](
            doors[method.client_streaming, method.server_streaming](
                games.operation(method.name), games.proxies
            ),
            request_deserializer=safe_deserializer(GetMessageClass(method.input_type)),
            response_serializer=_serialize,
        )
        for method in SERVICE.methods
    }
    server.add_generic_rpc_handlers(
        (grpc.method_handlers_generic_handler(SERVICE.full_name, handlers),)
    )

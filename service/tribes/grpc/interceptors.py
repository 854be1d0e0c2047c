"""Server interceptor: the standard gRPC metrics and one JSON log line per request.

Wrapped handlers are built once per method and reused, so the per-call cost is a
counter, a histogram observation and (when enabled) one formatted line appended to
the ``RequestLog``, which writes its lines in batches off the request path.

A stream outlives its call: everything the log line needs from the call (the peer, the
game named by the request) is read when the call starts, never after it ended — asking a
finished call for its peer crashes the process in grpc's C core. Every handler shape is
wrapped: unary and streaming, async generators and coroutines that write with
``context.write`` (as grpc's own health ``Watch`` does).
"""

from __future__ import annotations

import asyncio
import contextlib
import inspect
import json
import sys
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from typing import Any, TextIO

import grpc

from tribes.core.proxies import HEADER as FORWARDED
from tribes.core.proxies import TrustedProxies
from tribes.core.status import Code
from tribes.metrics import Metrics

_LOGGED_NAME = 48  # characters of a request's game name or type kept in the log


def peer_of(context: Any, proxies: TrustedProxies) -> str:
    """The caller's address: the call's peer, or whom a trusted proxy forwarded
    (``x-forwarded-for`` metadata; ``tribes.core.proxies``)."""
    peer = context.peer() or ""
    if not proxies:
        return peer
    forwarded = [
        value.decode("latin-1") if isinstance(value, bytes) else value
        for key, value in context.invocation_metadata() or ()
        if key == FORWARDED
    ]
    return proxies.client(peer, forwarded)


class RequestLog:
    """JSON lines, one per request, written to ``stream`` every ``interval`` seconds.

    A line is ``{"ts":..., "method":..., "game":..., "code":..., "ms":..., "peer":...}``.
    Formatting a line costs about a microsecond; the write (one system call for many
    lines) happens in ``run`` (or when the buffer fills, or at ``flush``). Caller input
    (game, peer) is cut to a short prefix and escaped by ``json.dumps``.
    """

    def __init__(self, stream: TextIO | None = None, *, interval: float = 0.2) -> None:
        self._stream = stream
        self._interval = interval
        self._lines: list[str] = []

    def add(self, method_head: str, game: str, code: str, ms: float, peer: str) -> None:
        self._lines.append(
            f'{{"ts":{time.time():.3f},{method_head},"game":{json.dumps(game[:_LOGGED_NAME])},'
            f'"code":"{code}","ms":{ms:.3f},"peer":{json.dumps(peer[:_LOGGED_NAME])}}}'
        )
        if len(self._lines) >= 1024:
            self.flush()

    def flush(self) -> None:
        if not self._lines:
            return
        stream = self._stream if self._stream is not None else sys.stderr
        text = "\n".join(self._lines) + "\n"
        self._lines.clear()
        with contextlib.suppress(OSError, ValueError):
            stream.write(text)
            stream.flush()

    async def run(self) -> None:
        try:
            while True:
                await asyncio.sleep(self._interval)
                self.flush()
        finally:
            self.flush()


_CODE_OF = {code: Code(code.value[0]) for code in grpc.StatusCode}


def _game_of(request: Any) -> str:
    name = getattr(request, "name", "") or getattr(request, "game_type", "")
    return name if isinstance(name, str) else ""


class ObservabilityInterceptor(grpc.aio.ServerInterceptor):
    def __init__(
        self,
        metrics: Metrics,
        request_log: RequestLog | None = None,
        proxies: TrustedProxies | None = None,
    ) -> None:
        self._metrics = metrics
        self._log = request_log
        self._proxies = proxies or TrustedProxies()
        self._wrapped: dict[str, Any] = {}

    async def intercept_service(
        self,
        continuation: Callable[[grpc.HandlerCallDetails], Awaitable[Any]],
        handler_call_details: grpc.HandlerCallDetails,
    ) -> Any:
        method = handler_call_details.method
        wrapped = self._wrapped.get(method)
        if wrapped is not None:
            return wrapped
        handler = await continuation(handler_call_details)
        if handler is None:
            return handler
        wrapped = self._wrap(method, handler)
        self._wrapped[method] = wrapped
        return wrapped

    def _wrap(self, full_method: str, handler: Any) -> Any:
        service, _, method = full_method.lstrip("/").rpartition("/")
        if handler.request_streaming:
            kind = "bidi_stream" if handler.response_streaming else "client_stream"
        else:
            kind = "server_stream" if handler.response_streaming else "unary"
        labels = (kind, service, method)
        metrics = self._metrics
        started = metrics.child(metrics.started, *labels)
        observe = metrics.child(metrics.handling, *labels).observe
        received = metrics.child(metrics.msg_received, *labels)
        sent = metrics.child(metrics.msg_sent, *labels)
        request_log = self._log
        proxies = self._proxies
        head = f'"method":"{method}"'

        class Observed:
            """``with Observed(context, game):`` counts, times and logs one call."""

            __slots__ = ("begin", "context", "game", "peer")

            def __init__(self, context: Any, game: str) -> None:
                self.context = context
                self.game = game
                self.peer = peer_of(context, proxies) if request_log is not None else ""

            def __enter__(self) -> Observed:
                started.inc()
                self.begin = time.perf_counter()
                return self

            def __exit__(self, kind: type[BaseException] | None, *_: object) -> None:
                if kind is None:
                    code = self.context.code() or grpc.StatusCode.OK
                elif issubclass(kind, asyncio.CancelledError | GeneratorExit):
                    # GeneratorExit: gRPC closed a stream's generator at its yield (the
                    # client cancelled while events were still to be sent)
                    code = grpc.StatusCode.CANCELLED
                else:  # an abort sets the code; anything else is UNKNOWN
                    code = self.context.code() or grpc.StatusCode.UNKNOWN
                if not isinstance(code, grpc.StatusCode):
                    code = grpc.StatusCode.UNKNOWN
                elapsed = time.perf_counter() - self.begin
                observe(elapsed)
                name = _CODE_OF[code].metric_name
                metrics.child(metrics.handled, *labels, name).inc()
                if request_log is not None:
                    request_log.add(head, self.game, name, elapsed * 1000, self.peer)

        async def counted(requests: AsyncIterator[Any]) -> AsyncIterator[Any]:
            async for request in requests:
                received.inc()
                yield request

        behaviour = (
            handler.unary_unary
            or handler.unary_stream
            or handler.stream_unary
            or handler.stream_stream
        )
        generator = inspect.isasyncgenfunction(behaviour)

        if not handler.request_streaming and not handler.response_streaming:

            async def unary(request: Any, context: Any) -> Any:
                received.inc()
                with Observed(context, _game_of(request)):
                    reply = await behaviour(request, context)
                    sent.inc()
                    return reply

            return grpc.unary_unary_rpc_method_handler(
                unary,
                request_deserializer=handler.request_deserializer,
                response_serializer=handler.response_serializer,
            )

        def source(request: Any) -> Any:
            return counted(request) if handler.request_streaming else request

        def game(request: Any) -> str:
            return "" if handler.request_streaming else _game_of(request)

        if generator:

            async def streaming(request: Any, context: Any) -> AsyncIterator[Any]:
                if not handler.request_streaming:
                    received.inc()
                with Observed(context, game(request)):
                    async with contextlib.aclosing(behaviour(source(request), context)) as replies:
                        async for reply in replies:
                            sent.inc()
                            yield reply

            wrapped: Any = streaming
        else:  # a coroutine that answers with context.write or a return value

            async def writing(request: Any, context: Any) -> Any:
                if not handler.request_streaming:
                    received.inc()
                with Observed(context, game(request)):
                    return await behaviour(source(request), context)

            wrapped = writing

        factory = {
            (False, True): grpc.unary_stream_rpc_method_handler,
            (True, False): grpc.stream_unary_rpc_method_handler,
            (True, True): grpc.stream_stream_rpc_method_handler,
        }[handler.request_streaming, handler.response_streaming]
        return factory(
            wrapped,
            request_deserializer=handler.request_deserializer,
            response_serializer=handler.response_serializer,
        )

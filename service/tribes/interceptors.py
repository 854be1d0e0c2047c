"""Server interceptor: the standard gRPC metrics and one JSON log line per request.

Wrapped handlers are built once per method and reused, so the per-call cost is a
counter, a histogram observation and (when enabled) one formatted line appended to
the ``RequestLog``, which writes its lines in batches off the request path.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import sys
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from typing import Any, TextIO

import grpc

from tribes.metrics import Metrics


class RequestLog:
    """JSON lines, one per request, written to ``stream`` every ``interval`` seconds.

    A line is ``{"ts":..., "method":..., "game":..., "code":..., "ms":..., "peer":...}``.
    Formatting a line costs about a microsecond; the write (one system call for many
    lines) happens in ``run`` (or when the buffer fills, or at ``flush``).
    """

    def __init__(self, stream: TextIO | None = None, *, interval: float = 0.2) -> None:
        self._stream = stream
        self._interval = interval
        self._lines: list[str] = []

    def add(self, method_head: str, game: str, code: str, ms: float, peer: str) -> None:
        # game and peer are caller input: json.dumps escapes them
        self._lines.append(
            f'{{"ts":{time.time():.3f},{method_head},"game":{json.dumps(game)},'
            f'"code":"{code}","ms":{ms:.3f},"peer":{json.dumps(peer)}}}'
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


class ObservabilityInterceptor(grpc.aio.ServerInterceptor):
    def __init__(self, metrics: Metrics, request_log: RequestLog | None = None) -> None:
        self._metrics = metrics
        self._log = request_log
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
        kind = "server_stream" if handler.unary_stream else "unary"
        labels = (kind, service, method)
        metrics = self._metrics
        started = metrics.child(metrics.started, *labels)
        observe = metrics.child(metrics.handling, *labels).observe
        request_log = self._log
        head = f'"method":"{method}"'

        def finish(request: Any, context: Any, begin: float, code: grpc.StatusCode) -> None:
            elapsed = time.perf_counter() - begin
            observe(elapsed)
            metrics.child(metrics.handled, *labels, code.name).inc()
            if request_log is not None:
                game = getattr(request, "name", "") or getattr(request, "game_type", "")
                request_log.add(head, game, code.name, elapsed * 1000, context.peer())

        class Observed:
            """``with Observed(request, context):`` counts, times and logs one call."""

            __slots__ = ("begin", "context", "request")

            def __init__(self, request: Any, context: Any) -> None:
                self.request, self.context = request, context

            def __enter__(self) -> None:
                started.inc()
                self.begin = time.perf_counter()

            def __exit__(self, kind: type[BaseException] | None, *_: object) -> None:
                if kind is None:
                    code = self.context.code() or grpc.StatusCode.OK
                elif issubclass(kind, asyncio.CancelledError):
                    code = grpc.StatusCode.CANCELLED
                else:  # an abort sets the code; anything else is UNKNOWN
                    code = self.context.code() or grpc.StatusCode.UNKNOWN
                finish(self.request, self.context, self.begin, code)

        if handler.unary_unary:
            behaviour = handler.unary_unary

            async def unary(request: Any, context: Any) -> Any:
                with Observed(request, context):
                    return await behaviour(request, context)

            return grpc.unary_unary_rpc_method_handler(
                unary,
                request_deserializer=handler.request_deserializer,
                response_serializer=handler.response_serializer,
            )

        if handler.unary_stream:
            stream_behaviour = handler.unary_stream

            async def stream(request: Any, context: Any) -> AsyncIterator[Any]:
                with Observed(request, context):
                    async for item in stream_behaviour(request, context):
                        yield item

            return grpc.unary_stream_rpc_method_handler(
                stream,
                request_deserializer=handler.request_deserializer,
                response_serializer=handler.response_serializer,
            )
        return handler

"""Server interceptor: the standard gRPC metrics and one JSON log line per request.

Wrapped handlers are built once per method and reused, so the per-call cost is a
counter, a histogram observation and (when enabled) one log record.
"""

from __future__ import annotations

import asyncio
import json
import logging
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from typing import Any

import grpc

from tribes.metrics import Metrics

request_log = logging.getLogger("tribes.requests")


class ObservabilityInterceptor(grpc.aio.ServerInterceptor):
    def __init__(self, metrics: Metrics, *, log_requests: bool = True) -> None:
        self._metrics = metrics
        self._log = log_requests
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
        log_on = self._log
        head = f'{{"method":"{method}","game":'

        def finish(request: Any, context: Any, begin: float, code: grpc.StatusCode) -> None:
            elapsed = time.perf_counter() - begin
            observe(elapsed)
            metrics.child(metrics.handled, *labels, code.name).inc()
            if log_on and request_log.isEnabledFor(logging.INFO):
                # game names are caller input: json.dumps escapes them
                game = getattr(request, "name", "") or getattr(request, "game_type", "")
                request_log.info(
                    '%s%s,"code":"%s","ms":%.3f,"peer":%s}',
                    head,
                    json.dumps(game),
                    code.name,
                    elapsed * 1000,
                    json.dumps(context.peer()),
                )

        if handler.unary_unary:
            behaviour = handler.unary_unary

            async def unary(request: Any, context: Any) -> Any:
                started.inc()
                begin = time.perf_counter()
                code = grpc.StatusCode.UNKNOWN
                try:
                    response = await behaviour(request, context)
                    code = context.code() or grpc.StatusCode.OK
                    return response
                except asyncio.CancelledError:
                    code = grpc.StatusCode.CANCELLED
                    raise
                except BaseException:
                    code = context.code() or grpc.StatusCode.UNKNOWN
                    raise
                finally:
                    finish(request, context, begin, code)

            return grpc.unary_unary_rpc_method_handler(
                unary,
                request_deserializer=handler.request_deserializer,
                response_serializer=handler.response_serializer,
            )

        if handler.unary_stream:
            stream_behaviour = handler.unary_stream

            async def stream(request: Any, context: Any) -> AsyncIterator[Any]:
                started.inc()
                begin = time.perf_counter()
                code = grpc.StatusCode.UNKNOWN
                try:
                    async for item in stream_behaviour(request, context):
                        yield item
                    code = context.code() or grpc.StatusCode.OK
                except asyncio.CancelledError:
                    code = grpc.StatusCode.CANCELLED
                    raise
                except BaseException:
                    code = context.code() or grpc.StatusCode.UNKNOWN
                    raise
                finally:
                    finish(request, context, begin, code)

            return grpc.unary_stream_rpc_method_handler(
                stream,
                request_deserializer=handler.request_deserializer,
                response_serializer=handler.response_serializer,
            )
        return handler

"""The HTTP door: REST/JSON transcoded from the protos, SSE for watching, CORS, health.

Served by aiohttp in the service process, on the same event loop, core, store, cache,
metrics and request log as the gRPC door. Routes come from the annotations
(``tribes.http.routes``); each is served by the core method of the RPC's name, exactly
as the gRPC door does, so no API rule is written twice:

* unary RPCs answer JSON (``tribes.http.transcode``);
* server-streaming RPCs answer Server-Sent Events: one ``snapshot`` event per version
  whose ``id`` is the version, so a reconnecting ``EventSource`` resumes with
  ``Last-Event-ID`` without a gap or a duplicate; comment heartbeats while nothing
  happens; an ``end`` event when the game is over (and 204 for a resume at the end, which
  stops EventSource's reconnecting);
* errors are the one status table's code with its HTTP status and a ``google.rpc.Status``
  JSON body whose ``details`` carry the ``ErrorInfo``;
* bidirectional RPCs (``Play``) are WebSockets at the routes of ``WEBSOCKETS``: text frames
  carrying the JSON mapping of the request and event messages. The session is opened from
  the URL (``?from_version=`` optional); an error that ends it is sent as a final
  ``{"error": <google.rpc.Status>}`` frame before the close.

Seat tokens travel as ``Authorization: Bearer <token>``; streaming routes also accept
``?access_token=`` because a browser's EventSource cannot send headers (README
"Decisions"). Query strings are never logged.
"""

from __future__ import annotations

import asyncio
import contextlib
import enum
import functools
import json
import logging
import math
import pathlib
import re
import time
from collections.abc import Awaitable, Callable, Sequence
from typing import Any

import aiohttp
from aiohttp import web
from google.protobuf import json_format
from google.protobuf.message import DecodeError, Message
from google.protobuf.message_factory import GetMessageClass

from tribes.core import limits
from tribes.core.errors import BadRequestError
from tribes.core.games import Caller, Games
from tribes.core.status import KNOWN, SHUTTING_DOWN, Code, Failure, failure_of
from tribes.http import openapi
from tribes.http.routes import Route, compile_template, routes
from tribes.http.transcode import build_request, to_json
from tribes.metrics import Metrics
from tribes.v1 import game_service_pb2 as spb

log = logging.getLogger(__name__)


class _RefusedRequests(logging.Filter):
    """aiohttp's server logs a request its parser refuses (a request line or header over
    its limits, too many headers) at ERROR with a traceback whose message quotes the
    input — a bearer token or page token among it. Such a request is the client's fault:
    one WARNING line naming the refusal, never the bytes."""

    def filter(self, record: logging.LogRecord) -> bool:
        exc = record.exc_info[1] if record.exc_info else None
        if isinstance(exc, aiohttp.http_exceptions.HttpProcessingError):
            remote = record.args[0] if isinstance(record.args, tuple) and record.args else "?"
            record.msg = "refused an HTTP request from %s its parser could not take: %s %d"
            record.args = (remote, type(exc).__name__, exc.code)
            record.exc_info, record.exc_text = None, None
            record.levelno, record.levelname = logging.WARNING, "WARNING"
            return logging.getLogger(record.name).isEnabledFor(logging.WARNING)
        return True


_REFUSED = _RefusedRequests()

SERVICE = spb.DESCRIPTOR.services_by_name["GameService"]
Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]
LogLine = Callable[[str, str, str, float, str], None]

_DIGITS = re.compile(r"[0-9]{1,19}")

#: Bidirectional RPCs served as WebSockets (google.api.http cannot describe a stream of
#: requests): RPC name -> path template; the path names the game of the session.
WEBSOCKETS = {"Play": "/v1/{name=games/*}:play"}
_WS_MAX_MESSAGE = 64 * 1024
#: The WebSocket subprotocol of binary frames: each frame one protobuf ``PlayRequest``
#: (in) or ``PlayEvent`` (out), the bytes gRPC would carry; without it frames are JSON.
BINARY_SUBPROTOCOL = openapi.SUBPROTOCOL
#: The HTTP status a stream's client was sent when its response began (the request log's
#: and metrics' code when the server's stop cancels the handler later)
_STREAM_STATUS = web.RequestKey("tribes_stream_status", int)
#: the request's allowed CORS origin, added to its response as it is prepared
_CORS_ORIGIN = web.RequestKey("tribes_cors_origin", str)


class _End(enum.Enum):
    END = 0  # a stream that ended (where None is a heartbeat)


_END = _End.END


def _status_body(failure: Failure) -> bytes:
    return to_json(failure.status())


async def _allow_origin(request: web.Request, response: web.StreamResponse) -> None:
    """``on_response_prepare``: the allowed origin of the request (``Gateway._cors``), on
    every response as its headers go out, streams included."""
    origin = request.get(_CORS_ORIGIN)
    if origin is not None:
        response.headers["Access-Control-Allow-Origin"] = origin
        response.headers["Access-Control-Expose-Headers"] = "Retry-After"  # not safelisted
        response.headers["Vary"] = "Origin"


def error_response(failure: Failure, status: int | None = None) -> web.Response:
    response = web.Response(
        status=status or failure.code.http_status,
        body=_status_body(failure),
        content_type="application/json",
    )
    wait = failure.metadata.get("retry_after_seconds")
    if wait is not None:  # HTTP's own spelling too: whole seconds, rounded up
        response.headers["Retry-After"] = str(max(1, math.ceil(float(wait))))
    return response


class Gateway:
    """Builds the aiohttp application of the HTTP door."""

    def __init__(
        self,
        games: Games,
        metrics: Metrics,
        *,
        cors_origins: Sequence[str] = (),
        heartbeat_seconds: float = 15.0,
        ws_compress: bool = False,
        ready: Callable[[], bool] = lambda: True,
        request_log: LogLine | None = None,
        web_dir: pathlib.Path | None = None,
    ) -> None:
        self.web_dir = web_dir
        self.games = games
        self.metrics = metrics
        self.cors_origins = frozenset(cors_origins)
        self.heartbeat = heartbeat_seconds
        self.ws_compress = ws_compress
        self.ready = ready
        self.request_log = request_log
        self.routes = routes(SERVICE)
        self._labels: dict[str, str] = {}  # aiohttp resource -> annotation template
        self._openapi = json.dumps(openapi.document(SERVICE, self.routes, WEBSOCKETS)).encode()

    def _peer(self, request: web.Request) -> str:
        """The caller's address: the connection's peer, or whom a trusted proxy
        forwarded (``X-Forwarded-For``; ``tribes.core.proxies``)."""
        forwarded = request.headers.getall("X-Forwarded-For", ())
        return self.games.proxies.client(request.remote or "", forwarded)

    def application(self) -> web.Application:
        logging.getLogger("aiohttp.server").addFilter(_REFUSED)  # once: the same object
        app = web.Application(
            middlewares=[self._observe, self._cors, self._errors],
            client_max_size=limits.MAX_REQUEST_BYTES,
        )
        app.on_response_prepare.append(_allow_origin)
        for route in self.routes:
            handler = self._stream_handler(route) if route.streaming else self._unary_handler(route)
            resource = app.router.add_route(route.verb, route.path, handler).resource
            assert resource is not None
            self._labels[resource.canonical] = route.template
        for rpc, template in WEBSOCKETS.items():
            path, variables = compile_template(template)
            resource = app.router.add_get(path, self._websocket_handler(rpc, variables)).resource
            assert resource is not None
            self._labels[resource.canonical] = template
        app.router.add_get("/openapi.json", self._openapi_handler)
        if self.web_dir is not None and (self.web_dir / "index.html").is_file():
            # the playground: static files, served as they are (no build step)
            app.router.add_get("/", self._index)
            app.router.add_static("/web/", self.web_dir, append_version=False)
        app.router.add_get("/healthz", self._healthz)
        app.router.add_get("/readyz", self._readyz)
        return app

    # -- middlewares ---------------------------------------------------------------------

    @web.middleware
    async def _observe(self, request: web.Request, handler: Handler) -> web.StreamResponse:
        """HTTP metrics by route template and code, and the request-log line."""
        began = time.perf_counter()
        resource = request.match_info.route.resource
        canonical = resource.canonical if resource is not None else ""
        route = self._labels.get(canonical, canonical or "unmatched")
        status = 500
        try:
            response = await handler(request)
            status = response.status
            return response
        except web.HTTPException as exc:
            status = exc.status
            raise
        except asyncio.CancelledError:
            # the server stopping cancels what is still running (a session waiting for the
            # client's close frame, a call past the grace): a stream keeps the status its
            # client was sent; a call that got nothing was dropped by a stopping server
            status = request.get(_STREAM_STATUS, 503)
            raise
        finally:
            elapsed = time.perf_counter() - began
            labels = (request.method, route)
            self.metrics.child(self.metrics.http_requests, *labels, str(status)).inc()
            self.metrics.child(self.metrics.http_seconds, *labels).observe(elapsed)
            if self.request_log is not None:
                head = f'"method":{json.dumps(request.method + " " + route)}'
                self.request_log(
                    head, request.path[:64], str(status), elapsed * 1000, self._peer(request)
                )

    @web.middleware
    async def _cors(self, request: web.Request, handler: Handler) -> web.StreamResponse:
        """CORS for the allow-listed origins (``*`` allows any); preflights answered here.
        The allowed origin is added as a response is prepared (``_allow_origin``), so a
        stream's headers carry it too."""
        origin = request.headers.get("Origin")
        allowed = origin is not None and ("*" in self.cors_origins or origin in self.cors_origins)
        if allowed and origin is not None:
            request[_CORS_ORIGIN] = origin
        if request.method == "OPTIONS" and "Access-Control-Request-Method" in request.headers:
            if not allowed:
                return error_response(
                    Failure(
                        Code.PERMISSION_DENIED, "ORIGIN_NOT_ALLOWED", "this origin is not allowed"
                    )
                )
            response = web.Response(status=204)
            response.headers["Access-Control-Allow-Methods"] = "GET, POST, OPTIONS"
            response.headers["Access-Control-Allow-Headers"] = (
                "Authorization, Content-Type, Last-Event-ID"
            )
            response.headers["Access-Control-Max-Age"] = "600"
            return response
        return await handler(request)

    @web.middleware
    async def _errors(self, request: web.Request, handler: Handler) -> web.StreamResponse:
        """Domain errors and aiohttp's own (no route, wrong verb, body too large) as
        ``google.rpc.Status`` bodies."""
        try:
            return await handler(request)
        except KNOWN as exc:
            return error_response(failure_of(exc))
        except web.HTTPNotFound:
            return error_response(Failure(Code.NOT_FOUND, "NO_ROUTE", "no such route"))
        except web.HTTPMethodNotAllowed:
            failure = Failure(Code.UNIMPLEMENTED, "METHOD_NOT_ALLOWED", "method not allowed")
            return error_response(failure, 405)
        except web.HTTPRequestEntityTooLarge:
            failure = Failure(
                Code.INVALID_ARGUMENT,
                "REQUEST_TOO_LARGE",
                f"request bodies are at most {limits.MAX_REQUEST_BYTES} bytes",
            )
            return error_response(failure, 413)

    # -- handlers -----------------------------------------------------------------------

    def _call(self, route: Route) -> Callable[..., Any]:
        return self.games.operation(route.method.name)

    def _caller(self, request: web.Request, *, query_token: bool) -> Caller:
        """The caller: its one ``Authorization`` header, or where the door allows it (a
        stream a browser opens, which cannot set headers) its one ``access_token``."""
        authorization = limits.one_authorization(request.headers.getall("Authorization", []))
        if authorization is None and query_token:
            token = limits.one_authorization(
                request.query.getall("access_token", []), "access_token"
            )
            authorization = None if token is None else f"Bearer {token}"
        return Caller.of(authorization, self._peer(request))

    async def _request(self, route: Route, request: web.Request) -> tuple[Caller, Message]:
        caller = self._caller(request, query_token=route.streaming)
        body = await request.read() if route.body else b""
        message = build_request(route, request.match_info, request.query.items(), body)
        return caller, message

    def _unary_handler(self, route: Route) -> Handler:
        call = self._call(route)
        output = GetMessageClass(route.method.output_type)

        async def handle(request: web.Request) -> web.StreamResponse:
            caller, message = await self._request(route, request)
            reply = await call(caller, message)
            if isinstance(reply, bytes):
                reply = output.FromString(reply)
            return web.Response(body=to_json(reply), content_type="application/json")

        return handle

    def _stream_handler(self, route: Route) -> Handler:
        call = self._call(route)
        output = GetMessageClass(route.method.output_type)

        @functools.lru_cache(maxsize=512)  # as _play_json: watchers of one game share bytes
        def sse_event(item: bytes) -> bytes:
            return _event(output.FromString(item))

        async def handle(request: web.Request) -> web.StreamResponse:
            caller, message = await self._request(route, request)
            resume = request.headers.get("Last-Event-ID") or request.query.get("last_event_id")
            events = call(
                caller, message, from_version=_version(resume), idle_seconds=self.heartbeat
            )
            async with contextlib.aclosing(events):
                first = await anext(events, _END)  # errors before this are plain JSON errors
                if first is _END:
                    return web.Response(status=204)  # resumed at the end: stop reconnecting
                response = web.StreamResponse(
                    headers={
                        "Content-Type": "text/event-stream",
                        "Cache-Control": "no-cache",
                        "X-Accel-Buffering": "no",
                    }
                )
                await response.prepare(request)
                request[_STREAM_STATUS] = response.status
                try:
                    item = first
                    while True:
                        if item is None:
                            await response.write(b": heartbeat\n\n")
                        else:
                            await response.write(sse_event(item))
                        item = await anext(events)
                except StopAsyncIteration:
                    await response.write(b"event: end\ndata: {}\n\n")
                except KNOWN as exc:  # the feed was lost or the server is stopping
                    data = _status_body(failure_of(exc))
                    await response.write(b"event: error\ndata: " + data + b"\n\n")
                except (ConnectionResetError, OSError):
                    pass  # the client went away
                return response

        return handle

    def _websocket_handler(self, rpc: str, variables: tuple[tuple[str, str], ...]) -> Handler:
        call = self.games.operation(rpc)
        ((variable, _),) = variables

        async def handle(request: web.Request) -> web.StreamResponse:
            caller = self._caller(request, query_token=True)
            opened = spb.OpenSession(name=request.match_info[variable])
            held = _version(request.query.get("from_version"))
            if held is not None:
                opened.from_version = held
            socket = web.WebSocketResponse(
                heartbeat=30.0,
                max_msg_size=_WS_MAX_MESSAGE,
                protocols=(BINARY_SUBPROTOCOL,),
                compress=self.ws_compress,  # what every browser offers; off unless configured
            )
            try:
                await socket.prepare(request)
            except web.HTTPBadRequest as exc:
                # a plain GET (or a broken handshake), refused before anything is sent:
                # a Status body like every other refusal of this door, not aiohttp's text
                raise BadRequestError(
                    "this is a WebSocket endpoint: open it with a WebSocket handshake",
                    "WEBSOCKET_REQUIRED",
                ) from exc
            request[_STREAM_STATUS] = socket.status
            binary = socket.ws_protocol == BINARY_SUBPROTOCOL

            async def send(event: bytes) -> None:
                """PlayEvent bytes as the core made them, or their JSON in a text frame."""
                if binary:
                    await socket.send_bytes(event)
                else:
                    await socket.send_str(_play_json(event))

            events = call(caller, _frames(socket, opened, binary), transport="websocket")
            code = aiohttp.WSCloseCode.OK
            try:
                async with contextlib.aclosing(events):
                    async for event in events:
                        await send(event)
            except KNOWN as exc:
                failure = failure_of(exc)
                if failure.reason == SHUTTING_DOWN:
                    code = aiohttp.WSCloseCode.GOING_AWAY  # RFC 6455: the server is going down
                ended = spb.PlayEvent(error=failure.status()).SerializeToString()
                with contextlib.suppress(ConnectionResetError, OSError):
                    await send(ended)
            except (ConnectionResetError, OSError):
                pass  # the client went away
            await socket.close(code=code)
            return socket

        return handle

    async def _openapi_handler(self, request: web.Request) -> web.StreamResponse:
        return web.Response(body=self._openapi, content_type="application/json")

    async def _index(self, request: web.Request) -> web.StreamResponse:
        assert self.web_dir is not None
        return web.FileResponse(self.web_dir / "index.html")

    async def _healthz(self, request: web.Request) -> web.StreamResponse:
        return web.json_response({"status": "SERVING"})

    async def _readyz(self, request: web.Request) -> web.StreamResponse:
        ok = self.ready()
        return web.json_response(
            {"status": "SERVING" if ok else "NOT_SERVING"}, status=200 if ok else 503
        )


class _BadFrame:
    """Stands for a frame that is not a PlayRequest (the session answers it as such)."""

    __slots__ = ()


async def _frames(socket: web.WebSocketResponse, opened: spb.OpenSession, binary: bool) -> Any:
    """The session's requests: the open from the URL, then one per frame (text frames of
    JSON, or binary frames of protobuf under ``BINARY_SUBPROTOCOL``). A first frame that
    opens the URL's game, as a ``Play`` client's first request does, is that same opening:
    it is dropped, not refused (the URL's ``from_version`` is the one that counts)."""
    yield spb.PlayRequest(open=opened)
    wanted = aiohttp.WSMsgType.BINARY if binary else aiohttp.WSMsgType.TEXT
    parse = spb.PlayRequest.FromString
    first = True
    async for frame in socket:
        opening, first = first, False
        if frame.type is not wanted:
            if frame.type in (aiohttp.WSMsgType.CLOSE, aiohttp.WSMsgType.ERROR):
                return
            yield _BadFrame()
            continue
        try:
            if binary:
                message = parse(frame.data)
            else:
                message = spb.PlayRequest()
                json_format.Parse(frame.data, message)
        except (json_format.ParseError, DecodeError, ValueError, TypeError, RecursionError):
            yield _BadFrame()
            continue
        if (
            opening
            and message.WhichOneof("kind") == "open"
            and message.open.name in ("", opened.name)
        ):
            continue
        yield message


# The JSON of an event is remembered by its bytes: protobuf's JSON mapping costs about half
# a millisecond for a Five Tribes snapshot, and spectators (or a seat's second tab) of one
# game are sent the same bytes. Keyed by the bytes themselves, so nothing another seat
# was sent can be returned for different bytes.
@functools.lru_cache(maxsize=512)
def _play_json(event: bytes) -> str:
    return to_json(spb.PlayEvent.FromString(event)).decode()


def _event(snapshot: Message) -> bytes:
    version = getattr(snapshot, "version", 0)
    return b"id: %d\nevent: snapshot\ndata: " % version + to_json(snapshot) + b"\n\n"


def _version(text: str | None) -> int | None:
    if not text:
        return None
    if not _DIGITS.fullmatch(text):
        raise BadRequestError("Last-Event-ID must be a version number", "BAD_LAST_EVENT_ID")
    return int(text)

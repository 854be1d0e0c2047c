"""Assembles and runs the server: store, catalog, core, doors, health, reflection, metrics.

``App.create(settings)`` builds everything and binds (port 0 picks a free port, so
tests can run many servers); ``serve()`` runs until SIGTERM/SIGINT and then shuts down
gracefully: health turns NOT_SERVING, open watches end (UNAVAILABLE: clients reconnect
elsewhere), new calls are refused, in-flight calls get ``TRIBES_GRACE_SECONDS`` to
finish and are then cancelled, and the store is closed. Nothing in the way waits on a
task that can swallow its cancellation: the health probe is bounded by
``asyncio.timeout``, never ``asyncio.wait_for``.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import logging
import os
import pathlib
import secrets
import signal
import ssl
import sys
from dataclasses import dataclass
from typing import TextIO

import grpc
from aiohttp import web
from grpc_health.v1 import health_pb2, health_pb2_grpc
from grpc_health.v1._async import HealthServicer

from tribes import bots
from tribes.core import botseats, limits
from tribes.core.catalog import Catalog, build_catalog
from tribes.core.games import Games
from tribes.core.proxies import TrustedProxies
from tribes.core.quotas import RateLimit, StreamLimit
from tribes.core.status import KNOWN
from tribes.core.tokens import SeatTokens
from tribes.grpc import reflection
from tribes.grpc.interceptors import ObservabilityInterceptor, RequestLog
from tribes.grpc.servicer import add_to_server
from tribes.http.gateway import Gateway
from tribes.http.metrics import MetricsEndpoint
from tribes.metrics import Metrics
from tribes.settings import Settings, grpc_prepared
from tribes.store import Store, StoreUnavailableError
from tribes.store.connect import commands_for
from tribes.store.memory import MemoryStore
from tribes.store.redis import RedisStore
from tribes.v1 import game_service_pb2

log = logging.getLogger("tribes.server")

SERVICE_NAME = game_service_pb2.DESCRIPTOR.services_by_name["GameService"].full_name
SERVING = health_pb2.HealthCheckResponse.SERVING
NOT_SERVING = health_pb2.HealthCheckResponse.NOT_SERVING


def make_store(settings: Settings) -> Store:
    if settings.redis_url:
        commands = commands_for(
            settings.redis_mode, settings.redis_url, sentinel_service=settings.sentinel_service
        )
        return RedisStore(
            settings.redis_url,
            prefix=settings.redis_prefix,
            ttls=settings.ttls,
            commands=commands,
            min_replicas=settings.min_replicas,
            replica_wait_ms=settings.replica_wait_ms,
        )
    return MemoryStore(settings.ttls, max_games=settings.max_games)


@dataclass
class App:
    settings: Settings
    server: grpc.aio.Server
    port: int
    store: Store
    metrics: Metrics
    games: Games
    health: HealthServicer
    request_log: RequestLog | None = None
    metrics_port: int | None = None
    http_port: int | None = None
    _metrics_http: MetricsEndpoint | None = None
    _http: web.AppRunner | None = None
    _serving: bool = False
    _health_task: asyncio.Task[None] | None = None
    _log_task: asyncio.Task[None] | None = None
    _sweep_task: asyncio.Task[None] | None = None
    _stopped: bool = False

    @classmethod
    async def create(
        cls,
        settings: Settings,
        *,
        catalog: Catalog | None = None,
        store: Store | None = None,
        request_stream: TextIO | None = None,
    ) -> App:
        catalog = catalog if catalog is not None else build_catalog(settings.plugins)
        store = store if store is not None else make_store(settings)
        metrics = Metrics()
        secret = (
            settings.token_secret.encode() if settings.token_secret else await _agreed_secret(store)
        )
        games = Games(
            catalog,
            store,
            SeatTokens(secret, [key.encode() for key in settings.previous_secrets]),
            metrics,
            allow_seed=settings.allow_seed,
            cache_games=settings.cache_games,
            create_limit=RateLimit(
                settings.create_rate,
                settings.create_burst,
                what="games created",
                limit_loopback=settings.limit_loopback,
            ),
            stream_limit=StreamLimit(
                settings.streams_per_peer, limit_loopback=settings.limit_loopback
            ),
            proxies=TrustedProxies(settings.trusted_proxies),
            chooser=bots.within(settings.bot_budget_ms),
            bot_kinds=bots.KINDS,
            suggester=bots.suggest,
            default_bot=settings.bot_default,
            bot_budget_ms=settings.bot_budget_ms,
            bot_max_budget_ms=settings.bot_max_budget_ms,
        )
        request_log = RequestLog(request_stream) if settings.log_requests else None
        server = grpc.aio.server(
            interceptors=[ObservabilityInterceptor(metrics, request_log, games.proxies)],
            options=[
                # off by default, so a second server on a taken port fails instead of
                # silently sharing it
                ("grpc.so_reuseport", int(settings.reuseport)),
                ("grpc.max_receive_message_length", limits.MAX_REQUEST_BYTES),
                ("grpc.max_metadata_size", 16 * 1024),
            ],
        )
        add_to_server(games, server)
        health = HealthServicer()
        health_pb2_grpc.add_HealthServicer_to_server(health, server)
        reflection.enable((SERVICE_NAME, "grpc.health.v1.Health"), server)
        address = f"{settings.host}:{settings.port}"
        if settings.tls_cert and settings.tls_key:
            port = server.add_secure_port(address, _grpc_credentials(settings))
        else:
            port = server.add_insecure_port(address)
        if port == 0:
            raise OSError(f"cannot listen on {settings.host}:{settings.port}")
        return cls(settings, server, port, store, metrics, games, health, request_log)

    async def start(self) -> None:
        await self.server.start()
        settings = self.settings
        if settings.metrics_port >= 0:
            self._metrics_http = MetricsEndpoint(self.metrics.registry)
            self.metrics_port = await self._metrics_http.start(settings.host, settings.metrics_port)
        if settings.http_port >= 0:
            await self._start_http()
        await self._probe()
        self._health_task = asyncio.create_task(self._watch_store())
        self._sweep_task = asyncio.create_task(self._sweep())
        if self.request_log is not None:
            self._log_task = asyncio.create_task(self.request_log.run())
        log.info(
            "serving tribes.v1 on %s:%d (HTTP port: %s, store: %s, metrics port: %s, games: %s)",
            self.settings.host,
            self.port,
            self.http_port,
            type(self.store).__name__,
            self.metrics_port,
            ", ".join(e.game.id for e in self.games.catalog) or "none",
        )

    async def _start_http(self) -> None:
        settings = self.settings
        gateway = Gateway(
            self.games,
            self.metrics,
            cors_origins=settings.cors_origins,
            heartbeat_seconds=settings.sse_heartbeat,
            ws_compress=settings.ws_compress,
            ready=lambda: self._serving,
            request_log=self.request_log.add if self.request_log is not None else None,
            web_dir=pathlib.Path(settings.web_dir) if settings.web_dir else None,
        )
        # handler_cancellation: a client that hangs up cancels its handler at once, so an
        # SSE stream releases its subscription without waiting for the next write
        self._http = web.AppRunner(
            gateway.application(),
            access_log=None,
            handler_cancellation=True,
            shutdown_timeout=settings.grace,
        )
        await self._http.setup()
        site = web.TCPSite(
            self._http,
            settings.http_host,
            settings.http_port,
            reuse_port=settings.reuseport or None,
            ssl_context=_http_tls(settings),
        )
        await site.start()
        self.http_port = int(self._http.addresses[0][1])

    async def _probe(self) -> None:
        try:
            async with asyncio.timeout(max(self.settings.health_interval, 1.0)):
                await self.store.ping()
            state = SERVING
        except (StoreUnavailableError, TimeoutError):
            state = NOT_SERVING
        self._serving = state == SERVING
        self.metrics.store_up.set(1 if self._serving else 0)
        await self.health.set("", state)
        await self.health.set(SERVICE_NAME, state)

    async def _watch_store(self) -> None:
        while True:
            await asyncio.sleep(self.settings.health_interval)
            await self._probe()

    async def _sweep(self) -> None:
        """Deadlines and bot turns that fell due, on every replica (each applied once:
        the store's compare-and-set and the decision leases)."""
        while True:
            await asyncio.sleep(self.settings.sweep_interval)
            try:
                await botseats.sweep(self.games, self.games.bots)
            except KNOWN as exc:
                log.debug("sweep skipped: %s", exc)
            except Exception:
                log.exception("sweep failed")

    async def stop(self, grace: float | None = None) -> None:
        """Drain and release everything; a second call does nothing."""
        if self._stopped:
            return
        self._stopped = True
        for task in (self._health_task, self._log_task, self._sweep_task):
            if task is not None:
                task.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await task
        await self.health.enter_graceful_shutdown()
        self._serving = False
        self.store.end_watches("the server is shutting down")
        grace = self.settings.grace if grace is None else grace
        if self._http is not None:
            await asyncio.gather(self.server.stop(grace), self._http.cleanup())
        else:
            await self.server.stop(grace)
        if self.request_log is not None:
            self.request_log.flush()
        await self.games.close()
        await self.store.close()
        if self._metrics_http is not None:
            await self._metrics_http.stop()


def _read(path: str) -> bytes:
    return pathlib.Path(path).read_bytes()


def _grpc_credentials(settings: Settings) -> grpc.ServerCredentials:
    """TLS for gRPC from PEM files; with a client CA, clients must present a certificate."""
    assert settings.tls_cert and settings.tls_key
    ca = _read(settings.tls_client_ca) if settings.tls_client_ca else None
    return grpc.ssl_server_credentials(
        [(_read(settings.tls_key), _read(settings.tls_cert))],
        root_certificates=ca,
        require_client_auth=ca is not None,
    )


def _http_tls(settings: Settings) -> ssl.SSLContext | None:
    """The same certificate (and client CA) for the HTTP door; None = plain HTTP."""
    if not (settings.tls_cert and settings.tls_key):
        return None
    context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    context.load_cert_chain(settings.tls_cert, settings.tls_key)
    if settings.tls_client_ca:
        context.verify_mode = ssl.CERT_REQUIRED
        context.load_verify_locations(settings.tls_client_ca)
    return context


async def _agreed_secret(store: Store) -> bytes:
    """The token secret every server on this store shares (first proposal wins)."""
    try:
        return await store.shared_secret(secrets.token_bytes(32))
    except StoreUnavailableError:
        log.error("the store is unreachable at start-up; cannot agree on a token secret")
        raise


async def serve(settings: Settings) -> None:
    app = await App.create(settings)
    await app.start()
    if settings.gc_tune:
        # Everything alive now lives as long as the process: keep it out of every
        # collection, and collect the young generation less often (fewer pauses).
        gc.freeze()
        gc.set_threshold(50_000, 20, 20)
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(sig, stop.set)
    http = f", HTTP on {settings.http_host}:{app.http_port}" if app.http_port is not None else ""
    print(f"tribes: listening on {settings.host}:{app.port}{http}", file=sys.stderr, flush=True)
    await stop.wait()
    log.info("shutting down (grace %.1fs)", settings.grace)
    await app.stop()


class _AbandonedCalls(logging.Filter):
    """grpc logs a traceback at ERROR whenever a client abandons a call mid-reply
    (``ExecuteBatchError``): that is the client's business, kept at DEBUG."""

    def filter(self, record: logging.LogRecord) -> bool:
        if record.levelno >= logging.ERROR and "ExecuteBatchError" in record.getMessage():
            record.levelno, record.levelname = logging.DEBUG, "DEBUG"
            return logging.getLogger(record.name).isEnabledFor(logging.DEBUG)
        return True


def configure_logging(level: str) -> None:
    # The logging HOWTO's "Optimization" switches: no caller lookup, thread or process
    # names in records (one line per request must stay cheap).
    logging._srcfile = None
    logging.logThreads = False
    logging.logProcesses = False
    logging.logMultiprocessing = False
    logging.basicConfig(
        level=level.upper(),
        stream=sys.stderr,
        format="%(asctime)s %(levelname)s %(name)s %(message)s",
    )
    for name in ("grpc._cython.cygrpc", "grpc.aio._server"):
        logging.getLogger(name).addFilter(_AbandonedCalls())


def main() -> None:
    settings = Settings.from_env()
    configure_logging(settings.log_level)
    if not grpc_prepared(os.environ):
        log.warning(
            "TRIBES_GRPC_POLLER is ignored: gRPC was imported before it could be applied "
            "(start the server with python -m tribes or tribes-server)"
        )
    if settings.workers > 1:
        from tribes.workers import supervise

        asyncio.run(supervise(settings))
        return
    loop_factory = None
    if settings.uvloop:
        with contextlib.suppress(ImportError):
            import uvloop

            loop_factory = uvloop.new_event_loop
    with (
        contextlib.suppress(KeyboardInterrupt),
        asyncio.Runner(loop_factory=loop_factory) as runner,
    ):
        runner.run(serve(settings))


if __name__ == "__main__":
    main()

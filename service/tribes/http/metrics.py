"""The Prometheus endpoint: ``GET /metrics`` on its own port, served by aiohttp."""

from __future__ import annotations

from aiohttp import web
from prometheus_client import CONTENT_TYPE_LATEST, CollectorRegistry
from prometheus_client.exposition import generate_latest


class MetricsEndpoint:
    """``GET /metrics`` (and ``/``) on its own port, served by aiohttp on the event loop."""

    def __init__(self, registry: CollectorRegistry) -> None:
        self.registry = registry
        self.port: int | None = None
        self._runner: web.AppRunner | None = None

    async def _metrics(self, request: web.Request) -> web.Response:
        response = web.Response(body=generate_latest(self.registry))
        response.headers["Content-Type"] = CONTENT_TYPE_LATEST
        return response

    async def start(self, host: str, port: int, *, reuse_port: bool = False) -> int:
        app = web.Application()
        app.router.add_get("/metrics", self._metrics)
        app.router.add_get("/", self._metrics)
        self._runner = web.AppRunner(app, access_log=None)
        await self._runner.setup()
        site = web.TCPSite(self._runner, host, port, reuse_port=reuse_port or None)
        await site.start()
        self.port = int(self._runner.addresses[0][1])  # the bound port (0 picks a free one)
        return self.port

    async def stop(self) -> None:
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

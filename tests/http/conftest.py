"""Fixtures for HTTP tests: a real server (gRPC + HTTP) on a real Redis, a real client."""

from __future__ import annotations

from collections.abc import AsyncIterator

import aiohttp
import pytest

from tests.support.server import running_app
from tribes.server import App
from tribes.store.redis import RedisStore


@pytest.fixture
async def app(redis_url: str, redis_prefix: str) -> AsyncIterator[App]:
    store = RedisStore(redis_url, prefix=redis_prefix)
    async with running_app(
        store, cors_origins=("https://play.example",), sse_heartbeat=0.2
    ) as running:
        yield running


@pytest.fixture
async def http(app: App) -> AsyncIterator[aiohttp.ClientSession]:
    async with aiohttp.ClientSession(f"http://127.0.0.1:{app.http_port}") as session:
        yield session

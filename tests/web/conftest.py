"""Fixtures for the playground's browser tests: a real server (gRPC + HTTP serving
clients/web) on a real Redis, a real headless Chromium, an HTTP client for set-up."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import aiohttp
import pytest

from tests.support.parts import missing_part
from tests.support.server import running_app
from tests.web.browser import CHROMIUM_ARGS, WEB_DIR, chromium_path, missing
from tribes.server import App
from tribes.store.redis import RedisStore


@pytest.fixture
async def app(redis_url: str, redis_prefix: str) -> AsyncIterator[App]:
    store = RedisStore(redis_url, prefix=redis_prefix)
    async with running_app(store, web_dir=str(WEB_DIR)) as running:
        yield running


@pytest.fixture
def base_url(app: App) -> str:
    return f"http://127.0.0.1:{app.http_port}"


@pytest.fixture
async def http(base_url: str) -> AsyncIterator[aiohttp.ClientSession]:
    async with aiohttp.ClientSession(base_url) as session:
        yield session


@pytest.fixture
async def browser(app: App) -> AsyncIterator[Any]:
    """Closed before the server stops (its sessions end first, nothing waits on them)."""
    reason = missing()
    if reason:
        missing_part(f"browser tests cannot run: {reason}")
    from playwright.async_api import async_playwright

    async with async_playwright() as driver:
        launched = await driver.chromium.launch(executable_path=chromium_path(), args=CHROMIUM_ARGS)
        try:
            yield launched
        finally:
            await launched.close()

"""The REST test needs the app on a real Redis (as tests/http does)."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest

from tests.support.server import running_app
from tribes.server import App
from tribes.store.redis import RedisStore


@pytest.fixture
async def app(redis_url: str, redis_prefix: str) -> AsyncIterator[App]:
    async with running_app(
        RedisStore(redis_url, prefix=redis_prefix), bot_budget_ms=20, bot_max_budget_ms=50
    ) as running:
        yield running

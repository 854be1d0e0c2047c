"""Shared fixtures: a real Redis under a private key prefix, and the soak switch.

Tests that use Redis talk to the server at ``TRIBES_TEST_REDIS_URL`` (default
redis://127.0.0.1:6379/0; ``make test`` starts a throwaway one when none answers).
Each test gets its own key prefix and deletes only the keys under it, so a shared
Redis is never flushed.
"""

from __future__ import annotations

import os
import uuid
from collections.abc import AsyncIterator, Iterator

import pytest
import redis

from tests.support.parts import missing_part

REDIS_URL = os.environ.get("TRIBES_TEST_REDIS_URL", "redis://127.0.0.1:6379/0")


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption("--run-soak", action="store_true", help="run the long soak tests")


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    if config.getoption("--run-soak"):
        return
    skip = pytest.mark.skip(reason="soak test: run with `make soak`")
    for item in items:
        if "soak" in item.keywords:
            item.add_marker(skip)


@pytest.fixture
def redis_url() -> str:
    return REDIS_URL


@pytest.fixture
def redis_prefix() -> Iterator[str]:
    """A key prefix no other test uses; its keys are deleted afterwards."""
    prefix = f"tribes-test-{uuid.uuid4().hex[:12]}"
    yield prefix
    client = redis.Redis.from_url(REDIS_URL)
    try:
        keys = list(client.scan_iter(match=f"{prefix}:*", count=1000))
        if keys:
            client.delete(*keys)
    finally:
        client.close()


@pytest.fixture
async def redis_client() -> AsyncIterator[object]:
    import redis.asyncio as aioredis

    client = aioredis.Redis.from_url(REDIS_URL)
    yield client
    await client.aclose()


@pytest.fixture(scope="session")
def local_cluster() -> Iterator[object]:
    """A real local Redis Cluster (three masters, one replica each) for this worker."""
    from tests.support.redis_cluster import LocalCluster, available

    missing = available()
    if missing:
        missing_part(f"no Redis Cluster here: {missing}")
    cluster = LocalCluster().start()
    yield cluster
    cluster.stop()


@pytest.fixture(scope="session")
def local_sentinel() -> Iterator[object]:
    """A real Sentinel-managed Redis (a master, a replica, three sentinels)."""
    from tests.support.redis_cluster import LocalSentinel, available

    missing = available()
    if missing:
        missing_part(f"no Redis Sentinel here: {missing}")
    group = LocalSentinel().start()
    yield group
    group.stop()

"""Fixtures for service tests: a real server on a real port, a real Redis behind it."""

from __future__ import annotations

from collections.abc import AsyncIterator

import grpc
import pytest

from tests.support.server import running_app
from tribes.server import App
from tribes.store.redis import RedisStore
from tribes.v1 import game_service_pb2_grpc as spb_grpc


@pytest.fixture
async def app(redis_url: str, redis_prefix: str) -> AsyncIterator[App]:
    async with running_app(RedisStore(redis_url, prefix=redis_prefix)) as running:
        yield running


@pytest.fixture
async def channel(app: App) -> AsyncIterator[grpc.aio.Channel]:
    async with grpc.aio.insecure_channel(f"127.0.0.1:{app.port}") as ch:
        yield ch


@pytest.fixture
def stub(channel: grpc.aio.Channel) -> spb_grpc.GameServiceStub:
    return spb_grpc.GameServiceStub(channel)

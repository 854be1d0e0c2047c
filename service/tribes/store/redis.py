"""The Redis store of record, one round trip per operation.

Layout (``tribes.store.keys``): a hash per game (metadata, version, state, finished),
a list for the move log, a string per remembered request id, and a pub/sub channel
for changes — all under the game's ``{id}`` hash tag, so the code runs unchanged on
Redis Cluster.

Every write is one Lua script, so it is atomic and costs one round trip: ``commit``
checks the request id, compares the version, writes the state, appends to the log,
remembers the request id, refreshes the expiry and publishes the change. A conflict
comes back as a result, never as a retry (redis-py's ``transaction()`` helper retries
forever, which is wrong for moves). Automatic client retries are off for the same
reason: a resent commit whose first reply was lost must be answered by the request-id
record, not re-executed blindly.

Commands go through ``tribes.store.resp`` (one pipelined connection, a fraction of
redis-py's CPU per command); pub/sub uses redis-py: one pub/sub connection per store
serves every watcher of this process, registering a queue per game channel, and a
single reader task fans messages out.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import AsyncIterator
from typing import Any

import redis.asyncio as aioredis
from redis.exceptions import RedisError

from tribes.store.base import (
    Change,
    CommitOutcome,
    CommitStatus,
    Loaded,
    Store,
    StoreUnavailableError,
    Ttls,
)
from tribes.store.keys import Keys
from tribes.store.resp import RespClient, RespError, RespScript

log = logging.getLogger(__name__)

_CREATE = """
if redis.call('EXISTS', KEYS[1]) == 1 then return 0 end
redis.call('HSET', KEYS[1], 'm', ARGV[1], 'v', 1, 's', ARGV[2], 'f', '0')
if tonumber(ARGV[3]) > 0 then redis.call('EXPIRE', KEYS[1], ARGV[3]) end
return 1
"""

_LOAD = """
local r = redis.call('HMGET', KEYS[1], 'm', 'v', 's', 'f')
return {r[1], r[2], r[3], r[4], redis.call('GET', KEYS[2])}
"""

# KEYS: game hash, log list, request key (the game hash again when there is none)
# ARGV: expected version, state, log entry, finished "0"/"1", channel,
#       idle ttl, finished ttl, request ttl, has request "0"/"1"
_COMMIT = """
if ARGV[9] == '1' then
  local prior = redis.call('GET', KEYS[3])
  if prior then return {2, tonumber(prior)} end
end
local v = redis.call('HGET', KEYS[1], 'v')
if not v then return {3, 0} end
v = tonumber(v)
if v ~= tonumber(ARGV[1]) then return {1, v} end
local nv = v + 1
redis.call('HSET', KEYS[1], 'v', nv, 's', ARGV[2], 'f', ARGV[4])
redis.call('RPUSH', KEYS[2], ARGV[3])
local ttl = tonumber(ARGV[6])
if ARGV[4] == '1' then ttl = tonumber(ARGV[7]) end
if ttl > 0 then
  redis.call('EXPIRE', KEYS[1], ttl)
  redis.call('EXPIRE', KEYS[2], ttl)
end
if ARGV[9] == '1' then redis.call('SET', KEYS[3], nv, 'EX', ARGV[8]) end
redis.call('PUBLISH', ARGV[5], nv .. ':' .. ARGV[2])
return {0, nv}
"""

_STATUS = {
    0: CommitStatus.APPLIED,
    1: CommitStatus.CONFLICT,
    2: CommitStatus.DUPLICATE,
    3: CommitStatus.MISSING,
}


class RedisStore(Store):
    def __init__(
        self,
        url: str,
        *,
        prefix: str = "tribes",
        ttls: Ttls = Ttls(),
        timeout: float = 2.0,
    ) -> None:
        self.keys = Keys(prefix)
        self._ttls = ttls
        self._resp = RespClient(url, timeout=timeout)
        self._create = RespScript(self._resp, _CREATE)
        self._load = RespScript(self._resp, _LOAD)
        self._commit = RespScript(self._resp, _COMMIT)
        self._pubsub_client = aioredis.Redis.from_url(
            url,
            socket_timeout=None,  # a subscriber waits for messages indefinitely
            socket_connect_timeout=timeout,
            retry_on_timeout=False,
            retry=None,
        )
        self._fanout = _Fanout(self._pubsub_client)

    async def create(self, game_id: str, meta: bytes, state: bytes) -> bool:
        async with _unavailable("create"):
            created = await self._create(
                keys=[self.keys.game(game_id)], args=[meta, state, self._ttls.idle]
            )
        return bool(created)

    async def load(self, game_id: str, request_key: str | None = None) -> Loaded | None:
        key = self.keys.game(game_id)
        async with _unavailable("load"):
            if request_key is None:
                meta, version, state, finished = await self._resp.call(
                    "HMGET", key, "m", "v", "s", "f"
                )
                prior = None
            else:
                meta, version, state, finished, prior = await self._load(
                    keys=[key, self.keys.request(game_id, request_key)]
                )
        if meta is None or version is None or state is None:
            return None
        return Loaded(
            meta=_bytes(meta),
            version=int(version),
            state=_bytes(state),
            finished=finished == b"1",
            prior_version=None if prior is None else int(prior),
        )

    async def commit(
        self,
        game_id: str,
        expected_version: int,
        state: bytes,
        log_entry: bytes,
        *,
        finished: bool,
        request_key: str | None = None,
    ) -> CommitOutcome:
        game = self.keys.game(game_id)
        request = game if request_key is None else self.keys.request(game_id, request_key)
        async with _unavailable("commit"):
            code, version = await self._commit(
                keys=[game, self.keys.log(game_id), request],
                args=[
                    expected_version,
                    state,
                    log_entry,
                    "1" if finished else "0",
                    self.keys.changes(game_id),
                    self._ttls.idle,
                    self._ttls.finished,
                    self._ttls.request,
                    "0" if request_key is None else "1",
                ],
            )
        return CommitOutcome(_STATUS[int(code)], int(version))

    async def read_log(self, game_id: str, start: int, count: int) -> list[bytes]:
        if count <= 0:
            return []
        async with _unavailable("read_log"):
            entries = await self._resp.call(
                "LRANGE", self.keys.log(game_id), start, start + count - 1
            )
        return [_bytes(entry) for entry in entries]

    @contextlib.asynccontextmanager
    async def watch(self, game_id: str) -> AsyncIterator[AsyncIterator[Change]]:
        channel = self.keys.changes(game_id)
        queue = await self._fanout.subscribe(channel)
        try:
            yield _drain(queue)
        finally:
            await self._fanout.unsubscribe(channel, queue)

    async def shared_secret(self, proposal: bytes) -> bytes:
        async with _unavailable("shared_secret"):
            await self._resp.call("SET", self.keys.secret(), proposal, "NX")
            secret = await self._resp.call("GET", self.keys.secret())
        if not secret:
            raise StoreUnavailableError("the shared secret vanished")
        return _bytes(secret)

    async def ping(self) -> None:
        async with _unavailable("ping"):
            await self._resp.call("PING")

    async def close(self) -> None:
        await self._fanout.close()
        await self._pubsub_client.aclose()
        await self._resp.close()


def _bytes(value: bytes | str) -> bytes:
    """Replies are bytes (no decode_responses); the client's types allow str too."""
    return value if isinstance(value, bytes) else value.encode()


@contextlib.asynccontextmanager
async def _unavailable(operation: str) -> AsyncIterator[None]:
    """Turn every Redis/socket failure into StoreUnavailableError."""
    try:
        yield
    except (RedisError, OSError, RespError) as exc:
        raise StoreUnavailableError(f"redis {operation} failed: {exc}") from exc


_FAILED = Change(-1, b"")


async def _drain(queue: asyncio.Queue[Change]) -> AsyncIterator[Change]:
    while True:
        change = await queue.get()
        if change is _FAILED:
            raise StoreUnavailableError("lost the redis change feed")
        yield change


class _Fanout:
    """One pub/sub connection shared by all watchers of this process."""

    def __init__(self, client: aioredis.Redis) -> None:
        self._client = client
        self._pubsub: Any = None
        self._reader: asyncio.Task[None] | None = None
        self._queues: dict[bytes, set[asyncio.Queue[Change]]] = {}
        self._confirmed: dict[bytes, asyncio.Event] = {}
        self._lock = asyncio.Lock()

    async def subscribe(self, channel: str) -> asyncio.Queue[Change]:
        name = channel.encode()
        queue: asyncio.Queue[Change] = asyncio.Queue()
        async with self._lock:
            if self._pubsub is None:
                self._pubsub = self._client.pubsub()
            first = name not in self._queues
            self._queues.setdefault(name, set()).add(queue)
            if first:
                self._confirmed[name] = asyncio.Event()
                async with _unavailable("subscribe"):
                    await self._pubsub.subscribe(name)
            if self._reader is None or self._reader.done():
                self._reader = asyncio.create_task(self._read(self._pubsub))
            confirmed = self._confirmed[name]
        try:
            await asyncio.wait_for(confirmed.wait(), timeout=5)
        except TimeoutError:
            await self.unsubscribe(channel, queue)
            raise StoreUnavailableError("redis did not confirm the subscription") from None
        return queue

    async def unsubscribe(self, channel: str, queue: asyncio.Queue[Change]) -> None:
        name = channel.encode()
        async with self._lock:
            queues = self._queues.get(name)
            if queues is None:
                return
            queues.discard(queue)
            if queues:
                return
            del self._queues[name]
            self._confirmed.pop(name, None)
            if self._pubsub is not None:
                with contextlib.suppress(RedisError, OSError):
                    await self._pubsub.unsubscribe(name)

    async def _read(self, pubsub: Any) -> None:
        try:
            while self._queues:
                message = await pubsub.get_message(timeout=1.0)
                if message is None:
                    continue
                kind, name = message["type"], message["channel"]
                if kind == b"subscribe" or kind == "subscribe":
                    event = self._confirmed.get(name)
                    if event is not None:
                        event.set()
                elif kind == b"message" or kind == "message":
                    version, _, state = message["data"].partition(b":")
                    change = Change(int(version), state)
                    for queue in self._queues.get(name, ()):
                        queue.put_nowait(change)
        except (RedisError, OSError) as exc:
            log.warning("redis change feed lost: %s", exc)
            await self._fail_all()
        except asyncio.CancelledError:
            raise

    async def _fail_all(self) -> None:
        async with self._lock:
            for queues in self._queues.values():
                for queue in queues:
                    queue.put_nowait(_FAILED)
            self._queues.clear()
            self._confirmed.clear()
            pubsub, self._pubsub = self._pubsub, None
        if pubsub is not None:
            with contextlib.suppress(Exception):
                await pubsub.aclose()

    async def close(self) -> None:
        if self._reader is not None:
            self._reader.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._reader
        await self._fail_all()

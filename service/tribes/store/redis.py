"""The Redis store of record, one round trip per operation.

Layout (``tribes.store.keys``): a hash per game (metadata, version, state, finished),
a list for the move log, a string per remembered request id, the set of replicas that
follow the game and a pub/sub channel per follower — all under the game's ``{id}`` hash
tag, so the code runs unchanged on Redis Cluster.

Every write is one Lua script, so it is atomic and costs one round trip: ``commit``
checks the request id, compares the version, writes the state, appends to the log,
remembers the request id, refreshes the expiry and publishes the change to every other
replica that follows the game (its own watchers get it from the replica at once, not
back through Redis). A conflict comes back as a result, never as a retry (redis-py's
``transaction()`` helper retries forever, which is wrong for moves).

Commands go through redis-py (``tribes.store.commands``); the change feed is redis-py's
pub/sub: one pub/sub connection per store serves every watcher of this process, a single
reader task fans messages out to bounded per-watcher mailboxes, and a subscription that
fails (a store outage) is unregistered at once, so the next watch starts afresh.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
from collections.abc import AsyncIterator, Callable, Sequence
from typing import Any

from redis.exceptions import RedisError

from tribes.store.base import (
    Change,
    CommitOutcome,
    CommitStatus,
    Loaded,
    Mailbox,
    PresenceEntries,
    Store,
    StoreUnavailableError,
    Ttls,
    WatchEndedError,
    decode_presence,
)
from tribes.store.commands import Arg, Commands, ConnectionCommands, Script
from tribes.store.keys import DUE_SHARDS, Keys

log = logging.getLogger(__name__)

_CREATE = Script("""
local v = redis.call('HGET', KEYS[1], 'v')
if v then
  -- a write, so that a WAIT after this script covers the first request's create too
  redis.call('HSET', KEYS[1], 'v', v)
  return 0
end
redis.call('HSET', KEYS[1], 'm', ARGV[1], 'v', 1, 's', ARGV[2], 'f', '0')
if tonumber(ARGV[3]) > 0 then redis.call('EXPIRE', KEYS[1], ARGV[3]) end
return 1
""")

_LOAD = Script("""
local r = redis.call('HMGET', KEYS[1], 'm', 'v', 's', 'f')
return {r[1], r[2], r[3], r[4], redis.call('GET', KEYS[2])}
""")

# KEYS: request key. A write that changes nothing, so that a WAIT after it covers the
# first request's move: a retry is answered only once the replicas have that move.
_TOUCH = Script("""
local prior = redis.call('GET', KEYS[1])
if prior then redis.call('SET', KEYS[1], prior, 'KEEPTTL') end
return prior
""")

# The change feed's publication, written into the scripts that publish: ``head .. body``
# on the channel (``prefix .. replica``) of every follower in ``key`` but ``me``, the
# message built only when there is one (at N=1 the only follower is often ``me``).
_PUBLISH_TO_OTHERS = """
local function publish_to_others(key, prefix, me, head, body)
  local message
  for _, replica in ipairs(redis.call('ZRANGE', key, 0, -1)) do
    if replica ~= me then
      message = message or (head .. body)
      redis.call('@PUBLISH@', prefix .. replica, message)
    end
  end
end
"""

# KEYS: game hash, log list, request key (the game hash again when there is none),
#       followers
# ARGV: expected version, state, log entry, finished "0"/"1", channels' prefix,
#       has request "0"/"1", this replica
# The change is published to every replica that follows the game but the committing
# one, which hands it to its own watchers itself (none of them waits for Redis).
# The store's constants — @IDLE@, @FINISHED@, @REQUEST@ (ttls, s) and @PUBLISH@ (PUBLISH,
# or SPUBLISH on a cluster: the channel is in the slot) — are written into the source
# when the store is made (``_with_constants``), so each commit sends only what varies.
_COMMIT = """
@PUBLISH_TO_OTHERS@
if ARGV[6] == '1' then
  local prior = redis.call('GET', KEYS[3])
  if prior then
    -- a write, so that a WAIT after this script covers the first request's move too
    redis.call('EXPIRE', KEYS[3], @REQUEST@)
    return {2, tonumber(prior)}
  end
end
local v = redis.call('HGET', KEYS[1], 'v')
if not v then return {3, 0} end
v = tonumber(v)
if v ~= tonumber(ARGV[1]) then return {1, v} end
local nv = v + 1
redis.call('HSET', KEYS[1], 'v', nv, 's', ARGV[2], 'f', ARGV[4])
redis.call('RPUSH', KEYS[2], ARGV[3])
local ttl = @IDLE@
if ARGV[4] == '1' then ttl = @FINISHED@ end
if ttl > 0 then
  redis.call('EXPIRE', KEYS[1], ttl)
  redis.call('EXPIRE', KEYS[2], ttl)
end
if ARGV[6] == '1' then redis.call('SET', KEYS[3], nv, 'EX', @REQUEST@) end
publish_to_others(KEYS[4], ARGV[5], ARGV[7], nv .. ':', ARGV[2])
return {0, nv}
"""


# KEYS: presence hash, followers. ARGV: field to drop ("" for none), field to set, its
# value, channels' prefix, this replica. Constants as in the commit script: @KEEP_MS@
# (how long the hash is kept) and @PUBLISH@. The notice carries every entry
# ("field=value" lines), so no replica reads them again; it is published to the other
# followers, and returned.
_PRESENCE = """
@PUBLISH_TO_OTHERS@
if ARGV[1] ~= '' then redis.call('HDEL', KEYS[1], ARGV[1]) end
redis.call('HSET', KEYS[1], ARGV[2], ARGV[3])
redis.call('PEXPIRE', KEYS[1], @KEEP_MS@)
local all = redis.call('HGETALL', KEYS[1])
local lines = {}
for i = 1, #all, 2 do lines[#lines + 1] = all[i] .. '=' .. all[i + 1] .. '\\n' end
local notice = table.concat(lines)
publish_to_others(KEYS[2], ARGV[4], ARGV[5], '0:', notice)
return notice
"""


# KEYS: a lease. ARGV: its holder. Only the holder's own lease is given back.
_UNCLAIM = Script("""
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0
""")

# KEYS: presence hash. ARGV: the holder's field, its new value. Only a holder still
# entered is refreshed: a refresh that was in flight when its holder left writes nothing
# (it would bring the holder back, present until it expires).
_PRESENCE_TOUCH = """
if redis.call('HEXISTS', KEYS[1], ARGV[1]) == 0 then return 0 end
redis.call('HSET', KEYS[1], ARGV[1], ARGV[2])
redis.call('PEXPIRE', KEYS[1], @KEEP_MS@)
return 1
"""


# KEYS: followers. ARGV: this replica, how long it follows unless renewed (ms). Entries
# of replicas that stopped renewing (a crash) are dropped.
_FOLLOW = Script("""
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now)
redis.call('ZADD', KEYS[1], now + tonumber(ARGV[2]), ARGV[1])
redis.call('PEXPIRE', KEYS[1], ARGV[2])
return 1
""")


def _with_constants(source: str, constants: dict[str, str]) -> Script:
    """A script with the store's constants written into its source (``@NAME@``)."""
    for name, value in constants.items():
        source = source.replace(name, value)
    return Script(source)


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
        commands: Commands | None = None,
        min_replicas: int = 0,
        replica_wait_ms: int = 1000,
    ) -> None:
        self.keys = Keys(prefix)
        self._ttls = ttls
        self._redis = (
            commands if commands is not None else ConnectionCommands.from_url(url, timeout=timeout)
        )
        self._min_replicas = min_replicas
        self._replica_wait_ms = replica_wait_ms
        # the publication first: its own @PUBLISH@ is written in after it
        published = {
            "@PUBLISH_TO_OTHERS@": _PUBLISH_TO_OTHERS,
            "@PUBLISH@": self._redis.feed.publish,
        }
        self._commit = _with_constants(
            _COMMIT,
            {
                "@IDLE@": str(int(ttls.idle)),
                "@FINISHED@": str(int(ttls.finished)),
                "@REQUEST@": str(int(ttls.request)),
                **published,
            },
        )
        self._presence = _with_constants(
            _PRESENCE, {"@KEEP_MS@": str(_PRESENCE_KEEP_MS), **published}
        )
        self._presence_touch = _with_constants(
            _PRESENCE_TOUCH, {"@KEEP_MS@": str(_PRESENCE_KEEP_MS)}
        )
        #: this store's name among the replicas that follow a game (a new one per process)
        self.replica = secrets.token_hex(8)
        self._pubsub_client = self._redis.pubsub_client()
        self._fanout = _Fanout(self._pubsub_client, self._redis, self.keys, self.replica)

    async def create(self, game_id: str, meta: bytes, state: bytes) -> bool:
        keys = [self.keys.game(game_id)]
        args: list[Arg] = [meta, state, self._ttls.idle]
        with _unavailable("create"):
            if not self._min_replicas:
                return bool(await self._redis.run(_CREATE, keys, args))
            created, acked = await self._redis.run_and_wait(
                _CREATE, keys, args, self._min_replicas, self._replica_wait_ms
            )
        if acked < self._min_replicas:  # a retry with the same request id answers it
            raise StoreUnavailableError(
                f"the new game reached {acked} of {self._min_replicas} replicas in time"
            )
        return bool(created)

    async def load(self, game_id: str, request_key: str | None = None) -> Loaded | None:
        key = self.keys.game(game_id)
        with _unavailable("load"):
            if request_key is None:
                meta, version, state, finished = await self._redis.execute(
                    "HMGET", key, "m", "v", "s", "f"
                )
                prior = None
            else:
                request = self.keys.request(game_id, request_key)
                meta, version, state, finished, prior = await self._redis.run(
                    _LOAD, [key, request], []
                )
                if prior is not None and self._min_replicas:
                    prior, acked = await self._redis.run_and_wait(
                        _TOUCH, [request], [], self._min_replicas, self._replica_wait_ms
                    )
                    if acked < self._min_replicas:
                        raise StoreUnavailableError(
                            f"the move reached {acked} of {self._min_replicas} replicas in time"
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
        meanwhile: Callable[[], object] | None = None,
    ) -> CommitOutcome:
        game = self.keys.game(game_id)
        request = game if request_key is None else self.keys.request(game_id, request_key)
        keys = [game, self.keys.log(game_id), request, self.keys.followers(game_id)]
        args: list[Arg] = [
            b"%d" % expected_version,
            state,
            log_entry,
            b"1" if finished else b"0",
            self.keys.channels(game_id),
            b"0" if request_key is None else b"1",
            self.replica,
        ]
        acked = self._min_replicas
        with _unavailable("commit"):
            if not self._min_replicas:
                code, version = await self._redis.run(self._commit, keys, args, meanwhile=meanwhile)
            else:
                (code, version), acked = await self._redis.run_and_wait(
                    self._commit, keys, args, self._min_replicas, self._replica_wait_ms
                )
        outcome = CommitOutcome(_STATUS[int(code)], int(version))
        if outcome.status is CommitStatus.APPLIED:
            # this replica's watchers, not through Redis (on the primary: whatever the
            # replicas acknowledged, the other followers were sent it too)
            self._fanout.deliver(game_id, Change(outcome.version, state))
        landed = (CommitStatus.APPLIED, CommitStatus.DUPLICATE)
        if outcome.status in landed and acked < self._min_replicas:
            # on the primary, not yet on enough replicas: a failover now could lose it,
            # so it is not acknowledged (a retry with the request id answers it once the
            # replicas have it)
            raise StoreUnavailableError(
                f"the move reached {acked} of {self._min_replicas} replicas in time"
            )
        return outcome

    async def read_log(self, game_id: str, start: int, count: int) -> list[bytes]:
        if count <= 0:
            return []
        with _unavailable("read_log"):
            entries = await self._redis.execute(
                "LRANGE", self.keys.log(game_id), start, start + count - 1
            )
        return [_bytes(entry) for entry in entries]

    @contextlib.asynccontextmanager
    async def watch(self, game_id: str, mailbox: Mailbox | None = None) -> AsyncIterator[Mailbox]:
        mailbox = mailbox if mailbox is not None else Mailbox()
        with _unavailable("subscribe"):
            await self._redis.ready_to_subscribe()
        await self._fanout.subscribe(game_id, mailbox)
        try:
            yield mailbox
        finally:
            await self._fanout.unsubscribe(game_id, mailbox)

    def latest(self, game_id: str) -> Change | None:
        return self._fanout.latest(game_id)

    def read_while_watched(self, game_id: str, change: Change) -> None:
        self._fanout.keep(game_id, change)

    async def load_many(self, game_ids: Sequence[str]) -> list[Loaded | None]:
        # one command per game, concurrently: a game's keys may live on any shard
        return list(await asyncio.gather(*(self.load(game_id) for game_id in game_ids)))

    async def list_add(self, game_id: str, kinds: Sequence[str], created_ms: int) -> None:
        with _unavailable("list_add"):
            for kind in kinds:
                await self._redis.execute("ZADD", self.keys.lobby(kind), created_ms, game_id)

    async def list_page(
        self, kind: str, before: tuple[int, str] | None, count: int
    ) -> list[tuple[str, int]]:
        """Newest first by (created, id). After a cursor: every game of the cursor's own
        millisecond (a burst may put any number there; Redis orders equal scores by id)
        with an id below it, and the ``count`` newest strictly older ones."""
        key = self.keys.lobby(kind)
        with _unavailable("list_page"):
            if before is None:
                raw = await self._redis.execute(
                    "ZREVRANGEBYSCORE", key, "+inf", "-inf", "WITHSCORES", "LIMIT", 0, count
                )
                pairs = _pairs(raw)
            else:
                created, last = before
                same = await self._redis.execute(
                    "ZRANGEBYSCORE", key, created, created, "WITHSCORES"
                )
                older = await self._redis.execute(
                    "ZREVRANGEBYSCORE", key, f"({created}", "-inf", "WITHSCORES", "LIMIT", 0, count
                )
                pairs = [(g, score) for g, score in _pairs(same) if g < last] + _pairs(older)
        entries = sorted(((int(score), game_id) for game_id, score in pairs), reverse=True)
        return [(game_id, created) for created, game_id in entries[:count]]

    async def list_remove(self, game_id: str, kinds: Sequence[str]) -> None:
        with _unavailable("list_remove"):
            for kind in kinds:
                await self._redis.execute("ZREM", self.keys.lobby(kind), game_id)

    async def now_ms(self) -> int:
        with _unavailable("time"):
            seconds, micros = await self._redis.execute("TIME")
        return int(seconds) * 1000 + int(micros) // 1000

    async def due_set(self, game_id: str, when_ms: int) -> None:
        with _unavailable("due_set"):
            if when_ms:
                await self._redis.execute("ZADD", self.keys.due(game_id), when_ms, game_id)
            else:
                await self._redis.execute("ZREM", self.keys.due(game_id), game_id)

    async def due_before(self, when_ms: int, count: int) -> list[str]:
        """The earliest ``count`` over every shard (each asked for ``count``, at once),
        and the earlier releases' single set, whose entries move to their shard."""
        keys = [self.keys.due_shard(i) for i in range(DUE_SHARDS)]
        legacy = self.keys.due_unsharded()
        with _unavailable("due_before"):
            replies = await asyncio.gather(
                *(
                    self._redis.execute(
                        "ZRANGEBYSCORE", key, "-inf", when_ms, "WITHSCORES", "LIMIT", 0, count
                    )
                    for key in (*keys, legacy)
                ),
                return_exceptions=True,  # every reply is collected; the first failure raised
            )
            for reply in replies:
                if isinstance(reply, BaseException):
                    raise reply
            due: dict[str, float] = {}
            for reply in replies:
                for member, score in _pairs(reply):
                    due[member] = min(score, due.get(member, score))
            for member, score in _pairs(replies[-1]):  # moved once, by whichever replica
                await self._redis.execute("ZADD", self.keys.due(member), "NX", score, member)
                await self._redis.execute("ZREM", legacy, member)
        return sorted(due, key=lambda member: (due[member], member))[:count]

    async def claim(self, game_id: str, name: str, ttl_ms: int, holder: str) -> bool:
        with _unavailable("claim"):
            taken = await self._redis.execute(
                "SET", self.keys.lease(game_id, name), holder, "NX", "PX", ttl_ms
            )
        return taken is not None

    async def unclaim(self, game_id: str, name: str, holder: str) -> None:
        with _unavailable("claim"):
            await self._redis.run(_UNCLAIM, [self.keys.lease(game_id, name)], [holder])

    async def presence_touch(
        self, game_id: str, seat: int, holder: str, since_ms: int, seen_ms: int
    ) -> None:
        keys = [self.keys.presence(game_id)]
        args: list[Arg] = [f"{seat}:{holder}", f"{since_ms}:{seen_ms}"]
        with _unavailable("presence"):
            await self._redis.run(self._presence_touch, keys, args)

    async def presence_enter(
        self, game_id: str, seat: int, holder: str, since_ms: int
    ) -> PresenceEntries:
        return decode_presence(
            await self._presence_write(game_id, "", f"{seat}:{holder}", since_ms, since_ms)
        )

    async def presence_leave(self, game_id: str, seat: int, holder: str, seen_ms: int) -> None:
        await self._presence_write(game_id, f"{seat}:{holder}", f"{seat}:left", seen_ms, seen_ms)

    async def _presence_write(
        self, game_id: str, drop: str, field: str, since_ms: int, seen_ms: int
    ) -> bytes:
        keys = [self.keys.presence(game_id), self.keys.followers(game_id)]
        args: list[Arg] = [
            drop,
            field,
            f"{since_ms}:{seen_ms}",
            self.keys.channels(game_id),
            self.replica,
        ]
        with _unavailable("presence"):
            notice = _bytes(await self._redis.run(self._presence, keys, args))
        self._fanout.deliver(game_id, Change(0, notice))
        return notice

    async def presence(self, game_id: str) -> PresenceEntries:
        with _unavailable("presence"):
            raw = await self._redis.execute("HGETALL", self.keys.presence(game_id))
        items = raw.items() if isinstance(raw, dict) else zip(raw[::2], raw[1::2], strict=True)
        out: PresenceEntries = {}
        for field, value in items:
            since, _, seen = _bytes(value).decode().partition(":")
            out[_bytes(field).decode()] = (int(since), int(seen or since))
        return out

    def end_watches(self, reason: str) -> None:
        self._fanout.fail_all(reason)

    async def shared_secret(self, proposal: bytes) -> bytes:
        with _unavailable("shared_secret"):
            await self._redis.execute("SET", self.keys.secret(), proposal, "NX")
            secret = await self._redis.execute("GET", self.keys.secret())
        if not secret:
            raise StoreUnavailableError("the shared secret vanished")
        return _bytes(secret)

    async def ping(self) -> None:
        with _unavailable("ping"):
            await self._redis.execute("PING")

    async def close(self) -> None:
        await self._fanout.close()
        with contextlib.suppress(RedisError, OSError):
            await self._pubsub_client.aclose()
        await self._redis.close()


def _bytes(value: bytes | str) -> bytes:
    """Replies are bytes (no decode_responses); the client's types allow str too."""
    return value if isinstance(value, bytes) else value.encode()


class _unavailable:
    """Turn every Redis/socket failure into StoreUnavailableError (a plain ``with``
    around awaits: cheaper on every command than a generator-based context manager)."""

    __slots__ = ("_operation",)

    def __init__(self, operation: str) -> None:
        self._operation = operation

    def __enter__(self) -> None:
        return None

    def __exit__(self, kind: type[BaseException] | None, exc: BaseException | None, _: Any) -> None:
        if isinstance(exc, RedisError | OSError):  # TimeoutError is an OSError
            failure = f"redis {self._operation} failed: {type(exc).__name__}"
            raise StoreUnavailableError(failure) from exc


_PRESENCE_KEEP_MS = 7 * 86400 * 1000  # the last sighting of a seat is kept a week
_CONFIRM_SECONDS = 5.0  # how long Redis may take to confirm a subscription
_FOLLOW_MS = 60_000  # a replica's following of a game lasts this long unless renewed
_RENEW_SECONDS = 20.0  # how often a replica renews its following of each game


class _Fanout:
    """One pub/sub connection shared by all watchers of this process.

    A game this process watches is *followed*: the replica is in the game's followers
    set and subscribed to its own channel of the game, so another replica's commit
    reaches it and its own commits never come back to it through Redis (``deliver``
    hands them to its watchers at once). Following starts before the subscription is
    confirmed and ends, with the last watcher, before it is dropped; it is renewed every
    ``_RENEW_SECONDS`` and lapses after ``_FOLLOW_MS`` (a replica that died).

    Every path out of ``subscribe`` either leaves the mailbox registered with a confirmed
    subscription or leaves nothing behind; a lost connection fails every mailbox and
    drops the pub/sub object, so the next subscription opens a new one. The connection
    outlives the last watcher of the last game (each game's channel is left with it):
    opening one per game cost a TCP connect and redis-py's handshake, about half a
    millisecond, whenever a replica's games came one at a time.
    """

    def __init__(self, client: Any, commands: Commands, keys: Keys, replica: str) -> None:
        self._client = client
        self._commands = commands
        self._feed = commands.feed
        self._keys = keys
        self._replica = replica
        self._pubsub: Any = None
        self._reader: asyncio.Task[None] | None = None
        self._renewer: asyncio.Task[None] | None = None
        self._mailboxes: dict[str, set[Mailbox]] = {}  # by game id
        self._games: dict[bytes, str] = {}  # channel -> game id
        self._confirmed: dict[str, asyncio.Event] = {}
        #: the newest change handed over since the game's subscription was confirmed
        self._latest: dict[str, Change] = {}
        self._watched = asyncio.Event()  # set while any game is watched
        self._lock = asyncio.Lock()

    def _channel(self, game_id: str) -> bytes:
        return self._keys.changes(game_id, self._replica).encode()

    async def _follow(self, game_id: str) -> None:
        keys = [self._keys.followers(game_id)]
        await self._commands.run(_FOLLOW, keys, [self._replica, _FOLLOW_MS])

    def deliver(self, game_id: str, change: Change) -> None:
        """A change (this replica's own, or one the feed brought): to the game's watchers
        here, now. Once the subscription is confirmed every later commit of the game
        reaches this replica, so a change handed over then is the game's newest version
        (up to the feed's delay) until the next one: it is kept as ``latest``. Before the
        confirmation a commit of another replica could still be lost, so nothing is kept."""
        for mailbox in self._mailboxes.get(game_id, ()):
            mailbox.put(change)
        self.keep(game_id, change)

    def keep(self, game_id: str, change: Change) -> None:
        """``change`` as the game's ``latest`` when the game's subscription is confirmed
        and nothing newer is known (a presence notice, version 0, is not a version)."""
        confirmed = self._confirmed.get(game_id)
        if change.version and confirmed is not None and confirmed.is_set():
            known = self._latest.get(game_id)
            if known is None or change.version > known.version:
                self._latest[game_id] = change

    def latest(self, game_id: str) -> Change | None:
        return self._latest.get(game_id)

    async def subscribe(self, game_id: str, mailbox: Mailbox) -> None:
        async with self._lock:
            if self._pubsub is None:
                self._pubsub = self._client.pubsub()
            first = game_id not in self._mailboxes
            self._mailboxes.setdefault(game_id, set()).add(mailbox)
            if first:
                channel = self._channel(game_id)
                self._confirmed[game_id] = asyncio.Event()
                self._games[channel] = game_id
                try:
                    with _unavailable("subscribe"):
                        await self._follow(game_id)
                        await getattr(self._pubsub, self._feed.subscribe)(channel)
                except BaseException:
                    self._forget(game_id, mailbox)
                    await self._reset_if_idle()
                    raise
            self._watched.set()  # after the subscription: a reader has something to read
            if self._reader is None or self._reader.done():
                self._reader = asyncio.create_task(self._read(self._pubsub))
            if self._renewer is None or self._renewer.done():
                self._renewer = asyncio.create_task(self._renew())
            confirmed = self._confirmed[game_id]
        try:
            async with asyncio.timeout(_CONFIRM_SECONDS):
                await confirmed.wait()
        except BaseException as exc:
            await self.unsubscribe(game_id, mailbox)
            if isinstance(exc, TimeoutError):
                raise StoreUnavailableError("redis did not confirm the subscription") from None
            raise

    def _forget(self, game_id: str, mailbox: Mailbox) -> bool:
        """Unregister a mailbox; True when it was the game's last one."""
        mailboxes = self._mailboxes.get(game_id)
        if mailboxes is None:
            return False
        mailboxes.discard(mailbox)
        if mailboxes:
            return False
        del self._mailboxes[game_id]
        self._confirmed.pop(game_id, None)
        self._latest.pop(game_id, None)
        self._games.pop(self._channel(game_id), None)
        if not self._mailboxes:
            self._watched.clear()
        return True

    async def unsubscribe(self, game_id: str, mailbox: Mailbox) -> None:
        async with self._lock:
            if self._forget(game_id, mailbox) and self._pubsub is not None:
                try:
                    async with asyncio.timeout(2.0):
                        # no longer a follower first: no commit publishes to a channel
                        # this replica is about to leave (a failure: it lapses)
                        with contextlib.suppress(RedisError, OSError):
                            await self._commands.execute(
                                "ZREM", self._keys.followers(game_id), self._replica
                            )
                        await getattr(self._pubsub, self._feed.unsubscribe)(self._channel(game_id))
                except (RedisError, OSError):
                    await self._drop_pubsub()

    async def _renew(self) -> None:
        """Renew this replica's following of every game it watches, before it lapses."""
        while True:
            await asyncio.sleep(_RENEW_SECONDS)
            for game_id in list(self._mailboxes):
                if game_id not in self._mailboxes:
                    continue  # its last watcher left meanwhile
                try:
                    async with asyncio.timeout(2.0):
                        await self._follow(game_id)
                except (RedisError, OSError) as exc:  # TimeoutError is an OSError
                    log.warning("renewing the following of a game failed: %s", type(exc).__name__)

    async def _reset_if_idle(self) -> None:
        """After a failed subscription, with no watcher left: close the pub/sub connection
        (and stop the reader), since its state is not known."""
        if not self._mailboxes and self._pubsub is not None:
            await self._drop_pubsub()

    async def _drop_pubsub(self) -> None:
        pubsub, self._pubsub = self._pubsub, None
        reader, self._reader = self._reader, None
        renewer, self._renewer = self._renewer, None
        for task in (reader, renewer):
            if task is not None and task is not asyncio.current_task():
                task.cancel()
        if pubsub is not None:
            with contextlib.suppress(Exception):
                await pubsub.aclose()

    async def _read(self, pubsub: Any) -> None:
        read = getattr(pubsub, self._feed.read)
        confirmation = (self._feed.confirmation, self._feed.confirmation.encode())
        published = (self._feed.message, self._feed.message.encode())
        wait = self._feed.wait
        try:
            while True:
                message = await read(timeout=wait)
                if message is None:
                    # a sharded reader with no shard subscribed returns at once: with
                    # nothing watched it waits for the next subscription instead
                    await self._watched.wait()
                    continue
                kind, name = message["type"], message["channel"]
                if isinstance(name, str):
                    name = name.encode()
                game_id = self._games.get(name)
                if game_id is None:
                    continue
                if kind in confirmation:
                    event = self._confirmed.get(game_id)
                    if event is not None:
                        event.set()
                elif kind in published:
                    version, _, state = message["data"].partition(b":")
                    self.deliver(game_id, Change(int(version), state))
        except asyncio.CancelledError:
            raise
        except Exception as exc:  # any failure of the feed ends every watch on it
            log.warning("redis change feed lost: %s", type(exc).__name__)
            await self._fail_all(pubsub)

    async def _fail_all(self, pubsub: Any) -> None:
        async with self._lock:
            if pubsub is not self._pubsub:
                return  # already replaced
            for mailboxes in self._mailboxes.values():
                for mailbox in mailboxes:
                    mailbox.fail("lost the redis change feed")
            self._mailboxes.clear()
            self._watched.clear()
            self._confirmed.clear()
            self._latest.clear()
            self._games.clear()
            await self._drop_pubsub()

    def fail_all(self, reason: str) -> None:
        """End every watch now, this process's own decision (WatchEndedError); each
        unsubscribes on its way out."""
        for mailboxes in self._mailboxes.values():
            for mailbox in mailboxes:
                mailbox.fail(reason, WatchEndedError)

    async def close(self) -> None:
        async with self._lock:
            self.fail_all("the store is closed")
            self._mailboxes.clear()
            self._watched.clear()
            self._confirmed.clear()
            self._latest.clear()
            self._games.clear()
            await self._drop_pubsub()


def _pairs(reply: Any) -> list[tuple[str, float]]:
    """(member, score) pairs of a WITHSCORES reply: RESP2 gives a flat list, RESP3 pairs."""
    items = list(reply)
    if items and isinstance(items[0], list | tuple):
        return [(_bytes(m).decode(), float(s)) for m, s in items]
    return [(_bytes(items[i]).decode(), float(items[i + 1])) for i in range(0, len(items), 2)]

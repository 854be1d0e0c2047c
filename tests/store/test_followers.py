"""The change feed between replicas (``tribes.store.redis``): each replica that watches a
game follows it on a channel of its own, a commit is published to every follower but
the replica that made it, and that replica hands the change to its own watchers itself.

Two ``RedisStore`` objects on one Redis and one prefix are two replicas of one
deployment; a plain Redis and a real local Redis Cluster (sharded pub/sub) both.
"""

from __future__ import annotations

import asyncio
import time
import uuid
from collections.abc import AsyncIterator

import pytest
import redis.asyncio as aioredis

from tribes.store import Change, Mailbox
from tribes.store.commands import ClusterCommands
from tribes.store.redis import RedisStore

Pair = tuple[RedisStore, RedisStore, str]


@pytest.fixture(params=["redis", "cluster"])
async def replicas(request: pytest.FixtureRequest, redis_url: str) -> AsyncIterator[Pair]:
    """Two replicas sharing one store, and the URL of that store."""
    if request.param == "redis":
        prefix = request.getfixturevalue("redis_prefix")
        url = redis_url
        pair = (RedisStore(url, prefix=prefix), RedisStore(url, prefix=prefix))
    else:
        cluster = request.getfixturevalue("local_cluster")
        url, prefix = cluster.url, uuid.uuid4().hex[:8]
        pair = tuple(  # type: ignore[assignment]
            RedisStore(url, prefix=prefix, commands=ClusterCommands.from_url(url)) for _ in range(2)
        )
    yield pair[0], pair[1], request.param
    for store in pair:
        await store.close()


@pytest.fixture
async def plain(redis_url: str, redis_prefix: str) -> AsyncIterator[tuple[RedisStore, RedisStore]]:
    """Two replicas on the plain Redis."""
    a, b = RedisStore(redis_url, prefix=redis_prefix), RedisStore(redis_url, prefix=redis_prefix)
    yield a, b
    for store in (a, b):
        await store.close()


async def _followers(store: RedisStore, game_id: str) -> set[bytes]:
    return set(await store._redis.execute("ZRANGE", store.keys.followers(game_id), 0, -1))


async def test_a_commit_reaches_every_replica_watching_the_game(replicas: Pair) -> None:
    """A's commit: A's watcher has it at once (before Redis could deliver anything), B's
    arrives through Redis; and the same the other way round."""
    a, b, _ = replicas
    assert a.replica != b.replica
    await a.create("g1", b"m", b"s0")
    async with a.watch("g1") as on_a, b.watch("g1") as on_b:
        assert await _followers(a, "g1") == {a.replica.encode(), b.replica.encode()}
        await a.commit("g1", 1, b"s1", b"e", finished=False)
        assert on_a._changes and on_a._changes[-1] == Change(2, b"s1")  # no await between
        async with asyncio.timeout(5):
            assert await on_b.get() == Change(2, b"s1")
            await b.commit("g1", 2, b"s2", b"e", finished=False)
            assert await on_b.get() == Change(3, b"s2")
            assert await on_a.get() == Change(2, b"s1")
            assert await on_a.get() == Change(3, b"s2")
    assert await _followers(a, "g1") == set()  # the last watcher of each replica left


async def test_a_watched_game_knows_its_latest_change(replicas: Pair) -> None:
    """``latest``: the newest change handed to a replica's watchers since the subscription
    was confirmed — its own commits and those the feed brings, never an older one, no
    presence notice — and nothing once nobody there watches the game."""
    a, b, _ = replicas
    await a.create("g1", b"m", b"s0")
    assert a.latest("g1") is None  # not watched
    async with a.watch("g1") as on_a, b.watch("g1") as on_b:
        assert a.latest("g1") is None and b.latest("g1") is None  # no change seen yet
        await a.commit("g1", 1, b"s1", b"e", finished=False)
        assert a.latest("g1") == Change(2, b"s1")  # its own, at once
        async with asyncio.timeout(5):
            assert await on_b.get() == Change(2, b"s1")
            assert b.latest("g1") == Change(2, b"s1")  # through the feed
            await b.commit("g1", 2, b"s2", b"e", finished=False)
            assert await on_a.get() == Change(2, b"s1")
            assert await on_a.get() == Change(3, b"s2")
        assert a.latest("g1") == b.latest("g1") == Change(3, b"s2")
        a._fanout.deliver("g1", Change(2, b"s1"))  # a late copy of an older change
        assert a.latest("g1") == Change(3, b"s2")
        await a.presence_enter("g1", 0, "holder", int(time.time() * 1000))
        assert a.latest("g1") == Change(3, b"s2")  # a presence notice is no version
    assert a.latest("g1") is None and b.latest("g1") is None  # the last watchers left


async def test_a_state_read_while_watched_is_kept_as_the_latest(replicas: Pair) -> None:
    """``read_while_watched``: a state read once the subscription is confirmed is the
    newest the replica knows (every later commit reaches it) unless a newer change came
    first; a read with no watch open, or before the confirmation, is not kept."""
    a, b, _ = replicas
    await a.create("g1", b"m", b"s0")
    a.read_while_watched("g1", Change(1, b"s0"))
    assert a.latest("g1") is None  # nobody watches the game here
    async with a.watch("g1") as mailbox:
        a.read_while_watched("g1", Change(1, b"s0"))
        assert a.latest("g1") == Change(1, b"s0")
        await b.commit("g1", 1, b"s1", b"e", finished=False)
        async with asyncio.timeout(5):
            assert await mailbox.get() == Change(2, b"s1")  # through the feed
        a.read_while_watched("g1", Change(1, b"s0"))  # a read that the commit overtook
        assert a.latest("g1") == Change(2, b"s1")
    assert a.latest("g1") is None
    mailbox = Mailbox()
    subscribing = asyncio.create_task(a._fanout.subscribe("g1", mailbox))
    await asyncio.sleep(0)  # registered, not yet confirmed
    try:
        a.read_while_watched("g1", Change(2, b"s1"))
        assert a.latest("g1") is None
        async with asyncio.timeout(5):
            await subscribing
        assert a.latest("g1") is None
    finally:
        await a._fanout.unsubscribe("g1", mailbox)


async def test_a_change_handed_over_before_the_subscription_is_confirmed_is_not_kept(
    replicas: Pair,
) -> None:
    """Until Redis confirms the subscription another replica's commit can still be lost
    on the way, so a change handed over meanwhile says nothing about the newest version."""
    a, _, _ = replicas
    await a.create("g1", b"m", b"s0")
    mailbox = Mailbox()
    subscribing = asyncio.create_task(a._fanout.subscribe("g1", mailbox))
    await asyncio.sleep(0)  # registered, its follow and subscription on their way
    assert not subscribing.done()
    a._fanout.deliver("g1", Change(2, b"s1"))
    async with asyncio.timeout(5):
        await subscribing
    try:
        assert mailbox._changes[-1] == Change(2, b"s1")  # its watcher has it all the same
        assert a.latest("g1") is None
        await a.commit("g1", 1, b"s1", b"e", finished=False)
        assert a.latest("g1") == Change(2, b"s1")
    finally:
        await a._fanout.unsubscribe("g1", mailbox)


async def test_a_replica_is_not_sent_its_own_commits(
    plain: tuple[RedisStore, RedisStore], redis_url: str
) -> None:
    """Redis publishes A's commit on B's channel only (a subscriber beside the service
    listens on both): nothing comes back to the replica that made it."""
    a, b = plain
    listener = aioredis.Redis.from_url(redis_url)
    pubsub = listener.pubsub()
    try:
        await a.create("g1", b"m", b"s0")
        async with a.watch("g1"), b.watch("g1"):
            await pubsub.subscribe(a.keys.changes("g1", a.replica), b.keys.changes("g1", b.replica))
            await a.commit("g1", 1, b"s1", b"e", finished=False)
            await a.commit("g1", 2, b"s2", b"e", finished=False)
            seen = []
            async with asyncio.timeout(5):
                while len(seen) < 2:
                    message = await pubsub.get_message(ignore_subscribe_messages=True, timeout=1)
                    if message is not None:
                        seen.append((message["channel"], message["data"]))
            await asyncio.sleep(0.1)
            assert await pubsub.get_message(ignore_subscribe_messages=True, timeout=0.1) is None
        mine = b.keys.changes("g1", b.replica).encode()
        assert seen == [(mine, b"2:s1"), (mine, b"3:s2")]
    finally:
        await pubsub.aclose()
        await listener.aclose()


async def test_a_game_nobody_follows_publishes_nothing(replicas: Pair) -> None:
    """With no watcher anywhere a commit has no follower to publish to (a unary-only
    deployment sends no change messages at all)."""
    a, _, _ = replicas
    await a.create("g1", b"m", b"s0")
    assert await _followers(a, "g1") == set()
    outcome = await a.commit("g1", 1, b"s1", b"e", finished=False)
    assert outcome.version == 2


async def test_a_follower_that_stopped_renewing_lapses(replicas: Pair) -> None:
    """The entry of a replica that died (its time passed) is dropped when a replica
    starts or renews following the game."""
    a, _, _ = replicas
    key = a.keys.followers("g1")
    await a._redis.execute("ZADD", key, 1, "dead-replica")
    await a.create("g1", b"m", b"s0")
    async with a.watch("g1"):
        assert await _followers(a, "g1") == {a.replica.encode()}


async def test_presence_notices_reach_every_replica(replicas: Pair) -> None:
    """A presence change made through A: its notice reaches A's watchers directly and
    B's through Redis."""
    a, b, _ = replicas
    await a.create("g1", b"m", b"s0")
    async with a.watch("g1") as on_a, b.watch("g1") as on_b:
        await a.presence_enter("g1", 0, "h1", 1000)
        assert on_a.notice is not None and b"0:h1=" in on_a.notice
        async with asyncio.timeout(5):
            await on_b.wait_until(lambda: on_b.notice is not None)
        assert on_b.notice == on_a.notice


def test_a_mailbox_keeps_versions_in_order() -> None:
    """A change older than one already queued (a replica's own commit handed over after a
    later one of another replica arrived) is not queued; ``catch_up`` drops what the
    watcher already has."""
    box = Mailbox()
    box.put(Change(3, b"c"))
    box.put(Change(2, b"b"))
    box.put(Change(4, b"d"))
    assert list(box._changes) == [Change(3, b"c"), Change(4, b"d")]
    box.catch_up(3)
    assert list(box._changes) == [Change(4, b"d")]
    box.put(Change(3, b"c"))
    assert list(box._changes) == [Change(4, b"d")]


async def test_a_watching_replica_renews_its_following(
    plain: tuple[RedisStore, RedisStore], monkeypatch: pytest.MonkeyPatch
) -> None:
    """While it watches, a replica pushes its following's end further on (renewals), so
    a long game never lapses under it."""
    import tribes.store.redis as redis_store

    monkeypatch.setattr(redis_store, "_RENEW_SECONDS", 0.05)
    a, _ = plain
    await a.create("g1", b"m", b"s0")
    key = a.keys.followers("g1")
    async with a.watch("g1"):
        first = float(await a._redis.execute("ZSCORE", key, a.replica))
        for _ in range(100):
            await asyncio.sleep(0.05)
            if float(await a._redis.execute("ZSCORE", key, a.replica)) > first:
                break
        else:
            pytest.fail("the following was not renewed in 5 s")
    assert await _followers(a, "g1") == set()


async def test_one_feed_connection_serves_game_after_game(
    plain: tuple[RedisStore, RedisStore], redis_url: str
) -> None:
    """The pub/sub connection outlives a game's last watcher (no connect and handshake per
    game), while the game's channel and its following end with that watcher."""
    a, _ = plain
    listener = aioredis.Redis.from_url(redis_url)
    try:
        seen = []
        for game_id in ("g1", "g2", "g3"):
            await a.create(game_id, b"m", b"s0")
            async with a.watch(game_id):
                seen.append(a._fanout._pubsub)
                assert await _followers(a, game_id) == {a.replica.encode()}
            [(_, count)] = await listener.pubsub_numsub(a.keys.changes(game_id, a.replica))
            assert count == 0
            assert await _followers(a, game_id) == set()
        assert seen[0] is not None and seen.count(seen[0]) == 3
        assert a._fanout._pubsub is seen[0] and seen[0].connection.is_connected
        await a.create("g4", b"m", b"s0")
        async with a.watch("g4") as on_a:  # and it still delivers
            await a.commit("g4", 1, b"s1", b"e", finished=False)
            assert await on_a.get() == Change(2, b"s1")
    finally:
        await listener.aclose()


async def test_an_idle_feed_waits_for_the_next_watcher(replicas: Pair) -> None:
    """With every game's last watcher gone the feed's reader stays (its connection open)
    but does not spin: a sharded reader with no shard returns at once, so it must wait.
    A spinning reader would use about all of the half second below."""
    a, _, _ = replicas
    await a.create("g1", b"m", b"s0")
    async with a.watch("g1"):
        pass
    began = time.process_time()
    await asyncio.sleep(0.5)
    assert time.process_time() - began < 0.25
    assert a._fanout._reader is not None and not a._fanout._reader.done()
    await a.create("g2", b"m", b"s0")
    async with a.watch("g2") as on_a:  # the waiting reader serves the next game
        await a.commit("g2", 1, b"s1", b"e", finished=False)
        async with asyncio.timeout(5):
            assert await on_a.get() == Change(2, b"s1")

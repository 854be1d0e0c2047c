"""One contract, two stores: every test here runs against Redis and the embedded store."""

from __future__ import annotations

import asyncio
import time
import uuid
from collections.abc import AsyncIterator

import pytest

from tribes.core.sessions import Inbox
from tribes.store import CommitStatus, Store, Ttls, WatchEndedError, decode_presence
from tribes.store.commands import ClusterCommands
from tribes.store.connect import commands_for
from tribes.store.memory import MemoryStore
from tribes.store.redis import RedisStore


@pytest.fixture(params=["redis", "memory", "cluster", "sentinel"])
async def store(request: pytest.FixtureRequest, redis_url: str) -> AsyncIterator[Store]:
    """Every store the service can run on: Redis, the embedded store, a real Redis
    Cluster (sharded pub/sub) and a real Sentinel-managed Redis."""
    if request.param == "redis":
        prefix = request.getfixturevalue("redis_prefix")
        s: Store = RedisStore(redis_url, prefix=prefix)
    elif request.param == "cluster":
        cluster = request.getfixturevalue("local_cluster")
        s = RedisStore(
            cluster.url, prefix=uuid.uuid4().hex[:8], commands=ClusterCommands.from_url(cluster.url)
        )
    elif request.param == "sentinel":
        group = request.getfixturevalue("local_sentinel")
        s = RedisStore(
            group.url,
            prefix=uuid.uuid4().hex[:8],
            commands=commands_for("sentinel", group.url, sentinel_service=group.service),
        )
    else:
        s = MemoryStore()
    yield s
    await s.close()


async def _commit(store: Store, gid: str, expected: int, tag: bytes, **kw: object) -> object:
    return await store.commit(gid, expected, b"state-" + tag, b"entry-" + tag, finished=False, **kw)  # type: ignore[arg-type]


async def test_create_then_load_gives_version_one(store: Store) -> None:
    """A new game is stored at version 1, not finished, with its metadata."""
    assert await store.create("g1", b"meta", b"state-0")
    loaded = await store.load("g1")
    assert loaded is not None
    assert (loaded.meta, loaded.version, loaded.state, loaded.finished) == (
        b"meta",
        1,
        b"state-0",
        False,
    )


async def test_create_refuses_an_existing_id(store: Store) -> None:
    """Creating an id twice fails and leaves the first game untouched."""
    assert await store.create("g1", b"meta", b"state-0")
    assert not await store.create("g1", b"other", b"other")
    loaded = await store.load("g1")
    assert loaded is not None and loaded.meta == b"meta" and loaded.state == b"state-0"


async def test_load_of_unknown_game_is_none(store: Store) -> None:
    """Loading a game that does not exist answers None."""
    assert await store.load("nope") is None
    assert await store.load("nope", request_key="0:r") is None


async def test_commit_at_the_stored_version_applies(store: Store) -> None:
    """A commit at the stored version writes state, bumps the version, appends the log."""
    await store.create("g1", b"m", b"state-0")
    outcome = await store.commit("g1", 1, b"state-1", b"entry-1", finished=False)
    assert (outcome.status, outcome.version) == (CommitStatus.APPLIED, 2)
    loaded = await store.load("g1")
    assert loaded is not None and (loaded.version, loaded.state) == (2, b"state-1")
    assert await store.read_log("g1", 0, 10) == [b"entry-1"]


async def test_commit_at_a_stale_version_changes_nothing(store: Store) -> None:
    """A commit at any other version is a conflict that reports the stored version."""
    await store.create("g1", b"m", b"state-0")
    await store.commit("g1", 1, b"state-1", b"entry-1", finished=False)
    outcome = await store.commit("g1", 1, b"state-x", b"entry-x", finished=False)
    assert (outcome.status, outcome.version) == (CommitStatus.CONFLICT, 2)
    loaded = await store.load("g1")
    assert loaded is not None and (loaded.version, loaded.state) == (2, b"state-1")
    assert await store.read_log("g1", 0, 10) == [b"entry-1"]


async def test_commit_to_a_missing_game(store: Store) -> None:
    """Committing to a game that does not exist reports MISSING and creates nothing."""
    outcome = await store.commit("ghost", 1, b"s", b"e", finished=False)
    assert outcome.status is CommitStatus.MISSING
    assert await store.load("ghost") is None


async def test_racing_commits_exactly_one_lands(store: Store) -> None:
    """Many commits racing at one version: exactly one applies, the rest conflict."""
    await store.create("g1", b"m", b"state-0")
    outcomes = await asyncio.gather(
        *(
            store.commit("g1", 1, f"s{i}".encode(), f"e{i}".encode(), finished=False)
            for i in range(20)
        )
    )
    applied = [o for o in outcomes if o.status is CommitStatus.APPLIED]
    assert len(applied) == 1
    assert all(
        o.status is CommitStatus.CONFLICT and o.version == 2 for o in outcomes if o not in applied
    )
    assert len(await store.read_log("g1", 0, 100)) == 1


async def test_request_id_is_remembered(store: Store) -> None:
    """A retried request id is answered with the version it produced, once."""
    await store.create("g1", b"m", b"state-0")
    first = await store.commit("g1", 1, b"s1", b"e1", finished=False, request_key="0:abc")
    again = await store.commit("g1", 1, b"s1", b"e1", finished=False, request_key="0:abc")
    assert first.status is CommitStatus.APPLIED and first.version == 2
    assert (again.status, again.version) == (CommitStatus.DUPLICATE, 2)
    loaded = await store.load("g1", request_key="0:abc")
    assert loaded is not None and loaded.prior_version == 2
    fresh = await store.load("g1", request_key="1:abc")
    assert fresh is not None and fresh.prior_version is None
    assert await store.read_log("g1", 0, 10) == [b"e1"]


async def test_finished_flag_is_stored(store: Store) -> None:
    """The finished flag travels with the state."""
    await store.create("g1", b"m", b"s0")
    await store.commit("g1", 1, b"s1", b"e1", finished=True)
    loaded = await store.load("g1")
    assert loaded is not None and loaded.finished


async def test_read_log_pages(store: Store) -> None:
    """The log is read in pages, oldest first."""
    await store.create("g1", b"m", b"s0")
    for v in range(1, 6):
        await store.commit("g1", v, b"s", f"e{v}".encode(), finished=False)
    assert await store.read_log("g1", 0, 2) == [b"e1", b"e2"]
    assert await store.read_log("g1", 4, 2) == [b"e5"]
    assert await store.read_log("g1", 5, 2) == []
    assert await store.read_log("g1", 0, 0) == []


async def test_watch_sees_every_commit_in_order(store: Store) -> None:
    """A watcher receives each committed version with its state, in order."""
    await store.create("g1", b"m", b"s0")
    async with store.watch("g1") as changes:
        for v in range(1, 4):
            await store.commit("g1", v, f"s{v}".encode(), b"e", finished=False)
        seen = [await changes.get() for _ in range(3)]
    assert [(c.version, c.state) for c in seen] == [(2, b"s1"), (3, b"s2"), (4, b"s3")]


async def test_a_watch_may_be_the_first_thing_a_store_does(store: Store) -> None:
    """Subscribing before any command was sent works (a cluster client learns its slots
    first)."""
    async with store.watch("g1") as changes:
        await store.create("g1", b"m", b"s0")
        await store.commit("g1", 1, b"s1", b"e", finished=False)
        async with asyncio.timeout(5):
            change = await changes.get()
    assert (change.version, change.state) == (2, b"s1")


async def test_watchers_of_other_games_see_nothing(store: Store) -> None:
    """A change to one game is not delivered to watchers of another."""
    await store.create("g1", b"m", b"s0")
    await store.create("g2", b"m", b"s0")
    async with store.watch("g2") as changes:
        await store.commit("g1", 1, b"s1", b"e", finished=False)
        await store.commit("g2", 1, b"t1", b"e", finished=False)
        change = await changes.get()
    assert (change.version, change.state) == (2, b"t1")


async def test_a_slow_watcher_keeps_the_newest_changes_only(store: Store) -> None:
    """A watcher 20 changes behind holds the newest 16 (bounded), and knows 4 dropped."""
    await store.create("g1", b"m", b"s0")
    async with store.watch("g1") as changes:
        for v in range(1, 21):
            await store.commit("g1", v, f"s{v}".encode(), b"e", finished=False)
        await asyncio.sleep(0.2)  # let the feed deliver everything
        seen = [await changes.get() for _ in range(16)]
        assert changes.dropped == 4
    assert [c.version for c in seen] == list(range(6, 22))


async def test_end_watches_wakes_every_watcher_with_an_error(store: Store) -> None:
    """end_watches (shutdown) ends a waiting watch with WatchEndedError, the
    StoreUnavailableError that says this process ended it."""
    await store.create("g1", b"m", b"s0")
    async with store.watch("g1") as changes:
        waiting = asyncio.ensure_future(changes.get())
        await asyncio.sleep(0.05)
        store.end_watches("shutting down")
        with pytest.raises(WatchEndedError):
            async with asyncio.timeout(5):
                await waiting


async def test_a_cancelled_get_can_be_retried(store: Store) -> None:
    """Cancelling a waiting get (a heartbeat timeout) loses nothing: the next get works."""
    await store.create("g1", b"m", b"s0")
    async with store.watch("g1") as changes:
        with pytest.raises(TimeoutError):
            async with asyncio.timeout(0.05):
                await changes.get()
        await store.commit("g1", 1, b"s1", b"e", finished=False)
        change = await changes.get()
    assert change.version == 2


async def test_shared_secret_first_proposal_wins(store: Store) -> None:
    """Every server sharing a store agrees on the first proposed secret."""
    assert await store.shared_secret(b"one") == b"one"
    assert await store.shared_secret(b"two") == b"one"


async def test_ping_answers(store: Store) -> None:
    """A reachable store answers ping."""
    await store.ping()


async def test_a_lease_is_given_back_only_by_its_holder(store: Store) -> None:
    """One holder at a time; giving back someone else's lease does nothing, giving back
    one's own frees it at once."""
    assert await store.claim("g1", "bot:2:1", 30_000, "a")
    assert not await store.claim("g1", "bot:2:1", 30_000, "b")
    await store.unclaim("g1", "bot:2:1", "b")
    assert not await store.claim("g1", "bot:2:1", 30_000, "b")
    await store.unclaim("g1", "bot:2:1", "a")
    assert await store.claim("g1", "bot:2:1", 30_000, "b")
    assert await store.claim("g1", "bot:3:1", 30_000, "a")  # another name, another lease


async def test_the_due_index_answers_the_earliest_games_whose_time_has_come(
    store: Store,
) -> None:
    """Games noted as due come back earliest first (ties by id), only up to the time
    asked and at most ``count`` of them, whichever shard each lands in; a new time
    replaces the old one and 0 forgets the game."""
    games = [f"due-{i}" for i in range(40)]  # enough ids to fall in every shard
    for i, game in enumerate(games):
        await store.due_set(game, 1_000 + 10 * (i % 20))
    assert await store.due_before(999, 100) == []
    first = await store.due_before(1_010, 100)
    assert first == ["due-0", "due-20", "due-1", "due-21"]
    assert await store.due_before(10_000, 3) == ["due-0", "due-20", "due-1"]
    await store.due_set("due-0", 0)
    await store.due_set("due-20", 5_000)
    assert await store.due_before(1_000, 10) == []
    assert (await store.due_before(10_000, 40))[-1] == "due-20"
    assert len(await store.due_before(10_000, 100)) == 39


async def test_lobby_pages_walk_every_listed_game_once_newest_first(store: Store) -> None:
    """Paging the lobby by its (created, id) cursor gives every game once, newest first,
    ids descending within a millisecond, even when far more games than a page share one
    millisecond; a removed game is gone from its kinds only."""
    same_ms = [f"t{i:02d}" for i in range(60)]  # one burst: 60 games in one millisecond
    for game in same_ms:
        await store.list_add(game, ["", "goofspiel"], 5_000)
    await store.list_add("newer", ["", "five_tribes"], 6_000)
    await store.list_add("older", [""], 4_000)
    seen: list[tuple[str, int]] = []
    before: tuple[int, str] | None = None
    for _ in range(100):
        page = await store.list_page("", before, 7)
        if not page:
            break
        assert len(page) == 7 or len(seen) + len(page) == 62
        seen += page
        before = (page[-1][1], page[-1][0])
    expected = [("newer", 6_000)] + [(g, 5_000) for g in reversed(same_ms)] + [("older", 4_000)]
    assert seen == expected
    assert [g for g, _ in await store.list_page("five_tribes", None, 10)] == ["newer"]
    await store.list_remove("newer", ["", "five_tribes"])
    assert await store.list_page("five_tribes", None, 10) == []
    assert (await store.list_page("", None, 1))[0][0] == "t59"


async def test_load_many_answers_each_game_in_order_none_for_the_missing(store: Store) -> None:
    """A lobby page's games at once: in the order asked, each as load gives it, None
    where there is no such game."""
    await store.create("m1", b"meta-1", b"state-1")
    await store.create("m2", b"meta-2", b"state-2")
    await store.commit("m2", 1, b"state-2b", b"entry", finished=False)
    loaded = await store.load_many(["m2", "gone", "m1"])
    assert [(x.meta, x.version, x.state) if x else None for x in loaded] == [
        (b"meta-2", 2, b"state-2b"),
        None,
        (b"meta-1", 1, b"state-1"),
    ]
    assert await store.load_many([]) == []


async def test_the_store_clock_is_wall_time_in_milliseconds(store: Store) -> None:
    """now_ms is the store's wall clock (every replica charges clocks by it): Unix
    milliseconds, close to this host's, never going back between two readings."""
    first = await store.now_ms()
    second = await store.now_ms()
    assert abs(first - time.time() * 1000) < 5_000
    assert first <= second


async def test_presence_enter_touch_and_leave(store: Store) -> None:
    """A holder's entry is written on enter (every entry returned and announced), moved
    on by a touch, and replaced on leave by the seat's "left" mark."""
    async with store.watch("g1", Inbox()) as inbox:
        entries = await store.presence_enter("g1", 0, "h1", 1_000)
        assert entries == {"0:h1": (1_000, 1_000)}
        async with asyncio.timeout(5):
            _, _, notice = await inbox.next()  # type: ignore[attr-defined]
        assert notice is not None and decode_presence(notice) == entries
    await store.presence_touch("g1", 0, "h1", 1_000, 5_000)
    assert await store.presence("g1") == {"0:h1": (1_000, 5_000)}
    await store.presence_leave("g1", 0, "h1", 6_000)
    assert await store.presence("g1") == {"0:left": (6_000, 6_000)}


async def test_a_presence_touch_after_the_leave_writes_nothing(store: Store) -> None:
    """A refresh that was in flight when its holder left must not bring the holder back
    (the seat would show present for the expiry time after it left)."""
    await store.presence_enter("g1", 1, "h1", 1_000)
    await store.presence_enter("g1", 1, "h2", 1_500)
    await store.presence_leave("g1", 1, "h1", 2_000)
    await store.presence_touch("g1", 1, "h1", 1_000, 3_000)  # lands after the leave
    await store.presence_touch("g1", 1, "h2", 1_500, 3_000)
    assert await store.presence("g1") == {"1:h2": (1_500, 3_000), "1:left": (2_000, 2_000)}
    await store.presence_touch("g2", 0, "h9", 1_000, 3_000)  # never entered
    assert await store.presence("g2") == {}


async def test_memory_store_expires_idle_games() -> None:
    """The embedded store drops games and request ids after their TTLs, like Redis."""
    now = [1000.0]
    store = MemoryStore(Ttls(idle=10, finished=5, request=3), clock=lambda: now[0])
    await store.create("g1", b"m", b"s0")
    await store.commit("g1", 1, b"s1", b"e", finished=False, request_key="0:r")
    now[0] += 4
    loaded = await store.load("g1", request_key="0:r")
    assert loaded is not None and loaded.prior_version is None
    now[0] += 11
    assert await store.load("g1") is None


async def test_redis_keys_share_the_game_hash_tag(redis_url: str, redis_prefix: str) -> None:
    """Every key of a game carries its {id} hash tag (one Redis Cluster slot)."""
    import redis.asyncio as aioredis

    store = RedisStore(redis_url, prefix=redis_prefix, ttls=Ttls(idle=100, finished=50, request=30))
    await store.create("g1", b"m", b"s0")
    await store.commit("g1", 1, b"s1", b"e", finished=True, request_key="0:r")
    client = aioredis.Redis.from_url(redis_url)
    keys = sorted([k.decode() async for k in client.scan_iter(match=f"{redis_prefix}:*")])
    assert keys == [
        f"{redis_prefix}:{{g1}}",
        f"{redis_prefix}:{{g1}}:log",
        f"{redis_prefix}:{{g1}}:req:0:r",
    ]
    assert 0 < await client.ttl(f"{redis_prefix}:{{g1}}") <= 50  # finished games expire sooner
    assert 0 < await client.ttl(f"{redis_prefix}:{{g1}}:req:0:r") <= 30
    await client.aclose()
    await store.close()


async def test_the_earlier_single_due_set_is_read_and_emptied(
    redis_url: str, redis_prefix: str
) -> None:
    """A rolling upgrade: an earlier release's replica noted a game in the single due
    set; the sharded store still finds it (earliest first among its own) and moves it."""
    import redis.asyncio as aioredis

    store = RedisStore(redis_url, prefix=redis_prefix)
    client = aioredis.Redis.from_url(redis_url)
    try:
        await store.due_set("new", 2_000)
        await client.zadd(f"{redis_prefix}:due", {"old": 1_500})
        assert await store.due_before(5_000, 10) == ["old", "new"]
        assert await client.exists(f"{redis_prefix}:due") == 0
        assert await store.due_before(5_000, 10) == ["old", "new"]  # now in its shard
        await store.due_set("old", 0)
        assert await store.due_before(5_000, 10) == ["new"]
        for i in range(32):
            await store.due_set(f"spread-{i}", 3_000)
        shards = [key async for key in client.scan_iter(match=f"{redis_prefix}:due:*")]
        assert len(shards) > 8  # one key per shard in use, not one for every game
    finally:
        await client.aclose()
        await store.close()


async def test_redis_down_is_store_unavailable() -> None:
    """An unreachable Redis raises StoreUnavailableError, never a raw socket error."""
    from tribes.store import StoreUnavailableError

    store = RedisStore("redis://127.0.0.1:1/0", timeout=0.5)
    with pytest.raises(StoreUnavailableError):
        await store.load("g1")
    with pytest.raises(StoreUnavailableError):
        await store.ping()
    await store.close()

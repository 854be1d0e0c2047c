"""The service on a real Redis Cluster and a real Sentinel group, through failovers.

A master is killed under load; the service must recover by itself (moves are acknowledged
again within seconds, with no restart). Acknowledged moves that a failover lost are
counted: with asynchronous replication some may be lost; with ``min_replicas=1`` (each
move acknowledged only once a replica has it) none may be. The figures are printed for
the README's capacity and durability notes.
"""

from __future__ import annotations

import asyncio
import time
import uuid

import grpc
import pytest
from redis.crc import key_slot

from tests.service.helpers import create, move
from tests.support.redis_cluster import LocalCluster, LocalSentinel, available
from tests.support.server import bearer, running_app, server_process
from tribes.store.commands import ClusterCommands
from tribes.store.connect import commands_for
from tribes.store.redis import RedisStore
from tribes.v1 import game_service_pb2 as spb
from tribes.v1 import game_service_pb2_grpc as spb_grpc

pytestmark = pytest.mark.skipif(available() is not None, reason=f"{available()}")
Stub = spb_grpc.GameServiceStub


async def _load(
    stub: Stub, until: float, acked: dict[str, int], ok_after: list[tuple[float, str]]
) -> None:
    """Play 13-card games with request ids; remember the highest acknowledged version."""
    while time.monotonic() < until:
        await _game(stub, until, acked, ok_after)


async def _game(
    stub: Stub, until: float, acked: dict[str, int], ok_after: list[tuple[float, str]]
) -> None:
    try:
        created = await create(stub, cards="13", seed=None, request_id=uuid.uuid4().hex)
    except grpc.aio.AioRpcError:
        await asyncio.sleep(0.05)
        return
    acked[created.name] = 1
    version = 1
    for card in range(1, 14):
        for seat in (0, 1):
            rid = uuid.uuid4().hex
            for _ in range(50):  # retry UNAVAILABLE with the same request id
                if time.monotonic() >= until:
                    return
                try:
                    snap = await move(
                        stub, created.name, created.tokens[seat], f"bid:{card}", 0, rid
                    )
                    break
                except grpc.aio.AioRpcError as err:
                    if err.code() in (
                        grpc.StatusCode.NOT_FOUND,
                        grpc.StatusCode.FAILED_PRECONDITION,
                    ):
                        return  # the game or its last moves were lost: _lost counts them
                    if err.code() != grpc.StatusCode.UNAVAILABLE:
                        raise
                    await asyncio.sleep(0.1)
            else:
                return
            version = snap.version
            acked[created.name] = version
            ok_after.append((time.monotonic(), created.name))


async def _lost(stub: Stub, acked: dict[str, int]) -> int:
    """Acknowledged versions missing from the store now."""
    lost = 0
    last: grpc.aio.AioRpcError | None = None
    for name, version in acked.items():
        for _ in range(100):
            try:
                stored = (await stub.GetGame(spb.GetGameRequest(name=name))).version
                break
            except grpc.aio.AioRpcError as err:
                if err.code() == grpc.StatusCode.NOT_FOUND:
                    stored = 0  # the whole game was lost with the old master
                    break
                last = err
                await asyncio.sleep(0.1)
        else:
            raise AssertionError(f"the store did not come back: {last.code()} {last.details()}")
        lost += max(0, version - stored)
    return lost


async def _failover_run(
    store: RedisStore, kill: object, affected: object = lambda name: True
) -> tuple[int, int, float]:
    """(acknowledged moves, lost ones, seconds from the kill to the next acknowledgement of
    a move of a game the killed server held)."""
    async with running_app(store, create_rate=0) as app:
        async with grpc.aio.insecure_channel(f"127.0.0.1:{app.port}") as channel:
            stub = Stub(channel)
            acked: dict[str, int] = {}
            ok_after: list[tuple[float, str]] = []
            until = time.monotonic() + 16.0  # the kill comes after 2 s: 14 s to recover
            workers = [asyncio.create_task(_load(stub, until, acked, ok_after)) for _ in range(6)]
            await asyncio.sleep(2.0)
            killed_at = time.monotonic()
            await asyncio.to_thread(kill)  # type: ignore[arg-type]
            await asyncio.gather(*workers)
            recovered = [t for t, name in ok_after if t > killed_at + 0.05 and affected(name)]  # type: ignore[operator]
            assert recovered, "no move of the failed server's games was acknowledged after it"
            lost = await _lost(stub, acked)
            return sum(acked.values()) - len(acked), lost, recovered[0] - killed_at


@pytest.mark.parametrize("min_replicas", [0, 1])
async def test_cluster_failover_recovers_by_itself(min_replicas: int) -> None:
    """Kill the master of a game's shard under load: moves resume on the promoted replica
    without a restart of the service. With min_replicas=1 a lone promoted master cannot
    acknowledge (durability over availability) until the old master returns as its
    replica, and no acknowledged move is lost."""
    cluster = LocalCluster().start()
    try:
        store = RedisStore(
            cluster.url,
            prefix=uuid.uuid4().hex[:8],
            commands=ClusterCommands.from_url(cluster.url),
            min_replicas=min_replicas,
        )
        victim = cluster.master_of(f"{store.keys.prefix}:{{probe}}")
        slots = cluster.slots_of(victim)

        def affected(name: str) -> bool:
            return key_slot(store.keys.game(name.removeprefix("games/")).encode()) in slots

        def kill() -> None:
            cluster.kill(victim)
            if min_replicas:
                # it comes back once its replica has taken over, to serve as the new
                # replica (a master restarted before the failover reloads its own
                # append-only file, which may miss its last second: see README)
                cluster.wait_promoted(f"{store.keys.prefix}:{{probe}}", victim)
                cluster.restart(victim)

        moves, lost, gap = await _failover_run(store, kill, affected)
        print(
            f"cluster failover, min_replicas={min_replicas}: {moves} moves acknowledged, "
            f"{lost} lost, first acknowledgement {gap:.1f} s after the kill"
        )
        if min_replicas:
            assert lost == 0
    finally:
        cluster.stop()


async def test_sentinel_failover_recovers_by_itself() -> None:
    """Kill the Sentinel-managed master under load: the service follows the promotion."""
    group = LocalSentinel().start()
    try:
        commands = commands_for("sentinel", group.url, sentinel_service=group.service)
        store = RedisStore(group.url, prefix=uuid.uuid4().hex[:8], commands=commands)
        moves, lost, gap = await _failover_run(store, lambda: group.kill(group.master_port))
        print(
            f"sentinel failover: {moves} moves acknowledged, {lost} lost, "
            f"first acknowledgement {gap:.1f} s after the kill"
        )
        assert group.master_port_now() == group.replica_port
    finally:
        group.stop()


def test_two_processes_serve_one_cluster(local_cluster: LocalCluster) -> None:
    """Two server processes on one Redis Cluster: a session on A sees moves made on B
    (sharded pub/sub), lobby joins and the log work across shards."""
    env = {
        "REDIS_URL": local_cluster.url,
        "TRIBES_REDIS_MODE": "cluster",
        "TRIBES_REDIS_PREFIX": uuid.uuid4().hex[:8],
    }
    with server_process(env) as a, server_process(env) as b:

        async def run() -> None:
            async with (
                grpc.aio.insecure_channel(a.target) as ca,
                grpc.aio.insecure_channel(b.target) as cb,
            ):
                sa, sb = Stub(ca), Stub(cb)
                names = []
                for _ in range(8):  # games spread over the shards
                    created = await sa.CreateGame(
                        spb.CreateGameRequest(
                            game_type="goofspiel", seat_count=2, listed=True, options={"cards": "3"}
                        )
                    )
                    names.append(created.game.name)
                listed = await sb.ListGames(spb.ListGamesRequest(game_type="goofspiel"))
                assert set(names) <= {g.name for g in listed.games}
                for name in names:
                    tokens = [
                        (
                            await sb.JoinGame(spb.JoinGameRequest(name=name, player_name=p))
                        ).seat_token
                        for p in ("ana", "bo")
                    ]
                    session = sa.Play(metadata=bearer(tokens[0]))
                    await session.write(spb.PlayRequest(open=spb.OpenSession(name=name)))
                    assert (await session.read()).snapshot.version == 3
                    await sb.ApplyMove(
                        spb.ApplyMoveRequest(name=name, move_id="bid:1"), metadata=bearer(tokens[1])
                    )
                    async with asyncio.timeout(10):
                        assert (await session.read()).snapshot.version == 4
                    session.cancel()
                    log = await sa.ListMoves(spb.ListMovesRequest(name=name))
                    assert [r.system for r in log.moves] == [True, True, False]

        asyncio.run(run())


async def test_wait_mode_refuses_to_acknowledge_unreplicated_moves(
    local_cluster: LocalCluster,
) -> None:
    """min_replicas above the replicas there are: the move lands on the primary but is
    not acknowledged (UNAVAILABLE), nor is its retry; a service that asks for fewer
    replicas answers the retry with the move applied once."""
    prefix = uuid.uuid4().hex[:8]

    def store(min_replicas: int) -> RedisStore:
        return RedisStore(
            local_cluster.url,
            prefix=prefix,
            commands=ClusterCommands.from_url(local_cluster.url),
            min_replicas=min_replicas,
            replica_wait_ms=200,
        )

    async with running_app(store(0)) as lenient, running_app(store(2)) as strict:
        async with (
            grpc.aio.insecure_channel(f"127.0.0.1:{lenient.port}") as one,
            grpc.aio.insecure_channel(f"127.0.0.1:{strict.port}") as two,
        ):
            with pytest.raises(grpc.aio.AioRpcError) as raised:
                await create(Stub(two), request_id="create-1")
            assert raised.value.code() == grpc.StatusCode.UNAVAILABLE
            created = await create(Stub(one), request_id="create-1")  # the same game
            for _ in range(2):
                with pytest.raises(grpc.aio.AioRpcError) as raised:
                    await move(Stub(two), created.name, created.tokens[0], "bid:1", 1, "rid-1")
                assert raised.value.code() == grpc.StatusCode.UNAVAILABLE
            again = await move(Stub(one), created.name, created.tokens[0], "bid:1", 1, "rid-1")
            assert again.version == 2
            log = await Stub(one).ListMoves(spb.ListMovesRequest(name=created.name))
            assert len(log.moves) == 1


@pytest.mark.parametrize(("min_replicas", "acknowledged"), [(1, True), (2, False)])
async def test_wait_mode_on_a_primary_with_one_replica(
    local_sentinel: LocalSentinel, min_replicas: int, acknowledged: bool
) -> None:
    """With one replica: min_replicas=1 acknowledges every move, 2 none (each answered
    once the replicas have it, which here never happens)."""
    commands = commands_for("sentinel", local_sentinel.url, sentinel_service=local_sentinel.service)
    store = RedisStore(
        local_sentinel.url,
        prefix=uuid.uuid4().hex[:8],
        commands=commands,
        min_replicas=min_replicas,
        replica_wait_ms=1000 if acknowledged else 200,
    )
    if acknowledged:
        assert await store.create("g", b"m", b"s")
        outcome = await store.commit("g", 1, b"s1", b"e", finished=False, request_key="r")
        assert outcome.version == 2
        loaded = await store.load("g", "r")  # a retry's lookup is acknowledged too
        assert loaded is not None and loaded.prior_version == 2
    else:
        from tribes.store import StoreUnavailableError

        with pytest.raises(StoreUnavailableError):  # created on the primary only
            await store.create("g", b"m", b"s")
        with pytest.raises(StoreUnavailableError):
            await store.commit("g", 1, b"s1", b"e", finished=False, request_key="r")
        with pytest.raises(StoreUnavailableError):  # the retry is not acknowledged either
            await store.commit("g", 1, b"s1", b"e", finished=False, request_key="r")
        with pytest.raises(StoreUnavailableError):  # nor is the answer a retry looks up
            await store.load("g", "r")
    await store.close()

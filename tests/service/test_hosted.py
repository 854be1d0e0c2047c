"""Hosted play through the real gRPC door: time controls and what a timeout does,
resignation, seats played out by bots, presence.

Time is the store's: the embedded store takes a clock we move by hand (no test sleeps
through a deadline), the Redis tests use short real limits. README "Hosted play".
"""

from __future__ import annotations

import asyncio
import contextlib
import time
import uuid
from collections.abc import AsyncIterator, Callable, Mapping

import grpc
import pytest

from tests.service.helpers import fails
from tests.support.http import reason
from tests.support.server import bearer, running_app, server_process
from tribes.core import presence as presence_module
from tribes.server import App
from tribes.store.memory import MemoryStore
from tribes.store.redis import RedisStore
from tribes.v1 import common_pb2 as pb
from tribes.v1 import game_service_pb2 as spb
from tribes.v1 import game_service_pb2_grpc as spb_grpc

Stub = spb_grpc.GameServiceStub
T0 = 1_800_000_000.0  # the hand-moved clock's start (seconds)
GAMES = (
    "goofspiel",
    "five_tribes",
    "fate_of_akalon",
    "tribes_early_civilization",
    "rise_of_tribes",
)


class HandClock:
    """The embedded store's clock, moved only by the test."""

    def __init__(self) -> None:
        self.now = T0

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += seconds

    @property
    def ms(self) -> int:
        return int(self.now * 1000)


@contextlib.asynccontextmanager
async def hosted(clock: HandClock, *, sweep: float = 0.02) -> AsyncIterator[tuple[App, Stub]]:
    async with running_app(MemoryStore(clock=clock), sweep_interval=sweep) as app:
        async with grpc.aio.insecure_channel(f"127.0.0.1:{app.port}") as channel:
            yield app, Stub(channel)


async def create(
    stub: Stub,
    game: str = "goofspiel",
    seats: int = 2,
    *,
    per_move: int = 0,
    initial: int = 0,
    increment: int = 0,
    on_timeout: str = "",
    bots: Mapping[int, str] | None = None,
    options: Mapping[str, str] | None = None,
    seed: int | None = 5,
) -> spb.CreateGameResponse:
    request = spb.CreateGameRequest(
        game_type=game,
        seat_count=seats,
        options=dict(options or ({"cards": "3"} if game == "goofspiel" else {})),
        bots=dict(bots or {}),
    )
    if per_move or initial or increment or on_timeout:
        request.time_control.CopyFrom(
            pb.TimeControl(
                per_move_seconds=per_move,
                initial_seconds=initial,
                increment_seconds=increment,
                on_timeout=on_timeout,
            )
        )
    if seed is not None:
        request.seed = seed
    return await stub.CreateGame(request)


async def bid(stub: Stub, created: spb.CreateGameResponse, seat: int, card: int) -> pb.GameSnapshot:
    return await stub.ApplyMove(
        spb.ApplyMoveRequest(name=created.game.name, move_id=f"bid:{card}"),
        metadata=bearer(created.seat_tokens[seat]),
    )


async def get(stub: Stub, name: str, token: str | None = None) -> pb.GameSnapshot:
    metadata = bearer(token) if token else None
    return await stub.GetGame(spb.GetGameRequest(name=name), metadata=metadata)


async def until(
    stub: Stub, name: str, ok: Callable[[pb.GameSnapshot], bool], seconds: float = 10.0
) -> pb.GameSnapshot:
    """Poll the game (the sweep runs in the background) until ``ok``; bounded."""
    deadline = time.monotonic() + seconds
    while True:
        snap = await get(stub, name)
        if ok(snap):
            return snap
        if time.monotonic() > deadline:
            raise AssertionError(f"the game never got there; last seen:\n{snap}")
        await asyncio.sleep(0.02)


async def log_of(stub: Stub, name: str) -> list[pb.MoveRecord]:
    return list((await stub.ListMoves(spb.ListMovesRequest(name=name, page_size=500))).moves)


def timeouts(log: list[pb.MoveRecord]) -> list[str]:
    return [r.move_id for r in log if r.system and r.move_id.startswith("!timeout")]


def counted(app: App, metric: str, game: str = "goofspiel") -> float:
    return app.metrics.registry.get_sample_value(metric, {"game": game}) or 0.0


# -- the snapshot shows the clocks ------------------------------------------------------


async def test_an_untimed_game_shows_no_clock() -> None:
    async with hosted(HandClock()) as (_, stub):
        created = await create(stub)
        snap = created.game
        assert not snap.HasField("time_control")
        assert snap.deadline_unix_ms == 0 and snap.server_time_unix_ms == 0
        assert all(s.deadline_unix_ms == 0 and s.clock_since_unix_ms == 0 for s in snap.seats)


async def test_a_per_move_limit_shows_each_deadline() -> None:
    clock = HandClock()
    async with hosted(clock) as (_, stub):
        created = await create(stub, per_move=60)
        snap = created.game
        assert snap.time_control.per_move_seconds == 60
        assert snap.deadline_unix_ms == clock.ms + 60_000
        assert snap.server_time_unix_ms == clock.ms
        for seat in snap.seats:  # both bid at once: both clocks run
            assert seat.clock_since_unix_ms == clock.ms
            assert seat.deadline_unix_ms == clock.ms + 60_000
            assert seat.remaining_ms == -1  # no chess clock
        clock.advance(10)
        after = await bid(stub, created, 0, 3)
        assert after.seats[0].deadline_unix_ms == 0  # seat 0 has bid: its clock stopped
        assert after.seats[1].deadline_unix_ms == int(T0 * 1000) + 60_000  # still running
        assert after.deadline_unix_ms == int(T0 * 1000) + 60_000
        assert after.server_time_unix_ms == clock.ms


async def test_a_chess_clock_charges_each_move_and_adds_the_increment() -> None:
    clock = HandClock()
    async with hosted(clock) as (_, stub):
        created = await create(stub, initial=300, increment=5)
        assert [s.remaining_ms for s in created.game.seats] == [300_000, 300_000]
        clock.advance(10)
        await bid(stub, created, 0, 3)
        clock.advance(20)
        snap = await bid(stub, created, 1, 1)  # the round ends: both decide again
        assert [s.remaining_ms for s in snap.seats] == [295_000, 275_000]
        assert [s.clock_since_unix_ms for s in snap.seats] == [clock.ms, clock.ms]
        assert [s.deadline_unix_ms for s in snap.seats] == [clock.ms + 295_000, clock.ms + 275_000]
        assert snap.deadline_unix_ms == clock.ms + 275_000


async def test_the_earlier_of_per_move_limit_and_chess_clock_is_the_deadline() -> None:
    clock = HandClock()
    async with hosted(clock) as (_, stub):
        created = await create(stub, per_move=30, initial=40)
        assert created.game.deadline_unix_ms == clock.ms + 30_000  # the per-move limit
        clock.advance(25)
        await bid(stub, created, 0, 3)
        await bid(stub, created, 1, 1)
        snap = await get(stub, created.game.name)
        # 15 s left on both clocks: they now come before the 30 s limit
        assert [s.remaining_ms for s in snap.seats] == [15_000, 15_000]
        assert snap.deadline_unix_ms == clock.ms + 15_000


@pytest.mark.parametrize(
    "control",
    [
        {"per_move": -1},
        {"initial": 31 * 86400},
        {"increment": 3},  # an increment needs a clock
        {"on_timeout": "bot"},  # a consequence needs a limit
        {"per_move": 5, "on_timeout": "draw"},
    ],
)
async def test_a_time_control_outside_its_bounds_is_refused(control: dict[str, object]) -> None:
    async with hosted(HandClock()) as (_, stub):
        code, reason, _ = await fails(create(stub, **control))  # type: ignore[arg-type]
        assert (code, reason) == (grpc.StatusCode.INVALID_ARGUMENT, "BAD_TIME_CONTROL")


# -- timeouts: forfeit -----------------------------------------------------------------


@pytest.mark.parametrize("control", [{"per_move": 60}, {"initial": 60}], ids=["per-move", "clock"])
async def test_a_timeout_in_a_two_seat_game_ends_it(control: dict[str, int]) -> None:
    clock = HandClock()
    async with hosted(clock) as (app, stub):
        created = await create(stub, **control)
        name = created.game.name
        await bid(stub, created, 0, 3)
        clock.advance(59)
        await asyncio.sleep(0.1)  # sweeps run: nothing is due yet
        assert not (await get(stub, name)).finished
        clock.advance(2)
        snap = await until(stub, name, lambda s: s.finished)
        assert snap.seats[1].timed_out and not snap.seats[0].timed_out
        assert list(snap.result.ranks) == [1, 2]
        assert "seat 1 lost on time" in snap.result.summary
        assert snap.deadline_unix_ms == 0
        log = await log_of(stub, name)
        assert timeouts(log) == ["!timeout:1:forfeit"]
        assert log[-1].description == "Seat 1 ran out of time and loses"
        assert counted(app, "tribes_timeouts_total") == 1
        code, reason, _ = await fails(bid(stub, created, 1, 1))
        assert (code, reason) == (grpc.StatusCode.FAILED_PRECONDITION, "GAME_FINISHED")


async def test_a_call_after_the_deadline_applies_it_first() -> None:
    """No sweep at all: the move that comes too late finds the game lost."""
    clock = HandClock()
    async with hosted(clock, sweep=3600) as (_, stub):
        created = await create(stub, per_move=60)
        clock.advance(61)
        code, reason, _ = await fails(bid(stub, created, 0, 3))
        assert (code, reason) == (grpc.StatusCode.FAILED_PRECONDITION, "GAME_FINISHED")
        log = await log_of(stub, created.game.name)
        assert timeouts(log) == ["!timeout:0:forfeit"]  # both were late: seat 0 first


async def test_a_get_after_the_deadline_applies_it_too() -> None:
    clock = HandClock()
    async with hosted(clock, sweep=3600) as (_, stub):
        created = await create(stub, per_move=60)
        await bid(stub, created, 1, 2)
        clock.advance(61)
        snap = await get(stub, created.game.name)
        assert snap.finished and snap.seats[0].timed_out


async def seat_0_out_of_time(stub: Stub, clock: HandClock) -> spb.CreateGameResponse:
    """A 3-seat game, 60 s a move: seats 1 and 2 have bid, seat 0's deadline has passed."""
    created = await create(stub, seats=3, per_move=60, options={"cards": "3"})
    await bid(stub, created, 1, 1)
    await bid(stub, created, 2, 1)
    clock.advance(61)
    return created


async def test_a_resignation_after_the_other_seats_deadline_finds_it_applied_first() -> None:
    """No sweep: seat 0's deadline passed, then seat 1 resigns. Seat 0 lost on time first,
    so the game is over and seat 1 wins (the resignation ended it the other way round)."""
    clock = HandClock()
    async with hosted(clock, sweep=3600) as (_, stub):
        created = await create(stub, per_move=60)
        name = created.game.name
        await bid(stub, created, 1, 2)  # only seat 0 is on the clock now
        clock.advance(61)
        code, reason, _ = await fails(resign(stub, name, created.seat_tokens[1]))
        assert (code, reason) == (grpc.StatusCode.FAILED_PRECONDITION, "GAME_FINISHED")
        snap = await get(stub, name)
        assert snap.finished and snap.seats[0].timed_out and not snap.seats[1].resigned
        assert list(snap.result.ranks) == [2, 1]
        log = await log_of(stub, name)
        assert [r.move_id for r in log if r.system] == ["!timeout:0:forfeit"]


async def test_a_seat_that_lost_on_time_cannot_resign() -> None:
    """In a larger game a seat that lost on time is played out by a bot; resigning it
    afterwards is refused (it was counted as a resignation and the summary said so)."""
    clock = HandClock()
    async with hosted(clock) as (_, stub):
        created = await seat_0_out_of_time(stub, clock)
        name = created.game.name
        await until(stub, name, lambda s: s.seats[0].timed_out)
        code, reason, _ = await fails(resign(stub, name, created.seat_tokens[0]))
        assert (code, reason) == (grpc.StatusCode.FAILED_PRECONDITION, "ALREADY_RESIGNED")
        snap = await get(stub, name)
        assert not snap.seats[0].resigned


async def test_a_timeout_in_a_larger_game_plays_the_seat_out_and_ranks_it_last() -> None:
    clock = HandClock()
    async with hosted(clock) as (app, stub):
        created = await seat_0_out_of_time(stub, clock)
        name = created.game.name
        snap = await until(stub, name, lambda s: s.seats[0].timed_out and s.version >= 5)
        assert not snap.finished
        assert snap.seats[0].bot == "random"  # the service plays the seat from now on
        assert snap.seats[0].deadline_unix_ms == 0  # a bot is never on the clock
        # seats 1 and 2 play on; seat 0's bids come from the bot
        for card in (2, 3):
            await until(stub, name, lambda s: 0 not in s.to_act)
            await bid(stub, created, 1, card)
            await bid(stub, created, 2, card)
        snap = await until(stub, name, lambda s: s.finished)
        assert snap.result.ranks[0] == 3
        assert "seat 0 lost on time; ranked last" in snap.result.summary
        log = await log_of(stub, name)
        assert timeouts(log) == ["!timeout:0:forfeit"]
        assert sum(1 for r in log if r.seat == 0 and not r.system) == 3  # the bot's bids
        assert (
            app.metrics.registry.get_sample_value(
                "tribes_bot_moves_total", {"game": "goofspiel", "bot": "random"}
            )
            == 3
        )


# -- timeouts: a bot decides ------------------------------------------------------------


async def test_on_timeout_bot_makes_the_decision_and_the_seat_plays_on() -> None:
    clock = HandClock()
    async with hosted(clock) as (app, stub):
        created = await create(stub, per_move=60, on_timeout="bot")
        name = created.game.name
        await bid(stub, created, 1, 2)
        clock.advance(61)
        snap = await until(stub, name, lambda s: s.version == 4)  # timeout, then the bot
        assert not snap.finished and not snap.seats[0].timed_out and not snap.seats[0].bot
        log = await log_of(stub, name)
        assert [(r.system, r.seat) for r in log] == [(False, 1), (True, 0), (False, 0)]
        assert log[1].move_id == "!timeout:0:bot"
        assert log[1].description == "Seat 0 ran out of time; a bot makes this decision"
        # the next round: seat 0 decides for itself again, with a fresh 60 s
        assert snap.seats[0].deadline_unix_ms == clock.ms + 60_000
        hand = [m.id for m in (await get(stub, name, created.seat_tokens[0])).legal_moves]
        after = await bid(stub, created, 0, int(hand[0].split(":")[1]))
        assert after.version == 5
        assert counted(app, "tribes_timeouts_total") == 1


async def test_on_timeout_bot_with_an_empty_chess_clock_lets_the_bot_play_each_turn() -> None:
    """The clock ran out and there is no increment: each decision times out at once and
    the bot makes it (one timeout entry per decision, never a loop)."""
    clock = HandClock()
    async with hosted(clock) as (_, stub):
        created = await create(stub, initial=10, on_timeout="bot", options={"cards": "3"})
        name = created.game.name
        clock.advance(11)  # both clocks run out
        snap = await until(stub, name, lambda s: s.finished)
        log = await log_of(stub, name)
        assert sorted(timeouts(log)) == sorted(["!timeout:0:bot", "!timeout:1:bot"] * 3)
        assert sum(1 for r in log if not r.system) == 6
        assert not any(s.timed_out for s in snap.seats)  # nobody lost on time
        assert len(snap.result.ranks) == 2


# -- resignation --------------------------------------------------------------------------


async def resign(stub: Stub, name: str, token: str, request_id: str = "") -> pb.GameSnapshot:
    return await stub.Resign(
        spb.ResignRequest(name=name, request_id=request_id), metadata=bearer(token)
    )


@pytest.mark.parametrize("seats", [2, 3, 4])
@pytest.mark.parametrize("game", GAMES)
async def test_resignation(stub: Stub, app: App, game: str, seats: int) -> None:
    """Every game at every seat count: the first seat to act resigns (a bot plays it out
    in a larger game), then the others until one is left; the resigned seats rank last."""
    created = await create(stub, game, seats, seed=11)
    name, tokens = created.game.name, created.seat_tokens
    first = created.game.to_act[0]
    snap = await resign(stub, name, tokens[first], "r-1")
    again = await resign(stub, name, tokens[first], "r-1")  # a retry: the same answer
    assert again.version == snap.version == 2
    assert snap.seats[first].resigned and snap.seats[first].bot == "random"
    if seats == 2:
        assert snap.finished
        assert snap.result.ranks[first] == 2 and snap.result.ranks[1 - first] == 1
        assert f"seat {first} resigned" in snap.result.summary
    else:
        assert not snap.finished
        # the bot makes the resigned seat's move
        await until(stub, name, lambda s: s.version > 2)
        log = await log_of(stub, name)
        assert log[1].seat == first and not log[1].system
        stay = next(s for s in range(seats) if s != first)
        for seat in range(seats):
            if seat not in (first, stay):
                snap = await resign(stub, name, tokens[seat])
        assert snap.finished
        assert snap.result.ranks[stay] == 1
        assert all(snap.result.ranks[s] == 2 for s in range(seats) if s != stay)
    log = await log_of(stub, name)
    assert [r.move_id for r in log if r.system].count(f"!resign:{first}") == 1
    code, reason, _ = await fails(resign(stub, name, tokens[first]))
    assert (code, reason) == (grpc.StatusCode.FAILED_PRECONDITION, "GAME_FINISHED")
    assert app.metrics.registry.get_sample_value("tribes_resignations_total", {"game": game}) == (
        1 if seats == 2 else seats - 1
    )


async def test_resigning_twice_and_without_a_seat_is_refused(stub: Stub) -> None:
    created = await create(stub, seats=3)
    name = created.game.name
    await resign(stub, name, created.seat_tokens[2])
    code, reason, _ = await fails(resign(stub, name, created.seat_tokens[2]))
    assert (code, reason) == (grpc.StatusCode.FAILED_PRECONDITION, "ALREADY_RESIGNED")
    code, _, _ = await fails(stub.Resign(spb.ResignRequest(name=name)))
    assert code == grpc.StatusCode.UNAUTHENTICATED
    assert not (await get(stub, name)).finished


# -- bot seats ------------------------------------------------------------------------


async def test_a_bot_seat_plays_whenever_it_is_to_act() -> None:
    async with hosted(HandClock()) as (app, stub):
        created = await create(stub, bots={1: "random"})
        assert list(created.seat_tokens) == [created.seat_tokens[0], ""]  # none for a bot
        assert created.game.seats[1].bot == "random"
        name = created.game.name
        for card in (1, 2, 3):
            await until(stub, name, lambda s: 1 not in s.to_act)
            await bid(stub, created, 0, card)
        snap = await until(stub, name, lambda s: s.finished)
        log = await log_of(stub, name)
        assert [r.seat for r in log].count(1) == 3 and not any(r.system for r in log)
        assert snap.version == 7
        key = {"game": "goofspiel", "bot": "random"}
        assert app.metrics.registry.get_sample_value("tribes_bot_moves_total", key) == 3


async def test_bots_play_in_a_row_without_waiting_for_the_sweep() -> None:
    """A bot's commit kicks the next decision while its own is still ending: with a sweep
    that never comes in the test's time, a game of two bot seats plays out (it stalled at
    its second version, each later move waiting for a sweep)."""
    async with running_app(MemoryStore(), sweep_interval=3600) as app:
        async with grpc.aio.insecure_channel(f"127.0.0.1:{app.port}") as channel:
            stub = Stub(channel)
            created = await create(stub, bots={0: "random", 1: "random"}, options={"cards": "5"})
            snap = await until(stub, created.game.name, lambda s: s.finished, 20)
            assert snap.version == 1 + 5 * 2
            log = await log_of(stub, created.game.name)
            assert sorted(r.seat for r in log) == [0] * 5 + [1] * 5


@pytest.mark.parametrize(
    ("bots", "why"),
    [({2: "random"}, "seat must be 0..1"), ({0: "nope"}, "is not a bot kind")],
)
async def test_bad_bot_seats_are_refused(bots: dict[int, str], why: str) -> None:
    async with hosted(HandClock()) as (_, stub):
        with pytest.raises(grpc.aio.AioRpcError) as raised:
            await create(stub, bots=bots)
        assert raised.value.code() == grpc.StatusCode.INVALID_ARGUMENT
        assert why in (raised.value.details() or "")


def test_bots_play_a_game_among_themselves_across_two_processes(
    redis_url: str, redis_prefix: str
) -> None:
    """Four bot seats, two servers kicking and sweeping: every decision lands once."""
    env = {
        "REDIS_URL": redis_url,
        "TRIBES_REDIS_PREFIX": redis_prefix,
        "TRIBES_SWEEP_SECONDS": "0.02",
    }

    async def run(a: str, b: str) -> None:
        async with grpc.aio.insecure_channel(a) as ca, grpc.aio.insecure_channel(b) as cb:
            bots = {seat: "random" for seat in range(4)}
            created = await create(Stub(ca), seats=4, bots=bots, options={"cards": "13"})
            snap = await until(Stub(cb), created.game.name, lambda s: s.finished, 60)
            assert snap.version == 1 + 13 * 4
            log = await log_of(Stub(cb), created.game.name)
            assert sorted(r.seat for r in log) == sorted(list(range(4)) * 13)

    with server_process(env) as a, server_process(env) as b:
        asyncio.run(run(a.target, b.target))


# -- presence -----------------------------------------------------------------------------


async def test_presence_appears_goes_and_expires() -> None:
    clock = HandClock()
    async with hosted(clock) as (_, stub):
        created = await create(stub)
        name = created.game.name
        snap = await get(stub, name)
        assert [(s.present, s.presence_since_unix_ms) for s in snap.seats] == [(False, 0)] * 2
        watch = stub.WatchGame(
            spb.WatchGameRequest(name=name), metadata=bearer(created.seat_tokens[0])
        )
        await watch.read()
        opened = clock.ms
        snap = await get(stub, name)
        assert [(s.present, s.presence_since_unix_ms) for s in snap.seats] == [
            (True, opened),
            (False, 0),
        ]
        # the holder's replica stops refreshing it (it died): after the expiry it is gone,
        # last seen when it was last refreshed
        clock.advance(31)
        snap = await get(stub, name)
        assert (snap.seats[0].present, snap.seats[0].presence_since_unix_ms) == (False, opened)
        watch.cancel()
        clock.advance(5)
        snap = await until(stub, name, lambda s: s.seats[0].presence_since_unix_ms != opened)
        assert snap.seats[0].present is False
        assert opened < snap.seats[0].presence_since_unix_ms <= clock.ms  # when it left


async def test_a_new_games_presence_is_not_read_from_the_store(
    redis_url: str, redis_prefix: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Nobody can be present in a game this process has just created: its create answer
    and first reads show every seat absent without a presence read of the store; a seat
    that opens a watch is then shown present (from the hold's own notice)."""
    async with (
        running_app(RedisStore(redis_url, prefix=redis_prefix)) as app,
        grpc.aio.insecure_channel(f"127.0.0.1:{app.port}") as channel,
    ):
        stub = Stub(channel)
        store = app.games.store
        reads: list[str] = []
        real = store.presence

        async def counted(game_id: str) -> object:
            reads.append(game_id)
            return await real(game_id)

        monkeypatch.setattr(store, "presence", counted)
        created = await create(stub)
        name = created.game.name
        assert [s.present for s in created.game.seats] == [False, False]
        snap = await get(stub, name)
        assert [s.present for s in snap.seats] == [False, False]
        await asyncio.sleep(0.05)  # a background refresh, had one been started
        assert reads == []
        watch = stub.WatchGame(
            spb.WatchGameRequest(name=name), metadata=bearer(created.seat_tokens[1])
        )
        await watch.read()
        snap = await until(stub, name, lambda s: s.seats[1].present)
        assert [s.present for s in snap.seats] == [False, True]
        watch.cancel()


async def test_a_hold_released_during_a_refresh_pass_is_not_written_again(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The refresher's pass awaits each hold's touch in turn; a hold released meanwhile is
    skipped (it was touched anyway, showing the seat present for 30 s after it left)."""
    monkeypatch.setattr(presence_module, "REFRESH_S", 0.01)
    store = MemoryStore()
    async with running_app(store) as app:
        presence = app.games.presence
        holds = [await presence.hold("g1", seat) for seat in (0, 1)]
        touched: list[str] = []
        entered, go, passes = asyncio.Event(), asyncio.Event(), asyncio.Event()
        real = store.presence_touch

        async def held_first(game_id: str, seat: int, holder: str, *times: int) -> None:
            touched.append(holder)
            if len(touched) == 1:
                entered.set()
                await go.wait()
            if touched.count(touched[0]) >= 3:  # two more passes
                passes.set()
            await real(game_id, seat, holder, *times)

        monkeypatch.setattr(store, "presence_touch", held_first)
        async with asyncio.timeout(5):
            await entered.wait()
        other = next(h for h in holds if h.holder != touched[0])
        await presence.release(other)
        go.set()
        async with asyncio.timeout(5):
            await passes.wait()
        assert other.holder not in touched
        entries = await store.presence("g1")
        assert f"{other.seat}:left" in entries and f"{other.seat}:{other.holder}" not in entries
        await presence.release(next(h for h in holds if h is not other))


async def test_a_presence_hold_cancelled_half_way_is_not_kept(
    redis_url: str, redis_prefix: str
) -> None:
    """Cancelled at every step of taking it (a stream that ends while it opens), a hold is
    either handed over or forgotten: never kept refreshed with nobody to release it, and
    what it wrote in the store is left again at once (the seat is not shown present until
    the entry expires, 30 s later)."""
    async with (
        running_app(RedisStore(redis_url, prefix=redis_prefix)) as app,
        grpc.aio.insecure_channel(f"127.0.0.1:{app.port}") as channel,
    ):
        stub = Stub(channel)
        created = await create(stub)
        game_id = created.game.name.removeprefix("games/")
        presence = app.games.presence
        completed = 0
        for steps in range(40):
            task = asyncio.create_task(presence.hold(game_id, 0))
            for _ in range(steps):
                await asyncio.sleep(0)
            task.cancel()
            try:
                hold = await task
            except asyncio.CancelledError:
                continue
            completed += 1
            await presence.release(hold)
        assert presence.holds == 0
        assert completed < 40  # some were cancelled part-way
        store = app.games.store
        for _ in range(100):  # 5 s at most, far less than an entry's expiry
            live = [f for f in await store.presence(game_id) if not f.endswith(":left")]
            if not live:
                break
            await asyncio.sleep(0.05)
        assert not live


async def test_a_session_is_pushed_the_seat_list_when_a_seat_comes() -> None:
    clock = HandClock()
    async with hosted(clock) as (_, stub):
        created = await create(stub)
        name = created.game.name
        session = stub.Play(metadata=bearer(created.seat_tokens[0]))
        await session.write(spb.PlayRequest(open=spb.OpenSession(name=name)))
        first = (await session.read()).snapshot
        assert first.seats[0].present and not first.seats[1].present
        watch = stub.WatchGame(
            spb.WatchGameRequest(name=name), metadata=bearer(created.seat_tokens[1])
        )
        await watch.read()
        async with asyncio.timeout(10):
            pushed = (await session.read()).snapshot
        assert pushed.version == first.version  # the same version, a new seat list
        assert pushed.seats[1].present
        watch.cancel()
        async with asyncio.timeout(10):
            pushed = (await session.read()).snapshot
        assert not pushed.seats[1].present
        session.cancel()


async def test_a_watch_that_asks_for_presence_is_pushed_the_seat_list_too() -> None:
    """WatchGame with ``presence``: a seat opening a session and leaving repeats the
    version with the new seat list; a watch without it is pushed nothing until the next
    version (every version once)."""
    clock = HandClock()
    async with hosted(clock) as (_, stub):
        created = await create(stub)
        name, tokens = created.game.name, created.seat_tokens
        with_presence = stub.WatchGame(spb.WatchGameRequest(name=name, presence=True))
        plain = stub.WatchGame(spb.WatchGameRequest(name=name))
        first = await with_presence.read()
        assert (await plain.read()).version == first.version
        assert [s.present for s in first.seats] == [False, False]
        session = stub.Play(metadata=bearer(tokens[1]))
        await session.write(spb.PlayRequest(open=spb.OpenSession(name=name)))
        await session.read()
        async with asyncio.timeout(10):
            came = await with_presence.read()
        assert came.version == first.version and [s.present for s in came.seats] == [False, True]
        session.cancel()
        async with asyncio.timeout(10):
            left = await with_presence.read()
        assert left.version == first.version and not left.seats[1].present
        assert left.seats[1].presence_since_unix_ms > 0  # when it was last seen
        seat_move = spb.ApplyMoveRequest(name=name, move_id="bid:1")
        await stub.ApplyMove(seat_move, metadata=bearer(tokens[0]))
        async with asyncio.timeout(10):
            moved = await plain.read()  # the plain watch's next event is the next version
        assert moved.version == first.version + 1
        async with asyncio.timeout(10):
            assert (await with_presence.read()).version == first.version + 1
        plain.cancel()
        with_presence.cancel()


# -- across processes and restarts (Redis) ------------------------------------------------


def test_two_processes_apply_each_timeout_exactly_once(redis_url: str, redis_prefix: str) -> None:
    """Two servers on one Redis sweep every 20 ms and every call checks the deadline:
    each game's timeout is applied by exactly one of them."""
    env = {
        "REDIS_URL": redis_url,
        "TRIBES_REDIS_PREFIX": redis_prefix,
        "TRIBES_SWEEP_SECONDS": "0.02",
    }

    async def run(a: str, b: str) -> None:
        async with grpc.aio.insecure_channel(a) as ca, grpc.aio.insecure_channel(b) as cb:
            sa, sb = Stub(ca), Stub(cb)
            games = [await create(sa, per_move=1, seed=None) for _ in range(12)]
            # both processes also poll the games, so calls race the sweeps
            for i, created in enumerate(games):
                await until((sa, sb)[i % 2], created.game.name, lambda s: s.finished)
            for created in games:
                log = await log_of(sb, created.game.name)
                assert timeouts(log) == ["!timeout:0:forfeit"], log
                assert len(log) == 1

    with server_process(env) as a, server_process(env) as b:
        asyncio.run(run(a.target, b.target))


def test_presence_is_seen_from_another_process(redis_url: str, redis_prefix: str) -> None:
    env = {"REDIS_URL": redis_url, "TRIBES_REDIS_PREFIX": redis_prefix}

    async def run(a: str, b: str) -> None:
        async with grpc.aio.insecure_channel(a) as ca, grpc.aio.insecure_channel(b) as cb:
            sa, sb = Stub(ca), Stub(cb)
            created = await create(sa)
            name = created.game.name
            watch = sa.WatchGame(
                spb.WatchGameRequest(name=name), metadata=bearer(created.seat_tokens[1])
            )
            await watch.read()
            snap = await until(sb, name, lambda s: s.seats[1].present)
            assert not snap.seats[0].present and snap.seats[1].presence_since_unix_ms > 0
            watch.cancel()
            await until(sb, name, lambda s: not s.seats[1].present)

    with server_process(env) as a, server_process(env) as b:
        asyncio.run(run(a.target, b.target))


async def test_clocks_survive_a_restart_of_the_service(redis_url: str, redis_prefix: str) -> None:
    """The clocks and the due index live in the store: a new service process shows the
    same clocks and enforces the deadline the old one set."""

    def store() -> RedisStore:
        return RedisStore(redis_url, prefix=redis_prefix)

    async with running_app(store(), sweep_interval=0.02) as first:
        async with grpc.aio.insecure_channel(f"127.0.0.1:{first.port}") as channel:
            stub = Stub(channel)
            chess = await create(stub, initial=600, increment=3)
            await bid(stub, chess, 0, 1)
            before = await get(stub, chess.game.name)
            short = await create(stub, per_move=1)
    async with running_app(store(), sweep_interval=0.02) as second:
        async with grpc.aio.insecure_channel(f"127.0.0.1:{second.port}") as channel:
            stub = Stub(channel)
            after = await get(stub, chess.game.name)
            assert [
                (s.remaining_ms, s.clock_since_unix_ms, s.deadline_unix_ms) for s in after.seats
            ] == [(s.remaining_ms, s.clock_since_unix_ms, s.deadline_unix_ms) for s in before.seats]
            assert after.seats[0].remaining_ms > 590_000  # charged, with the increment
            snap = await until(stub, short.game.name, lambda s: s.finished)
            assert snap.seats[0].timed_out
            assert counted(second, "tribes_timeouts_total") == 1  # this process did it


async def test_resign_over_http(app: App) -> None:
    import aiohttp

    async with grpc.aio.insecure_channel(f"127.0.0.1:{app.port}") as channel:
        created = await create(Stub(channel), seats=2)
    url = f"http://127.0.0.1:{app.http_port}/v1/{created.game.name}:resign"
    async with aiohttp.ClientSession() as http:
        headers = {"authorization": f"Bearer {created.seat_tokens[0]}"}
        async with http.post(url, json={"requestId": uuid.uuid4().hex}, headers=headers) as reply:
            assert reply.status == 200
            body = await reply.json()
        assert body["finished"] is True
        assert body["seats"][0]["resigned"] is True
        assert body["result"]["ranks"] == [2, 1]
        async with http.post(url, json={}, headers=headers) as reply:
            assert reply.status == 400
            error = await reply.json()
        assert reason(error) == "GAME_FINISHED"

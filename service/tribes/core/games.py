"""The application core: decode -> load -> play -> save -> snapshot -> notify, once for
every door.

The gRPC door (``tribes.grpc``) and the HTTP door (``tribes.http``) only translate their
transport into a ``Caller`` and a request message, call one method here, and translate
the reply (bytes or a message) or the domain error (``tribes.core.status``) back. So every
rule of the API — input limits, tokens, idempotency, redaction, error reasons — is
written once, here. The lobby (``tribes.core.lobby``), hosted play (``tribes.core.hosted``)
and play sessions (``tribes.core.sessions``) are functions over this core; ``Games`` keeps
the move path, watches and the helpers they share (``load``, ``cached_state``,
``commit_record``, ``after_commit``, ``snapshot``, ...).

Decisions worth knowing (README "API"):
* ``expected_version`` 0 skips the version check. The move is then validated against
  the freshest state; if another move lands between our read and our write we re-read
  and re-validate instead of answering ABORTED, because the caller asked not to pin a
  version: at most once per seat plus one, since in a simultaneous decision each other
  seat can win the race once. With a version given, any mismatch is ABORTED
  (STALE_VERSION), never retried.
* A retried ``request_id`` (scoped per game and seat) gets the first answer: the
  snapshot of the version that request produced, rebuilt by replaying the log when
  the game has moved on since.
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import functools
import logging
import re
import secrets
import time
from collections.abc import AsyncGenerator, AsyncIterator, Callable, Sequence
from dataclasses import dataclass
from typing import Any

from tribes.core import hosted, hosting, limits, lobby, sessions
from tribes.core.botseats import BotSeats, Chooser, Suggester, random_suggestion
from tribes.core.cache import Cached, StateCache
from tribes.core.catalog import Catalog, Entry
from tribes.core.errors import (
    BadRequestError,
    CorruptGameError,
    GameNotFoundError,
    ServiceError,
    StaleVersionError,
    TokenRequiredError,
)
from tribes.core.presence import Presence, Seen
from tribes.core.proxies import TrustedProxies
from tribes.core.quotas import RateLimit, StreamLimit, address_of
from tribes.core.records import (
    ENTRY,
    META,
    RECORD,
    GameMeta,
    GameRecord,
    LogEntry,
    Seat,
    apply_system,
    pack,
    unpack,
)
from tribes.core.snapshots import (
    SnapshotWriter,
    create_response,
    game_types,
    move_record,
)
from tribes.core.tokens import SeatTokens
from tribes.engine import (
    SPECTATOR,
    GameFinishedError,
    MalformedMoveError,
    RulesError,
    driver,
)
from tribes.metrics import Metrics, Timer
from tribes.store import Change, CommitOutcome, CommitStatus, Loaded, Store, StoreUnavailableError
from tribes.v1 import common_pb2 as pb
from tribes.v1 import game_service_pb2 as spb

log = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class Caller:
    """Who is calling, taken from the call when it starts (a stream outlives its call).

    ``token`` is the bearer token (bounded, not yet verified), None for a spectator;
    ``peer`` the caller's address, for quotas and logs (the transport's peer, or the
    address a trusted proxy forwarded: ``tribes.core.proxies``); ``service``: the service
    itself playing a seat (a bot, a seat played out after it left), never a door's caller.
    """

    token: str | None
    peer: str
    service: bool = False

    @classmethod
    def of(cls, authorization: str | None, peer: str) -> Caller:
        """From an ``authorization`` header/metadata value; BadTokenError if malformed."""
        return cls(limits.bearer(authorization), peer)


@dataclass(frozen=True, slots=True)
class Played:
    """A move's outcome: the state at the version it produced, for ``seat``.

    ``replayed``: the request id was seen before and this is its first answer's state.
    """

    entry: Entry
    game_id: str
    cached: Cached
    seat: int
    replayed: bool


class StoreClock:
    """The store's clock as this process estimates it between readings (every sweep
    reads it): for what a snapshot shows. Charging time and enforcing deadlines read the
    store itself. An in-process store lends its own clock."""

    def __init__(self, source: Callable[[], int] | None = None) -> None:
        self._source = source
        self._offset = 0.0

    def observe(self, store_ms: int) -> None:
        self._offset = store_ms - time.time() * 1000

    def estimate(self) -> int:
        if self._source is not None:
            return self._source()
        return int(time.time() * 1000 + self._offset)


class Games:
    def __init__(
        self,
        catalog: Catalog,
        store: Store,
        tokens: SeatTokens,
        metrics: Metrics,
        *,
        allow_seed: bool = False,
        cache_games: int = 10_000,
        create_limit: RateLimit | None = None,
        stream_limit: StreamLimit | None = None,
        proxies: TrustedProxies | None = None,
        chooser: Chooser | None = None,
        bot_kinds: Sequence[str] = ("random",),
        suggester: Suggester | None = None,
        default_bot: str = "random",
        bot_budget_ms: int = 500,
        bot_max_budget_ms: int = 2000,
    ) -> None:
        self.bot_kinds = tuple(bot_kinds)
        self.suggester = suggester or random_suggestion
        self.default_bot = default_bot
        self.bot_budget_ms = bot_budget_ms
        self.bot_max_budget_ms = bot_max_budget_ms
        self.catalog = catalog
        self.store = store
        self.tokens = tokens
        self.metrics = metrics
        self.allow_seed = allow_seed
        self.cache = StateCache(cache_games)
        self.writer = SnapshotWriter()
        self.create_limit = create_limit or RateLimit(0, 1, what="games created")
        self.stream_limit = stream_limit or StreamLimit(0)
        self.proxies = proxies or TrustedProxies()  # the doors resolve Caller.peer with it
        self._game_types = game_types(catalog, self.bot_kinds)
        self.clock = StoreClock(store.clock_source())
        self.presence = Presence(store, self.clock)
        self.bots = BotSeats(self, chooser)
        #: game id -> viewer -> this process's open sessions and watches of that viewer:
        #: whose snapshots a move builds while its commit travels (``_commit``)
        self._viewers: dict[str, collections.Counter[int]] = {}

    async def close(self) -> None:
        """Stop the bots' decisions and give up this process's presence holds."""
        await self.bots.close()
        await self.presence.close()

    # -- the operations ------------------------------------------------------------------

    def viewer_opened(self, game_id: str, viewer: int) -> None:
        """A session or watch of ``viewer`` opened on this process (``viewer_closed``
        when it ends, on every way out)."""
        self._viewers.setdefault(game_id, collections.Counter())[viewer] += 1

    def viewers_here(self, game_id: str) -> tuple[int, ...]:
        """The viewers with a session or watch of the game open on this process."""
        return tuple(self._viewers.get(game_id, ()))

    def viewer_closed(self, game_id: str, viewer: int) -> None:
        viewers = self._viewers.get(game_id)
        if viewers is None:
            return
        viewers[viewer] -= 1
        if viewers[viewer] <= 0:
            del viewers[viewer]
        if not viewers:
            del self._viewers[game_id]

    def operation(self, rpc: str) -> Callable[..., Any]:
        """The operation serving an RPC of ``tribes.v1.GameService``, by its name
        (``ApplyMove`` -> ``apply_move``): how every door finds what to call."""
        method = getattr(self, re.sub(r"(?<!^)(?=[A-Z])", "_", rpc).lower(), None)
        if method is None:
            raise LookupError(f"the core has no operation for the RPC {rpc}")
        return method  # type: ignore[no-any-return]

    async def list_game_types(
        self, caller: Caller, request: spb.ListGameTypesRequest
    ) -> spb.ListGameTypesResponse:
        return self._game_types

    async def create_game(self, caller: Caller, request: spb.CreateGameRequest) -> bytes:
        entry = self.catalog.get(limits.game_type(request.game_type))
        game = entry.game
        request_id = limits.request_id(request.request_id)
        seat_count = limits.seat_count(request.seat_count)
        options = driver.resolve_setup(game, seat_count, limits.options(request.options))
        self.create_limit.take(address_of(caller.peer))
        seed = request.seed if self.allow_seed and request.HasField("seed") else None
        if seed is None:
            seed = secrets.randbits(64)
        with self._rule_timer(game.id, "new_game"):
            state = game.new_game(seat_count, options, seed)
        tc = request.time_control
        clock = hosting.clock_of(
            tc.per_move_seconds, tc.initial_seconds, tc.increment_seconds, tc.on_timeout
        )
        bots = limits.bots(dict(request.bots), seat_count, self.bot_kinds)
        seats = tuple(
            Seat(open=request.listed and i not in bots, bot=bots.get(i, ""))
            for i in range(seat_count)
        )
        initial: GameRecord | None = GameRecord(request.listed, seats, clock)
        if clock is not None and initial is not None:
            initial = hosting.started(initial, game.to_act(state), await self.store.now_ms())
        if initial == GameRecord(False, tuple(Seat() for _ in range(seat_count))):
            initial = None  # the plain record: nothing to keep
        meta = GameMeta(
            game_type=game.id,
            seat_count=seat_count,
            options=tuple(sorted(options.items())),
            seed=seed,
            salt=secrets.token_urlsafe(12),
            created_ms=int(time.time() * 1000),
            initial=initial,
        )
        record = meta.first_record
        game_id = self.tokens.game_id_for(request_id) if request_id else _new_game_id()
        if request_id:  # a retry from before a key rotation has the id of an earlier key
            for earlier in self.tokens.earlier_game_ids(request_id):
                if await self.store.load(earlier) is not None:
                    game_id = earlier
                    break
        blob = pack(RECORD.encode(record), game.encode(state))
        with self.store_timer("create"):
            created = await self.store.create(game_id, META.encode(meta), blob)
        version = 1
        if created:
            self.metrics.inc(self.metrics.games_created, game.id)
            self.presence.created(game_id)  # nobody can be present yet: nothing to read
        elif request_id:
            # A retry: answer with the game the first request created.
            loaded = await self.load(game_id)
            asked = (meta.game_type, meta.seat_count, meta.options, _places(seats))
            meta = self.meta_of(game_id, loaded)
            made = _places(meta.first_record.seats)
            if (meta.game_type, meta.seat_count, meta.options, made) != asked:
                raise BadRequestError(
                    "this request_id was already used to create a different game",
                    reason="REQUEST_ID_REUSED",
                )
            record, blob = unpack(loaded.state, meta)
            state, version = self._decode(entry, blob), loaded.version
            self.metrics.inc(self.metrics.idempotent_replays, "CreateGame")
        else:  # a random 72-bit id collided: astronomically unlikely, so say so loudly
            raise ServiceError("could not allocate a game id; try again")
        if record.listed:  # indexed after the create (and again on a retry): idempotent
            await self.store.list_add(game_id, ("", game.id), meta.created_ms)
        cached = self.cache.put(game_id, version, state, meta, record)
        await self.after_commit(entry, game_id, cached)
        tokens: list[str] = []
        if not record.listed:  # a bot's seat has no token to hand out: "" keeps the places
            tokens = [
                "" if seat.bot else self.tokens.issue(game_id, i, meta.salt)
                for i, seat in enumerate(record.seats)
            ]
        return create_response(self.snapshot(entry, game_id, cached, SPECTATOR), tokens)

    async def get_game(self, caller: Caller, request: spb.GetGameRequest) -> bytes:
        game_id = limits.game_id(request.name)
        entry, cached, _ = await self.stored_state(game_id)
        viewer = self.viewer_of(caller, game_id, cached.meta)
        record = cached.record
        if (
            record.clock is not None
            and hosting.timed_out(record, self.clock.estimate()) is not None
            and await hosted.timed_out(self, entry, game_id, cached)
        ):  # a deadline passed: its consequence first (once, on whichever replica)
            cached = await self.current_state(game_id)
        await self.presence.ensure(game_id)
        return self.snapshot(entry, game_id, cached, viewer)

    async def apply_move(self, caller: Caller, request: spb.ApplyMoveRequest) -> bytes:
        played = await self.play_move(caller, request)
        return self.snapshot(played.entry, played.game_id, played.cached, played.seat)

    async def play_move(self, caller: Caller, request: spb.ApplyMoveRequest) -> Played:
        """Validate, play and commit one move (or find the answer of its first request)."""
        game_id = limits.game_id(request.name)
        token = caller.token
        if token is None:
            raise TokenRequiredError("moves need a seat token (authorization: Bearer <token>)")
        choice = request.WhichOneof("choice")
        if choice is None:
            raise MalformedMoveError("the request carries neither a move nor a move_id")
        if choice == "move_id":
            limits.move_id(request.move_id)
        request_id = limits.request_id(request.request_id)
        # the request-id record is per seat; the seat is verified once the game is known
        request_key = f"{token.partition('.')[0]}:{request_id}" if request_id else None
        expected = request.expected_version
        game_type = "unknown"
        try:
            attempt = 0
            while True:
                attempt += 1
                # a second look reads the store: the cached version may be one another
                # replica moved on from (its timeout applied there), and looking at it
                # again would apply the timeout here again, for ever
                cached, prior = await self._current(
                    game_id, expected if attempt == 1 else 0, request_key
                )
                entry = self.catalog.get(cached.meta.game_type)
                game_type = entry.game.id
                seat = self.tokens.seat_of(game_id, cached.meta.salt, cached.meta.seat_count, token)
                if prior is not None:
                    return await self.replay_answer(entry, game_id, cached, seat, prior)
                if cached.record.over:
                    raise GameFinishedError("the game is over")
                if not caller.service:
                    hosted.check_still_playing(cached, seat)
                now = await self.store.now_ms() if cached.record.clock is not None else 0
                if now and await hosted.timed_out(self, entry, game_id, cached, now):
                    continue  # a deadline passed first: its consequence is applied, look again
                if expected and expected != cached.version:
                    self.metrics.inc(self.metrics.version_conflicts, game_type)
                    raise StaleVersionError(
                        f"the game is at version {cached.version}, not {expected}",
                        current_version=str(cached.version),
                    )
                move, state = self._play(entry, cached, seat, request, choice)
                outcome, ahead = await self._commit(
                    entry, game_id, cached, seat, move, state, request_key, now
                )
                if outcome.status is CommitStatus.APPLIED:
                    # the compare-and-set made the version after ``cached``: ``ahead``'s
                    fresh = self.cache.adopt(game_id, ahead)
                    await self.after_commit(entry, game_id, fresh)
                    return Played(entry, game_id, fresh, seat, replayed=False)
                if outcome.status is CommitStatus.DUPLICATE:
                    return await self.replay_answer(entry, game_id, cached, seat, outcome.version)
                if outcome.status is CommitStatus.MISSING:
                    raise GameNotFoundError(f"there is no game 'games/{game_id}'")
                # CONFLICT: someone else's move landed first
                self.metrics.inc(self.metrics.version_conflicts, game_type)
                if expected:
                    raise StaleVersionError(
                        f"another move landed first; the game is at version {outcome.version}",
                        current_version=str(outcome.version),
                    )
                if attempt > cached.meta.seat_count:
                    raise StaleVersionError(
                        "the game is changing too fast; fetch it and try again",
                        current_version=str(outcome.version),
                    )
                log.debug("unchecked move on %s lost a race (attempt %d)", game_id, attempt)
        except (RulesError, ServiceError) as exc:
            self.metrics.inc(self.metrics.moves_rejected, game_type, exc.reason)
            raise

    # -- the lobby (tribes.core.lobby) and hosted play (tribes.core.hosted) ----------------

    async def list_games(
        self, caller: Caller, request: spb.ListGamesRequest
    ) -> spb.ListGamesResponse:
        return await lobby.list_games(self, caller, request)

    async def join_game(self, caller: Caller, request: spb.JoinGameRequest) -> bytes:
        return await lobby.join_game(self, caller, request)

    async def resign(self, caller: Caller, request: spb.ResignRequest) -> bytes:
        return await hosted.resign(self, caller, request)

    async def suggest_move(
        self, caller: Caller, request: spb.SuggestMoveRequest
    ) -> spb.SuggestMoveResponse:
        return await hosted.suggest_move(self, caller, request)

    async def service_due(self, game_id: str, now_ms: int) -> None:
        await hosted.service_due(self, game_id, now_ms)

    async def list_moves(
        self, caller: Caller, request: spb.ListMovesRequest
    ) -> spb.ListMovesResponse:
        game_id = limits.game_id(request.name)
        size = limits.page_size(request.page_size)
        start = self.tokens.page_offset(game_id, request.page_token)
        loaded = await self.load(game_id)
        meta = self.meta_of(game_id, loaded)
        entry = self.catalog.get(meta.game_type)
        viewer = self.viewer_of(caller, game_id, meta)
        with self.store_timer("read_log"):
            blobs = await self.store.read_log(game_id, start, size + 1)
        records = [self.log_entry(blob) for blob in blobs[:size]]
        more = len(blobs) > size
        return spb.ListMovesResponse(
            moves=[move_record(entry, record, viewer) for record in records],
            next_page_token=self.tokens.page_token(game_id, start + size) if more else "",
        )

    def play(
        self, caller: Caller, requests: AsyncIterator[Any], *, transport: str = "grpc"
    ) -> AsyncGenerator[bytes, None]:
        """A play session (``tribes.core.sessions``): PlayEvent bytes for PlayRequests."""
        return sessions.play(self, caller, requests, transport=transport)

    async def current_state(self, game_id: str) -> Cached:
        """The stored game's latest state (decoded once per version per process)."""
        _, cached, _ = await self.stored_state(game_id)
        return cached

    async def watched_state(self, game_id: str) -> tuple[Entry, Cached]:
        """For a caller whose watch of the game is open: the game's latest state — the
        newest change the change feed has handed this replica when there is one (no store
        read: every later change reaches the caller's mailbox), else the stored state,
        which the store then keeps as that newest change (the next session of the game on
        this replica reads nothing)."""
        change = self.store.latest(game_id)
        meta = self.cache.meta(game_id) if change is not None else None
        if change is None or meta is None:
            entry, cached, _ = await self.stored_state(game_id, watched=True)
            return entry, cached
        entry = self.catalog.get(meta.game_type)
        return entry, self.cached_state(entry, game_id, meta, change.version, change.state)

    async def stored_state(
        self, game_id: str, request_key: str | None = None, *, watched: bool = False
    ) -> tuple[Entry, Cached, int | None]:
        """The stored game's catalog entry and latest state, and — with ``request_key``
        — the version that request produced when it was seen before (else None).
        ``watched``: the caller's watch of the game is open (``Store.read_while_watched``)."""
        loaded = await self.load(game_id, request_key)
        if watched:
            self.store.read_while_watched(game_id, Change(loaded.version, loaded.state))
        meta = self.meta_of(game_id, loaded)
        entry = self.catalog.get(meta.game_type)
        cached = self.cached_state(entry, game_id, meta, loaded.version, loaded.state)
        return entry, cached, loaded.prior_version

    async def watch_game(
        self,
        caller: Caller,
        request: spb.WatchGameRequest,
        *,
        from_version: int | None = None,
        idle_seconds: float | None = None,
    ) -> AsyncGenerator[bytes | None, None]:
        """The caller's snapshot now and at every later version, until the game ends.

        Every version is delivered once, in order: when the bounded mailbox dropped some
        (a slow consumer) the missing versions are rebuilt from the move log. With
        ``from_version`` (a consumer resuming, e.g. SSE's Last-Event-ID) the versions
        after it come first and that version itself is not repeated. With
        ``idle_seconds``, ``None`` is yielded after that long without a change (a door's
        heartbeat; also at once when a resume has nothing to replay, so the door can start
        its stream rather than wait). With ``request.presence``, a seat coming or going
        also yields the current version again with the new seat list. The subscription is
        released on every way out: the caller cancels, the game ends, the change feed is
        lost.
        """
        game_id = limits.game_id(request.name)
        async with self.stream_limit.held(caller.peer), self.store.watch(game_id) as mailbox:
            # subscribed first, read second: no change can fall between the two
            entry, current = await self.watched_state(game_id)
            meta = current.meta
            viewer = self.viewer_of(caller, game_id, meta)
            hold = None
            wait = mailbox.get_or_notice if request.presence else mailbox.get
            seats = meta.seat_count
            self.metrics.watchers.inc()
            self.viewer_opened(game_id, viewer)
            try:
                hold = await self.presence.opened(game_id, viewer)
                if from_version is None or not 0 < from_version <= current.version:
                    last = current
                    yield self.snapshot(entry, game_id, current, viewer)
                else:
                    last = await self._state_at(entry, game_id, meta, from_version)
                    async for later in self._versions(entry, game_id, last, current.version):
                        yield self.snapshot(entry, game_id, later, viewer)
                        last = later
                    if from_version == current.version and not hosting.is_over(
                        entry.game, current.state, current.record
                    ):  # nothing to replay yet: an idle tick now, so a door answers at once
                        yield None
                shown = self.presence.known(game_id, seats)
                while not hosting.is_over(entry.game, last.state, last.record):
                    try:
                        async with asyncio.timeout(idle_seconds):
                            change = await wait()
                    except TimeoutError:
                        yield None
                        continue
                    if isinstance(change, bytes):  # a presence notice (presence=true)
                        self.presence.absorb(game_id, change)
                        if (seen := self.presence.known(game_id, seats)) != shown:
                            shown = seen
                            yield self.snapshot(entry, game_id, last, viewer, seen)
                        continue
                    if change.version <= last.version:
                        continue
                    if change.version > last.version + 1:
                        missed = self._versions(entry, game_id, last, change.version - 1)
                        async for later in missed:
                            yield self.snapshot(entry, game_id, later, viewer)
                            last = later
                    last = self.cached_state(entry, game_id, meta, change.version, change.state)
                    shown = self.presence.known(game_id, seats)
                    yield self.snapshot(entry, game_id, last, viewer, shown)
            finally:
                self.viewer_closed(game_id, viewer)
                self.metrics.watchers.dec()
                if hold is not None:
                    await self.presence.release(hold)

    async def _versions(
        self, entry: Entry, game_id: str, start: Cached, end: int
    ) -> AsyncGenerator[Cached, None]:
        """The states after ``start`` up to version ``end``, replayed from the move log
        (log entry i produced version i + 2)."""
        if end <= start.version:
            return
        with self.store_timer("read_log"):
            blobs = await self.store.read_log(game_id, start.version - 1, end - start.version)
        state, record = start.state, start.record
        for offset, blob in enumerate(blobs, start=start.version + 1):
            state, record = self._replay_one(entry, state, record, self.log_entry(blob))
            yield Cached(offset, state, start.meta, record)

    # -- steps of a move -----------------------------------------------------------------

    async def _current(
        self, game_id: str, expected: int, request_key: str | None
    ) -> tuple[Cached, int | None]:
        """The state to play against, from the cache when the caller's version is there."""
        if expected:
            cached = self.cache.at(game_id, expected)
            if cached is not None:
                self.metrics.inc(self.metrics.state_cache, "hit")
                return cached, None
        self.metrics.inc(self.metrics.state_cache, "miss")
        _, cached, prior = await self.stored_state(game_id, request_key)
        return cached, prior

    def _play(
        self, entry: Entry, cached: Cached, seat: int, request: spb.ApplyMoveRequest, choice: str
    ) -> tuple[Any, Any]:
        """(move, new state), after the driver's checks against the cached legal moves."""
        game = entry.game
        with self._rule_timer(game.id, "apply"):
            legal = self.legal(entry, cached, seat)
            if choice == "move_id":
                return driver.play_id(game, cached.state, seat, request.move_id, legal)
            move = self._typed_move(entry, request.move)
            return move, driver.play(game, cached.state, seat, move, legal)

    @staticmethod
    def _typed_move(entry: Entry, msg: pb.Move) -> Any:
        arm = msg.WhichOneof("game")
        if arm != entry.wire.arm:
            raise MalformedMoveError(
                f"this is a {entry.game.title} game; the move is for {arm or 'no game'}"
            )
        return entry.wire.move_from_proto(getattr(msg, arm))

    async def _commit(
        self,
        entry: Entry,
        game_id: str,
        cached: Cached,
        seat: int,
        move: Any,
        state: Any,
        request_key: str | None,
        now_ms: int,
    ) -> tuple[CommitOutcome, Cached]:
        """Write the new state (and the seat record, clocks charged at the store's time
        ``now_ms``), its log entry and the request id in one compare-and-set.

        Also returns the state at the version the commit makes if it lands, with the
        snapshots of the mover and of this process's sessions and watches of the game
        built while the commit's reply travels (``Store.commit``'s ``meanwhile``): the
        process works instead of waiting for the store, and the reply is often there
        when it is done. Kept only if the commit lands."""
        game = entry.game
        public = game.public_move(cached.state, seat, move)
        record = cached.record
        if record.clock is not None:
            after = () if game.result(state) is not None else game.to_act(state)
            record = hosting.charged(record, game.to_act(cached.state), after, seat, now_ms)
        logged = LogEntry(
            version=cached.version + 1,
            seat=seat,
            move_id=move.key,
            description=game.describe(cached.state, move),
            public_move_id=None if public is None else public.key,
            public_description=(
                f"Seat {seat} made a hidden move"
                if public is None
                else game.describe(cached.state, public)
            ),
            time_ms=self.clock.estimate(),
        )
        finished = hosting.is_over(game, state, record)
        ahead = Cached(cached.version + 1, state, cached.meta, record)
        with self.store_timer("commit"):
            outcome = await self.store.commit(
                game_id,
                cached.version,
                pack(RECORD.encode(record), game.encode(state)),
                ENTRY.encode(logged),
                finished=finished,
                request_key=request_key,
                meanwhile=functools.partial(self._build_ahead, entry, game_id, ahead, seat),
            )
        if outcome.status is CommitStatus.APPLIED:
            self.metrics.inc(self.metrics.moves_applied, game.id)
            if finished:
                self.metrics.inc(self.metrics.games_finished, game.id)
        return outcome, ahead

    def _build_ahead(self, entry: Entry, game_id: str, ahead: Cached, seat: int) -> None:
        """The snapshots a landed move sends at once: the mover's and those of this
        process's sessions and watches of the game (each viewer's, redacted as always)."""
        self._snapshot_core(entry, game_id, ahead, seat)
        for viewer in self.viewers_here(game_id):
            self._snapshot_core(entry, game_id, ahead, viewer)

    def system_entry(self, cached: Cached, seat: int, move_id: str, text: str) -> LogEntry:
        """The log entry of a system action on ``seat`` at the version after ``cached``
        (a join, a resignation, a timeout): public, with no move behind it."""
        return LogEntry(
            version=cached.version + 1,
            seat=seat,
            move_id=move_id,
            description=text,
            public_move_id=None,
            public_description="",
            time_ms=self.clock.estimate(),
        )

    async def commit_record(
        self,
        entry: Entry,
        game_id: str,
        cached: Cached,
        record: GameRecord,
        logged: LogEntry,
        request_key: str | None = None,
    ) -> tuple[CommitOutcome, Cached | None]:
        """Commit a change of the seat record alone (a system entry): the state as it is;
        with the state at the version it made when it landed."""
        finished = hosting.is_over(entry.game, cached.state, record)
        with self.store_timer("commit"):
            outcome = await self.store.commit(
                game_id,
                cached.version,
                pack(RECORD.encode(record), entry.game.encode(cached.state)),
                ENTRY.encode(logged),
                finished=finished,
                request_key=request_key,
            )
        if outcome.status is not CommitStatus.APPLIED:
            return outcome, None
        fresh = self.cache.put(game_id, outcome.version, cached.state, cached.meta, record)
        await self.after_commit(entry, game_id, fresh)
        return outcome, fresh

    async def after_commit(self, entry: Entry, game_id: str, cached: Cached) -> None:
        """Note when the game next needs the service (a deadline, a bot's turn), and start
        a bot's decision here at once."""
        record = cached.record
        if record.clock is None and not any(seat.bot for seat in record.seats):
            return
        due = 0
        if not hosting.is_over(entry.game, cached.state, record):
            due = hosting.next_deadline(record)
            if self.bots.to_play(entry, cached) is not None:
                due = self.clock.estimate()
                self.bots.kick(entry, game_id, cached)
        with contextlib.suppress(StoreUnavailableError):
            await self.store.due_set(game_id, due)

    async def play_as(
        self, game_id: str, seat: int, move_id: str, expected: int, request_id: str
    ) -> int:
        """Play ``move_id`` as ``seat`` (the service playing a seat itself) through the
        ordinary move path; the version it made."""
        cached = await self.current_state(game_id)
        token = self.tokens.issue(game_id, seat, cached.meta.salt)
        request = spb.ApplyMoveRequest(
            name=f"games/{game_id}",
            move_id=move_id,
            expected_version=expected,
            request_id=request_id,
        )
        played = await self.play_move(Caller(token, "service", service=True), request)
        return played.cached.version

    async def replay_answer(
        self,
        entry: Entry,
        game_id: str,
        current: Cached,
        seat: int,
        version: int,
        rpc: str = "ApplyMove",
    ) -> Played:
        """The first answer to a retried request: the state at the version it made."""
        self.metrics.inc(self.metrics.idempotent_replays, rpc)
        if current.version == version:
            return Played(entry, game_id, current, seat, replayed=True)
        rebuilt = await self._state_at(entry, game_id, current.meta, version)
        return Played(entry, game_id, rebuilt, seat, replayed=True)

    async def _state_at(self, entry: Entry, game_id: str, meta: GameMeta, version: int) -> Cached:
        """Rebuild the game at ``version`` from the seed, the first record and the log."""
        with self.store_timer("read_log"):
            blobs = await self.store.read_log(game_id, 0, version - 1)
        game = entry.game
        state = driver.new_game(game, meta.seat_count, meta.options_dict, meta.seed)
        record = meta.first_record
        for blob in blobs:
            state, record = self._replay_one(entry, state, record, self.log_entry(blob))
        return Cached(version, state, meta, record)

    @staticmethod
    def _replay_one(
        entry: Entry, state: Any, record: GameRecord, logged: LogEntry
    ) -> tuple[Any, GameRecord]:
        """One log entry replayed: a move through the rules, a system entry on the record."""
        if logged.system:
            return state, apply_system(record, logged.move_id)
        return driver.play_id(entry.game, state, logged.seat, logged.move_id)[1], record

    # -- helpers ----------------------------------------------------------------------

    async def load(self, game_id: str, request_key: str | None = None) -> Loaded:
        with self.store_timer("load"):
            loaded = await self.store.load(game_id, request_key)
        if loaded is None:
            raise GameNotFoundError(f"there is no game 'games/{game_id}'")
        return loaded

    def meta_of(self, game_id: str, loaded: Loaded) -> GameMeta:
        """The game's metadata: immutable, so the cached copy when there is one."""
        known = self.cache.meta(game_id)
        if known is not None:
            return known
        try:
            return META.decode(loaded.meta)
        except ValueError as exc:
            raise CorruptGameError("the stored game metadata cannot be read") from exc

    @staticmethod
    def log_entry(blob: bytes) -> LogEntry:
        try:
            return ENTRY.decode(blob)
        except ValueError as exc:
            raise CorruptGameError("a stored move-log entry cannot be read") from exc

    def _decode(self, entry: Entry, blob: bytes) -> Any:
        try:
            return entry.game.decode(blob)
        except ValueError as exc:
            raise CorruptGameError("the stored game state cannot be read") from exc

    def cached_state(
        self, entry: Entry, game_id: str, meta: GameMeta, version: int, blob: bytes
    ) -> Cached:
        """The decoded state at ``version``, decoding only when the cache lacks it."""
        cached = self.cache.at(game_id, version)
        if cached is None:
            try:
                record, state = unpack(blob, meta)
            except ValueError as exc:
                raise CorruptGameError("the stored seat record cannot be read") from exc
            cached = self.cache.put(game_id, version, self._decode(entry, state), meta, record)
        return cached

    def legal(self, entry: Entry, cached: Cached, seat: int) -> Sequence[Any]:
        legal = cached.legal.get(seat)
        if legal is None:
            legal = cached.legal[seat] = driver.legal_moves_for(entry.game, cached.state, seat)
        return legal

    def snapshot(
        self,
        entry: Entry,
        game_id: str,
        cached: Cached,
        viewer: int,
        seen: tuple[Seen, ...] | None = None,
    ) -> bytes:
        """The viewer's snapshot at the cached version — built once per viewer — with the
        seat list (clocks, presence: ``seen``, or as last read) and the server's clock added
        as it is sent."""
        if seen is None:
            seen = self.presence.known(game_id, cached.meta.seat_count)
        tail = self.writer.seats_tail(cached.record, seen, self.clock.estimate())
        return self._snapshot_core(entry, game_id, cached, viewer) + tail

    def _snapshot_core(self, entry: Entry, game_id: str, cached: Cached, viewer: int) -> bytes:
        built = cached.snapshots.get(viewer)
        if built is None:
            legal = self.legal(entry, cached, viewer) if hosted.plays(cached, viewer) else ()
            built = cached.snapshots[viewer] = self.writer.snapshot(
                entry,
                game_id,
                cached.meta,
                cached.version,
                cached.state,
                viewer,
                legal,
                cached.record,
            )
        return built

    def viewer_of(self, caller: Caller, game_id: str, meta: GameMeta) -> int:
        if caller.token is None:
            return SPECTATOR
        return self.tokens.seat_of(game_id, meta.salt, meta.seat_count, caller.token)

    def _rule_timer(self, game: str, operation: str) -> Timer:
        return self.metrics.timer(self.metrics.rule_seconds, game, operation)

    def store_timer(self, operation: str) -> Timer:
        return self.metrics.timer(self.metrics.store_seconds, operation)


def _places(seats: tuple[Seat, ...]) -> tuple[tuple[bool, str], ...]:
    """What a CreateGame asked of each seat: open for the lobby (listed), or a bot's."""
    return tuple((seat.open, seat.bot) for seat in seats)


def _new_game_id() -> str:
    return secrets.token_urlsafe(9)

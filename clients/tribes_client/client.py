"""A small typed client for the tribes service: ``AsyncClient`` and the sync ``Client``.

The client keeps the seat token (sent as ``authorization: Bearer <token>``), gives
every mutating call a fresh ``request_id`` and reuses it when it retries after
UNAVAILABLE or a deadline, so a retry can never play a move twice. Failures raise
``TribesError`` with the gRPC code, the service's reason and its metadata.

    async with AsyncClient("127.0.0.1:50051") as client:
        game, tokens = await client.create_game("five_tribes", seats=3)
        seat0 = client.with_token(tokens[0])
        snap = await seat0.get_game(game.name)
        snap = await seat0.apply_move(game.name, move_id=snap.legal_moves[0].id,
                                      expected_version=snap.version)
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import uuid
from collections.abc import AsyncGenerator, Awaitable, Callable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any, TypeVar

import grpc
from google.rpc import error_details_pb2, status_pb2

from tribes_client.v1 import common_pb2 as pb
from tribes_client.v1 import game_service_pb2 as spb
from tribes_client.v1 import game_service_pb2_grpc as spb_grpc

T = TypeVar("T")

DEFAULT_TARGET = "127.0.0.1:50051"
#: The WebSocket subprotocol of a play session in binary protobuf frames (README "Play
#: sessions"); the service's ``tribes.http.gateway.BINARY_SUBPROTOCOL``.
PLAY_SUBPROTOCOL = "tribes.v1.proto"
_RETRYABLE = (grpc.StatusCode.UNAVAILABLE, grpc.StatusCode.DEADLINE_EXCEEDED)


@dataclass
class TribesError(Exception):
    """A failed call: gRPC code, the service's reason (e.g. ILLEGAL_MOVE) and message."""

    code: grpc.StatusCode
    reason: str
    message: str
    metadata: dict[str, str] = field(default_factory=dict)

    def __str__(self) -> str:
        return f"{self.code.name} {self.reason}: {self.message}"

    @classmethod
    def from_rpc_error(cls, err: grpc.aio.AioRpcError) -> TribesError:
        for key, value in err.trailing_metadata() or ():
            if key == "grpc-status-details-bin":
                reason, metadata = _reason_of(status_pb2.Status.FromString(value))
                return cls(err.code(), reason, err.details() or "", metadata)
        return cls(err.code(), "", err.details() or "")

    @classmethod
    def from_status(cls, status: status_pb2.Status) -> TribesError:
        """The error a ``google.rpc.Status`` carries (a session's ``MoveRejected``)."""
        reason, metadata = _reason_of(status)
        code = _CODES.get(status.code, grpc.StatusCode.UNKNOWN)
        return cls(code, reason, status.message, metadata)


_CODES = {code.value[0]: code for code in grpc.StatusCode}


def _reason_of(status: status_pb2.Status) -> tuple[str, dict[str, str]]:
    """The ``ErrorInfo`` reason and metadata among a status's details."""
    for detail in status.details:
        info = error_details_pb2.ErrorInfo()
        if detail.Unpack(info):
            return info.reason, dict(info.metadata)
    return "", {}


class AsyncClient:
    """Async client; one channel, optionally acting for one seat."""

    def __init__(
        self,
        target: str = DEFAULT_TARGET,
        *,
        token: str | None = None,
        timeout: float = 10.0,
        retries: int = 2,
        channel: grpc.aio.Channel | None = None,
    ) -> None:
        self.target = target
        self.token = token
        self.timeout = timeout
        self.retries = retries
        self._owns_channel = channel is None
        self._channel = channel if channel is not None else grpc.aio.insecure_channel(target)
        self._stub = spb_grpc.GameServiceStub(self._channel)

    def with_token(self, token: str | None) -> AsyncClient:
        """A client on the same channel acting for the seat of ``token``."""
        return AsyncClient(
            self.target,
            token=token,
            timeout=self.timeout,
            retries=self.retries,
            channel=self._channel,
        )

    async def close(self) -> None:
        if self._owns_channel:
            await self._channel.close()

    async def __aenter__(self) -> AsyncClient:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    @property
    def _metadata(self) -> tuple[tuple[str, str], ...] | None:
        return (("authorization", f"Bearer {self.token}"),) if self.token else None

    async def _call(self, method: Callable[..., Awaitable[T]], request: Any) -> T:
        """One unary call, retried on UNAVAILABLE/DEADLINE (requests carry their id)."""
        for attempt in range(self.retries + 1):
            try:
                return await method(request, metadata=self._metadata, timeout=self.timeout)
            except grpc.aio.AioRpcError as err:
                if err.code() in _RETRYABLE and attempt < self.retries:
                    await asyncio.sleep(0.1 * 2**attempt)
                    # 1 s, then 2 s, ...: a wrong address still fails within seconds
                    await self._reachable(min(self.timeout, 2.0**attempt))
                    continue
                raise TribesError.from_rpc_error(err) from None
        raise AssertionError("unreachable")

    async def _reachable(self, seconds: float) -> None:
        """Wait up to ``seconds`` for the channel to reach a server: after a replica
        stopped, its address may serve nothing for a while (a deploy), and the channel
        then fails calls at once until it connects again."""
        with contextlib.suppress(TimeoutError):
            async with asyncio.timeout(max(0.0, seconds)):
                await self._channel.channel_ready()

    async def list_game_types(self) -> list[pb.GameType]:
        response = await self._call(self._stub.ListGameTypes, spb.ListGameTypesRequest())
        return list(response.game_types)

    async def create_game(
        self,
        game_type: str,
        seats: int,
        options: Mapping[str, str] | None = None,
        *,
        seed: int | None = None,
        request_id: str | None = None,
        listed: bool = False,
        time_control: pb.TimeControl | None = None,
        bots: Mapping[int, str] | None = None,
    ) -> tuple[pb.GameSnapshot, list[str]]:
        """Create a game; returns its (spectator) snapshot and the seat tokens.

        A ``listed`` game goes to the lobby and returns no tokens (seats are joined);
        ``bots`` maps seats to bot kinds, whose tokens come back empty.
        """
        request = spb.CreateGameRequest(
            game_type=game_type,
            seat_count=seats,
            options=dict(options or {}),
            request_id=request_id or uuid.uuid4().hex,
            listed=listed,
            bots=dict(bots or {}),
        )
        if seed is not None:
            request.seed = seed
        if time_control is not None:
            request.time_control.CopyFrom(time_control)
        response = await self._call(self._stub.CreateGame, request)
        return response.game, list(response.seat_tokens)

    async def get_game(self, name: str) -> pb.GameSnapshot:
        return await self._call(self._stub.GetGame, spb.GetGameRequest(name=name))

    async def apply_move(
        self,
        name: str,
        *,
        move_id: str | None = None,
        move: pb.Move | None = None,
        expected_version: int = 0,
        request_id: str | None = None,
    ) -> pb.GameSnapshot:
        """Play one move (by legal-move id or typed) for this client's seat."""
        request = _move_request(name, move_id, move, expected_version, request_id)
        return await self._call(self._stub.ApplyMove, request)

    async def list_moves(self, name: str, *, page_size: int = 100) -> list[pb.MoveRecord]:
        """The whole move log (all pages) as this client may see it."""
        records: list[pb.MoveRecord] = []
        token = ""
        while True:
            response = await self._call(
                self._stub.ListMoves,
                spb.ListMovesRequest(name=name, page_size=page_size, page_token=token),
            )
            records.extend(response.moves)
            token = response.next_page_token
            if not token:
                return records

    async def list_games(
        self,
        *,
        game_type: str = "",
        open_only: bool = False,
        page_size: int = 0,
        page_token: str = "",
    ) -> spb.ListGamesResponse:
        """One page of the lobby (newest first); pass ``next_page_token`` on for more."""
        request = spb.ListGamesRequest(
            game_type=game_type, open_only=open_only, page_size=page_size, page_token=page_token
        )
        return await self._call(self._stub.ListGames, request)

    async def join_game(
        self,
        name: str,
        *,
        seat: int | None = None,
        player_name: str = "",
        request_id: str | None = None,
    ) -> spb.JoinGameResponse:
        """Claim a seat of a listed game (the first open one unless ``seat``)."""
        request = spb.JoinGameRequest(
            name=name, player_name=player_name, request_id=request_id or uuid.uuid4().hex
        )
        if seat is not None:
            request.seat = seat
        return await self._call(self._stub.JoinGame, request)

    async def resign(self, name: str, *, request_id: str | None = None) -> pb.GameSnapshot:
        """Resign this client's seat; answers with the seat's snapshot."""
        request = spb.ResignRequest(name=name, request_id=request_id or uuid.uuid4().hex)
        return await self._call(self._stub.Resign, request)

    async def watch(
        self, name: str, *, presence: bool = False
    ) -> AsyncGenerator[pb.GameSnapshot, None]:
        """Snapshots as the game changes, until it ends; with ``presence``, also the
        current version again whenever a seat comes or goes.

        A stream that ends with UNAVAILABLE is opened again (``_Reopening``: with a
        back-off, for up to ``timeout`` seconds; ``retries=0``: not at all), and goes on
        from the game's newest version; a version already yielded is
        not yielded again (with ``presence`` it may be, as a presence change repeats
        one)."""
        request = spb.WatchGameRequest(name=name, presence=presence)
        reopening = _Reopening(self)
        newest = 0
        while True:
            call = self._stub.WatchGame(request, metadata=self._metadata)
            try:
                async for snapshot in call:
                    reopening.delivered()
                    if snapshot.version > newest or presence:
                        newest = max(newest, snapshot.version)
                        yield snapshot
                return
            except grpc.aio.AioRpcError as err:
                ended = err
            finally:
                call.cancel()
            await reopening.after(ended)

    def play(self, name: str, *, from_version: int | None = None) -> PlaySession:
        """A play session for this client's seat (none: a spectator's): see ``PlaySession``.

        async with seat.play(game.name) as session:
            async for event in session:
                if event.WhichOneof("kind") == "snapshot" and ...:
                    await session.move(move_id=..., expected_version=...)
        """
        return PlaySession(self, name, from_version)


def _move_request(
    name: str,
    move_id: str | None,
    move: pb.Move | None,
    expected_version: int,
    request_id: str | None,
) -> spb.ApplyMoveRequest:
    """An ``ApplyMoveRequest`` (in a unary call or a session) with a fresh request id
    unless one is given."""
    if (move_id is None) == (move is None):
        raise ValueError("give exactly one of move_id and move")
    request = spb.ApplyMoveRequest(
        name=name, expected_version=expected_version, request_id=request_id or uuid.uuid4().hex
    )
    if move is not None:
        request.move.CopyFrom(move)
    else:
        request.move_id = move_id or ""
    return request


class _Reopening:
    """When to open a stream again that ended with UNAVAILABLE (its replica is stopping,
    or lost the store's change feed): after a back-off, once the channel reaches a server
    again, for up to the client's ``timeout`` from the first failure since the stream last
    delivered something (``retries=0``: never)."""

    def __init__(self, client: AsyncClient) -> None:
        self._client = client
        self._pause = 0.1
        self._until: float | None = None

    def delivered(self) -> None:
        self._pause, self._until = 0.1, None

    async def after(self, ended: grpc.aio.AioRpcError) -> None:
        """Wait until the stream may be opened again, or raise its end as TribesError."""
        loop, client = asyncio.get_running_loop(), self._client
        if self._until is None:
            self._until = loop.time() + client.timeout
        retry = ended.code() == grpc.StatusCode.UNAVAILABLE and client.retries > 0
        if not retry or loop.time() >= self._until:
            raise TribesError.from_rpc_error(ended) from None
        await asyncio.sleep(self._pause)
        self._pause = min(self._pause * 2, 2.0)
        await client._reachable(self._until - loop.time())


class PlaySession:
    """One seat's ``Play`` stream (README "Play sessions"): iterate it for ``PlayEvent``
    messages — a ``snapshot`` after every change of the game, whoever made it, and a
    ``rejected`` for each refused move of this session — until the game ends; ``move``
    plays a move in the stream and returns the snapshot that answers it (or raises the
    refusal as ``TribesError``).

    A stream that ends with UNAVAILABLE is opened again as ``watch``'s is (``_Reopening``),
    from the newest version seen (``from_version``), and every move still
    unanswered is sent again with its ``request_id``, so it is played once. A snapshot is
    yielded once (a newer version, or the same version with a new seat list). At most
    ``MAX_EVENTS`` events wait to be taken: a reader further behind (or none: a bot that
    only calls ``move`` and reads ``snapshot``) loses the oldest. A session-ending error
    (a wrong token, no such game) is raised by the iteration and by every unanswered move.
    """

    #: events kept for the iteration to take (the oldest go first)
    MAX_EVENTS = 64

    def __init__(self, client: AsyncClient, name: str, from_version: int | None) -> None:
        self._client, self._name, self._from = client, name, from_version
        self._task: asyncio.Task[None] | None = None
        self._call: Any = None
        self._writing = asyncio.Lock()
        self._pending: dict[str, tuple[spb.PlayRequest, asyncio.Future[pb.GameSnapshot]]] = {}
        self._events: collections.deque[spb.PlayEvent] = collections.deque(maxlen=self.MAX_EVENTS)
        self._ready = asyncio.Event()
        self._state = "open"  # then "ended" (the game is over), "failed" or "closed"
        self._failure: TribesError | None = None
        self.snapshot: pb.GameSnapshot | None = None  # the newest received

    async def __aenter__(self) -> PlaySession:
        self._start()
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    def __aiter__(self) -> PlaySession:
        return self

    async def __anext__(self) -> spb.PlayEvent:
        self._start()
        while not self._events:
            if self._failure is not None:
                raise self._failure
            if self._state != "open":
                raise StopAsyncIteration
            self._ready.clear()
            await self._ready.wait()
        return self._events.popleft()

    async def move(
        self,
        *,
        move_id: str | None = None,
        move: pb.Move | None = None,
        expected_version: int = 0,
        request_id: str | None = None,
    ) -> pb.GameSnapshot:
        """Play one move in the session: the snapshot that includes it (also yielded as an
        event), or its refusal raised as ``TribesError`` (the session goes on)."""
        applied = _move_request(self._name, move_id, move, expected_version, request_id)
        self._start()
        if self._failure is not None:
            raise self._failure
        if self._state == "closed":
            raise _closed()
        request = spb.PlayRequest(move=applied)
        answer: asyncio.Future[pb.GameSnapshot] = asyncio.get_running_loop().create_future()
        key = request.move.request_id
        self._pending[key] = (request, answer)
        try:
            if self._state == "ended":  # the game is over: answered as ApplyMove answers
                return await self._apply(applied)
            if self._call is not None:
                # a stream that just ended refuses it: it goes again on the next one
                with contextlib.suppress(asyncio.InvalidStateError, grpc.aio.AioRpcError):
                    await self._write(self._call, request)
            return await answer
        finally:
            self._pending.pop(key, None)

    async def close(self) -> None:
        """End the session: the iteration stops, unanswered moves raise CANCELLED."""
        if self._task is not None:
            self._task.cancel()
            # a defect's exception has become the session's failure already
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._task
        self._finish("closed")

    # -- the stream ------------------------------------------------------------------------

    def _start(self) -> None:
        if self._task is None and self._state == "open":
            self._task = asyncio.get_running_loop().create_task(self._run())

    async def _run(self) -> None:
        try:
            await self._serve()
        except Exception as exc:  # a defect here must end the iteration, not hang it
            failure = TribesError(grpc.StatusCode.UNKNOWN, "CLIENT_ERROR", str(exc)[:200])
            self._finish("failed", failure)
            raise

    async def _serve(self) -> None:
        client, reopening = self._client, _Reopening(self._client)
        while True:
            call = client._stub.Play(metadata=client._metadata)
            try:
                opening = spb.OpenSession(name=self._name)
                held = self.snapshot.version if self.snapshot is not None else self._from
                if held is not None:
                    opening.from_version = held
                # a stream the server already ended refuses writes; its read says why
                with contextlib.suppress(asyncio.InvalidStateError):
                    await self._write(call, spb.PlayRequest(open=opening))
                    self._call = call
                    for request, _ in list(self._pending.values()):
                        await self._write(call, request)
                while (event := await call.read()) is not grpc.aio.EOF:
                    reopening.delivered()
                    self._receive(event)
                self._call = None
                await self._settle()
                self._finish("ended")
                return
            except grpc.aio.AioRpcError as err:
                self._call, ended = None, err
            finally:
                call.cancel()
            try:
                await reopening.after(ended)
            except TribesError as failure:
                self._finish("failed", failure)
                return

    async def _write(self, call: Any, request: spb.PlayRequest) -> None:
        async with self._writing:  # one write at a time on a stream
            await call.write(request)

    def _receive(self, event: spb.PlayEvent) -> None:
        kind = event.WhichOneof("kind")
        pending = self._pending.get(event.request_id) if event.request_id else None
        answer = pending[1] if pending is not None else None
        if kind == "snapshot":
            snap = event.snapshot
            if answer is not None and not answer.done():
                answer.set_result(snap)
            last = self.snapshot
            if last is not None and (
                snap.version < last.version
                or (snap.version == last.version and list(snap.seats) == list(last.seats))
            ):
                return  # seen (a retried move's answer, or a repeat after reconnecting)
            self.snapshot = snap
        elif kind == "rejected" and answer is not None and not answer.done():
            answer.set_exception(TribesError.from_status(event.rejected.status))
        self._events.append(event)
        self._ready.set()

    async def _settle(self) -> None:
        """Moves left unanswered when the game ended: answered as ``ApplyMove`` would
        (the move's first answer if it was played, else the refusal)."""
        while unsettled := [(r, a) for r, a in self._pending.values() if not a.done()]:
            for request, answer in unsettled:
                try:
                    played = await self._apply(request.move)
                except TribesError as exc:
                    if not answer.done():
                        answer.set_exception(exc)
                else:
                    if not answer.done():
                        answer.set_result(played)

    async def _apply(self, request: spb.ApplyMoveRequest) -> pb.GameSnapshot:
        client = self._client
        return await client._call(client._stub.ApplyMove, request)

    def _finish(self, state: str, failure: TribesError | None = None) -> None:
        """The session is over: the game "ended", it "failed" (``failure``) or was "closed"."""
        if self._state == "open":
            self._state, self._failure = state, failure
        for _, answer in self._pending.values():
            if not answer.done():
                answer.set_exception(self._failure or _closed())
        self._ready.set()


def _closed() -> TribesError:
    return TribesError(grpc.StatusCode.CANCELLED, "SESSION_CLOSED", "the session was closed")


async def _next(stream: AsyncGenerator[T, None]) -> T:
    return await anext(stream)


class Client:
    """The same API, synchronous: drives an ``AsyncClient`` on a private event loop."""

    def __init__(
        self, target: str = DEFAULT_TARGET, *, token: str | None = None, **kw: Any
    ) -> None:
        self._loop = asyncio.new_event_loop()
        self._async = self._loop.run_until_complete(self._make(target, token, kw))
        self._owner = True

    @staticmethod
    async def _make(target: str, token: str | None, kw: dict[str, Any]) -> AsyncClient:
        return AsyncClient(target, token=token, **kw)

    @classmethod
    def _wrapping(cls, loop: asyncio.AbstractEventLoop, inner: AsyncClient) -> Client:
        client = cls.__new__(cls)
        client._loop, client._async, client._owner = loop, inner, False
        return client

    @property
    def token(self) -> str | None:
        return self._async.token

    def with_token(self, token: str | None) -> Client:
        return Client._wrapping(self._loop, self._async.with_token(token))

    def _run(self, coro: Awaitable[T]) -> T:
        return self._loop.run_until_complete(coro)

    def list_game_types(self) -> list[pb.GameType]:
        return self._run(self._async.list_game_types())

    def create_game(
        self, game_type: str, seats: int, options: Mapping[str, str] | None = None, **kw: Any
    ) -> tuple[pb.GameSnapshot, list[str]]:
        return self._run(self._async.create_game(game_type, seats, options, **kw))

    def get_game(self, name: str) -> pb.GameSnapshot:
        return self._run(self._async.get_game(name))

    def apply_move(self, name: str, **kw: Any) -> pb.GameSnapshot:
        return self._run(self._async.apply_move(name, **kw))

    def list_moves(self, name: str, **kw: Any) -> list[pb.MoveRecord]:
        return self._run(self._async.list_moves(name, **kw))

    def list_games(self, **kw: Any) -> spb.ListGamesResponse:
        return self._run(self._async.list_games(**kw))

    def join_game(self, name: str, **kw: Any) -> spb.JoinGameResponse:
        return self._run(self._async.join_game(name, **kw))

    def resign(self, name: str, **kw: Any) -> pb.GameSnapshot:
        return self._run(self._async.resign(name, **kw))

    def watch(self, name: str, *, presence: bool = False) -> Iterator[pb.GameSnapshot]:
        """Snapshots as the game changes (``presence``: as the async client's). An
        interrupt (Ctrl-C) while waiting cancels the pending read and the stream before
        it propagates, so it leaves nothing running on the loop."""
        stream = self._async.watch(name, presence=presence)
        try:
            while True:
                step = self._loop.create_task(_next(stream))
                try:
                    snapshot = self._loop.run_until_complete(step)
                except StopAsyncIteration:
                    return
                except BaseException:
                    step.cancel()
                    with contextlib.suppress(BaseException):
                        self._loop.run_until_complete(step)
                    raise
                yield snapshot
        finally:
            with contextlib.suppress(RuntimeError, grpc.aio.AioRpcError, TribesError):
                self._run(stream.aclose())

    def close(self) -> None:
        """Close the channel and loop (clients made by ``with_token`` share them)."""
        if self._owner:
            self._run(self._async.close())
            self._loop.close()

    def __enter__(self) -> Client:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

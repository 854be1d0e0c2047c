"""The snapshot step of the core: game-agnostic messages (snapshots, legal moves, log
records, game types) built from a game's rules and its wire module."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from tribes.core import hosting
from tribes.core.catalog import Entry
from tribes.core.records import Clock, GameMeta, GameRecord, LogEntry
from tribes.engine.game import SPECTATOR
from tribes.v1 import common_pb2 as pb
from tribes.v1 import game_service_pb2 as spb
from tribes.wire import protowire as pw


def game_name(game_id: str) -> str:
    return f"games/{game_id}"


class SnapshotWriter:
    """Serializes snapshots straight to bytes, remembering the parts that repeat.

    A ``GameSnapshot`` is assembled field by field (``tribes.wire.protowire``): each
    legal move's entry is remembered by (game, move id, description) and each game's
    options map by its value, so a reply costs the view plus a few dictionary lookups.
    The result parses as an ordinary ``tribes.v1.GameSnapshot``.
    """

    _LIMIT = 50_000  # remembered legal-move entries before the memo is reset

    def __init__(self) -> None:
        self._legal: dict[tuple[str, str, str], bytes] = {}
        self._options: dict[tuple[tuple[str, str], ...], bytes] = {}
        #: id(record) -> (record, presence, the seats part); the record is held, so its
        #: id is not reused while remembered
        self._seats: dict[int, tuple[GameRecord, tuple[tuple[bool, int], ...], bytes]] = {}

    def snapshot(
        self,
        entry: Entry,
        game_id: str,
        meta: GameMeta,
        version: int,
        state: Any,
        viewer: int,
        legal: Sequence[Any],
        record: GameRecord | None = None,
    ) -> bytes:
        """The caller's snapshot without its seat list and clock fields (``seats_tail``
        adds them when it is sent: they change without a new version)."""
        game, wire = entry.game, entry.wire
        record = record if record is not None else meta.first_record
        result = hosting.result(game, state, record)
        finished = result is not None
        to_act = () if finished else game.to_act(state)
        parts = [
            pw.string_field(1, game_name(game_id)),
            pw.string_field(2, game.id),
            pw.uint_field(3, version),
            pw.uint_field(4, finished),
            pw.packed_field(5, to_act),
            pw.uint_field(6, viewer),
            pw.packed_field(7, result.scores if result is not None else game.scores(state, viewer)),
        ]
        if legal and not finished:
            parts.append(self._legal_moves(entry, state, legal))
        view = game.view(state, viewer)
        if wire.view_to_bytes is not None:
            parts.append(pw.message_field(9, wire.view_to_bytes(view)))
        else:
            parts.append(pw.message_field(9, wire.view_to_proto(view).SerializeToString()))
        if result is not None:
            summary = pb.Result(
                scores=result.scores,
                ranks=result.ranks,
                winners=result.winners,
                summary=result.summary,
            )
            parts.append(pw.message_field(10, summary.SerializeToString()))
        parts.append(pw.uint_field(11, meta.seat_count))
        parts.append(self._options_field(meta.options))
        parts.append(pw.uint_field(14, record.listed))
        if record.clock is not None:
            parts.append(self._clock_field(record.clock))
        return b"".join(parts)

    def seats_tail(
        self, record: GameRecord, presence: Sequence[tuple[bool, int]], now_ms: int
    ) -> bytes:
        """Fields 13 (every seat: name, open, bot, resigned, clocks, presence), 16 (the
        game's deadline) and, for timed games, 17 (the server's clock): appended to a
        snapshot on the way out. The seats part is remembered per (record, presence); an
        untimed game's replies stay the same bytes for the same version."""
        # by the record's identity (records are immutable; hashing one walks every seat)
        known = self._seats.get(id(record))
        if known is not None and known[0] is record and known[1] == presence:
            encoded = known[2]
        else:
            if len(self._seats) > self._LIMIT:
                self._seats.clear()
            deadlines = hosting.deadlines(record)
            encoded = b"".join(
                pw.message_field(
                    13,
                    pw.uint_field(1, i)
                    + pw.string_field(2, seat.name)
                    + pw.uint_field(3, seat.open)
                    + pw.string_field(4, seat.bot)
                    + pw.uint_field(5, seat.resigned)
                    + pw.uint_field(6, seat.timed_out)
                    + pw.uint_field(7, seat.remaining_ms if record.clock is not None else 0)
                    + pw.uint_field(8, seat.since_ms)
                    + pw.uint_field(9, deadlines[i])
                    + pw.uint_field(10, presence[i][0] if i < len(presence) else False)
                    + pw.uint_field(11, presence[i][1] if i < len(presence) else 0),
                )
                for i, seat in enumerate(record.seats)
            ) + pw.uint_field(16, hosting.next_deadline(record))
            self._seats[id(record)] = (record, tuple(presence), encoded)
        if record.clock is None:
            return encoded
        return encoded + pw.uint_field(17, now_ms)

    def _clock_field(self, clock: Clock) -> bytes:
        return pw.message_field(
            15,
            pw.uint_field(1, clock.per_move_ms // 1000)
            + pw.uint_field(2, clock.initial_ms // 1000)
            + pw.uint_field(3, clock.increment_ms // 1000)
            + pw.string_field(4, "forfeit" if clock.forfeit else "bot"),
        )

    def _legal_moves(self, entry: Entry, state: Any, legal: Sequence[Any]) -> bytes:
        memo = self._legal
        if len(memo) > self._LIMIT:
            memo.clear()
        game_id, describe, to_proto = entry.game.id, entry.game.describe, entry.wire.move_to_proto
        out = []
        for move in legal:
            key, description = move.key, describe(state, move)
            memo_key = (game_id, key, description)
            encoded = memo.get(memo_key)
            if encoded is None:
                body = (
                    pw.string_field(1, key)
                    + pw.string_field(2, description)
                    + pw.message_field(3, to_proto(move).SerializeToString())
                )
                encoded = memo[memo_key] = pw.message_field(8, body)
            out.append(encoded)
        return b"".join(out)

    def _options_field(self, options: tuple[tuple[str, str], ...]) -> bytes:
        encoded = self._options.get(options)
        if encoded is None:
            encoded = self._options[options] = b"".join(
                pw.message_field(12, pw.string_field(1, k) + pw.string_field(2, v))
                for k, v in options
            )
        return encoded


def create_response(snapshot: bytes, tokens: Sequence[str]) -> bytes:
    """``CreateGameResponse`` bytes: the snapshot and the seat tokens (every element of a
    repeated field is written, an empty one too: a bot's seat keeps its place)."""
    return pw.message_field(1, snapshot) + b"".join(pw.message_field(2, t.encode()) for t in tokens)


def join_response(seat: int, token: str, snapshot: bytes) -> bytes:
    """``JoinGameResponse`` bytes: the seat, its token and its snapshot."""
    return pw.uint_field(1, seat) + pw.string_field(2, token) + pw.message_field(3, snapshot)


def move_record(entry: Entry, record: LogEntry, viewer: int) -> pb.MoveRecord:
    """A log entry as ``viewer`` may see it: in full for the mover, else redacted."""
    out = pb.MoveRecord(version=record.version, seat=record.seat, time_unix_ms=record.time_ms)
    if record.system:  # public facts: who joined, resigned, ran out of time
        out.system = True
        out.move_id = record.move_id
        out.description = record.description
        return out
    if viewer != SPECTATOR and viewer == record.seat:
        move_id, description = record.move_id, record.description
    elif record.public_move_id is None:
        out.hidden = True
        out.description = record.public_description
        return out
    else:
        move_id, description = record.public_move_id, record.public_description
    out.move_id = move_id
    out.description = description
    out.move.CopyFrom(entry.wire.move_to_proto(entry.game.parse_move(move_id)))
    return out


def game_types(entries: Iterable[Entry], bot_kinds: Sequence[str]) -> spb.ListGameTypesResponse:
    return spb.ListGameTypesResponse(
        game_types=[
            pb.GameType(
                id=e.game.id,
                title=e.game.title,
                seat_counts=e.game.seat_counts,
                options=[
                    pb.GameOption(
                        name=o.name,
                        description=o.description,
                        default_value=o.default,
                        choices=o.choices,
                    )
                    for o in e.game.options
                ],
                bot_kinds=bot_kinds,
            )
            for e in entries
        ]
    )

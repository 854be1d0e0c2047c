"""What the service stores besides the rules' state: metadata, the seat record, log entries.

* ``GameMeta`` — immutable facts written once at creation (game type, seats, options,
  seed, token salt, and the seat record the game started with).
* ``GameRecord`` — the platform's mutable part of a game: whether it is listed in the
  lobby, and per seat its player name, whether it is still open, which bot plays it,
  whether it resigned. It travels with the state in one stored blob (``pack``), so it is
  versioned, compared-and-set and pushed exactly like the state, and every change to it
  is a version with a *system* log entry whose id says what changed (``!join:1:Ana``).
  Replaying the log from the initial record therefore rebuilds the record of any version.
* ``LogEntry`` — one move (or system action) as stored.

All are frozen dataclasses kept with the engine's JSON codec, like game states.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from tribes.engine.codec import CodecError, StateCodec

SYSTEM = "!"  # the first character of a system entry's id; no game's move id has it


@dataclass(frozen=True, slots=True)
class Seat:
    """A seat as the platform knows it."""

    name: str = ""  # the player's public name ("" = none given)
    open: bool = False  # listed games: nobody has joined this seat yet
    bot: str = ""  # the bot kind that plays this seat ("" = a person)
    resigned: bool = False
    timed_out: bool = False  # lost on time (on_timeout = forfeit)
    remaining_ms: int = -1  # chess clock as of since_ms (-1 = none)
    since_ms: int = 0  # when its current decision began (store clock; 0 = not to act)
    bot_decides: bool = False  # its decision timed out (on_timeout = bot): a bot makes it


@dataclass(frozen=True, slots=True)
class Clock:
    """A game's time control (``tribes.core.hosting``)."""

    per_move_ms: int  # 0 = no limit per decision
    initial_ms: int  # 0 = no chess clock
    increment_ms: int
    forfeit: bool  # on timeout: the seat loses (else a bot makes the decision)


@dataclass(frozen=True, slots=True)
class GameRecord:
    listed: bool
    seats: tuple[Seat, ...]
    clock: Clock | None = None
    over: bool = False  # ended by the platform (a resignation or a loss on time)

    @property
    def open_seats(self) -> tuple[int, ...]:
        return tuple(i for i, seat in enumerate(self.seats) if seat.open)


@dataclass(frozen=True, slots=True)
class GameMeta:
    """Immutable facts about a game, written once at creation."""

    game_type: str
    seat_count: int
    options: tuple[tuple[str, str], ...]  # resolved options, sorted by name
    seed: int
    salt: str  # per-game input of the seat-token MACs
    created_ms: int
    initial: GameRecord | None = None  # None: an unlisted game of unnamed seats

    @property
    def options_dict(self) -> dict[str, str]:
        return dict(self.options)

    @property
    def first_record(self) -> GameRecord:
        if self.initial is not None:
            return self.initial
        return GameRecord(False, tuple(Seat() for _ in range(self.seat_count)))


@dataclass(frozen=True, slots=True)
class LogEntry:
    """One move as stored; ``public_move_id`` is None when others may not see it.

    A system entry (``move_id`` starting with ``!``) changed the seat record, not the
    rules' state; its description says what happened ("Ana joined as seat 1").
    """

    version: int  # the version this move produced
    seat: int
    move_id: str
    description: str
    public_move_id: str | None
    public_description: str
    time_ms: int

    @property
    def system(self) -> bool:
        return self.move_id.startswith(SYSTEM)


@dataclass(frozen=True, slots=True)
class _GameMetaV1:
    """The layout of GameMeta before the seat record (still read)."""

    game_type: str
    seat_count: int
    options: tuple[tuple[str, str], ...]
    seed: int
    salt: str
    created_ms: int


class _Meta:
    """GameMeta's codec: writes layout 2, reads layouts 1 and 2."""

    def __init__(self) -> None:
        self._v2 = StateCodec(GameMeta, version=2)
        self._v1 = StateCodec(_GameMetaV1, version=1)

    def encode(self, meta: GameMeta) -> bytes:
        return self._v2.encode(meta)

    def decode(self, data: bytes) -> GameMeta:
        try:
            return self._v2.decode(data)
        except CodecError:
            old = self._v1.decode(data)
            return GameMeta(
                old.game_type, old.seat_count, old.options, old.seed, old.salt, old.created_ms
            )


@dataclass(frozen=True, slots=True)
class _SeatV1:
    name: str = ""
    open: bool = False
    bot: str = ""
    resigned: bool = False


@dataclass(frozen=True, slots=True)
class _RecordV1:
    listed: bool
    seats: tuple[_SeatV1, ...]


class _Record:
    """GameRecord's codec: writes layout 2 (clocks), reads layouts 1 and 2."""

    def __init__(self) -> None:
        self._v2 = StateCodec(GameRecord, version=2)
        self._v1 = StateCodec(_RecordV1, version=1)

    def encode(self, record: GameRecord) -> bytes:
        return self._v2.encode(record)

    def decode(self, data: bytes) -> GameRecord:
        try:
            return self._v2.decode(data)
        except CodecError:
            old = self._v1.decode(data)
            seats = tuple(Seat(s.name, s.open, s.bot, s.resigned) for s in old.seats)
            return GameRecord(old.listed, seats)


META = _Meta()
ENTRY = StateCodec(LogEntry, version=1)
RECORD = _Record()

# -- the stored blob: the record beside the rules' state ------------------------------


def pack(record: bytes, state: bytes) -> bytes:
    """``@<record JSON>\\n<state JSON>`` (compact JSON has no raw newline)."""
    return b"@" + record + b"\n" + state


def unpack(blob: bytes, meta: GameMeta) -> tuple[GameRecord, bytes]:
    """(record, state bytes); a blob written before records is the state alone."""
    if blob[:1] != b"@":
        return meta.first_record, blob
    head, _, state = blob.partition(b"\n")
    return decode_record(head[1:]), state


_RECORDS: dict[bytes, GameRecord] = {}


def decode_record(data: bytes) -> GameRecord:
    """Records change rarely: decoded once per distinct value (bounded memo)."""
    record = _RECORDS.get(data)
    if record is None:
        if len(_RECORDS) > 10_000:
            _RECORDS.clear()
        record = _RECORDS[data] = RECORD.decode(data)
    return record


# -- system entries: the changes of the record, as log ids ----------------------------


def join_id(seat: int, name: str) -> str:
    return f"{SYSTEM}join:{seat}:{name}"


def resign_id(seat: int) -> str:
    return f"{SYSTEM}resign:{seat}"


def timeout_id(seat: int, forfeit: bool) -> str:
    """A decision that timed out: the seat lost (forfeit) or a bot makes the move next."""
    return f"{SYSTEM}timeout:{seat}:{'forfeit' if forfeit else 'bot'}"


def apply_system(record: GameRecord, move_id: str) -> GameRecord:
    """The record after a system entry (the inverse of the ``*_id`` functions)."""
    kind, _, rest = move_id[1:].partition(":")
    seat_text, _, arg = rest.partition(":")
    seat = int(seat_text)
    seats = list(record.seats)
    if kind == "join":
        seats[seat] = replace(seats[seat], name=arg, open=False)
    elif kind in ("resign", "timeout") and (kind == "resign" or arg == "forfeit"):
        from tribes.core.hosting import left  # the one place that knows what leaving does

        return left(record, seat, kind)
    elif kind == "timeout":
        seats[seat] = replace(seats[seat], bot_decides=True)
    else:
        raise CodecError(f"unknown system entry {move_id[:40]!r}")
    return replace(record, seats=tuple(seats))

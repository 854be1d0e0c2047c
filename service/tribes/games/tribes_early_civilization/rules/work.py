"""The working copy one ``apply`` edits, frozen back into a ``State`` once at the end.

A move touches several parts of the state (a player, the row, the log, the pending
decision) and then runs automatic steps; building a new frozen ``State`` for each
change would dominate the cost of a move. ``Work`` mirrors ``State`` field by field,
holds the same immutable values (tuples, frozen dataclasses) and is frozen once, so
every part a move did not touch keeps its identity (the codec re-encodes only the
changed fields). Nothing outside ``apply``/``new_game`` ever sees a ``Work``.
"""

from __future__ import annotations

from tribes.games.tribes_early_civilization.data import LOG_LIMIT, ActionTile, Board, Event
from tribes.games.tribes_early_civilization.options import Config
from tribes.games.tribes_early_civilization.state import (
    Arrow,
    BoardSlot,
    FinalScore,
    LogEntry,
    Pending,
    Player,
    QueuedEffect,
    RowTile,
    State,
)


class Work:
    """A mutable mirror of ``State`` (same field names and value types)."""

    __slots__ = (
        "arrows",
        "bag",
        "boxed_events",
        "capped",
        "config",
        "current",
        "end_triggered",
        "event",
        "event_stacks",
        "executed_orange",
        "final",
        "grid",
        "log",
        "pending",
        "players",
        "queue",
        "removed_boards",
        "rng",
        "round",
        "sequence",
        "start_player",
        "taken",
        "turn_count",
    )

    config: Config
    round: int
    turn_count: int
    start_player: int
    current: int
    players: tuple[Player, ...]
    sequence: tuple[RowTile, ...]
    grid: tuple[BoardSlot, ...]
    removed_boards: tuple[Board, ...]
    arrows: tuple[Arrow, ...]
    event_stacks: tuple[tuple[Event, ...], ...]
    executed_orange: tuple[Event, ...]
    boxed_events: tuple[Event, ...]
    bag: tuple[int, ...]
    taken: ActionTile | None
    event: Event | None
    queue: tuple[QueuedEffect, ...]
    pending: Pending | None
    end_triggered: bool
    capped: bool
    final: tuple[FinalScore, ...] | None
    log: tuple[LogEntry, ...]
    rng: int

    def __init__(self, s: State) -> None:
        (
            self.config,
            self.round,
            self.turn_count,
            self.start_player,
            self.current,
            self.players,
            self.sequence,
            self.grid,
            self.removed_boards,
            self.arrows,
            self.event_stacks,
            self.executed_orange,
            self.boxed_events,
            self.bag,
            self.taken,
            self.event,
            self.queue,
            self.pending,
            self.end_triggered,
            self.capped,
            self.final,
            self.log,
            self.rng,
        ) = (
            s.config,
            s.round,
            s.turn_count,
            s.start_player,
            s.current,
            s.players,
            s.sequence,
            s.grid,
            s.removed_boards,
            s.arrows,
            s.event_stacks,
            s.executed_orange,
            s.boxed_events,
            s.bag,
            s.taken,
            s.event,
            s.queue,
            s.pending,
            s.end_triggered,
            s.capped,
            s.final,
            s.log,
            s.rng,
        )

    def freeze(self) -> State:
        return State(
            self.config,
            self.round,
            self.turn_count,
            self.start_player,
            self.current,
            self.players,
            self.sequence,
            self.grid,
            self.removed_boards,
            self.arrows,
            self.event_stacks,
            self.executed_orange,
            self.boxed_events,
            self.bag,
            self.taken,
            self.event,
            self.queue,
            self.pending,
            self.end_triggered,
            self.capped,
            self.final,
            self.log,
            self.rng,
        )

    @property
    def seats(self) -> int:
        return self.config.num_players

    def set_player(self, seat: int, player: Player) -> None:
        players = self.players
        self.players = (*players[:seat], player, *players[seat + 1 :])

    def set_slot(self, index: int, slot: BoardSlot) -> None:
        grid = self.grid
        self.grid = (*grid[:index], slot, *grid[index + 1 :])

    def note(self, seat: int, text: str, private: str = "") -> None:
        """Append a log line (the most recent LOG_LIMIT are kept); ``private`` only for ``seat``."""
        lines = self.log
        if len(lines) >= LOG_LIMIT:
            lines = lines[len(lines) - LOG_LIMIT + 1 :]
        self.log = (*lines, LogEntry(self.turn_count, seat, text, private))

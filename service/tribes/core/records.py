"""What the service stores besides the game state: game metadata and log entries.

Both are frozen dataclasses kept with the engine's JSON codec, like game states.
"""

from __future__ import annotations

from dataclasses import dataclass

from tribes.engine.codec import StateCodec


@dataclass(frozen=True, slots=True)
class GameMeta:
    """Immutable facts about a game, written once at creation."""

    game_type: str
    seat_count: int
    options: tuple[tuple[str, str], ...]  # resolved options, sorted by name
    seed: int
    salt: str  # per-game input of the seat-token MACs
    created_ms: int

    @property
    def options_dict(self) -> dict[str, str]:
        return dict(self.options)


@dataclass(frozen=True, slots=True)
class LogEntry:
    """One move as stored; ``public_move_id`` is None when others may not see it."""

    version: int  # the version this move produced
    seat: int
    move_id: str
    description: str
    public_move_id: str | None
    public_description: str
    time_ms: int


META = StateCodec(GameMeta, version=1)
ENTRY = StateCodec(LogEntry, version=1)

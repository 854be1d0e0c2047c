"""The in-process cache of recently seen game states, keyed by (game id, version).

A game's state at a given version never changes, so any replica may reuse what it
has seen: when a move names the version it was chosen against and that version is
here, the server skips the read and goes straight to the compare-and-set, which still
guards every write. The cache also keeps each seat's legal moves at that version
(the legality oracle for the next move), each viewer's snapshot bytes at that version
(built once, then shared by every call, watch and session of that viewer) and the
decoded metadata.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from tribes.core.records import GameMeta, GameRecord


@dataclass(slots=True)
class Cached:
    version: int
    state: Any
    meta: GameMeta
    record: GameRecord
    legal: dict[int, Sequence[Any]] = field(default_factory=dict)
    snapshots: dict[int, bytes] = field(default_factory=dict)  # viewer -> snapshot bytes


class StateCache:
    """A bounded LRU of the newest known version of each game."""

    def __init__(self, capacity: int) -> None:
        self.capacity = capacity
        self._games: OrderedDict[str, Cached] = OrderedDict()

    def get(self, game_id: str) -> Cached | None:
        cached = self._games.get(game_id)
        if cached is not None:
            self._games.move_to_end(game_id)
        return cached

    def at(self, game_id: str, version: int) -> Cached | None:
        cached = self.get(game_id)
        return cached if cached is not None and cached.version == version else None

    def put(
        self, game_id: str, version: int, state: Any, meta: GameMeta, record: GameRecord
    ) -> Cached:
        """Remember a state unless a newer version of that game is already known."""
        return self.adopt(game_id, Cached(version, state, meta, record))

    def adopt(self, game_id: str, cached: Cached) -> Cached:
        """``put`` for a state built ahead (with its legal moves and snapshots): kept as it
        is, or — when that version is already here — what it built that is missing
        there is added (the same version of a game is the same state)."""
        current = self._games.get(game_id)
        if current is not None and current.version == cached.version:
            for seat, legal in cached.legal.items():
                current.legal.setdefault(seat, legal)
            for viewer, built in cached.snapshots.items():
                current.snapshots.setdefault(viewer, built)
            self._games.move_to_end(game_id)
            return current
        if current is not None and current.version > cached.version:
            return cached
        self._games[game_id] = cached
        self._games.move_to_end(game_id)
        if len(self._games) > self.capacity:
            self._games.popitem(last=False)
        return cached

    def meta(self, game_id: str) -> GameMeta | None:
        cached = self._games.get(game_id)
        return None if cached is None else cached.meta

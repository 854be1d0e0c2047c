"""The games a server hosts: each game's rules (``GameDef``) with its wire module.

Built from the built-in games plus plugins named in ``TRIBES_GAME_PLUGINS`` (a module
exposing ``GAME`` and ``WIRE``: how tests serve the example game, and how a new game
can be tried before it is built in).
"""

from __future__ import annotations

import importlib
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import Any

from tribes.engine.game import GameDef
from tribes.engine.registry import Registry
from tribes.wire import GameWire


@dataclass(frozen=True, slots=True)
class Entry:
    game: GameDef[Any, Any, Any]
    wire: GameWire[Any, Any]


class Catalog:
    def __init__(self, entries: Iterable[Entry] = ()) -> None:
        self.registry = Registry()
        self._entries: dict[str, Entry] = {}
        for entry in entries:
            self.add(entry)

    def add(self, entry: Entry) -> None:
        if entry.wire.game_id != entry.game.id:
            raise ValueError(f"wire {entry.wire.game_id!r} does not belong to {entry.game.id!r}")
        self.registry.register(entry.game)
        self._entries[entry.game.id] = entry

    def get(self, game_id: str) -> Entry:
        """The entry; UnknownGameTypeError (NOT_FOUND) for an id nobody registered."""
        entry = self._entries.get(game_id)
        if entry is None:
            self.registry.get(game_id)  # raises with the list of known games
            raise AssertionError("unreachable")
        return entry

    def __iter__(self) -> Iterator[Entry]:
        return (self._entries[game.id] for game in self.registry)


#: The games every server hosts: (rules package exposing GAME, wire module exposing WIRE).
BUILTIN: tuple[tuple[str, str], ...] = (
    ("tribes.games.five_tribes", "tribes.wire.five_tribes"),
    ("tribes.games.fate_of_akalon", "tribes.wire.fate_of_akalon"),
    ("tribes.games.tribes_early_civilization", "tribes.wire.tribes_early_civilization"),
    ("tribes.games.rise_of_tribes", "tribes.wire.rise_of_tribes"),
)


def builtin_entries() -> list[Entry]:
    """The games every server hosts."""
    return [
        Entry(importlib.import_module(rules).GAME, importlib.import_module(wire).WIRE)
        for rules, wire in BUILTIN
    ]


def plugin_entry(module_name: str) -> Entry:
    module = importlib.import_module(module_name)
    try:
        return Entry(module.GAME, module.WIRE)
    except AttributeError as exc:
        raise ValueError(f"game plugin {module_name!r} must define GAME and WIRE") from exc


def build_catalog(plugins: Iterable[str] = ()) -> Catalog:
    return Catalog([*builtin_entries(), *(plugin_entry(name) for name in plugins)])

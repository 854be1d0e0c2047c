"""The game registry: game id -> ``GameDef``.

The service builds one registry at start-up from the built-in games
(``tribes.games.builtin_games``) plus any plugin named in ``TRIBES_GAME_PLUGINS``;
tests build their own with the example game.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Any

from tribes.engine.errors import UnknownGameTypeError
from tribes.engine.game import GameDef

AnyGame = GameDef[Any, Any, Any]


class Registry:
    """An ordered mapping of game ids to games."""

    def __init__(self, games: Iterable[AnyGame] = ()) -> None:
        self._games: dict[str, AnyGame] = {}
        for game in games:
            self.register(game)

    def register(self, game: AnyGame) -> None:
        if game.id in self._games:
            raise ValueError(f"game {game.id!r} is registered twice")
        self._games[game.id] = game

    def get(self, game_id: str) -> AnyGame:
        try:
            return self._games[game_id]
        except KeyError:
            known = ", ".join(sorted(self._games)) or "none"
            raise UnknownGameTypeError(
                f"there is no game type {game_id!r} (known: {known})"
            ) from None

    def __contains__(self, game_id: object) -> bool:
        return game_id in self._games

    def __iter__(self) -> Iterator[AnyGame]:
        return iter(sorted(self._games.values(), key=lambda g: g.id))

    def __len__(self) -> int:
        return len(self._games)

"""Goofspiel as a server plugin: ``TRIBES_GAME_PLUGINS=tests.games.goofspiel.plugin``."""

from tests.games.goofspiel import GAME
from tests.games.goofspiel.wire import WIRE

__all__ = ["GAME", "WIRE"]

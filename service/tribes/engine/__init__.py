"""Game-agnostic, pure engine: the rule-module contract, driver, errors, PRNG, codec.

Nothing under ``tribes.engine`` or ``tribes.games`` may import grpc, redis, protobuf
or prometheus (enforced by the import-linter contract in pyproject.toml).
"""

from tribes.engine.errors import (
    BadOptionsError,
    GameFinishedError,
    IllegalMoveError,
    MalformedMoveError,
    NotYourTurnError,
    RulesError,
    UnknownGameTypeError,
)
from tribes.engine.game import SPECTATOR, GameDef, Move, OptionSpec, Result, Viewer

__all__ = [
    "SPECTATOR",
    "BadOptionsError",
    "GameDef",
    "GameFinishedError",
    "IllegalMoveError",
    "MalformedMoveError",
    "Move",
    "NotYourTurnError",
    "OptionSpec",
    "Result",
    "RulesError",
    "UnknownGameTypeError",
    "Viewer",
]

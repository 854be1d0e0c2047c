"""Typed domain errors raised by rule modules and the driver.

Every error carries a message a player can read. The service maps each class to one
gRPC status code and ErrorInfo reason in ONE table (``tribes.core.status``); rule code
never thinks about transports.
"""

from __future__ import annotations


class RulesError(Exception):
    """Base class of every error a game or the driver raises on bad input."""

    reason = "RULES_ERROR"

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


class MalformedMoveError(RulesError):
    """The move cannot be understood at all (unknown kind, bad key, wrong game)."""

    reason = "MALFORMED_MOVE"


class IllegalMoveError(RulesError):
    """A well-formed move that the rules forbid in the current state."""

    reason = "ILLEGAL_MOVE"


class NotYourTurnError(RulesError):
    """The seat has no decision pending."""

    reason = "NOT_YOUR_TURN"


class GameFinishedError(RulesError):
    """The game is over; no more moves are accepted."""

    reason = "GAME_FINISHED"


class BadOptionsError(RulesError):
    """``new_game`` was given an unknown option, a bad option value or seat count."""

    reason = "BAD_OPTIONS"


class UnknownGameTypeError(RulesError):
    """No game with that id is registered."""

    reason = "UNKNOWN_GAME_TYPE"

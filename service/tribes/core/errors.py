"""Service-level errors (requests, games, seats, versions): transport-free.

Rule errors live in ``tribes.engine.errors``; ``tribes.core.status`` maps both families
to status codes (gRPC and HTTP) in one table.
"""

from __future__ import annotations


class ServiceError(Exception):
    """An error with a reason code and a message a player or developer can read."""

    reason = "SERVICE_ERROR"

    def __init__(self, message: str, **metadata: str) -> None:
        super().__init__(message)
        self.message = message
        self.metadata = metadata


class BadRequestError(ServiceError):
    """A request field is missing or malformed (not a rules question)."""

    def __init__(self, message: str, reason: str = "BAD_REQUEST", **metadata: str) -> None:
        super().__init__(message, **metadata)
        self.reason = reason


class GameNotFoundError(ServiceError):
    reason = "GAME_NOT_FOUND"


class StaleVersionError(ServiceError):
    """The caller's expected_version is not the stored one (someone moved first)."""

    reason = "STALE_VERSION"


class TokenRequiredError(ServiceError):
    """A move needs a seat token; spectators cannot move."""

    reason = "TOKEN_REQUIRED"


class BadTokenError(ServiceError):
    """The token is malformed or is not a seat token of this game."""

    reason = "BAD_TOKEN"


class CorruptGameError(ServiceError):
    """A stored game cannot be read back (layout change, manual edits)."""

    reason = "CORRUPT_GAME"


class QuotaError(ServiceError):
    """A per-caller rate limit or a capacity limit was reached; retry later."""

    def __init__(self, message: str, reason: str = "RATE_LIMITED", **metadata: str) -> None:
        super().__init__(message, **metadata)
        self.reason = reason


class FailedPreconditionError(ServiceError):
    """A well-formed request the game's state does not allow now (a seat taken)."""

    def __init__(self, message: str, reason: str, **metadata: str) -> None:
        super().__init__(message, **metadata)
        self.reason = reason

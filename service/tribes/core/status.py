"""THE error table: every domain error class -> one status code, for every door.

Each error goes out as a rich status: the code, the readable message, and a
``google.rpc.ErrorInfo`` (domain ``tribes.v1``) whose ``reason`` a client can switch
on and whose ``metadata`` carries facts such as the current version. The gRPC door sends
it as the ``grpc-status-details-bin`` trailer; the HTTP door as a ``google.rpc.Status``
JSON body with the HTTP status of ``HTTP_STATUS`` (the mapping of google/rpc/code.proto).

| error                         | code                | reason                 | HTTP |
|-------------------------------|---------------------|------------------------|------|
| BadRequestError               | INVALID_ARGUMENT    | BAD_NAME, BAD_REQUEST… | 400  |
| MalformedMoveError            | INVALID_ARGUMENT    | MALFORMED_MOVE         | 400  |
| BadOptionsError               | INVALID_ARGUMENT    | BAD_OPTIONS            | 400  |
| UnknownGameTypeError          | NOT_FOUND           | UNKNOWN_GAME_TYPE      | 404  |
| GameNotFoundError             | NOT_FOUND           | GAME_NOT_FOUND         | 404  |
| IllegalMoveError              | FAILED_PRECONDITION | ILLEGAL_MOVE           | 400  |
| NotYourTurnError              | FAILED_PRECONDITION | NOT_YOUR_TURN          | 400  |
| GameFinishedError             | FAILED_PRECONDITION | GAME_FINISHED          | 400  |
| FailedPreconditionError       | FAILED_PRECONDITION | NOT_LISTED, SEAT_TAKEN, | 400  |
|                               |                     | GAME_FULL, ALREADY_RESIGNED |  |
| StaleVersionError             | ABORTED             | STALE_VERSION          | 409  |
| TokenRequiredError            | UNAUTHENTICATED     | TOKEN_REQUIRED         | 401  |
| BadTokenError                 | PERMISSION_DENIED   | BAD_TOKEN              | 403  |
| QuotaError                    | RESOURCE_EXHAUSTED  | RATE_LIMITED, GAME_LIMIT, | 429  |
|                               |                     | TOO_MANY_STREAMS       |      |
| StoreFullError                | RESOURCE_EXHAUSTED  | GAME_LIMIT             | 429  |
| WatchEndedError               | UNAVAILABLE         | SERVER_SHUTTING_DOWN   | 503  |
| StoreUnavailableError         | UNAVAILABLE         | STORE_UNAVAILABLE      | 503  |
| CorruptGameError              | DATA_LOSS           | CORRUPT_GAME           | 500  |
| any other ServiceError        | INTERNAL            | SERVICE_ERROR          | 500  |
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, field

from google.protobuf import any_pb2
from google.rpc import error_details_pb2, status_pb2

from tribes.core.errors import (
    BadRequestError,
    BadTokenError,
    CorruptGameError,
    FailedPreconditionError,
    GameNotFoundError,
    QuotaError,
    ServiceError,
    StaleVersionError,
    TokenRequiredError,
)
from tribes.engine.errors import (
    BadOptionsError,
    GameFinishedError,
    IllegalMoveError,
    MalformedMoveError,
    NotYourTurnError,
    RulesError,
    UnknownGameTypeError,
)
from tribes.store import StoreFullError, StoreUnavailableError, WatchEndedError

DOMAIN = "tribes.v1"


class Code(enum.IntEnum):
    """The canonical status codes (google/rpc/code.proto), shared by gRPC and HTTP."""

    OK = 0
    CANCELLED = 1
    UNKNOWN = 2
    INVALID_ARGUMENT = 3
    DEADLINE_EXCEEDED = 4
    NOT_FOUND = 5
    ALREADY_EXISTS = 6
    PERMISSION_DENIED = 7
    RESOURCE_EXHAUSTED = 8
    FAILED_PRECONDITION = 9
    ABORTED = 10
    OUT_OF_RANGE = 11
    UNIMPLEMENTED = 12
    INTERNAL = 13
    UNAVAILABLE = 14
    DATA_LOSS = 15
    UNAUTHENTICATED = 16

    @property
    def metric_name(self) -> str:
        """The code as go-grpc-prometheus labels it (``InvalidArgument``, ``Canceled``)."""
        return _METRIC_NAMES[self]

    @property
    def http_status(self) -> int:
        return HTTP_STATUS[self]


_METRIC_NAMES = {code: "".join(part.capitalize() for part in code.name.split("_")) for code in Code}
_METRIC_NAMES[Code.OK] = "OK"
_METRIC_NAMES[Code.CANCELLED] = "Canceled"  # Go's spelling, which dashboards expect

#: google/rpc/code.proto's HTTP mapping (499 is the conventional "client closed request").
HTTP_STATUS: dict[Code, int] = {
    Code.OK: 200,
    Code.CANCELLED: 499,
    Code.UNKNOWN: 500,
    Code.INVALID_ARGUMENT: 400,
    Code.DEADLINE_EXCEEDED: 504,
    Code.NOT_FOUND: 404,
    Code.ALREADY_EXISTS: 409,
    Code.PERMISSION_DENIED: 403,
    Code.RESOURCE_EXHAUSTED: 429,
    Code.FAILED_PRECONDITION: 400,
    Code.ABORTED: 409,
    Code.OUT_OF_RANGE: 400,
    Code.UNIMPLEMENTED: 501,
    Code.INTERNAL: 500,
    Code.UNAVAILABLE: 503,
    Code.DATA_LOSS: 500,
    Code.UNAUTHENTICATED: 401,
}

CODES: dict[type[Exception], Code] = {
    BadRequestError: Code.INVALID_ARGUMENT,
    MalformedMoveError: Code.INVALID_ARGUMENT,
    BadOptionsError: Code.INVALID_ARGUMENT,
    UnknownGameTypeError: Code.NOT_FOUND,
    GameNotFoundError: Code.NOT_FOUND,
    IllegalMoveError: Code.FAILED_PRECONDITION,
    NotYourTurnError: Code.FAILED_PRECONDITION,
    GameFinishedError: Code.FAILED_PRECONDITION,
    StaleVersionError: Code.ABORTED,
    TokenRequiredError: Code.UNAUTHENTICATED,
    BadTokenError: Code.PERMISSION_DENIED,
    QuotaError: Code.RESOURCE_EXHAUSTED,
    FailedPreconditionError: Code.FAILED_PRECONDITION,
    StoreFullError: Code.RESOURCE_EXHAUSTED,
    StoreUnavailableError: Code.UNAVAILABLE,
    CorruptGameError: Code.DATA_LOSS,
    ServiceError: Code.INTERNAL,  # e.g. a game id that could not be allocated
}

#: Errors that are the caller's or the game's business, not the server's fault.
KNOWN = tuple(CODES)

UNAVAILABLE_MESSAGE = (
    "the game store did not answer; the request may or may not have been applied: "
    "retry it with the same request_id"
)
#: The reason of a stream this server ended because it is stopping (a WebSocket closes
#: with 1001, going away)
SHUTTING_DOWN = "SERVER_SHUTTING_DOWN"
SHUTTING_DOWN_MESSAGE = "this server is shutting down: reconnect to go on"


@dataclass(frozen=True, slots=True)
class Failure:
    """A domain error as every door reports it."""

    code: Code
    reason: str
    message: str
    metadata: dict[str, str] = field(default_factory=dict)

    def status(self) -> status_pb2.Status:
        """The ``google.rpc.Status`` with its ``ErrorInfo`` detail."""
        info = error_details_pb2.ErrorInfo(reason=self.reason, domain=DOMAIN)
        info.metadata.update(self.metadata)
        detail = any_pb2.Any()
        detail.Pack(info)
        return status_pb2.Status(code=int(self.code), message=self.message, details=[detail])


def failure_of(error: Exception) -> Failure:
    """The code, reason, message and metadata of a domain error (INTERNAL otherwise)."""
    code = Code.INTERNAL
    for cls in type(error).__mro__:
        if cls in CODES:
            code = CODES[cls]
            break
    if isinstance(error, WatchEndedError):  # a StoreUnavailableError: the stream's end
        return Failure(code, SHUTTING_DOWN, SHUTTING_DOWN_MESSAGE)
    if isinstance(error, StoreUnavailableError):
        return Failure(code, "STORE_UNAVAILABLE", UNAVAILABLE_MESSAGE)
    if isinstance(error, StoreFullError):
        return Failure(code, "GAME_LIMIT", "this server holds as many games as it may; try later")
    if isinstance(error, ServiceError):
        return Failure(code, error.reason, error.message, dict(error.metadata))
    if isinstance(error, RulesError):
        return Failure(code, error.reason, error.message)
    return Failure(Code.INTERNAL, "INTERNAL", "internal error")

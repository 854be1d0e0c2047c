"""THE error table: every domain error class -> one gRPC status code.

Each error goes out as a rich status: the code, the readable message, and a
``google.rpc.ErrorInfo`` (domain ``tribes.v1``) whose ``reason`` a client can switch
on and whose ``metadata`` carries facts such as the current version.

| error                         | code                | reason                 |
|-------------------------------|---------------------|------------------------|
| BadRequestError               | INVALID_ARGUMENT    | BAD_NAME, BAD_REQUEST… |
| MalformedMoveError            | INVALID_ARGUMENT    | MALFORMED_MOVE         |
| BadOptionsError               | INVALID_ARGUMENT    | BAD_OPTIONS            |
| UnknownGameTypeError          | NOT_FOUND           | UNKNOWN_GAME_TYPE      |
| GameNotFoundError             | NOT_FOUND           | GAME_NOT_FOUND         |
| IllegalMoveError              | FAILED_PRECONDITION | ILLEGAL_MOVE           |
| NotYourTurnError              | FAILED_PRECONDITION | NOT_YOUR_TURN          |
| GameFinishedError             | FAILED_PRECONDITION | GAME_FINISHED          |
| StaleVersionError             | ABORTED             | STALE_VERSION          |
| TokenRequiredError            | UNAUTHENTICATED     | TOKEN_REQUIRED         |
| BadTokenError                 | PERMISSION_DENIED   | BAD_TOKEN              |
| StoreUnavailableError         | UNAVAILABLE         | STORE_UNAVAILABLE      |
| CorruptGameError              | DATA_LOSS           | CORRUPT_GAME           |
| any other ServiceError        | INTERNAL            | SERVICE_ERROR          |
"""

from __future__ import annotations

import grpc
from google.protobuf import any_pb2
from google.rpc import error_details_pb2, status_pb2

from tribes.engine.errors import (
    BadOptionsError,
    GameFinishedError,
    IllegalMoveError,
    MalformedMoveError,
    NotYourTurnError,
    RulesError,
    UnknownGameTypeError,
)
from tribes.errors import (
    BadRequestError,
    BadTokenError,
    CorruptGameError,
    GameNotFoundError,
    ServiceError,
    StaleVersionError,
    TokenRequiredError,
)
from tribes.store import StoreUnavailableError

DOMAIN = "tribes.v1"

CODES: dict[type[Exception], grpc.StatusCode] = {
    BadRequestError: grpc.StatusCode.INVALID_ARGUMENT,
    MalformedMoveError: grpc.StatusCode.INVALID_ARGUMENT,
    BadOptionsError: grpc.StatusCode.INVALID_ARGUMENT,
    UnknownGameTypeError: grpc.StatusCode.NOT_FOUND,
    GameNotFoundError: grpc.StatusCode.NOT_FOUND,
    IllegalMoveError: grpc.StatusCode.FAILED_PRECONDITION,
    NotYourTurnError: grpc.StatusCode.FAILED_PRECONDITION,
    GameFinishedError: grpc.StatusCode.FAILED_PRECONDITION,
    StaleVersionError: grpc.StatusCode.ABORTED,
    TokenRequiredError: grpc.StatusCode.UNAUTHENTICATED,
    BadTokenError: grpc.StatusCode.PERMISSION_DENIED,
    StoreUnavailableError: grpc.StatusCode.UNAVAILABLE,
    CorruptGameError: grpc.StatusCode.DATA_LOSS,
    ServiceError: grpc.StatusCode.INTERNAL,  # e.g. a game id that could not be allocated
}

#: Errors that are the caller's or the game's business, not the server's fault.
KNOWN = tuple(CODES)


def reason_of(error: Exception) -> str:
    if isinstance(error, (RulesError, ServiceError)):
        return error.reason
    if isinstance(error, StoreUnavailableError):
        return "STORE_UNAVAILABLE"
    return "INTERNAL"


def code_of(error: Exception) -> grpc.StatusCode:
    for cls in type(error).__mro__:
        if cls in CODES:
            return CODES[cls]
    return grpc.StatusCode.INTERNAL


def message_of(error: Exception) -> str:
    if isinstance(error, StoreUnavailableError):
        return "the game store is unavailable; try again shortly"
    if isinstance(error, (RulesError, ServiceError)):
        return error.message
    return "internal error"


def rich_status(error: Exception) -> tuple[grpc.StatusCode, str, tuple[tuple[str, bytes], ...]]:
    """(code, message, trailing metadata carrying google.rpc.Status with ErrorInfo)."""
    code = code_of(error)
    message = message_of(error)
    info = error_details_pb2.ErrorInfo(reason=reason_of(error), domain=DOMAIN)
    if isinstance(error, ServiceError):
        info.metadata.update(error.metadata)
    detail = any_pb2.Any()
    detail.Pack(info)
    status = status_pb2.Status(code=code.value[0], message=message, details=[detail])
    return code, message, (("grpc-status-details-bin", status.SerializeToString()),)

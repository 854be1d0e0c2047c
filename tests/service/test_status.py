"""The one error table: every domain error reaches the caller with a status."""

from __future__ import annotations

import pytest

from tribes.core import status
from tribes.core.errors import BadTokenError, QuotaError, ServiceError, StaleVersionError
from tribes.engine.errors import IllegalMoveError
from tribes.store import StoreFullError, StoreUnavailableError, WatchEndedError


def test_every_service_error_has_a_status() -> None:
    """A ServiceError without its own row still maps to a status with its message."""
    error = ServiceError("could not allocate a game id; try again")
    assert isinstance(error, status.KNOWN)
    failure = status.failure_of(error)
    assert failure.code is status.Code.INTERNAL
    assert failure.message == "could not allocate a game id; try again"


@pytest.mark.parametrize(
    ("error", "code", "reason", "http"),
    [
        (IllegalMoveError("no"), status.Code.FAILED_PRECONDITION, "ILLEGAL_MOVE", 400),
        (BadTokenError("no"), status.Code.PERMISSION_DENIED, "BAD_TOKEN", 403),
        (StaleVersionError("no"), status.Code.ABORTED, "STALE_VERSION", 409),
        (QuotaError("slow down"), status.Code.RESOURCE_EXHAUSTED, "RATE_LIMITED", 429),
        (StoreFullError("full"), status.Code.RESOURCE_EXHAUSTED, "GAME_LIMIT", 429),
        (StoreUnavailableError("x"), status.Code.UNAVAILABLE, "STORE_UNAVAILABLE", 503),
        (WatchEndedError("x"), status.Code.UNAVAILABLE, "SERVER_SHUTTING_DOWN", 503),
    ],
)
def test_errors_map_to_one_code_reason_and_http_status(
    error: Exception, code: status.Code, reason: str, http: int
) -> None:
    """Each error class has one code, reason and HTTP status for every door."""
    failure = status.failure_of(error)
    assert (failure.code, failure.reason, failure.code.http_status) == (code, reason, http)


def test_unavailable_says_the_outcome_is_unknown() -> None:
    """UNAVAILABLE tells the caller to retry with the same request_id, not that nothing
    was written (a write may have landed before the store stopped answering)."""
    message = status.failure_of(StoreUnavailableError("redis commit failed")).message
    assert "may or may not" in message and "request_id" in message


def test_metric_names_follow_go_grpc_prometheus() -> None:
    """Code labels are spelled as go-grpc-prometheus writes them."""
    assert status.Code.INVALID_ARGUMENT.metric_name == "InvalidArgument"
    assert status.Code.CANCELLED.metric_name == "Canceled"
    assert status.Code.OK.metric_name == "OK"
    assert status.Code.DATA_LOSS.metric_name == "DataLoss"

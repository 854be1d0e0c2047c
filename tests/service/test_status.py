"""The one error table: every domain error reaches the caller with a status."""

from __future__ import annotations


def test_every_service_error_has_a_status() -> None:
    """A ServiceError without its own row still maps to a status with its message."""
    import grpc

    from tribes import status
    from tribes.errors import ServiceError

    error = ServiceError("could not allocate a game id; try again")
    assert isinstance(error, status.KNOWN)
    assert status.code_of(error) == grpc.StatusCode.INTERNAL
    assert status.message_of(error) == "could not allocate a game id; try again"

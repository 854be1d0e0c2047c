"""Python client for the tribes game-state service, and the ``tribes`` CLI."""

from tribes_client.client import (
    DEFAULT_TARGET,
    PLAY_SUBPROTOCOL,
    AsyncClient,
    Client,
    PlaySession,
    TribesError,
)

__all__ = [
    "DEFAULT_TARGET",
    "PLAY_SUBPROTOCOL",
    "AsyncClient",
    "Client",
    "PlaySession",
    "TribesError",
]

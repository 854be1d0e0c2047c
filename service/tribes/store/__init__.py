"""Where games live: one contract (``base``), two implementations (``redis``, ``memory``)."""

from tribes.store.base import (
    Change,
    CommitOutcome,
    CommitStatus,
    Loaded,
    Mailbox,
    PresenceEntries,
    Store,
    StoreFullError,
    StoreUnavailableError,
    Ttls,
    WatchEndedError,
    decode_presence,
    encode_presence,
)

__all__ = [
    "Change",
    "CommitOutcome",
    "CommitStatus",
    "PresenceEntries",
    "Loaded",
    "Mailbox",
    "Store",
    "StoreFullError",
    "StoreUnavailableError",
    "Ttls",
    "WatchEndedError",
    "decode_presence",
    "encode_presence",
]

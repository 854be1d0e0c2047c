"""Every bound on caller input, checked before any store work (README "Limits").

A request field that is too long, too many or oddly spelled is refused here with
INVALID_ARGUMENT and a reason, and error messages quote at most a short escaped prefix
of what the caller sent (``quote``), so no input is ever echoed unbounded into a status,
a trailer or a log line. ``page_size`` above the maximum is coerced to it (AIP-158).
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence

from tribes.core.errors import BadRequestError, BadTokenError
from tribes.engine.errors import BadOptionsError, MalformedMoveError

MAX_GAME_ID = 64
MAX_GAME_TYPE = 64
MAX_REQUEST_ID = 128
MAX_MOVE_ID = 200
MAX_TOKEN = 128
MAX_OPTIONS = 16
MAX_OPTION_NAME = 64
MAX_OPTION_VALUE = 256
MAX_PAGE_SIZE = 1000
DEFAULT_PAGE_SIZE = 100
MAX_PAGE_TOKEN = 64
MAX_PLAYER_NAME = 40
MAX_SEATS = 16  # no game has more; a bound before any game is consulted
#: The largest request body the server reads (gRPC's default). Every field inside is
#: bounded far below it, so an oversized field is INVALID_ARGUMENT with its reason.
MAX_REQUEST_BYTES = 4 * 1024 * 1024

_QUOTE = 32

_GAME_ID = re.compile(r"[A-Za-z0-9_-]{1,64}")
_GAME_TYPE = re.compile(r"[a-z][a-z0-9_]{0,63}")
_PRINTABLE = re.compile(r"[\x21-\x7e]+")
_OPTION_NAME = re.compile(r"[a-z][a-z0-9_.]{0,63}")


def quote(value: str, limit: int = _QUOTE) -> str:
    """A short, escaped prefix of caller input for a message: ``'abc…'``."""
    head = value[:limit]
    text = head.encode("unicode_escape").decode("ascii").replace("'", "\\'")
    return f"'{text}{'…' if len(value) > limit else ''}'"


def game_id(name: str) -> str:
    """The id of a resource name ``games/{id}``."""
    if name.startswith("games/"):
        candidate = name[6:]
        if len(candidate) <= MAX_GAME_ID and _GAME_ID.fullmatch(candidate):
            return candidate
    raise BadRequestError(f"{quote(name)} is not a game name (expected games/<id>)", "BAD_NAME")


def request_id(value: str) -> str:
    """An idempotency key: empty, or 1-128 printable ASCII characters."""
    if value and (len(value) > MAX_REQUEST_ID or not _PRINTABLE.fullmatch(value)):
        raise BadRequestError(
            f"request_id must be 1-{MAX_REQUEST_ID} printable ASCII characters without spaces",
            "BAD_REQUEST_ID",
        )
    return value


def move_id(value: str) -> str:
    if not value or len(value) > MAX_MOVE_ID or not _PRINTABLE.fullmatch(value):
        raise MalformedMoveError(
            f"move_id {quote(value)} is not a move id (1-{MAX_MOVE_ID} printable characters)"
        )
    return value


def game_type(value: str) -> str:
    if len(value) > MAX_GAME_TYPE or not _GAME_TYPE.fullmatch(value):
        raise BadRequestError(f"{quote(value)} is not a game type id", "BAD_GAME_TYPE")
    return value


def seat_count(value: int) -> int:
    if not 0 < value <= MAX_SEATS:
        raise BadOptionsError(f"seat_count must be 1..{MAX_SEATS}, not {value}")
    return value


def options(values: Mapping[str, str]) -> dict[str, str]:
    """At most 16 options with short names and values (the game checks the rest)."""
    if len(values) > MAX_OPTIONS:
        raise BadOptionsError(f"at most {MAX_OPTIONS} options, not {len(values)}")
    for name, value in values.items():
        if len(name) > MAX_OPTION_NAME or not _OPTION_NAME.fullmatch(name):
            raise BadOptionsError(f"{quote(name)} is not an option name")
        if len(value) > MAX_OPTION_VALUE or not value.isprintable():
            raise BadOptionsError(
                f"option {name} must be at most {MAX_OPTION_VALUE} printable characters"
            )
    return dict(values)


def page_size(value: int) -> int:
    """0 = the default; above the maximum = the maximum (AIP-158); negative = refused."""
    if value < 0:
        raise BadRequestError("page_size must not be negative", "BAD_PAGE_SIZE")
    return min(value or DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE)


def bots(values: Mapping[int, str], seats: int, kinds: Sequence[str]) -> dict[int, str]:
    """CreateGame's ``bots``: seat -> a bot kind this server has."""
    for seat, kind in values.items():
        if not 0 <= seat < seats:
            raise BadRequestError(f"bots: seat must be 0..{seats - 1}, not {seat}", "BAD_BOTS")
        if kind not in kinds:
            raise BadRequestError(
                f"bots: {quote(kind)} is not a bot kind (kinds: {', '.join(kinds)})", "BAD_BOTS"
            )
    return dict(values)


def bot_kind(kind: str, kinds: Sequence[str]) -> str:
    """SuggestMove's ``bot``: a bot kind this server has."""
    if kind not in kinds:
        raise BadRequestError(
            f"bot: {quote(kind)} is not a bot kind (kinds: {', '.join(kinds)})", "BAD_BOT"
        )
    return kind


def bot_budget(value: int, default: int, cap: int) -> int:
    """SuggestMove's ``budget_ms``: 0 = the server's default, never above its cap."""
    if value < 0:
        raise BadRequestError("budget_ms must not be negative", "BAD_BUDGET")
    return min(value or default, cap)


MAX_LOBBY_PAGE = 200
DEFAULT_LOBBY_PAGE = 50


def lobby_page_size(value: int) -> int:
    if value < 0:
        raise BadRequestError("page_size must not be negative", "BAD_PAGE_SIZE")
    return min(value or DEFAULT_LOBBY_PAGE, MAX_LOBBY_PAGE)


def player_name(value: str) -> str:
    text = value.strip()
    if len(text) > MAX_PLAYER_NAME or not text.isprintable():
        raise BadRequestError(
            f"player_name must be at most {MAX_PLAYER_NAME} printable characters",
            "BAD_PLAYER_NAME",
        )
    return text


def one_authorization(values: list[str], what: str = "authorization value") -> str | None:
    """A call's one ``authorization`` value (None when it sent none). Several are refused:
    which one a proxy in front checked cannot be known, so none is trusted."""
    if len(values) > 1:
        raise BadTokenError(f"send one {what}, not {len(values)}")
    return values[0] if values else None


def bearer(authorization: str | None) -> str | None:
    """The token of an ``authorization: Bearer <token>`` value (None when absent)."""
    if authorization is None:
        return None
    scheme, _, token = authorization.strip().partition(" ")
    token = token.strip()
    if scheme.lower() != "bearer" or not token:
        raise BadTokenError("authorization must be 'Bearer <seat token>'")
    if len(token) > MAX_TOKEN or not _PRINTABLE.fullmatch(token):
        raise BadTokenError("the seat token is malformed")
    return token

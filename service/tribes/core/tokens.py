"""Seat tokens and page tokens: HMACs under the server secret, so no table is kept.

A seat token is ``<seat>.<MAC>``, an HMAC-SHA256 of game id, seat and a per-game salt.
Keys rotate: tokens are issued under the current secret and accepted under it or any of
the previous ones (``TRIBES_TOKEN_PREVIOUS_SECRETS``), so a rotation invalidates no seat;
dropping a secret from the list retires the tokens issued under it.
Exactly one spelling of each token is accepted (the seat in canonical decimal), so a
token cannot be respelled into another idempotency scope. The signing secret comes from
``TRIBES_TOKEN_SECRET`` or, when unset, is agreed through the store (the first server to
start proposes a random one), so every replica accepts every token. Comparison is
constant-time.

A page token (``ListMoves``) is opaque to clients: the offset and a MAC of game id and
offset, URL-safe base64 of fixed size, so it is verified before it is used and is never
parsed into an unbounded integer.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import hmac
import re
import struct
from collections.abc import Sequence

from tribes.core.errors import BadRequestError, BadTokenError

_REMEMBERED = 100_000  # verified tokens kept (about 10 MB at most)
_SEAT = re.compile(r"0|[1-9][0-9]{0,2}")
_PAGE = struct.Struct(">I")  # the offset, 4 bytes
_PAGE_MAC = 12


class SeatTokens:
    def __init__(self, secret: bytes, previous: Sequence[bytes] = ()) -> None:
        for key in (secret, *previous):
            if len(key) < 16:
                raise ValueError("every token secret must be at least 16 bytes")
        self._secret = secret
        self._keys = (secret, *previous)  # verification tries them in order
        self._verified: dict[tuple[str, str, str], int] = {}

    def _mac(self, game_id: str, seat: int, salt: str, key: bytes | None = None) -> str:
        message = f"{game_id}\0{seat}\0{salt}".encode()
        digest = hmac.new(key or self._secret, message, hashlib.sha256)
        return base64.urlsafe_b64encode(digest.digest()[:24]).decode()

    def issue(self, game_id: str, seat: int, salt: str) -> str:
        return f"{seat}.{self._mac(game_id, seat, salt)}"

    def seat_of(self, game_id: str, salt: str, seat_count: int, token: str) -> int:
        """The seat the token is for; BadTokenError if it is not a token of this game.

        Verified tokens are remembered (bounded), so a seat's every call does not pay
        for an HMAC.
        """
        key = (game_id, salt, token)
        seat = self._verified.get(key)
        if seat is not None and seat < seat_count:
            return seat
        seat_text, _, mac = token.partition(".")
        if not _SEAT.fullmatch(seat_text) or not mac:
            raise BadTokenError("the seat token is malformed")
        seat = int(seat_text)
        if seat >= seat_count or not any(
            hmac.compare_digest(mac.encode(), self._mac(game_id, seat, salt, key).encode())
            for key in self._keys
        ):
            raise BadTokenError("the seat token is not valid for this game")
        if len(self._verified) >= _REMEMBERED:
            self._verified.clear()
        self._verified[key] = seat
        return seat

    def game_id_for(self, request_id: str, key: bytes | None = None) -> str:
        """A stable game id for a CreateGame request id (so retries find their game)."""
        digest = hmac.new(key or self._secret, f"create\0{request_id}".encode(), hashlib.sha256)
        return base64.urlsafe_b64encode(digest.digest()[:12]).decode()

    def earlier_game_ids(self, request_id: str) -> list[str]:
        """The ids the same request would have had under the previous secrets."""
        return [self.game_id_for(request_id, key) for key in self._keys[1:]]

    def _page_mac(self, scope: str, offset: int, key: bytes | None = None) -> bytes:
        message = f"page\0{scope}\0{offset}".encode()
        return hmac.new(key or self._secret, message, hashlib.sha256).digest()[:_PAGE_MAC]

    def page_token(self, scope: str, offset: int) -> str:
        """An opaque token for the page starting at ``offset`` of ``scope`` (a game id)."""
        raw = _PAGE.pack(offset) + self._page_mac(scope, offset)
        return base64.urlsafe_b64encode(raw).decode().rstrip("=")

    def page_offset(self, scope: str, token: str) -> int:
        """The offset a page token of ``scope`` stands for; 0 for no token."""
        if not token:
            return 0
        bad = BadRequestError("page_token is not one this server issued", "BAD_PAGE_TOKEN")
        if len(token) != 22:  # 16 bytes of base64 without padding
            raise bad
        try:
            raw = base64.urlsafe_b64decode(token + "==")
        except (binascii.Error, ValueError):
            raise bad from None
        if len(raw) != _PAGE.size + _PAGE_MAC:
            raise bad
        (offset,) = _PAGE.unpack(raw[: _PAGE.size])
        macs = (self._page_mac(scope, offset, key) for key in self._keys)
        if not any(hmac.compare_digest(raw[_PAGE.size :], mac) for mac in macs):
            raise bad
        return int(offset)

    def cursor_token(self, scope: str, payload: bytes) -> str:
        """An opaque, signed token carrying ``payload`` (at most 96 bytes) for ``scope``."""
        mac = hmac.new(self._secret, b"cursor\0" + scope.encode() + b"\0" + payload, hashlib.sha256)
        return base64.urlsafe_b64encode(mac.digest()[:_PAGE_MAC] + payload).decode().rstrip("=")

    def cursor_of(self, scope: str, token: str) -> bytes | None:
        """The payload of a cursor token of ``scope``; None for no token."""
        if not token:
            return None
        bad = BadRequestError("page_token is not one this server issued", "BAD_PAGE_TOKEN")
        if len(token) > 160:
            raise bad
        try:
            raw = base64.urlsafe_b64decode(token + "=" * (-len(token) % 4))
        except (binascii.Error, ValueError):
            raise bad from None
        mac, payload = raw[:_PAGE_MAC], raw[_PAGE_MAC:]
        want = hmac.new(
            self._secret, b"cursor\0" + scope.encode() + b"\0" + payload, hashlib.sha256
        )
        if len(mac) != _PAGE_MAC or not hmac.compare_digest(mac, want.digest()[:_PAGE_MAC]):
            raise bad
        return payload

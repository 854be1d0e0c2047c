"""Seat tokens: ``<seat>.<MAC>``, an HMAC-SHA256 of game id, seat and a per-game salt.

The server keeps no token table: it recomputes the MAC. The signing secret comes
from ``TRIBES_TOKEN_SECRET`` or, when unset, is agreed through the store (the first
server to start proposes a random one), so every replica accepts every token.
Comparison is constant-time.
"""

from __future__ import annotations

import base64
import hashlib
import hmac

from tribes.errors import BadTokenError

_REMEMBERED = 100_000  # verified tokens kept (about 10 MB at most)


class SeatTokens:
    def __init__(self, secret: bytes) -> None:
        if len(secret) < 16:
            raise ValueError("the token secret must be at least 16 bytes")
        self._secret = secret
        self._verified: dict[tuple[str, str, str], int] = {}

    def _mac(self, game_id: str, seat: int, salt: str) -> str:
        digest = hmac.new(self._secret, f"{game_id}\0{seat}\0{salt}".encode(), hashlib.sha256)
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
        if not seat_text.isdigit() or not mac:
            raise BadTokenError("the seat token is malformed")
        seat = int(seat_text)
        if seat >= seat_count or not hmac.compare_digest(mac, self._mac(game_id, seat, salt)):
            raise BadTokenError("the seat token is not valid for this game")
        if len(self._verified) >= _REMEMBERED:
            self._verified.clear()
        self._verified[key] = seat
        return seat

    def game_id_for(self, request_id: str) -> str:
        """A stable game id for a CreateGame request id (so retries find their game)."""
        digest = hmac.new(self._secret, f"create\0{request_id}".encode(), hashlib.sha256)
        return base64.urlsafe_b64encode(digest.digest()[:12]).decode()

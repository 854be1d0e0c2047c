"""Seat tokens: what verifies, what does not."""

from __future__ import annotations

import pytest

from tribes.core.errors import BadTokenError
from tribes.core.tokens import SeatTokens


def test_a_token_names_its_seat_and_only_its_game() -> None:
    """A token verifies for its own game and seat, and for no other game or salt."""
    tokens = SeatTokens(b"k" * 32)
    token = tokens.issue("game1", 2, "salt")
    assert tokens.seat_of("game1", "salt", 4, token) == 2
    assert tokens.seat_of("game1", "salt", 4, token) == 2  # remembered: same answer
    for game, salt in (("game2", "salt"), ("game1", "other")):
        with pytest.raises(BadTokenError):
            tokens.seat_of(game, salt, 4, token)


def test_forged_and_malformed_tokens_are_refused() -> None:
    """Changing the seat or the MAC, or dropping the separator, is refused."""
    tokens = SeatTokens(b"k" * 32)
    token = tokens.issue("g", 1, "s")
    mac = token.split(".", 1)[1]
    for bad in (f"0.{mac}", f"1.{mac[:-1]}x", "1", "x.y", "", f"9.{mac}"):
        with pytest.raises(BadTokenError):
            tokens.seat_of("g", "s", 4, bad)


def test_another_secret_does_not_verify() -> None:
    """A server with another secret rejects the token (secrets are per deployment)."""
    token = SeatTokens(b"a" * 32).issue("g", 0, "s")
    with pytest.raises(BadTokenError):
        SeatTokens(b"b" * 32).seat_of("g", "s", 2, token)


def test_short_secrets_are_refused() -> None:
    """A signing secret under 16 bytes is a configuration error."""
    with pytest.raises(ValueError, match="16 bytes"):
        SeatTokens(b"short")


def test_create_request_ids_map_to_stable_game_ids() -> None:
    """The same request id gives the same game id; different ids differ."""
    tokens = SeatTokens(b"k" * 32)
    assert tokens.game_id_for("r1") == tokens.game_id_for("r1") != tokens.game_id_for("r2")

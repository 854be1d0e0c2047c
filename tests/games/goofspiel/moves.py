"""Goofspiel's one move: bid a card from hand, face down."""

from __future__ import annotations

from dataclasses import dataclass

from tribes.engine import MalformedMoveError


@dataclass(frozen=True, slots=True, order=True)
class Bid:
    card: int

    @property
    def key(self) -> str:
        return f"bid:{self.card}"


def parse_move(key: str) -> Bid:
    kind, _, arg = key.partition(":")
    if kind != "bid" or not arg.isdigit():
        raise MalformedMoveError(f"{key!r} is not a Goofspiel move (expected bid:<card>)")
    return Bid(int(arg))

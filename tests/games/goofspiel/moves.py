"""Goofspiel's one move: bid a card from hand, face down."""

from __future__ import annotations

from dataclasses import dataclass, field

from tribes.engine import MalformedMoveError


@dataclass(frozen=True, slots=True, order=True)
class Bid:
    card: int
    key: str = field(init=False, compare=False, repr=False)  # the canonical id, made once

    def __post_init__(self) -> None:
        object.__setattr__(self, "key", f"bid:{self.card}")


def parse_move(key: str) -> Bid:
    kind, _, arg = key.partition(":")
    if kind != "bid" or not arg.isdigit():
        raise MalformedMoveError(f"{key!r} is not a Goofspiel move (expected bid:<card>)")
    return Bid(int(arg))

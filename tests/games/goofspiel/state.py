"""Goofspiel's state and view: frozen values, tuples inside."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Trick:
    """One revealed round: the prize, every seat's bid, the winner (None on a tie)."""

    prize: int
    bids: tuple[int, ...]
    winner: int | None


@dataclass(frozen=True, slots=True)
class State:
    """Everything the server stores. ``prize_deck`` order and ``bids`` are hidden."""

    cards: int
    prize: int | None  # face-up prize of this round; None once the game is over
    prize_deck: tuple[int, ...]  # face down, top first
    hands: tuple[tuple[int, ...], ...]  # sorted; public (every spent card was revealed)
    bids: tuple[int | None, ...]  # this round's face-down bids
    scores: tuple[int, ...]
    tricks: tuple[Trick, ...]
    rng: int

    @property
    def seats(self) -> int:
        return len(self.hands)


@dataclass(frozen=True, slots=True)
class View:
    """What one seat (or a spectator, ``seat == -1``) may know."""

    seat: int
    prize: int | None
    prizes_left: tuple[int, ...]  # the face-down prizes as a sorted set: order hidden
    hands: tuple[tuple[int, ...], ...]
    has_bid: tuple[bool, ...]
    my_bid: int | None
    scores: tuple[int, ...]
    tricks: tuple[Trick, ...]

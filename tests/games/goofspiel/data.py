"""Goofspiel's components and options."""

from __future__ import annotations

from tribes.engine import OptionSpec

#: Deck sizes a game can be created with (option ``cards``); 25 is the game the
#: peer benchmark plays (50 moves a game at two seats).
CARD_COUNTS = ("3", "5", "8", "13", "25")

OPTIONS = (
    OptionSpec(
        name="cards",
        description="cards per suit (rounds in the game)",
        default="13",
        choices=CARD_COUNTS,
    ),
)

SEAT_COUNTS = (2, 3, 4)

"""Goofspiel's components and options."""

from __future__ import annotations

from tribes.engine import OptionSpec

#: Deck sizes a game can be created with (option ``cards``).
CARD_COUNTS = ("3", "5", "8", "13")

OPTIONS = (
    OptionSpec(
        name="cards",
        description="cards per suit (rounds in the game)",
        default="13",
        choices=CARD_COUNTS,
    ),
)

SEAT_COUNTS = (2, 3, 4)

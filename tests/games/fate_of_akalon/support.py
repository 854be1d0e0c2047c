"""Fate of Akalon as the conformance suite sees it (spec §6 hidden information, §10.3).

Configurations: every 2-player faction pairing, 3-player line-ups and 4-player team
splits; 17 seeded playouts each, so each mode plays at least 100 games.
"""

from __future__ import annotations

from dataclasses import replace

from tests.support.conformance import Config, Subject
from tribes.engine.rng import Rng
from tribes.games.fate_of_akalon import GAME
from tribes.games.fate_of_akalon.state import PlayerArea, State, TaskKind


def _hide(area: PlayerArea, rng: Rng, *, hand_too: bool) -> PlayerArea:
    """Shuffle the deck; for another seat also trade hand cards with the deck (sizes kept)."""
    if not hand_too:
        return replace(area, deck=rng.shuffled(area.deck))
    pool = rng.shuffled(area.hand + area.deck)
    size = len(area.hand)
    return replace(
        area,
        hand=tuple(sorted(pool[:size])),
        deck=pool[size:],
        private_log=(*area.private_log, f"perturbed {rng.below(1000)}"),
    )


def perturb(state: State, viewer: int, rng: Rng) -> State:
    """Change only what ``viewer`` must not know (§6).

    Other seats' hands (traded with their decks), every deck order, other seats'
    private logs, the options of another seat's pending choice, and the PRNG state.
    """
    players = tuple(
        _hide(area, rng, hand_too=seat != viewer) for seat, area in enumerate(state.players)
    )
    stack = state.stack
    pending = state.pending
    if pending is not None and pending.actor != viewer and stack:
        top = stack[-1]
        if top.kind is TaskKind.ABILITY and len(top.options) > 1:
            stack = (*stack[:-1], replace(top, options=top.options[1:]))
    return replace(state, players=players, stack=stack, rng=rng.next_u64())


_PAIRS = ("elf,orc", "dwarf,elf", "orc,undead", "dwarf,undead", "undead,elf", "orc,dwarf")
_TRIOS = (
    "dwarf,orc,elf",
    "elf,orc,undead",
    "undead,dwarf,elf",
    "orc,undead,dwarf",
    "elf,dwarf,orc",
    "undead,elf,dwarf",
)
# Teams are seats 0+2 and 1+3: every way to split the four factions, in two seatings.
_FOURS = (
    "orc,elf,undead,dwarf",
    "elf,orc,dwarf,undead",
    "orc,dwarf,elf,undead",
    "dwarf,undead,orc,elf",
    "orc,elf,dwarf,undead",
    "undead,dwarf,elf,orc",
)

SUBJECT = Subject(
    game=GAME,
    configs=tuple(
        Config(seats, {"factions": factions})
        for seats, line_ups in ((2, _PAIRS), (3, _TRIOS), (4, _FOURS))
        for factions in line_ups
    ),
    perturb=perturb,
    playouts=17,
    sample_every=2,
)

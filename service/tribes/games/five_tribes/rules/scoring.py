"""Final scoring (rules spec §3.8, §7.2, §7.3, examples E20-E22).

Merchandise is scored by the optimal split into suits of different types: the
"layered" split (suit i holds every type held at least i times) is optimal because
``SUIT_VALUE`` is convex; Al-Amin's wild cards (one per 2 Fakirs) each go to the
largest suit that can still grow, which is optimal for the same reason.
"""

from __future__ import annotations

from dataclasses import dataclass

from tribes.games.five_tribes.data import (
    DJINNS,
    ELDER_VP,
    ELDER_VP_SHAMHAT,
    FAKIRS_PER_WILD,
    MERCHANDISE,
    PALACE_VP,
    PALM_VP,
    PALM_VP_HAURVATAT,
    SUIT_VALUE,
    TILE_TYPES,
    VIZIER_BONUS,
    VIZIER_VP,
    VIZIER_VP_JAFAAR,
    Djinn,
)
from tribes.games.five_tribes.state import State

MAX_SUIT = len(MERCHANDISE)


@dataclass(frozen=True, slots=True)
class ScoreSheet:
    """One player's end-game VP by scoring item (§3.8)."""

    gold: int
    viziers: int
    vizier_bonus: int
    elders: int
    djinns: int
    tiles: int
    palms: int
    palaces: int
    merchandise: int

    @property
    def total(self) -> int:
        return (
            self.gold
            + self.viziers
            + self.vizier_bonus
            + self.elders
            + self.djinns
            + self.tiles
            + self.palms
            + self.palaces
            + self.merchandise
        )


def suits(counts: tuple[int, ...] | list[int], wilds: int = 0) -> list[int]:
    """Suit sizes of the best split of merchandise ``counts`` plus ``wilds`` (§7.2)."""
    sizes: list[int] = []
    level = 1
    while True:
        size = sum(1 for count in counts if count >= level)
        if not size:
            break
        sizes.append(size)
        level += 1
    for _ in range(wilds):
        # layered sizes never increase, so the first suit below 9 is the largest that can grow
        for i, size in enumerate(sizes):
            if size < MAX_SUIT:
                sizes[i] = size + 1
                break
        else:
            sizes.append(1)
    return sizes


def merchandise_value(counts: tuple[int, ...] | list[int], wilds: int = 0) -> int:
    """VP of merchandise ``counts`` (9 types) with ``wilds`` Al-Amin wild cards (§7.2)."""
    return sum(SUIT_VALUE[size] for size in suits(counts, wilds))


def score_sheet(state: State, seat: int) -> ScoreSheet:
    """§7.2 for one player."""
    player = state.players[seat]
    owns = player.djinns
    fewer = sum(1 for other in state.players if other.viziers < player.viziers)
    palm_vp = PALM_VP_HAURVATAT if Djinn.HAURVATAT in owns else PALM_VP
    tiles = palms = palaces = 0
    for tile, owner in enumerate(state.owners):
        if owner == seat:
            tiles += TILE_TYPES[state.layout[tile]].value
            palms += state.palms[tile] * palm_vp
            palaces += state.palaces[tile] * PALACE_VP
    wilds = player.fakirs // FAKIRS_PER_WILD if Djinn.AL_AMIN in owns else 0
    return ScoreSheet(
        gold=player.gold,
        viziers=player.viziers * (VIZIER_VP_JAFAAR if Djinn.JAFAAR in owns else VIZIER_VP),
        vizier_bonus=VIZIER_BONUS * fewer,
        elders=player.elders * (ELDER_VP_SHAMHAT if Djinn.SHAMHAT in owns else ELDER_VP),
        djinns=sum(DJINNS[d].vp for d in owns),
        tiles=tiles,
        palms=palms,
        palaces=palaces,
        merchandise=merchandise_value(player.cards[: len(MERCHANDISE)], wilds),
    )


def final_scores(state: State) -> tuple[int, ...]:
    return tuple(score_sheet(state, seat).total for seat in range(state.seats))

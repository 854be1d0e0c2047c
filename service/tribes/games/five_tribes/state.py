"""Five Tribes state and view: frozen values, tuples inside (rules spec §5.1 and §6).

``State`` is everything the server stores, hidden parts included (draw piles, bag,
every player's gold, the PRNG); ``View`` is what one seat or a spectator may see
(§6). Tiles are indexed ``r*6 + c`` (see ``grid``); meeple and card multisets are
tuples of counts indexed by ``Meeple`` and ``Card``.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass

from tribes.games.five_tribes.data import Card, Djinn, Meeple


class Step(enum.Enum):
    """The pending decision (§5.2): a phase, an action-turn step or a sub-decision."""

    BID = "bid"
    START = "start"
    DROP = "drop"
    TRIBE = "tribe"
    TILE = "tile"
    SALE = "sale"
    PLACE_PALM = "place-palm"
    PLACE_PALACE = "place-palace"
    SIBITTIS_KEEP = "sibittis-keep"
    GAME_OVER = "game-over"


#: Steps in which the actor may activate Djinns (§5.2 "Djinn windows").
DJINN_WINDOWS = frozenset({Step.START, Step.TRIBE, Step.TILE, Step.SALE})
SUB_DECISIONS = frozenset({Step.PLACE_PALM, Step.PLACE_PALACE, Step.SIBITTIS_KEEP})


@dataclass(frozen=True, slots=True)
class Player:
    """One player's holdings (§5.1 "Per player")."""

    gold: int
    viziers: int
    elders: int
    cards: tuple[int, ...]  # count per Card, Fakirs included
    djinns: tuple[Djinn, ...]  # in the order acquired
    camels: int  # camels not yet placed
    used: tuple[Djinn, ...]  # paid powers used this round (sorted)
    echidna: bool  # Builders' gold doubled until the end of the round
    iblis: bool  # Assassins kill two until the end of the round

    @property
    def fakirs(self) -> int:
        return self.cards[Card.FAKIR]

    def owns(self, djinn: Djinn) -> bool:
        return djinn in self.djinns

    def can_use(self, djinn: Djinn) -> bool:
        """Owns the Djinn and has not used its paid power this round (§3.6)."""
        return djinn in self.djinns and djinn not in self.used


@dataclass(frozen=True, slots=True)
class Pending:
    """A sub-decision (§5.1 ``pending``): where to resume, and its data."""

    return_step: Step
    tile: int | None  # the intended tile of a palm/palace placement
    drawn: tuple[Djinn, ...]  # Djinns drawn by Sibittis (out of every pile while pending)


@dataclass(frozen=True, slots=True)
class Turn:
    """The current action turn (§5.1 ``current``)."""

    marker: int
    seat: int
    hand: tuple[int, ...]  # meeples in hand: still to drop (DROP) or the collected tribe (TRIBE)
    pos: int | None  # the tile last dropped on (the start tile right after PickUp)
    prev: int | None  # the tile before ``pos`` (no immediate backtracking, §5.5.1)
    start: int | None
    final: int | None  # the final tile, once the last meeple is dropped (A3)
    tribe: Meeple | None  # the colour collected at A3
    collected: int
    pending: Pending | None


@dataclass(frozen=True, slots=True)
class State:
    """Everything the server stores (§5.1). Hidden: piles, bag, gold, ``rng`` (§6)."""

    seats: int
    redirect_reach: int  # 8 or 4 tiles for Hagis/Lamia (option, §10.2)
    nekir_per_meeple: bool  # option, §10.3
    round: int
    step: Step
    layout: tuple[int, ...]  # tile type id (data.TILE_TYPES) per tile
    meeples: tuple[tuple[int, ...], ...]  # per tile: count per Meeple
    owners: tuple[int | None, ...]  # seat whose camel is on the tile
    palms: tuple[int, ...]
    palaces: tuple[int, ...]
    bag: tuple[int, ...]  # count per Meeple
    palm_supply: int
    palace_supply: int
    resource_pile: tuple[Card, ...]  # face down, top first
    resource_row: tuple[Card, ...]  # face up, front first
    resource_discard: tuple[Card, ...]
    djinn_pile: tuple[Djinn, ...]  # face down, top first
    djinn_display: tuple[Djinn, ...]
    djinn_discard: tuple[Djinn, ...]
    players: tuple[Player, ...]
    bid_order: tuple[int, ...]  # markers still to bid this round, front first
    next_bid_order: tuple[int, ...]  # markers in the order they started their turns
    track: tuple[int | None, ...]  # marker on each paid spot, in data.PAID_SPOTS order
    zero_aisle: tuple[int, ...]  # markers on the 0 spots, first to play first
    overflow: tuple[int, ...]  # RECONSTRUCTED fallback spot (§5.3)
    turn: Turn | None
    end_triggered: bool
    final_scores: tuple[int, ...] | None  # set when the game ends (§7)
    rng: int

    def marker_owner(self, marker: int) -> int:
        """Markers are numbered so that marker m belongs to seat m % seats (2p: 2 each)."""
        return marker % self.seats


@dataclass(frozen=True, slots=True)
class PlayerView:
    """A player as a viewer sees them: gold is None when hidden (§6)."""

    gold: int | None
    viziers: int
    elders: int
    cards: tuple[int, ...]
    djinns: tuple[Djinn, ...]
    camels: int
    used: tuple[Djinn, ...]
    echidna: bool
    iblis: bool


@dataclass(frozen=True, slots=True)
class TurnView:
    """The public turn context; Sibittis draws only for the Sibittis user (§6)."""

    marker: int
    seat: int
    hand: tuple[int, ...]
    pos: int | None
    prev: int | None
    start: int | None
    final: int | None
    tribe: Meeple | None
    collected: int
    return_step: Step | None
    pending_tile: int | None
    drawn_count: int
    drawn: tuple[Djinn, ...]


@dataclass(frozen=True, slots=True)
class View:
    """What one seat (or a spectator, ``seat == -1``) may know (§6)."""

    seat: int
    round: int
    step: Step
    to_act: tuple[int, ...]
    end_triggered: bool
    tiles: tuple[str, ...]  # tile codes of data.TILE_TYPES ("S10", "SM", ...)
    meeples: tuple[tuple[int, ...], ...]
    owners: tuple[int | None, ...]
    palms: tuple[int, ...]
    palaces: tuple[int, ...]
    bag_size: int
    palm_supply: int
    palace_supply: int
    resource_pile_size: int
    resource_row: tuple[Card, ...]
    resource_discard: tuple[Card, ...]
    djinn_pile_size: int
    djinn_display: tuple[Djinn, ...]
    djinn_discard: tuple[Djinn, ...]
    players: tuple[PlayerView, ...]
    marker_owners: tuple[int, ...]
    bid_order: tuple[int, ...]
    next_bid_order: tuple[int, ...]
    track: tuple[int | None, ...]
    zero_aisle: tuple[int, ...]
    overflow: tuple[int, ...]
    turn: TurnView | None
    final_scores: tuple[int, ...] | None

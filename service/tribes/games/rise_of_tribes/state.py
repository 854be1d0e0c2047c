"""Rise of Tribes state: frozen values with tuples inside (spec §5.0).

``State`` is everything the server stores, hidden parts included (each goal deck's
order, the event deck's order, the PRNG state: spec §6); ``view.View`` is what every
seat and spectator sees. Hexes are referred to by their id (the index in the layout,
the spec's ``Hn``); seats by their number; "none" is -1 in the few int fields where a
hex or seat may be absent (cheaper than ``None`` in the hot paths).
"""

from __future__ import annotations

from dataclasses import dataclass

from tribes.games.rise_of_tribes.cards import Event, Goal
from tribes.games.rise_of_tribes.data import (
    Action,
    EventSet,
    Face,
    FastEnum,
    Leaders,
    Power,
    Resource,
    Terrain,
    Tier,
    Tribe,
)
from tribes.games.rise_of_tribes.maps import Hex

NOBODY = -1  # no seat / no hex in an int field


class Step(FastEnum):
    """The pending decision (§5.9 move catalogue); GAME_OVER when nothing is pending."""

    CHOOSE_POWER = "choose-power"  # (house) §4 step 8a
    PLACE_START = "place-start"  # §4 step 9
    PLACE_START_SPLIT = "place-start-split"
    START_RESOURCES = "start-resources"
    RE_ENTER = "re-enter"  # Step 0, §5.1
    PLACE_INVADERS = "place-invaders"  # events, §5.4.1
    PLACE_MAMMOTH = "place-mammoth"
    PLACE_TIGER = "place-tiger"
    PLACE_VOLCANO = "place-volcano"
    VOLCANO_LOSS = "volcano-loss"  # §5.4.3
    CHIEFTAIN_BID = "chieftain-bid"  # §5.4.4
    CHIEFTAIN_GIVE = "chieftain-give"
    ABANDONED_VILLAGE = "abandoned-village"  # §5.4.5
    ACTION = "action"  # Step 3: AssignDie / SpendDie / CunningReroll, §5.5
    GROW = "grow"
    MOVE_SELECT = "move-select"
    MOVE_COUNT = "move-count"
    DISCOVERY = "discovery"
    AMBUSH = "ambush"  # (house)
    GATHER = "gather"
    BASKETRY = "basketry"
    LEAD = "lead"
    CHOOSE_CONFLICT = "choose-conflict"  # Step 4, §5.6
    EVADE = "evade"  # (house)
    BOW = "bow"
    WALLS = "walls"
    GOALS = "goals"  # Step 5, §5.7
    GAME_OVER = "game-over"


@dataclass(frozen=True, slots=True)
class Player:
    """One player's holdings (§5.0 ``players[i]``).

    ``vp`` is the actual total (uncapped, §3.8); ``vp_villages`` and ``vp_events`` are
    the parts scored at Step 1 and from events, so the total can be recounted with the
    completed goal cards.
    """

    tribe: Tribe
    power: Power | None  # (house) the chosen leader power; None with leaders = off
    vp: int
    vp_villages: int
    vp_events: int
    supply: int  # tribe members not on the map
    resources: tuple[int, int, int]  # food, wood, stone
    goal_deck: tuple[Goal, ...]  # top first; its order is HIDDEN (§6)
    in_progress: tuple[Goal, ...]  # face up, in the order drawn
    completed: tuple[Goal, ...]  # in the order completed
    owned_events: tuple[Event, ...]  # acquired Altar / Dugout Canoe / Walls
    mammoth_tamed: bool


@dataclass(frozen=True, slots=True)
class Slot:
    """A lasting event in one of the two event slots and what lies on the card (§3.7)."""

    event: Event
    food: int
    wood: int
    stone: int
    tokens: int  # Mild Winter counters, Altar/Canoe/Walls tokens


@dataclass(frozen=True, slots=True)
class Turn:
    """The active player's turn (§5.0 ``turn``): dice, actions taken, once-per-turn flags.

    ``roll_stage`` is how far the doubles of this turn's roll have been processed
    (§5.3 step 2): 0 and 1 = the any-doubles clause of slot 1 / slot 2 is next, 2 = the
    event draw is next, 3 = done (also when the roll was not doubles).
    """

    rolled: tuple[Face, ...]  # the two faces rolled in Step 2 (before any Cunning reroll)
    dice_left: tuple[Face, ...]  # rolled dice not used yet
    actions_taken: tuple[Action, ...]  # in the order taken
    dice_used: int  # dice assigned or spent so far (Cunning needs 0)
    roll_stage: int
    draw_blocked: bool  # both slots were full at the doubles roll: nothing is drawn
    gathered: int  # gathered_this_turn for A1 (event resources excluded)
    raided: bool  # raided_this_turn for A7
    shared_knowledge_used: bool
    altar_used: bool
    pottery_used: bool
    trader_used: bool  # (house)
    cunning_used: bool  # (house)
    moved: tuple[int, ...]  # per hex: the active player's members there that moved this turn


@dataclass(frozen=True, slots=True)
class ActionState:
    """The action being resolved (§5.5).

    ``hexes``: GROW, the hexes open to placement (fixed when it began); GATHER, the hexes
    gathered so far, in order, with ``types`` the resource taken from each. ``count``:
    GROW members placed, LEAD cards recycled, GATHER resources gained (for A1).
    ``origin``/``target``: the MOVE's hexes once selected.
    """

    action: Action
    tier: Tier
    power: int
    hexes: tuple[int, ...]
    types: tuple[Resource, ...]
    count: int
    origin: int
    target: int


@dataclass(frozen=True, slots=True)
class Conflict:
    """Step 4 in progress (§5.6): the hexes left, the one being resolved and its sides.

    ``waiting`` are the seats still to decide in the current stage (Evasion owners in
    EVADE, Walls owners in WALLS), first one to act first.
    """

    remaining: tuple[int, ...]
    hex: int  # NOBODY while the next hex is being chosen
    start_sides: tuple[int, ...]  # seats with members in the hex when its resolution began
    invaders_at_start: bool
    waiting: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class Resolving:
    """An instant event being resolved: Volcano, Chieftain or Abandoned Village (§5.4).

    ``waiting``: seats still to act, the next one first (Volcano: tribes with losses
    left; Chieftain: live bidders in bidding order; Abandoned Village: players still to
    choose). ``losses`` (Volcano) per seat; ``near`` the tribes next to the volcano
    before the eruption. Chieftain: the high bid, its bidder and what is left to hand out.
    """

    event: Event
    waiting: tuple[int, ...]
    losses: tuple[int, ...]
    near: tuple[int, ...]
    high_bid: int
    high_bidder: int
    to_give: int


@dataclass(frozen=True, slots=True)
class State:
    """Everything the server stores (§5.0). Hidden: goal and event deck orders, ``rng``."""

    seats: int
    event_set: EventSet
    leaders: Leaders
    turn_cap: int
    terrain: tuple[Terrain, ...]  # per hex id
    members: tuple[tuple[int, ...], ...]  # [hex][seat] tribe members
    villages: tuple[int, ...]  # owner seat per hex, NOBODY = no village
    invader_hex: int  # NOBODY when no invaders are on the map
    invaders: int
    mammoth_hex: int
    tiger_hex: int
    volcano: Hex | None  # off-map position of the volcano tile once placed
    rows: tuple[tuple[Face, ...], ...]  # per action (GROW, MOVE, GATHER, LEAD): slots 1..3
    pool: tuple[Face, ...]  # the dice the next player rolls (pushed off or spent)
    players: tuple[Player, ...]
    event_deck: tuple[Event, ...]  # top first; order HIDDEN (§6)
    event_discard: tuple[Event, ...]  # oldest first
    slots: tuple[Slot | None, ...]
    start_player: int
    step: Step
    actor: int  # the seat whose decision is pending (NOBODY at the end)
    active: int  # the seat whose turn it is (the start player during setup)
    turn: Turn | None  # None during setup
    action: ActionState | None
    conflict: Conflict | None
    resolving: Resolving | None
    turn_count: int  # completed turns of all players (§5.8)
    winner: int  # NOBODY until someone reaches 15 VP
    capped: bool  # ENGINE SAFEGUARD: the turn cap ended the game (§5.8)
    log: tuple[str, ...]  # recent public happenings, newest last
    rng: int

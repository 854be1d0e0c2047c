"""The view: one public picture of the game for every seat and spectator (spec §6).

Hidden is exactly: the order of each goal deck and of the event deck (shown as sizes)
and the PRNG state. Everything else of §5.0 is in the view, in a regular shape a
generic protobuf mapper can follow: frozen dataclasses of ints, strings, bools, enums,
optional values and tuples, hexes as ``Hex(q, r)``. It also carries the static tables a
frontend needs to draw the panels (goal and event card texts, tribe costs, powers) and
the pending decision with its options, so a spectator sees what is being decided.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

from tribes.engine import Viewer
from tribes.games.rise_of_tribes.cards import (
    ACQUIRE_TOKENS_MAX,
    EVENT_CARD,
    GOAL_CARD,
    Event,
    Goal,
    GoalKind,
    deck_for,
    event_deck_for,
)
from tribes.games.rise_of_tribes.data import (
    ACTION_POWER,
    ACTIONS,
    BOARD_OF,
    POWER_RULE,
    VILLAGE_POOL,
    Action,
    EventSet,
    Face,
    Leaders,
    Power,
    Resource,
    Terrain,
    Tier,
    Tribe,
    tier_of,
)
from tribes.games.rise_of_tribes.maps import Hex, geometry
from tribes.games.rise_of_tribes.rules import legal_moves, to_act
from tribes.games.rise_of_tribes.rules.conflict import hex_limit
from tribes.games.rise_of_tribes.rules.query import gather_types, volcano_neighbours
from tribes.games.rise_of_tribes.state import NOBODY, State, Step

# fmt: off


@dataclass(frozen=True, slots=True)
class Resources:
    food: int
    wood: int
    stone: int


@dataclass(frozen=True, slots=True)
class HexView:
    """One map hex: ``id`` is the spec's Hn; ``members`` has one count per seat."""
    id: int
    coord: Hex
    terrain: Terrain
    neighbours: tuple[Hex, ...]
    members: tuple[int, ...]
    member_total: int
    village_owner: int | None
    invaders: int
    mammoth: bool
    tiger: bool
    next_to_volcano: bool
    gather_options: tuple[Resource, ...]  # what a GATHER may take here
    moved_this_turn: int  # the active player's members here that already moved this turn


@dataclass(frozen=True, slots=True)
class ActionRowView:
    """One Action Board column: its three dice (slot 1 first) and the tier they show."""
    action: Action
    dice: tuple[Face, ...]
    tier: Tier
    base_power: int  # the printed power of that tier (bonuses not included)


@dataclass(frozen=True, slots=True)
class EventSlotView:
    slot: int  # 1 or 2
    event: Event | None
    food: int
    wood: int
    stone: int
    tokens: int  # Mild Winter counters, Altar/Canoe/Walls tokens
    acquire_price: int | None  # Altar/Canoe/Walls: resources to buy it now


@dataclass(frozen=True, slots=True)
class PlayerView:
    seat: int
    order: int  # 1 = the start player, then clockwise
    tribe: Tribe
    tribe_name: str
    village_cost: Resources
    power: Power | None  # (house) the chosen leader power
    power_text: str
    power_choices: tuple[Power, ...]  # (house) the tribe's two powers
    vp: int
    vp_from_villages: int
    vp_from_events: int
    supply: int
    members_on_map: int
    eliminated: bool
    villages: int
    resources: Resources
    goal_deck_size: int
    goals_in_progress: tuple[Goal, ...]
    goals_completed: tuple[Goal, ...]
    owned_events: tuple[Event, ...]
    mammoth_tamed: bool


@dataclass(frozen=True, slots=True)
class TurnView:
    """The turn in progress: dice, actions taken and the once-per-turn flags (§5.0)."""
    active: int
    number: int  # 1 for the first turn of the game
    rolled: tuple[Face, ...]
    doubles: bool
    dice_left: tuple[Face, ...]
    actions_taken: tuple[Action, ...]
    dice_used: int
    roll_stage: int  # 0/1: slot 1/2's doubles clause next, 2: event draw next, 3: done
    event_draw_blocked: bool  # both slots were full at the doubles roll
    gathered_this_turn: int
    raided_this_turn: bool
    shared_knowledge_used: bool
    altar_used: bool
    pottery_used: bool
    trader_used: bool
    cunning_used: bool


@dataclass(frozen=True, slots=True)
class ActionView:
    """The action being resolved. ``hexes``: GROW the hexes open to it, GATHER the hexes
    gathered (``resources`` the type taken from each); ``count``: GROW placed, LEAD
    recycled, GATHER resources gained."""
    action: Action
    tier: Tier
    power: int
    hexes: tuple[Hex, ...]
    resources: tuple[Resource, ...]
    count: int
    from_hex: Hex | None
    to_hex: Hex | None


@dataclass(frozen=True, slots=True)
class ConflictView:
    remaining: tuple[Hex, ...]  # conflict hexes not resolved yet
    hex: Hex | None  # the hex being resolved
    start_sides: tuple[int, ...]
    invaders_at_start: bool
    waiting: tuple[int, ...]  # seats still to decide (Evasion, Walls)


@dataclass(frozen=True, slots=True)
class ResolvingView:
    """An instant event in progress: Volcano losses, Chieftain auction, Abandoned Village."""
    event: Event
    waiting: tuple[int, ...]
    losses: tuple[int, ...]
    near_volcano: tuple[int, ...]
    high_bid: int
    high_bidder: int | None
    to_give: int


@dataclass(frozen=True, slots=True)
class PendingView:
    step: Step
    actor: int | None
    options: tuple[str, ...]  # the move ids the actor may choose from


@dataclass(frozen=True, slots=True)
class GoalCardView:
    goal: Goal
    id: str
    name: str
    kind: GoalKind
    cost: Resources
    vp: int
    text: str


@dataclass(frozen=True, slots=True)
class EventCardView:
    event: Event
    id: str
    name: str
    lasting: bool
    text: str


@dataclass(frozen=True, slots=True)
class View:
    """The whole public game (§6): one and the same for every seat and spectator."""
    seats: int
    leaders: Leaders
    house_rules: bool
    event_set: EventSet
    turn_cap: int
    hex_limit: int
    hexes: tuple[HexView, ...]
    volcano: Hex | None
    action_rows: tuple[ActionRowView, ...]
    roll_pool: tuple[Face, ...]
    players: tuple[PlayerView, ...]
    villages_in_pool: int
    event_deck_size: int
    event_discard: tuple[Event, ...]
    event_slots: tuple[EventSlotView, ...]
    start_player: int
    active: int
    step: Step
    to_act: tuple[int, ...]
    pending: PendingView
    turn: TurnView | None
    action: ActionView | None
    conflict: ConflictView | None
    resolving: ResolvingView | None
    turn_count: int
    winner: int | None
    capped: bool
    log: tuple[str, ...]
    goal_cards: tuple[GoalCardView, ...]
    event_cards: tuple[EventCardView, ...]
# fmt: on


def _seat(value: int) -> int | None:
    return None if value == NOBODY else value


def _res(triple: tuple[int, int, int]) -> Resources:
    return Resources(triple[0], triple[1], triple[2])


@cache
def goal_catalogue(seats: int) -> tuple[GoalCardView, ...]:
    return tuple(
        GoalCardView(g, c.id, c.name, c.kind, _res(c.cost), c.vp, c.text)
        for g in deck_for(seats)
        for c in (GOAL_CARD[g],)
    )


@cache
def event_catalogue(event_set: EventSet) -> tuple[EventCardView, ...]:
    return tuple(
        EventCardView(e, c.id, c.name, c.lasting, c.text)
        for e in event_deck_for(event_set)
        for c in (EVENT_CARD[e],)
    )


@cache
def _hex_statics(seats: int) -> tuple[tuple[Hex, tuple[Hex, ...]], ...]:
    """Each hex's coordinate and neighbours (fixed per layout)."""
    geo = geometry(seats)
    return tuple(
        (c, tuple(geo.hexes[n] for n in geo.neighbours[h])) for h, c in enumerate(geo.hexes)
    )


def _hexes(state: State) -> tuple[HexView, ...]:
    near = volcano_neighbours(state.seats, state.volcano)
    moved = state.turn.moved if state.turn is not None else (0,) * len(state.members)
    statics = _hex_statics(state.seats)
    inv_hex, mammoth, tiger = state.invader_hex, state.mammoth_hex, state.tiger_hex
    out = []
    for h, row in enumerate(state.members):
        coord, neighbours = statics[h]
        terrain = state.terrain[h]
        owner = state.villages[h]
        out.append(
            HexView(
                id=h,
                coord=coord,
                terrain=terrain,
                neighbours=neighbours,
                members=row,
                member_total=sum(row),
                village_owner=None if owner == NOBODY else owner,
                invaders=state.invaders if h == inv_hex else 0,
                mammoth=h == mammoth,
                tiger=h == tiger,
                next_to_volcano=h in near,
                gather_options=gather_types(terrain, h in near),
                moved_this_turn=moved[h],
            )
        )
    return tuple(out)


def _players(state: State) -> tuple[PlayerView, ...]:
    house = state.leaders is Leaders.HOUSE
    out = []
    for seat, p in enumerate(state.players):
        board = BOARD_OF[p.tribe]
        on_map = sum(row[seat] for row in state.members)
        out.append(
            PlayerView(
                seat=seat,
                order=(seat - state.start_player) % state.seats + 1,
                tribe=p.tribe,
                tribe_name=board.name,
                village_cost=_res(board.village_cost),
                power=p.power,
                power_text=POWER_RULE[p.power].text if p.power is not None else "",
                power_choices=board.powers if house else (),
                vp=p.vp,
                vp_from_villages=p.vp_villages,
                vp_from_events=p.vp_events,
                supply=p.supply,
                members_on_map=on_map,
                eliminated=on_map == 0 and state.turn is not None,
                villages=state.villages.count(seat),
                resources=_res(p.resources),
                goal_deck_size=len(p.goal_deck),
                goals_in_progress=p.in_progress,
                goals_completed=p.completed,
                owned_events=p.owned_events,
                mammoth_tamed=p.mammoth_tamed,
            )
        )
    return tuple(out)


def _slots(state: State) -> tuple[EventSlotView, ...]:
    out = []
    for i, slot in enumerate(state.slots):
        if slot is None:
            out.append(EventSlotView(i + 1, None, 0, 0, 0, 0, None))
            continue
        acquire = EVENT_CARD[slot.event].acquire
        price = ACQUIRE_TOKENS_MAX - slot.tokens if acquire is not None else None
        out.append(
            EventSlotView(i + 1, slot.event, slot.food, slot.wood, slot.stone, slot.tokens, price)
        )
    return tuple(out)


def _turn(state: State) -> TurnView | None:
    t = state.turn
    if t is None:
        return None
    return TurnView(
        active=state.active,
        number=state.turn_count + 1,
        rolled=t.rolled,
        doubles=len(t.rolled) == 2 and t.rolled[0] is t.rolled[1],
        dice_left=t.dice_left,
        actions_taken=t.actions_taken,
        dice_used=t.dice_used,
        roll_stage=t.roll_stage,
        event_draw_blocked=t.draw_blocked,
        gathered_this_turn=t.gathered,
        raided_this_turn=t.raided,
        shared_knowledge_used=t.shared_knowledge_used,
        altar_used=t.altar_used,
        pottery_used=t.pottery_used,
        trader_used=t.trader_used,
        cunning_used=t.cunning_used,
    )


def _context(state: State) -> tuple[ActionView | None, ConflictView | None, ResolvingView | None]:
    hexes = geometry(state.seats).hexes

    def at(h: int) -> Hex | None:
        return None if h == NOBODY else hexes[h]

    a, c, r = state.action, state.conflict, state.resolving
    action = None
    if a is not None:
        action = ActionView(
            a.action,
            a.tier,
            a.power,
            tuple(hexes[h] for h in a.hexes),
            a.types,
            a.count,
            at(a.origin),
            at(a.target),
        )
    conflict = None
    if c is not None:
        conflict = ConflictView(
            tuple(hexes[h] for h in c.remaining),
            at(c.hex),
            c.start_sides,
            c.invaders_at_start,
            c.waiting,
        )
    resolving = None
    if r is not None:
        resolving = ResolvingView(
            r.event, r.waiting, r.losses, r.near, r.high_bid, _seat(r.high_bidder), r.to_give
        )
    return action, conflict, resolving


def view(state: State, viewer: Viewer) -> View:
    """The public game; ``viewer`` (a seat or SPECTATOR) changes nothing (§6)."""
    over = state.step is Step.GAME_OVER
    options = () if over else tuple(m.key for m in legal_moves(state, state.actor))
    action, conflict, resolving = _context(state)
    return View(
        seats=state.seats,
        leaders=state.leaders,
        house_rules=state.leaders is Leaders.HOUSE,
        event_set=state.event_set,
        turn_cap=state.turn_cap,
        hex_limit=hex_limit(state),
        hexes=_hexes(state),
        volcano=state.volcano,
        action_rows=tuple(
            ActionRowView(a, row, tier_of(row), ACTION_POWER[a][tier_of(row)])
            for a, row in zip(ACTIONS, state.rows, strict=True)
        ),
        roll_pool=state.pool,
        players=_players(state),
        villages_in_pool=VILLAGE_POOL - sum(1 for v in state.villages if v != NOBODY),
        event_deck_size=len(state.event_deck),
        event_discard=state.event_discard,
        event_slots=_slots(state),
        start_player=state.start_player,
        active=state.active,
        step=state.step,
        to_act=to_act(state),
        pending=PendingView(state.step, _seat(state.actor), options),
        turn=_turn(state),
        action=action,
        conflict=conflict,
        resolving=resolving,
        turn_count=state.turn_count,
        winner=_seat(state.winner),
        capped=state.capped,
        log=state.log,
        goal_cards=goal_catalogue(state.seats),
        event_cards=event_catalogue(state.event_set),
    )

"""Step 3: the four actions, GROW, MOVE, GATHER and LEAD (spec §5.5, §8.2, §8.4, §8.13-§8.26).

Each action starts from its tier and power (``START``, called by ``dice`` once the die is
placed) and is a short sequence of small decisions kept in ``State.action``, resolved
completely before the next die (§8.2); ``next_die`` then asks for the next die or, when
both are used, starts Step 4.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

from tribes.games.rise_of_tribes.cards import EVENT_CARD, Event, Goal
from tribes.games.rise_of_tribes.data import (
    ACTIONS,
    GATHER_YIELD,
    PRODUCES,
    RES_INDEX,
    RESOURCES,
    Action,
    Face,
    Power,
    Resource,
    Terrain,
    Tier,
)
from tribes.games.rise_of_tribes.maps import geometry
from tribes.games.rise_of_tribes.moves import (
    GATHER_DONE,
    GROW_DONE,
    LEAD_DRAW,
    MOVE_SKIP,
    AmbushRemove,
    BasketryBonus,
    DiscoveryTake,
    GatherHex,
    GrowPlace,
    Move,
    MoveCount,
    MoveSelect,
    RecycleGoal,
)
from tribes.games.rise_of_tribes.rules import conflict
from tribes.games.rise_of_tribes.rules.board import Board
from tribes.games.rise_of_tribes.rules.query import (
    gather_types,
    invaders_at,
    opponents_in,
    reach_table,
    volcano_neighbours,
)
from tribes.games.rise_of_tribes.state import NOBODY, ActionState, State, Step

_FACES = (Face.SUN, Face.MOON, Face.BLANK)
_ROW = {action: i for i, action in enumerate(ACTIONS)}
_PLENTIFUL = {
    card.plentiful: card.event for card in EVENT_CARD.values() if card.plentiful is not None
}


def next_die(b: Board) -> None:
    """The action is over: the next die, or Step 4 when both are used (§8.2)."""
    b.action = None
    assert b.turn is not None
    if b.turn.dice_left:
        b.ask(Step.ACTION, b.active)
    else:
        conflict.start(b)


# -- GROW ---------------------------------------------------------------------------------------


def start_grow(b: Board, tier: Tier, power: int) -> None:
    """GROW N (``query.action_power``: Fire, Mild Winter and Farming counted), fixed before
    the Mild Winter counter goes (§5.5); the open hexes too."""
    seat = b.active
    winter = b.slot_of(Event.MILD_WINTER)
    if winter != NOBODY:
        slot = b.slots[winter]
        assert slot is not None
        b.set_slot(winter, replace(slot, tokens=slot.tokens - 1))
        if slot.tokens == 1:
            b.discard_slot(winter)
    own = [h for h, row in enumerate(b.members) if row[seat]]
    open_hexes = set(own)
    if own and b.has_power(seat, Power.EXOGAMY):
        neighbours = b.geo.neighbours
        for h, row in enumerate(b.members):
            if opponents_in(row, seat) and any(n in own for n in neighbours[h]):
                open_hexes.add(h)
    b.action = ActionState(
        Action.GROW, tier, power, tuple(sorted(open_hexes)), (), 0, NOBODY, NOBODY
    )
    if not own or b.players[seat].supply == 0:
        next_die(b)
        return
    b.ask(Step.GROW, seat)


def grow_moves(state: State) -> list[Move]:
    act = state.action
    assert act is not None
    hexes = geometry(state.seats).hexes
    moves: list[Move] = [GrowPlace(hexes[h]) for h in act.hexes]
    moves.append(GROW_DONE)
    return moves


def apply_grow_place(b: Board, h: int) -> None:
    act = b.action
    assert act is not None
    seat = b.active
    b.put(h, seat, 1, from_supply=True)
    b.action = act = replace(act, count=act.count + 1)
    if act.count >= act.power or b.players[seat].supply == 0:
        next_die(b)


# -- MOVE -----------------------------------------------------------------------------------------


def reach(state: State | Board, seat: int) -> tuple[tuple[int, ...], ...]:
    player = state.players[seat]
    extra = (Goal.OXEN in player.completed) + (player.power is Power.WAYFARERS)
    canoe = Event.DUGOUT_CANOE in player.owned_events
    return reach_table(len(state.players), state.terrain, extra, canoe)


def move_select_moves(state: State) -> list[Move]:
    turn = state.turn
    assert turn is not None
    seat = state.active
    hexes = geometry(state.seats).hexes
    table = reach(state, seat)
    moves: list[Move] = [
        MoveSelect(hexes[h], hexes[to])
        for h, row in enumerate(state.members)
        if row[seat] > turn.moved[h]
        for to in table[h]
    ]
    moves.append(MOVE_SKIP)
    return moves


def move_count_moves(state: State) -> list[Move]:
    act, turn = state.action, state.turn
    assert act is not None and turn is not None
    free = state.members[act.origin][state.active] - turn.moved[act.origin]
    return [MoveCount(n) for n in range(1, min(act.power, free) + 1)]


def apply_move_select(b: Board, origin: int, target: int) -> None:
    assert b.action is not None
    b.action = replace(b.action, origin=origin, target=target)
    b.ask(Step.MOVE_COUNT, b.active)


def apply_move_count(b: Board, count: int) -> None:
    """Move the group (C1 on the hex left), mark it moved; then Discovery and Ambush."""
    act, turn = b.action, b.turn
    assert act is not None and turn is not None
    seat, origin, target = b.active, act.origin, act.target
    before = b.members[target]
    only_opponents = before[seat] == 0 and opponents_in(before, seat) > 0
    b.take(origin, seat, count, to_supply=False)
    b.put(target, seat, count, from_supply=False)
    moved = list(turn.moved)
    moved[target] += count
    b.turn = replace(turn, moved=tuple(moved))
    hexes = b.geo.hexes
    b.log(f"seat {seat} moves {count} from {hexes[origin].text} to {hexes[target].text}")
    discovery = b.slot_of(Event.DISCOVERY)
    if discovery != NOBODY and only_opponents:
        b.ask(Step.DISCOVERY, seat)
        return
    _ambush(b)


def discovery_moves(state: State) -> list[Move]:
    for slot in state.slots:
        if slot is not None and slot.event is Event.DISCOVERY:
            held = (slot.food, slot.wood, slot.stone)
            return [DiscoveryTake(r) for i, r in enumerate(RESOURCES) if held[i]]
    return []


def apply_discovery(b: Board, resource: Resource) -> None:
    index = b.slot_of(Event.DISCOVERY)
    slot = b.slots[index]
    assert slot is not None
    i = RES_INDEX[resource]
    held = [slot.food, slot.wood, slot.stone]
    held[i] -= 1
    b.set_slot(index, replace(slot, food=held[0], wood=held[1], stone=held[2]))
    gain = [0, 0, 0]
    gain[i] = 1
    b.gain(b.active, *gain)
    if not any(held):
        b.discard_slot(index)
    _ambush(b)


def ambush_targets(members: tuple[int, ...] | list[int], seat: int) -> list[int]:
    return [s for s, count in enumerate(members) if count and s != seat]


def _ambush(b: Board) -> None:
    """(house) Ambush after the move: auto when only one player is there (§3.5)."""
    act = b.action
    assert act is not None
    seat = b.active
    if b.has_power(seat, Power.AMBUSH):
        targets = ambush_targets(b.members[act.target], seat)
        if len(targets) > 1:
            b.ask(Step.AMBUSH, seat)
            return
        if targets:
            b.remove(act.target, targets[0], 1)
    next_die(b)


def ambush_moves(state: State) -> list[Move]:
    act = state.action
    assert act is not None
    return [AmbushRemove(s) for s in ambush_targets(state.members[act.target], state.active)]


def apply_ambush(b: Board, victim: int) -> None:
    assert b.action is not None
    b.remove(b.action.target, victim, 1)
    next_die(b)


# -- GATHER ---------------------------------------------------------------------------------------


def _gather_hexes(state: State | Board, chosen: tuple[int, ...]) -> list[int]:
    """Own hexes not gathered yet in this action and free of invaders."""
    seat = state.active
    return [
        h
        for h, row in enumerate(state.members)
        if row[seat] and h not in chosen and not invaders_at(state.invader_hex, state.invaders, h)
    ]


def gather_moves(state: State) -> list[Move]:
    act = state.action
    assert act is not None
    geo = geometry(state.seats)
    near = volcano_neighbours(state.seats, state.volcano)
    moves: list[Move] = [
        GatherHex(geo.hexes[h], r)
        for h in _gather_hexes(state, act.hexes)
        for r in gather_types(state.terrain[h], h in near)
    ]
    moves.append(GATHER_DONE)
    return moves


def apply_gather_hex(b: Board, h: int, resource: Resource) -> None:
    act = b.action
    assert act is not None
    seat = b.active
    amount = GATHER_YIELD
    if b.has_power(seat, Power.SHARED_BOUNTY) and opponents_in(b.members[h], seat):
        amount += 1
    gain = [0, 0, 0]
    gain[RES_INDEX[resource]] = amount
    b.gain(seat, *gain)
    b.action = act = replace(
        act, hexes=(*act.hexes, h), types=(*act.types, resource), count=act.count + amount
    )
    if len(act.hexes) >= act.power or not _gather_hexes(b, act.hexes):
        _end_gather(b)


def _end_gather(b: Board) -> None:
    """Basketry (a decision), then Agriculture and Plentiful (automatic)."""
    act = b.action
    assert act is not None
    if act.count and Goal.BASKETRY in b.players[b.active].completed:
        b.ask(Step.BASKETRY, b.active)
        return
    _after_basketry(b)


def basketry_moves(state: State) -> list[Move]:
    act = state.action
    assert act is not None
    return [BasketryBonus(r) for r in RESOURCES if r in act.types]


def apply_basketry(b: Board, resource: Resource) -> None:
    assert b.action is not None
    gain = [0, 0, 0]
    gain[RES_INDEX[resource]] = 1
    b.gain(b.active, *gain)
    b.action = replace(b.action, count=b.action.count + 1)
    _after_basketry(b)


def _after_basketry(b: Board) -> None:
    act = b.action
    assert act is not None and b.turn is not None
    seat = b.active
    pairs = list(zip(act.hexes, act.types, strict=True))
    count = act.count
    if b.has_power(seat, Power.AGRICULTURE) and any(
        r is Resource.FOOD and b.terrain[h] is Terrain.LAKE for h, r in pairs
    ):
        b.gain(seat, food=1)
        count += 1
    for h, r in pairs:  # Plentiful: hexes in the order chosen, own resource only (G27)
        terrain = b.terrain[h]
        if r is not PRODUCES[terrain]:
            continue
        index = b.slot_of(_PLENTIFUL[terrain])
        if index == NOBODY:
            continue
        slot = b.slots[index]
        assert slot is not None
        i = RES_INDEX[r]
        held = [slot.food, slot.wood, slot.stone]
        take = min(2, held[i])
        held[i] -= take
        gain = [0, 0, 0]
        gain[i] = take
        b.gain(seat, *gain)
        b.set_slot(index, replace(slot, food=held[0], wood=held[1], stone=held[2]))
        if not any(held):
            b.discard_slot(index)
    b.turn = replace(b.turn, gathered=max(b.turn.gathered, count))
    next_die(b)


def apply_gather_done(b: Board) -> None:
    _end_gather(b)


# -- LEAD -----------------------------------------------------------------------------------------


def recycle_limit(state: State | Board, seat: int) -> int:
    """Villages owned (+1 with Dreamtime, house) at the moment of the LEAD (§8.16)."""
    return state.villages.count(seat) + (state.players[seat].power is Power.DREAMTIME)


def lead_moves(state: State) -> list[Move]:
    act = state.action
    assert act is not None
    seat = state.active
    moves: list[Move] = []
    if act.count < recycle_limit(state, seat):
        moves = [RecycleGoal(g) for g in state.players[seat].in_progress]
    moves.append(LEAD_DRAW)
    return moves


def apply_recycle(b: Board, goal: Goal) -> None:
    """Under the deck, in the order recycled, before any draw (§5.5 LEAD)."""
    assert b.action is not None
    seat = b.active
    player = b.players[seat]
    in_progress = tuple(g for g in player.in_progress if g is not goal)
    b.set_player(
        seat, replace(player, in_progress=in_progress, goal_deck=(*player.goal_deck, goal))
    )
    b.action = replace(b.action, count=b.action.count + 1)
    b.log(f"seat {seat} recycles {goal.value}")


def apply_lead_draw(b: Board) -> None:
    act = b.action
    assert act is not None
    seat = b.active
    player = b.players[seat]
    count = act.power + act.count
    drawn, deck = player.goal_deck[:count], player.goal_deck[count:]
    b.set_player(seat, replace(player, goal_deck=deck, in_progress=(*player.in_progress, *drawn)))
    b.log(f"seat {seat} draws {len(drawn)} goal cards")
    next_die(b)


def start_move(b: Board, tier: Tier, power: int) -> None:
    """MOVE power M (Pathfinder counted); Oxen, Canoe and Wayfarers change reach only."""
    b.action = ActionState(Action.MOVE, tier, power, (), (), 0, NOBODY, NOBODY)
    b.ask(Step.MOVE_SELECT, b.active)


def start_gather(b: Board, tier: Tier, power: int) -> None:
    """GATHER H hexes; ends at once when no own hex may be gathered."""
    b.action = ActionState(Action.GATHER, tier, power, (), (), 0, NOBODY, NOBODY)
    if _gather_hexes(b, ()):
        b.ask(Step.GATHER, b.active)
    else:
        _end_gather(b)


def start_lead(b: Board, tier: Tier, power: int) -> None:
    """LEAD L cards (Cave Painting counted)."""
    b.action = ActionState(Action.LEAD, tier, power, (), (), 0, NOBODY, NOBODY)
    b.ask(Step.LEAD, b.active)


#: How each action begins once its die is placed and its power read (§5.5).
START: dict[Action, Callable[[Board, Tier, int], None]] = {
    Action.GROW: start_grow,
    Action.MOVE: start_move,
    Action.GATHER: start_gather,
    Action.LEAD: start_lead,
}

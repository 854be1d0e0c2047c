"""Readable descriptions of moves, in the rulebook's words (spec §5.9).

``describe(state, move)`` is shown next to each legal move, so it reads the state the
move would be played in: which hex is whose and of what terrain, the tier a die would
give, what a card costs. Hexes read "your Forest hex at (1,2)" (or "the Lake hex at
(0,1)" when the player has no member there).
"""

from __future__ import annotations

from tribes.games.rise_of_tribes.cards import EVENT_CARD, GOAL_CARD, GoalKind
from tribes.games.rise_of_tribes.data import (
    ACTION_NAME,
    ACTION_POWER,
    ACTIONS,
    ALTAR_PRICE,
    FACE_NAME,
    GATHER_YIELD,
    POWER_RULE,
    RESOURCE_NAME,
    TERRAIN_NAME,
    Power,
    SpendTarget,
    Tier,
    tier_of,
)
from tribes.games.rise_of_tribes.maps import Hex, geometry
from tribes.games.rise_of_tribes.moves import (
    AcquireEvent,
    AltarOffer,
    AmbushRemove,
    AssignDie,
    AVBuild,
    AVPass,
    BasketryBonus,
    BuildVillage,
    ChiefBid,
    ChiefDropOut,
    ChiefGive,
    ChooseConflictHex,
    ChoosePower,
    CompleteGoal,
    CunningReroll,
    DiscoveryTake,
    EndTurn,
    Evade,
    GatherDone,
    GatherHex,
    GrowDone,
    GrowPlace,
    LeadDraw,
    Move,
    MoveCount,
    MoveSelect,
    MoveSkip,
    PlaceInvaders,
    PlaceMammoth,
    PlaceStart,
    PlaceStartSplit,
    PlaceTiger,
    PlaceVolcano,
    PotteryTrade,
    RecycleGoal,
    ReEnter,
    SharedKnowledge,
    SkipBow,
    SkipEvade,
    SkipWalls,
    SpendDie,
    StartResources,
    TraderTrade,
    UseBow,
    UseWalls,
    VolcanoLoss,
)
from tribes.games.rise_of_tribes.rules.goals import village_price
from tribes.games.rise_of_tribes.rules.query import action_power
from tribes.games.rise_of_tribes.rules.setup import start_count
from tribes.games.rise_of_tribes.state import State

_SPEND = {
    SpendTarget.MAMMOTH_HUNT: "hunt the mammoth (+3 food, +1 VP)",
    SpendTarget.MAMMOTH_TAME: "tame the mammoth (pay 3 food, +3 VP)",
    SpendTarget.TIGER_HUNT: "hunt the sabertooth tiger (lose 1 member there, +1 VP)",
}
_UNITS = {
    ACTIONS[0]: "add up to {} tribe members",
    ACTIONS[1]: "move up to {} tribe members one step",
    ACTIONS[2]: "gather from up to {} hexes",
    ACTIONS[3]: "draw {} goal cards",
}


def where(state: State, coord: Hex, seat: int) -> str:
    """``your Forest hex at (1,2)``, or ``the Lake hex at (0,1)`` without own members."""
    h = geometry(state.seats).index.get(coord)
    if h is None:
        return f"({coord.text})"
    terrain = TERRAIN_NAME[state.terrain[h]]
    owner = "your" if seat >= 0 and state.members[h][seat] else "the"
    return f"{owner} {terrain} hex at ({coord.text})"


def amounts(cost: tuple[int, int, int]) -> str:
    parts = [f"{n} {name}" for n, name in zip(cost, ("food", "wood", "stone"), strict=True) if n]
    return ", ".join(parts) if parts else "nothing"


def describe(state: State, move: Move) -> str:
    """One line a player understands, for any well-formed move."""
    seat = state.actor
    match move:
        case ChoosePower(power=power):
            rule = POWER_RULE[power]
            return f"Choose the leader power {rule.name} (house rule): {rule.text}"
        case PlaceStart(hex=h):
            count = start_count(state, seat) if seat >= 0 else 2
            return f"Place your {count} starting tribe members on {where(state, h, seat)}"
        case PlaceStartSplit(pair_hex=pair, single_hex=single):
            return (
                f"Place 2 starting tribe members on {where(state, pair, seat)} "
                f"and 1 on {where(state, single, seat)}"
            )
        case StartResources(food=f, wood=w, stone=s):
            return f"Take {amounts((f, w, s))} as your starting resources"
        case ReEnter(hex=h):
            return f"Re-enter the map: place 2 tribe members on {where(state, h, seat)}"
        case PlaceInvaders(hex=h):
            return f"Invaders: put 3 invaders on {where(state, h, seat)}"
        case PlaceMammoth(hex=h):
            return f"Mammoth: put the mammoth on {where(state, h, seat)}"
        case PlaceTiger(hex=h):
            return f"Sabertooth Tiger: put the tiger on {where(state, h, seat)}"
        case PlaceVolcano(position=site):
            around = geometry(state.seats).site_neighbours.get(site, ())
            names = ", ".join(f"H{h}" for h in around)
            return f"Volcano: place the volcano at ({site.text}), next to {names}"
        case VolcanoLoss(hex=h):
            return f"Volcano: lose 1 tribe member from {where(state, h, seat)}"
        case ChiefBid(amount=n):
            return f"Chieftain: bid {n} resources"
        case ChiefDropOut():
            return "Chieftain: drop out of the auction"
        case ChiefGive(resource=r, to_seat=to):
            return f"Chieftain: hand 1 {RESOURCE_NAME[r]} of your bid to seat {to}"
        case AVBuild(hex=h):
            return f"Abandoned Village: build a village on {where(state, h, seat)} for 1/1/1"
        case AVPass():
            return "Abandoned Village: build nothing"
        case AssignDie():
            return _assign(state, move)
        case SpendDie(face=face, target=target):
            return f"Spend your {FACE_NAME[face]} die to {_SPEND[target]}"
        case CunningReroll(face=face):
            return f"Cunning (house rule): reroll your {FACE_NAME[face]} die"
        case GrowPlace(hex=h):
            return f"Grow: add 1 tribe member to {where(state, h, seat)}{_progress(state)}"
        case GrowDone():
            return f"Grow: place no more tribe members{_progress(state)}"
        case MoveSelect(from_hex=a, to_hex=b):
            return f"Move: from {where(state, a, seat)} to {where(state, b, seat)}"
        case MoveCount(count=n):
            return f"Move {n} tribe member{'s' if n > 1 else ''}{_route(state)}"
        case MoveSkip():
            return "Move: move nothing"
        case DiscoveryTake(resource=r):
            return f"Discovery: take 1 {RESOURCE_NAME[r]} from the card"
        case AmbushRemove(seat=victim):
            return f"Ambush (house rule): remove 1 tribe member of seat {victim}"
        case GatherHex(hex=h, resource=r):
            return (
                f"Gather: take {_yield(state, h)} {RESOURCE_NAME[r]} from {where(state, h, seat)}"
            )
        case GatherDone():
            return "Gather: gather from no more hexes"
        case BasketryBonus(resource=r):
            return f"Basketry: take 1 extra {RESOURCE_NAME[r]}"
        case RecycleGoal(goal=g):
            return f"Lead: recycle {GOAL_CARD[g].name} to the bottom of your goal deck"
        case LeadDraw():
            return _lead(state)
        case ChooseConflictHex(hex=h):
            return f"Resolve the conflict on {where(state, h, state.active)} next"
        case Evade(to_hex=to, count=n):
            return f"Evasion (house rule): move {n} of your members out to {where(state, to, seat)}"
        case SkipEvade():
            return "Evasion (house rule): stay and fight"
        case UseBow(seat=target):
            return f"Bow: remove 1 tribe member of seat {target} from the conflict"
        case SkipBow():
            return "Bow: do not use it in this conflict"
        case UseWalls():
            return f"Walls: remove 1 tribe member of seat {state.active} from the conflict"
        case SkipWalls():
            return "Walls: do not use them in this conflict"
        case CompleteGoal(goal=g):
            card = GOAL_CARD[g]
            if card.kind is GoalKind.DEVELOPMENT:
                return f"Complete {card.name}: pay {amounts(card.cost)} for 1 VP and its effect"
            return f"Complete {card.name} for {card.vp} VP"
        case BuildVillage(hex=h, omit=omit):
            price = village_price(state.players[seat], omit) if seat >= 0 else None
            cost = amounts(price) if price is not None else "its cost"
            return f"Build a village on {where(state, h, seat)} for {cost}"
        case SharedKnowledge(resource=r):
            return f"Shared Knowledge: pay 1 {RESOURCE_NAME[r]} onto the card, draw a goal card"
        case AcquireEvent(event=e):
            return f"Acquire {EVENT_CARD[e].name}"
        case AltarOffer(hex=h, payment=p):
            return (
                f"Altar: sacrifice 1 tribe member on {where(state, h, seat)} and pay "
                f"{amounts(ALTAR_PRICE[p])} for 1 VP"
            )
        case PotteryTrade(give=give, get=get):
            return f"Pottery: pay 2 {RESOURCE_NAME[give]}, take 1 {RESOURCE_NAME[get]}"
        case TraderTrade(give=give, get=get):
            return f"Trader (house rule): pay 2 {RESOURCE_NAME[give]}, take 1 {RESOURCE_NAME[get]}"
        case EndTurn():
            return "End your turn"
    return move.key


def _assign(state: State, move: AssignDie) -> str:
    """The tier the die would give after pushing (§3.3), and the power the action would
    have for the player (§5.5: the tier's value with the bonuses of their cards)."""
    row = state.rows[ACTIONS.index(move.action)]
    tier = tier_of((move.face, row[0], row[1]))
    player = state.players[state.actor] if state.actor >= 0 else None
    if tier is Tier.MOON and player is not None and player.power is Power.LIGHT_IN_THE_DARK:
        tier = Tier.DEFAULT
    if player is None:
        power = ACTION_POWER[move.action][tier]
    else:
        power = action_power(move.action, tier, player, state.slots)
    what = _UNITS[move.action].format(power)
    name = ACTION_NAME[move.action]
    return f"{name} with your {FACE_NAME[move.face]} die: {tier.name} tier, {what}"


def _progress(state: State) -> str:
    act = state.action
    if act is None:
        return ""
    return f" ({act.count} of up to {act.power} placed)"


def _route(state: State) -> str:
    act = state.action
    if act is None or act.origin < 0:
        return ""
    hexes = geometry(state.seats).hexes
    return f" from ({hexes[act.origin].text}) to ({hexes[act.target].text})"


def _yield(state: State, coord: Hex) -> int:
    h = geometry(state.seats).index.get(coord)
    player = state.players[state.actor] if state.actor >= 0 else None
    if h is None or player is None:
        return GATHER_YIELD
    row = state.members[h]
    shared = player.power is Power.SHARED_BOUNTY and sum(row) > row[state.actor]
    return GATHER_YIELD + shared


def _lead(state: State) -> str:
    act = state.action
    if act is None:
        return "Lead: draw the goal cards"
    extra = f" ({act.power} + {act.count} recycled)" if act.count else ""
    return f"Lead: draw {act.power + act.count} goal cards{extra}"

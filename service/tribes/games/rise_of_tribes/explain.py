"""Why a well-formed move is not legal now, in a player's words (spec §4-§5.9).

Called by the driver for a parsed move that ``legal_moves`` does not offer (the driver
has already answered "game over" and "not your turn"). First the move must belong to
the pending decision; then the checks mirror the legality rules of that decision; the
last resort names what is expected.
"""

from __future__ import annotations

from tribes.games.rise_of_tribes.cards import EVENT_CARD, GOAL_CARD, GoalKind
from tribes.games.rise_of_tribes.data import (
    ACTION_NAME,
    BOARD_OF,
    FACE_NAME,
    POWER_RULE,
    RES_INDEX,
    RESOURCE_NAME,
    Power,
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
from tribes.games.rise_of_tribes.rules import legal_moves
from tribes.games.rise_of_tribes.rules.actions import reach, recycle_limit
from tribes.games.rise_of_tribes.rules.goals import can_pay, village_price, villages_left
from tribes.games.rise_of_tribes.rules.query import achievement_met
from tribes.games.rise_of_tribes.state import NOBODY, State, Step

#: The decision each move kind answers.
_STEP_OF: dict[type, tuple[Step, ...]] = {
    ChoosePower: (Step.CHOOSE_POWER,),
    PlaceStart: (Step.PLACE_START,),
    PlaceStartSplit: (Step.PLACE_START_SPLIT,),
    StartResources: (Step.START_RESOURCES,),
    ReEnter: (Step.RE_ENTER,),
    PlaceInvaders: (Step.PLACE_INVADERS,),
    PlaceMammoth: (Step.PLACE_MAMMOTH,),
    PlaceTiger: (Step.PLACE_TIGER,),
    PlaceVolcano: (Step.PLACE_VOLCANO,),
    VolcanoLoss: (Step.VOLCANO_LOSS,),
    ChiefBid: (Step.CHIEFTAIN_BID,),
    ChiefDropOut: (Step.CHIEFTAIN_BID,),
    ChiefGive: (Step.CHIEFTAIN_GIVE,),
    AVBuild: (Step.ABANDONED_VILLAGE,),
    AVPass: (Step.ABANDONED_VILLAGE,),
    AssignDie: (Step.ACTION,),
    SpendDie: (Step.ACTION,),
    CunningReroll: (Step.ACTION,),
    GrowPlace: (Step.GROW,),
    GrowDone: (Step.GROW,),
    MoveSelect: (Step.MOVE_SELECT,),
    MoveSkip: (Step.MOVE_SELECT,),
    MoveCount: (Step.MOVE_COUNT,),
    DiscoveryTake: (Step.DISCOVERY,),
    AmbushRemove: (Step.AMBUSH,),
    GatherHex: (Step.GATHER,),
    GatherDone: (Step.GATHER,),
    BasketryBonus: (Step.BASKETRY,),
    RecycleGoal: (Step.LEAD,),
    LeadDraw: (Step.LEAD,),
    ChooseConflictHex: (Step.CHOOSE_CONFLICT,),
    Evade: (Step.EVADE,),
    SkipEvade: (Step.EVADE,),
    UseBow: (Step.BOW,),
    SkipBow: (Step.BOW,),
    UseWalls: (Step.WALLS,),
    SkipWalls: (Step.WALLS,),
}
_STEP5 = (
    CompleteGoal, BuildVillage, SharedKnowledge, AcquireEvent, AltarOffer, PotteryTrade,
    TraderTrade, EndTurn,
)  # fmt: skip

#: What each decision expects, for the answer "that is not possible now".
WANTED = {
    Step.CHOOSE_POWER: "choose one of your tribe's two leader powers",
    Step.PLACE_START: "place your starting tribe members on a free hex",
    Step.PLACE_START_SPLIT: "place your 3 starting members on two adjacent free hexes",
    Step.START_RESOURCES: "take your 2 starting resources",
    Step.RE_ENTER: "re-enter the map with 2 tribe members",
    Step.PLACE_INVADERS: "place the invaders on a least-populated hex",
    Step.PLACE_MAMMOTH: "place the mammoth on a least-populated lake",
    Step.PLACE_TIGER: "place the sabertooth tiger on a mountain",
    Step.PLACE_VOLCANO: "place the volcano",
    Step.VOLCANO_LOSS: "choose the hex that loses a member to the volcano",
    Step.CHIEFTAIN_BID: "bid in the Chieftain auction or drop out",
    Step.CHIEFTAIN_GIVE: "hand out your winning Chieftain bid",
    Step.ABANDONED_VILLAGE: "build an abandoned village or pass",
    Step.ACTION: "use one of your rolled dice",
    Step.GROW: "place grown members or finish the GROW",
    Step.MOVE_SELECT: "choose where to MOVE from and to, or move nothing",
    Step.MOVE_COUNT: "choose how many members MOVE",
    Step.DISCOVERY: "take a resource from Discovery",
    Step.AMBUSH: "choose whose member the Ambush removes",
    Step.GATHER: "choose a hex to GATHER from, or finish the GATHER",
    Step.BASKETRY: "take your Basketry bonus",
    Step.LEAD: "recycle goal cards or draw",
    Step.CHOOSE_CONFLICT: "choose the next conflict hex",
    Step.EVADE: "evade or stay in the conflict",
    Step.BOW: "use your Bow or skip it",
    Step.WALLS: "use your Walls or skip them",
    Step.GOALS: "complete goals, build villages, trade, or end your turn",
}


def explain_illegal(state: State, seat: int, move: Move) -> str:
    """A player-readable reason why ``move`` is not one of ``seat``'s legal moves."""
    steps = (Step.GOALS,) if isinstance(move, _STEP5) else _STEP_OF.get(type(move), ())
    if state.step not in steps:
        return f"that is not possible now: you must {WANTED.get(state.step, 'wait')}"
    reason = _specific(state, seat, move)
    if reason:
        return reason
    options = ", ".join(m.key for m in legal_moves(state, seat)[:8])
    return f"{move.key!r} is not allowed now; you must {WANTED[state.step]} (e.g. {options})"


def _hex(state: State, coord: Hex) -> int:
    return geometry(state.seats).index.get(coord, NOBODY)


def _specific(state: State, seat: int, move: Move) -> str:
    player = state.players[seat]
    geo = geometry(state.seats)
    for name in ("hex", "pair_hex", "single_hex", "from_hex", "to_hex"):
        coord = getattr(move, name, None)
        if isinstance(coord, Hex) and _hex(state, coord) == NOBODY:
            return f"({coord.text}) is not a hex of the map"
    match move:
        case ChoosePower(power=power) if power not in _own_powers(state, seat):
            return f"{POWER_RULE[power].name} is not one of your tribe's two powers"
        case PlaceStart(hex=h) | PlaceStartSplit(pair_hex=h) if any(state.members[_hex(state, h)]):
            return "another player's tribe members are already there"
        case PlaceStartSplit(pair_hex=a, single_hex=b):
            if not geo.adjacent(_hex(state, a), _hex(state, b)):
                return "the two hexes must be adjacent"
            return "another player's tribe members are already there"
        case AssignDie(face=face, action=action):
            assert state.turn is not None
            if face not in state.turn.dice_left:
                return f"you have no {FACE_NAME[face]} die left to use"
            if action in state.turn.actions_taken:
                return f"you already took {ACTION_NAME[action]} this turn: two different actions"
        case SpendDie(face=face) | CunningReroll(face=face):
            assert state.turn is not None
            if face not in state.turn.dice_left:
                return f"you have no {FACE_NAME[face]} die left to use"
            if isinstance(move, CunningReroll):
                if player.power is not Power.CUNNING:
                    return "only a player with the Cunning power may reroll"
                return "Cunning rerolls once per turn, before any die is used"
            return "you need 4 members with the mammoth (3 food to tame it) or 1 with the tiger"
        case GrowPlace():
            return "GROW places only into hexes that held your members when it began"
        case MoveSelect(from_hex=a, to_hex=b):
            origin, target = _hex(state, a), _hex(state, b)
            turn = state.turn
            assert turn is not None
            if state.members[origin][seat] <= turn.moved[origin]:
                return "you have no member there that has not moved this turn"
            if target not in reach(state, seat)[origin]:
                return "that hex is out of reach: a MOVE goes one hex (more with Oxen or Canoe)"
        case MoveCount(count=n):
            return f"you cannot move {n}: at most the MOVE power and your unmoved members there"
        case GatherHex(hex=h, resource=r):
            index = _hex(state, h)
            if not state.members[index][seat]:
                return "you can only GATHER from hexes holding your tribe members"
            if index == state.invader_hex:
                return "nobody may GATHER from a hex held by invaders"
            act = state.action
            if act is not None and index in act.hexes:
                return "you already gathered from that hex in this GATHER"
            return f"that hex does not produce {RESOURCE_NAME[r]}"
        case RecycleGoal(goal=g):
            if g not in player.in_progress:
                return f"{GOAL_CARD[g].name} is not one of your goal cards in progress"
            return f"you may recycle only {recycle_limit(state, seat)} card(s) (one per village)"
        case CompleteGoal(goal=g):
            card = GOAL_CARD[g]
            if g not in player.in_progress:
                return f"{card.name} is not one of your goal cards in progress"
            if card.kind is GoalKind.DEVELOPMENT and not can_pay(player.resources, card.cost):
                return f"you cannot pay for {card.name}"
            if card.kind is GoalKind.ACHIEVEMENT and not achievement_met(state, seat, g):
                return f"you do not meet the condition of {card.name} now"
        case BuildVillage(hex=h, omit=omit):
            index = _hex(state, h)
            if not state.members[index][seat]:
                return "you can only build where you have tribe members"
            if state.villages[index] != NOBODY:
                return "there is already a village in that hex"
            if index == state.invader_hex:
                return "nobody may build in a hex held by invaders"
            if villages_left(state.villages) < 1:
                return "all 12 village tokens are on the map"
            price = village_price(player, omit)
            if price is None:
                return "name one cost reduction per Shelters / Crafty Builders, no more"
            return "you cannot pay for the village"
        case AcquireEvent(event=e):
            return f"{EVENT_CARD[e].name} is not in a slot, or you cannot pay for it"
        case PotteryTrade(give=give) | TraderTrade(give=give):
            if player.resources[RES_INDEX[give]] < 2:
                return f"you need 2 {RESOURCE_NAME[give]} to trade"
            return "that trade is not yours to make, or was already made this turn"
        case AltarOffer() | SharedKnowledge():
            return "that is once per turn, and needs the card and what it asks for"
        case ChiefBid(amount=n):
            res = state.resolving
            if res is not None and n <= res.high_bid:
                return f"a bid must beat the high bid of {res.high_bid}"
            return "you cannot bid more resources than you hold"
        case ChiefGive() | AmbushRemove() | UseBow():
            return "that player cannot be chosen here"
    return ""


def _own_powers(state: State, seat: int) -> tuple[Power, ...]:
    return BOARD_OF[state.players[seat].tribe].powers

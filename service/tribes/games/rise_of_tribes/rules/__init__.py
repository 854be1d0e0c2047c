"""Rise of Tribes rules as pure functions over ``State`` (spec §4-§8).

The package splits the rules by phase: ``setup`` (§4), ``turn`` (Steps 0-2 and the end
of a turn, §5.1-§5.3, §5.8), ``events`` (§3.7, §5.4), ``dice`` and ``actions`` (Step 3,
§5.5), ``conflict`` (Step 4, §5.6), ``goals`` (Step 5, §5.7); ``board`` is the working
copy with the continuous rules C1-C4 and ``query`` the shared questions. One decision is
pending at a time (``state.step`` for ``state.actor``); ``legal_moves`` lists its
options sorted by key, and ``apply`` runs the move and every automatic step after it
until the next decision (or the end: a 15-VP win, C2, or the turn cap).
"""

from __future__ import annotations

from collections.abc import Callable
from contextlib import suppress
from operator import attrgetter

from tribes.engine import Result
from tribes.engine.game import competition_ranks
from tribes.games.rise_of_tribes.data import RES_INDEX
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
from tribes.games.rise_of_tribes.rules import actions, conflict, dice, events, goals, setup, turn
from tribes.games.rise_of_tribes.rules.board import Board, GameWon
from tribes.games.rise_of_tribes.state import NOBODY, State, Step

__all__ = ["apply", "legal_moves", "new_game", "result", "scores", "to_act"]

new_game = setup.new_game
_KEY = attrgetter("key")

#: The options of each pending decision (§5.9), computed from the frozen state.
OPTIONS: dict[Step, Callable[[State], list[Move]]] = {
    Step.CHOOSE_POWER: setup.power_moves,
    Step.PLACE_START: setup.start_moves,
    Step.PLACE_START_SPLIT: setup.split_moves,
    Step.START_RESOURCES: setup.resource_moves,
    Step.RE_ENTER: turn.reentry_moves,
    Step.PLACE_INVADERS: events.placement_moves,
    Step.PLACE_MAMMOTH: events.placement_moves,
    Step.PLACE_TIGER: events.placement_moves,
    Step.PLACE_VOLCANO: events.volcano_moves,
    Step.VOLCANO_LOSS: events.volcano_loss_moves,
    Step.CHIEFTAIN_BID: events.chieftain_bid_moves,
    Step.CHIEFTAIN_GIVE: events.chieftain_give_moves,
    Step.ABANDONED_VILLAGE: events.abandoned_village_moves,
    Step.ACTION: dice.action_moves,
    Step.GROW: actions.grow_moves,
    Step.MOVE_SELECT: actions.move_select_moves,
    Step.MOVE_COUNT: actions.move_count_moves,
    Step.DISCOVERY: actions.discovery_moves,
    Step.AMBUSH: actions.ambush_moves,
    Step.GATHER: actions.gather_moves,
    Step.BASKETRY: actions.basketry_moves,
    Step.LEAD: actions.lead_moves,
    Step.CHOOSE_CONFLICT: conflict.choose_moves,
    Step.EVADE: conflict.evade_moves,
    Step.BOW: conflict.bow_moves,
    Step.WALLS: conflict.walls_moves,
    Step.GOALS: goals.goal_moves,
}


def to_act(state: State) -> tuple[int, ...]:
    """The one seat whose decision is pending; nobody once the game is over."""
    if state.step is Step.GAME_OVER:
        return ()
    return (state.actor,)


def legal_moves(state: State, seat: int) -> tuple[Move, ...]:
    """Every legal move of ``seat`` now, sorted by key (empty when it is not to act)."""
    if seat != state.actor or state.step is Step.GAME_OVER:
        return ()
    return tuple(sorted(OPTIONS[state.step](state), key=_KEY))


def apply(state: State, seat: int, move: Move) -> State:
    """Apply a legal move (the driver has checked it) and every automatic step after it."""
    b = Board(state)
    with suppress(GameWon):  # C2: the board already records the winner and GAME_OVER
        _dispatch(b, move)
    return b.freeze()


def _dispatch(b: Board, move: Move) -> None:
    at = b.geo.index
    match move:
        case ChoosePower():
            setup.apply_power(b, move)
        case PlaceStart(hex=h):
            setup.apply_place(b, ((at[h], setup.start_count(b, b.actor)),))
        case PlaceStartSplit(pair_hex=pair, single_hex=single):
            setup.apply_place(b, ((at[pair], 2), (at[single], 1)))
        case StartResources():
            setup.apply_resources(b, move)
        case ReEnter(hex=h):
            turn.apply_reenter(b, at[h])
        case PlaceInvaders(hex=h):
            events.apply_place_invaders(b, at[h])
        case PlaceMammoth(hex=h):
            events.apply_place_mammoth(b, at[h])
        case PlaceTiger(hex=h):
            events.apply_place_tiger(b, at[h])
        case PlaceVolcano(position=site):
            events.apply_place_volcano(b, site)
        case VolcanoLoss(hex=h):
            events.apply_volcano_loss(b, at[h])
        case ChiefBid(amount=amount):
            events.apply_chief_bid(b, amount)
        case ChiefDropOut():
            events.apply_chief_bid(b, None)
        case ChiefGive(resource=r, to_seat=to):
            events.apply_chief_give(b, RES_INDEX[r], to)
        case AVBuild(hex=h):
            events.apply_abandoned_village(b, at[h])
        case AVPass():
            events.apply_abandoned_village(b, None)
        case AssignDie(face=face, action=action):
            dice.apply_assign(b, face, action)
        case SpendDie(face=face, target=target):
            dice.apply_spend(b, face, target)
        case CunningReroll(face=face):
            dice.apply_reroll(b, face)
        case GrowPlace(hex=h):
            actions.apply_grow_place(b, at[h])
        case GrowDone():
            actions.next_die(b)
        case MoveSelect(from_hex=origin, to_hex=target):
            actions.apply_move_select(b, at[origin], at[target])
        case MoveCount(count=count):
            actions.apply_move_count(b, count)
        case MoveSkip():
            actions.next_die(b)
        case DiscoveryTake(resource=r):
            actions.apply_discovery(b, r)
        case AmbushRemove(seat=victim):
            actions.apply_ambush(b, victim)
        case GatherHex(hex=h, resource=r):
            actions.apply_gather_hex(b, at[h], r)
        case GatherDone():
            actions.apply_gather_done(b)
        case BasketryBonus(resource=r):
            actions.apply_basketry(b, r)
        case RecycleGoal(goal=goal):
            actions.apply_recycle(b, goal)
        case LeadDraw():
            actions.apply_lead_draw(b)
        case ChooseConflictHex(hex=h):
            conflict.apply_choose(b, at[h])
        case Evade(to_hex=to, count=count):
            conflict.apply_evade(b, at[to], count)
        case SkipEvade():
            conflict.apply_evade(b, None, 0)
        case UseBow(seat=target):
            conflict.apply_bow(b, target)
        case SkipBow():
            conflict.apply_bow(b, None)
        case UseWalls():
            conflict.apply_walls(b, True)
        case SkipWalls():
            conflict.apply_walls(b, False)
        case CompleteGoal(goal=goal):
            goals.apply_complete(b, goal)
        case BuildVillage(hex=h, omit=omit):
            goals.apply_build(b, at[h], omit)
        case SharedKnowledge(resource=r):
            goals.apply_shared_knowledge(b, r)
        case AcquireEvent(event=event):
            goals.apply_acquire(b, event)
        case AltarOffer(hex=h, payment=payment):
            goals.apply_altar(b, at[h], payment)
        case PotteryTrade(give=give, get=get):
            goals.apply_trade(b, give, get, pottery=True)
        case TraderTrade(give=give, get=get):
            goals.apply_trade(b, give, get, pottery=False)
        case EndTurn():
            turn.end_turn(b)
        case _:
            raise AssertionError(f"unknown move {move!r}")


def result(state: State) -> Result | None:
    """None while the game runs; a 15-VP win, or a capped game (ENGINE SAFEGUARD, §5.8).

    A capped game lists its leaders in seat order (§7), which starts with the start player
    (§4 step 8: seat 1 = start player, then clockwise).
    """
    if state.winner == NOBODY and not state.capped:
        return None
    vps = tuple(p.vp for p in state.players)
    ranks = competition_ranks(vps)
    if state.winner != NOBODY:
        summary = f"seat {state.winner} wins with {vps[state.winner]} VP"
    else:
        best = max(vps)
        order = ((state.start_player + i) % state.seats for i in range(state.seats))
        leaders = ", ".join(str(s) for s in order if vps[s] == best)
        summary = (
            f"capped after {state.turn_count} turns (not a rules win): "
            f"most VP ({best}) for seat(s) {leaders}"
        )
    return Result(scores=vps, ranks=ranks, summary=summary)


def scores(state: State, viewer: int) -> tuple[int, ...]:
    """VP are public (§6): every viewer sees every seat's running total."""
    return tuple(p.vp for p in state.players)

"""Step 5: goal cards, villages, event purchases and trades, then EndTurn (spec §5.7, §8.11-§8.15).

Any number of these, in any order; ``EndTurn`` is always legal. Developments are paid
and give 1 VP and a permanent effect; achievements are checked against the position
now (``query.achievement_met``); villages cost the tribe board's price, lowered by
Shelters and (house) Crafty Builders through an explicit ``omit`` multiset.
"""

from __future__ import annotations

from dataclasses import replace
from itertools import combinations_with_replacement

from tribes.games.rise_of_tribes.cards import (
    ACQUIRE_TOKENS_MAX,
    EVENT_CARD,
    GOAL_CARD,
    SHARED_KNOWLEDGE_PAYMENTS,
    Event,
    Goal,
    GoalKind,
)
from tribes.games.rise_of_tribes.data import (
    ALTAR_PRICE,
    BOARD_OF,
    RES_INDEX,
    RESOURCES,
    VILLAGE_POOL,
    AltarPayment,
    Power,
    Resource,
)
from tribes.games.rise_of_tribes.maps import geometry
from tribes.games.rise_of_tribes.moves import (
    END_TURN,
    AcquireEvent,
    AltarOffer,
    BuildVillage,
    CompleteGoal,
    Move,
    PotteryTrade,
    SharedKnowledge,
    TraderTrade,
)
from tribes.games.rise_of_tribes.rules.board import Board
from tribes.games.rise_of_tribes.rules.query import achievement_met, invaders_at
from tribes.games.rise_of_tribes.state import NOBODY, Player, State, Step

Cost = tuple[int, int, int]
#: Every ``omit`` multiset of k reductions, in key order (§5.7 BuildVillage).
OMITS: dict[int, tuple[tuple[Resource, ...], ...]] = {
    k: tuple(combinations_with_replacement(RESOURCES, k)) for k in range(3)
}


def start(b: Board) -> None:
    b.ask(Step.GOALS, b.active)


def can_pay(held: Cost, cost: Cost) -> bool:
    return held[0] >= cost[0] and held[1] >= cost[1] and held[2] >= cost[2]


def village_reductions(player: Player) -> int:
    """k = Shelters + (house) Crafty Builders (§5.7)."""
    return (Goal.SHELTERS in player.completed) + (player.power is Power.CRAFTY_BUILDERS)


def village_price(player: Player, omit: tuple[Resource, ...]) -> Cost | None:
    """The tribe board's cost lowered by ``omit``; None if ``omit`` is not allowed."""
    if len(omit) != village_reductions(player):
        return None
    cost = list(BOARD_OF[player.tribe].village_cost)
    for r in omit:
        cost[RES_INDEX[r]] -= 1
    if min(cost) < 0:
        return None  # a type named more often than it is printed
    return (cost[0], cost[1], cost[2])


def villages_left(villages: tuple[int, ...] | list[int]) -> int:
    return VILLAGE_POOL - sum(1 for owner in villages if owner != NOBODY)


def shares_hex(state: State, seat: int) -> bool:
    """A hex with >= 1 own member and >= 1 member of another player (§5.7)."""
    return any(row[seat] and sum(row) > row[seat] for row in state.members)


def goal_moves(state: State) -> list[Move]:
    turn = state.turn
    assert turn is not None
    seat = state.active
    player = state.players[seat]
    held = player.resources
    hexes = geometry(state.seats).hexes
    moves: list[Move] = []
    for goal in player.in_progress:
        card = GOAL_CARD[goal]
        if card.kind is GoalKind.DEVELOPMENT:
            if can_pay(held, card.cost):
                moves.append(CompleteGoal(goal))
        elif achievement_met(state, seat, goal):
            moves.append(CompleteGoal(goal))
    if villages_left(state.villages) > 0:
        prices = [
            (omit, price)
            for omit in OMITS[village_reductions(player)]
            if (price := village_price(player, omit)) is not None and can_pay(held, price)
        ]
        if prices:
            for h, row in enumerate(state.members):
                if (
                    row[seat]
                    and state.villages[h] == NOBODY
                    and not invaders_at(state.invader_hex, state.invaders, h)
                ):
                    moves.extend(BuildVillage(hexes[h], omit) for omit, _ in prices)
    for slot in state.slots:
        if slot is None:
            continue
        event_card = EVENT_CARD[slot.event]
        if slot.event is Event.SHARED_KNOWLEDGE:
            if not turn.shared_knowledge_used and shares_hex(state, seat):
                moves.extend(SharedKnowledge(r) for i, r in enumerate(RESOURCES) if held[i])
        elif (
            event_card.acquire is not None
            and held[RES_INDEX[event_card.acquire]] >= ACQUIRE_TOKENS_MAX - slot.tokens
        ):
            moves.append(AcquireEvent(slot.event))
    if Event.ALTAR in player.owned_events and not turn.altar_used:
        payments = [p for p in AltarPayment if can_pay(held, ALTAR_PRICE[p])]
        for h, row in enumerate(state.members):
            if row[seat]:
                moves.extend(AltarOffer(hexes[h], p) for p in payments)
    if Goal.POTTERY in player.completed and not turn.pottery_used:
        moves.extend(
            PotteryTrade(give, get)
            for i, give in enumerate(RESOURCES)
            if held[i] >= 2
            for get in RESOURCES
        )
    if player.power is Power.TRADER and not turn.trader_used:
        moves.extend(
            TraderTrade(give, get)
            for i, give in enumerate(RESOURCES)
            if held[i] >= 2
            for get in RESOURCES
            if get is not give
        )
    moves.append(END_TURN)
    return moves


def apply_complete(b: Board, goal: Goal) -> None:
    """The card moves to completed before its VP, so a recount always agrees (C2)."""
    seat = b.active
    card = GOAL_CARD[goal]
    player = b.players[seat]
    if card.kind is GoalKind.DEVELOPMENT:
        b.pay(seat, card.cost)
        player = b.players[seat]
    b.set_player(
        seat,
        replace(
            player,
            in_progress=tuple(g for g in player.in_progress if g is not goal),
            completed=(*player.completed, goal),
        ),
    )
    b.log(f"seat {seat} completes {card.name}")
    b.award(seat, card.vp, source="goals")


def apply_build(b: Board, h: int, omit: tuple[Resource, ...]) -> None:
    seat = b.active
    price = village_price(b.players[seat], omit)
    assert price is not None
    b.pay(seat, price)
    b.villages[h] = seat
    b.log(f"seat {seat} builds a village in {b.geo.hexes[h].text}")


def apply_shared_knowledge(b: Board, resource: Resource) -> None:
    """Pay 1 onto the card, draw the top of the own goal deck (nothing if empty)."""
    seat = b.active
    index = b.slot_of(Event.SHARED_KNOWLEDGE)
    slot = b.slots[index]
    assert slot is not None and b.turn is not None
    paid = [0, 0, 0]
    paid[RES_INDEX[resource]] = 1
    b.pay(seat, (paid[0], paid[1], paid[2]))
    slot = replace(
        slot, food=slot.food + paid[0], wood=slot.wood + paid[1], stone=slot.stone + paid[2]
    )
    b.set_slot(index, slot)
    player = b.players[seat]
    drawn = player.goal_deck[:1]
    b.set_player(
        seat,
        replace(player, goal_deck=player.goal_deck[1:], in_progress=(*player.in_progress, *drawn)),
    )
    b.turn = replace(b.turn, shared_knowledge_used=True)
    if slot.food + slot.wood + slot.stone >= SHARED_KNOWLEDGE_PAYMENTS:
        b.discard_slot(index)


def apply_acquire(b: Board, event: Event) -> None:
    """The card goes to its buyer; its tokens go back to the box (§5.7, §8.29)."""
    seat = b.active
    index = b.slot_of(event)
    slot = b.slots[index]
    assert slot is not None
    resource = EVENT_CARD[event].acquire
    assert resource is not None
    price = [0, 0, 0]
    price[RES_INDEX[resource]] = ACQUIRE_TOKENS_MAX - slot.tokens
    b.pay(seat, (price[0], price[1], price[2]))
    b.set_slot(index, None)
    player = b.players[seat]
    b.set_player(seat, replace(player, owned_events=(*player.owned_events, event)))
    b.log(f"seat {seat} acquires {EVENT_CARD[event].name}")


def apply_altar(b: Board, h: int, payment: AltarPayment) -> None:
    seat = b.active
    assert b.turn is not None
    b.turn = replace(b.turn, altar_used=True)
    b.remove(h, seat, 1)
    b.pay(seat, ALTAR_PRICE[payment])
    b.log(f"seat {seat} makes an offering at the altar")
    b.award(seat, 1, source="events")


def apply_trade(b: Board, give: Resource, get: Resource, *, pottery: bool) -> None:
    """Pottery (any type, the one paid included) or (house) Trader (another type)."""
    seat = b.active
    assert b.turn is not None
    delta = [0, 0, 0]
    delta[RES_INDEX[give]] -= 2
    delta[RES_INDEX[get]] += 1
    b.gain(seat, *delta)
    if pottery:
        b.turn = replace(b.turn, pottery_used=True)
    else:
        b.turn = replace(b.turn, trader_used=True)

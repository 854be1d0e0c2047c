"""Doubles and events: clauses, the draw, every event's resolution (spec §3.7, §5.3-§5.4).

``resume_roll`` walks the doubles of this turn's roll one stage at a time (clause of
slot 1, clause of slot 2, the draw; ``Turn.roll_stage``) and is called again after
every decision an event asks for, so an event's placements and auctions interleave
with the automatic steps exactly as §5.3 orders them; when the roll is done, Step 3
begins. The instant events' multi-player procedures (Volcano losses, the Chieftain
auction, Abandoned Village) keep their progress in ``State.resolving``.
"""

from __future__ import annotations

from dataclasses import replace

from tribes.engine.rng import Rng
from tribes.games.rise_of_tribes.cards import (
    ACQUIRE_TOKENS_MAX,
    CHIEFTAIN_BIG_BID,
    EVENT_CARD,
    INVADERS_MAX,
    INVADERS_START,
    Event,
)
from tribes.games.rise_of_tribes.data import (
    ABANDONED_VILLAGE_PRICE,
    RESOURCES,
    VILLAGE_POOL,
    Face,
    Terrain,
)
from tribes.games.rise_of_tribes.maps import Hex, geometry
from tribes.games.rise_of_tribes.moves import (
    AV_PASS,
    CHIEF_DROP_OUT,
    AVBuild,
    ChiefBid,
    ChiefGive,
    Move,
    PlaceInvaders,
    PlaceMammoth,
    PlaceTiger,
    PlaceVolcano,
    VolcanoLoss,
)
from tribes.games.rise_of_tribes.rules import dice
from tribes.games.rise_of_tribes.rules.board import Board
from tribes.games.rise_of_tribes.rules.query import (
    has_control,
    invaders_at,
    least_populated,
    volcano_neighbours,
)
from tribes.games.rise_of_tribes.state import NOBODY, Resolving, Slot, State, Step

_LOSSES = {Face.SUN: 0, Face.BLANK: 1, Face.MOON: 2}  # per tribe near the volcano (§5.4.3)


def resume_roll(b: Board) -> None:
    """Continue the doubles of this turn's roll (§5.3 step 2); then Step 3."""
    while True:
        assert b.turn is not None
        stage = b.turn.roll_stage
        if stage >= 3:
            break
        b.turn = replace(b.turn, roll_stage=stage + 1)
        if stage < 2:
            if _any_doubles_clause(b, stage):
                return
        elif not b.turn.draw_blocked and _draw(b):
            return
    dice.start_actions(b)


def _any_doubles_clause(b: Board, index: int) -> bool:
    """The clause of the card in slot ``index`` (G9 order); True if it asks a decision."""
    slot = b.slots[index]
    if slot is None:
        return False
    event = slot.event
    if event is Event.DROUGHT:
        b.discard_slot(index)
    elif event is Event.INVADERS:
        b.invaders = min(INVADERS_MAX, b.invaders + 1)
    elif event is Event.SABERTOOTH_TIGER:
        b.ask(Step.PLACE_TIGER, b.active)
        return True
    elif EVENT_CARD[event].acquire is not None:
        b.set_slot(index, replace(slot, tokens=slot.tokens + 1))
        if slot.tokens + 1 >= ACQUIRE_TOKENS_MAX:
            b.discard_slot(index)
    return False


def _draw(b: Board) -> bool:
    """Draw the top event (reshuffling the discard pile if the deck is empty, G21)."""
    if not b.event_deck:
        if not b.event_discard:
            return False
        rng = Rng(b.rng)
        b.event_deck = rng.shuffled(b.event_discard)
        b.rng = rng.state
        b.event_discard = ()
        b.log("the event discard pile is shuffled into a new deck")
    event, b.event_deck = b.event_deck[0], b.event_deck[1:]
    card = EVENT_CARD[event]
    b.log(f"event: {card.name}")
    if card.lasting:
        index = b.slots.index(None)  # the lowest empty slot (§5.4.2, G28)
        food, wood, stone, tokens = card.load
        if event is Event.MILD_WINTER:
            tokens = b.n
        b.set_slot(index, Slot(event, food, wood, stone, tokens))
        return _on_draw(b, event)
    active = b.active
    if event is Event.ABANDONED_VILLAGE:
        b.resolving = _resolving(event, tuple(b.order_from(active)))
        b.ask(Step.ABANDONED_VILLAGE, active)
        return True
    if event is Event.CHIEFTAIN:
        b.resolving = _resolving(event, tuple(b.order_from(active)))
        b.ask(Step.CHIEFTAIN_BID, active)
        return True
    b.resolving = _resolving(event, ())
    if b.volcano is None:
        b.ask(Step.PLACE_VOLCANO, active)
        return True
    return _erupt(b)


def _resolving(event: Event, waiting: tuple[int, ...]) -> Resolving:
    return Resolving(event, waiting, (), (), 0, NOBODY, 0)


def _on_draw(b: Board, event: Event) -> bool:
    """Placements of a lasting card drawn now (§5.4.1): auto when the choice is unique."""
    if event is Event.INVADERS:
        where = least_populated(b.members, NOBODY, 0, range(b.geo.size))
        if len(where) == 1:
            _place_invaders(b, where[0])
            return False
        b.ask(Step.PLACE_INVADERS, b.active)
        return True
    if event is Event.MAMMOTH:
        lakes = [h for h, t in enumerate(b.terrain) if t is Terrain.LAKE]
        where = least_populated(b.members, b.invader_hex, b.invaders, lakes)
        if len(where) == 1:
            b.mammoth_hex = where[0]
            return False
        b.ask(Step.PLACE_MAMMOTH, b.active)
        return True
    if event is Event.SABERTOOTH_TIGER:
        b.ask(Step.PLACE_TIGER, b.active)
        return True
    return False


# -- placements (§5.4.1) ------------------------------------------------------------------------


def _place_invaders(b: Board, h: int) -> None:
    b.invader_hex, b.invaders = h, INVADERS_START


def apply_place_invaders(b: Board, h: int) -> None:
    _place_invaders(b, h)
    resume_roll(b)


def apply_place_mammoth(b: Board, h: int) -> None:
    b.mammoth_hex = h
    resume_roll(b)


def apply_place_tiger(b: Board, h: int) -> None:
    """The tiger lands; every tribe there loses 1 member (in seat order from the active)."""
    b.tiger_hex = h
    for seat in b.order_from(b.active):
        if b.members[h][seat]:
            b.remove(h, seat, 1)
    b.log(f"the tiger goes to {b.geo.hexes[h].text}")
    resume_roll(b)


def placement_moves(state: State) -> list[Move]:
    """The options of PLACE_INVADERS, PLACE_MAMMOTH and PLACE_TIGER."""
    hexes = state_hexes(state)
    step = state.step
    if step is Step.PLACE_INVADERS:
        where = least_populated(state.members, NOBODY, 0, range(len(hexes)))
        return [PlaceInvaders(hexes[h]) for h in where]
    mountains = [h for h, t in enumerate(state.terrain) if t is Terrain.MOUNTAIN]
    if step is Step.PLACE_MAMMOTH:
        lakes = [h for h, t in enumerate(state.terrain) if t is Terrain.LAKE]
        where = least_populated(state.members, state.invader_hex, state.invaders, lakes)
        return [PlaceMammoth(hexes[h]) for h in where]
    return [PlaceTiger(hexes[h]) for h in mountains if h != state.tiger_hex]


def state_hexes(state: State) -> tuple[Hex, ...]:
    return geometry(state.seats).hexes


# -- Volcano (§5.4.1, §5.4.3) -----------------------------------------------------------------


def volcano_moves(state: State) -> list[Move]:
    """Sites next to >= 2 map hexes; only those next to the active tribe if any is."""
    geo = geometry(state.seats)
    seat = state.active
    own = [
        site
        for site in geo.volcano_sites
        if any(state.members[h][seat] for h in geo.site_neighbours[site])
    ]
    return [PlaceVolcano(site) for site in own or geo.volcano_sites]


def apply_place_volcano(b: Board, site: Hex) -> None:
    b.volcano = site
    b.log(f"the volcano rises at {site.text}")
    if not _erupt(b):
        resume_roll(b)


def _erupt(b: Board) -> bool:
    """Tribes near the volcano lose 1 (BLANK) or 2 (MOON) members in total (G12)."""
    assert b.turn is not None
    near_hexes = volcano_neighbours(b.n, b.volcano)
    order = b.order_from(b.active)
    near = tuple(s for s in order if any(b.members[h][s] for h in near_hexes))
    loss = _LOSSES[b.turn.rolled[0]]
    losses = tuple(loss if s in near else 0 for s in range(b.n))
    b.resolving = Resolving(Event.VOLCANO, near, losses, near, 0, NOBODY, 0)
    return _continue_eruption(b)


def _volcano_hexes_of(b: Board | State, seat: int) -> list[int]:
    near = volcano_neighbours(len(b.players), b.volcano)
    return [h for h in sorted(near) if b.members[h][seat]]


def _continue_eruption(b: Board) -> bool:
    """Losses one member at a time, auto from a single hex; then stone and reshuffle."""
    res = b.resolving
    assert res is not None
    waiting, losses = list(res.waiting), list(res.losses)
    while waiting:
        seat = waiting[0]
        where = _volcano_hexes_of(b, seat)
        if not losses[seat] or not where:
            waiting.pop(0)
            continue
        if len(where) > 1:
            b.resolving = replace(res, waiting=tuple(waiting), losses=tuple(losses))
            b.ask(Step.VOLCANO_LOSS, seat)
            return True
        b.remove(where[0], seat, 1)
        losses[seat] -= 1
    for seat in res.near:
        b.gain(seat, stone=1)
    rng = Rng(b.rng)
    b.event_deck = rng.shuffled((*b.event_deck, Event.VOLCANO))
    b.rng = rng.state
    b.resolving = None
    b.log("the volcano erupts; the card is shuffled back into the event deck")
    return False


def volcano_loss_moves(state: State) -> list[Move]:
    hexes = state_hexes(state)
    return [VolcanoLoss(hexes[h]) for h in _volcano_hexes_of(state, state.actor)]


def apply_volcano_loss(b: Board, h: int) -> None:
    res = b.resolving
    assert res is not None
    seat = b.actor
    b.remove(h, seat, 1)
    losses = list(res.losses)
    losses[seat] -= 1
    b.resolving = replace(res, losses=tuple(losses))
    if not _continue_eruption(b):
        resume_roll(b)


# -- Chieftain (§5.4.4) ---------------------------------------------------------------------------


def chieftain_bid_moves(state: State) -> list[Move]:
    res = state.resolving
    assert res is not None
    held = sum(state.players[state.actor].resources)
    bids: list[Move] = [ChiefBid(n) for n in range(res.high_bid + 1, held + 1)]
    return [*bids, CHIEF_DROP_OUT]


def apply_chief_bid(b: Board, amount: int | None) -> None:
    """A bid (``amount``) or a drop-out (None); the auction goes round the live bidders."""
    res = b.resolving
    assert res is not None
    seat, rest = res.waiting[0], res.waiting[1:]
    if amount is None:
        res = replace(res, waiting=rest)
        b.log(f"seat {seat} drops out of the auction")
    else:
        res = replace(res, waiting=(*rest, seat), high_bid=amount, high_bidder=seat)
        b.log(f"seat {seat} bids {amount}")
    b.resolving = res
    if not res.waiting:
        rng = Rng(b.rng)  # nobody bid: the card goes back into the deck
        b.event_deck = rng.shuffled((*b.event_deck, Event.CHIEFTAIN))
        b.rng = rng.state
        b.resolving = None
        resume_roll(b)
        return
    if len(res.waiting) == 1 and res.waiting[0] == res.high_bidder:
        winner = res.high_bidder
        b.resolving = replace(res, to_give=res.high_bid)
        b.ask(Step.CHIEFTAIN_GIVE, winner)
        b.log(f"seat {winner} wins the Chieftain auction with {res.high_bid}")
        b.award(winner, 2 if res.high_bid >= CHIEFTAIN_BIG_BID else 1, source="events")
        return
    b.ask(Step.CHIEFTAIN_BID, res.waiting[0])


def chieftain_give_moves(state: State) -> list[Move]:
    held = state.players[state.actor].resources
    others = [s for s in range(state.seats) if s != state.actor]
    return [ChiefGive(r, s) for i, r in enumerate(RESOURCES) if held[i] for s in others]


def apply_chief_give(b: Board, resource_index: int, to_seat: int) -> None:
    res = b.resolving
    assert res is not None
    cost = [0, 0, 0]
    cost[resource_index] = 1
    b.pay(b.actor, (cost[0], cost[1], cost[2]))
    b.gain(to_seat, cost[0], cost[1], cost[2])
    if res.to_give > 1:
        b.resolving = replace(res, to_give=res.to_give - 1)
        return
    b.event_discard = (*b.event_discard, Event.CHIEFTAIN)
    b.resolving = None
    resume_roll(b)


# -- Abandoned Village (§5.4.5) -----------------------------------------------------------------


def abandoned_village_moves(state: State) -> list[Move]:
    seat = state.actor
    if min(state.players[seat].resources) < 1 or VILLAGE_POOL - _built(state.villages) < 1:
        return [AV_PASS]
    hexes = state_hexes(state)
    builds: list[Move] = [
        AVBuild(hexes[h])
        for h, row in enumerate(state.members)
        if state.villages[h] == NOBODY
        and has_control(row, invaders_at(state.invader_hex, state.invaders, h), seat)
    ]
    return [*builds, AV_PASS]


def _built(villages: tuple[int, ...] | list[int]) -> int:
    return sum(1 for owner in villages if owner != NOBODY)


def apply_abandoned_village(b: Board, h: int | None) -> None:
    """Build at ``h`` for 1/1/1 (or pass, None); then the next player, then discard."""
    res = b.resolving
    assert res is not None
    seat = res.waiting[0]
    if h is not None:
        b.pay(seat, ABANDONED_VILLAGE_PRICE)
        b.villages[h] = seat
        b.log(f"seat {seat} builds an abandoned village in {b.geo.hexes[h].text}")
    rest = res.waiting[1:]
    if rest:
        b.resolving = replace(res, waiting=rest)
        b.ask(Step.ABANDONED_VILLAGE, rest[0])
        return
    b.event_discard = (*b.event_discard, Event.ABANDONED_VILLAGE)
    b.resolving = None
    resume_roll(b)

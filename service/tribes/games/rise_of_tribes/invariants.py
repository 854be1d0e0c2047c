"""Consistency checks run after every move of the random playouts (spec §5.0, §5.6, §7, §8).

Conservation: 20 tribe members per player (map + supply), the 14 dice, every goal card
of each deck (deck + in progress + completed), every event tile (deck, discard, slots,
owned, being resolved). No negative resources, counters or supplies. At most the hex
limit of tribe members per hex after conflict resolution unless the game has just been
won (§5.6 invariant, §8.31). Villages only where the rules allow them; each seat's VP
equal a recount; the event tokens on the map match their cards; the step agrees with
the contexts it needs.
"""

from __future__ import annotations

from tribes.games.rise_of_tribes.cards import (
    EVENT_CARD,
    GOAL_CARD,
    INVADERS_MAX,
    Event,
    deck_for,
    event_deck_for,
)
from tribes.games.rise_of_tribes.data import (
    BOARD_OF,
    DICE,
    MEMBERS_PER_PLAYER,
    SEAT_COUNTS,
    SLOTS_PER_ACTION,
    TERRAINS,
    VILLAGE_POOL,
    WIN_VP,
    EventSet,
    Leaders,
    Power,
    Terrain,
)
from tribes.games.rise_of_tribes.maps import geometry
from tribes.games.rise_of_tribes.rules.conflict import hex_limit
from tribes.games.rise_of_tribes.state import NOBODY, State, Step

_FULL_DECK = {seats: frozenset(deck_for(seats)) for seats in SEAT_COUNTS}
_FULL_EVENTS = {es: frozenset(event_deck_for(es)) for es in EventSet}
_SETUP = frozenset(
    {Step.CHOOSE_POWER, Step.PLACE_START, Step.PLACE_START_SPLIT, Step.START_RESOURCES}
)
_ACTION_STEPS = frozenset(
    {Step.GROW, Step.MOVE_SELECT, Step.MOVE_COUNT, Step.DISCOVERY, Step.AMBUSH, Step.GATHER,
     Step.BASKETRY, Step.LEAD}
)  # fmt: skip
_CONFLICT_STEPS = frozenset({Step.CHOOSE_CONFLICT, Step.EVADE, Step.BOW, Step.WALLS})
_RESOLVING_STEPS = frozenset(
    {Step.VOLCANO_LOSS, Step.CHIEFTAIN_BID, Step.CHIEFTAIN_GIVE, Step.ABANDONED_VILLAGE}
)


def check_invariants(state: State) -> None:
    """Raise AssertionError if ``state`` breaks a rule-level invariant."""
    _check_members(state)
    _check_players(state)
    _check_goals(state)
    _check_events(state)
    _check_dice(state)
    _check_villages(state)
    _check_limit(state)
    _check_step(state)


def _check_members(state: State) -> None:
    geo = geometry(state.seats)
    assert len(state.members) == geo.size == len(state.terrain) == len(state.villages)
    per = state.seats + 1
    assert all(state.terrain.count(t) == per for t in TERRAINS), "(players+1) of each terrain"
    for seat, player in enumerate(state.players):
        on_map = sum(row[seat] for row in state.members)
        assert min(row[seat] for row in state.members) >= 0, "no negative member count"
        assert player.supply >= 0, "no negative supply"
        assert on_map + player.supply == MEMBERS_PER_PLAYER, f"seat {seat}: 20 members"


def _check_players(state: State) -> None:
    tribes = [p.tribe for p in state.players]
    assert len(set(tribes)) == len(tribes), "tribe boards are distinct (§3.5)"
    for seat, p in enumerate(state.players):
        assert min(p.resources) >= 0, f"seat {seat}: no negative resources"
        assert p.vp_villages >= 0 and p.vp_events >= 0
        recount = p.vp_villages + p.vp_events + sum(GOAL_CARD[g].vp for g in p.completed)
        assert p.vp == recount, f"seat {seat}: VP {p.vp} != recount {recount}"
        if state.leaders is Leaders.OFF:
            assert p.power is None, "no power is in play in the basic game"
        elif state.turn is not None:
            assert p.power in BOARD_OF[p.tribe].powers, "one of the player's own two powers"
        for event in p.owned_events:
            assert EVENT_CARD[event].acquire is not None, "only Altar, Canoe and Walls are owned"


def _check_goals(state: State) -> None:
    full = _FULL_DECK[state.seats]
    size = len(full)
    for seat, p in enumerate(state.players):
        held = p.goal_deck + p.in_progress + p.completed
        assert len(held) == size and set(held) == full, f"seat {seat}: goal cards conserved"


def _check_events(state: State) -> None:
    cards = list(state.event_deck) + list(state.event_discard)
    cards += [s.event for s in state.slots if s is not None]
    for p in state.players:
        cards += p.owned_events
    if state.resolving is not None:
        cards.append(state.resolving.event)
    full = _FULL_EVENTS[state.event_set]
    assert len(cards) == len(full) and set(cards) == full, "event tiles conserved"
    for slot in state.slots:
        if slot is not None:
            assert EVENT_CARD[slot.event].lasting, "only lasting events take a slot"
            assert min(slot.food, slot.wood, slot.stone, slot.tokens) >= 0
    in_slot = {s.event for s in state.slots if s is not None}
    step = state.step
    _token(state.invader_hex, Event.INVADERS in in_slot, step is Step.PLACE_INVADERS, "invaders")
    _token(state.mammoth_hex, Event.MAMMOTH in in_slot, step is Step.PLACE_MAMMOTH, "mammoth")
    placing_tiger = step is Step.PLACE_TIGER
    _token(state.tiger_hex, Event.SABERTOOTH_TIGER in in_slot, placing_tiger, "tiger")
    if state.invader_hex != NOBODY:
        assert 1 <= state.invaders <= INVADERS_MAX, "1 to 5 invaders"
    else:
        assert state.invaders == 0
    if state.mammoth_hex != NOBODY:
        assert state.terrain[state.mammoth_hex] is Terrain.LAKE, "the mammoth is on a lake"
    if state.tiger_hex != NOBODY:
        assert state.terrain[state.tiger_hex] is Terrain.MOUNTAIN, "the tiger is on a mountain"
    if state.volcano is not None:
        assert state.volcano in geometry(state.seats).volcano_sites, "the volcano is on a site"


def _token(where: int, card_in_slot: bool, being_placed: bool, name: str) -> None:
    if being_placed:
        return
    assert (where != NOBODY) == card_in_slot, f"the {name} token is on the map iff its card is"


def _check_dice(state: State) -> None:
    assert all(len(row) == SLOTS_PER_ACTION for row in state.rows)
    left = state.turn.dice_left if state.turn is not None else ()
    on_board = SLOTS_PER_ACTION * len(state.rows)
    assert on_board + len(state.pool) + len(left) == DICE, "14 dice"


def _check_villages(state: State) -> None:
    built = [h for h, owner in enumerate(state.villages) if owner != NOBODY]
    assert len(built) <= VILLAGE_POOL, "at most 12 villages"
    for h in built:
        owner = state.villages[h]
        hidden = state.players[owner].power is Power.HIDDEN_VILLAGE
        assert hidden or state.members[h][owner] > 0, "a village needs its owner's members (C1)"


def _check_limit(state: State) -> None:
    """After conflict resolution (Step 5, or a game capped at EndTurn) unless just won."""
    if state.winner != NOBODY:
        return
    if state.step is Step.GOALS or state.capped:
        limit = hex_limit(state)
        assert all(sum(row) <= limit for row in state.members), "<= limit members per hex"


def _check_step(state: State) -> None:
    step = state.step
    over = step is Step.GAME_OVER
    assert over == (state.winner != NOBODY or state.capped), "GAME_OVER iff won or capped"
    assert (state.actor == NOBODY) == over
    best = max(p.vp for p in state.players)
    if state.winner != NOBODY:
        assert state.players[state.winner].vp >= WIN_VP, "the winner has 15 VP"
        others = [p.vp for s, p in enumerate(state.players) if s != state.winner]
        assert max(others) < WIN_VP, "only one player reaches 15"
    else:
        assert best < WIN_VP, "15 VP ends the game at once (C2)"
    assert state.turn_count <= state.turn_cap
    if step in _SETUP:
        assert state.turn is None and state.turn_count == 0
    elif not over:
        assert state.turn is not None, "a turn is in progress after setup"
    assert (state.action is not None) == (step in _ACTION_STEPS) or over
    assert (state.conflict is not None) == (step in _CONFLICT_STEPS) or over
    if step in _RESOLVING_STEPS:
        assert state.resolving is not None

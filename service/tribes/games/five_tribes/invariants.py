"""Cheap consistency checks run after every move of the random playouts (spec §8).

Conservation (§8 "Conservation invariants"): 90 meeples, 54 resource cards, 22 Djinns,
12 palms, 10 palaces, every player's camels; no negative gold or counts; the turn
markers all accounted for; the step and the turn context agree; final scores match a
recount.
"""

from __future__ import annotations

from collections import Counter

from tribes.games.five_tribes.data import (
    CAMELS,
    CARD_COUNTS,
    CARDS,
    DJINN_DISPLAY_SIZE,
    MARKERS_PER_PLAYER,
    MEEPLE_COUNTS,
    MEEPLES,
    NO_MEEPLES,
    PALACES,
    PALM_TREES,
    RESOURCE_ROW_SIZE,
    ZERO_SPOTS,
    Djinn,
    Meeple,
)
from tribes.games.five_tribes.grid import TILES
from tribes.games.five_tribes.rules.scoring import final_scores
from tribes.games.five_tribes.state import SUB_DECISIONS, State, Step


def check_invariants(state: State) -> None:
    """Raise AssertionError if ``state`` breaks a rule-level invariant."""
    _check_meeples(state)
    _check_cards(state)
    _check_djinns(state)
    _check_board(state)
    _check_players(state)
    _check_markers(state)
    _check_turn(state)
    if state.step is Step.GAME_OVER:
        assert state.final_scores == final_scores(state), "final scores match a recount"
    else:
        assert state.final_scores is None, "no final scores before the end"


def _check_meeples(state: State) -> None:
    assert len(state.meeples) == TILES
    totals = list(state.bag)
    for counts in state.meeples:
        assert len(counts) == len(MEEPLES) and min(counts) >= 0, "meeple counts"
        for colour, count in enumerate(counts):
            totals[colour] += count
    for player in state.players:
        totals[Meeple.VIZIER] += player.viziers
        totals[Meeple.ELDER] += player.elders
    if state.turn is not None:
        for colour, count in enumerate(state.turn.hand):
            totals[colour] += count
    assert min(state.bag) >= 0, "bag counts"
    assert tuple(totals) == MEEPLE_COUNTS, f"90 meeples conserved: {totals}"


def _check_cards(state: State) -> None:
    totals = Counter(state.resource_pile + state.resource_row + state.resource_discard)
    for player in state.players:
        assert len(player.cards) == len(CARDS) and min(player.cards) >= 0, "card counts"
        for card, count in enumerate(player.cards):
            totals[CARDS[card]] += count
    assert tuple(totals[c] for c in CARDS) == CARD_COUNTS, "54 resource cards conserved"
    assert len(state.resource_row) <= RESOURCE_ROW_SIZE, "resource row holds at most 9"


def _check_djinns(state: State) -> None:
    held = [d for player in state.players for d in player.djinns]
    drawn = state.turn.pending.drawn if state.turn and state.turn.pending else ()
    every = [*state.djinn_pile, *state.djinn_display, *state.djinn_discard, *held, *drawn]
    assert sorted(every) == list(Djinn), "22 Djinns, each exactly once"
    assert len(state.djinn_display) <= DJINN_DISPLAY_SIZE, "display holds at most 3"


def _check_board(state: State) -> None:
    assert 0 <= state.palm_supply <= PALM_TREES and 0 <= state.palace_supply <= PALACES
    assert sum(state.palms) + state.palm_supply == PALM_TREES, "12 palm trees conserved"
    assert sum(state.palaces) + state.palace_supply == PALACES, "10 palaces conserved"
    assert min(state.palms) >= 0 and min(state.palaces) >= 0
    for owner in state.owners:
        assert owner is None or 0 <= owner < state.seats, "tile owners are seats"


def _check_players(state: State) -> None:
    assert len(state.players) == state.seats
    for seat, player in enumerate(state.players):
        placed = sum(1 for owner in state.owners if owner == seat)
        assert player.camels >= 0, "camels left never negative"
        assert placed + player.camels == CAMELS[state.seats], "camels placed + left"
        assert player.gold >= 0, "gold never negative"
        assert player.viziers >= 0 and player.elders >= 0
        assert len(set(player.djinns)) == len(player.djinns)
        assert list(player.used) == sorted(set(player.used)), "used flags sorted, unique"
        assert all(d in player.djinns for d in player.used), "only owned Djinns are used"
        assert not player.echidna or Djinn.ECHIDNA in player.used, "Echidna active => used"
        assert not player.iblis or Djinn.IBLIS in player.used, "Iblis active => used"
    if state.end_triggered is False:
        assert all(p.camels > 0 for p in state.players), "a last camel triggers the end"


def _check_markers(state: State) -> None:
    markers = state.seats * MARKERS_PER_PLAYER[state.seats]
    placed = [m for m in state.track if m is not None]
    every = [*state.bid_order, *placed, *state.zero_aisle, *state.overflow]
    every += state.next_bid_order
    assert sorted(every) == list(range(markers)), f"turn markers accounted for: {every}"
    assert len(state.zero_aisle) <= ZERO_SPOTS, "at most 3 markers on the 0 spots"


def _check_turn(state: State) -> None:
    step, turn = state.step, state.turn
    if step in (Step.BID, Step.GAME_OVER):
        assert turn is None, "no action turn outside the action phase"
        assert step is Step.GAME_OVER or state.bid_order, "someone is to bid"
        return
    assert turn is not None, "an action step has a turn"
    assert not state.bid_order, "bidding is over during the action phase"
    assert state.next_bid_order[-1] == turn.marker, "the acting marker is the latest to start"
    assert turn.seat == state.marker_owner(turn.marker)
    assert (turn.pending is not None) == (step in SUB_DECISIONS), "pending iff sub-decision"
    holding = step in (Step.DROP, Step.TRIBE) or (
        turn.pending is not None and turn.pending.return_step is Step.TRIBE
    )
    if not holding:
        assert turn.hand == NO_MEEPLES, "meeples in hand only while moving or before the tribe"
    elif step is Step.DROP:
        assert sum(turn.hand) > 0, "a move in progress has meeples in hand"
    else:
        assert turn.tribe is not None and turn.hand[turn.tribe] == turn.collected >= 2
        assert sum(turn.hand) == turn.collected, "the collected tribe is one colour, >= 2"

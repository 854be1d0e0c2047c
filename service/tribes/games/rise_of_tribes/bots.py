"""Bot hooks: ``determinize`` and ``evaluate`` (engine/game.py contract; spec §6).

What a seat cannot see is exactly the order of every goal deck, the order of the event
deck and the PRNG state (§6), and their contents follow from the view. So a
determinized state keeps everything else and redraws those orders from ``seed``:
each deck is put in canonical (card) order and shuffled, and the PRNG state is drawn,
all from one ``Rng(seed)``. States with equal views therefore give equal results.
"""

from __future__ import annotations

import math
from dataclasses import replace

from tribes.engine.rng import Rng
from tribes.games.rise_of_tribes.cards import EVENTS, GOALS
from tribes.games.rise_of_tribes.data import WIN_VP
from tribes.games.rise_of_tribes.state import NOBODY, State

_GOAL_RANK = {goal: i for i, goal in enumerate(GOALS)}
_EVENT_RANK = {event: i for i, event in enumerate(EVENTS)}


def determinize(state: State, seat: int, seed: int) -> State:
    """A state ``seat`` cannot tell from ``state``: deck orders and the PRNG redrawn."""
    rng = Rng(seed)
    players = tuple(
        replace(p, goal_deck=rng.shuffled(sorted(p.goal_deck, key=_GOAL_RANK.__getitem__)))
        for p in state.players
    )
    deck = rng.shuffled(sorted(state.event_deck, key=_EVENT_RANK.__getitem__))
    return replace(state, players=players, event_deck=deck, rng=rng.next_u64())


def strength(state: State, seat: int) -> float:
    """VP plus what tends to become VP: villages (1 VP a turn), members, resources."""
    player = state.players[seat]
    villages = state.villages.count(seat)
    members = sum(row[seat] for row in state.members)
    return (
        player.vp
        + 1.5 * villages
        + 0.12 * members
        + 0.08 * sum(player.resources)
        + 0.15 * len(player.in_progress)
    )


def evaluate(state: State, seat: int) -> float:
    """How good ``state`` looks for ``seat``, in [0, 1]: 1 won, 0 lost (spec §7)."""
    if state.winner != NOBODY:
        return 1.0 if state.winner == seat else 0.0
    mine = strength(state, seat)
    best_other = max(strength(state, s) for s in range(state.seats) if s != seat)
    if state.capped:
        return 1.0 if state.players[seat].vp >= max(p.vp for p in state.players) else 0.0
    # a logistic of the lead, scaled so a lead of a third of the race is decisive
    return 1.0 / (1.0 + math.exp(-(mine - best_other) * 6.0 / WIN_VP))

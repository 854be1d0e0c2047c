"""Goofspiel as the conformance suite sees it."""

from __future__ import annotations

from dataclasses import replace

from tests.games.goofspiel import GAME
from tests.games.goofspiel.state import State
from tests.support.conformance import Config, Subject
from tribes.engine.rng import Rng


def perturb(state: State, viewer: int, rng: Rng) -> State:
    """Change what ``viewer`` must not know: prize order, others' bids, the PRNG."""
    bids = tuple(
        bid if bid is None or seat == viewer else rng.choice(state.hands[seat])
        for seat, bid in enumerate(state.bids)
    )
    return replace(state, prize_deck=rng.shuffled(state.prize_deck), bids=bids, rng=rng.next_u64())


SUBJECT = Subject(
    game=GAME,
    configs=(
        Config(2),
        Config(3),
        Config(4),
        Config(2, {"cards": "3"}),
    ),
    perturb=perturb,
    playouts=100,
    sample_every=3,
)

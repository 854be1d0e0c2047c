"""Rise of Tribes as the conformance suite sees it (hidden information per spec §6).

Every seat and spectator sees the same public game; hidden are only the order of each
goal deck and of the event deck, and the PRNG state. Configurations: each player count
in the basic game and with the HOUSE-RULE leader powers (one of them also with the base
twelve events), 50 seeded playouts each, so every player count plays 100 games.
"""

from __future__ import annotations

from dataclasses import replace

from tests.support.conformance import Config, Subject
from tribes.engine.rng import Rng
from tribes.games.rise_of_tribes import GAME
from tribes.games.rise_of_tribes.state import State


def perturb(state: State, viewer: int, rng: Rng) -> State:
    """Change only what nobody may know (§6): deck orders and the PRNG state."""
    players = tuple(replace(p, goal_deck=rng.shuffled(p.goal_deck)) for p in state.players)
    return replace(
        state, players=players, event_deck=rng.shuffled(state.event_deck), rng=rng.next_u64()
    )


SUBJECT = Subject(
    game=GAME,
    configs=(
        Config(2),
        Config(2, {"leaders": "house"}),
        Config(3),
        Config(3, {"leaders": "house", "event_set": "base12"}),
        Config(4),
        Config(4, {"leaders": "house"}),
    ),
    perturb=perturb,
    playouts=50,
    sample_every=53,
)

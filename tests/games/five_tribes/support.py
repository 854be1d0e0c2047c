"""Five Tribes as the conformance suite sees it (hidden information per spec §6)."""

from __future__ import annotations

from dataclasses import replace

from tests.support.conformance import Config, Subject
from tribes.engine import SPECTATOR
from tribes.engine.rng import Rng
from tribes.games.five_tribes import GAME
from tribes.games.five_tribes.data import CARDS, MEEPLES, Djinn
from tribes.games.five_tribes.state import State, Step

DJINN_LIST = tuple(Djinn)


def _random_bag(size: int, rng: Rng) -> tuple[int, ...]:
    """A random multiset of ``size`` meeples (random cut points between the colours)."""
    cuts = sorted(rng.below(size + 1) for _ in range(len(MEEPLES) - 1))
    bounds = [0, *cuts, size]
    return tuple(bounds[i + 1] - bounds[i] for i in range(len(MEEPLES)))


def perturb(state: State, viewer: int, rng: Rng) -> State:
    """Change only what ``viewer`` must not know (§6): others' gold (everyone's for a
    spectator) until the game is over, both draw piles (order and contents, sizes kept),
    the bag's contents (size kept), a pending Sibittis draw (except for its user), the PRNG.
    """
    players = state.players
    if state.step is not Step.GAME_OVER:
        players = tuple(
            p if seat == viewer and viewer != SPECTATOR else replace(p, gold=rng.below(200))
            for seat, p in enumerate(players)
        )
    turn = state.turn
    if turn is not None and turn.pending is not None and viewer != turn.seat:
        drawn = tuple(rng.choice(DJINN_LIST) for _ in turn.pending.drawn)
        turn = replace(turn, pending=replace(turn.pending, drawn=drawn))
    return replace(
        state,
        players=players,
        resource_pile=tuple(rng.choice(CARDS) for _ in state.resource_pile),
        djinn_pile=tuple(rng.choice(DJINN_LIST) for _ in state.djinn_pile),
        bag=_random_bag(sum(state.bag), rng),
        turn=turn,
        rng=rng.next_u64(),
    )


SUBJECT = Subject(
    game=GAME,
    configs=(
        Config(2),
        Config(3),
        Config(4),
        Config(3, {"redirect_neighbourhood": "4", "nekir_payout": "meeple"}),
    ),
    perturb=perturb,
    playouts=100,
    sample_every=3,
)

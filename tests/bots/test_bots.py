"""The bots over every game (tribes.bots): legal answers, no cheating, budgets.

States come from seeded random playouts of the conformance configurations of every
game (``tests/games/*/support.py``), goofspiel included (simultaneous bids).
"""

from __future__ import annotations

import importlib
import pathlib
from typing import Any

import pytest

from tests.support.conformance import Config, Subject
from tribes.bots import KINDS, Budget, Options, choose
from tribes.bots import ismcts as ismcts_bot
from tribes.engine.driver import new_game, play
from tribes.engine.rng import Rng

FAST = Options(rollout_moves=8, samples=2)


def _subjects() -> list[Subject]:
    here = pathlib.Path(__file__).parents[1] / "games"
    names = sorted(p.parent.name for p in here.glob("*/support.py"))
    return [importlib.import_module(f"tests.games.{name}.support").SUBJECT for name in names]


SUBJECTS = _subjects()
# one configuration per game and player count (the first listed for it)
CASES = [
    (s, c)
    for s in SUBJECTS
    for seats in sorted({c.seats for c in s.configs})
    for c in [next(c for c in s.configs if c.seats == seats)]
]
IDS = [f"{s.game.id}-{c.label}" for s, c in CASES]


def reachable(subject: Subject, config: Config, seed: int, count: int) -> list[tuple[Any, int]]:
    """``count`` (state, seat to act) pairs sampled along one seeded random game."""
    game = subject.game
    state = new_game(game, config.seats, config.options, seed)
    rng = Rng(seed)
    seen: list[tuple[Any, int]] = []
    while game.result(state) is None:
        seat = rng.choice(game.to_act(state))
        legal = game.legal_moves(state, seat)
        if len(legal) > 1:
            seen.append((state, seat))
        state = play(game, state, seat, rng.choice(legal), legal)
    step = max(1, len(seen) // count)
    return seen[::step][:count]


@pytest.mark.parametrize(("subject", "config"), CASES, ids=IDS)
def test_every_bot_returns_a_legal_move_on_reachable_states(
    subject: Subject, config: Config
) -> None:
    """random, greedy and ismcts answer one of the seat's legal moves, everywhere."""
    game = subject.game
    for state, seat in reachable(subject, config, 31 + config.seats, 4):
        legal = game.legal_moves(state, seat)
        for kind in KINDS:
            move = choose(game, state, seat, kind, 7, budget=Budget(iterations=12), options=FAST)
            assert move in legal, f"{kind} answered {move.key!r}, not a legal move"


@pytest.mark.parametrize(("subject", "config"), CASES, ids=IDS)
def test_bots_decide_alike_on_states_that_differ_only_in_hidden_data(
    subject: Subject, config: Config
) -> None:
    """No cheating: perturbing what the seat cannot see leaves every decision unchanged."""
    game = subject.game
    rng = Rng(99)
    for state, seat in reachable(subject, config, 57 + config.seats, 3):
        other = subject.perturb(state, seat, rng)
        assert game.view(other, seat) == game.view(state, seat)
        for kind in ("greedy", "ismcts"):
            budget = Budget(iterations=10)
            ours = choose(game, state, seat, kind, 3, budget=budget, options=FAST)
            theirs = choose(game, other, seat, kind, 3, budget=budget, options=FAST)
            assert ours == theirs, f"{kind} read hidden data"
        mine = ismcts_bot.search(game, state, seat, 3, Budget(iterations=10), FAST)
        again = ismcts_bot.search(game, other, seat, 3, Budget(iterations=10), FAST)
        assert mine.visits == again.visits, "the whole search depends on the view only"


def _subject(game_id: str) -> Subject:
    return next(s for s in SUBJECTS if s.game.id == game_id)


def _a_state(game_id: str, seats: int = 2) -> tuple[Any, int]:
    subject = _subject(game_id)
    config = next(c for c in subject.configs if c.seats == seats)
    return reachable(subject, config, 5, 3)[1]


@pytest.mark.parametrize("game_id", [s.game.id for s in SUBJECTS])
def test_an_iteration_budget_is_exact_and_deterministic(game_id: str) -> None:
    """ismcts runs exactly the iterations asked; the same seed gives the same search."""
    game = _subject(game_id).game
    state, seat = _a_state(game_id)
    first = ismcts_bot.search(game, state, seat, 11, Budget(iterations=25), FAST)
    assert first.iterations == 25 and sum(first.visits.values()) == 25
    again = ismcts_bot.search(game, state, seat, 11, Budget(iterations=25), FAST)
    assert again == first


def test_a_millisecond_budget_bounds_the_iterations() -> None:
    """A time budget stops the search: a tiny one runs few iterations, a larger one more."""
    game = _subject("rise_of_tribes").game
    state, seat = _a_state("rise_of_tribes")
    tiny = ismcts_bot.search(game, state, seat, 1, Budget(ms=0), FAST)
    assert tiny.iterations == 1  # the deadline is checked after each iteration
    capped = ismcts_bot.search(game, state, seat, 1, Budget(ms=60_000, iterations=40), FAST)
    assert capped.iterations == 40  # whichever limit comes first
    timed = ismcts_bot.search(game, state, seat, 1, Budget(ms=150), FAST)
    assert 1 < timed.iterations < 1 << 40


def test_a_single_legal_move_is_answered_without_search() -> None:
    """A forced move costs nothing."""
    subject = _subject("goofspiel")
    game = subject.game
    state = new_game(game, 2, {"cards": "3"}, 1)
    for card in (1, 2):
        state = play(
            game,
            play(game, state, 0, game.parse_move(f"bid:{card}")),
            1,
            game.parse_move(f"bid:{card}"),
        )
    found = ismcts_bot.search(game, state, 0, 1, Budget(iterations=50), FAST)
    assert found.iterations == 0 and found.move.key == game.legal_moves(state, 0)[0].key


def test_a_seat_not_to_act_and_an_unknown_kind_are_refused() -> None:
    """choose raises for a decision that does not exist or a bot that does not."""
    game = _subject("fate_of_akalon").game
    state, seat = _a_state("fate_of_akalon")
    with pytest.raises(ValueError, match="not to act"):
        choose(game, state, 1 - seat, "ismcts", 1, budget=Budget(iterations=2))
    with pytest.raises(ValueError, match="unknown bot kind"):
        choose(game, state, seat, "oracle", 1)


def test_the_budget_refuses_nonsense() -> None:
    """Iterations start at 1; milliseconds are never negative."""
    with pytest.raises(ValueError):
        Budget(iterations=0)
    with pytest.raises(ValueError):
        Budget(ms=-1)


def test_ismcts_beats_random_at_goofspiel() -> None:
    """A strength smoke test on the small game: ismcts wins most of a few seeded games."""
    subject = _subject("goofspiel")
    game = subject.game
    wins = 0.0
    for g in range(6):
        state = new_game(game, 2, {"cards": "5"}, 100 + g)
        kinds = ("ismcts", "random") if g % 2 == 0 else ("random", "ismcts")
        while (result := game.result(state)) is None:
            seat = game.to_act(state)[0]
            move = choose(game, state, seat, kinds[seat], g, budget=Budget(iterations=80))
            state = play(game, state, seat, move)
        mine = g % 2
        if mine in result.winners:
            wins += 1 / len(result.winners)
    assert wins >= 4

"""The same API checks over every game (see tests/support/conformance.py)."""

from __future__ import annotations

import importlib
import pathlib

import pytest

from tests.support.conformance import Config, Subject, random_playout, replay


def _subjects() -> list[Subject]:
    """Every game's ``tests/games/<game>/support.py`` exposes its ``SUBJECT``."""
    here = pathlib.Path(__file__).parent
    names = sorted(p.parent.name for p in here.glob("*/support.py"))
    return [importlib.import_module(f"tests.games.{name}.support").SUBJECT for name in names]


CASES = [(s, c) for s in _subjects() for c in s.configs]
IDS = [f"{s.game.id}-{c.label}" for s, c in CASES]


@pytest.mark.parametrize(("subject", "config"), CASES, ids=IDS)
def test_random_playouts_reach_the_end_with_invariants(subject: Subject, config: Config) -> None:
    """Seeded random games finish; invariants and view secrecy hold after every move."""
    for seed in range(subject.playouts):
        played = random_playout(subject, config, seed)
        assert subject.game.result(played.final) is not None


@pytest.mark.parametrize(("subject", "config"), CASES, ids=IDS)
def test_replay_of_seed_and_moves_rebuilds_the_state(subject: Subject, config: Config) -> None:
    """Replaying a game's seed and move keys gives the identical final state."""
    for seed in (7, 8):
        played = random_playout(subject, config, seed, checks=False)
        rebuilt = replay(subject.game, config, seed, played.moves)
        assert rebuilt == played.final
        assert subject.game.encode(rebuilt) == subject.game.encode(played.final)


@pytest.mark.parametrize(("subject", "config"), CASES, ids=IDS)
def test_same_seed_same_game_other_seed_other_game(subject: Subject, config: Config) -> None:
    """Setup is a function of the seed: equal seeds agree, different seeds differ."""
    from tribes.engine.driver import new_game

    game = subject.game
    first = [game.encode(new_game(game, config.seats, config.options, s)) for s in range(5)]
    again = [game.encode(new_game(game, config.seats, config.options, s)) for s in range(5)]
    assert first == again
    assert len(set(first)) > 1

"""Long random playouts for every game (``make soak``; skipped in the default run)."""

from __future__ import annotations

import os

import pytest

from tests.games.test_conformance import CASES, IDS
from tests.support.conformance import Config, Subject, random_playout

#: Seeds per configuration in a soak run (override with TRIBES_SOAK_GAMES).
SOAK_GAMES = int(os.environ.get("TRIBES_SOAK_GAMES", "1000"))


@pytest.mark.soak
@pytest.mark.parametrize(("subject", "config"), CASES, ids=IDS)
def test_soak_random_playouts(subject: Subject, config: Config) -> None:
    """Many more seeded games than the default run, past its seeds, all invariants on."""
    first = subject.playouts
    for seed in range(first, first + SOAK_GAMES):
        played = random_playout(subject, config, seed, costly_checks=seed % 10 == 0)
        assert subject.game.result(played.final) is not None

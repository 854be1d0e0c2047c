"""Golden playthroughs: replaying a pinned seed and move list gives the pinned game.

The files under ``golden/`` were generated once by ``make_golden.py`` from seeded random
playouts (2, 3 and 4 players). Any change to setup, legality, effects, the PRNG use or
scoring changes the final scores or the state digest and fails here.
"""

from __future__ import annotations

import hashlib
import json
import pathlib
from typing import Any

import pytest

from tribes.engine.driver import find_move, new_game, play
from tribes.games.five_tribes import GAME
from tribes.games.five_tribes.invariants import check_invariants

GOLDEN = sorted((pathlib.Path(__file__).parent / "golden").glob("*.json"))


def _load(path: pathlib.Path) -> dict[str, Any]:
    record: dict[str, Any] = json.loads(path.read_text())
    return record


def test_there_is_a_golden_game_per_player_count() -> None:
    """One pinned playthrough each for 2, 3 and 4 players."""
    assert sorted(_load(path)["seats"] for path in GOLDEN) == [2, 3, 4]


@pytest.mark.parametrize("path", GOLDEN, ids=[p.stem for p in GOLDEN])
def test_golden_playthrough_replays_exactly(path: pathlib.Path) -> None:
    """Every pinned move is legal in turn; final scores, ranks and state digest match."""
    record = _load(path)
    state = new_game(GAME, record["seats"], record["options"], record["seed"])
    for seat, key in record["moves"]:
        assert GAME.to_act(state) == (seat,)
        state = play(GAME, state, seat, find_move(GAME, state, seat, key))
        check_invariants(state)
    result = GAME.result(state)
    assert result is not None
    assert list(result.scores) == record["final_scores"]
    assert list(result.ranks) == record["ranks"]
    assert state.round == record["rounds"]
    assert hashlib.sha256(GAME.encode(state)).hexdigest() == record["digest"]

"""Golden playthroughs: replaying a pinned seed and move list gives the pinned game.

The files under ``golden/`` were generated once by ``make_golden.py`` from seeded random
playouts (2, 3 and 4 players, and 3 players with the house-rule powers). Any change to
setup, legality, effects, the PRNG use or scoring changes the final facts or the state
digest and fails here.
"""

from __future__ import annotations

import json
import pathlib
from typing import Any

import pytest

from tests.games.rise_of_tribes.make_golden import digest, facts
from tribes.engine.driver import find_move, new_game, play
from tribes.games.rise_of_tribes import GAME
from tribes.games.rise_of_tribes.invariants import check_invariants

GOLDEN = sorted((pathlib.Path(__file__).parent / "golden").glob("*.json"))


def _load(path: pathlib.Path) -> dict[str, Any]:
    record: dict[str, Any] = json.loads(path.read_text())
    return record


def test_there_is_a_golden_game_per_player_count() -> None:
    """Pinned playthroughs for 2, 3 and 4 players, and one with leaders = house."""
    records = [_load(path) for path in GOLDEN]
    assert sorted(r["seats"] for r in records if not r["options"]) == [2, 3, 4]
    assert any(r["options"].get("leaders") == "house" for r in records)


@pytest.mark.parametrize("path", GOLDEN, ids=[p.stem for p in GOLDEN])
def test_golden_playthrough_replays_exactly(path: pathlib.Path) -> None:
    """Every pinned move is legal in turn; the end's facts and state digest match."""
    record = _load(path)
    state = new_game(GAME, record["seats"], record["options"], record["seed"])
    for seat, key in record["moves"]:
        assert GAME.to_act(state) == (seat,)
        state = play(GAME, state, seat, find_move(GAME, state, seat, key))
        check_invariants(state)
    assert GAME.result(state) is not None
    pinned = {k: record[k] for k in facts(state)}
    assert facts(state) == pinned
    assert digest(state) == record["digest"]

"""Golden playthroughs: seed, factions and every move key pinned, with the final result.

Each ``golden/*.json`` file was recorded once from a seeded random playout (run this
module as a script to record them again, e.g. after a deliberate rules change):

    .venv/bin/python -m tests.games.fate_of_akalon.test_golden

Replaying the moves must rebuild exactly the recorded game: same result, same number
of battles, same encoded final state (its SHA-256).
"""

from __future__ import annotations

import hashlib
import json
import pathlib
from typing import Any

import pytest

from tribes.engine.driver import new_game, play, replay
from tribes.engine.rng import Rng
from tribes.games.fate_of_akalon import GAME
from tribes.games.fate_of_akalon.state import State

GOLDEN = pathlib.Path(__file__).parent / "golden"
GAMES = (
    ("2p-elf-orc", 2, "elf,orc", 2016),
    ("3p-dwarf-orc-undead", 3, "dwarf,orc,undead", 4090),
    ("4p-orc-elf-undead-dwarf", 4, "orc,elf,undead,dwarf", 60),
)


def _digest(state: State) -> str:
    return hashlib.sha256(GAME.encode(state)).hexdigest()


def record(seats: int, factions: str, seed: int) -> dict[str, Any]:
    """Play one seeded random game and describe it (the golden file's content)."""
    options = {"factions": factions}
    state = new_game(GAME, seats, options, seed)
    chooser = Rng(seed ^ 0xD1CE)
    played: list[list[int | str]] = []
    while GAME.result(state) is None:
        seat = GAME.to_act(state)[0]
        move = chooser.choice(GAME.legal_moves(state, seat))
        played.append([seat, move.key])
        state = play(GAME, state, seat, move)
    result = GAME.result(state)
    assert result is not None
    return {
        "seats": seats,
        "options": options,
        "seed": seed,
        "moves": played,
        "result": {
            "scores": list(result.scores),
            "ranks": list(result.ranks),
            "summary": result.summary,
            "reason": state.end_reason,
        },
        "battles": state.battle.number,
        "digest": _digest(state),
    }


@pytest.mark.parametrize(("name", "seats", "factions", "seed"), GAMES, ids=[g[0] for g in GAMES])
def test_golden_playthrough_replays_exactly(
    name: str, seats: int, factions: str, seed: int
) -> None:
    """Replaying a recorded game's seed and moves gives its recorded result and final state."""
    golden = json.loads((GOLDEN / f"{name}.json").read_text())
    assert (golden["seats"], golden["options"], golden["seed"]) == (
        seats,
        {"factions": factions},
        seed,
    )
    moves = [(seat, key) for seat, key in golden["moves"]]  # JSON has lists; replay takes pairs
    state = replay(GAME, seats, golden["options"], seed, moves)
    result = GAME.result(state)
    assert result is not None
    assert {
        "scores": list(result.scores),
        "ranks": list(result.ranks),
        "summary": result.summary,
        "reason": state.end_reason,
    } == golden["result"]
    assert state.battle.number == golden["battles"]
    assert _digest(state) == golden["digest"]


if __name__ == "__main__":
    GOLDEN.mkdir(exist_ok=True)
    for name, seats, factions, seed in GAMES:
        content = json.dumps(record(seats, factions, seed), indent=1)
        (GOLDEN / f"{name}.json").write_text(content + "\n")
        print(f"wrote golden/{name}.json")

"""Golden playthroughs: a pinned seed and move list replay to the pinned game.

Each ``golden/*.json`` file was recorded once from a seeded random playout (2, 3 and 4
players). Record them again only after a deliberate rules change, and review the diff:

    .venv/bin/python -m tests.games.tribes_early_civilization.test_golden

Any change to setup, legality, effects, the PRNG use or scoring changes a move, a key
fact or the digest of the final stored state, and fails here.
"""

from __future__ import annotations

import hashlib
import json
import pathlib
from typing import Any

import pytest

from tribes.engine.driver import find_move, new_game, play
from tribes.engine.rng import Rng
from tribes.games.tribes_early_civilization import GAME
from tribes.games.tribes_early_civilization.invariants import check_invariants
from tribes.games.tribes_early_civilization.state import State

GOLDEN = pathlib.Path(__file__).parent / "golden"
GAMES = {2: 1917, 3: 2021, 4: 2019}


def _digest(state: State) -> str:
    return hashlib.sha256(GAME.encode(state)).hexdigest()


def _facts(state: State) -> dict[str, Any]:
    result = GAME.result(state)
    assert result is not None and state.final is not None
    return {
        "final_scores": list(result.scores),
        "ranks": list(result.ranks),
        "summary": result.summary,
        "rounds": state.round,
        "turns": state.turn_count,
        "capped": state.capped,
        "orange_executed": [e.name for e in state.executed_orange],
        "arrows": len(state.arrows),
        "stones": sum(len(slot.stones) for slot in state.grid),
        "tiles": [len(p.tiles) for p in state.players],
        "digest": _digest(state),
    }


def record(seats: int, seed: int) -> dict[str, Any]:
    """Play one seeded random game and describe it (the golden file's content)."""
    state = new_game(GAME, seats, {}, seed)
    chooser = Rng(seed ^ 0x7EC)
    played: list[list[int | str]] = []
    while GAME.result(state) is None:
        (seat,) = GAME.to_act(state)
        move = chooser.choice(GAME.legal_moves(state, seat))
        played.append([seat, move.key])
        state = play(GAME, state, seat, move)
    return {
        "game": GAME.id,
        "seats": seats,
        "options": {},
        "seed": seed,
        **_facts(state),
        "moves": played,
    }


def _format(record: dict[str, Any]) -> str:
    """JSON with one move per line, so a behaviour change shows as a readable diff."""
    head = {k: v for k, v in record.items() if k != "moves"}
    lines = [json.dumps(head, indent=1)[:-2] + ",", ' "moves": [']
    lines += [f"  {json.dumps(move)}," for move in record["moves"]]
    lines[-1] = lines[-1].rstrip(",")
    lines += [" ]", "}", ""]
    return "\n".join(lines)


def _path(seats: int) -> pathlib.Path:
    return GOLDEN / f"{seats}p_seed{GAMES[seats]}.json"


def test_there_is_a_golden_game_per_player_count() -> None:
    """One pinned playthrough each for 2, 3 and 4 players, ending by the rules, not the cap."""
    for seats in GAMES:
        golden = json.loads(_path(seats).read_text())
        assert golden["seats"] == seats and not golden["capped"]


@pytest.mark.parametrize("seats", sorted(GAMES))
def test_golden_playthrough_replays_exactly(seats: int) -> None:
    """Every pinned move is legal in turn for its seat; the key facts and digest match."""
    golden = json.loads(_path(seats).read_text())
    state = new_game(GAME, seats, golden["options"], golden["seed"])
    for seat, key in golden["moves"]:
        assert GAME.to_act(state) == (seat,)
        state = play(GAME, state, seat, find_move(GAME, state, seat, key))
        check_invariants(state)
    assert _facts(state) == {k: golden[k] for k in _facts(state)}


if __name__ == "__main__":
    GOLDEN.mkdir(exist_ok=True)
    for count, seed in GAMES.items():
        content = record(count, seed)
        _path(count).write_text(_format(content))
        print(_path(count).name, len(content["moves"]), "moves", content["final_scores"])

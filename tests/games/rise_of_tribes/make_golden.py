"""Write the golden playthroughs pinned by test_golden.py (run once; commit the files).

    .venv/bin/python -m tests.games.rise_of_tribes.make_golden

Each file holds a seeded random playout (the conformance suite's chooser): the seed,
the options, every move key with its seat, and key facts of the end (scores, ranks,
winner, turns, a digest of the final stored state). Regenerate only on a deliberate
rules change, and review the diff.
"""

from __future__ import annotations

import hashlib
import json
import pathlib

from tests.games.rise_of_tribes.support import SUBJECT
from tests.support.conformance import Config, random_playout
from tribes.games.rise_of_tribes import GAME
from tribes.games.rise_of_tribes.state import State

GOLDEN = pathlib.Path(__file__).parent / "golden"
GAMES: tuple[tuple[str, int, dict[str, str], int], ...] = (
    ("2p_seed2018", 2, {}, 2018),
    ("3p_seed2019", 3, {}, 2019),
    ("4p_seed2020", 4, {}, 2020),
    ("3p_house_seed2021", 3, {"leaders": "house"}, 2021),
)


def digest(state: State) -> str:
    return hashlib.sha256(GAME.encode(state)).hexdigest()


def facts(state: State) -> dict[str, object]:
    """What a replay must reproduce besides the digest (readable in a diff)."""
    result = GAME.result(state)
    assert result is not None
    return {
        "final_scores": list(result.scores),
        "ranks": list(result.ranks),
        "winner": state.winner,
        "capped": state.capped,
        "turns": state.turn_count,
        "villages": sum(1 for v in state.villages if v >= 0),
        "summary": result.summary,
    }


def _format(record: dict[str, object]) -> str:
    """JSON with one move per line, so a behaviour change shows as a readable diff."""
    head = {k: v for k, v in record.items() if k != "moves"}
    lines = [json.dumps(head, indent=1)[:-2] + ",", ' "moves": [']
    moves = record["moves"]
    assert isinstance(moves, list)
    lines += [f"  {json.dumps(move)}," for move in moves]
    lines[-1] = lines[-1].rstrip(",")
    lines += [" ]", "}", ""]
    return "\n".join(lines)


def write() -> None:
    GOLDEN.mkdir(exist_ok=True)
    for name, seats, options, seed in GAMES:
        played = random_playout(SUBJECT, Config(seats, options), seed, checks=False)
        record = {
            "game": GAME.id,
            "seats": seats,
            "options": options,
            "seed": seed,
            **facts(played.final),
            "digest": digest(played.final),
            "moves": [[seat, key] for seat, key in played.moves],
        }
        path = GOLDEN / f"{name}.json"
        path.write_text(_format(record))
        print(path, len(played.moves), "moves", record["final_scores"])


if __name__ == "__main__":
    write()

"""Write the golden playthroughs pinned by test_golden.py (run once; commit the files).

    .venv/bin/python -m tests.games.five_tribes.make_golden

Each file holds a seeded random playout (the conformance suite's chooser): the seed,
every move key with its seat, the final scores and a digest of the final stored state.
Regenerate only on a deliberate rules change, and review the diff.
"""

from __future__ import annotations

import hashlib
import json
import pathlib

from tests.games.five_tribes.support import SUBJECT
from tests.support.conformance import Config, random_playout
from tribes.games.five_tribes import GAME
from tribes.games.five_tribes.state import State

GOLDEN = pathlib.Path(__file__).parent / "golden"
SEEDS = {2: 2014, 3: 2015, 4: 2016}


def digest(state: State) -> str:
    return hashlib.sha256(GAME.encode(state)).hexdigest()


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
    for seats, seed in SEEDS.items():
        played = random_playout(SUBJECT, Config(seats), seed, checks=False)
        result = GAME.result(played.final)
        assert result is not None
        record = {
            "game": GAME.id,
            "seats": seats,
            "options": {},
            "seed": seed,
            "rounds": played.final.round,
            "final_scores": list(result.scores),
            "ranks": list(result.ranks),
            "digest": digest(played.final),
            "moves": [[seat, key] for seat, key in played.moves],
        }
        path = GOLDEN / f"{seats}p_seed{seed}.json"
        path.write_text(_format(record))
        print(path, len(played.moves), "moves", result.scores)


if __name__ == "__main__":
    write()

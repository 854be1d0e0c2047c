"""The ``tribes`` command line, run as a real process against a real server."""

from __future__ import annotations

import os
import pathlib
import subprocess
import sys
from collections.abc import Iterator

import pytest

from tests.support.server import ROOT, ServerProcess, server_process


@pytest.fixture
def process(redis_url: str, redis_prefix: str) -> Iterator[ServerProcess]:
    with server_process({"REDIS_URL": redis_url, "TRIBES_REDIS_PREFIX": redis_prefix}) as proc:
        yield proc


def tribes(
    process: ServerProcess, session: pathlib.Path, *args: str, stdin: str = ""
) -> subprocess.CompletedProcess[str]:
    env = {
        **os.environ,
        "PYTHONPATH": f"{ROOT}{os.pathsep}{ROOT / 'service'}{os.pathsep}{ROOT / 'clients'}",
        "TRIBES_SESSION": str(session),
        "TRIBES_TARGET": process.target,
    }
    return subprocess.run(
        [sys.executable, "-m", "tribes_client.cli", *args],
        env=env,
        input=stdin,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


def test_types_new_show_move_moves(process: ServerProcess, tmp_path: pathlib.Path) -> None:
    """types lists games; new remembers tokens; show, move and moves use them."""
    session = tmp_path / "session.json"
    listed = tribes(process, session, "types")
    assert listed.returncode == 0 and "goofspiel" in listed.stdout and "cards=" in listed.stdout
    created = tribes(process, session, "new", "goofspiel", "--seats", "2", "-o", "cards=3")
    assert created.returncode == 0, created.stderr
    assert created.stdout.startswith("games/") and "seat 1:" in created.stdout
    shown = tribes(process, session, "show", "--seat", "0")
    assert "bid:1" in shown.stdout and "as seat 0" in shown.stdout
    moved = tribes(process, session, "move", "bid:2", "--seat", "0")
    assert moved.returncode == 0 and "v2" in moved.stdout
    refused = tribes(process, session, "move", "bid:3", "--seat", "0")
    assert refused.returncode == 2 and "NOT_YOUR_TURN" in refused.stderr
    log = tribes(process, session, "moves", "--seat", "1")
    assert "(hidden)" in log.stdout  # seat 1 may not see seat 0's bid
    own = tribes(process, session, "moves", "--seat", "0")
    assert "bid:2" in own.stdout


def test_play_a_whole_game_with_a_human_seat(
    process: ServerProcess, tmp_path: pathlib.Path
) -> None:
    """play runs a game to the end: the human answers by number or id, others are random."""
    answers = "1\nbid:2\n9\n1\n"  # "9" is refused (only one card left) and asked again
    played = tribes(
        process,
        tmp_path / "s.json",
        "play",
        "goofspiel",
        "--seats",
        "2",
        "--human",
        "0",
        "-o",
        "cards=3",
        stdin=answers,
    )
    assert played.returncode == 0, played.stderr
    assert "your move" in played.stdout and "is not one of the 1 moves" in played.stdout
    assert "result:" in played.stdout


def test_play_all_random_seats(process: ServerProcess, tmp_path: pathlib.Path) -> None:
    """Without a human seat the game plays itself to the end."""
    played = tribes(
        process, tmp_path / "s.json", "play", "goofspiel", "--seats", "3", "--seed", "4"
    )
    assert played.returncode == 0, played.stderr
    assert "finished" in played.stdout and "result:" in played.stdout


def test_play_five_tribes_with_random_seats(process: ServerProcess, tmp_path: pathlib.Path) -> None:
    """A three-player Five Tribes game plays itself to a result through the CLI."""
    played = tribes(
        process,
        tmp_path / "s.json",
        "play",
        "five_tribes",
        "--seats",
        "3",
        "--quiet",
        "--seed",
        "7",
    )
    assert played.returncode == 0, played.stderr
    assert "five_tribes, 3 seats" in played.stdout
    assert "finished" in played.stdout and "result:" in played.stdout


def test_play_fate_of_akalon(process: ServerProcess, tmp_path: pathlib.Path) -> None:
    """A whole Fate of Akalon game plays itself through the CLI, ids and all."""
    played = tribes(
        process,
        tmp_path / "s.json",
        "play",
        "fate_of_akalon",
        "--seats",
        "2",
        "--quiet",
        "--seed",
        "3",
    )
    assert played.returncode == 0, played.stderr
    assert "fate_of_akalon, 2 seats" in played.stdout
    assert "finished" in played.stdout and "result:" in played.stdout


@pytest.mark.parametrize(
    ("game", "seats"), [("tribes_early_civilization", "3"), ("rise_of_tribes", "4")]
)
def test_play_the_newer_games(
    process: ServerProcess, tmp_path: pathlib.Path, game: str, seats: str
) -> None:
    """`tribes play <game> --seats N` plays Tribes: Early Civilization and Rise of Tribes
    to a result through the CLI."""
    played = tribes(
        process, tmp_path / "s.json", "play", game, "--seats", seats, "--quiet", "--seed", "5"
    )
    assert played.returncode == 0, played.stderr
    assert f"{game}, {seats} seats" in played.stdout
    assert "finished" in played.stdout and "result:" in played.stdout

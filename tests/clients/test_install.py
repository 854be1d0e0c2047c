"""The Python client installs alone: ``pip install ./clients`` in a fresh virtualenv.

The venv gets only the client's own dependencies; the test then plays a whole game
against a real server from that venv, runs its ``tribes`` CLI, checks that nothing of the
service came along, and type-checks a consumer with ``mypy --strict`` against the
installed package (its ``py.typed``).
"""

from __future__ import annotations

import pathlib
import subprocess
import sys
import textwrap
import venv

import pytest

from tests.support.server import server_process

ROOT = pathlib.Path(__file__).resolve().parents[2]

CONSUMER = textwrap.dedent(
    """
    from __future__ import annotations

    import random
    import sys

    from tribes_client import Client, TribesError
    from tribes_client.v1 import common_pb2


    def play(target: str) -> int:
        with Client(target) as client:
            game, tokens = client.create_game("five_tribes", 2)
            seats = [client.with_token(token) for token in tokens]
            rng = random.Random(1)
            snapshot: common_pb2.GameSnapshot = game
            moves = 0
            while not snapshot.finished:
                seat = seats[snapshot.to_act[0]]
                mine = seat.get_game(game.name)
                choice = rng.choice(list(mine.legal_moves))
                snapshot = seat.apply_move(
                    game.name, move_id=choice.id, expected_version=mine.version
                )
                moves += 1
            try:
                seats[0].apply_move(game.name, move_id="end-turn")
            except TribesError as error:
                assert error.reason == "GAME_FINISHED", error.reason
            print(f"finished after {moves} moves; winners {list(snapshot.result.winners)}")
            return moves


    if __name__ == "__main__":
        sys.exit(0 if play(sys.argv[1]) > 0 else 1)
    """
)


@pytest.fixture(scope="module")
def client_venv(tmp_path_factory: pytest.TempPathFactory) -> pathlib.Path:
    """A fresh venv with ``pip install ./clients`` (what a user of the client runs)."""
    where = tmp_path_factory.mktemp("client-venv")
    venv.create(where, with_pip=True)
    python = where / "bin" / "python"
    install = subprocess.run(
        [str(python), "-m", "pip", "install", "--quiet", str(ROOT / "clients")],
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert install.returncode == 0, install.stdout[-2000:] + install.stderr[-3000:]
    return where


@pytest.mark.timeout(900)
def test_a_fresh_venv_client_plays_a_whole_game(
    client_venv: pathlib.Path, tmp_path: pathlib.Path
) -> None:
    """From the fresh venv: a whole Five Tribes game by move ids, and the CLI."""
    python = client_venv / "bin" / "python"
    script = tmp_path / "consumer.py"
    script.write_text(CONSUMER)
    with server_process({}) as server:
        played = subprocess.run(
            [str(python), str(script), server.target],
            capture_output=True,
            text=True,
            timeout=300,
            cwd=tmp_path,
        )
        assert played.returncode == 0, played.stdout[-2000:] + played.stderr[-2000:]
        assert "finished after" in played.stdout
        types = subprocess.run(
            [str(client_venv / "bin" / "tribes"), "--target", server.target, "types"],
            capture_output=True,
            text=True,
            timeout=60,
        )
        assert types.returncode == 0 and "five_tribes" in types.stdout, types.stderr


@pytest.mark.timeout(900)
def test_the_client_brings_nothing_of_the_service(client_venv: pathlib.Path) -> None:
    """The venv has tribes_client and its generated API, but no ``tribes`` package and
    none of the service's dependencies."""
    python = client_venv / "bin" / "python"
    probe = (
        "import importlib.util as u, tribes_client.v1.game_service_pb2 as g;"
        "print([m for m in ('tribes', 'redis', 'aiohttp', 'prometheus_client')"
        " if u.find_spec(m)]); print(g.DESCRIPTOR.package)"
    )
    out = subprocess.run(
        [str(python), "-c", probe], capture_output=True, text=True, timeout=60, cwd="/"
    )
    assert out.returncode == 0, out.stderr
    assert out.stdout.split() == ["[]", "tribes.v1"]


@pytest.mark.timeout(900)
def test_consumers_type_check_strictly(client_venv: pathlib.Path, tmp_path: pathlib.Path) -> None:
    """``mypy --strict`` of a consumer, against the installed package, passes."""
    script = tmp_path / "consumer.py"
    script.write_text(CONSUMER)
    checked = subprocess.run(
        [
            sys.executable,
            "-m",
            "mypy",
            "--strict",
            "--no-incremental",
            "--python-executable",
            str(client_venv / "bin" / "python"),
            str(script),
        ],
        capture_output=True,
        text=True,
        timeout=600,
        cwd=tmp_path,
    )
    assert checked.returncode == 0, checked.stdout[-3000:]

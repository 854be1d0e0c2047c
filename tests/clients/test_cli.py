"""The ``tribes`` command line, run as a real process against a real server."""

from __future__ import annotations

import json
import os
import pathlib
import pty
import queue
import re
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from typing import Any

import pytest

from tests.support.server import ROOT, ServerProcess, server_process
from tribes_client.client import Client
from tribes_client.render import ordered_moves


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


# -- readable views, numbered moves, watch, lobby, hosted play ------------------------

ENUM_PREFIXES = ("FIVE_TRIBES_", "TRIBES_EARLY_CIVILIZATION_", "RISE_OF_TRIBES_", "FATE_OF_AKALON_")
ESCAPE = "\x1b["


def session_tokens(session: pathlib.Path) -> list[str]:
    tokens: list[str] = json.loads(session.read_text())["tokens"]
    return tokens


def spectator_view(process: ServerProcess, session: pathlib.Path, seat: int) -> Any:
    """The game's snapshot for ``seat``, read with the Python client (to check against)."""
    data = json.loads(session.read_text())
    with Client(process.target, token=data["tokens"][seat]) as client:
        return client.get_game(data["game"])


def wait_until_to_act(process: ServerProcess, session: pathlib.Path, seat: int) -> None:
    deadline = time.monotonic() + 20
    while not spectator_view(process, session, seat).legal_moves:
        assert time.monotonic() < deadline, f"seat {seat} never got a move"
        time.sleep(0.05)


def assert_readable(text: str) -> None:
    """No raw protobuf text: no enum prefixes, no `position {` blocks, no escapes."""
    for prefix in ENUM_PREFIXES:
        assert prefix not in text
    assert "{" not in text.replace("{}", "")
    assert ESCAPE not in text


def test_five_tribes_show_draws_the_sultanate_grid(
    process: ServerProcess, tmp_path: pathlib.Path
) -> None:
    """show draws 5 rows of 6 tiles with the tile values and meeples the server holds."""
    session = tmp_path / "s.json"
    created = tribes(process, session, "new", "five_tribes", "--seats", "3", "--seed", "2")
    assert created.returncode == 0, created.stderr
    shown = tribes(process, session, "show", "--seat", "0")
    assert shown.returncode == 0, shown.stderr
    assert_readable(shown.stdout)
    snapshot = spectator_view(process, session, 0)
    tiles = list(snapshot.view.five_tribes.tiles)
    rows = [line for line in shown.stdout.splitlines() if re.match(r"^ [0-4] \| ", line)]
    assert [int(line.split("|")[0]) for line in rows] == [0, 1, 2, 3, 4]
    for row, line in enumerate(rows):
        cells = [cell.strip() for cell in line.split("|")[1:-1]]
        assert len(cells) == 6
        for column, cell in enumerate(cells):
            assert cell.endswith(str(tiles[row * 6 + column].value))  # e.g. "Sac 10"
    meeple_lines = shown.stdout.splitlines()
    first_row_meeples = meeple_lines[meeple_lines.index(rows[0]) + 1].split("|")[1].strip()
    first = tiles[0].meeples
    for letter, count in zip(
        "ywgbr",
        (first.viziers, first.elders, first.merchants, first.builders, first.assassins),
        strict=True,
    ):
        assert (letter in first_row_meeples) == (count > 0)
    assert "seats:" in shown.stdout and "round 1, step: bid" in shown.stdout


def test_moves_are_numbered_in_natural_order(
    process: ServerProcess, tmp_path: pathlib.Path
) -> None:
    """Bids list as bid:0, bid:1, bid:3, ..., bid:18 (numbers compared as numbers)."""
    session = tmp_path / "s.json"
    tribes(process, session, "new", "five_tribes", "--seats", "3", "--seed", "2")
    shown = tribes(process, session, "show", "--seat", "0").stdout
    listed = re.findall(r"^\s+(\d+)\. (bid:\d+)", shown, flags=re.MULTILINE)
    assert [int(n) for n, _ in listed] == list(range(1, len(listed) + 1))
    spots = [int(move.split(":")[1]) for _, move in listed]
    assert spots == sorted(spots) and len(spots) >= 3 and spots != sorted(spots, key=str)


def test_move_by_number_plays_that_move(process: ServerProcess, tmp_path: pathlib.Path) -> None:
    """`tribes move 3` plays the third move of the shown list (bid:3, not text-sorted bid:11)."""
    session = tmp_path / "s.json"
    tribes(process, session, "new", "goofspiel", "--seats", "2", "-o", "cards=13")
    assert "  3. bid:3" in tribes(process, session, "show", "--seat", "0").stdout
    moved = tribes(process, session, "move", "3", "--seat", "0")
    assert moved.returncode == 0, moved.stderr
    log = tribes(process, session, "moves", "--seat", "0").stdout
    assert "bid:3" in log and "bid:11" not in log
    # the list of the next decision is one shorter and never offers bid:3 again
    tribes(process, session, "move", "bid:1", "--seat", "1")
    again = tribes(process, session, "show", "--seat", "0").stdout
    assert "bid:3 " not in again and re.search(r"^\s+12\. bid:13", again, flags=re.MULTILINE)


def test_move_number_out_of_range_is_a_clear_error(
    process: ServerProcess, tmp_path: pathlib.Path
) -> None:
    """A number past the list is refused with the list's size, and nothing is played."""
    session = tmp_path / "s.json"
    tribes(process, session, "new", "goofspiel", "--seats", "2", "-o", "cards=5")
    refused = tribes(process, session, "move", "6", "--seat", "0")
    assert refused.returncode != 0 and "Traceback" not in refused.stderr
    assert "move 6 is out of range: there are 5 moves (1-5)" in refused.stderr
    assert tribes(process, session, "moves", "--seat", "0").stdout.strip() == ""
    in_range = tribes(process, session, "move", "5", "--seat", "0")
    assert in_range.returncode == 0, in_range.stderr  # the last number of the list plays
    assert "seat 0: bid:5" in tribes(process, session, "moves", "--seat", "0").stdout


def test_move_number_from_an_outdated_list_is_refused(
    process: ServerProcess, tmp_path: pathlib.Path
) -> None:
    """A number is refused when the seat's moves are no longer the list it was shown."""
    session = tmp_path / "s.json"
    tribes(process, session, "new", "goofspiel", "--seats", "2", "-o", "cards=5")
    assert tribes(process, session, "move", "bid:5", "--seat", "0").returncode == 0
    assert tribes(process, session, "move", "bid:1", "--seat", "1").returncode == 0
    # seat 0 last saw no moves (it was waiting for seat 1); now it has four
    stale = tribes(process, session, "move", "1", "--seat", "0")
    assert stale.returncode == 1 and "the moves changed since the list you saw" in stale.stderr
    assert "bid:1" in tribes(process, session, "show", "--seat", "0").stdout
    fresh = tribes(process, session, "move", "1", "--seat", "0")
    assert fresh.returncode == 0, fresh.stderr
    log = tribes(process, session, "moves", "--seat", "0").stdout
    assert log.count("seat 0: bid:") == 2 and "seat 0: bid:1 " in log


@pytest.mark.parametrize(
    ("game", "seats", "moves"),
    [
        ("tribes_early_civilization", "3", 8),
        ("rise_of_tribes", "3", 12),
        ("fate_of_akalon", "2", 4),
    ],
)
def test_each_game_renders_its_board(
    process: ServerProcess, tmp_path: pathlib.Path, game: str, seats: str, moves: int
) -> None:
    """Every game's view is readable and shows the server's real board content."""
    session = tmp_path / "s.json"
    assert tribes(process, session, "new", game, "--seats", seats, "--seed", "9").returncode == 0
    tokens = session_tokens(session)
    with Client(process.target) as client:
        name = json.loads(session.read_text())["game"]
        for _ in range(moves):  # a few moves in, so boards have pieces on them
            spectator = client.get_game(name)
            seat = spectator.to_act[0]
            mine = client.with_token(tokens[seat])
            first = ordered_moves(mine.get_game(name).legal_moves)[0]
            mine.apply_move(name, move_id=first.id)
        seat = client.get_game(name).to_act[0]
    shown = tribes(process, session, "show", "--seat", str(seat))
    assert shown.returncode == 0, shown.stderr
    assert_readable(shown.stdout)
    view = getattr(spectator_view(process, session, seat).view, game)
    text = shown.stdout
    if game == "tribes_early_civilization":
        for player in view.players:
            assert f"seat {player.seat}" in text
            for tile in player.tiles:
                assert f"{tile.hex.q},{tile.hex.r}" in text
        assert "action row: [0] " + view.sequence[0].name in text
    elif game == "rise_of_tribes":
        for cell in view.hexes:
            assert f"{cell.coord.q},{cell.coord.r} " in text
            for owner, count in enumerate(cell.members):
                if count:
                    assert f"{owner}:{count}" in text
        assert "action board:" in text and len(re.findall(r"\[\w+ \w+ \w+\]", text)) == 4
    else:
        me = view.players[seat]
        for card in me.hand:
            assert view.cards[card].name in text.split("your hand:")[1]
        for player in view.players:
            assert f"cemetery value {player.cemetery_value}" in text
        header = text.split("battlefield:\n")[1].splitlines()[0]
        assert header.count("|") == len(view.players) - 1


def run_on_a_terminal(
    process: ServerProcess, session: pathlib.Path, *args: str, no_color: bool
) -> str:
    """The CLI with its stdout on a pseudo-terminal; what the terminal received."""
    leader, follower = pty.openpty()
    env = {**cli_env(process, session)}
    env.pop("NO_COLOR", None)
    if no_color:
        env["NO_COLOR"] = "1"
    proc = subprocess.Popen(
        [sys.executable, "-m", "tribes_client.cli", *args],
        env=env,
        stdout=follower,
        stderr=subprocess.PIPE,
    )
    os.close(follower)
    received = b""
    while True:
        try:
            chunk = os.read(leader, 65536)
        except OSError:  # EIO: the child closed the terminal
            break
        if not chunk:
            break
        received += chunk
    os.close(leader)
    assert proc.wait(30) == 0
    return received.decode()


def test_colour_only_on_a_terminal_without_no_color(
    process: ServerProcess, tmp_path: pathlib.Path
) -> None:
    """A terminal gets ANSI colour; NO_COLOR, a pipe or --no-color get none; --color forces it."""
    session = tmp_path / "s.json"
    tribes(process, session, "new", "five_tribes", "--seats", "2", "--seed", "3")
    on_tty = run_on_a_terminal(process, session, "show", "--seat", "0", no_color=False)
    assert ESCAPE in on_tty and "Sac" in on_tty
    plain_tty = run_on_a_terminal(process, session, "show", "--seat", "0", no_color=True)
    assert ESCAPE not in plain_tty and "Sac" in plain_tty
    assert ESCAPE not in run_on_a_terminal(
        process, session, "--no-color", "show", "--seat", "0", no_color=False
    )
    assert ESCAPE not in tribes(process, session, "show", "--seat", "0").stdout
    assert ESCAPE in tribes(process, session, "--color", "show", "--seat", "0").stdout


def cli_env(process: ServerProcess, session: pathlib.Path) -> dict[str, str]:
    return {
        **os.environ,
        "PYTHONPATH": f"{ROOT}{os.pathsep}{ROOT / 'service'}{os.pathsep}{ROOT / 'clients'}",
        "TRIBES_SESSION": str(session),
        "TRIBES_TARGET": process.target,
    }


# `tribes watch` with Ctrl-C as a terminal gives it: a child inherits SIGINT *ignored* from its
# parent, and some test worker processes of the full suite ignore it, so the watcher would
# never see the SIGINT the test sends (it hung there, waiting for the next snapshot).
WATCH_WITH_CTRL_C = (
    "import runpy, signal; signal.signal(signal.SIGINT, signal.default_int_handler); "
    "runpy.run_module('tribes_client.cli', run_name='__main__', alter_sys=True)"
)


class Watcher:
    """``tribes watch`` as a child process, its output lines collected by a thread."""

    def __init__(self, process: ServerProcess, session: pathlib.Path) -> None:
        self.proc = subprocess.Popen(
            [sys.executable, "-c", WATCH_WITH_CTRL_C, "watch"],
            env={**cli_env(process, session), "PYTHONFAULTHANDLER": "1"},  # stacks on a hang
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        self.lines: queue.Queue[str] = queue.Queue()
        self.seen: list[str] = []
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        assert self.proc.stdout is not None
        for line in self.proc.stdout:
            self.lines.put(line.rstrip("\n"))

    def wait_for(self, pattern: str, timeout: float = 20) -> str:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            try:
                line = self.lines.get(timeout=0.2)
            except queue.Empty:
                continue
            self.seen.append(line)
            if re.search(pattern, line):
                return line
        raise AssertionError(f"no line matching {pattern!r} in:\n" + "\n".join(self.seen))

    def finish(self, timeout: float = 20) -> tuple[int, str]:
        assert self.proc.stderr is not None
        try:
            code = self.proc.wait(timeout)
        except subprocess.TimeoutExpired:
            # a hang: what the CLI printed, with its threads' stacks (faulthandler, SIGABRT)
            self.proc.send_signal(signal.SIGABRT)
            _, err = self.proc.communicate(timeout=10)
            raise AssertionError(f"watch did not exit within {timeout} s; stderr:\n{err}") from None
        return code, self.proc.stderr.read()


def test_watch_shows_what_changed_and_stops_cleanly_on_sigint(
    process: ServerProcess, tmp_path: pathlib.Path
) -> None:
    """After the first snapshot, watch prints the move played and only the changed lines;
    SIGINT ends it with status 0 and no traceback."""
    session = tmp_path / "s.json"
    tribes(process, session, "new", "five_tribes", "--seats", "2", "--seed", "4")
    watcher = Watcher(process, session)
    try:
        watcher.wait_for(r"v1 .*as spectator")
        watcher.wait_for(r"^bag: ")  # the whole first snapshot is out
        seat = spectator_view(process, session, 0).to_act[0]
        assert tribes(process, session, "move", "1", "--seat", str(seat)).returncode == 0
        watcher.wait_for(r"^--- v1 -> v2")
        watcher.wait_for(rf"^  v2\s+seat {seat}: bid:0 ")
        changed = watcher.wait_for(r"^\+ .* v2 ")
        assert "as spectator" in changed
        watcher.wait_for(r"^\+ zero spots: seat")
        time.sleep(0.3)
        assert not any(line.startswith(("+  0 | ", "-  0 | ")) for line in watcher.seen)
    finally:
        watcher.proc.send_signal(signal.SIGINT)
        code, err = watcher.finish()
    assert code == 0 and "Traceback" not in err and "stopped watching" in err


def test_watch_exits_when_the_game_ends(process: ServerProcess, tmp_path: pathlib.Path) -> None:
    """watch ends by itself with status 0 once the final snapshot arrives."""
    session = tmp_path / "s.json"
    created = tribes(
        process, session, "new", "goofspiel", "--seats", "2", "-o", "cards=3", "--bot", "1=random"
    )
    assert created.returncode == 0, created.stderr
    watcher = Watcher(process, session)
    watcher.wait_for(r"v\d+ .*as seat 0")  # the session's one seat is the default
    for _ in range(3):
        wait_until_to_act(process, session, 0)  # the bot may still be deciding
        assert tribes(process, session, "move", "1").returncode == 0
    watcher.wait_for(r"^\+ result: ")
    code, err = watcher.finish()
    assert code == 0 and "Traceback" not in err


def test_lobby_games_and_join(process: ServerProcess, tmp_path: pathlib.Path) -> None:
    """A listed game shows in `games`; `join` claims seats and stores their tokens."""
    session = tmp_path / "s.json"
    created = tribes(process, session, "create", "goofspiel", "--seats", "2", "--listed")
    assert created.returncode == 0, created.stderr
    name = created.stdout.splitlines()[0]
    listed = tribes(process, session, "games", "--open")
    row = next(line for line in listed.stdout.splitlines() if line.startswith(name))
    assert row.split()[1:5] == ["goofspiel", "2", "0,1", "-"]
    joined = tribes(process, tmp_path / "ana.json", "join", name, "--name", "Ana")
    assert joined.returncode == 0, joined.stderr
    assert f"joined {name} as seat 0" in joined.stdout and "Ana" in joined.stdout
    bo = tribes(process, tmp_path / "bo.json", "join", name, "--seat", "1", "--name", "Bo")
    assert "as seat 1" in bo.stdout
    after = tribes(process, session, "games").stdout
    row = next(line for line in after.splitlines() if line.startswith(name))
    assert "Ana, Bo" in row and row.split()[3] == "-"
    assert name not in tribes(process, session, "games", "--open").stdout
    # the joined seat's token is in its session: move needs no --seat
    played = tribes(process, tmp_path / "ana.json", "move", "1")
    assert played.returncode == 0, played.stderr
    assert "as seat 0" in played.stdout
    taken = tribes(process, tmp_path / "cy.json", "join", name)
    assert taken.returncode == 2 and "Traceback" not in taken.stderr


def test_resign_and_bots(process: ServerProcess, tmp_path: pathlib.Path) -> None:
    """`resign` ends a two-seat game; the seat list shows the bot and the resignation."""
    session = tmp_path / "s.json"
    tribes(process, session, "new", "five_tribes", "--seats", "3", "--bot", "2=random")
    shown = tribes(process, session, "show", "--seat", "0").stdout
    assert re.search(r"^\s+2 .*bot random", shown, flags=re.MULTILINE)
    resigned = tribes(process, session, "resign", "--seat", "1")
    assert resigned.returncode == 0, resigned.stderr
    assert "seat 1 resigned" in resigned.stdout
    assert re.search(r"^\s+1 .*resigned", resigned.stdout, flags=re.MULTILINE)
    two = tmp_path / "two.json"
    tribes(process, two, "new", "goofspiel", "--seats", "2")
    game = json.loads(two.read_text())["game"]
    ended = tribes(process, two, "resign", game, "--seat", "0")
    assert ended.returncode == 0 and "finished" in ended.stdout and "result:" in ended.stdout
    again = tribes(process, two, "resign", game, "--seat", "0")
    assert again.returncode == 2 and "Traceback" not in again.stderr


def test_time_control_shows_clocks(process: ServerProcess, tmp_path: pathlib.Path) -> None:
    """--time-control sets the TimeControl; show prints it and each seat's clock."""
    session = tmp_path / "s.json"
    created = tribes(
        process,
        session,
        "new",
        "five_tribes",
        "--seats",
        "2",
        "--time-control",
        "per-move=30s,chess=10m+5s,on-timeout=bot",
    )
    assert created.returncode == 0, created.stderr
    snapshot = spectator_view(process, session, 0)
    control = snapshot.time_control
    assert (
        control.per_move_seconds,
        control.initial_seconds,
        control.increment_seconds,
        control.on_timeout,
    ) == (30, 600, 5, "bot")
    shown = tribes(process, session, "show").stdout
    assert "time: 30s a move, chess clock 10:00 +5s, on timeout: bot" in shown
    acting = snapshot.to_act[0]
    line = next(row for row in shown.splitlines() if re.match(rf"^\s+{acting} ", row))
    assert re.search(r"clock (10:00|09:\d\d) left", line)
    assert re.search(r"deadline in 00:(30|[0-2]\d)", line)
    bad = tribes(
        process, session, "new", "five_tribes", "--seats", "2", "--time-control", "per-move=soon"
    )
    assert bad.returncode != 0 and "not a duration" in bad.stderr

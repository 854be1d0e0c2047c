"""``tribes``: play and inspect games from a terminal.

    tribes types                              the games the server hosts
    tribes new GAME --seats N [-o K=V] [--seed S] [--listed] [--bot SEAT=KIND]
               [--time-control per-move=30s,chess=10m+5s,on-timeout=forfeit]
                                              (also spelt ``tribes create``)
    tribes games [--type T] [--open]          the lobby: listed games, newest first
    tribes join GAME [--seat N] [--name NAME] claim a seat of a listed game
    tribes show [--seat K]                    the current game as seat K (or spectator)
    tribes move N|ID [--seat K]               play move number N of the list, or by id
    tribes moves [--seat K]                   the move log
    tribes watch [--seat K] [--full]          follow the game live: what changed
    tribes resign [GAME] [--seat K]           leave the game
    tribes play GAME --seats N [--human K]    a whole game here, other seats random

``new`` and ``join`` remember the game and its seat tokens in a session file
(``TRIBES_SESSION``, default ``~/.tribes/session.json``), so later commands need only
``--seat`` (or nothing, when the session holds one seat of the game). The server is
``--target`` or ``TRIBES_TARGET`` (default 127.0.0.1:50051). Colours: on a terminal
unless ``NO_COLOR`` is set; ``--color`` / ``--no-color`` decide instead.
"""

from __future__ import annotations

import argparse
import difflib
import json
import os
import pathlib
import random
import re
import sys
from collections.abc import Sequence
from typing import Any, TextIO

from tribes_client.client import DEFAULT_TARGET, Client, TribesError
from tribes_client.render import PLAIN, Style, ordered_moves, snapshot_lines, wants_color
from tribes_client.render.common import move_lines, seat_label
from tribes_client.v1 import common_pb2 as pb

# Exit status after Ctrl-C in a command that was not done (``watch`` exits 0: stopping
# it is how it ends).
INTERRUPTED = 130


def _session_path() -> pathlib.Path:
    return pathlib.Path(os.environ.get("TRIBES_SESSION", "~/.tribes/session.json")).expanduser()


def _load_session() -> dict[str, Any]:
    path = _session_path()
    if not path.exists():
        return {}
    data: dict[str, Any] = json.loads(path.read_text())
    return data


def _save_session(data: dict[str, Any]) -> None:
    path = _session_path()
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(data, indent=2))
    path.chmod(0o600)  # it holds seat tokens


def _seat_tokens(session: dict[str, Any], name: str) -> list[str]:
    """The tokens the session holds for ``name``, by seat ("" = none)."""
    games = session.get("games", {})
    if name in games:
        return list(games[name].get("tokens", []))
    if session.get("game") == name:
        return list(session.get("tokens", []))
    return []


def _remember(session: dict[str, Any], name: str, tokens: list[str]) -> None:
    """Make ``name`` the session's game with these seat tokens."""
    session["game"] = name
    session["tokens"] = tokens
    session.setdefault("games", {})[name] = {"tokens": tokens}


def _style(args: argparse.Namespace) -> Style:
    return Style(wants_color(sys.stdout, args.color))


def _print(lines: Sequence[str]) -> None:
    print("\n".join(lines), flush=True)


def _token(args: argparse.Namespace, session: dict[str, Any]) -> str | None:
    """``--token``, the session's token for ``--seat``, or the only seat the session
    holds for the game; None (a spectator) otherwise."""
    if args.token:
        return str(args.token)
    tokens = _seat_tokens(session, _game(args, session))
    if args.seat is None:
        held = [token for token in tokens if token]
        return held[0] if len(held) == 1 else None
    if not 0 <= args.seat < len(tokens) or not tokens[args.seat]:
        raise SystemExit(f"no token for seat {args.seat} in the session; use --token")
    return str(tokens[args.seat])


def _game(args: argparse.Namespace, session: dict[str, Any]) -> str:
    name = args.game or session.get("game")
    if not name:
        raise SystemExit("no game given and none in the session (run `tribes new` first)")
    return _full_name(str(name))


def _full_name(name: str) -> str:
    return name if name.startswith("games/") else f"games/{name}"


def _options(pairs: Sequence[str]) -> dict[str, str]:
    options = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep:
            raise SystemExit(f"option {pair!r} must look like NAME=VALUE")
        options[key] = value
    return options


def _bots(pairs: Sequence[str]) -> dict[int, str]:
    bots = {}
    for pair in pairs:
        seat, sep, kind = pair.partition("=")
        if not sep or not seat.strip().isdigit() or not kind:
            raise SystemExit(f"--bot {pair!r} must look like SEAT=KIND, e.g. 1=random")
        bots[int(seat)] = kind
    return bots


_DURATION = re.compile(r"(\d+)([dhms]?)")
_UNIT_SECONDS = {"d": 86_400, "h": 3600, "m": 60, "s": 1, "": 1}


def parse_duration(text: str) -> int:
    """Seconds in ``30s``, ``10m``, ``1h30m``, ``2d`` or a bare number of seconds."""
    spec = text.strip().lower()
    if not spec or _DURATION.sub("", spec):
        raise SystemExit(f"{text!r} is not a duration (e.g. 30s, 10m, 1h30m, 2d)")
    return sum(int(n) * _UNIT_SECONDS[unit] for n, unit in _DURATION.findall(spec))


def parse_time_control(text: str) -> pb.TimeControl:
    """``per-move=30s,chess=10m+5s,on-timeout=forfeit|bot`` as a TimeControl.

    ``chess=INITIAL+INCREMENT`` sets the chess clock (``increment=5s`` also works).
    """
    control = pb.TimeControl()
    for part in filter(None, (p.strip() for p in text.split(","))):
        key, sep, value = part.partition("=")
        key = key.strip().replace("_", "-")
        if not sep:
            raise SystemExit(f"time control {part!r} must look like NAME=VALUE")
        if key == "per-move":
            control.per_move_seconds = parse_duration(value)
        elif key == "chess":
            initial, _, increment = value.partition("+")
            control.initial_seconds = parse_duration(initial)
            if increment:
                control.increment_seconds = parse_duration(increment)
        elif key == "increment":
            control.increment_seconds = parse_duration(value)
        elif key == "on-timeout":
            if value not in ("forfeit", "bot"):
                raise SystemExit(f"on-timeout must be forfeit or bot, not {value!r}")
            control.on_timeout = value
        else:
            raise SystemExit(
                f"unknown time control {key!r} (per-move, chess, increment, on-timeout)"
            )
    return control


def cmd_types(client: Client, args: argparse.Namespace) -> int:
    for game_type in client.list_game_types():
        seats = "/".join(map(str, game_type.seat_counts))
        print(f"{game_type.id:<28} {game_type.title} ({seats} players)")
        for option in game_type.options:
            choices = f" [{', '.join(option.choices)}]" if option.choices else ""
            about = f"{option.description}; default {option.default_value}{choices}"
            print(f"    -o {option.name}=  {about}")
    return 0


def cmd_new(client: Client, args: argparse.Namespace) -> int:
    snapshot, tokens = client.create_game(
        args.game_type,
        args.seats,
        _options(args.option),
        seed=args.seed,
        listed=args.listed,
        time_control=parse_time_control(args.time_control) if args.time_control else None,
        bots=_bots(args.bot),
    )
    session = _load_session()
    session["target"] = client_target(args)
    _remember(session, snapshot.name, tokens)
    _save_session(session)
    print(snapshot.name)
    for seat, token in enumerate(tokens):
        print(f"seat {seat}: {token or '(bot)'}")
    if args.listed:
        print(f"listed in the lobby: players join with `tribes join {snapshot.name}`")
    return 0


def cmd_games(client: Client, args: argparse.Namespace) -> int:
    """The lobby as a table, one page at a time."""
    page = client.list_games(
        game_type=args.type or "",
        open_only=args.open,
        page_size=args.page_size,
        page_token=args.page or "",
    )
    rows = [("GAME", "TYPE", "SEATS", "OPEN", "PLAYERS", "VERSION", "FINISHED")]
    for game in page.games:
        players = ", ".join(name for name in game.player_names if name) or "-"
        rows.append(
            (
                game.name,
                game.game_type,
                str(game.seat_count),
                ",".join(map(str, game.open_seats)) or "-",
                players,
                str(game.version),
                "yes" if game.finished else "no",
            )
        )
    if len(rows) == 1:
        print("no listed games" + (" with open seats" if args.open else ""))
    else:
        widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
        for row in rows:
            print("  ".join(cell.ljust(width) for cell, width in zip(row, widths, strict=True)))
    if page.next_page_token:
        print(f"more: tribes games --page {page.next_page_token}")
    return 0


def cmd_join(client: Client, args: argparse.Namespace) -> int:
    name = _full_name(args.game_name)
    joined = client.join_game(name, seat=args.seat, player_name=args.name or "")
    session = _load_session()
    session["target"] = client_target(args)
    tokens = _seat_tokens(session, name)
    tokens += [""] * (joined.game.seat_count - len(tokens))
    tokens[joined.seat] = joined.seat_token
    _remember(session, name, tokens)
    _save_session(session)
    print(f"joined {name} as seat {joined.seat}")
    _show(joined.game, args, session)
    return 0


def _show(snapshot: pb.GameSnapshot, args: argparse.Namespace, session: dict[str, Any]) -> None:
    """Print the snapshot and remember its numbered moves for ``tribes move N``."""
    _print(snapshot_lines(snapshot, _style(args)))
    if snapshot.viewer_seat >= 0:
        session.setdefault("shown", {})[_shown_key(snapshot)] = {
            "version": snapshot.version,
            "ids": [move.id for move in ordered_moves(snapshot.legal_moves)],
        }
        _save_session(session)


def _shown_key(snapshot: pb.GameSnapshot) -> str:
    return f"{snapshot.name}#{snapshot.viewer_seat}"


def cmd_show(client: Client, args: argparse.Namespace) -> int:
    session = _load_session()
    seat_client = client.with_token(_token(args, session))
    _show(seat_client.get_game(_game(args, session)), args, session)
    return 0


def resolve_move(text: str, snapshot: pb.GameSnapshot, shown: dict[str, Any] | None) -> str:
    """The move id meant by ``text``: a legal move id as given, or the number of one in
    the natural-order list (refused when it is not the list last ``shown`` to this seat)."""
    ids = [move.id for move in ordered_moves(snapshot.legal_moves)]
    if text in ids or not text.isdigit():
        return text  # an id: the server judges it (and explains a refusal)
    number = int(text)
    if not ids:
        raise SystemExit(
            f"seat {snapshot.viewer_seat} has no legal moves now (to act: "
            f"{', '.join(map(str, snapshot.to_act)) or 'nobody'}), so there is no move {number}"
        )
    if shown is not None and shown.get("ids") != ids:
        raise SystemExit(
            f"the moves changed since the list you saw (v{shown.get('version')}, now "
            f"v{snapshot.version}); run `tribes show` and choose again"
        )
    if not 1 <= number <= len(ids):
        count = len(ids)
        raise SystemExit(f"move {number} is out of range: there are {count} moves (1-{count})")
    return ids[number - 1]


def cmd_move(client: Client, args: argparse.Namespace) -> int:
    session = _load_session()
    token = _token(args, session)
    if token is None:
        raise SystemExit("moves need a seat: pass --seat K (from the session) or --token")
    seat_client = client.with_token(token)
    name = _game(args, session)
    expected = args.expect
    move_id = args.move_id
    if move_id.isdigit():
        current = seat_client.get_game(name)
        shown = session.get("shown", {})
        move_id = resolve_move(move_id, current, shown.get(_shown_key(current)))
        expected = expected or current.version  # the number meant this version's list
    snapshot = seat_client.apply_move(name, move_id=move_id, expected_version=expected)
    _show(snapshot, args, session)
    return 0


def cmd_moves(client: Client, args: argparse.Namespace) -> int:
    session = _load_session()
    seat_client = client.with_token(_token(args, session))
    for record in seat_client.list_moves(_game(args, session)):
        print(_record_line(record))
    return 0


def _record_line(record: pb.MoveRecord) -> str:
    shown = record.move_id or "(hidden)"
    return f"v{record.version:<4} seat {record.seat}: {shown:<24} {record.description}"


def cmd_resign(client: Client, args: argparse.Namespace) -> int:
    session = _load_session()
    if args.game_name:
        args.game = args.game_name
    token = _token(args, session)
    if token is None:
        raise SystemExit("resigning needs a seat: pass --seat K (from the session) or --token")
    snapshot = client.with_token(token).resign(_game(args, session))
    print(f"{seat_label(snapshot, snapshot.viewer_seat)} resigned from {snapshot.name}")
    _print(snapshot_lines(snapshot, _style(args), moves=False))
    return 0


def changed_lines(before: Sequence[str], after: Sequence[str], styled: Sequence[str]) -> list[str]:
    """The lines of ``after`` (shown ``styled``) that differ from ``before``: removed
    lines as ``- old``, added or changed ones as ``+ new``."""
    out: list[str] = []
    matcher = difflib.SequenceMatcher(a=list(before), b=list(after), autojunk=False)
    for tag, a0, a1, b0, b1 in matcher.get_opcodes():
        if tag == "equal":
            continue
        out += [f"- {line}" for line in before[a0:a1]]
        out += [f"+ {line}" for line in styled[b0:b1]]
    return out


def cmd_watch(client: Client, args: argparse.Namespace) -> int:
    """The first snapshot in full, then per change: the moves played and the changed
    lines (``--full``: every snapshot in full). Ends with the game, or on Ctrl-C (0)."""
    session = _load_session()
    seat_client = client.with_token(_token(args, session))
    name = _game(args, session)
    style = _style(args)
    before: list[str] | None = None
    version = 0
    try:
        for snapshot in seat_client.watch(name):
            plain = snapshot_lines(snapshot, PLAIN, moves=False)
            styled = snapshot_lines(snapshot, style, moves=False)
            moves = move_lines(ordered_moves(snapshot.legal_moves), style)
            if before is None or args.full:
                _print([*styled, *moves])
            else:
                played = [r for r in seat_client.list_moves(name) if r.version > version]
                head = f"v{version} -> v{snapshot.version}"
                if not played:
                    head += " (no move: seats changed)" if snapshot.version == version else ""
                out = [style.bold(f"--- {head}"), *(f"  {_record_line(r)}" for r in played)]
                _print([*out, *changed_lines(before, plain, styled), *moves])
            before, version = plain, snapshot.version
            if snapshot.finished:
                break
    except KeyboardInterrupt:
        print("stopped watching", file=sys.stderr)
    return 0


def cmd_play(client: Client, args: argparse.Namespace) -> int:
    """A whole game: human seats choose from the legal moves, the rest play at random."""
    humans = set(args.human if args.human is not None else ([0] if sys.stdin.isatty() else []))
    chooser = random.Random(args.seed)
    style = _style(args)
    game, tokens = client.create_game(
        args.game_type, args.seats, _options(args.option), seed=args.seed
    )
    seats = [client.with_token(token) for token in tokens]
    print(f"{game.name}: {game.game_type}, {args.seats} seats, humans {sorted(humans) or 'none'}")
    spectator = game
    for _ in range(args.max_moves):
        if spectator.finished:
            break
        seat = spectator.to_act[0]
        snapshot = seats[seat].get_game(game.name)
        if seat in humans:
            _print(snapshot_lines(snapshot, style))
            chosen = _ask(snapshot, sys.stdin, sys.stdout)
            if chosen is None:
                print("bye")
                return 1
        else:
            chosen = chooser.choice(list(snapshot.legal_moves))
        after = seats[seat].apply_move(
            game.name, move_id=chosen.id, expected_version=snapshot.version
        )
        if not args.quiet:
            print(f"v{after.version:<4} seat {seat}: {chosen.description}")
        spectator = client.get_game(game.name)
    else:
        print(f"stopped after {args.max_moves} moves")
        return 1
    _print(snapshot_lines(spectator, style))
    return 0


def _ask(snapshot: pb.GameSnapshot, inp: TextIO, out: TextIO) -> pb.LegalMove | None:
    moves = ordered_moves(snapshot.legal_moves)
    by_id = {m.id: m for m in moves}
    while True:
        print("your move (number or id, q to quit): ", end="", file=out, flush=True)
        line = inp.readline()
        if not line or line.strip() == "q":
            return None
        text = line.strip()
        if text in by_id:
            return by_id[text]
        if text.isdigit() and 1 <= int(text) <= len(moves):
            return moves[int(text) - 1]
        print(f"  {text!r} is not one of the {len(moves)} moves", file=out)


def client_target(args: argparse.Namespace) -> str:
    return str(
        args.target
        or os.environ.get("TRIBES_TARGET")
        or _load_session().get("target")
        or DEFAULT_TARGET
    )


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="tribes", description=__doc__.split("\n\n")[0])
    parser.add_argument("--target", help=f"server address (default {DEFAULT_TARGET})")
    colour = parser.add_mutually_exclusive_group()
    colour.add_argument("--color", dest="color", action="store_true", default=None)
    colour.add_argument("--no-color", dest="color", action="store_false")
    sub = parser.add_subparsers(dest="command", required=True)

    def seat_args(p: argparse.ArgumentParser) -> None:
        p.add_argument("--game", help="games/<id> (default: the session's game)")
        p.add_argument("--seat", type=int, help="act as this seat of the session")
        p.add_argument("--token", help="act with this seat token")

    sub.add_parser("types", help="list the game types").set_defaults(func=cmd_types)
    new = sub.add_parser("new", aliases=["create"], help="create a game, remember its tokens")
    new.add_argument("game_type")
    new.add_argument("--seats", type=int, required=True)
    new.add_argument("-o", "--option", action="append", default=[], metavar="NAME=VALUE")
    new.add_argument("--seed", type=int)
    new.add_argument("--listed", action="store_true", help="list it in the lobby; seats join")
    new.add_argument(
        "--time-control",
        metavar="SPEC",
        help="e.g. per-move=30s,chess=10m+5s,on-timeout=forfeit (or bot)",
    )
    new.add_argument(
        "--bot", action="append", default=[], metavar="SEAT=KIND", help="e.g. 1=random"
    )
    new.set_defaults(func=cmd_new)
    games = sub.add_parser("games", help="the lobby: listed games")
    games.add_argument("--type", help="only games of this type")
    games.add_argument("--open", action="store_true", help="only games with an open seat")
    games.add_argument("--page-size", type=int, default=20)
    games.add_argument("--page", metavar="TOKEN", help="the next page (from `more:`)")
    games.set_defaults(func=cmd_games)
    join = sub.add_parser("join", help="claim a seat of a listed game")
    join.add_argument("game_name", metavar="GAME")
    join.add_argument("--seat", type=int, help="the seat to claim (default: the first open)")
    join.add_argument("--name", help="the name other players see")
    join.set_defaults(func=cmd_join, token=None, game=None)
    show = sub.add_parser("show", help="show the game")
    seat_args(show)
    show.set_defaults(func=cmd_show)
    move = sub.add_parser("move", help="play a move: its number in the list, or its id")
    move.add_argument("move_id", metavar="N|ID")
    move.add_argument("--expect", type=int, default=0, help="expected version (0 = any)")
    seat_args(move)
    move.set_defaults(func=cmd_move)
    moves = sub.add_parser("moves", help="show the move log")
    seat_args(moves)
    moves.set_defaults(func=cmd_moves)
    watch = sub.add_parser("watch", help="follow the game live")
    seat_args(watch)
    watch.add_argument("--full", action="store_true", help="every snapshot in full")
    watch.set_defaults(func=cmd_watch)
    resign = sub.add_parser("resign", help="resign your seat")
    resign.add_argument("game_name", metavar="GAME", nargs="?")
    seat_args(resign)
    resign.set_defaults(func=cmd_resign)
    play = sub.add_parser("play", help="play a whole game in the terminal")
    play.add_argument("game_type")
    play.add_argument("--seats", type=int, required=True)
    play.add_argument("-o", "--option", action="append", default=[], metavar="NAME=VALUE")
    play.add_argument(
        "--human", type=int, action="append", help="a seat you play (default 0 on a terminal)"
    )
    play.add_argument(
        "--seed", type=int, help="seed for the random seats (and the game, if allowed)"
    )
    play.add_argument("--max-moves", type=int, default=100_000)
    play.add_argument("--quiet", action="store_true", help="do not print every move")
    play.set_defaults(func=cmd_play)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    client = Client(client_target(args))
    try:
        return int(args.func(client, args))
    except TribesError as err:
        print(f"error: {err}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return INTERRUPTED
    except BrokenPipeError:
        # the reader went away (``tribes show | head``): say nothing more
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return 0
    finally:
        client.close()


if __name__ == "__main__":
    sys.exit(main())

"""``tribes``: play and inspect games from a terminal.

    tribes types                              the games the server hosts
    tribes new GAME --seats N [-o K=V] [--seed S]
    tribes show [--seat K]                    the current game as seat K (or spectator)
    tribes move ID [--seat K]                 play a legal move by its id
    tribes moves [--seat K]                   the move log
    tribes watch [--seat K]                   follow the game live
    tribes play GAME --seats N [--human K]    a whole game here, other seats random

``new`` remembers the game and its seat tokens in a session file (``TRIBES_SESSION``,
default ``~/.tribes/session.json``), so later commands need only ``--seat``. The
server is ``--target`` or ``TRIBES_TARGET`` (default 127.0.0.1:50051).
"""

from __future__ import annotations

import argparse
import json
import os
import pathlib
import random
import sys
from collections.abc import Sequence
from typing import Any, TextIO

from google.protobuf import text_format

from tribes_client.client import DEFAULT_TARGET, Client, TribesError
from tribes_client.v1 import common_pb2 as pb


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


def render(snapshot: pb.GameSnapshot, out: TextIO) -> None:
    """A snapshot as text: status line, scores, the game's view, the legal moves."""
    who = "spectator" if snapshot.viewer_seat < 0 else f"seat {snapshot.viewer_seat}"
    status = "finished" if snapshot.finished else f"to act: {list(snapshot.to_act)}"
    print(
        f"{snapshot.name} ({snapshot.game_type}) v{snapshot.version}, {status}, as {who}", file=out
    )
    if snapshot.scores:
        print(f"scores: {list(snapshot.scores)}", file=out)
    arm = snapshot.view.WhichOneof("game")
    if arm:
        print(text_format.MessageToString(getattr(snapshot.view, arm)).rstrip(), file=out)
    if snapshot.finished:
        print(f"result: {snapshot.result.summary} (ranks {list(snapshot.result.ranks)})", file=out)
    for index, legal in enumerate(snapshot.legal_moves, 1):
        print(f"  {index:>3}. {legal.id:<24} {legal.description}", file=out)


def _token(args: argparse.Namespace, session: dict[str, Any]) -> str | None:
    if args.token:
        return str(args.token)
    if args.seat is None:
        return None
    tokens = session.get("tokens", [])
    if not 0 <= args.seat < len(tokens):
        raise SystemExit(f"no token for seat {args.seat} in the session; use --token")
    return str(tokens[args.seat])


def _game(args: argparse.Namespace, session: dict[str, Any]) -> str:
    name = args.game or session.get("game")
    if not name:
        raise SystemExit("no game given and none in the session (run `tribes new` first)")
    return str(name) if str(name).startswith("games/") else f"games/{name}"


def _options(pairs: Sequence[str]) -> dict[str, str]:
    options = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep:
            raise SystemExit(f"option {pair!r} must look like NAME=VALUE")
        options[key] = value
    return options


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
        args.game_type, args.seats, _options(args.option), seed=args.seed
    )
    _save_session({"target": client_target(args), "game": snapshot.name, "tokens": tokens})
    print(snapshot.name)
    for seat, token in enumerate(tokens):
        print(f"seat {seat}: {token}")
    return 0


def cmd_show(client: Client, args: argparse.Namespace) -> int:
    session = _load_session()
    seat_client = client.with_token(_token(args, session))
    render(seat_client.get_game(_game(args, session)), sys.stdout)
    return 0


def cmd_move(client: Client, args: argparse.Namespace) -> int:
    session = _load_session()
    token = _token(args, session)
    if token is None:
        raise SystemExit("moves need a seat: pass --seat K (from the session) or --token")
    seat_client = client.with_token(token)
    snapshot = seat_client.apply_move(
        _game(args, session), move_id=args.move_id, expected_version=args.expect
    )
    render(snapshot, sys.stdout)
    return 0


def cmd_moves(client: Client, args: argparse.Namespace) -> int:
    session = _load_session()
    seat_client = client.with_token(_token(args, session))
    for record in seat_client.list_moves(_game(args, session)):
        shown = record.move_id or "(hidden)"
        print(f"v{record.version:<4} seat {record.seat}: {shown:<24} {record.description}")
    return 0


def cmd_watch(client: Client, args: argparse.Namespace) -> int:
    session = _load_session()
    seat_client = client.with_token(_token(args, session))
    for snapshot in seat_client.watch(_game(args, session)):
        render(snapshot, sys.stdout)
        print("-" * 60, flush=True)
    return 0


def cmd_play(client: Client, args: argparse.Namespace) -> int:
    """A whole game: human seats choose from the legal moves, the rest play at random."""
    humans = set(args.human if args.human is not None else ([0] if sys.stdin.isatty() else []))
    chooser = random.Random(args.seed)
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
            render(snapshot, sys.stdout)
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
    render(spectator, sys.stdout)
    return 0


def _ask(snapshot: pb.GameSnapshot, inp: TextIO, out: TextIO) -> pb.LegalMove | None:
    moves = list(snapshot.legal_moves)
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
    sub = parser.add_subparsers(dest="command", required=True)

    def seat_args(p: argparse.ArgumentParser) -> None:
        p.add_argument("--game", help="games/<id> (default: the session's game)")
        p.add_argument("--seat", type=int, help="act as this seat of the session")
        p.add_argument("--token", help="act with this seat token")

    sub.add_parser("types", help="list the game types").set_defaults(func=cmd_types)
    new = sub.add_parser("new", help="create a game and remember its tokens")
    new.add_argument("game_type")
    new.add_argument("--seats", type=int, required=True)
    new.add_argument("-o", "--option", action="append", default=[], metavar="NAME=VALUE")
    new.add_argument("--seed", type=int)
    new.set_defaults(func=cmd_new)
    show = sub.add_parser("show", help="show the game")
    seat_args(show)
    show.set_defaults(func=cmd_show)
    move = sub.add_parser("move", help="play a legal move by id")
    move.add_argument("move_id")
    move.add_argument("--expect", type=int, default=0, help="expected version (0 = any)")
    seat_args(move)
    move.set_defaults(func=cmd_move)
    moves = sub.add_parser("moves", help="show the move log")
    seat_args(moves)
    moves.set_defaults(func=cmd_moves)
    watch = sub.add_parser("watch", help="follow the game live")
    seat_args(watch)
    watch.set_defaults(func=cmd_watch)
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
    finally:
        client.close()


if __name__ == "__main__":
    sys.exit(main())

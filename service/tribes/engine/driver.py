"""The generic driver: the checks every game needs, written once, in one order.

game over -> not your turn -> move not legal -> ``apply`` (pgx ``Env.step``,
boardgame.io's master). Games never repeat these checks; ``apply`` is only ever
called with a move from ``legal_moves``.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any, TypeVar

from tribes.engine.errors import (
    BadOptionsError,
    GameFinishedError,
    IllegalMoveError,
    MalformedMoveError,
    NotYourTurnError,
)
from tribes.engine.game import GameDef, Move

S = TypeVar("S")
M = TypeVar("M", bound=Move)


def resolve_setup(
    game: GameDef[Any, Any, Any], seats: int, options: Mapping[str, str]
) -> dict[str, str]:
    """Check the seat count and the options; the options with defaults filled in."""
    if seats not in game.seat_counts:
        counts = ", ".join(map(str, game.seat_counts))
        raise BadOptionsError(f"{game.title} is played by {counts} players, not {seats}")
    return game.resolve_options(options)


def new_game(game: GameDef[S, Any, Any], seats: int, options: Mapping[str, str], seed: int) -> S:
    """Set up a game after checking the seat count and the options."""
    return game.new_game(seats, resolve_setup(game, seats, options), seed)


def replay(
    game: GameDef[S, Any, Any],
    seats: int,
    options: Mapping[str, str],
    seed: int,
    moves: Iterable[tuple[int, str]],
) -> S:
    """Rebuild a game from its seed and its log of (seat, move key), checking every move."""
    state = new_game(game, seats, options, seed)
    for seat, key in moves:
        state = play_id(game, state, seat, key)[1]
    return state


def check_can_move(game: GameDef[S, Any, Any], state: S, seat: int) -> None:
    """Raise if ``seat`` may not submit any move in ``state`` (finished, not its turn)."""
    if game.result(state) is not None:
        raise GameFinishedError("the game is over")
    if seat not in game.to_act(state):
        waiting = ", ".join(f"seat {s}" for s in game.to_act(state))
        raise NotYourTurnError(f"it is not your turn (waiting for {waiting})")


def legal_moves_for(game: GameDef[S, M, Any], state: S, seat: int) -> Sequence[M]:
    """The seat's legal moves, or none when it is not to act or the game is over."""
    if game.result(state) is not None or seat not in game.to_act(state):
        return ()
    return game.legal_moves(state, seat)


def find_move(
    game: GameDef[S, M, Any], state: S, seat: int, move_id: str, legal: Sequence[M] | None = None
) -> M:
    """Resolve a ``move_id`` (a move key) against the seat's legal moves.

    An id that does not even parse is malformed; one that parses but is not legal now
    is illegal, with the game's explanation when it has one.
    """
    check_can_move(game, state, seat)
    moves = game.legal_moves(state, seat) if legal is None else legal
    for move in moves:
        if move.key == move_id:
            return move
    parsed = parse_move(game, move_id)  # raises MalformedMoveError
    raise IllegalMoveError(_explain(game, state, seat, parsed))


def play_id(
    game: GameDef[S, M, Any], state: S, seat: int, move_id: str, legal: Sequence[M] | None = None
) -> tuple[M, S]:
    """Play the legal move whose key is ``move_id``: (that move, the new state)."""
    move = find_move(game, state, seat, move_id, legal)
    return move, game.apply(state, seat, move)


def play(
    game: GameDef[S, M, Any], state: S, seat: int, move: M, legal: Sequence[M] | None = None
) -> S:
    """Apply ``move`` for ``seat`` after the generic checks; return the new state.

    ``legal`` may pass the seat's already computed legal moves (a cache); it must be
    ``legal_moves(state, seat)``.
    """
    check_can_move(game, state, seat)
    moves = game.legal_moves(state, seat) if legal is None else legal
    if move not in moves:
        raise IllegalMoveError(_explain(game, state, seat, move))
    return game.apply(state, seat, move)


def _explain(game: GameDef[S, M, Any], state: S, seat: int, move: M) -> str:
    if game.explain_illegal is not None:
        return game.explain_illegal(state, seat, move)
    return f"{move.key!r} is not one of your legal moves now"


def parse_move(game: GameDef[Any, M, Any], key: str) -> M:
    """Parse a move key, turning any parser failure into MalformedMoveError."""
    try:
        return game.parse_move(key)
    except MalformedMoveError:
        raise
    except (ValueError, KeyError, IndexError, TypeError) as exc:
        raise MalformedMoveError(f"{key!r} is not a move of {game.title}") from exc

"""The rule-module contract: what every game provides, in one shape for all games.

A game is a ``GameDef``: metadata plus pure functions over a frozen ``State``
(OpenSpiel's one-template-per-game, pgx's functional core). The driver
(``tribes.engine.driver``) does the generic checks so games never repeat them; the
service only ever talks to games through this record.

Conventions every game follows (checked by ``tests/games/test_conformance.py``):

* ``State`` is a frozen dataclass (tuples inside); ``apply`` returns a new one and
  never mutates its input.
* Randomness comes only from ``tribes.engine.rng.Rng`` whose state lives in ``State``.
* A ``Move`` is a small hashable value with a canonical text ``key``; ``parse_move``
  inverts it (``parse_move(m.key) == m``). The key doubles as the public ``move_id``.
* ``legal_moves`` is sorted by key, duplicate-free, and is the legality oracle: the
  driver rejects anything not in it before ``apply`` runs.
* The game is over exactly when ``result`` returns a ``Result``; then ``to_act`` is
  empty. A non-terminal state always has at least one seat to act, and every seat in
  ``to_act`` has at least one legal move. ``result`` must be cheap (games keep final
  scores in the state once computed).
* ``view`` returns only what ``viewer`` may know; ``SPECTATOR`` sees the public part.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Generic, Protocol, TypeVar

#: A seat number ``0..seats-1``, or ``SPECTATOR`` for a caller without a seat.
Viewer = int
SPECTATOR: Viewer = -1


class Move(Protocol):
    """A decision a seat can submit: hashable, with a canonical text form."""

    @property
    def key(self) -> str: ...


S = TypeVar("S")
M = TypeVar("M", bound=Move)
V = TypeVar("V")


@dataclass(frozen=True, slots=True)
class OptionSpec:
    """One ``CreateGame.options`` entry a game understands.

    ``choices`` empty means a free value the game validates itself (e.g. a faction list).
    """

    name: str
    description: str
    default: str
    choices: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class Result:
    """The outcome of a finished game.

    ``scores[i]`` is seat i's final score in the game's own unit (victory points, or
    cemetery value where lower is better); ``ranks[i]`` is 1 for the winner(s), tied
    seats share a rank (standard competition ranking: 1, 1, 3).
    """

    scores: tuple[int, ...]
    ranks: tuple[int, ...]
    summary: str

    @property
    def winners(self) -> tuple[int, ...]:
        return tuple(seat for seat, rank in enumerate(self.ranks) if rank == 1)


def competition_ranks(keys: Sequence[Any]) -> tuple[int, ...]:
    """Rank seats by ``keys`` (higher is better; tuples allowed for tie-breaks).

    Equal keys share a rank; the next rank skips (1, 1, 3).
    """
    return tuple(1 + sum(1 for other in keys if other > mine) for mine in keys)


def _no_redaction(state: Any, seat: int, move: Any) -> Any:
    return move


def _no_scores(state: Any, viewer: Viewer) -> tuple[int, ...]:
    return ()


@dataclass(frozen=True, slots=True)
class GameDef(Generic[S, M, V]):
    """Everything the platform knows about one game. All callables are pure.

    Required:
      new_game(seats, options, seed) -> State      setup, every random setup step included;
                                                   raises BadOptionsError
      to_act(state) -> tuple of seats              whose decision is pending (several when
                                                   decisions are simultaneous)
      legal_moves(state, seat) -> moves            sorted by key, duplicate-free
      apply(state, seat, move) -> State            only ever called with a legal move
      view(state, viewer) -> View                  that viewer's knowledge, nothing more
      result(state) -> Result | None               None while the game runs
      describe(state, move) -> str                 "Drop a meeple on C4"
      parse_move(key) -> Move                      inverse of Move.key; MalformedMoveError
      encode(state) -> bytes / decode(bytes)       the stored form (tribes.engine.codec)

    Optional:
      public_move(state, seat, move) -> Move|None  the move as other seats may see it in the
                                                   move log (None: hidden entirely); ``state``
                                                   is the state the move was played in
      scores(state, viewer) -> tuple[int, ...]     running scores the viewer may know
                                                   (empty when the game keeps them hidden)
      explain_illegal(state, seat, move) -> str    why a well-formed move is not legal now
      check_invariants(state) -> None              raises AssertionError; run by tests
                                                   after every move of random playouts
      determinize(state, seat, seed) -> State      a state ``seat`` cannot tell apart from
                                                   ``state``: everything its view hides (other
                                                   seats' hidden holdings, deck and bag order
                                                   and contents, the PRNG state) redrawn from
                                                   ``seed``. It must be a function of
                                                   ``view(state, seat)`` and ``seed`` only (two
                                                   states with equal views for ``seat`` give
                                                   equal results), keep that view and the
                                                   seat's legal moves, and be playable to the
                                                   end. Bots only ever search such states, so
                                                   they cannot cheat (``tribes.bots``).
      evaluate(state, seat) -> float               a heuristic: how good ``state`` looks for
                                                   ``seat``, in [0, 1] (1 = sure win); used by
                                                   the greedy bot and to cut search short.
                                                   Called on determinized states only.
    """

    id: str
    title: str
    seat_counts: tuple[int, ...]
    options: tuple[OptionSpec, ...]
    new_game: Callable[[int, Mapping[str, str], int], S]
    to_act: Callable[[S], tuple[int, ...]]
    legal_moves: Callable[[S, int], Sequence[M]]
    apply: Callable[[S, int, M], S]
    view: Callable[[S, Viewer], V]
    result: Callable[[S], Result | None]
    describe: Callable[[S, M], str]
    parse_move: Callable[[str], M]
    encode: Callable[[S], bytes]
    decode: Callable[[bytes], S]
    public_move: Callable[[S, int, M], M | None] = field(default=_no_redaction)
    scores: Callable[[S, Viewer], tuple[int, ...]] = field(default=_no_scores)
    explain_illegal: Callable[[S, int, M], str] | None = None
    check_invariants: Callable[[S], None] | None = None
    determinize: Callable[[S, int, int], S] | None = None
    evaluate: Callable[[S, int], float] | None = None

    def resolve_options(self, options: Mapping[str, str]) -> dict[str, str]:
        """Fill defaults and check names and listed choices (games check the rest)."""
        from tribes.engine.errors import BadOptionsError

        known = {spec.name: spec for spec in self.options}
        unknown = sorted(set(options) - set(known))
        if unknown:
            names = ", ".join(sorted(known)) or "none"
            raise BadOptionsError(
                f"{self.title} has no option {', '.join(map(repr, unknown))} (options: {names})"
            )
        resolved: dict[str, str] = {}
        for name, spec in known.items():
            value = options.get(name, spec.default)
            if spec.choices and value not in spec.choices:
                raise BadOptionsError(
                    f"option {name!r} must be one of {', '.join(spec.choices)}, not {value!r}"
                )
            resolved[name] = value
        return resolved

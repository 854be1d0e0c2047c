"""The one conformance suite every game passes (OpenSpiel's api_test, pgx's checks).

A game's tests describe it once as a ``Subject`` (its ``GameDef``, the configurations
to play, and a ``perturb`` function that changes only what a given seat must not
know); ``tests/games/test_conformance.py`` then runs the same checks over all games:

* random seeded playouts reach the end, with the game's invariants after every move
  and the contract's own (sorted unique legal moves, keys that parse back, someone to
  act until the end, ``apply`` leaves its input unchanged);
* on sampled states: views do not change when hidden data is perturbed, the codec
  round-trips exactly, and no view contains the PRNG state;
* replaying seed + moves rebuilds the same final state;
* where the game has ``determinize`` (what bots search): a determinized state keeps the
  seat's view and legal moves, does not depend on what the seat cannot see, satisfies
  the invariants and plays on.
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from tribes.engine import SPECTATOR, GameDef
from tribes.engine.driver import new_game, play
from tribes.engine.driver import replay as driver_replay
from tribes.engine.rng import Rng

AnyGame = GameDef[Any, Any, Any]
Perturb = Callable[[Any, int, Rng], Any]


@dataclass(frozen=True)
class Config:
    """One way to create the game: a seat count and options."""

    seats: int
    options: Mapping[str, str] = field(default_factory=dict)

    @property
    def label(self) -> str:
        opts = ",".join(f"{k}={v}" for k, v in sorted(self.options.items()))
        return f"{self.seats}p" + (f"[{opts}]" if opts else "")


@dataclass(frozen=True)
class Subject:
    """A game as the conformance suite sees it."""

    game: AnyGame
    configs: tuple[Config, ...]
    perturb: Perturb
    playouts: int = 100  # seeded games per config in the default test run
    max_moves: int = 20_000  # a playout longer than this is a liveness bug
    sample_every: int = 17  # costly checks (perturbation, codec) on every n-th state


@dataclass
class Playout:
    seed: int
    moves: list[tuple[int, str]]
    final: Any


def random_playout(
    subject: Subject,
    config: Config,
    seed: int,
    *,
    checks: bool = True,
    costly_checks: bool = True,
) -> Playout:
    """Play one seeded game with random legal moves, checking as it goes."""
    game = subject.game
    state = new_game(game, config.seats, config.options, seed)
    chooser = Rng(seed ^ 0x5EED)
    moves: list[tuple[int, str]] = []
    for step in range(subject.max_moves + 1):
        if checks:
            check_state(game, state, config.seats)
            if costly_checks and step % subject.sample_every == 0:
                check_hidden(subject, state, config.seats, chooser)
        if game.result(state) is not None:
            return Playout(seed, moves, state)
        seats = game.to_act(state)
        seat = chooser.choice(seats)
        legal = game.legal_moves(state, seat)
        move = chooser.choice(legal)
        prev = state
        snapshot = copy.deepcopy(state) if checks and step % subject.sample_every == 0 else None
        state = play(game, state, seat, move, legal)
        if snapshot is not None:
            assert prev == snapshot, "apply must not mutate its input"
        moves.append((seat, move.key))
    raise AssertionError(
        f"{game.id} {config.label} seed {seed}: no end after {subject.max_moves} moves"
    )


def check_state(game: AnyGame, state: Any, seats: int) -> None:
    """The contract's cheap checks plus the game's own invariants."""
    result = game.result(state)
    acting = game.to_act(state)
    if result is not None:
        assert acting == (), "a finished game has nobody to act"
        assert len(result.scores) == seats and len(result.ranks) == seats
        assert min(result.ranks) == 1
    else:
        assert acting, "a running game has somebody to act"
        assert len(set(acting)) == len(acting) and all(0 <= s < seats for s in acting)
        for seat in acting:
            legal = game.legal_moves(state, seat)
            assert legal, f"seat {seat} is to act but has no legal move"
            keys = [m.key for m in legal]
            assert keys == sorted(keys), "legal moves are sorted by key"
            assert len(set(keys)) == len(keys), "legal move keys are unique"
    if game.check_invariants is not None:
        game.check_invariants(state)


def check_hidden(subject: Subject, state: Any, seats: int, rng: Rng) -> None:
    """Views ignore hidden data; the codec round-trips; views hold no PRNG state; every
    legal move parses back from its key and has a description."""
    game = subject.game
    blob = game.encode(state)
    assert game.decode(blob) == state, "codec round trip"
    assert game.encode(game.decode(blob)) == blob, "codec is deterministic"
    for seat in game.to_act(state):
        for move in game.legal_moves(state, seat):
            assert game.parse_move(move.key) == move, f"{move.key!r} does not parse back"
            assert game.describe(state, move).strip(), f"{move.key!r} has no description"
    for viewer in [SPECTATOR, *range(seats)]:
        seen = game.view(state, viewer)
        for _ in range(2):
            other = subject.perturb(state, viewer, rng)
            assert game.view(other, viewer) == seen, f"view of {viewer} depends on hidden data"
        # the PRNG state is a 64-bit number: its ~19 digits cannot appear by chance
        assert str(state.rng) not in repr(seen), "the PRNG state must never appear in a view"
        if viewer != SPECTATOR and game.determinize is not None:
            check_determinize(subject, state, seats, viewer, rng)


def check_determinize(subject: Subject, state: Any, seats: int, seat: int, rng: Rng) -> None:
    """``determinize`` is blind to hidden data and keeps what the seat knows."""
    game = subject.game
    assert game.determinize is not None
    seed = rng.next_u64()
    guess = game.determinize(state, seat, seed)
    assert game.view(guess, seat) == game.view(state, seat), "determinize changes the view"
    assert game.to_act(guess) == game.to_act(state), "determinize changes who is to act"
    if seat in game.to_act(state):
        assert [m.key for m in game.legal_moves(guess, seat)] == [
            m.key for m in game.legal_moves(state, seat)
        ], "determinize changes the seat's legal moves"
    other = subject.perturb(state, seat, rng)
    assert game.determinize(other, seat, seed) == guess, "determinize reads hidden data"
    if game.check_invariants is not None:
        game.check_invariants(guess)
    assert game.decode(game.encode(guess)) == guess, "a determinized state round-trips"
    # it plays on like a real game for a few random moves
    for _ in range(8):
        if game.result(guess) is not None:
            break
        actor = rng.choice(game.to_act(guess))
        legal = game.legal_moves(guess, actor)
        assert legal, "a determinized state has a seat to act without moves"
        guess = play(game, guess, actor, rng.choice(legal), legal)
        check_state(game, guess, seats)


def replay(game: AnyGame, config: Config, seed: int, moves: list[tuple[int, str]]) -> Any:
    """Rebuild a game from its seed and move log with the driver's replay (the service's)."""
    return driver_replay(game, config.seats, config.options, seed, moves)

"""Single-observer information-set Monte Carlo tree search (ISMCTS).

One tree is grown over the bot seat's information sets (Cowling, Powley & Whitehouse,
"Information Set Monte Carlo Tree Search", 2012). Each iteration:

1. determinizes: ``game.determinize(state, seat, seed)`` redraws everything the seat
   cannot see, from its view and a fresh seed, so the search never reads another
   seat's hidden data or the PRNG state;
2. selects down the tree with UCB1 over the moves available in *this*
   determinization (each edge counts how often it was available, so rarely possible
   moves are not starved), until a move was never tried;
3. expands that move;
4. rolls out with random moves to the end, or for ``Options.rollout_moves`` moves and
   then asks the game's ``evaluate`` for every seat;
5. backpropagates every acting seat's own reward (from ``Result.ranks`` or
   ``evaluate``) along the path: each seat maximises its own reward.

Other seats' moves are followed in the tree as the observer sees them: the child of a
move is keyed by ``game.public_move`` (a hidden move — a face-down bid — leads every
alternative to the same child), so the observer's later decisions cannot depend on
what it would not see. When several seats are to act at once (simultaneous
decisions) the root is the observer's own decision and deeper nodes take the seats in
``to_act`` order. The answer is the most visited root move.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

from tribes.bots.base import AnyGame, Budget, Options, own_moves, past, require_determinize, rollout
from tribes.engine import Move
from tribes.engine.rng import Rng

_HIDDEN = ""  # the child key of a move its observer does not see (no move key is empty)


@dataclass(slots=True)
class Edge:
    """One move from an information set: visits, reward sum (for its actor), availability."""

    visits: int = 0
    reward: float = 0.0
    available: int = 0


@dataclass(slots=True)
class Node:
    """An information set of the observer: edges by (actor, move key), children by
    (actor, the move as the observer sees it)."""

    edges: dict[tuple[int, str], Edge] = field(default_factory=dict)
    children: dict[tuple[int, str], Node] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class Search:
    """A finished search: the move, the iterations run, and the root's visit counts."""

    move: Move
    iterations: int
    visits: dict[str, int]


def _ucb(edge: Edge, exploration: float) -> float:
    return edge.reward / edge.visits + exploration * math.sqrt(
        math.log(edge.available) / edge.visits
    )


def _select(node: Node, actor: int, legal: list[Any], rng: Rng, c: float) -> tuple[Any, bool]:
    """The move to follow from ``node`` and whether it is a new expansion."""
    untried = []
    best, best_value = None, -math.inf
    for move in legal:
        edge = node.edges.get((actor, move.key))
        if edge is None:
            edge = node.edges[(actor, move.key)] = Edge()
        edge.available += 1
        if edge.visits == 0:
            untried.append(move)
        elif not untried:
            value = _ucb(edge, c)
            if value > best_value:
                best, best_value = move, value
    if untried:
        return rng.choice(untried), True
    return best, False


def _child_key(game: AnyGame, state: Any, actor: int, move: Any, observer: int) -> tuple[int, str]:
    if actor == observer:
        return actor, move.key
    seen = game.public_move(state, actor, move)
    return actor, _HIDDEN if seen is None else seen.key


def _iterate(game: AnyGame, root: Node, guess: Any, seat: int, rng: Rng, options: Options) -> None:
    """One iteration on one determinization ``guess``: select, expand, roll out, back up."""
    node, path = root, []
    while game.result(guess) is None:
        actor = seat if node is root else game.to_act(guess)[0]
        move, new = _select(
            node, actor, list(game.legal_moves(guess, actor)), rng, options.exploration
        )
        path.append((node.edges[(actor, move.key)], actor))
        key = _child_key(game, guess, actor, move, seat)
        guess = game.apply(guess, actor, move)
        if new:
            break
        node = node.children.setdefault(key, Node())
    reward = rollout(game, guess, {actor for _, actor in path}, rng, options.rollout_moves or None)
    for edge, actor in path:
        edge.visits += 1
        edge.reward += reward[actor]


def search(
    game: AnyGame, state: Any, seat: int, seed: int, budget: Budget, options: Options
) -> Search:
    """Run ISMCTS for ``seat`` within ``budget``; deterministic for a seed and iterations."""
    legal = own_moves(game, state, seat)
    if len(legal) == 1:
        return Search(legal[0], 0, {legal[0].key: 0})
    determinize = require_determinize(game)
    rng = Rng(seed)
    root = Node()
    deadline = budget.deadline()
    iterations = 0
    for _ in range(budget.limit()):
        _iterate(game, root, determinize(state, seat, rng.next_u64()), seat, rng, options)
        iterations += 1
        if past(deadline):
            break
    visits = {m.key: root.edges[(seat, m.key)].visits for m in legal}
    best = max(legal, key=lambda m: (visits[m.key], root.edges[(seat, m.key)].reward))
    return Search(best, iterations, visits)


def choose(
    game: AnyGame, state: Any, seat: int, seed: int, budget: Budget, options: Options
) -> Move:
    """The most visited root move of an ISMCTS search."""
    return search(game, state, seat, seed, budget, options).move

"""Move generation counted from setup positions (python-chess's perft), against the spec.

§4 step 8: each player chooses one of 3 start tiles, so the setup tree has 3^N leaves.
§5.2: the first turn offers the 6 action tiles, plus the 3 hand tiles in achieve mode
when some brown claim is legal (§5.7). With one occupied tile that claim always exists:
a brown board of its resource is genuine, and any other brown board takes it as the one
wild (w = 1 <= O = 1). §3.2: the triangle has 9 frontier cells.
"""

from __future__ import annotations

import pytest

from tribes.engine.driver import new_game
from tribes.games.tribes_early_civilization import GAME
from tribes.games.tribes_early_civilization.data import BOARDS
from tribes.games.tribes_early_civilization.state import State


def perft(state: State, depth: int) -> int:
    """The number of move sequences of length ``depth`` (games over count as leaves)."""
    if depth == 0 or GAME.result(state) is not None:
        return 1
    (seat,) = GAME.to_act(state)
    return sum(perft(GAME.apply(state, seat, m), depth - 1) for m in GAME.legal_moves(state, seat))


def _first_turn_moves(state: State) -> int:
    """6 action moves + 3 achieve moves when a brown claim exists (counted from the data)."""
    player = state.players[state.start_player]
    (occupied,) = [t for t in player.tiles if t.members]
    brown = [BOARDS[slot.board].resource for slot in state.grid if slot.epoch == 1]
    genuine = occupied.terrain in brown
    wild = any(resource is not occupied.terrain for resource in brown)
    return 6 + (3 if genuine or wild else 0)


@pytest.mark.parametrize(("seats", "seed"), [(2, 1), (3, 2), (4, 3)])
def test_setup_tree_has_three_to_the_n_leaves(seats: int, seed: int) -> None:
    """perft(1..N) = 3, 9, ..., 3^N over the first-member placements."""
    state = new_game(GAME, seats, {}, seed)
    assert [perft(state, d) for d in range(1, seats + 1)] == [3**d for d in range(1, seats + 1)]


@pytest.mark.parametrize(("seats", "seed"), [(2, 1), (2, 7), (3, 2)])
def test_first_turn_counts_after_every_setup(seats: int, seed: int) -> None:
    """perft(N + 1) = the sum over the 3^N setups of 6 or 9 first-turn moves."""
    state = new_game(GAME, seats, {}, seed)
    leaves = [state]
    for _ in range(seats):
        leaves = [
            GAME.apply(s, GAME.to_act(s)[0], m)
            for s in leaves
            for m in GAME.legal_moves(s, GAME.to_act(s)[0])
        ]
    assert len(leaves) == 3**seats
    assert perft(state, seats + 1) == sum(_first_turn_moves(s) for s in leaves)
    assert {_first_turn_moves(s) for s in leaves} == {9}


def test_first_explore_offers_the_nine_frontier_cells() -> None:
    """§3.2: Explore at level 0 from the triangle: one drawn terrain x 9 cells."""
    state = new_game(GAME, 2, {}, 5)
    for _ in range(2):
        state = GAME.apply(
            state, GAME.to_act(state)[0], GAME.legal_moves(state, GAME.to_act(state)[0])[0]
        )
    (seat,) = GAME.to_act(state)
    explore = next(
        m
        for m in GAME.legal_moves(state, seat)
        if m.key.endswith(":action") and _is_explore(state, m.key)
    )
    state = GAME.apply(state, seat, explore)
    assert len(GAME.legal_moves(state, seat)) == 9


def _is_explore(state: State, key: str) -> bool:
    tile = state.sequence[int(key.split(":")[1])]
    return tile.action is not None and tile.action.name.startswith("A_EXPLORE")

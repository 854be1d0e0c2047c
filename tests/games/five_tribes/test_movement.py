"""Meeple movement (spec §5.5): the feasibility test against brute force; the walk rules."""

from __future__ import annotations

from dataclasses import replace

import pytest

from tests.games.five_tribes.fixtures import at_turn, build, do, keys, meeples, t
from tribes.engine.rng import Rng
from tribes.games.five_tribes.grid import (
    ADJACENT,
    ALL_TILES,
    NONE,
    WALK_ENDS,
    WALK_REVISITS,
    WALK_TABLE_STEPS,
    walk_ends,
)
from tribes.games.five_tribes.rules.movement import can_pick_up, colour_masks, drop_options
from tribes.games.five_tribes.state import State, Turn


def _brute(board: list[list[int]], pos: int, prev: int, hand: list[int]) -> bool:
    """Try every drop sequence (§5.5.2 atomic form) from ``pos``; True if one ends legally."""
    left = sum(hand)
    for n in ADJACENT[pos]:
        if n == prev:
            continue
        for colour in range(5):
            if not hand[colour]:
                continue
            if left == 1:
                if board[n][colour]:
                    return True
                continue
            board[n][colour] += 1
            hand[colour] -= 1
            found = _brute(board, n, pos, hand)
            board[n][colour] -= 1
            hand[colour] += 1
            if found:
                return True
    return False


def _random_board(rng: Rng, density: int) -> tuple[tuple[int, ...], ...]:
    tiles = []
    for _ in ALL_TILES:
        counts = [0] * 5
        if rng.below(10) < density:
            for _ in range(1 + rng.below(2)):
                counts[rng.below(5)] += 1
        tiles.append(tuple(counts))
    return tuple(tiles)


def _with_hand(
    rng: Rng, board: tuple[tuple[int, ...], ...], tile: int, size: int
) -> tuple[tuple[int, ...], ...]:
    counts = [0] * 5
    colours = 1 + rng.below(3)  # few colours: many duplicates, so loops matter
    for _ in range(size):
        counts[rng.below(colours)] += 1
    return (*board[:tile], tuple(counts), *board[tile + 1 :])


@pytest.mark.parametrize("seed", range(40))
def test_pick_up_feasibility_matches_brute_force(seed: int) -> None:
    """§5.5.4: PickUp is offered exactly when some complete drop sequence ends legally."""
    rng = Rng(seed)
    board = _random_board(rng, density=2 + seed % 5)
    start = rng.below(len(ALL_TILES))
    board = _with_hand(rng, board, start, 1 + seed % 7)
    state = replace(build(), meeples=board)
    masks = colour_masks(board)
    for tile in ALL_TILES:
        hand = list(board[tile])
        if not any(hand) or sum(hand) > 7:
            continue
        emptied = [list(c) for c in board]
        emptied[tile] = [0] * 5
        assert can_pick_up(state, tile, masks) == _brute(emptied, tile, NONE, hand), tile


@pytest.mark.parametrize("seed", range(25))
def test_offered_drops_are_exactly_the_completable_ones(seed: int) -> None:
    """§5.5.3: a Drop is offered iff the rest of the move can still end legally."""
    rng = Rng(1000 + seed)
    board = _random_board(rng, density=3)
    pos = rng.below(len(ALL_TILES))
    prev = ADJACENT[pos][rng.below(len(ADJACENT[pos]))]
    hand = [0] * 5
    for _ in range(2 + seed % 6):
        hand[rng.below(2 + seed % 3)] += 1
    turn = Turn(0, 0, tuple(hand), pos, prev, prev, None, None, 0, None)
    state = replace(build(), meeples=board)
    offered = set(drop_options(state, turn))
    expected = set()
    for n in ADJACENT[pos]:
        for colour in range(5):
            if n == prev or not hand[colour]:
                continue
            trial = [list(c) for c in board]
            trial[n][colour] += 1
            rest = list(hand)
            rest[colour] -= 1
            if _brute(trial, n, pos, rest):
                expected.add((n, colour))
    assert offered == expected


def _walks(pos: int, prev: int, steps: int) -> list[list[int]]:
    """Every non-backtracking walk of ``steps`` steps from ``pos`` (first step not to ``prev``)."""
    if steps == 0:
        return [[]]
    found: list[list[int]] = []
    for n in ADJACENT[pos]:
        if n != prev:
            found.extend([n, *rest] for rest in _walks(n, pos, steps - 1))
    return found


def _brute_walks(board: tuple[tuple[int, ...], ...], pos: int, hand: tuple[int, ...]) -> bool:
    """§5.5.4 by explicit walk enumeration: (a) the end holds a hand colour, or (b) the
    walk dropped on its end tile before and the hand has a colour twice."""
    twice = max(hand) >= 2
    for walk in _walks(pos, NONE, sum(hand)):
        end = walk[-1]
        if any(hand[c] and board[end][c] for c in range(5)) or (twice and end in walk[:-1]):
            return True
    return False


@pytest.mark.parametrize("seed", range(30))
def test_long_moves_on_sparse_boards_match_walk_enumeration(seed: int) -> None:
    """§5.5.4 with 4-8 meeples on nearly empty boards, where loops decide."""
    rng = Rng(5000 + seed)
    board = _random_board(rng, density=seed % 2)
    start = rng.below(len(ALL_TILES))
    counts = [0] * 5
    for _ in range(4 + seed % 5):
        counts[rng.below(2 + seed % 4)] += 1
    if seed % 3 == 0:
        counts = [1, 1, 1, 1, 0] if seed % 2 else [1, 1, 1, 1, 1]  # no colour twice
    board = (*board[:start], tuple(counts), *board[start + 1 :])
    emptied = (*board[:start], (0, 0, 0, 0, 0), *board[start + 1 :])
    state = replace(build(), meeples=board)
    expected = _brute_walks(emptied, start, tuple(counts))
    assert can_pick_up(state, start, colour_masks(board)) == expected


def test_walk_tables_are_periodic_before_their_end() -> None:
    """The tabulated walk sets repeat with period 2, so longer walks reuse the last rows."""
    for table in (WALK_ENDS, WALK_REVISITS):
        for row in table.values():
            assert row[WALK_TABLE_STEPS] == row[WALK_TABLE_STEPS - 2]
            assert row[WALK_TABLE_STEPS - 1] == row[WALK_TABLE_STEPS - 3]


def test_walks_end_at_matching_parity_only() -> None:
    """§5.5.4 parity fact: a k-step walk ends at distance <= k of the same parity."""
    from tribes.games.five_tribes.grid import DISTANCE

    for p in ALL_TILES:
        for k in range(1, 8):
            ends = walk_ends(p, NONE, k)
            for e in ALL_TILES:
                if ends >> e & 1:
                    assert DISTANCE[p][e] <= k and (DISTANCE[p][e] - k) % 2 == 0


def _moving(board: dict[tuple[int, int], str]) -> State:
    return at_turn(build(board=board), 0, later=(1, 2))


def test_no_immediate_backtracking() -> None:
    """§5.5.1 rule 3: a drop may not return to the tile just left."""
    board = {(0, 0): "YYW", (0, 1): "W", (1, 2): "W"}
    state = do(_moving(board), "pickup:0-0", "drop:0-1:y", "drop:0-2:y")
    assert keys(state) == ["drop:1-2:w"]  # (0,1) holds a W but is one step back


def test_passing_through_empty_and_owned_tiles_is_allowed() -> None:
    """§8: a move may pass empty tiles and tiles owned by anyone or with palms/palaces."""
    state = build(board={(0, 0): "YW", (0, 2): "W"}, owners={(0, 1): 1}, palms={(0, 1): 2})
    state = do(at_turn(state, 0, later=(1, 2)), "pickup:0-0", "drop:0-1:y", "drop:0-2:w")
    assert state.meeples[t(0, 1)] == meeples("Y") and state.owners[t(0, 1)] == 1


def test_start_tile_is_never_claimed_and_owned_tiles_never_change_owner() -> None:
    """§5.4 A3 and §8: the emptied start tile is not claimed; ownership is permanent."""
    state = build(board={(0, 0): "Y", (0, 1): "Y"}, owners={(0, 1): 2})
    state = do(at_turn(state, 0, later=(1, 2)), "pickup:0-0", "drop:0-1:y")
    assert state.owners[t(0, 0)] is None and state.owners[t(0, 1)] == 2
    assert state.players[0].camels == 8


def test_collection_takes_every_meeple_of_the_colour() -> None:
    """§5.4 A3: the last meeple and all others of its colour on the final tile are taken."""
    state = do(_moving({(0, 0): "B", (0, 1): "BBBY"}), "pickup:0-0", "drop:0-1:b")
    assert state.turn is not None and state.turn.collected == 4
    assert state.meeples[t(0, 1)] == meeples("Y") and state.owners[t(0, 1)] is None


def test_no_camel_left_means_no_claim() -> None:
    """§5.4 A3: an emptied tile is claimed only if the player has a camel left."""
    state = build(board={(0, 0): "Y", (0, 1): "Y"}, players={0: {"camels": 0}})
    state = do(at_turn(state, 0, later=(1, 2)), "pickup:0-0", "drop:0-1:y")
    assert state.owners[t(0, 1)] is None


def test_a_revisit_needs_at_least_five_meeples() -> None:
    """§5.5.1 rule 3: a path passes a tile a second time only from the 5th drop on."""
    assert keys(_moving({(2, 2): "YYYY"})) == ["skip-movement"]
    assert keys(_moving({(2, 2): "YYYYY"})) == ["pickup:2-2"]

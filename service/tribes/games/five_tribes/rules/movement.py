"""Moving meeples: pick-up, step-wise drops, collection and tile control (spec §5.4-§5.5).

The step-wise protocol of §5.5.3 only ever offers a ``Drop`` after which the move can
still end legally, using the exact feasibility test of §5.5.4 answered from the walk
tables in ``grid`` (a few bit operations per candidate).
"""

from __future__ import annotations

from dataclasses import replace

from tribes.games.five_tribes.data import MARID_PAYOUT, MEEPLES, NO_MEEPLES, Djinn
from tribes.games.five_tribes.grid import (
    ADJACENT,
    ALL_TILES,
    BIT,
    NONE,
    walk_ends,
    walk_revisits,
)
from tribes.games.five_tribes.moves import Drop, PickUp
from tribes.games.five_tribes.rules.common import (
    claim_if_emptied,
    gain_gold,
    owner_of,
    set_tile_meeples,
    with_counts,
)
from tribes.games.five_tribes.state import State, Step, Turn

_COLOURS = range(len(MEEPLES))


def colour_masks(meeples: tuple[tuple[int, ...], ...]) -> list[int]:
    """Per colour, the bitmask of tiles holding at least one meeple of it."""
    y = w = g = b = r = 0
    for tile, counts in enumerate(meeples):
        if counts != NO_MEEPLES:
            bit = BIT[tile]
            cy, cw, cg, cb, cr = counts
            if cy:
                y |= bit
            if cw:
                w |= bit
            if cg:
                g |= bit
            if cb:
                b |= bit
            if cr:
                r |= bit
    return [y, w, g, b, r]


def can_finish(masks: list[int], pos: int, prev: int, hand: tuple[int, ...], steps: int) -> bool:
    """§5.5.4: can ``hand`` (``steps`` meeples) still be dropped so the last one matches?

    (a) some walk ends on a tile already holding a colour of the hand, or (b) some walk
    ends on a tile it dropped on earlier and the hand has a colour twice.
    """
    ends = walk_ends(pos, prev, steps)
    for colour in _COLOURS:
        if hand[colour] and ends & masks[colour]:
            return True
    return steps >= 5 and max(hand) >= 2 and walk_revisits(pos, prev, steps) != 0


def can_pick_up(state: State, tile: int, masks: list[int]) -> bool:
    """§5.5.3: a complete legal move exists from ``tile`` (which is emptied first)."""
    hand = state.meeples[tile]
    if hand == NO_MEEPLES:
        return False
    steps = sum(hand)
    ends = walk_ends(tile, NONE, steps) & ~BIT[tile]  # the start tile holds nothing now
    for colour in _COLOURS:
        if hand[colour] and ends & masks[colour]:
            return True
    return steps >= 5 and max(hand) >= 2 and walk_revisits(tile, NONE, steps) != 0


def pickup_tiles(state: State) -> list[int]:
    """Every tile a legal meeple move can start from (§5.4 A1)."""
    masks = colour_masks(state.meeples)
    return [tile for tile in ALL_TILES if can_pick_up(state, tile, masks)]


def has_meeple_move(state: State) -> bool:
    """The "no legal meeple move" end condition is its negation (§7.1)."""
    masks = colour_masks(state.meeples)
    return any(can_pick_up(state, tile, masks) for tile in ALL_TILES)


def pickup_moves(state: State) -> list[PickUp]:
    return [PickUp(tile) for tile in pickup_tiles(state)]


def drop_options(state: State, turn: Turn) -> list[tuple[int, int]]:
    """(tile, colour) pairs of the legal ``Drop`` moves (§5.5.3)."""
    hand = turn.hand
    pos = turn.pos
    assert pos is not None
    prev = NONE if turn.prev is None else turn.prev
    steps = sum(hand)
    meeples = state.meeples
    options: list[tuple[int, int]] = []
    if steps == 1:
        colour = next(c for c in _COLOURS if hand[c])
        return [(n, colour) for n in ADJACENT[pos] if n != prev and meeples[n][colour]]
    masks = colour_masks(meeples)
    rest = steps - 1
    for n in ADJACENT[pos]:
        if n == prev:
            continue
        ends = walk_ends(n, pos, rest)
        again = rest >= 5 and walk_revisits(n, pos, rest) != 0
        bit = BIT[n]
        for x in _COLOURS:
            if not hand[x]:
                continue
            ok = False
            for c in _COLOURS:
                left = hand[c] - (c == x)
                if left and ends & (masks[c] | bit if c == x else masks[c]):
                    ok = True
                    break
            if not ok and again:
                ok = any(hand[c] - (c == x) >= 2 for c in _COLOURS)
            if ok:
                options.append((n, x))
    return options


def drop_moves(state: State, turn: Turn) -> list[Drop]:
    return [Drop(tile, MEEPLES[colour]) for tile, colour in drop_options(state, turn)]


def apply_pick_up(state: State, turn: Turn, move: PickUp) -> State:
    """Take all meeples of the start tile; the emptied start tile is never claimed (§5.5.1)."""
    hand = state.meeples[move.tile]
    state = set_tile_meeples(state, move.tile, NO_MEEPLES)
    turn = replace(turn, hand=hand, pos=move.tile, prev=None, start=move.tile)
    return replace(state, step=Step.DROP, turn=turn)


def apply_drop(state: State, turn: Turn, move: Drop) -> State:
    """Drop one meeple; Marid pays per drop on its owner's tiles (§5.9); the last drop
    collects the tribe (A3)."""
    tile, colour = move.tile, move.meeple
    state = set_tile_meeples(state, tile, with_counts(state.meeples[tile], colour, 1))
    owner = state.owners[tile]
    if owner is not None and owner_of(state, Djinn.MARID) == owner:
        state = gain_gold(state, owner, MARID_PAYOUT[0] if owner == turn.seat else MARID_PAYOUT[1])
    hand = with_counts(turn.hand, colour, -1)
    turn = replace(turn, hand=hand, prev=turn.pos, pos=tile)
    if hand != NO_MEEPLES:
        return replace(state, turn=turn)
    return _collect(state, turn, tile, colour)


def _collect(state: State, turn: Turn, tile: int, colour: int) -> State:
    """A3: take every meeple of the last colour from the final tile (§10 item 1), then
    claim the tile if it is now empty and unowned."""
    counts = state.meeples[tile]
    collected = counts[colour]
    state = set_tile_meeples(state, tile, with_counts(counts, colour, -collected))
    turn = replace(
        turn,
        hand=with_counts(NO_MEEPLES, colour, collected),
        final=tile,
        tribe=MEEPLES[colour],
        collected=collected,
    )
    state = replace(state, step=Step.TRIBE, turn=turn)
    return claim_if_emptied(state, turn.seat, tile)

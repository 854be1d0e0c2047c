"""The Sultanate's geometry, precomputed once (rules spec, Naming notes and §5.5.4).

The board is 5 rows x 6 columns; tile ``(r, c)`` has index ``r*6 + c``. Adjacent means
orthogonally adjacent, the surrounding (3x3) area includes the tile itself, distance
is Manhattan. The walk tables answer §5.5.4's feasibility test in O(1) per query:

* ``walk_ends(p, q, k)``: bitmask of the tiles where a non-backtracking walk of exactly
  ``k`` steps from ``p`` (first step not to ``q``) can end;
* ``walk_revisits(p, q, k)``: bitmask of the tiles ``e`` such that such a walk ends on
  ``e`` after an earlier drop on ``e`` (condition (b) of §5.5.4).

Why ``walk_revisits`` is a union of ``walk_ends``: from any tile, entered from any
neighbour, a non-backtracking walk returns to it in exactly ``m`` steps for every even
``m >= 4`` (around a unit square, or a 2x3 rectangle, both traversable in the direction
that does not step straight back, and concatenations of them), and never in an odd
number of steps or in 2 (the grid is bipartite; 2 would backtrack). So ``e`` can be the
end after an earlier visit iff some walk reaches ``e`` at a step ``j >= 1`` with
``k - j`` even and ``>= 4``. ``tests/games/five_tribes/test_movement.py`` checks the
whole feasibility test against brute-force path enumeration.
"""

from __future__ import annotations

ROWS, COLS = 5, 6
TILES = ROWS * COLS
ALL_TILES = tuple(range(TILES))
BIT = tuple(1 << t for t in ALL_TILES)
NONE = -1  # "no previous tile" (the first drop of a move)


def tile_at(row: int, col: int) -> int:
    """The tile index of ``(row, col)``."""
    return row * COLS + col


def coords(tile: int) -> tuple[int, int]:
    return divmod(tile, COLS)


def label(tile: int) -> str:
    """The tile as written in move keys and descriptions: ``"r-c"``."""
    row, col = divmod(tile, COLS)
    return f"{row}-{col}"


def parse_label(text: str) -> int:
    """Inverse of ``label``; raises ValueError for anything else."""
    row_text, sep, col_text = text.partition("-")
    if not sep or len(row_text) != 1 or len(col_text) != 1:
        raise ValueError(f"not a tile: {text!r}")
    row, col = int(row_text), int(col_text)
    if not (0 <= row < ROWS and 0 <= col < COLS):
        raise ValueError(f"no tile at {text!r}")
    return tile_at(row, col)


def _around(tile: int, reach: int, *, diagonal: bool) -> tuple[int, ...]:
    row, col = coords(tile)
    found = []
    for r in range(max(0, row - reach), min(ROWS, row + reach + 1)):
        for c in range(max(0, col - reach), min(COLS, col + reach + 1)):
            if diagonal or abs(r - row) + abs(c - col) <= reach:
                found.append(tile_at(r, c))
    return tuple(found)


#: Orthogonal neighbours (movement, §5.5.1 rule 2).
ADJACENT = tuple(tuple(t for t in _around(s, 1, diagonal=False) if t != s) for s in ALL_TILES)
#: The 3x3 area including the tile itself (Builders, §5.7).
SURROUNDING = tuple(_around(s, 1, diagonal=True) for s in ALL_TILES)
#: The 8 orthogonal and diagonal neighbours (Hagis/Lamia, §5.9 and §10.2).
NEIGHBOURS_8 = tuple(tuple(t for t in SURROUNDING[s] if t != s) for s in ALL_TILES)
#: Manhattan distance (Assassins' range, §5.7).
DISTANCE = tuple(
    tuple(abs(coords(a)[0] - coords(b)[0]) + abs(coords(a)[1] - coords(b)[1]) for b in ALL_TILES)
    for a in ALL_TILES
)

# -- walk tables (§5.5.4) ---------------------------------------------------------------------

#: Walk lengths tabulated; longer walks reuse the last length of the same parity
#: (the sets are periodic with period 2 long before this, checked by a test).
WALK_TABLE_STEPS = 40


def _walk_tables() -> tuple[
    dict[tuple[int, int], tuple[int, ...]], dict[tuple[int, int], tuple[int, ...]]
]:
    # ends_after[(u, v)][m]: tiles reachable in m more steps standing on v having come from u
    edges = [(u, v) for u in ALL_TILES for v in ADJACENT[u]]
    ends_after: dict[tuple[int, int], list[int]] = {edge: [BIT[edge[1]]] for edge in edges}
    for m in range(1, WALK_TABLE_STEPS):
        for u, v in edges:
            mask = 0
            for w in ADJACENT[v]:
                if w != u:
                    mask |= ends_after[(v, w)][m - 1]
            ends_after[(u, v)].append(mask)
    ends: dict[tuple[int, int], tuple[int, ...]] = {}
    revisits: dict[tuple[int, int], tuple[int, ...]] = {}
    for p in ALL_TILES:
        for q in (NONE, *ADJACENT[p]):
            row = [BIT[p]]
            for k in range(1, WALK_TABLE_STEPS + 1):
                mask = 0
                for n in ADJACENT[p]:
                    if n != q:
                        mask |= ends_after[(p, n)][k - 1]
                row.append(mask)
            again = [0] * (WALK_TABLE_STEPS + 1)
            for k in range(5, WALK_TABLE_STEPS + 1):
                # the earlier visit is a drop at step j >= 1 with k - j even and >= 4
                again[k] = again[k - 2] | row[k - 4]
            ends[(p, q)] = tuple(row)
            revisits[(p, q)] = tuple(again)
    return ends, revisits


WALK_ENDS, WALK_REVISITS = _walk_tables()


def _clamp(steps: int) -> int:
    if steps <= WALK_TABLE_STEPS:
        return steps
    return WALK_TABLE_STEPS - ((WALK_TABLE_STEPS - steps) % 2)


def walk_ends(p: int, q: int, steps: int) -> int:
    """Tiles where a ``steps``-step non-backtracking walk from ``p`` (not via ``q``) ends."""
    return WALK_ENDS[(p, q)][_clamp(steps)]


def walk_revisits(p: int, q: int, steps: int) -> int:
    """Tiles a ``steps``-step walk from ``p`` can end on after an earlier drop there."""
    return WALK_REVISITS[(p, q)][_clamp(steps)]

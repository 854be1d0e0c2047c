"""The map layouts per player count and their geometry (spec §3.4).

Hexes are axial coordinates ``Hex(q, r)``; hex id ``Hn`` is the index in the layout's
tuple (the spec's ids). The topology is SECONDARY (RyanB156 ``board.js`` adjacency
lists) and the coordinates are RECONSTRUCTED (G4): the spec converted the lists to axial
coordinates and checked that the coordinates reproduce every listed adjacency. The
adjacency and the volcano sites are derived from the coordinates here, and the tests
compare them with the spec's tables.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache


@dataclass(frozen=True, slots=True, order=True)
class Hex:
    """An axial board coordinate (also the volcano's position, which is off the map)."""

    q: int
    r: int

    @property
    def text(self) -> str:
        """``q,r``: the form used in move keys, e.g. ``1,2`` or ``-1,3``."""
        return f"{self.q},{self.r}"

    def neighbours(self) -> tuple[Hex, ...]:
        """The six neighbours in the spec's order (§3.4)."""
        q, r = self.q, self.r
        return (
            Hex(q + 1, r),
            Hex(q - 1, r),
            Hex(q, r + 1),
            Hex(q, r - 1),
            Hex(q + 1, r - 1),
            Hex(q - 1, r + 1),
        )


def _hexes(text: str) -> tuple[Hex, ...]:
    return tuple(Hex(*map(int, pair.split(","))) for pair in text.split())


#: §3.4 layouts, hex id order H0..Hn [S topology, R coordinates].
LAYOUTS: dict[int, tuple[Hex, ...]] = {
    # 2 players: 9 hexes, a 3x3 rhombus
    2: _hexes("0,0 1,0 2,0 0,1 1,1 2,1 0,2 1,2 2,2"),
    # 3 players: 12 hexes, rows of 3, 4, 3, 2
    3: _hexes("1,0 2,0 3,0 0,1 1,1 2,1 3,1 0,2 1,2 2,2 0,3 1,3"),
    # 4 players: 15 hexes, rows of 2, 3, 4, 4, 2 ("4 Players (A)")
    4: _hexes("2,0 3,0 1,1 2,1 3,1 0,2 1,2 2,2 3,2 -1,3 0,3 1,3 2,3 -1,4 0,4"),
}


@dataclass(frozen=True, slots=True)
class Geometry:
    """Everything derived from one layout: ids, adjacency, volcano sites."""

    seats: int
    hexes: tuple[Hex, ...]
    index: dict[Hex, int]
    neighbours: tuple[tuple[int, ...], ...]  # map-hex ids next to each hex, ascending
    #: empty cells touching >= 2 map hexes (where the volcano may go, §5.4.1), sorted
    volcano_sites: tuple[Hex, ...]
    #: map-hex ids next to each volcano site, ascending
    site_neighbours: dict[Hex, tuple[int, ...]]
    #: hex ids in the order of their key text (so lists built in this order are sorted)
    key_order: tuple[int, ...]

    @property
    def size(self) -> int:
        return len(self.hexes)

    def adjacent(self, a: int, b: int) -> bool:
        return b in self.neighbours[a]


@cache
def geometry(seats: int) -> Geometry:
    """The layout of a player count with its derived tables (computed once)."""
    hexes = LAYOUTS[seats]
    index = {h: i for i, h in enumerate(hexes)}
    neighbours = tuple(tuple(sorted(index[n] for n in h.neighbours() if n in index)) for h in hexes)
    candidates: set[Hex] = set()
    for h in hexes:
        candidates.update(n for n in h.neighbours() if n not in index)
    site_neighbours = {
        cell: tuple(sorted(index[n] for n in cell.neighbours() if n in index))
        for cell in sorted(candidates)
    }
    sites = tuple(cell for cell, around in site_neighbours.items() if len(around) >= 2)
    key_order = tuple(sorted(range(len(hexes)), key=lambda i: hexes[i].text))
    return Geometry(
        seats=seats,
        hexes=hexes,
        index=index,
        neighbours=neighbours,
        volcano_sites=sites,
        site_neighbours={cell: site_neighbours[cell] for cell in sites},
        key_order=key_order,
    )

"""Territory geometry (rules spec §3.2): axial hex coordinates, adjacency, their text.

Each player's territory is its own unbounded hex grid (the frontier of a territory is
``rules.actions.frontier_cells``). ``Hex`` values are interned
(``hex_at``) so the rules mostly compare and hash the same objects; equal values built
elsewhere (the codec, tests) still compare equal. Text form ``q,r`` (``2,-1``) is the
one move keys use; players read ``(2,-1)``.
"""

from __future__ import annotations

from dataclasses import dataclass

from tribes.games.tribes_early_civilization.data import HEX_NEIGHBOURS, START_CELLS

#: Coordinates a territory can reach: 50 tiles in all, so no tile lies further than 50
#: steps from the start triangle. Keys with larger numbers are malformed.
COORD_LIMIT = 60


@dataclass(frozen=True, slots=True)
class Hex:
    """A cell of a territory in axial coordinates ``(q, r)`` (§3.2)."""

    q: int
    r: int


_INTERNED: dict[tuple[int, int], Hex] = {}


def hex_at(q: int, r: int) -> Hex:
    """The interned ``Hex(q, r)``."""
    cell = _INTERNED.get((q, r))
    if cell is None:
        cell = _INTERNED[(q, r)] = Hex(q, r)
    return cell


START_HEXES = tuple(hex_at(q, r) for q, r in START_CELLS)


def adjacent(a: Hex, b: Hex) -> bool:
    """True when the two cells share an edge (§3.2)."""
    return (b.q - a.q, b.r - a.r) in HEX_NEIGHBOURS


def label(cell: Hex) -> str:
    """The key form ``q,r``."""
    return f"{cell.q},{cell.r}"


def where(cell: Hex) -> str:
    """The form players read: ``(q,r)``."""
    return f"({cell.q},{cell.r})"


def _coordinate(text: str) -> int:
    digits = text[1:] if text.startswith("-") else text
    if not digits.isascii() or not digits.isdigit() or (len(digits) > 1 and digits[0] == "0"):
        raise ValueError(f"not a coordinate: {text!r}")
    if digits == "0" and text.startswith("-"):
        raise ValueError("-0 is not canonical")
    value = int(text)
    if abs(value) > COORD_LIMIT:
        raise ValueError(f"coordinate out of range: {text!r}")
    return value


def parse_label(text: str) -> Hex:
    """The cell written ``q,r``; ValueError for anything else."""
    q_text, comma, r_text = text.partition(",")
    if not comma:
        raise ValueError(f"not a cell: {text!r}")
    return hex_at(_coordinate(q_text), _coordinate(r_text))

"""Axial hex coordinates ``(q, r)`` drawn as offset text rows (pointy-top hexes).

Each row ``r`` is shifted half a cell to the right of the row above, so a hex's six
neighbours (q±1, r), (q, r±1), (q+1, r-1), (q-1, r+1) sit around it as on the table.
Cells are lists of ``(plain, styled)`` line pairs; the plain text gives the width.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

Cell = Sequence[tuple[str, str]]


def hex_grid(cells: Mapping[tuple[int, int], Cell], width: int) -> list[str]:
    """The cells laid out by axial coordinate; ``width`` is a cell's visible width."""
    if not cells:
        return []
    half = (width + 1) // 2
    left = min(2 * q + r for q, r in cells)
    top, bottom = min(r for _, r in cells), max(r for _, r in cells)
    height = max(len(cell) for cell in cells.values())
    out: list[str] = []
    for r in range(top, bottom + 1):
        row_cells = sorted(((q, cell) for (q, rr), cell in cells.items() if rr == r))
        for part in range(height):
            line, column = "", 0
            for q, cell in row_cells:
                start = (2 * q + r - left) * half
                line += " " * max(0, start - column)
                column = max(start, column)
                plain, styled = cell[part] if part < len(cell) else ("", "")
                text = plain[:width]
                line += (styled if len(plain) <= width else text) + " " * (width - len(text))
                column += width
            out.append(line.rstrip())
    return out

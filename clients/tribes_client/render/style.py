"""Terminal styling: ANSI colours when they are wanted, plain text otherwise.

Colour is on when the output is a terminal and ``NO_COLOR`` is unset or empty
(https://no-color.org); ``--color`` / ``--no-color`` override both. Renderers pad text
to width *before* styling it, so escape codes never break the alignment of a grid.
"""

from __future__ import annotations

import os
import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import TextIO

_CODES = {
    "bold": "1",
    "dim": "2",
    "red": "31",
    "green": "32",
    "yellow": "33",
    "blue": "34",
    "magenta": "35",
    "cyan": "36",
    "white": "37",
    "grey": "90",
}
# One colour per seat, in seat order (repeats past eight seats).
SEAT_COLOURS = ("cyan", "magenta", "yellow", "green", "blue", "red", "white", "grey")
_ESCAPE = re.compile(r"\x1b\[[0-9;]*m")


def wants_color(
    stream: TextIO, forced: bool | None = None, environ: Mapping[str, str] | None = None
) -> bool:
    """``forced`` (from --color/--no-color) if given, else a TTY without NO_COLOR."""
    if forced is not None:
        return forced
    env = os.environ if environ is None else environ
    if env.get("NO_COLOR"):
        return False
    isatty = getattr(stream, "isatty", None)
    return bool(isatty and isatty())


def strip(text: str) -> str:
    """``text`` without escape codes (what a plain terminal would show)."""
    return _ESCAPE.sub("", text)


@dataclass(frozen=True, slots=True)
class Style:
    """Applies ANSI styles when ``color`` is on; a no-op otherwise."""

    color: bool = False

    def paint(self, text: str, *styles: str) -> str:
        if not self.color or not styles or not text:
            return text
        codes = ";".join(_CODES[name] for name in styles)
        return f"\x1b[{codes}m{text}\x1b[0m"

    def bold(self, text: str) -> str:
        return self.paint(text, "bold")

    def dim(self, text: str) -> str:
        return self.paint(text, "dim")

    def seat(self, text: str, seat: int) -> str:
        """``text`` in the colour of ``seat`` (seats keep one colour in every game)."""
        if seat < 0:
            return text
        return self.paint(text, SEAT_COLOURS[seat % len(SEAT_COLOURS)])


PLAIN = Style(False)

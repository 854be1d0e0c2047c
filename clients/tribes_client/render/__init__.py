"""Readable text for game snapshots: one renderer per game, a generic one for the rest.

``snapshot_lines`` is what ``tribes show`` prints: the status line, the seats (names,
bots, presence, clocks), the game's own view (a board where the game has one), the
result once finished, and the legal moves numbered in natural order.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from tribes_client.render import (
    fate_of_akalon,
    five_tribes,
    rise_of_tribes,
    tribes_early_civilization,
)
from tribes_client.render.common import (
    header_lines,
    move_lines,
    natural_key,
    ordered_moves,
    result_lines,
    seat_lines,
)
from tribes_client.render.generic import message_lines
from tribes_client.render.style import PLAIN, Style, strip, wants_color
from tribes_client.v1 import common_pb2 as pb

__all__ = [
    "PLAIN",
    "Style",
    "natural_key",
    "ordered_moves",
    "snapshot_lines",
    "strip",
    "view_lines",
    "wants_color",
]

# View arm -> the game's renderer (view message, style) -> lines.
RENDERERS: dict[str, Callable[[Any, Style], list[str]]] = {
    "five_tribes": five_tribes.lines,
    "tribes_early_civilization": tribes_early_civilization.lines,
    "rise_of_tribes": rise_of_tribes.lines,
    "fate_of_akalon": fate_of_akalon.lines,
}


def view_lines(view: pb.View, style: Style = PLAIN) -> list[str]:
    """The game-specific view: its game's renderer, or the generic one."""
    arm = view.WhichOneof("game")
    if arm is None:
        return []
    message = getattr(view, arm)
    renderer = RENDERERS.get(arm)
    if renderer is None:
        return message_lines(message)
    return renderer(message, style)


def snapshot_lines(
    snapshot: pb.GameSnapshot, style: Style = PLAIN, *, moves: bool = True
) -> list[str]:
    """The whole snapshot as lines of text (``moves=False`` leaves out the legal moves)."""
    out = header_lines(snapshot, style)
    out += seat_lines(snapshot, style)
    out += view_lines(snapshot.view, style)
    out += result_lines(snapshot, style)
    if moves:
        out += move_lines(ordered_moves(snapshot.legal_moves), style)
    return out

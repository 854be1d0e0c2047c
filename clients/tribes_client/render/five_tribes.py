"""Five Tribes: the Sultanate as a 5 x 6 grid, then the players, the track and the market.

A cell shows the tile's kind and printed value (spec §3.1; value blue for Villages and
Sacred Places, red for the others), its meeples by colour letter (y w g b r, spec §3.2),
the camel of the seat that controls it and its Palm Trees / Palaces. Rows and columns
are numbered from 0 as in move ids ("drop:2-4:w" is row 2, column 4).
"""

from __future__ import annotations

from tribes_client.render.generic import enum_name
from tribes_client.render.style import Style
from tribes_client.v1 import five_tribes_pb2 as ft

ROWS, COLUMNS = 5, 6
CELL = 9  # visible width of a cell's text (the grid fits 80 columns)

_KIND = {
    ft.FIVE_TRIBES_TILE_KIND_VILLAGE: ("Vil", "blue"),
    ft.FIVE_TRIBES_TILE_KIND_SACRED_PLACE: ("Sac", "blue"),
    ft.FIVE_TRIBES_TILE_KIND_OASIS: ("Oas", "red"),
    ft.FIVE_TRIBES_TILE_KIND_SMALL_MARKET: ("Mkt", "red"),
    ft.FIVE_TRIBES_TILE_KIND_LARGE_MARKET: ("MKT", "red"),
}
# (field of FiveTribesMeeples, letter, colour), in tribe order (spec §3.2)
_MEEPLES = (
    ("viziers", "y", "yellow"),
    ("elders", "w", "white"),
    ("merchants", "g", "green"),
    ("builders", "b", "blue"),
    ("assassins", "r", "red"),
)
LEGEND = (
    "Vil village, Sac sacred place, Oas oasis, Mkt small / MKT large market",
    "y vizier, w elder, g merchant, b builder, r assassin; @N camel of seat N, "
    "T palm trees, P palaces",
)


def meeple_text(meeples: ft.FiveTribesMeeples, style: Style) -> tuple[str, int]:
    """``wg2r`` (a letter per tribe, its count after it when > 1) and its visible width."""
    parts, width = [], 0
    for name, letter, colour in _MEEPLES:
        count = getattr(meeples, name)
        if count:
            text = letter if count == 1 else f"{letter}{count}"
            parts.append(style.paint(text, colour))
            width += len(text)
    return "".join(parts), width


def _pad(text: str, width: int) -> str:
    return text + " " * max(0, CELL - width)


def tile_cell(tile: ft.FiveTribesTileState, style: Style) -> list[str]:
    """The three text lines of one tile's cell, each CELL wide."""
    code, colour = _KIND.get(tile.kind, ("?", "white"))
    first = f"{code} {tile.value:>2}"
    styled = style.paint(code, "bold") + " " + style.paint(f"{tile.value:>2}", colour)
    lines = [_pad(styled, len(first))]
    meeples, width = meeple_text(tile.meeples, style)
    if width > CELL:  # too many tribes to spell out: the total
        total = sum(getattr(tile.meeples, name) for name, _, _ in _MEEPLES)
        meeples = width_text = f"{total} meeples"
        width = len(width_text)
    lines.append(_pad(meeples, width))
    extras: list[tuple[str, str]] = []  # (plain, styled)
    if tile.HasField("owner"):
        extras.append((f"@{tile.owner}", style.seat(f"@{tile.owner}", tile.owner)))
    if tile.palms:
        extras.append((f"T{tile.palms}", style.paint(f"T{tile.palms}", "green")))
    if tile.palaces:
        extras.append((f"P{tile.palaces}", style.paint(f"P{tile.palaces}", "yellow")))
    plain = " ".join(text for text, _ in extras)
    lines.append(_pad(" ".join(styled for _, styled in extras), len(plain)))
    return lines


def grid_lines(view: ft.FiveTribesView, style: Style) -> list[str]:
    """The Sultanate: a header of column numbers, then 5 rows of 6 cells."""
    rule = "   +" + "+".join("-" * (CELL + 2) for _ in range(COLUMNS)) + "+"
    lines = ["    " + "".join(f" {column:<{CELL}}  " for column in range(COLUMNS)).rstrip(), rule]
    tiles = list(view.tiles)
    for row in range(ROWS):
        cells = [tile_cell(tiles[row * COLUMNS + column], style) for column in range(COLUMNS)]
        for part in range(3):
            label = f"{row:>2} " if part == 0 else "   "
            lines.append(label + "| " + " | ".join(cell[part] for cell in cells) + " |")
        lines.append(rule)
    return lines


def player_lines(view: ft.FiveTribesView, style: Style) -> list[str]:
    lines = ["players:"]
    for seat, player in enumerate(view.players):
        gold = str(player.gold) if player.HasField("gold") else "?"
        cards = player.cards
        merchandise = (
            sum(
                getattr(cards, name)
                for name in ("ivory", "jewels", "gold", "papyrus", "silk", "spice", "fish")
            )
            + cards.wheat
            + cards.pottery
        )
        djinns = ", ".join(enum_name(ft.FiveTribesDjinn.DESCRIPTOR, d) for d in player.djinns)
        text = (
            f"  {style.seat(f'seat {seat}', seat)}: {gold:>3} GC, {player.viziers} viziers, "
            f"{player.elders} elders, {merchandise} cards + {cards.fakirs} fakirs, "
            f"{player.camels} camels left"
        )
        if djinns:
            text += f", djinns: {djinns}"
        lines.append(text)
    return lines


def track_lines(view: ft.FiveTribesView, style: Style) -> list[str]:
    """Turn order: who bids next and the markers on the track (spec §5.3)."""
    owners = list(view.marker_owners)

    def marker(index: int) -> str:
        seat = owners[index] if 0 <= index < len(owners) else -1
        return style.seat(f"seat {seat}", seat)

    spots = []
    for spot in view.paid_spots:
        taken = marker(spot.marker) if spot.HasField("marker") else "-"
        spots.append(f"{spot.cost}: {taken}")
    lines = [f"turn order track: {'  '.join(spots)}"]
    if view.zero_aisle:
        lines.append("zero spots: " + ", ".join(marker(m) for m in view.zero_aisle))
    if view.bid_order:
        lines.append("to bid: " + ", ".join(marker(m) for m in view.bid_order))
    return lines


def market_lines(view: ft.FiveTribesView) -> list[str]:
    cards = ", ".join(enum_name(ft.FiveTribesCard.DESCRIPTOR, c) for c in view.resource_row)
    djinns = ", ".join(enum_name(ft.FiveTribesDjinn.DESCRIPTOR, d) for d in view.djinn_display)
    return [
        f"resource row: {cards or '-'} ({view.resource_pile_size} in the pile)",
        f"djinns for sale: {djinns or '-'} ({view.djinn_pile_size} in the pile)",
        f"bag: {view.bag_size} meeples; supply: {view.palm_supply} palm trees, "
        f"{view.palace_supply} palaces",
    ]


def turn_lines(view: ft.FiveTribesView, style: Style) -> list[str]:
    if not view.HasField("turn"):
        return []
    turn = view.turn
    hand, _ = meeple_text(turn.hand, style)
    text = f"turn: {style.seat(f'seat {turn.seat}', turn.seat)}"
    if turn.HasField("start_tile"):
        text += f", from ({turn.start_tile.row},{turn.start_tile.column})"
    if turn.HasField("position"):
        text += f", at ({turn.position.row},{turn.position.column})"
    if hand:
        text += f", hand {hand}"
    if turn.tribe:
        tribe = enum_name(ft.FiveTribesMeeple.DESCRIPTOR, turn.tribe)
        text += f", collected {turn.collected} {tribe}"
    return [text]


def lines(view: ft.FiveTribesView, style: Style) -> list[str]:
    """The whole Five Tribes view."""
    step = enum_name(ft.FiveTribesStep.DESCRIPTOR, view.step)
    status = f"round {view.round}, step: {step}"
    if view.end_triggered:
        status += style.paint("  (last round)", "bold", "red")
    out = [status, *grid_lines(view, style), *(style.dim(line) for line in LEGEND)]
    out += turn_lines(view, style)
    out += track_lines(view, style)
    out += player_lines(view, style)
    out += market_lines(view)
    if view.final_scores:
        scores = ", ".join(f"seat {s}: {v}" for s, v in enumerate(view.final_scores))
        out.append(f"final scores: {scores}")
    return out

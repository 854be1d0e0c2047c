"""Rise of Tribes: the hex map with its pieces (§2), the action board (§5), the players
and the event slots.

A map cell shows the hex's coordinate as move ids write it ("move:0,1:0,2"), its
terrain, each seat's members (``seat:count``), and the village (``V`` + owner),
invaders (``I`` + count), mammoth ``M``, tiger ``T`` and ``^`` next to the volcano.
"""

from __future__ import annotations

from tribes_client.render.generic import enum_name
from tribes_client.render.hexgrid import Cell, hex_grid
from tribes_client.render.style import Style
from tribes_client.render.tribes_early_civilization import log_lines
from tribes_client.v1 import rise_of_tribes_pb2 as rot

CELL = 9
_TERRAIN = {
    rot.RISE_OF_TRIBES_TERRAIN_FOREST: ("For", "green"),
    rot.RISE_OF_TRIBES_TERRAIN_LAKE: ("Lak", "blue"),
    rot.RISE_OF_TRIBES_TERRAIN_MOUNTAIN: ("Mtn", "white"),
}
LEGEND = (
    "For forest, Lak lake, Mtn mountain; S:N = N members of seat S; V village (owner), "
    "I invaders, M mammoth, T tiger, ^ next to the volcano"
)


def _name(enum: object, number: int) -> str:
    return enum_name(enum.DESCRIPTOR, number)  # type: ignore[attr-defined]


def hex_cell(cell: rot.RiseOfTribesHexView, style: Style) -> Cell:
    code, colour = _TERRAIN.get(cell.terrain, ("?", "white"))
    where = f"{cell.coord.q},{cell.coord.r}"
    first = (f"{where} {code}", style.dim(where) + " " + style.paint(code, colour))
    members = [(seat, count) for seat, count in enumerate(cell.members) if count]
    plain = " ".join(f"{seat}:{count}" for seat, count in members)
    styled = " ".join(style.seat(f"{seat}:{count}", seat) for seat, count in members)
    marks: list[tuple[str, str]] = []
    if cell.HasField("village_owner"):
        text = f"V{cell.village_owner}"
        marks.append((text, style.seat(text, cell.village_owner)))
    if cell.invaders:
        marks.append((f"I{cell.invaders}", style.paint(f"I{cell.invaders}", "red")))
    if cell.mammoth:
        marks.append(("M", style.bold("M")))
    if cell.tiger:
        marks.append(("T", style.bold("T")))
    if cell.next_to_volcano:
        marks.append(("^", style.paint("^", "red")))
    third = (" ".join(p for p, _ in marks), " ".join(s for _, s in marks))
    return [first, (plain, styled), third]


def map_lines(view: rot.RiseOfTribesView, style: Style) -> list[str]:
    cells = {(h.coord.q, h.coord.r): hex_cell(h, style) for h in view.hexes}
    out = ["map:", *(("  " + line).rstrip() for line in hex_grid(cells, CELL))]
    if view.HasField("volcano"):
        out.append(f"volcano at ({view.volcano.q},{view.volcano.r})")
    return out


def action_lines(view: rot.RiseOfTribesView) -> list[str]:
    """The action board: each action's row of dice, tier and base power (§5)."""
    out = ["action board:"]
    for row in view.action_rows:
        dice = " ".join(_name(rot.RiseOfTribesFace, face) for face in row.dice)
        out.append(
            f"  {_name(rot.RiseOfTribesAction, row.action):<7} [{dice}]  tier "
            f"{_name(rot.RiseOfTribesTier, row.tier)}, power {row.base_power}"
        )
    if view.roll_pool:
        pool = " ".join(_name(rot.RiseOfTribesFace, face) for face in view.roll_pool)
        out.append(f"  roll pool: {pool}")
    return out


def player_lines(view: rot.RiseOfTribesView, style: Style) -> list[str]:
    out = ["players:"]
    for player in view.players:
        res = player.resources
        status = ", eliminated" if player.eliminated else ""
        goals = ", ".join(_name(rot.RiseOfTribesGoal, g) for g in player.goals_in_progress)
        out.append(
            f"  {style.seat(f'seat {player.seat}', player.seat)} {player.tribe_name}{status}: "
            f"{player.vp} VP, {res.food} food {res.wood} wood {res.stone} stone, "
            f"{player.members_on_map} on the map + {player.supply} in supply, "
            f"{player.villages} villages"
        )
        if goals:
            out.append(f"      goals: {goals}")
    return out


def turn_lines(view: rot.RiseOfTribesView, style: Style) -> list[str]:
    step = _name(rot.RiseOfTribesStep, view.step)
    active = style.seat(f"seat {view.active}", view.active)
    out = [f"turn {view.turn_count}, {active} active, step: {step}"]
    if view.HasField("turn") and view.turn.rolled:
        turn = view.turn
        rolled = " ".join(_name(rot.RiseOfTribesFace, f) for f in turn.rolled)
        left = " ".join(_name(rot.RiseOfTribesFace, f) for f in turn.dice_left) or "-"
        taken = ", ".join(_name(rot.RiseOfTribesAction, a) for a in turn.actions_taken) or "-"
        out.append(f"  rolled {rolled}; dice left {left}; actions taken {taken}")
    return out


def event_lines(view: rot.RiseOfTribesView) -> list[str]:
    slots = []
    for slot in view.event_slots:
        name = _name(rot.RiseOfTribesEvent, slot.event) if slot.HasField("event") else "empty"
        slots.append(f"slot {slot.slot}: {name}")
    return [f"events: {', '.join(slots)}; {view.event_deck_size} in the deck"]


def lines(view: rot.RiseOfTribesView, style: Style) -> list[str]:
    """The whole Rise of Tribes view."""
    out = turn_lines(view, style)
    out += map_lines(view, style)
    out.append(style.dim(LEGEND))
    out += action_lines(view)
    out += player_lines(view, style)
    out += event_lines(view)
    out += log_lines(list(view.log))
    if view.HasField("winner"):
        out.append(style.bold(f"winner: seat {view.winner}"))
    return out

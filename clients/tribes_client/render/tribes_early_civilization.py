"""Tribes: Early Civilization: each tribe's territory on an axial hex grid (§3.2), the
action sequence (§5.3), the achievement boards (§3.4) and the players' tracks (§3.3).

A territory cell shows its coordinate as move ids write it ("step:-1,1:-1,2" moves
from (-1,1) to (-1,2)), its terrain, ``*`` when exhausted, and the members on it.
"""

from __future__ import annotations

from tribes_client.render.generic import enum_name
from tribes_client.render.hexgrid import Cell, hex_grid
from tribes_client.render.style import Style
from tribes_client.v1 import tribes_early_civilization_pb2 as tec

CELL = 7
_TERRAIN = {
    tec.TRIBES_EARLY_CIVILIZATION_TERRAIN_GOAT: ("Goa", "white"),
    tec.TRIBES_EARLY_CIVILIZATION_TERRAIN_HORSE: ("Hor", "magenta"),
    tec.TRIBES_EARLY_CIVILIZATION_TERRAIN_WHEAT: ("Whe", "yellow"),
    tec.TRIBES_EARLY_CIVILIZATION_TERRAIN_GOLD: ("Gol", "bold"),
    tec.TRIBES_EARLY_CIVILIZATION_TERRAIN_INCENSE: ("Inc", "cyan"),
}
LEGEND = "Goa goat, Hor horse, Whe wheat, Gol gold, Inc incense; * exhausted; N members"


def _name(enum: object, number: int) -> str:
    return enum_name(enum.DESCRIPTOR, number)  # type: ignore[attr-defined]


def tile_cell(tile: tec.TribesEarlyCivilizationTile, style: Style) -> Cell:
    code, colour = _TERRAIN.get(tile.terrain, ("?", "white"))
    where = f"{tile.hex.q},{tile.hex.r}"
    body = f"{code}{'*' if tile.exhausted else ' '}{tile.members or ''}"
    styled = style.dim(body) if tile.exhausted else style.paint(code, colour) + body[3:]
    return [(where, style.dim(where)), (body, styled)]


def territory_lines(player: tec.TribesEarlyCivilizationPlayerView, style: Style) -> list[str]:
    cells = {(t.hex.q, t.hex.r): tile_cell(t, style) for t in player.tiles}
    return ["    " + line for line in hex_grid(cells, CELL)]


def player_line(player: tec.TribesEarlyCivilizationPlayerView, style: Style) -> str:
    levels = player.levels
    vp = str(player.vp) if player.HasField("vp") else "?"
    start = ", start player" if player.is_start_player else ""
    return (
        f"{style.seat(f'seat {player.seat}', player.seat)}{start}: {vp} VP, "
        f"{player.shells} shells, {player.members_on_board} members on land + "
        f"{player.reserve} in reserve, {player.stones_left} stones\n"
        f"  tracks: procreation "
        f"{levels.procreation} exploration {levels.exploration} movement {levels.movement} "
        f"strength {levels.strength}"
    )


def sequence_lines(view: tec.TribesEarlyCivilizationView, style: Style) -> list[str]:
    """The action row: position (as in "tile:N:..."), name, shells on it."""
    parts = []
    for tile in view.sequence:
        shells = f" +{tile.shells}" if tile.shells else ""
        name = style.paint(tile.name, "red") if tile.HasField("event") else tile.name
        parts.append(f"[{tile.position}] {name}{shells}")
    return ["action row: " + "  ".join(parts)] if parts else []


def board_lines(view: tec.TribesEarlyCivilizationView, style: Style) -> list[str]:
    """The face-up achievement boards with their free and taken spaces."""
    out = []
    for board in view.boards:
        if not board.face_up:
            continue
        face = board.face
        spaces = " ".join(
            style.seat(f"{s.vp}:{s.seat}", s.seat) if s.HasField("seat") else f"{s.vp}"
            for s in face.spaces
        )
        out.append(
            f"  epoch {board.epoch} col {board.column}: {face.name} "
            f"({face.required} {_name(tec.TribesEarlyCivilizationTerrain, face.resource)}, "
            f"{_name(tec.TribesEarlyCivilizationTrack, face.track)}) VP {spaces}"
        )
    hidden = sum(1 for board in view.boards if not board.face_up)
    return ["achievements:", *out, f"  ({hidden} boards face down)"] if out else []


def lines(view: tec.TribesEarlyCivilizationView, style: Style) -> list[str]:
    """The whole Tribes: Early Civilization view."""
    phase = _name(tec.TribesEarlyCivilizationPhase, view.phase)
    out = [f"round {view.round}, turn {view.turn_count}, phase: {phase}"]
    if view.pending.prompt:
        out.append(f"pending: {view.pending.prompt}")
    for player in view.players:
        out += player_line(player, style).split("\n")
        out += territory_lines(player, style)
    out.append(style.dim(LEGEND))
    out += sequence_lines(view, style)
    out += board_lines(view, style)
    bag = ", ".join(
        f"{c.count} {_name(tec.TribesEarlyCivilizationTerrain, c.terrain)}" for c in view.bag
    )
    out.append(f"bag: {view.bag_total} tiles ({bag})")
    stacks = ", ".join(f"epoch {s.epoch}: {s.count}" for s in view.event_stacks)
    out.append(f"event stacks: {stacks}")
    out += log_lines([line.text for line in view.log])
    for score in view.final_scores:
        out.append(
            f"final: seat {score.seat} #{score.rank}: {score.total} VP (tracks "
            f"{score.track_vp}, most members {score.most_members_vp}, most land "
            f"{score.most_land_vp}, bear teeth {score.bear_teeth})"
        )
    return out


def log_lines(log: list[str], last: int = 5) -> list[str]:
    """The last lines of a game's log."""
    if not log:
        return []
    return [f"log (last {min(last, len(log))} of {len(log)}):", *(f"  {t}" for t in log[-last:])]

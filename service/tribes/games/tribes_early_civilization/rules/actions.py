"""The three actions (rules spec §5.4 Procreate, §5.5 Move, §5.6 Explore and the empty bag).

Each ``start_*`` opens the action's first sub-phase, or leaves nothing pending when the
sub-phase would have no legal move (§5.1 entry rules); each ``apply_*`` plays one move
and closes the sub-phase by itself when its count is used up. "Nothing pending" hands
control back to ``rules.settle``: the event queue continues, or the turn ends. Explore's
draw, placement and restores also serve the GAIN_LAND event clause (§3.6).

The ``*_entries`` functions enumerate a phase's moves as interned (key, move) pairs.
"""

from __future__ import annotations

from tribes.engine.rng import Rng
from tribes.games.tribes_early_civilization.data import (
    HEX_NEIGHBOURS,
    TERRAIN_NAME,
    Terrain,
    Track,
)
from tribes.games.tribes_early_civilization.hexes import Hex, where
from tribes.games.tribes_early_civilization.moves import (
    END_EXPLORE,
    END_MOVE,
    END_RELOCATE,
    CellMove,
    Entry,
    PlaceNewMember,
    Relocate,
    RestoreTile,
    Step,
    bare_entry,
    cell_entry,
    land_entry,
    pair_entry,
)
from tribes.games.tribes_early_civilization.rules.common import (
    action_value,
    add_members,
    draw_tiles,
    flip,
    occupied_count,
    shift_member,
    with_tiles,
)
from tribes.games.tribes_early_civilization.rules.work import Work
from tribes.games.tribes_early_civilization.state import Pending, Phase, Player, Tile


def _less(pending: Pending) -> Pending:
    """The same pending decision with one move fewer left."""
    p = pending
    return Pending(
        p.phase, p.decider, p.left - 1, p.relocations, p.drawn, p.shortfall, p.board, p.route,
        p.arrow_source,
    )  # fmt: skip


# -- Procreate (§5.4) and GAIN_MEMBERS (§3.6) ---------------------------------------------


def start_procreate(w: Work, seat: int) -> None:
    """k = min(value, reserve) placements, then the shortfall r as optional relocations."""
    player = w.players[seat]
    value = action_value(player, Track.PROCREATION)
    placed = min(value, player.reserve)
    if placed > 0:
        w.pending = Pending(Phase.PROCREATE_PLACE, seat, left=placed, relocations=value - placed)
    else:
        start_relocate(w, seat, value)


def start_relocate(w: Work, seat: int, count: int) -> None:
    """PROCREATE_RELOCATE only if a relocation is owed and two occupied tiles exist (§5.1)."""
    if count > 0 and occupied_count(w.players[seat]) >= 2:
        w.pending = Pending(Phase.PROCREATE_RELOCATE, seat, left=count)
    else:
        w.pending = None


def member_entries(player: Player, kind: type[CellMove] = PlaceNewMember) -> list[Entry]:
    """Tiles already holding a member (§5.2 ``PlaceNewMember``, also ``LoseMember``)."""
    return [cell_entry(kind, t.hex.q, t.hex.r) for t in player.tiles if t.members]


def apply_place_member(w: Work, seat: int, cell: Hex) -> None:
    """One member from the reserve onto ``cell``; the phase ends after the k-th."""
    pending = w.pending
    assert pending is not None
    w.set_player(seat, add_members(w.players[seat], cell, 1))
    w.note(seat, f"seat {seat} places a new tribe member on {where(cell)}")
    if pending.left > 1:
        w.pending = _less(pending)
    elif pending.phase is Phase.PROCREATE_PLACE:
        start_relocate(w, seat, pending.relocations)
    else:
        w.pending = None


def relocate_entries(player: Player) -> list[Entry]:
    """Ordered pairs of different occupied tiles (§5.4: the target need not be adjacent)."""
    cells = [(t.hex.q, t.hex.r) for t in player.tiles if t.members]
    moves = [bare_entry(END_RELOCATE)]
    moves += [pair_entry(Relocate, *a, *b) for a in cells for b in cells if a != b]
    return moves


def apply_relocate(w: Work, seat: int, origin: Hex, destination: Hex) -> None:
    pending = w.pending
    assert pending is not None
    player = shift_member(w.players[seat], origin, destination)
    w.set_player(seat, player)
    w.note(
        seat, f"seat {seat} relocates a tribe member from {where(origin)} to {where(destination)}"
    )
    w.pending = _less(pending) if pending.left > 1 and occupied_count(player) >= 2 else None


# -- Move (§5.5) --------------------------------------------------------------------------


def step_entries(player: Player) -> list[Entry]:
    """(from, to): from holds a member, to is a tile of the territory next to it (§5.5)."""
    cells = {(t.hex.q, t.hex.r) for t in player.tiles}
    moves = []
    for tile in player.tiles:
        if tile.members:
            q, r = tile.hex.q, tile.hex.r
            for dq, dr in HEX_NEIGHBOURS:
                if (q + dq, r + dr) in cells:
                    moves.append(pair_entry(Step, q, r, q + dq, r + dr))
    return moves


def start_move(w: Work, seat: int) -> None:
    player = w.players[seat]
    if step_entries(player):
        steps = action_value(player, Track.MOVEMENT)
        w.pending = Pending(Phase.MOVE_STEPS, seat, left=steps)
    else:
        w.pending = None


def move_entries(player: Player) -> list[Entry]:
    return [bare_entry(END_MOVE), *step_entries(player)]


def apply_step(w: Work, seat: int, origin: Hex, destination: Hex) -> None:
    pending = w.pending
    assert pending is not None
    w.set_player(seat, shift_member(w.players[seat], origin, destination))
    w.note(seat, f"seat {seat} moves a tribe member from {where(origin)} to {where(destination)}")
    w.pending = _less(pending) if pending.left > 1 else None


# -- Explore, GAIN_LAND (§5.6) ------------------------------------------------------------


def start_explore(w: Work, seat: int) -> None:
    start_draw(w, seat, action_value(w.players[seat], Track.EXPLORATION))


def start_draw(w: Work, seat: int, wanted: int) -> None:
    """§5.6.1: draw d = min(wanted, bag); the shortfall s = wanted - d may become restores."""
    count = min(wanted, sum(w.bag))
    rng = Rng(w.rng)
    w.bag, tiles = draw_tiles(rng, w.bag, count)
    w.rng = rng.state
    if tiles:
        w.note(seat, f"seat {seat} draws {', '.join(TERRAIN_NAME[t] for t in tiles)} from the bag")
    if wanted > count:
        w.note(seat, f"the bag is empty: {wanted - count} tile(s) cannot be drawn")
    if not tiles:
        start_restore(w, seat, wanted)
        return
    drawn = [0] * len(Terrain)
    for tile in tiles:
        drawn[tile] += 1
    w.pending = Pending(
        Phase.EXPLORE_PLACE, seat, left=count, drawn=tuple(drawn), shortfall=wanted - count
    )


def frontier_cells(player: Player) -> list[tuple[int, int]]:
    """Empty cells next to the territory as it stands (§3.2, §5.6.2), in first-seen order."""
    taken = {(t.hex.q, t.hex.r) for t in player.tiles}
    seen: set[tuple[int, int]] = set()
    out = []
    for tile in player.tiles:
        q, r = tile.hex.q, tile.hex.r
        for dq, dr in HEX_NEIGHBOURS:
            cell = (q + dq, r + dr)
            if cell not in taken and cell not in seen:
                seen.add(cell)
                out.append(cell)
    return out


def land_entries(player: Player, drawn: tuple[int, ...]) -> list[Entry]:
    """Every drawn terrain on every frontier cell (§5.2 ``PlaceLand``)."""
    cells = frontier_cells(player)
    return [land_entry(t, q, r) for t, n in enumerate(drawn) if n for q, r in cells]


def apply_place_land(w: Work, seat: int, terrain: Terrain, cell: Hex) -> None:
    pending = w.pending
    assert pending is not None
    player = w.players[seat]
    w.set_player(seat, with_tiles(player, (*player.tiles, Tile(cell, terrain, False, 0))))
    w.note(seat, f"seat {seat} lays a {TERRAIN_NAME[terrain]} tile on {where(cell)}")
    if pending.left > 1:
        drawn = list(pending.drawn)
        drawn[terrain] -= 1
        p = _less(pending)
        w.pending = Pending(p.phase, p.decider, p.left, 0, tuple(drawn), p.shortfall)
    else:
        start_restore(w, seat, pending.shortfall)


def restore_entries(player: Player) -> list[Entry]:
    """Own exhausted tiles with no member on them (§5.6.3), plus ``EndExplore``."""
    cells = [
        cell_entry(RestoreTile, t.hex.q, t.hex.r)
        for t in player.tiles
        if t.exhausted and not t.members
    ]
    return [bare_entry(END_EXPLORE), *cells] if cells else []


def start_restore(w: Work, seat: int, shortfall: int) -> None:
    """EXPLORE_RESTORE only for a missing draw and an eligible tile (§5.6.3, §5.1)."""
    if shortfall > 0 and restore_entries(w.players[seat]):
        w.pending = Pending(Phase.EXPLORE_RESTORE, seat, left=shortfall)
    else:
        w.pending = None


def apply_restore(w: Work, seat: int, cell: Hex) -> None:
    pending = w.pending
    assert pending is not None
    player = flip(w.players[seat], cell, exhausted=False)
    w.set_player(seat, player)
    w.note(seat, f"seat {seat} turns the tile on {where(cell)} back to its resource side")
    w.pending = _less(pending) if pending.left > 1 and restore_entries(player) else None


def end_phase(w: Work) -> None:
    """EndRelocate, EndMove, EndExplore: the optional phase is over (§5.1)."""
    w.pending = None

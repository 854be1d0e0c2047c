"""Completing an achievement (rules spec §5.7 ACHIEVE_SELECT, ACHIEVE_WILD; §8.8-§8.11).

For player X and a face-up board B needing n tiles of resource T: G = X's active tiles
of T holding a member, O = X's other active occupied tiles, w = max(0, n - G) wilds.
Brown: w <= 1 and w <= O; green and orange: G >= 1 and w <= O. The prerequisite route
is ``none`` (brown), ``direct`` (own stone below), ``existing_arrow`` (an arrow from a
board with the own stone) or ``new_arrow(S)`` (the own unused arrow, only when no other
route exists). Resolution: arrow, stone on the leftmost space and its VP, a lightning
space reveals the epoch's top event onto the end of the row, the board's track goes up,
and a first stone turns the board above face up.
"""

from __future__ import annotations

from tribes.games.tribes_early_civilization.data import (
    BOARDS,
    COLUMNS,
    EPOCHS,
    EVENTS,
    TERRAIN_NAME,
    TRACK_MAX,
    TRACK_NAME,
    Board,
    Terrain,
)
from tribes.games.tribes_early_civilization.hexes import Hex, where
from tribes.games.tribes_early_civilization.moves import (
    ChooseAchievement,
    Entry,
    ExhaustWild,
    cell_entry,
    claim_entry,
)
from tribes.games.tribes_early_civilization.rules.common import flip, slot_index
from tribes.games.tribes_early_civilization.rules.work import Work
from tribes.games.tribes_early_civilization.state import (
    Arrow,
    BoardCell,
    BoardSlot,
    Pending,
    Phase,
    Player,
    Route,
    RowKind,
    RowTile,
    State,
)


def genuine_counts(player: Player) -> tuple[list[int], int]:
    """(active occupied tiles per resource, all active occupied tiles): G and G + O."""
    counts = [0] * len(Terrain)
    total = 0
    for tile in player.tiles:
        if tile.members and not tile.exhausted:
            counts[tile.terrain] += 1
            total += 1
    return counts, total


def wilds_needed(player: Player, board: Board) -> int:
    spec = BOARDS[board]
    counts, _ = genuine_counts(player)
    return max(0, spec.count - counts[spec.resource])


def resources_ok(epoch: int, need: int, genuine: int, others: int) -> bool:
    """The resource condition of §5.7 (one tile never counts twice, §8.11)."""
    wild = max(0, need - genuine)
    if epoch == 1:
        return wild <= 1 and wild <= others
    return genuine >= 1 and wild <= others


def find_slot(grid: tuple[BoardSlot, ...], board: Board) -> int:
    """The grid index of ``board`` (it must be on the game board)."""
    for index, slot in enumerate(grid):
        if slot.board is board:
            return index
    raise AssertionError(f"{board.name} is not on the game board")


def routes(state: State | Work, seat: int, slot: BoardSlot) -> list[tuple[Route, Board | None]]:
    """The one route that applies, or the new-arrow variants (§5.7 prerequisite)."""
    epoch, column = slot.epoch, slot.column
    if epoch == EPOCHS[0]:
        return [(Route.NONE, None)]
    grid = state.grid
    if seat in grid[slot_index(epoch - 1, column)].stones:
        return [(Route.DIRECT, None)]
    sources = [
        grid[slot_index(epoch - 1, c)]
        for c in (column - 1, column + 1)
        if 0 <= c < COLUMNS and seat in grid[slot_index(epoch - 1, c)].stones
    ]
    if not sources:
        return []
    linked = [
        arrow.source.column
        for arrow in state.arrows
        if arrow.target.epoch == epoch and arrow.target.column == column
    ]
    if any(s.column in linked for s in sources):
        return [(Route.EXISTING_ARROW, None)]
    if not state.players[seat].arrow_available:
        return []
    return [(Route.NEW_ARROW, s.board) for s in sources]


def claim_entries(state: State | Work, seat: int, *, first_only: bool = False) -> list[Entry]:
    """Every legal ``ChooseAchievement`` (§5.7); ``first_only`` stops at the first."""
    counts, total = genuine_counts(state.players[seat])
    found: list[Entry] = []
    for slot in state.grid:
        if not slot.face_up or seat in slot.stones:
            continue
        spec = BOARDS[slot.board]
        if len(slot.stones) >= len(spec.space_vp):
            continue  # a full board: only a safeguard for changed data (§8.8)
        genuine = counts[spec.resource]
        if not resources_ok(slot.epoch, spec.count, genuine, total - genuine):
            continue
        for route, source in routes(state, seat, slot):
            found.append(claim_entry(slot.board, route, source))
            if first_only:
                return found
    return found


def can_achieve(state: State | Work, seat: int) -> bool:
    """Whether a hand tile may be taken in ``achieve`` mode (§5.2 ``ChooseTile``)."""
    return bool(claim_entries(state, seat, first_only=True))


def apply_claim(w: Work, seat: int, move: ChooseAchievement) -> None:
    """Fix board and route; resolve at once, or first ask for the w wild tiles."""
    wild = wilds_needed(w.players[seat], move.board)
    if wild == 0:
        resolve(w, seat, move.board, move.route, move.arrow_source)
        return
    w.pending = Pending(
        Phase.ACHIEVE_WILD,
        seat,
        left=wild,
        board=move.board,
        route=move.route,
        arrow_source=move.arrow_source,
    )


def wild_entries(player: Player, board: Board) -> list[Entry]:
    """Own active occupied tiles not of the board's resource (§5.7, §10 #14)."""
    resource = BOARDS[board].resource
    return [
        cell_entry(ExhaustWild, t.hex.q, t.hex.r)
        for t in player.tiles
        if t.members and not t.exhausted and t.terrain is not resource
    ]


def apply_wild(w: Work, seat: int, cell: Hex) -> None:
    pending = w.pending
    assert pending is not None and pending.board is not None and pending.route is not None
    player = w.players[seat]
    tile = next(t for t in player.tiles if t.hex.q == cell.q and t.hex.r == cell.r)
    w.set_player(seat, flip(player, cell, exhausted=True))
    name = BOARDS[pending.board].name
    terrain = TERRAIN_NAME[tile.terrain]
    w.note(
        seat, f"seat {seat} exhausts the {terrain} tile on {where(cell)} as a wild tile for {name}"
    )
    if pending.left > 1:
        p = pending
        w.pending = Pending(
            p.phase, p.decider, p.left - 1, 0, p.drawn, 0, p.board, p.route, p.arrow_source
        )
        return
    resolve(w, seat, pending.board, pending.route, pending.arrow_source)


def resolve(w: Work, seat: int, board: Board, route: Route, source: Board | None) -> None:
    """§5.7 automatic resolution, steps 1-6 (step 7, the hand tile, is TURN_END's)."""
    spec = BOARDS[board]
    at = find_slot(w.grid, board)
    slot = w.grid[at]
    player = w.players[seat]
    arrow_available = player.arrow_available
    if route is Route.NEW_ARROW:
        assert source is not None
        origin = w.grid[find_slot(w.grid, source)]
        source_cell = BoardCell(origin.epoch, origin.column)
        w.arrows = (*w.arrows, Arrow(seat, source_cell, BoardCell(slot.epoch, slot.column)))
        arrow_available = False
        w.note(seat, f"seat {seat} lays the arrow from {BOARDS[source].name} to {spec.name}")
    space = len(slot.stones)
    gained = spec.space_vp[space]
    levels = player.levels
    level = min(levels[spec.track] + 1, TRACK_MAX[spec.track])
    levels = (*levels[: spec.track], level, *levels[spec.track + 1 :])
    w.set_player(
        seat,
        Player(
            player.shells, player.vp + gained, player.reserve, arrow_available, levels, player.tiles
        ),
    )
    w.set_slot(at, BoardSlot(slot.epoch, slot.column, slot.board, True, (*slot.stones, seat)))
    track = TRACK_NAME[spec.track]
    w.note(
        seat,
        f"seat {seat} completes {spec.name} on space {space + 1}: +{gained} VP, {track} {level}",
    )
    epoch = slot.epoch
    stack = w.event_stacks[epoch - 1]
    if spec.lightning[space] and stack:
        stacks = w.event_stacks
        w.event_stacks = (*stacks[: epoch - 1], stack[1:], *stacks[epoch:])
        w.sequence = (*w.sequence, RowTile(RowKind.EVENT, None, stack[0], 0))
        w.note(seat, f"lightning: the event {EVENTS[stack[0]].name} joins the action sequence")
    if space == 0 and epoch < EPOCHS[-1]:
        index = slot_index(epoch + 1, slot.column)
        above = w.grid[index]
        if not above.face_up:
            w.set_slot(index, BoardSlot(above.epoch, above.column, above.board, True, above.stones))
            w.note(-1, f"{BOARDS[above.board].name} is turned face up")
    w.pending = None

"""Setup (rules spec §4): every random step from the one seeded PRNG, in the spec's order.

1 the start player by lot; 2 each player's pieces (15 members in reserve, 5 shells,
the arrow, all tracks at 0); 3 the 50 land tiles into the bag; 4 the action sequence;
5 per epoch: shuffle the 5 boards, remove one unseen, lay 4 (brown face up); 6 the three
event stacks; 7 the starting triangles, in turn order, redrawing duplicates; 8 the first
tribe member of each player (the decision ``PlaceFirstMember``), then the start player's
first turn.
"""

from __future__ import annotations

from collections.abc import Mapping

from tribes.engine.rng import Rng
from tribes.games.tribes_early_civilization.data import (
    ACTION_TILES,
    ARROWS,
    BOARDS_OF_EPOCH,
    COLUMNS,
    EPOCHS,
    EVENTS_OF_EPOCH,
    LAND_COUNTS,
    SEAT_BONUS_POSITIONS,
    SEAT_BONUS_VP,
    SHELLS,
    START_TILES,
    TERRAIN_NAME,
    TRACKS,
    TRIBE_MEMBERS,
    Terrain,
)
from tribes.games.tribes_early_civilization.hexes import START_HEXES, Hex, where
from tribes.games.tribes_early_civilization.moves import Entry, PlaceFirstMember, cell_entry
from tribes.games.tribes_early_civilization.options import resolve
from tribes.games.tribes_early_civilization.rules.common import add_members, draw_tiles
from tribes.games.tribes_early_civilization.rules.work import Work
from tribes.games.tribes_early_civilization.state import (
    BoardSlot,
    Pending,
    Phase,
    Player,
    RowKind,
    RowTile,
    State,
    Tile,
)


def _starting_territory(
    rng: Rng, bag: tuple[int, ...]
) -> tuple[tuple[int, ...], list[Terrain], list[Terrain]]:
    """§4 step 7: draw one at a time, keep new types, set duplicates aside, return them.

    Returns (bag after, kept tiles in order, every tile drawn in order).
    """
    kept: list[Terrain] = []
    drawn: list[Terrain] = []
    left = bag
    while len(kept) < START_TILES:
        left, (tile,) = draw_tiles(rng, left, 1)
        drawn.append(tile)
        if tile not in kept:
            kept.append(tile)
    back = list(left)
    for tile in drawn:
        back[tile] += 1
    for tile in kept:
        back[tile] -= 1
    return tuple(back), kept, drawn


def new_game(seats: int, options: Mapping[str, str], seed: int) -> State:
    """A new game for ``seats`` players (§4), fully determined by ``seed``."""
    config = resolve(seats, options)
    rng = Rng(seed)
    start = rng.below(seats)
    order = [(start + i) % seats for i in range(seats)]
    bag: tuple[int, ...] = LAND_COUNTS
    sequence = tuple(
        RowTile(RowKind.ACTION, spec.tile, None, 0) for spec in rng.shuffled(ACTION_TILES)
    )
    grid: list[BoardSlot] = []
    removed = []
    for epoch in EPOCHS:
        boards = rng.shuffled(BOARDS_OF_EPOCH[epoch])
        removed.append(boards[COLUMNS])
        grid.extend(BoardSlot(epoch, c, boards[c], epoch == 1, ()) for c in range(COLUMNS))
    stacks = tuple(rng.shuffled(EVENTS_OF_EPOCH[epoch]) for epoch in EPOCHS)

    territories: dict[int, tuple[Tile, ...]] = {}
    lines: list[tuple[int, str]] = [(start, f"seat {start} is the start player")]
    for seat in order:
        bag, kept, drawn = _starting_territory(rng, bag)
        territories[seat] = tuple(
            Tile(cell, terrain, False, 0) for cell, terrain in zip(START_HEXES, kept, strict=True)
        )
        names = ", ".join(TERRAIN_NAME[t] for t in drawn)
        keeps = ", ".join(TERRAIN_NAME[t] for t in kept)
        lines.append((seat, f"seat {seat} drew {names} and keeps {keeps}"))

    bonus = {order[i] for i in SEAT_BONUS_POSITIONS if i < seats} if config.seat_bonus_vp else set()
    players = tuple(
        Player(
            shells=SHELLS,
            vp=SEAT_BONUS_VP if seat in bonus else 0,
            reserve=TRIBE_MEMBERS,
            arrow_available=ARROWS > 0,
            levels=(0,) * len(TRACKS),
            tiles=territories[seat],
        )
        for seat in range(seats)
    )
    state = State(
        config=config,
        round=1,
        turn_count=0,
        start_player=start,
        current=start,
        players=players,
        sequence=sequence,
        grid=tuple(grid),
        removed_boards=tuple(removed),
        arrows=(),
        event_stacks=stacks,
        executed_orange=(),
        boxed_events=(),
        bag=bag,
        taken=None,
        event=None,
        queue=(),
        pending=Pending(Phase.SETUP_FIRST_MEMBER, start),
        end_triggered=False,
        capped=False,
        final=None,
        log=(),
        rng=rng.state,
    )
    work = Work(state)
    for seat, text in lines:
        work.note(seat, text)
    return work.freeze()


def first_member_entries(state: State, seat: int) -> list[Entry]:
    """§4 step 8: any of the three start tiles."""
    tiles = state.players[seat].tiles
    return [cell_entry(PlaceFirstMember, t.hex.q, t.hex.r) for t in tiles]


def apply_first_member(w: Work, seat: int, cell: Hex) -> None:
    """Place the first member; the next seat in turn order, or the first turn (§4 step 9)."""
    w.set_player(seat, add_members(w.players[seat], cell, 1))
    w.note(seat, f"seat {seat} places a first tribe member on {where(cell)}")
    following = (seat + 1) % w.seats
    phase = Phase.TURN_CHOOSE_TILE if following == w.start_player else Phase.SETUP_FIRST_MEMBER
    w.pending = Pending(phase, following)

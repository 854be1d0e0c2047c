"""Consistency checks run after every move of the random playouts (rules spec §5.1, §8).

Conservation: 50 land tiles (bag, territories, drawn tiles in hand), 15 tribe members
per player (reserve + board, at least one on the board once placed), the shells, the
24 event tiles, the 15 boards, the 6 action tiles. Bounds: every marker within its
track, at most one stone per player per board, arrows one per player on diagonal
links. Bookkeeping: face-up boards, the end trigger, the pending decision, and a
recount of the final scores.

States are immutable and ``apply`` keeps unchanged parts by identity, so a part that
passed its checks once (a player, the board grid, the event tiles) is not checked
again while the same object comes back: the checks stay cheap enough for every move.
"""

from __future__ import annotations

from operator import is_
from typing import Any

from tribes.games.tribes_early_civilization.data import (
    BOARDS,
    EVENTS,
    FINAL_EPOCH,
    LAND_COUNTS,
    LOG_LIMIT,
    MARKING_STONES,
    SHELLS,
    START_CELLS,
    TRACK_MAX,
    TRIBE_MEMBERS,
    ActionTile,
    Board,
    Event,
)
from tribes.games.tribes_early_civilization.rules.common import slot_index
from tribes.games.tribes_early_civilization.rules.scoring import final_scores
from tribes.games.tribes_early_civilization.state import Phase, Player, RowKind, State

ALL_ACTION_TILES = list(ActionTile)
ALL_BOARDS = list(Board)
ALL_EVENTS = list(Event)

#: Phases with a fixed count that end by themselves after the last move (§5.1).
_COUNTED = frozenset(
    {
        Phase.PROCREATE_PLACE,
        Phase.PROCREATE_RELOCATE,
        Phase.MOVE_STEPS,
        Phase.EXPLORE_PLACE,
        Phase.EXPLORE_RESTORE,
        Phase.ACHIEVE_WILD,
        Phase.EVENT_PLACE_MEMBER,
        Phase.EVENT_LOSE_MEMBER,
        Phase.EVENT_EXHAUST,
    }
)
_EVENT_ONLY = frozenset({Phase.EVENT_PLACE_MEMBER, Phase.EVENT_LOSE_MEMBER, Phase.EVENT_EXHAUST})

_PLAYERS: dict[int, tuple[Player, tuple[int, ...], int]] = {}
_LIMIT = 256
#: The parts the last state's shared checks passed with (the next state mostly shares them).
_LAST: dict[str, tuple[Any, ...]] = {}


def _passed(name: str, parts: tuple[Any, ...]) -> bool:
    """True when these very objects passed check ``name`` last time."""
    last = _LAST.get(name)
    return last is not None and all(map(is_, last, parts))


def check_invariants(state: State) -> None:
    """Raise AssertionError if ``state`` breaks a rule-level invariant."""
    land = list(state.bag)
    assert min(land) >= 0, "bag counts are never negative"
    pending = state.pending
    if pending is not None:
        assert min(pending.drawn) >= 0
        for terrain, count in enumerate(pending.drawn):
            land[terrain] += count
    shells = 0
    for tile in state.sequence:
        shells += tile.shells
    owners = [arrow.owner for arrow in state.arrows]
    for seat, player in enumerate(state.players):
        known = _PLAYERS.get(id(player))
        if known is None or known[0] is not player:
            if len(_PLAYERS) >= _LIMIT:
                _PLAYERS.clear()
            counts, on_board = _check_player(player)
            _PLAYERS[id(player)] = (player, counts, on_board)
        else:
            counts, on_board = known[1], known[2]
        for terrain in range(5):
            land[terrain] += counts[terrain]
        shells += player.shells
        _check_placed(state, seat, on_board)
        assert player.arrow_available == (seat not in owners), "arrow used iff on the board"
    assert tuple(land) == LAND_COUNTS, f"50 land tiles conserved: {land}"
    assert shells == SHELLS * state.seats, "shells are a closed economy (§8.13)"
    row = (state.sequence, state.taken)
    if not _passed("row", row):
        _check_row(*row)
        _LAST["row"] = row
    boards = (state.grid, state.removed_boards, state.arrows)
    if not _passed("boards", boards):
        _check_boards(*boards)
        _LAST["boards"] = boards
    events = (
        state.event_stacks,
        state.sequence,
        state.boxed_events,
        state.executed_orange,
        state.event,
        state.config,
        state.end_triggered,
    )
    if not _passed("events", events):
        _check_events(*events)
        _LAST["events"] = events
    _check_flow(state)


def _check_player(player: Player) -> tuple[tuple[int, ...], int]:
    """One territory and holdings; returns (tiles per terrain, members on the board)."""
    tiles = player.tiles
    cells = {(t.hex.q, t.hex.r) for t in tiles}
    assert len(cells) == len(tiles), "one tile per cell"
    assert tuple((t.hex.q, t.hex.r) for t in tiles[:3]) == START_CELLS, "start triangle first"
    counts = [0, 0, 0, 0, 0]
    on_board = 0
    for index, tile in enumerate(tiles):
        counts[tile.terrain] += 1
        assert tile.members >= 0, "member counts are never negative"
        on_board += tile.members
        if index >= 3:
            q, r = tile.hex.q, tile.hex.r
            assert (
                (q + 1, r) in cells
                or (q + 1, r - 1) in cells
                or (q, r - 1) in cells
                or (q - 1, r) in cells
                or (q - 1, r + 1) in cells
                or (q, r + 1) in cells
            ), "every laid tile touches the territory"
    assert 0 <= player.reserve <= TRIBE_MEMBERS, "the reserve is 0..15"
    assert player.reserve + on_board == TRIBE_MEMBERS, "15 tribe members per player"
    assert player.shells >= 0 and player.vp >= 0, "no negative shells or bear teeth"
    for level, top in zip(player.levels, TRACK_MAX, strict=True):
        assert 0 <= level <= top, "progress markers stay on their tracks"
    return tuple(counts), on_board


def _check_placed(state: State, seat: int, on_board: int) -> None:
    """At least one member on the board, except for seats still to place their first."""
    pending = state.pending
    if pending is not None and pending.phase is Phase.SETUP_FIRST_MEMBER:
        start, seats = state.start_player, state.seats
        done = (seat - start) % seats < (pending.decider - start) % seats
        assert on_board == (1 if done else 0), "one first member per placed seat"
    else:
        assert on_board >= 1, f"seat {seat}: at least one member on the board"


def _check_row(sequence: tuple[Any, ...], taken: ActionTile | None) -> None:
    actions = [] if taken is None else [taken]
    for tile in sequence:
        assert tile.shells >= 0, "shells on a tile are never negative"
        if tile.kind is RowKind.ACTION:
            assert tile.event is None and tile.action is not None
            actions.append(tile.action)
        else:
            assert tile.action is None and tile.event is not None
    assert sorted(actions) == ALL_ACTION_TILES, "the 6 action tiles: in the row or taken"


def _check_boards(
    grid: tuple[Any, ...], removed: tuple[Board, ...], arrows: tuple[Any, ...]
) -> None:
    assert sorted([slot.board for slot in grid] + list(removed)) == ALL_BOARDS, "15 boards"
    stones = [0] * 4
    for index, slot in enumerate(grid):
        spec = BOARDS[slot.board]
        assert slot_index(slot.epoch, slot.column) == index, "grid position"
        assert spec.epoch == slot.epoch, "a board lies in its own epoch"
        placed = slot.stones
        assert len(set(placed)) == len(placed), "one stone per player per board"
        assert len(placed) <= len(spec.space_vp), "stones fit the spaces"
        if slot.epoch == 1:
            assert slot.face_up, "brown boards lie face up"
        else:
            below = grid[index - 4]
            assert slot.face_up == bool(below.stones), "face up once the board below has one"
        for seat in placed:
            stones[seat] += 1
    assert max(stones) <= MARKING_STONES, "12 marking stones per player"
    for epoch, board in enumerate(removed, 1):
        assert BOARDS[board].epoch == epoch, "one removed board per epoch"
    owners = [arrow.owner for arrow in arrows]
    assert len(set(owners)) == len(owners), "one arrow per player"
    for arrow in arrows:
        source, target = arrow.source, arrow.target
        assert target.epoch == source.epoch + 1 and abs(target.column - source.column) == 1
        assert arrow.owner in grid[slot_index(source.epoch, source.column)].stones
        assert grid[slot_index(target.epoch, target.column)].face_up, "arrow to a face-up board"


def _check_events(
    stacks: tuple[tuple[Event, ...], ...],
    sequence: tuple[Any, ...],
    boxed: tuple[Event, ...],
    executed: tuple[Event, ...],
    event: Event | None,
    config: Any,
    end_triggered: bool,
) -> None:
    every = [t.event for t in sequence if t.kind is RowKind.EVENT]
    every += boxed
    every += executed
    for epoch, stack in enumerate(stacks, 1):
        for e in stack:
            assert EVENTS[e].epoch == epoch, "a stack holds its epoch's events"
        every += stack
    if event is not None:
        every.append(event)
    assert sorted(every) == ALL_EVENTS, "24 event tiles, each in one place"
    for e in boxed:
        assert EVENTS[e].epoch != FINAL_EPOCH, "orange events are never boxed"
    for e in executed:
        assert EVENTS[e].epoch == FINAL_EPOCH, "only orange events are displayed as executed"
    reached = len(executed) >= config.end_threshold
    assert end_triggered == reached, "the end is triggered exactly at the threshold"


def _check_flow(state: State) -> None:
    pending = state.pending
    assert len(state.log) <= LOG_LIMIT, "the log keeps the most recent lines"
    assert state.round >= 1 and 0 <= state.turn_count <= state.config.turn_cap
    if state.final is not None:
        assert pending is None and state.event is None and state.taken is None
        assert state.final == final_scores(state), "final scores match a recount"
        assert state.capped or state.end_triggered, "a game ends by its trigger or the cap"
        return
    assert pending is not None, "a running game has a pending decision"
    assert 0 <= pending.decider < state.seats
    assert not state.capped, "the cap only ever ends a game"
    phase = pending.phase
    if phase in _COUNTED:
        assert pending.left > 0, "a counted phase has moves left"
    if phase is Phase.EXPLORE_PLACE:
        assert sum(pending.drawn) == pending.left, "drawn tiles are placed one by one"
    else:
        assert not any(pending.drawn), "drawn tiles exist only while placing them"
    if phase is Phase.ACHIEVE_WILD:
        assert pending.board is not None and pending.route is not None
    if phase in _EVENT_ONLY or state.queue:
        assert state.event is not None, "event sub-phases belong to an event"
    if phase is Phase.TURN_CHOOSE_TILE or phase is Phase.SETUP_FIRST_MEMBER:
        assert state.event is None and state.taken is None and not state.queue
        assert pending.decider == state.current or phase is Phase.SETUP_FIRST_MEMBER
    if state.event is not None:
        assert state.taken is None, "an event tile is the whole turn (§8.12)"

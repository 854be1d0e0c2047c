"""Builders of small test states in the spec's notation (rules spec §9 conventions).

``territory("(0,0):GOAT[1] (1,0):WHEAT*[0] (0,1):GOLD[0]")`` is a territory (``*`` marks an
exhausted tile); ``row("A_PROCREATE(0) EV1_BEAR(1)")`` an action sequence. ``build`` makes
a whole state: everything a test names is set, the rest comes from a seeded setup and is
made consistent (reserve = 15 - members on the board, the bag holds the tiles no
territory holds, boards turn face up above a stone, event stacks hold every event not
elsewhere, shells not named make up the 5 per player), so the invariants hold unless a
test rigs something on purpose. ``do`` plays moves by key through the driver.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import replace
from typing import Any

import pytest

from tribes.engine import IllegalMoveError
from tribes.engine.driver import find_move, play
from tribes.games.tribes_early_civilization import GAME
from tribes.games.tribes_early_civilization.data import (
    BOARDS_OF_EPOCH,
    COLUMNS,
    EPOCHS,
    EVENTS_OF_EPOCH,
    LAND_COUNTS,
    SHELLS,
    TRIBE_MEMBERS,
    ActionTile,
    Board,
    Event,
    Terrain,
    Track,
)
from tribes.games.tribes_early_civilization.hexes import Hex, hex_at
from tribes.games.tribes_early_civilization.invariants import check_invariants
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

_TILE = re.compile(r"\((-?\d+),(-?\d+)\):([A-Z]+)(\*?)\[(\d+)\]")
_ROW = re.compile(r"([A-Z0-9_]+)\((\d+)\)")
_LEVEL = {"P": Track.PROCREATION, "E": Track.EXPLORATION, "M": Track.MOVEMENT, "S": Track.STRENGTH}


def h(q: int, r: int) -> Hex:
    return hex_at(q, r)


def territory(text: str) -> tuple[Tile, ...]:
    """Tiles from ``(q,r):TERRAIN[members]`` items (``*`` after the terrain: exhausted)."""
    tiles = tuple(
        Tile(hex_at(int(q), int(r)), Terrain[name], bool(star), int(members))
        for q, r, name, star, members in _TILE.findall(text)
    )
    assert len(tiles) == len(text.split()), f"unreadable territory: {text!r}"
    return tiles


def row(text: str) -> tuple[RowTile, ...]:
    """An action sequence from ``ID(shells)`` items, e.g. ``A_MOVE(1) EV1_BEAR(0)``."""
    out = []
    for name, shells in _ROW.findall(text):
        if name in ActionTile.__members__:
            out.append(RowTile(RowKind.ACTION, ActionTile[name], None, int(shells)))
        else:
            out.append(RowTile(RowKind.EVENT, None, Event[name], int(shells)))
    assert len(out) == len(text.split()), f"unreadable sequence: {text!r}"
    return tuple(out)


def levels(text: str) -> tuple[int, ...]:
    """``"P2 E1 M0 S3"`` (tracks not named stay at 0)."""
    out = [0, 0, 0, 0]
    for part in text.split():
        out[_LEVEL[part[0]]] = int(part[1:])
    return tuple(out)


def _grid(
    base: State, placed: Mapping[tuple[int, int], str], stones: Mapping[str, Iterable[int]]
) -> tuple[tuple[BoardSlot, ...], tuple[Board, ...]]:
    grid: list[BoardSlot] = []
    removed: list[Board] = []
    for epoch in EPOCHS:
        named = {c: Board[placed[(e, c)]] for (e, c) in placed if e == epoch}
        rest = [b for b in BOARDS_OF_EPOCH[epoch] if b not in named.values()]
        if not named:  # keep the seeded layout of an epoch the test does not name
            rest = [base.grid[(epoch - 1) * COLUMNS + c].board for c in range(COLUMNS)]
            rest.append(base.removed_boards[epoch - 1])
        for column in range(COLUMNS):
            board = named[column] if column in named else rest.pop(0)
            on = tuple(stones.get(board.name, ()))
            grid.append(BoardSlot(epoch, column, board, epoch == 1, on))
        removed.append(rest[0])
    for index in range(COLUMNS, len(grid)):  # face up once the board below has a stone
        slot, below = grid[index], grid[index - COLUMNS]
        grid[index] = replace(slot, face_up=bool(below.stones))
    return tuple(grid), tuple(removed)


def build(
    *,
    seats: int = 3,
    start: int = 0,
    current: int | None = None,
    players: Mapping[int, Mapping[str, Any]] | None = None,
    sequence: str | None = None,
    boards: Mapping[tuple[int, int], str] | None = None,
    stones: Mapping[str, Iterable[int]] | None = None,
    stacks: Mapping[int, str] | None = None,
    bag: Mapping[str, int] | None = None,
    pending: Pending | None = None,
    options: Mapping[str, str] | None = None,
    **fields: Any,
) -> State:
    """A consistent state; ``players[seat]`` may give ``tiles`` (territory text), ``shells``,
    ``vp``, ``levels`` (text), ``reserve`` and ``arrow`` (available)."""
    base = GAME.new_game(seats, dict(options or {}), 1)
    people: list[Player] = []
    named_shells = 0
    free_seats = []
    for seat in range(seats):
        spec = dict((players or {}).get(seat, {}))
        if "tiles" in spec:
            tiles = territory(spec["tiles"])
        else:
            first = base.players[seat].tiles
            tiles = (replace(first[0], members=1), *first[1:])
        on_board = sum(t.members for t in tiles)
        if "shells" in spec:
            named_shells += spec["shells"]
        else:
            free_seats.append(seat)
        people.append(
            Player(
                shells=spec.get("shells", SHELLS),
                vp=spec.get("vp", 0),
                reserve=spec.get("reserve", TRIBE_MEMBERS - on_board),
                arrow_available=spec.get("arrow", True),
                levels=levels(spec.get("levels", "")),
                tiles=tiles,
            )
        )
    the_row = base.sequence if sequence is None else row(sequence)
    on_row = sum(t.shells for t in the_row)
    missing = SHELLS * seats - on_row - named_shells - SHELLS * len(free_seats)
    if free_seats and people[free_seats[0]].shells + missing >= 0:
        first_free = people[free_seats[0]]
        people[free_seats[0]] = replace(first_free, shells=first_free.shells + missing)

    grid, removed = _grid(base, boards or {}, stones or {})
    in_row = {t.event for t in the_row if t.event is not None}
    elsewhere = (
        in_row | set(fields.get("boxed_events", ())) | set(fields.get("executed_orange", ()))
    )
    event_stacks = []
    for epoch in EPOCHS:
        top = [Event[name] for name in (stacks or {}).get(epoch, "").split()]
        rest = [e for e in EVENTS_OF_EPOCH[epoch] if e not in top and e not in elsewhere]
        event_stacks.append(tuple(top + rest))

    if bag is None:
        counts = list(LAND_COUNTS)
        for player in people:
            for tile in player.tiles:
                counts[tile.terrain] -= 1
        the_bag = tuple(counts)
    else:
        the_bag = tuple(bag.get(t.name, 0) for t in Terrain)

    who = start if current is None else current
    state = replace(
        base,
        start_player=start,
        current=who,
        players=tuple(people),
        sequence=the_row,
        grid=grid,
        removed_boards=removed,
        event_stacks=tuple(event_stacks),
        bag=the_bag,
        pending=pending if pending is not None else Pending(Phase.TURN_CHOOSE_TILE, who),
        log=(),
    )
    return replace(state, **fields) if fields else state


def keys(state: State, seat: int | None = None) -> list[str]:
    """The legal move keys of ``seat`` (default: the one to act)."""
    if seat is None:
        (seat,) = GAME.to_act(state)
    return [m.key for m in GAME.legal_moves(state, seat)]


def refused(state: State, key: str) -> str:
    """The message of the IllegalMoveError that refuses ``key`` for whoever is to act; the
    state stays as it was."""
    before = GAME.encode(state)
    (seat,) = GAME.to_act(state)
    with pytest.raises(IllegalMoveError) as refusal:
        find_move(GAME, state, seat, key)
    assert GAME.encode(state) == before
    return refusal.value.message


def do(state: State, *moves: str, invariants: bool = True) -> State:
    """Play moves by key for whoever is to act, each checked by the driver."""
    for key in moves:
        (seat,) = GAME.to_act(state)
        state = play(GAME, state, seat, find_move(GAME, state, seat, key))
        if invariants:
            check_invariants(state)
    return state


def tile(state: State, seat: int, q: int, r: int) -> Tile:
    """The tile of ``seat`` on ``(q, r)``."""
    for t in state.players[seat].tiles:
        if (t.hex.q, t.hex.r) == (q, r):
            return t
    raise AssertionError(f"seat {seat} has no tile on ({q},{r})")


def slot_of(state: State, board: str) -> BoardSlot:
    return next(slot for slot in state.grid if slot.board is Board[board])


def row_text(state: State) -> str:
    """The sequence in the spec's notation, e.g. ``A_MOVE(1) EV1_BEAR(0)``."""
    parts = []
    for t in state.sequence:
        name = (
            t.action.name if t.action is not None else t.event.name if t.event is not None else ""
        )
        parts.append(f"{name}({t.shells})")
    return " ".join(parts)

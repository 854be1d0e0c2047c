"""Step 4: conflict resolution, hex by hex in the active player's order (spec §5.6, §8.4-§8.10).

The conflict hexes are computed once after both dice are used: tribe members above the
limit (4 under Drought) and nothing else counts. For each hex: its starting sides are
recorded, then (house) Evasion, the Bow, (house) Intimidate, Walls, the simultaneous
rounds (invader tokens are one side), the trim of a single remaining colour, and the
aftermath (deserted villages, Raiders, the invaders' defeat). C1 runs on every removal
through the board.
"""

from __future__ import annotations

from dataclasses import replace

from tribes.games.rise_of_tribes.cards import Event, Goal
from tribes.games.rise_of_tribes.data import DROUGHT_LIMIT, HEX_LIMIT, INVADERS_VP, Power
from tribes.games.rise_of_tribes.maps import geometry
from tribes.games.rise_of_tribes.moves import (
    SKIP_BOW,
    SKIP_EVADE,
    SKIP_WALLS,
    USE_WALLS,
    ChooseConflictHex,
    Evade,
    Move,
    UseBow,
)
from tribes.games.rise_of_tribes.rules import goals
from tribes.games.rise_of_tribes.rules.board import Board
from tribes.games.rise_of_tribes.rules.query import has_majority, invaders_at
from tribes.games.rise_of_tribes.state import NOBODY, Conflict, State, Step


def start(b: Board) -> None:
    """``conflict_hexes`` = hexes whose tribe members exceed the limit (§5.6)."""
    limit = b.limit()
    hexes = tuple(h for h in range(b.geo.size) if sum(b.members[h]) > limit)
    if not hexes:
        goals.start(b)
        return
    b.conflict = Conflict(hexes, NOBODY, (), False, ())
    _next_hex(b)


def _next_hex(b: Board) -> None:
    c = b.conflict
    assert c is not None
    if not c.remaining:
        b.conflict = None
        goals.start(b)
        return
    if len(c.remaining) == 1:
        begin_hex(b, c.remaining[0])
        return
    b.conflict = replace(c, hex=NOBODY, start_sides=(), invaders_at_start=False, waiting=())
    b.ask(Step.CHOOSE_CONFLICT, b.active)


def choose_moves(state: State) -> list[Move]:
    c = state.conflict
    assert c is not None
    hexes = geometry(state.seats).hexes
    return [ChooseConflictHex(hexes[h]) for h in c.remaining]


def begin_hex(b: Board, h: int) -> None:
    """Step 2: the starting sides; then (house) Evasion by each defender who has it."""
    c = b.conflict
    assert c is not None
    row = b.members[h]
    sides = tuple(s for s in range(b.n) if row[s])
    invaded = invaders_at(b.invader_hex, b.invaders, h) > 0
    evaders = tuple(
        s for s in b.order_from(b.active)[1:] if row[s] and b.has_power(s, Power.EVASION)
    )
    remaining = tuple(x for x in c.remaining if x != h)
    b.conflict = Conflict(remaining, h, sides, invaded, evaders)
    b.log(f"conflict in {b.geo.hexes[h].text}")
    _evasion(b)


def _evasion(b: Board) -> None:
    c = b.conflict
    assert c is not None
    if c.waiting:
        b.ask(Step.EVADE, c.waiting[0])
        return
    _bow(b)


def evade_moves(state: State) -> list[Move]:
    """(house) To one adjacent hex that stays within the limit with them (§3.5)."""
    c = state.conflict
    assert c is not None
    geo = geometry(state.seats)
    limit = hex_limit(state)
    own = state.members[c.hex][state.actor]
    moves: list[Move] = [
        Evade(geo.hexes[to], n)
        for to in geo.neighbours[c.hex]
        for n in range(1, min(2, own) + 1)
        if sum(state.members[to]) + n <= limit
    ]
    moves.append(SKIP_EVADE)
    return moves


def apply_evade(b: Board, to: int | None, count: int) -> None:
    c = b.conflict
    assert c is not None
    seat = c.waiting[0]
    if to is not None:
        b.take(c.hex, seat, count, to_supply=False)
        b.put(to, seat, count, from_supply=False)
        b.log(f"seat {seat} evades with {count} to {b.geo.hexes[to].text}")
    b.conflict = replace(c, waiting=c.waiting[1:])
    _evasion(b)


def hex_limit(state: State) -> int:
    """The hex limit of a frozen state (4 while Drought is in a slot, §3.7 E3)."""
    drought = any(s is not None and s.event is Event.DROUGHT for s in state.slots)
    return DROUGHT_LIMIT if drought else HEX_LIMIT


def _bow(b: Board) -> None:
    """Step 3: the active player's Bow, if an opponent member is there (§8.8)."""
    c = b.conflict
    assert c is not None
    seat = b.active
    row = b.members[c.hex]
    if Goal.BOW in b.players[seat].completed and sum(row) - row[seat] > 0:
        b.ask(Step.BOW, seat)
        return
    _after_bow(b)


def bow_moves(state: State) -> list[Move]:
    c = state.conflict
    assert c is not None
    row = state.members[c.hex]
    targets: list[Move] = [UseBow(s) for s in range(state.seats) if s != state.active and row[s]]
    return [*targets, SKIP_BOW]


def apply_bow(b: Board, target: int | None) -> None:
    c = b.conflict
    assert c is not None
    if target is not None:
        b.remove(c.hex, target, 1)
        b.log(f"seat {b.active}'s bow removes a member of seat {target}")
    _after_bow(b)


def _after_bow(b: Board) -> None:
    """(house) Intimidate, then Walls owners in seat order after the active player."""
    c = b.conflict
    assert c is not None
    seat, h = b.active, c.hex
    row = b.members[h]
    if b.has_power(seat, Power.INTIMIDATE) and has_majority(
        row, invaders_at(b.invader_hex, b.invaders, h), seat
    ):
        for other in [s for s in range(b.n) if s != seat and row[s]]:
            b.remove(h, other, 1)
    walls = tuple(
        s
        for s in b.order_from(seat)[1:]
        if Event.WALLS in b.players[s].owned_events and b.villages[h] == s
    )
    b.conflict = replace(c, waiting=walls)
    _walls(b)


def _walls(b: Board) -> None:
    c = b.conflict
    assert c is not None
    if c.waiting and b.members[c.hex][b.active]:
        b.ask(Step.WALLS, c.waiting[0])
        return
    _rounds(b)


def walls_moves(state: State) -> list[Move]:
    return [USE_WALLS, SKIP_WALLS]


def apply_walls(b: Board, use: bool) -> None:
    c = b.conflict
    assert c is not None
    if use:
        b.remove(c.hex, b.active, 1)
        b.log(f"seat {c.waiting[0]}'s walls remove a member of seat {b.active}")
    b.conflict = replace(c, waiting=c.waiting[1:])
    _walls(b)


def _rounds(b: Board) -> None:
    """Steps 5-7: simultaneous rounds, trim, aftermath; then the next hex."""
    c = b.conflict
    assert c is not None
    h, limit = c.hex, b.limit()
    while True:
        row = b.members[h]
        sides = [s for s in range(b.n) if row[s]]
        invaders = invaders_at(b.invader_hex, b.invaders, h)
        if len(sides) + (invaders > 0) < 2:
            break
        for s in sides:
            b.remove(h, s, 1)
        if invaders:
            b.invaders -= 1
    row = b.members[h]
    sides = [s for s in range(b.n) if row[s]]
    if len(sides) == 1 and row[sides[0]] > limit:
        b.remove(h, sides[0], row[sides[0]] - limit)
    owner = b.villages[h]
    if owner != NOBODY and not b.members[h][owner]:
        b.destroy_village(h)  # (house) Hidden Village falls here, and only here
    if c.invaders_at_start and not invaders_at(b.invader_hex, b.invaders, h):
        b.discard_slot(b.slot_of(Event.INVADERS))
        b.log("the invaders are defeated")
        if b.active in c.start_sides:
            b.award(b.active, INVADERS_VP, source="events")
    _next_hex(b)


def apply_choose(b: Board, h: int) -> None:
    begin_hex(b, h)

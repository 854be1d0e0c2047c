"""Questions about a position, asked by legal moves and automatic steps alike (spec §3.6, §5).

The functions take the pieces they read (member rows, terrain, the volcano), so they
work on the frozen ``State`` and on the working ``Board``: hex-control terms (§3.6),
move reach (§5.5, G26), what a hex yields on GATHER (G27), least-populated placements
(G24) and the achievement conditions (§3.6 A1-A8).
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache

from tribes.games.rise_of_tribes.cards import Event, Goal
from tribes.games.rise_of_tribes.data import (
    ACTION_POWER,
    PRODUCES,
    Action,
    Power,
    Resource,
    Terrain,
    Tier,
)
from tribes.games.rise_of_tribes.maps import Hex, geometry
from tribes.games.rise_of_tribes.state import NOBODY, Player, Slot, State

Row = Sequence[int]  # the members of each seat in one hex
_STONE_ONLY = (Resource.STONE,)


def action_power(action: Action, tier: Tier, player: Player, slots: Sequence[Slot | None]) -> int:
    """An action's power for ``player`` at ``tier`` (§5.5): the tier's printed value, GROW
    +1 with Fire, +2 while Mild Winter is in a slot and (house) +1 with Farming; MOVE (house)
    +1 with Pathfinder; LEAD +1 with Cave Painting. GATHER has no bonus."""
    power = ACTION_POWER[action][tier]
    if action is Action.GROW:
        power += (Goal.FIRE in player.completed) + (player.power is Power.FARMING)
        power += 2 * any(slot is not None and slot.event is Event.MILD_WINTER for slot in slots)
    elif action is Action.MOVE:
        power += player.power is Power.PATHFINDER
    elif action is Action.LEAD:
        power += Goal.CAVE_PAINTING in player.completed
    return power


def opponents_in(row: Row, seat: int) -> int:
    """Members of other players in a hex (invader tokens are never opponents, §3.6)."""
    return sum(row) - row[seat]


def has_majority(row: Row, invaders: int, seat: int) -> bool:
    """Majority: own members > other players' members + invader tokens (§3.6, R tokens)."""
    own = row[seat]
    return own > 0 and own > sum(row) - own + invaders


def has_control(row: Row, invaders: int, seat: int) -> bool:
    """Control: >= 1 own member and nobody else, no invader tokens (§3.6)."""
    own = row[seat]
    return own > 0 and own == sum(row) and invaders == 0


def invaders_at(invader_hex: int, invaders: int, h: int) -> int:
    return invaders if h == invader_hex else 0


@lru_cache(maxsize=64)
def volcano_neighbours(seats: int, volcano: Hex | None) -> frozenset[int]:
    """Map hexes next to the volcano tile (none before it is placed)."""
    if volcano is None:
        return frozenset()
    return frozenset(geometry(seats).site_neighbours[volcano])


def gather_types(terrain: Terrain, near_volcano: bool) -> tuple[Resource, ...]:
    """What a GATHER may take from a hex: its own resource, or stone next to the volcano."""
    own = PRODUCES[terrain]
    if near_volcano and own is not Resource.STONE:
        return (own, Resource.STONE)
    return (own,) if own is not Resource.STONE else _STONE_ONLY


def least_populated(
    members: Sequence[Row], invader_hex: int, invaders: int, candidates: Sequence[int]
) -> list[int]:
    """Candidates of minimal placement population: members + invader tokens (G24)."""
    populations = [sum(members[h]) + invaders_at(invader_hex, invaders, h) for h in candidates]
    if not populations:
        return []
    low = min(populations)
    return [h for h, pop in zip(candidates, populations, strict=True) if pop == low]


@lru_cache(maxsize=512)
def reach_table(
    seats: int, terrain: tuple[Terrain, ...], extra: int, canoe: bool
) -> tuple[tuple[int, ...], ...]:
    """``Reach(from)`` for every hex (§5.5, G26), destinations ascending.

    A path's intermediate hexes count one each, except lakes with the Dugout Canoe; at
    most ``extra`` counted intermediates are allowed (Oxen, Wayfarers).
    """
    geo = geometry(seats)
    table = []
    for start in range(geo.size):
        # cheapest count of intermediates to stand on each hex as an intermediate
        best = {start: 0}
        frontier = [start]
        while frontier:
            nxt = []
            for here in frontier:
                for y in geo.neighbours[here]:
                    if y == start:
                        continue
                    cost = best[here] + (0 if canoe and terrain[y] is Terrain.LAKE else 1)
                    if cost <= extra and cost < best.get(y, extra + 1):
                        best[y] = cost
                        nxt.append(y)
            frontier = nxt
        reached: set[int] = set()
        for via in best:
            reached.update(geo.neighbours[via])
        reached.discard(start)
        table.append(tuple(sorted(reached)))
    return tuple(table)


# -- achievements (§3.6) --------------------------------------------------------------------------


def _majority_group(state: State, seat: int) -> bool:
    """A2: three connected hexes, each with the seat's Majority (any shape, §8.14)."""
    geo = geometry(state.seats)
    inv_hex, inv = state.invader_hex, state.invaders
    won = {
        h
        for h, row in enumerate(state.members)
        if has_majority(row, invaders_at(inv_hex, inv, h), seat)
    }
    if len(won) < 3:
        return False
    seen: set[int] = set()
    for first in won:
        if first in seen:
            continue
        group = [first]
        seen.add(first)
        for h in group:
            for n in geo.neighbours[h]:
                if n in won and n not in seen:
                    seen.add(n)
                    group.append(n)
        if len(group) >= 3:  # a connected group of >= 3 holds a connected 3
            return True
    return False


def achievement_met(state: State, seat: int, goal: Goal) -> bool:
    """Whether ``seat`` meets an achievement's condition now (§3.6 table)."""
    members = state.members
    if goal is Goal.BOUNTIFUL_HARVEST:
        return state.turn is not None and state.turn.gathered >= 6
    if goal is Goal.NEIGHBOURING_LANDS:
        return _majority_group(state, seat)
    if goal is Goal.WANDERERS:
        kinds = {state.terrain[h] for h, row in enumerate(members) if row[seat]}
        return len(kinds) == 3
    if goal is Goal.DOMINION:
        controlled: list[Terrain] = []
        for h, row in enumerate(members):
            if has_control(row, invaders_at(state.invader_hex, state.invaders, h), seat):
                controlled.append(state.terrain[h])
        return any(controlled.count(t) >= 2 for t in set(controlled))
    if goal is Goal.SETTLERS:
        return state.villages.count(seat) >= 2
    if goal is Goal.GREAT_TRIBE:
        return sum(row[seat] for row in members) >= 12
    if goal is Goal.RAIDERS:
        return state.turn is not None and state.turn.raided
    if goal is Goal.EXPANSION:
        return sum(1 for row in members if row[seat]) >= 6
    raise ValueError(f"{goal} is not an achievement")


def owns_goal(state: State, seat: int, goal: Goal) -> bool:
    return goal in state.players[seat].completed


def hex_of(state: State, coord: Hex) -> int:
    """The id of a map hex, or NOBODY for a coordinate off the map."""
    return geometry(state.seats).index.get(coord, NOBODY)

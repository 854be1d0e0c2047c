"""Moves: one small frozen value per decision of the move catalogue (rules spec §5.2).

Every move has a canonical ``key`` (lowercase ASCII, no spaces) that doubles as its
public move id; ``parse_move`` inverts it exactly and refuses anything else. Moves are
frozen dataclasses without slots so that the key is computed once per move value
(``cached_property``; it is not a field, so equality, hashing and the fields a mapper
sees are the decision's parameters only). Cells are
written ``q,r`` (``-1,2``), terrains and boards by their lowercase ids.

=====================  ====================================  ==========================
move                   key                                   phase (§5.1)
=====================  ====================================  ==========================
PlaceFirstMember       ``first:0,1``                         SETUP_FIRST_MEMBER
ChooseTile             ``tile:2:action`` / ``:achieve`` /    TURN_CHOOSE_TILE
                       ``:event``
PlaceNewMember         ``member:0,0``                        PROCREATE_PLACE,
                                                             EVENT_PLACE_MEMBER
Relocate               ``relocate:0,0:2,0``                  PROCREATE_RELOCATE
EndRelocate            ``end-relocate``                      PROCREATE_RELOCATE
Step                   ``step:0,0:0,1``                      MOVE_STEPS
EndMove                ``end-move``                          MOVE_STEPS
PlaceLand              ``land:wheat:2,0``                    EXPLORE_PLACE
RestoreTile            ``restore:2,-1``                      EXPLORE_RESTORE
EndExplore             ``end-explore``                       EXPLORE_RESTORE
ChooseAchievement      ``achieve:b_hunting:none``,           ACHIEVE_SELECT
                       ``achieve:g_cheese:direct``,
                       ``achieve:o_weaving:existing-arrow``,
                       ``achieve:o_weaving:new-arrow:g_cheese``
ExhaustWild            ``wild:1,0``                          ACHIEVE_WILD
LoseMember             ``lose:0,0``                          EVENT_LOSE_MEMBER
ExhaustUnoccupied      ``exhaust:1,0``                       EVENT_EXHAUST
=====================  ====================================  ==========================
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
from typing import TypeAlias

from tribes.engine import MalformedMoveError
from tribes.games.tribes_early_civilization.data import (
    BOARD_BY_SLUG,
    BOARD_SLUG,
    TERRAIN_SLUG,
    Board,
    Terrain,
)
from tribes.games.tribes_early_civilization.hexes import Hex, hex_at, label, parse_label
from tribes.games.tribes_early_civilization.state import Mode, Route

MODE_SLUG = ("action", "achieve", "event")
ROUTE_SLUG = ("none", "direct", "existing-arrow", "new-arrow")
#: The longest action sequence: 6 action tiles and at most 24 revealed events.
MAX_INDEX = 30


@dataclass(frozen=True)
class PlaceFirstMember:
    """Setup (§4 step 8): put the first tribe member on one of the three start tiles."""

    cell: Hex

    @cached_property
    def key(self) -> str:
        return f"first:{label(self.cell)}"


@dataclass(frozen=True)
class ChooseTile:
    """Take the tile at ``index`` of the action sequence (§5.3) and use it as ``mode``."""

    index: int
    mode: Mode

    @cached_property
    def key(self) -> str:
        return f"tile:{self.index}:{MODE_SLUG[self.mode]}"


@dataclass(frozen=True)
class PlaceNewMember:
    """Procreate or a GAIN_MEMBERS event: one member from the reserve onto an occupied tile."""

    cell: Hex

    @cached_property
    def key(self) -> str:
        return f"member:{label(self.cell)}"


@dataclass(frozen=True)
class Relocate:
    """Procreate with an empty reserve: shift one member onto another occupied tile (§5.4)."""

    origin: Hex
    destination: Hex

    @cached_property
    def key(self) -> str:
        return f"relocate:{label(self.origin)}:{label(self.destination)}"


@dataclass(frozen=True)
class EndRelocate:
    @cached_property
    def key(self) -> str:
        return "end-relocate"


@dataclass(frozen=True)
class Step:
    """Move one tribe member to an adjacent tile of the territory (§5.5)."""

    origin: Hex
    destination: Hex

    @cached_property
    def key(self) -> str:
        return f"step:{label(self.origin)}:{label(self.destination)}"


@dataclass(frozen=True)
class EndMove:
    @cached_property
    def key(self) -> str:
        return "end-move"


@dataclass(frozen=True)
class PlaceLand:
    """Lay a drawn land tile on a frontier cell (§5.6.2)."""

    terrain: Terrain
    cell: Hex

    @cached_property
    def key(self) -> str:
        return f"land:{TERRAIN_SLUG[self.terrain]}:{label(self.cell)}"


@dataclass(frozen=True)
class RestoreTile:
    """Empty bag: turn an own exhausted, empty tile back in place of a missing draw (§5.6.3)."""

    cell: Hex

    @cached_property
    def key(self) -> str:
        return f"restore:{label(self.cell)}"


@dataclass(frozen=True)
class EndExplore:
    """Decline the remaining restores (§5.6.3)."""

    @cached_property
    def key(self) -> str:
        return "end-explore"


@dataclass(frozen=True)
class ChooseAchievement:
    """Complete an achievement (§5.7); ``arrow_source`` only with Route.NEW_ARROW."""

    board: Board
    route: Route
    arrow_source: Board | None = None

    @cached_property
    def key(self) -> str:
        text = f"achieve:{BOARD_SLUG[self.board]}:{ROUTE_SLUG[self.route]}"
        if self.arrow_source is not None:
            text += f":{BOARD_SLUG[self.arrow_source]}"
        return text


@dataclass(frozen=True)
class ExhaustWild:
    """Flip an own occupied active tile to stand in for a missing resource (§5.7)."""

    cell: Hex

    @cached_property
    def key(self) -> str:
        return f"wild:{label(self.cell)}"


@dataclass(frozen=True)
class LoseMember:
    """An event takes one of the decider's members from this tile (§3.6 LOSE_MEMBERS)."""

    cell: Hex

    @cached_property
    def key(self) -> str:
        return f"lose:{label(self.cell)}"


@dataclass(frozen=True)
class ExhaustUnoccupied:
    """An event flips this active tile without members (§3.6 EXHAUST_UNOCCUPIED)."""

    cell: Hex

    @cached_property
    def key(self) -> str:
        return f"exhaust:{label(self.cell)}"


Move: TypeAlias = (
    PlaceFirstMember
    | ChooseTile
    | PlaceNewMember
    | Relocate
    | EndRelocate
    | Step
    | EndMove
    | PlaceLand
    | RestoreTile
    | EndExplore
    | ChooseAchievement
    | ExhaustWild
    | LoseMember
    | ExhaustUnoccupied
)

CellMove: TypeAlias = (
    PlaceFirstMember | PlaceNewMember | RestoreTile | ExhaustWild | LoseMember | ExhaustUnoccupied
)

END_RELOCATE = EndRelocate()
END_MOVE = EndMove()
END_EXPLORE = EndExplore()
_BARE: dict[str, Move] = {m.key: m for m in (END_RELOCATE, END_MOVE, END_EXPLORE)}
_ONE_CELL: dict[str, type[CellMove]] = {
    "first": PlaceFirstMember,
    "member": PlaceNewMember,
    "restore": RestoreTile,
    "wild": ExhaustWild,
    "lose": LoseMember,
    "exhaust": ExhaustUnoccupied,
}
_TWO_CELLS: dict[str, type[Step | Relocate]] = {"relocate": Relocate, "step": Step}
_MODES = {slug: Mode(i) for i, slug in enumerate(MODE_SLUG)}
_ROUTES = {slug: Route(i) for i, slug in enumerate(ROUTE_SLUG)}
_TERRAINS = {slug: Terrain(i) for i, slug in enumerate(TERRAIN_SLUG)}
_HELP = (
    "expected e.g. first:0,1, tile:2:action, member:0,0, relocate:0,0:2,0, step:0,0:0,1, "
    "land:wheat:2,0, restore:2,-1, achieve:g_cheese:direct, wild:1,0, lose:0,0, "
    "exhaust:1,0, end-relocate, end-move or end-explore"
)


def _index(text: str) -> int:
    if not text.isascii() or not text.isdigit() or int(text) >= MAX_INDEX:
        raise ValueError(f"not a position: {text!r}")
    return int(text)


def _parse(key: str) -> Move:
    bare = _BARE.get(key)
    if bare is not None:
        return bare
    kind, _, rest = key.partition(":")
    args = rest.split(":")
    if kind in _ONE_CELL and len(args) == 1:
        return _ONE_CELL[kind](parse_label(args[0]))
    if kind in _TWO_CELLS and len(args) == 2:
        return _TWO_CELLS[kind](parse_label(args[0]), parse_label(args[1]))
    if kind == "tile" and len(args) == 2:
        return ChooseTile(_index(args[0]), _MODES[args[1]])
    if kind == "land" and len(args) == 2:
        return PlaceLand(_TERRAINS[args[0]], parse_label(args[1]))
    if kind == "achieve" and len(args) in (2, 3):
        route = _ROUTES[args[1]]
        if (route is Route.NEW_ARROW) != (len(args) == 3):
            raise ValueError("new-arrow, and only new-arrow, names its source board")
        source = BOARD_BY_SLUG[args[2]] if len(args) == 3 else None
        return ChooseAchievement(BOARD_BY_SLUG[args[0]], route, source)
    raise ValueError(f"unknown move {key!r}")


def parse_move(key: str) -> Move:
    """The move whose canonical key is ``key``; MalformedMoveError for anything else."""
    try:
        move = _parse(key)
    except (ValueError, KeyError, IndexError) as exc:
        raise MalformedMoveError(
            f"{key[:60]!r} is not a Tribes: Early Civilization move ({_HELP})"
        ) from exc
    if move.key != key:
        raise MalformedMoveError(f"{key[:60]!r} is not a move key in canonical form")
    return move


# -- interned moves with their keys (legal_moves builds no new objects on the hot path) -----

#: (key, move): ``legal_moves`` sorts these pairs by key, so keys are computed once per move.
Entry: TypeAlias = tuple[str, Move]
_ENTRIES: dict[tuple[object, ...], Entry] = {}
_ENTRY_LIMIT = 200_000  # bounded: a long-running server forgets and rebuilds


def _remember(index: tuple[object, ...], move: Move) -> Entry:
    if len(_ENTRIES) >= _ENTRY_LIMIT:
        _ENTRIES.clear()
    entry = _ENTRIES[index] = (move.key, move)
    return entry


def cell_entry(kind: type[CellMove], q: int, r: int) -> Entry:
    """The interned one-cell move ``kind(Hex(q, r))``."""
    index = (kind, q, r)
    entry = _ENTRIES.get(index)
    return entry if entry is not None else _remember(index, kind(hex_at(q, r)))


def pair_entry(kind: type[Step | Relocate], q: int, r: int, q2: int, r2: int) -> Entry:
    """The interned ``Step`` or ``Relocate`` from ``(q, r)`` to ``(q2, r2)``."""
    index = (kind, q, r, q2, r2)
    entry = _ENTRIES.get(index)
    if entry is None:
        entry = _remember(index, kind(hex_at(q, r), hex_at(q2, r2)))
    return entry


def land_entry(terrain: int, q: int, r: int) -> Entry:
    index = (PlaceLand, terrain, q, r)
    entry = _ENTRIES.get(index)
    if entry is None:
        entry = _remember(index, PlaceLand(Terrain(terrain), hex_at(q, r)))
    return entry


def tile_entry(index: int, mode: Mode) -> Entry:
    at = (ChooseTile, index, mode)
    entry = _ENTRIES.get(at)
    return entry if entry is not None else _remember(at, ChooseTile(index, mode))


def claim_entry(board: Board, route: Route, source: Board | None = None) -> Entry:
    index = (ChooseAchievement, board, route, source)
    entry = _ENTRIES.get(index)
    if entry is None:
        entry = _remember(index, ChooseAchievement(board, route, source))
    return entry


def bare_entry(move: EndRelocate | EndMove | EndExplore) -> Entry:
    return (move.key, move)

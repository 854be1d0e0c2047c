"""Why a well-formed move is not legal now, in a player's words (rules spec §5.2-§5.8).

Called by the driver for a parsed move that ``legal_moves`` does not offer. The checks
mirror the legality column of the §5.2 move catalogue; the last resort names what the
pending decision expects. Answers never reveal hidden information: a board that is
face down and one removed from the game get the same answer.
"""

from __future__ import annotations

from tribes.games.tribes_early_civilization.data import (
    ACTION_TILES,
    BOARD_SLUG,
    BOARDS,
    EVENTS,
    TERRAIN_NAME,
    action_tile_name,
)
from tribes.games.tribes_early_civilization.describe import prompt
from tribes.games.tribes_early_civilization.hexes import Hex, adjacent, where
from tribes.games.tribes_early_civilization.moves import (
    ChooseAchievement,
    ChooseTile,
    EndExplore,
    EndMove,
    EndRelocate,
    ExhaustUnoccupied,
    ExhaustWild,
    LoseMember,
    Move,
    PlaceFirstMember,
    PlaceLand,
    PlaceNewMember,
    Relocate,
    RestoreTile,
    Step,
)
from tribes.games.tribes_early_civilization.rules.achieve import (
    can_achieve,
    genuine_counts,
    resources_ok,
    routes,
)
from tribes.games.tribes_early_civilization.rules.actions import frontier_cells
from tribes.games.tribes_early_civilization.rules.common import slot_index, tile_at
from tribes.games.tribes_early_civilization.state import (
    Mode,
    Phase,
    Player,
    Route,
    RowKind,
    State,
)

_PHASES: dict[type, tuple[Phase, ...]] = {
    PlaceFirstMember: (Phase.SETUP_FIRST_MEMBER,),
    ChooseTile: (Phase.TURN_CHOOSE_TILE,),
    PlaceNewMember: (Phase.PROCREATE_PLACE, Phase.EVENT_PLACE_MEMBER),
    Relocate: (Phase.PROCREATE_RELOCATE,),
    EndRelocate: (Phase.PROCREATE_RELOCATE,),
    Step: (Phase.MOVE_STEPS,),
    EndMove: (Phase.MOVE_STEPS,),
    PlaceLand: (Phase.EXPLORE_PLACE,),
    RestoreTile: (Phase.EXPLORE_RESTORE,),
    EndExplore: (Phase.EXPLORE_RESTORE,),
    ChooseAchievement: (Phase.ACHIEVE_SELECT,),
    ExhaustWild: (Phase.ACHIEVE_WILD,),
    LoseMember: (Phase.EVENT_LOSE_MEMBER,),
    ExhaustUnoccupied: (Phase.EVENT_EXHAUST,),
}


def explain_illegal(state: State, seat: int, move: Move) -> str:
    """A player-readable reason why ``move`` is not legal for ``seat`` now."""
    pending = state.pending
    if pending is None:
        return "the game is over"
    if seat != pending.decider:
        return f"it is not your turn: {prompt(state)}"
    if pending.phase not in _PHASES.get(type(move), ()):
        return f"you cannot do that now: {prompt(state)}"
    reason = _specific(state, state.players[seat], seat, move)
    return reason or f"that is not one of your legal moves now: {prompt(state)}"


def _own(player: Player, cell: Hex) -> str | None:
    if tile_at(player, cell) is None:
        return f"{where(cell)} is not one of your land tiles"
    return None


def _specific(state: State, player: Player, seat: int, move: Move) -> str | None:
    match move:
        case PlaceFirstMember(cell):
            return _own(player, cell)
        case ChooseTile(index, mode):
            return _choose_tile(state, player, seat, index, mode)
        case PlaceNewMember(cell) | LoseMember(cell):
            tile = tile_at(player, cell)
            if tile is None:
                return _own(player, cell)
            if not tile.members:
                verb = (
                    "New tribe members go"
                    if isinstance(move, PlaceNewMember)
                    else "Members are lost"
                )
                return (
                    f"{verb} only from or onto tiles holding your members; {where(cell)} is empty"
                )
        case Relocate(origin, destination):
            return _relocate(player, origin, destination)
        case Step(origin, destination):
            return _step(player, origin, destination)
        case PlaceLand(terrain, cell):
            return _place_land(state, player, terrain, cell)
        case RestoreTile(cell):
            tile = tile_at(player, cell)
            if tile is None:
                return _own(player, cell)
            if not tile.exhausted:
                return f"the tile on {where(cell)} is not exhausted"
            if tile.members:
                return f"only a tile without tribe members can be restored; {where(cell)} has some"
        case ChooseAchievement():
            return _claim(state, player, seat, move)
        case ExhaustWild(cell):
            return _wild(state, player, cell)
        case ExhaustUnoccupied(cell):
            tile = tile_at(player, cell)
            if tile is None:
                return _own(player, cell)
            if tile.exhausted:
                return f"the tile on {where(cell)} is already exhausted"
            if tile.members:
                return f"only tiles without tribe members can be exhausted; {where(cell)} has some"
    return None


def _choose_tile(state: State, player: Player, seat: int, index: int, mode: Mode) -> str | None:
    row = state.sequence
    if index >= len(row):
        return f"the action sequence has only {len(row)} tiles (positions 0 to {len(row) - 1})"
    if index > player.shells:
        return f"skipping {index} tile(s) costs {index} shells; you have {player.shells}"
    tile = row[index]
    if tile.kind is RowKind.EVENT:
        assert tile.event is not None
        if mode is not Mode.EVENT:
            return (
                f"position {index} holds the event {EVENTS[tile.event].name}: take it as an event"
            )
        return None
    assert tile.action is not None
    name = action_tile_name(tile.action)
    if mode is Mode.EVENT:
        return f"position {index} holds the action tile {name}, not an event"
    if mode is Mode.ACHIEVE:
        if not ACTION_TILES[tile.action].hand:
            return f"{name} shows no hand: it cannot complete an achievement"
        if not can_achieve(state, seat):
            return "you cannot complete any achievement now: no face-up board's needs are met"
    return None


def _relocate(player: Player, origin: Hex, destination: Hex) -> str | None:
    for cell in (origin, destination):
        if tile_at(player, cell) is None:
            return _own(player, cell)
    if origin == destination:
        return "a relocation needs two different tiles"
    source, target = tile_at(player, origin), tile_at(player, destination)
    if source is not None and not source.members:
        return f"{where(origin)} holds none of your tribe members"
    if target is not None and not target.members:
        return f"members are relocated only onto occupied tiles; {where(destination)} is empty"
    return None


def _step(player: Player, origin: Hex, destination: Hex) -> str | None:
    for cell in (origin, destination):
        if tile_at(player, cell) is None:
            return _own(player, cell)
    source = tile_at(player, origin)
    if source is not None and not source.members:
        return f"{where(origin)} holds none of your tribe members"
    if not adjacent(origin, destination):
        return (
            f"{where(origin)} and {where(destination)} are not adjacent: "
            "a step goes to a neighbouring tile"
        )
    return None


def _place_land(state: State, player: Player, terrain: int, cell: Hex) -> str | None:
    pending = state.pending
    assert pending is not None
    if not pending.drawn[terrain]:
        drawn = [TERRAIN_NAME[t] for t, n in enumerate(pending.drawn) for _ in range(n)]
        return f"you have no {TERRAIN_NAME[terrain]} tile to place (drawn: {', '.join(drawn)})"
    if tile_at(player, cell) is not None:
        return f"{where(cell)} already holds one of your tiles"
    if (cell.q, cell.r) not in frontier_cells(player):
        return f"{where(cell)} is not next to your territory: a new tile must touch an existing one"
    return None


def _claim(state: State, player: Player, seat: int, move: ChooseAchievement) -> str | None:
    spec = BOARDS[move.board]
    slot = next((s for s in state.grid if s.board is move.board and s.face_up), None)
    if slot is None:
        return f"{spec.name} is not a face-up achievement board"
    if seat in slot.stones:
        return f"you have already completed {spec.name} (one stone per player per board)"
    if len(slot.stones) >= len(spec.space_vp):
        return f"{spec.name} has no empty space left"
    counts, total = genuine_counts(player)
    genuine = counts[spec.resource]
    if not resources_ok(slot.epoch, spec.count, genuine, total - genuine):
        need = f"{spec.count} {TERRAIN_NAME[spec.resource]} tile(s)"
        return (
            f"{spec.name} needs {need} with your members on them (wild tiles may stand in, "
            f"but green and orange boards need one genuine tile); you have {genuine} and "
            f"{total - genuine} other occupied active tile(s)"
        )
    options = routes(state, seat, slot)
    if not options:
        below = state.grid[slot_index(slot.epoch - 1, slot.column)]
        name = BOARDS[below.board].name if below.face_up else "the board below"
        arrow = "free" if player.arrow_available else "used"
        return (
            f"{spec.name} needs your stone on {name}, or an arrow from a diagonal board "
            f"with your stone (and your own arrow is {arrow})"
        )
    if (move.route, move.arrow_source) not in options:
        if options[0][0] is Route.NEW_ARROW:
            sources = " or ".join(f"new-arrow:{BOARD_SLUG[s]}" for _, s in options if s is not None)
            return f"the route to {spec.name} is your new arrow ({sources})"
        return f"the route to {spec.name} is {options[0][0].name.lower().replace('_', '-')}"
    return None


def _wild(state: State, player: Player, cell: Hex) -> str | None:
    pending = state.pending
    assert pending is not None and pending.board is not None
    tile = tile_at(player, cell)
    if tile is None:
        return _own(player, cell)
    if tile.exhausted:
        return f"the tile on {where(cell)} is already exhausted"
    if not tile.members:
        return f"a wild tile must hold one of your tribe members; {where(cell)} is empty"
    resource = BOARDS[pending.board].resource
    if tile.terrain is resource:
        return f"your {TERRAIN_NAME[resource]} tile on {where(cell)} already counts as itself"
    return None

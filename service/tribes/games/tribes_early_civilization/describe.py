"""Words for players: move descriptions, event texts and the pending prompt (spec §3.6, §5).

``describe`` names a decision in the rulebook's vocabulary, as its decider reads it
("Explore: place a Wheat tile at (2,-1) next to your Goat tile at (1,-1)"). It never
fails, also for a move that is not legal in ``state`` (the move log describes moves in
the state they were played in). Nothing here reveals hidden information: only
face-up boards are named.
"""

from __future__ import annotations

from tribes.games.tribes_early_civilization.data import (
    ACTION_NAME,
    ACTION_TILES,
    ACTION_TRACK,
    ACTION_VALUES,
    BOARDS,
    EVENTS,
    HEX_NEIGHBOURS,
    TERRAIN_NAME,
    TRACK_NAME,
    Clause,
    Condition,
    Effect,
    Event,
    Scope,
    action_tile_name,
)
from tribes.games.tribes_early_civilization.hexes import Hex, hex_at, where
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
from tribes.games.tribes_early_civilization.rules.common import tile_at, tile_name
from tribes.games.tribes_early_civilization.state import Mode, Phase, Player, Route, RowKind, State

_CONDITION = {
    Condition.NONE: "",
    Condition.STRONGEST: "if you are the strongest: ",
    Condition.WEAKEST: "if you are the weakest: ",
}


def clause_text(clause: Clause) -> str:
    """``if you are the weakest: lose 2 VP`` (§3.6 effect vocabulary)."""
    n = clause.amount
    effect = {
        Effect.GAIN_VP: f"gain {n} VP",
        Effect.LOSE_VP: f"lose {n} VP",
        Effect.GAIN_MEMBERS: f"gain {n} tribe member(s)",
        Effect.LOSE_MEMBERS: f"lose {n} tribe member(s)",
        Effect.EXHAUST_UNOCCUPIED: f"exhaust {n} unoccupied land tile(s)",
        Effect.GAIN_LAND: f"explore {n} land tile(s)",
    }[clause.effect]
    return _CONDITION[clause.condition] + effect


def event_text(event: Event) -> str:
    """The tile as read aloud: ``Cave bear: if you are the weakest: lose 2 VP``."""
    spec = EVENTS[event]
    clauses = "; ".join(clause_text(c) for c in spec.clauses)
    every = "every tribe, starting with you: " if spec.scope is Scope.ALL else ""
    return f"{spec.name}: {every}{clauses}"


def _decider(state: State) -> int:
    return state.current if state.pending is None else state.pending.decider


def _your(player: Player, cell: Hex) -> str:
    tile = tile_at(player, cell)
    return where(cell) if tile is None else f"your {tile_name(tile)}"


def _neighbour(player: Player, cell: Hex) -> str:
    """``next to your Goat tile at (1,-1)``: the first own tile around a frontier cell."""
    for dq, dr in HEX_NEIGHBOURS:
        tile = tile_at(player, hex_at(cell.q + dq, cell.r + dr))
        if tile is not None:
            return f" next to your {tile_name(tile)}"
    return ""


def _shells(index: int, collect: int) -> str:
    parts = []
    if index:
        parts.append(f"pay {index} shell{'s' if index > 1 else ''}")
    if collect:
        parts.append(f"collect {collect} shell{'s' if collect > 1 else ''}")
    return f" ({', '.join(parts)})" if parts else " (free)"


def _choose_tile(state: State, seat: int, move: ChooseTile) -> str:
    if move.index >= len(state.sequence):
        return f"Take the tile at position {move.index + 1} of the action sequence"
    tile = state.sequence[move.index]
    cost = _shells(move.index, tile.shells)
    where_ = f"position {move.index + 1}"
    if tile.kind is RowKind.EVENT:
        assert tile.event is not None
        return f"Take the event at {where_}{cost}: {event_text(tile.event)}"
    assert tile.action is not None
    spec = ACTION_TILES[tile.action]
    name = action_tile_name(tile.action)
    if move.mode is Mode.ACHIEVE:
        return f"Take {name} at {where_}{cost} to complete an achievement"
    player = state.players[seat]
    value = ACTION_VALUES[player.levels[ACTION_TRACK[spec.action]]]
    what = ("tribe member(s)", "land tile(s)", "step(s)")[spec.action]
    return f"Take {name} at {where_}{cost}: {ACTION_NAME[spec.action]} {value} {what}"


def _claim(state: State, seat: int, move: ChooseAchievement) -> str:
    spec = BOARDS[move.board]
    slot = next((s for s in state.grid if s.board is move.board and s.face_up), None)
    if slot is None:
        return "Complete an achievement that is not face up"
    space = len(slot.stones)
    gain = f"+{spec.space_vp[space]} VP" if space < len(spec.space_vp) else "no space left"
    route = {
        Route.NONE: "",
        Route.DIRECT: " (you hold the achievement below)",
        Route.EXISTING_ARROW: " (through an arrow already on the board)",
        Route.NEW_ARROW: "",
    }[move.route]
    if move.route is Route.NEW_ARROW and move.arrow_source is not None:
        route = f" laying your arrow from {BOARDS[move.arrow_source].name}"
    need = f"{spec.count} {TERRAIN_NAME[spec.resource]}"
    return (
        f"Complete {spec.name} ({need}){route}: space {space + 1}, {gain}, "
        f"{TRACK_NAME[spec.track]} +1"
    )


def describe(state: State, move: Move) -> str:
    """A player-readable description of ``move`` in ``state``."""
    seat = _decider(state)
    player = state.players[seat]
    event = EVENTS[state.event].name if state.event is not None else None
    match move:
        case PlaceFirstMember(cell):
            return f"Place your first tribe member on {_your(player, cell)}"
        case ChooseTile():
            return _choose_tile(state, seat, move)
        case PlaceNewMember(cell):
            return f"{event or 'Procreate'}: place a new tribe member on {_your(player, cell)}"
        case Relocate(origin, destination):
            return (
                f"Procreate (empty reserve): relocate a tribe member from "
                f"{_your(player, origin)} to {_your(player, destination)}"
            )
        case EndRelocate():
            return "Procreate: relocate no more tribe members"
        case Step(origin, destination):
            return (
                f"Move: a tribe member from {_your(player, origin)} to {_your(player, destination)}"
            )
        case EndMove():
            left = state.pending.left if state.pending is not None else 0
            return f"Move: end the move ({left} step(s) unused)"
        case PlaceLand(terrain, cell):
            what = event or "Explore"
            near = _neighbour(player, cell)
            return f"{what}: place a {TERRAIN_NAME[terrain]} tile at {where(cell)}{near}"
        case RestoreTile(cell):
            return f"Empty bag: turn {_your(player, cell)} back to its resource side"
        case EndExplore():
            return "Empty bag: restore no more tiles"
        case ChooseAchievement():
            return _claim(state, seat, move)
        case ExhaustWild(cell):
            board = state.pending.board if state.pending is not None else None
            target = f" for {BOARDS[board].name}" if board is not None else ""
            return f"Exhaust {_your(player, cell)} as a wild tile{target}"
        case LoseMember(cell):
            return f"{event or 'Event'}: lose a tribe member from {_your(player, cell)}"
        case ExhaustUnoccupied(cell):
            return f"{event or 'Event'}: exhaust {_your(player, cell)}"
    return move.key


_PROMPT = {
    Phase.SETUP_FIRST_MEMBER: "place the first tribe member on one of the three start tiles",
    Phase.TURN_CHOOSE_TILE: "take a tile from the action sequence",
    Phase.PROCREATE_PLACE: "place {left} new tribe member(s) on occupied tiles",
    Phase.PROCREATE_RELOCATE: "relocate up to {left} tribe member(s) between occupied tiles",
    Phase.MOVE_STEPS: "move tribe members: {left} step(s) left",
    Phase.EXPLORE_PLACE: "place {left} drawn land tile(s) next to the territory",
    Phase.EXPLORE_RESTORE: "the bag is empty: restore up to {left} exhausted empty tile(s)",
    Phase.ACHIEVE_SELECT: "choose the achievement to complete",
    Phase.ACHIEVE_WILD: "exhaust {left} occupied tile(s) as wild tiles",
    Phase.EVENT_PLACE_MEMBER: "place {left} new tribe member(s) on occupied tiles",
    Phase.EVENT_LOSE_MEMBER: "remove {left} tribe member(s)",
    Phase.EVENT_EXHAUST: "exhaust {left} land tile(s) without tribe members",
}


def prompt(state: State) -> str:
    """What the decider is asked to do now (``seat 1: place 2 drawn land tile(s) ...``)."""
    pending = state.pending
    if pending is None:
        return "the game is over"
    text = _PROMPT[pending.phase].format(left=pending.left)
    if state.event is not None:
        text = f"{EVENTS[state.event].name}: {text}"
    return f"seat {pending.decider}: {text}"

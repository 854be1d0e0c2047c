"""The stored state (rules spec §5.11) and the per-seat view (§6): frozen values, tuples inside.

``State`` is everything the server keeps, hidden parts included (the removed boards,
face-down boards, event-stack order, every VP total, the PRNG); ``View`` is what one
seat or a spectator may see (built by ``view.py``). Views are trees of frozen
dataclasses of ints, strings, bools, enums and tuples, so a generic mapper can turn
them into protobuf; public state values (``Tile``, ``BoardCell``, ``Arrow``,
``FinalScore``) appear in views as they are.

Indexing: ``Player.levels`` by ``Track``; ``bag`` and ``Pending.drawn`` count tiles per
``Terrain``; ``grid`` holds the 12 board positions, index ``(epoch - 1) * 4 + column``;
``event_stacks[e - 1]`` is epoch e's face-down stack, top first.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass

from tribes.games.tribes_early_civilization.data import (
    Action,
    ActionTile,
    Board,
    Condition,
    Effect,
    Event,
    Scope,
    Terrain,
    Track,
)
from tribes.games.tribes_early_civilization.hexes import Hex
from tribes.games.tribes_early_civilization.options import Config


class Phase(enum.IntEnum):
    """The pending decision (§5.1); EVENT_RESOLVE is the event's queue of sub-phases."""

    SETUP_FIRST_MEMBER = 0
    TURN_CHOOSE_TILE = 1
    PROCREATE_PLACE = 2
    PROCREATE_RELOCATE = 3
    MOVE_STEPS = 4
    EXPLORE_PLACE = 5
    EXPLORE_RESTORE = 6
    ACHIEVE_SELECT = 7
    ACHIEVE_WILD = 8
    EVENT_PLACE_MEMBER = 9
    EVENT_LOSE_MEMBER = 10
    EVENT_EXHAUST = 11
    GAME_OVER = 12


class Mode(enum.IntEnum):
    """How a tile of the action sequence is used (§5.2 ``ChooseTile``)."""

    ACTION = 0
    ACHIEVE = 1
    EVENT = 2


class Route(enum.IntEnum):
    """How the prerequisite of an achievement is met (§5.7)."""

    NONE = 0  # epoch 1: no prerequisite
    DIRECT = 1  # own stone on the board directly below
    EXISTING_ARROW = 2  # an arrow already on a link from a board with the own stone
    NEW_ARROW = 3  # place the own arrow from ``arrow_source``


class RowKind(enum.IntEnum):
    ACTION = 0
    EVENT = 1


@dataclass(frozen=True, slots=True)
class Tile:
    """A land tile of a territory (§3.1): resource side up unless ``exhausted``."""

    hex: Hex
    terrain: Terrain
    exhausted: bool
    members: int  # this player's tribe members on it (members are identical, §5.2)


@dataclass(frozen=True, slots=True)
class Player:
    """One player's holdings (§5.11 ``players[seat]``). ``vp`` is hidden from others (§6)."""

    shells: int
    vp: int  # bear teeth
    reserve: int  # tribe members not on the board (0..15)
    arrow_available: bool
    levels: tuple[int, ...]  # per Track
    tiles: tuple[Tile, ...]  # the start triangle first, then in the order laid

    @property
    def on_board(self) -> int:
        return sum(tile.members for tile in self.tiles)


@dataclass(frozen=True, slots=True)
class RowTile:
    """A tile of the action sequence (§5.3): an action tile or a revealed event."""

    kind: RowKind
    action: ActionTile | None
    event: Event | None
    shells: int


@dataclass(frozen=True, slots=True)
class BoardSlot:
    """A board position of the game board (§3.4 grid, §5.11 ``grid``)."""

    epoch: int
    column: int
    board: Board
    face_up: bool
    stones: tuple[int, ...]  # seats, space 1 first (spaces are filled from the left)


@dataclass(frozen=True, slots=True)
class BoardCell:
    """A position ``(epoch, column)`` on the game board's grid."""

    epoch: int
    column: int


@dataclass(frozen=True, slots=True)
class Arrow:
    """An arrow token on the link ``source -> target`` (§5.7, §8.10); anyone may use it."""

    owner: int
    source: BoardCell
    target: BoardCell


@dataclass(frozen=True, slots=True)
class Pending:
    """The pending decision (§5.11 ``pending``); which fields matter depends on ``phase``.

    ``left``: members to place or lose, relocations, steps, tiles to place, restores,
    wilds or tiles to exhaust still owed or allowed. ``relocations``: PROCREATE_PLACE's
    shortfall, offered as relocations afterwards (§5.4). ``drawn`` and ``shortfall``:
    EXPLORE_PLACE's tiles still to lay and the restores offered afterwards (§5.6).
    ``board``, ``route``, ``arrow_source``: the claim being made (ACHIEVE_WILD).
    """

    phase: Phase
    decider: int
    left: int = 0
    relocations: int = 0
    drawn: tuple[int, ...] = (0, 0, 0, 0, 0)
    shortfall: int = 0
    board: Board | None = None
    route: Route | None = None
    arrow_source: Board | None = None


@dataclass(frozen=True, slots=True)
class QueuedEffect:
    """A clause of the event being resolved, still to apply to ``seat`` (§5.8 step 2)."""

    seat: int
    effect: Effect
    amount: int


@dataclass(frozen=True, slots=True)
class LogEntry:
    """One line of the log. ``private`` (when set) is the version only ``seat`` may read
    before the end: the applied amount of a VP loss (§3.6 LOSE_VP, §6)."""

    turn: int
    seat: int  # the seat the line is about, -1 for none
    text: str
    private: str = ""


@dataclass(frozen=True, slots=True)
class FinalScore:
    """One seat's final scoring (§7), kept once the game is over."""

    seat: int
    bear_teeth: int
    track_vp: int
    most_members_vp: int
    most_land_vp: int
    total: int
    shells: int
    exhausted: int  # tiles on their exhausted side at the end (tie-break, §10 #20)
    rank: int


@dataclass(frozen=True, slots=True)
class State:
    """Everything the server stores for one game (§5.11)."""

    config: Config
    round: int  # 1 in the first round after setup
    turn_count: int  # completed turns of all players (§5.9 step 4)
    start_player: int
    current: int  # whose turn it is
    players: tuple[Player, ...]
    sequence: tuple[RowTile, ...]  # the action sequence, position 0 leftmost
    grid: tuple[BoardSlot, ...]
    removed_boards: tuple[Board, ...]  # per epoch, never in a view
    arrows: tuple[Arrow, ...]
    event_stacks: tuple[tuple[Event, ...], ...]  # per epoch, top first; views: counts
    executed_orange: tuple[Event, ...]
    boxed_events: tuple[Event, ...]
    bag: tuple[int, ...]  # per Terrain
    taken: ActionTile | None  # the action tile taken this turn (back to the row at TURN_END)
    event: Event | None  # the event tile being resolved
    queue: tuple[QueuedEffect, ...]  # its clauses still to apply
    pending: Pending | None  # None only between steps and once the game is over
    end_triggered: bool
    capped: bool  # ended by the turn cap (§5.9 step 4)
    final: tuple[FinalScore, ...] | None
    log: tuple[LogEntry, ...]  # the most recent LOG_LIMIT lines
    rng: int

    @property
    def seats(self) -> int:
        return self.config.num_players

    @property
    def phase(self) -> Phase:
        return Phase.GAME_OVER if self.pending is None else self.pending.phase


# -- views (§6) -----------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class TerrainCount:
    terrain: Terrain
    count: int


@dataclass(frozen=True, slots=True)
class Levels:
    """Progress-track levels (§3.3) and what they give now."""

    procreation: int
    exploration: int
    movement: int
    strength: int
    procreate_members: int  # members per Procreate
    explore_tiles: int  # land tiles per Explore
    move_steps: int  # steps per Move


@dataclass(frozen=True, slots=True)
class PlayerView:
    """A player as the viewer sees them: everything public, ``vp`` unset when hidden (§6)."""

    seat: int
    is_start_player: bool
    shells: int
    vp: int | None
    reserve: int
    members_on_board: int
    arrow_available: bool
    stones_left: int
    levels: Levels
    tiles: tuple[Tile, ...]


@dataclass(frozen=True, slots=True)
class ClauseView:
    condition: Condition
    effect: Effect
    amount: int
    text: str  # "if you are the weakest: lose 2 VP"


@dataclass(frozen=True, slots=True)
class EventView:
    """An event tile's face (public once revealed, §6)."""

    event: Event
    epoch: int
    name: str
    scope: Scope
    clauses: tuple[ClauseView, ...]
    text: str


@dataclass(frozen=True, slots=True)
class RowTileView:
    """A tile of the action sequence; ``action_tile`` or ``event`` is set."""

    position: int
    kind: RowKind
    name: str
    action_tile: ActionTile | None
    action: Action | None
    hand: bool
    event: EventView | None
    shells: int


@dataclass(frozen=True, slots=True)
class SpaceView:
    space: int  # 1 = leftmost
    vp: int
    lightning: bool
    seat: int | None  # the stone on it


@dataclass(frozen=True, slots=True)
class BoardFace:
    """A face-up board's printed content and its stones (§3.4)."""

    board: Board
    name: str
    resource: Terrain
    required: int  # tiles of ``resource`` needed
    track: Track
    spaces: tuple[SpaceView, ...]


@dataclass(frozen=True, slots=True)
class BoardView:
    """A board position; a face-down board shows only epoch and column (§6)."""

    epoch: int
    column: int
    face_up: bool
    face: BoardFace | None


@dataclass(frozen=True, slots=True)
class EventStackView:
    """A face-down event stack: its count only (§6)."""

    epoch: int
    count: int


@dataclass(frozen=True, slots=True)
class QueuedView:
    seat: int
    effect: Effect
    amount: int


@dataclass(frozen=True, slots=True)
class PendingView:
    """The pending decision, public in full (§6): who decides what, and what is left."""

    phase: Phase
    decider: int
    prompt: str
    left: int
    relocations: int
    drawn: tuple[TerrainCount, ...]  # drawn land tiles not yet laid
    shortfall: int
    board: Board | None
    route: Route | None
    arrow_source: Board | None
    taken_tile: ActionTile | None
    event: EventView | None  # the event being resolved
    queued: tuple[QueuedView, ...]  # its clauses still to come


@dataclass(frozen=True, slots=True)
class LogLine:
    turn: int
    seat: int  # the seat the line is about, -1 for none
    text: str


@dataclass(frozen=True, slots=True)
class View:
    """What one seat (or a spectator, ``viewer == -1``) may know (§6)."""

    viewer: int
    phase: Phase
    to_act: tuple[int, ...]
    pending: PendingView | None
    num_players: int
    start_player: int
    current_player: int
    round: int
    turn_count: int
    turn_cap: int
    end_threshold: int
    orange_executed: int
    end_triggered: bool
    game_over: bool
    capped: bool
    hide_opponent_vp: bool
    seat_bonus_vp: bool
    players: tuple[PlayerView, ...]
    sequence: tuple[RowTileView, ...]
    boards: tuple[BoardView, ...]
    arrows: tuple[Arrow, ...]
    event_stacks: tuple[EventStackView, ...]
    executed_orange: tuple[EventView, ...]
    boxed_events: tuple[Event, ...]  # brown and green events carried out (back in the box)
    bag: tuple[TerrainCount, ...]
    bag_total: int
    log: tuple[LogLine, ...]
    final_scores: tuple[FinalScore, ...]  # empty until the game is over
    winners: tuple[int, ...]

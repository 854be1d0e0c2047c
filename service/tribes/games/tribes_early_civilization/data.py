"""Tribes: Early Civilization components and tables (rules spec §2, §3, Appendix A).

Every number the rules use lives here, each table citing its spec section, so a
corrected component list is a data change, not a code change. Items the spec marks
**RECONSTRUCTED** (no published source gave them; §10 #1-#4, #11, #16) are marked so
below and listed in ``RECONSTRUCTED``: the board faces (§3.4), all 24 event texts
(§3.6), the progress-track values (§3.3), the bear-teeth values (§2), the VP floor.

Enums are ``IntEnum`` so the rules index tuples with them; their names are the spec's ids.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass

# -- players and per-player pieces (§2, §4 step 2, Appendix A "per_player") -----------------

SEAT_COUNTS = (2, 3, 4)
TRIBE_MEMBERS = 15
MARKING_STONES = 12
PROGRESS_MARKERS = 4
SHELLS = 5
ARROWS = 1
#: §3.7: orange events carried out that end the game, by player count.
END_THRESHOLD = {2: 2, 3: 3, 4: 4}
#: §3.7 optional ``seat_bonus_vp`` (UNVERIFIED): the 3rd and 4th players in turn order.
SEAT_BONUS_VP = 1
SEAT_BONUS_POSITIONS = (2, 3)  # 0-based positions in turn order from the start player
#: §5.9 / §10 #17 ENGINE SAFEGUARD: completed turns of all players before the game is cut.
DEFAULT_TURN_CAP = 400
#: Public log lines kept in the state (and shown in views): the most recent ones.
LOG_LIMIT = 24


# -- land tiles (§3.1) --------------------------------------------------------------------


class Terrain(enum.IntEnum):
    """The five resources; the value is the fixed order of §3.1 (and of every count tuple)."""

    GOAT = 0
    HORSE = 1
    WHEAT = 2
    GOLD = 3
    INCENSE = 4


TERRAINS = tuple(Terrain)
TERRAIN_NAME = ("Goat", "Horse", "Wheat", "Gold", "Incense")
TERRAIN_SLUG = ("goat", "horse", "wheat", "gold", "incense")
#: §3.1: tiles of each resource in the bag (50 in all).
LAND_COUNTS = (10, 10, 10, 10, 10)
LAND_TILES = sum(LAND_COUNTS)
NO_LAND = (0, 0, 0, 0, 0)
#: §4 step 7: different resources a starting territory keeps.
START_TILES = 3


# -- territory geometry (§3.2) ------------------------------------------------------------

#: Axial neighbour vectors, in the spec's order.
HEX_NEIGHBOURS = ((1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1))
#: The starting triangle, in the order the kept tiles are laid (§3.2).
START_CELLS = ((0, 0), (1, 0), (0, 1))


# -- progress tracks (§3.3; values RECONSTRUCTED, §10 #3) ---------------------------------


class Track(enum.IntEnum):
    """The four progress tracks; the value indexes ``Player.levels``."""

    PROCREATION = 0
    EXPLORATION = 1
    MOVEMENT = 2
    STRENGTH = 3


TRACKS = tuple(Track)
TRACK_NAME = ("Procreation", "Exploration", "Movement", "Strength")
#: RECONSTRUCTED (§3.3): tribe members / land tiles / steps per action, by level 0..3.
ACTION_VALUES = (1, 2, 3, 4)
#: End-game VP of the P, E and M tracks by level (§3.3): the 1/3/6 labels are the seed's,
#: their levels RECONSTRUCTED.
TRACK_END_VP = (0, 1, 3, 6)
#: RECONSTRUCTED (§3.3): the top level of each track (advances beyond it are lost).
TRACK_MAX = (3, 3, 3, 6)
#: The tracks that score at the end (§7); Strength scores nothing.
SCORING_TRACKS = (Track.PROCREATION, Track.EXPLORATION, Track.MOVEMENT)


# -- bear teeth (§2; values RECONSTRUCTED, §10 #4) ----------------------------------------

#: (value, count) of the 89 tokens; VP are integers in the engine, so this is cosmetic.
BEAR_TEETH = ((1, 30), (2, 20), (3, 12), (5, 15), (10, 12))
#: RECONSTRUCTED (§3.6, §10 #11): bear teeth cannot go below zero.
VP_FLOOR = 0


# -- action tiles (§3.5) ------------------------------------------------------------------


class Action(enum.IntEnum):
    PROCREATE = 0
    EXPLORE = 1
    MOVE = 2


ACTION_NAME = ("Procreate", "Explore", "Move")
#: The track that sets each action's strength (§3.3).
ACTION_TRACK = (Track.PROCREATION, Track.EXPLORATION, Track.MOVEMENT)


class ActionTile(enum.IntEnum):
    """The six action tiles of §3.5."""

    A_PROCREATE = 0
    A_EXPLORE = 1
    A_MOVE = 2
    A_PROCREATE_H = 3
    A_EXPLORE_H = 4
    A_MOVE_H = 5


@dataclass(frozen=True, slots=True)
class ActionTileDef:
    tile: ActionTile
    action: Action
    hand: bool  # the tile may instead complete one achievement (§5.3)


ACTION_TILES = (
    ActionTileDef(ActionTile.A_PROCREATE, Action.PROCREATE, False),
    ActionTileDef(ActionTile.A_EXPLORE, Action.EXPLORE, False),
    ActionTileDef(ActionTile.A_MOVE, Action.MOVE, False),
    ActionTileDef(ActionTile.A_PROCREATE_H, Action.PROCREATE, True),
    ActionTileDef(ActionTile.A_EXPLORE_H, Action.EXPLORE, True),
    ActionTileDef(ActionTile.A_MOVE_H, Action.MOVE, True),
)


def action_tile_name(tile: ActionTile) -> str:
    spec = ACTION_TILES[tile]
    return ACTION_NAME[spec.action] + (" + hand" if spec.hand else "")


# -- achievement boards (§3.4; faces RECONSTRUCTED, §10 #1) -------------------------------

EPOCHS = (1, 2, 3)
EPOCH_NAME = {1: "Paleolithic", 2: "Neolithic", 3: "Bronze Age"}
EPOCH_COLOUR = {1: "brown", 2: "green", 3: "orange"}
COLUMNS = 4  # boards per epoch on the game board (§3.4 board grid)
BOARDS_PER_EPOCH = 5  # one of each epoch's five is removed unseen (§4 step 5)
#: RECONSTRUCTED (§3.4 principles 3-5): VP of spaces 1-4 by epoch; lightning on spaces 1-2.
SPACE_VP = {1: (2, 2, 1, 1), 2: (4, 3, 3, 2), 3: (6, 5, 4, 3)}
LIGHTNING_SPACES = (1, 2)


class Board(enum.IntEnum):
    """The 15 achievement boards in §3.4 table order."""

    B_HUNTING = 0
    B_COOKING = 1
    B_LEATHER = 2
    B_JEWELLERY = 3
    B_SHAMANISM = 4
    G_CHEESE = 5
    G_AGRICULTURE = 6
    G_TAMING = 7
    G_SMELTING = 8
    G_RITES = 9
    O_WEAVING = 10
    O_FERMENTING = 11
    O_CART = 12
    O_CURRENCY = 13
    O_TEMPLE = 14


@dataclass(frozen=True, slots=True)
class BoardDef:
    """One achievement board (§3.4): ``count`` tiles of ``resource`` (``count`` = epoch)."""

    board: Board
    epoch: int
    name: str
    resource: Terrain
    count: int
    track: Track
    space_vp: tuple[int, ...]  # filled from the left
    lightning: tuple[bool, ...]  # per space: reveal an event (§5.7 step 4)
    provenance: str  # what is published and what is RECONSTRUCTED (§3.4 table)


def _board(
    board: Board, epoch: int, name: str, resource: Terrain, track: Track, src: str
) -> BoardDef:
    lightning = tuple(space in LIGHTNING_SPACES for space in range(1, len(SPACE_VP[epoch]) + 1))
    return BoardDef(board, epoch, name, resource, epoch, track, SPACE_VP[epoch], lightning, src)


_G, _H, _W, _AU, _I = Terrain.GOAT, Terrain.HORSE, Terrain.WHEAT, Terrain.GOLD, Terrain.INCENSE
_P, _E, _M, _S = Track.PROCREATION, Track.EXPLORATION, Track.MOVEMENT, Track.STRENGTH
_REC = "RECONSTRUCTED"

#: §3.4 / Appendix A, one board per resource per epoch. RECONSTRUCTED except as noted.
BOARDS = (
    _board(Board.B_HUNTING, 1, "Hunting", _H, _E, "seed: name, epoch, track, space 1; " + _REC),
    _board(Board.B_COOKING, 1, "Cooking", _W, _P, "seed: name, epoch, track, space 3; " + _REC),
    _board(Board.B_LEATHER, 1, "Leather-making", _G, _M, "review: name; " + _REC),
    _board(Board.B_JEWELLERY, 1, "Jewellery-making", _AU, _S, "review: name; " + _REC),
    _board(Board.B_SHAMANISM, 1, "Shamanism", _I, _S, "review hint: name; " + _REC),
    _board(Board.G_CHEESE, 2, "Cheese-making", _G, _P, "seed: name, epoch, need; " + _REC),
    _board(Board.G_AGRICULTURE, 2, "Agriculture", _W, _E, _REC),
    _board(Board.G_TAMING, 2, "Horse taming", _H, _M, _REC),
    _board(Board.G_SMELTING, 2, "Smelting", _AU, _S, "seed: name, epoch; " + _REC),
    _board(Board.G_RITES, 2, "Burial rites", _I, _S, _REC),
    _board(Board.O_WEAVING, 3, "Weaving", _G, _E, "seed: name, epoch, need, 6 VP; " + _REC),
    _board(Board.O_FERMENTING, 3, "Fermenting", _W, _P, "first-edition echo; " + _REC),
    _board(Board.O_CART, 3, "Wheeled cart", _H, _M, _REC),
    _board(Board.O_CURRENCY, 3, "Currency", _AU, _S, "review: name; " + _REC),
    _board(Board.O_TEMPLE, 3, "Temple", _I, _S, _REC),
)
BOARDS_OF_EPOCH = {e: tuple(b.board for b in BOARDS if b.epoch == e) for e in EPOCHS}
BOARD_SLUG = tuple(b.board.name.lower() for b in BOARDS)
BOARD_BY_SLUG = {slug: Board(i) for i, slug in enumerate(BOARD_SLUG)}


# -- event tiles (§3.6; all 24 texts RECONSTRUCTED, §10 #2) -------------------------------


class Scope(enum.IntEnum):
    ACTIVE = 0  # only the activator can be affected
    ALL = 1  # every player, activator first, then clockwise


class Condition(enum.IntEnum):
    NONE = 0
    STRONGEST = 1
    WEAKEST = 2


class Effect(enum.IntEnum):
    GAIN_VP = 0
    LOSE_VP = 1
    GAIN_MEMBERS = 2
    LOSE_MEMBERS = 3
    EXHAUST_UNOCCUPIED = 4
    GAIN_LAND = 5


class Event(enum.IntEnum):
    """The 24 event tiles in §3.6 table order."""

    EV1_RHINO = 0
    EV1_TIGER = 1
    EV1_BEAR = 2
    EV1_MAMMOTH = 3
    EV1_WOLVES = 4
    EV1_WINTER = 5
    EV1_BERRIES = 6
    EV1_SCOUTS = 7
    EV2_RAIDERS = 8
    EV2_DISEASE = 9
    EV2_DROUGHT = 10
    EV2_FLOOD = 11
    EV2_HARVEST = 12
    EV2_PLAGUE = 13
    EV2_RIVALS = 14
    EV2_SETTLERS = 15
    EV3_INVADERS = 16
    EV3_CONQUEST = 17
    EV3_EPIDEMIC = 18
    EV3_EARTHQUAKE = 19
    EV3_WAR = 20
    EV3_TRIBUTE = 21
    EV3_FAMINE = 22
    EV3_GOLDEN_AGE = 23


@dataclass(frozen=True, slots=True)
class Clause:
    """``condition: effect amount`` of one event (§3.6 data model)."""

    condition: Condition
    effect: Effect
    amount: int


@dataclass(frozen=True, slots=True)
class EventDef:
    event: Event
    epoch: int
    name: str
    scope: Scope
    clauses: tuple[Clause, ...]


_NO, _ST, _WK = Condition.NONE, Condition.STRONGEST, Condition.WEAKEST
_GVP, _LVP = Effect.GAIN_VP, Effect.LOSE_VP
_GM, _LM = Effect.GAIN_MEMBERS, Effect.LOSE_MEMBERS
_EX, _GL = Effect.EXHAUST_UNOCCUPIED, Effect.GAIN_LAND
_ACT, _ALL = Scope.ACTIVE, Scope.ALL


def _event(
    event: Event, name: str, scope: Scope, *clauses: tuple[Condition, Effect, int]
) -> EventDef:
    epoch = int(event.name[2])
    return EventDef(event, epoch, name, scope, tuple(Clause(*c) for c in clauses))


#: §3.6 / Appendix A. RECONSTRUCTED in full (the 24 printed texts were not found).
EVENTS = (
    _event(Event.EV1_RHINO, "Woolly rhinoceros", _ACT, (_ST, _GVP, 2), (_WK, _LM, 1)),
    _event(Event.EV1_TIGER, "Sabre-toothed tiger", _ACT, (_WK, _LM, 1)),
    _event(Event.EV1_BEAR, "Cave bear", _ACT, (_WK, _LVP, 2)),
    _event(Event.EV1_MAMMOTH, "Mammoth hunt", _ACT, (_ST, _GM, 1)),
    _event(Event.EV1_WOLVES, "Wolf pack", _ACT, (_WK, _EX, 1)),
    _event(Event.EV1_WINTER, "Harsh winter", _ALL, (_NO, _LM, 1)),
    _event(Event.EV1_BERRIES, "Berry season", _ACT, (_NO, _GVP, 1)),
    _event(Event.EV1_SCOUTS, "Scouts", _ACT, (_ST, _GL, 1)),
    _event(Event.EV2_RAIDERS, "Raiders", _ACT, (_ST, _GVP, 3), (_WK, _LVP, 3)),
    _event(Event.EV2_DISEASE, "Disease", _ACT, (_WK, _LM, 2)),
    _event(Event.EV2_DROUGHT, "Drought", _ALL, (_NO, _EX, 1)),
    _event(Event.EV2_FLOOD, "Flood", _ACT, (_WK, _EX, 2)),
    _event(Event.EV2_HARVEST, "Good harvest", _ACT, (_ST, _GM, 2)),
    _event(Event.EV2_PLAGUE, "Plague", _ALL, (_NO, _LM, 1)),
    _event(Event.EV2_RIVALS, "Rival village", _ACT, (_WK, _LVP, 2)),
    _event(Event.EV2_SETTLERS, "Settlers", _ACT, (_ST, _GL, 2)),
    _event(Event.EV3_INVADERS, "Invaders", _ACT, (_ST, _GVP, 4), (_WK, _LM, 2)),
    _event(Event.EV3_CONQUEST, "Conquest", _ACT, (_ST, _GVP, 4)),
    _event(Event.EV3_EPIDEMIC, "Epidemic", _ALL, (_NO, _LM, 2)),
    _event(Event.EV3_EARTHQUAKE, "Earthquake", _ALL, (_NO, _EX, 1)),
    _event(Event.EV3_WAR, "War", _ACT, (_WK, _LVP, 4)),
    _event(Event.EV3_TRIBUTE, "Tribute", _ACT, (_ST, _GVP, 3)),
    _event(Event.EV3_FAMINE, "Famine", _ACT, (_WK, _EX, 2)),
    _event(Event.EV3_GOLDEN_AGE, "Golden age", _ACT, (_NO, _GVP, 2)),
)
EVENTS_OF_EPOCH = {e: tuple(ev.event for ev in EVENTS if ev.epoch == e) for e in EPOCHS}
#: §5.8 step 4: orange tiles go to the executed display and count toward the end.
FINAL_EPOCH = 3


# -- what is not from a published source (§10) --------------------------------------------

#: Every table above the spec marks RECONSTRUCTED, by name (a corrected table replaces one).
RECONSTRUCTED = (
    "ACTION_VALUES",  # §3.3 P/E/M values 1-2-3-4
    "TRACK_MAX",  # §3.3 maxima (3 / 6)
    "TRACK_END_VP",  # §3.3 levels of the 1/3/6 VP labels
    "BEAR_TEETH",  # §2 token values 1/2/3/5/10
    "VP_FLOOR",  # §3.6 LOSE_VP floored at 0
    "SPACE_VP",  # §3.4 VP per space by epoch
    "LIGHTNING_SPACES",  # §3.4 lightning on spaces 1-2
    "BOARDS",  # §3.4 resources, tracks and most names
    "EVENTS",  # §3.6 all 24 event texts
)

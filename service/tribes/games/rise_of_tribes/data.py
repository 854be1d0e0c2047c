"""Rise of Tribes components and constants (spec §2, §3.1-§3.5, §3.8).

Every number the rules read lives here or in ``cards`` (goal cards, events) and
``maps`` (layouts), each table citing its spec section, so a corrected table is a
data change only. Items the spec marks **[R] RECONSTRUCTED** (no published source gave
them; the project's decision) are marked ``RECONSTRUCTED`` where they are defined:
the die faces, the initial die orientation, every action power, the village cost
column order and all sixteen HOUSE-RULE leader powers.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass


class FastEnum(enum.Enum):
    """An enum hashed by identity (members are singletons): the rules look enums up in
    dicts on every move, and ``Enum.__hash__`` is a Python-level call."""

    __hash__ = object.__hash__


# -- engine constants (§2) -------------------------------------------------------------------

SEAT_COUNTS = (2, 3, 4)
MEMBERS_PER_PLAYER = 20
VILLAGE_POOL = 12  # shared; when empty no more villages can be built (G20, RECONSTRUCTED)
WIN_VP = 15
HEX_LIMIT = 5  # tribe members per hex (§5.6)
DROUGHT_LIMIT = 4  # the limit while Drought is in a slot (§3.7 E3)
EVENT_SLOTS = 2
DICE = 14  # 12 on the Action Board + 2 in the roll pool (§2)
DEFAULT_TURN_CAP = 500  # ENGINE SAFEGUARD, not a rule (§5.8, G25)


class Resource(FastEnum):
    """The three resources; the supply is unlimited (§2, G19 RECONSTRUCTED)."""

    FOOD = "food"
    WOOD = "wood"
    STONE = "stone"


RESOURCES = (Resource.FOOD, Resource.WOOD, Resource.STONE)
#: Index of a resource in every (food, wood, stone) triple of the state and the data.
RES_INDEX = {Resource.FOOD: 0, Resource.WOOD: 1, Resource.STONE: 2}


# -- terrain (§3.1) ---------------------------------------------------------------------------


class Terrain(FastEnum):
    FOREST = "forest"
    LAKE = "lake"
    MOUNTAIN = "mountain"


TERRAINS = (Terrain.FOREST, Terrain.LAKE, Terrain.MOUNTAIN)
#: What a basic terrain produces on GATHER [P].
PRODUCES = {
    Terrain.FOREST: Resource.WOOD,
    Terrain.LAKE: Resource.FOOD,
    Terrain.MOUNTAIN: Resource.STONE,
}
#: Basic tiles in the box per terrain (§2: 5 forest, 5 lake, 5 mountain).
TILES_IN_BOX = {Terrain.FOREST: 5, Terrain.LAKE: 5, Terrain.MOUNTAIN: 5}
VOLCANO_TILES = 1


def tiles_per_terrain(seats: int) -> int:
    """(players + 1) tiles of each basic terrain (§3.1)."""
    return seats + 1


# -- dice (§3.2) ------------------------------------------------------------------------------


class Face(FastEnum):
    SUN = "sun"
    MOON = "moon"
    BLANK = "blank"


#: RECONSTRUCTED (G1): the six faces of every die, 2 SUN / 2 MOON / 2 BLANK. A roll is
#: ``DIE_FACES[rng.below(6)]``, so each symbol has probability 1/3.
DIE_FACES = (Face.SUN, Face.SUN, Face.MOON, Face.MOON, Face.BLANK, Face.BLANK)


# -- Action Board (§3.3) ----------------------------------------------------------------------


class Action(FastEnum):
    GROW = "grow"
    MOVE = "move"
    GATHER = "gather"
    LEAD = "lead"


ACTIONS = (Action.GROW, Action.MOVE, Action.GATHER, Action.LEAD)
SLOTS_PER_ACTION = 3


class Tier(FastEnum):
    MOON = "moon"
    DEFAULT = "default"
    SUN = "sun"


#: RECONSTRUCTED (G3): the initial dice of every column, slot 1..3 (one of each is [P]).
INITIAL_ROW = (Face.SUN, Face.MOON, Face.BLANK)

#: RECONSTRUCTED (G2): the power of each action by tier (§3.3 table): GROW members added,
#: MOVE group size, GATHER hexes, LEAD goal cards drawn.
ACTION_POWER: dict[Action, dict[Tier, int]] = {
    Action.GROW: {Tier.MOON: 1, Tier.DEFAULT: 2, Tier.SUN: 3},
    Action.MOVE: {Tier.MOON: 2, Tier.DEFAULT: 3, Tier.SUN: 4},
    Action.GATHER: {Tier.MOON: 1, Tier.DEFAULT: 2, Tier.SUN: 3},
    Action.LEAD: {Tier.MOON: 1, Tier.DEFAULT: 2, Tier.SUN: 3},
}
#: RECONSTRUCTED (G2): resources per gathered hex, on every tier.
GATHER_YIELD = 2


def tier_of(row: tuple[Face, ...]) -> Tier:
    """The tier of the three dice in a column after pushing (§3.3) [P]."""
    if row.count(Face.SUN) >= 2:
        return Tier.SUN
    if row.count(Face.MOON) >= 2:
        return Tier.MOON
    return Tier.DEFAULT


# -- tribe boards and leaders (§3.5) ----------------------------------------------------------


class Tribe(FastEnum):
    DABA = "daba"
    DANANU = "dananu"
    INDARTSU = "indartsu"
    KAHA = "kaha"
    KIA_KIA = "kia-kia"
    KIROR = "kiror"
    MUKAAN = "mukaan"
    TUNGA = "tunga"


class Power(FastEnum):
    """The sixteen leader powers; their effects are HOUSE RULES (``leaders = house``)."""

    TRADER = "trader"
    CRAFTY_BUILDERS = "crafty-builders"
    CUNNING = "cunning"
    AGRICULTURE = "agriculture"
    FARMING = "farming"
    EXOGAMY = "exogamy"
    WAYFARERS = "wayfarers"
    FOCUSED_EFFORT = "focused-effort"
    AMBUSH = "ambush"
    DREAMTIME = "dreamtime"
    PATHFINDER = "pathfinder"
    EVASION = "evasion"
    SHARED_BOUNTY = "shared-bounty"
    INTIMIDATE = "intimidate"
    HIDDEN_VILLAGE = "hidden-village"
    LIGHT_IN_THE_DARK = "light-in-the-dark"


@dataclass(frozen=True, slots=True)
class TribeBoard:
    """One tribe board: village cost (food, wood, stone) and its leader's two powers."""

    tribe: Tribe
    name: str
    village_cost: tuple[int, int, int]
    powers: tuple[Power, Power]
    note: str = ""


#: §3.5. Costs [S] from RyanB156 ``tribes.json``; the column order (Food, Wood, Stone) is
#: RECONSTRUCTED (G6: if the source meant wood, food, stone, swap the first two numbers).
#: Power names [S].
TRIBE_BOARDS: tuple[TribeBoard, ...] = (
    TribeBoard(Tribe.DABA, "Daba", (2, 1, 3), (Power.TRADER, Power.CRAFTY_BUILDERS)),
    TribeBoard(Tribe.DANANU, "Dananu", (4, 1, 1), (Power.CUNNING, Power.AGRICULTURE)),
    TribeBoard(Tribe.INDARTSU, "Indartsu", (1, 2, 3), (Power.FARMING, Power.EXOGAMY)),
    TribeBoard(Tribe.KAHA, "Kaha", (3, 2, 1), (Power.WAYFARERS, Power.FOCUSED_EFFORT)),
    TribeBoard(
        Tribe.KIA_KIA,
        "Kia Kia",
        (1, 4, 1),
        (Power.AMBUSH, Power.DREAMTIME),
        "Kickstarter stretch-goal tribe",
    ),
    TribeBoard(Tribe.KIROR, "Kiror", (1, 3, 2), (Power.PATHFINDER, Power.EVASION)),
    TribeBoard(Tribe.MUKAAN, "Mukaan", (3, 1, 2), (Power.SHARED_BOUNTY, Power.INTIMIDATE)),
    TribeBoard(Tribe.TUNGA, "Tunga", (2, 3, 1), (Power.HIDDEN_VILLAGE, Power.LIGHT_IN_THE_DARK)),
)
BOARD_OF = {board.tribe: board for board in TRIBE_BOARDS}
TRIBES = tuple(board.tribe for board in TRIBE_BOARDS)


@dataclass(frozen=True, slots=True)
class PowerRule:
    """One leader power as a HOUSE RULE: its name, its tribe and what it does."""

    power: Power
    name: str
    tribe: Tribe
    text: str


#: RECONSTRUCTED (G7): every effect below is a HOUSE RULE placeholder of §3.5, not the
#: published power (whose text no source gave). Only in games with ``leaders = house``.
POWER_RULES: tuple[PowerRule, ...] = (
    PowerRule(
        Power.TRADER,
        "Trader",
        Tribe.DABA,
        "Once per turn in your Step 5: pay 2 resources of one type, take 1 of another.",
    ),
    PowerRule(
        Power.CRAFTY_BUILDERS,
        "Crafty Builders",
        Tribe.DABA,
        "Each village you build costs 1 resource less, of a type you name.",
    ),
    PowerRule(
        Power.CUNNING,
        "Cunning",
        Tribe.DANANU,
        "Once per turn, before using a die, reroll one of your two rolled dice.",
    ),
    PowerRule(
        Power.AGRICULTURE,
        "Agriculture",
        Tribe.DANANU,
        "+1 food in each GATHER that took food from at least one lake.",
    ),
    PowerRule(Power.FARMING, "Farming", Tribe.INDARTSU, "GROW power +1."),
    PowerRule(
        Power.EXOGAMY,
        "Exogamy",
        Tribe.INDARTSU,
        "GROW may also place into hexes next to yours that hold other players' members.",
    ),
    PowerRule(
        Power.WAYFARERS, "Wayfarers", Tribe.KAHA, "Your MOVE group may travel up to 2 hexes."
    ),
    PowerRule(
        Power.FOCUSED_EFFORT,
        "Focused Effort",
        Tribe.KAHA,
        "Once per turn, both dice may go to the same action.",
    ),
    PowerRule(
        Power.AMBUSH,
        "Ambush",
        Tribe.KIA_KIA,
        "After your MOVE ends in a hex holding other players' members, 1 of them is removed.",
    ),
    PowerRule(
        Power.DREAMTIME,
        "Dreamtime",
        Tribe.KIA_KIA,
        "LEAD: recycle up to 1 more card than your village count.",
    ),
    PowerRule(Power.PATHFINDER, "Pathfinder", Tribe.KIROR, "MOVE power +1."),
    PowerRule(
        Power.EVASION,
        "Evasion",
        Tribe.KIROR,
        "Defending in a conflict, first move up to 2 of your members there to one adjacent hex.",
    ),
    PowerRule(
        Power.SHARED_BOUNTY,
        "Shared Bounty",
        Tribe.MUKAAN,
        "GATHER from a hex you share with another player yields +1 there.",
    ),
    PowerRule(
        Power.INTIMIDATE,
        "Intimidate",
        Tribe.MUKAAN,
        "In a conflict on your turn where you hold a Majority, each other player loses 1 first.",
    ),
    PowerRule(
        Power.HIDDEN_VILLAGE,
        "Hidden Village",
        Tribe.TUNGA,
        "Your villages fall only to a conflict that leaves you absent, not to members leaving.",
    ),
    PowerRule(
        Power.LIGHT_IN_THE_DARK,
        "Light in the Dark",
        Tribe.TUNGA,
        "When one of your actions would get the MOON tier, it gets the DEFAULT tier.",
    ),
)
POWER_RULE = {rule.power: rule for rule in POWER_RULES}


# -- options (§3.7, §3.5, §5.8) ---------------------------------------------------------------


class EventSet(FastEnum):
    """Which event tiles are shuffled in (§3.7, G8 RECONSTRUCTED split)."""

    ALL16 = "all16"
    BASE12 = "base12"


class Leaders(FastEnum):
    """``off``: the basic game; ``house``: the HOUSE-RULE leader powers of §3.5 (G7)."""

    OFF = "off"
    HOUSE = "house"


# -- names for texts ----------------------------------------------------------------------------

RESOURCE_NAME = {Resource.FOOD: "food", Resource.WOOD: "wood", Resource.STONE: "stone"}
TERRAIN_NAME = {Terrain.FOREST: "Forest", Terrain.LAKE: "Lake", Terrain.MOUNTAIN: "Mountain"}
FACE_NAME = {Face.SUN: "SUN", Face.MOON: "MOON", Face.BLANK: "BLANK"}
ACTION_NAME = {
    Action.GROW: "GROW",
    Action.MOVE: "MOVE",
    Action.GATHER: "GATHER",
    Action.LEAD: "LEAD",
}


# -- die uses and payments named by moves (§5.5 SpendDie, §5.7 AltarOffer) -------------------


class SpendTarget(FastEnum):
    """What a die may be spent on instead of an action (§5.5 ``SpendDie``) [S]."""

    MAMMOTH_HUNT = "mammoth-hunt"
    MAMMOTH_TAME = "mammoth-tame"
    TIGER_HUNT = "tiger-hunt"


class AltarPayment(FastEnum):
    """The Altar's price of 1 VP besides the sacrificed member (§3.7 E13) [S]."""

    FOUR_FOOD = "4-food"
    FOUR_WOOD = "4-wood"
    FOUR_STONE = "4-stone"
    ONE_OF_EACH = "1-each"


#: (food, wood, stone) paid for each Altar payment.
ALTAR_PRICE = {
    AltarPayment.FOUR_FOOD: (4, 0, 0),
    AltarPayment.FOUR_WOOD: (0, 4, 0),
    AltarPayment.FOUR_STONE: (0, 0, 4),
    AltarPayment.ONE_OF_EACH: (1, 1, 1),
}
ABANDONED_VILLAGE_PRICE = (1, 1, 1)  # §3.7 E1
MAMMOTH_HUNTERS = 4  # own members needed in the mammoth hex (§3.7 E5)
MAMMOTH_HUNT_FOOD = 3
MAMMOTH_HUNT_VP = 1
MAMMOTH_TAME_FOOD = 3
MAMMOTH_TAME_VP = 3
TIGER_HUNT_VP = 1
INVADERS_VP = 2  # RECONSTRUCTED (G10): to the active player present when the last one falls
REENTRY_MEMBERS = 2  # §5.1
START_MEMBERS = (2, 3, 3, 3)  # §4 step 9, by position in the seat order
START_RESOURCES = 2  # the third and fourth players' resources of choice

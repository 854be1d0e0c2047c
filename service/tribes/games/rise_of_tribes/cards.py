"""Goal cards and event tiles as data (spec §3.6, §3.7; Appendix A mirrors §3).

A card's behaviour is a value here (cost, VP, kind, counters) read by the rules; the
few effects that need code are keyed by the card's enum member. The goal deck is
RECONSTRUCTED (G5) except the published names Bow, Pottery, Basketry, Oxen and the
conditions of A1/A2; the 12/4 split of the events is RECONSTRUCTED (G8), and the card
texts are paraphrases of RyanB156 ``events.json`` [S].
"""

from __future__ import annotations

from dataclasses import dataclass

from tribes.games.rise_of_tribes.data import EventSet, FastEnum, Resource, Terrain

# -- goal cards (§3.6) ------------------------------------------------------------------------


class GoalKind(FastEnum):
    DEVELOPMENT = "development"
    ACHIEVEMENT = "achievement"


class Goal(FastEnum):
    """The fifteen goal cards of one deck; the value is the move-key slug."""

    BASKETRY = "basketry"
    OXEN = "oxen"
    BOW = "bow"
    POTTERY = "pottery"
    FIRE = "fire"
    CAVE_PAINTING = "cave-painting"
    SHELTERS = "shelters"
    BOUNTIFUL_HARVEST = "bountiful-harvest"
    NEIGHBOURING_LANDS = "neighbouring-lands"
    WANDERERS = "wanderers"
    DOMINION = "dominion"
    SETTLERS = "settlers"
    GREAT_TRIBE = "great-tribe"
    RAIDERS = "raiders"
    EXPANSION = "expansion"


@dataclass(frozen=True, slots=True)
class GoalCard:
    """One goal card: developments cost (food, wood, stone) and give 1 VP and an effect;
    achievements have a condition (checked by ``rules.goals``) and give 2-4 VP."""

    goal: Goal
    id: str  # the spec's id, D1..D7, A1..A8
    name: str
    kind: GoalKind
    cost: tuple[int, int, int]
    vp: int
    text: str
    tag: str  # provenance: which parts are published, which RECONSTRUCTED


_DEV, _ACH = GoalKind.DEVELOPMENT, GoalKind.ACHIEVEMENT
_FREE = (0, 0, 0)

#: RECONSTRUCTED (G5): one deck of 15 (§3.6 tables); the 4 decks are identical.
GOAL_DECK: tuple[GoalCard, ...] = (
    GoalCard(
        Goal.BASKETRY,
        "D1",
        "Basketry",
        _DEV,
        (1, 2, 0),
        1,
        "Each GATHER that yields a resource: +1 of a type taken in that GATHER.",
        "name published, rest RECONSTRUCTED",
    ),
    GoalCard(
        Goal.OXEN,
        "D2",
        "Oxen",
        _DEV,
        (2, 1, 1),
        1,
        "Your MOVE group may travel up to 2 hexes (never through the volcano).",
        "name published, rest RECONSTRUCTED",
    ),
    GoalCard(
        Goal.BOW,
        "D3",
        "Bow",
        _DEV,
        (0, 2, 1),
        1,
        "In every conflict on your turn, first remove 1 defending member of your choice.",
        "effect published, cost RECONSTRUCTED",
    ),
    GoalCard(
        Goal.POTTERY,
        "D4",
        "Pottery",
        _DEV,
        (1, 0, 2),
        1,
        "Once in each of your Step 5s: pay 2 of one type, take 1 of any type.",
        "name and player count published, rest RECONSTRUCTED",
    ),
    GoalCard(Goal.FIRE, "D5", "Fire", _DEV, (1, 1, 1), 1, "GROW +1 member.", "RECONSTRUCTED"),
    GoalCard(
        Goal.CAVE_PAINTING,
        "D6",
        "Cave Painting",
        _DEV,
        (2, 0, 1),
        1,
        "LEAD: draw 1 extra card.",
        "RECONSTRUCTED",
    ),
    GoalCard(
        Goal.SHELTERS,
        "D7",
        "Shelters",
        _DEV,
        (0, 1, 2),
        1,
        "Your villages cost 1 resource less (you choose which).",
        "RECONSTRUCTED",
    ),
    GoalCard(
        Goal.BOUNTIFUL_HARVEST,
        "A1",
        "Bountiful Harvest",
        _ACH,
        _FREE,
        3,
        "Your GATHER this turn produced 6 or more resources (event resources excluded).",
        "condition published, VP RECONSTRUCTED",
    ),
    GoalCard(
        Goal.NEIGHBOURING_LANDS,
        "A2",
        "Majority in Neighbouring Lands",
        _ACH,
        _FREE,
        3,
        "You hold a Majority in each of 3 connected hexes (any shape).",
        "condition published, shape and VP RECONSTRUCTED",
    ),
    GoalCard(
        Goal.WANDERERS,
        "A3",
        "Wanderers",
        _ACH,
        _FREE,
        2,
        "You Occupy at least one forest, one lake and one mountain.",
        "RECONSTRUCTED",
    ),
    GoalCard(
        Goal.DOMINION,
        "A4",
        "Dominion",
        _ACH,
        _FREE,
        3,
        "You Control 2 hexes of the same terrain.",
        "RECONSTRUCTED",
    ),
    GoalCard(
        Goal.SETTLERS,
        "A5",
        "Settlers",
        _ACH,
        _FREE,
        2,
        "You own 2 or more villages.",
        "RECONSTRUCTED",
    ),
    GoalCard(
        Goal.GREAT_TRIBE,
        "A6",
        "Great Tribe",
        _ACH,
        _FREE,
        3,
        "You have 12 or more tribe members on the map.",
        "RECONSTRUCTED",
    ),
    GoalCard(
        Goal.RAIDERS,
        "A7",
        "Raiders",
        _ACH,
        _FREE,
        3,
        "This turn, a conflict you took part in destroyed an opponent's village.",
        "RECONSTRUCTED",
    ),
    GoalCard(
        Goal.EXPANSION,
        "A8",
        "Expansion",
        _ACH,
        _FREE,
        4,
        "You Occupy 6 or more hexes.",
        "RECONSTRUCTED",
    ),
)
GOAL_CARD = {card.goal: card for card in GOAL_DECK}
GOAL_BY_ID = {card.id: card.goal for card in GOAL_DECK}
GOALS = tuple(card.goal for card in GOAL_DECK)
#: Pottery is used in 3-4 player games only: removed from every 2-player deck [P].
TWO_PLAYER_REMOVED = (Goal.POTTERY,)


def deck_for(seats: int) -> tuple[Goal, ...]:
    """The goal cards of one player's deck for a player count (§3.6, §4 step 3)."""
    if seats == 2:
        return tuple(g for g in GOALS if g not in TWO_PLAYER_REMOVED)
    return GOALS


# -- events (§3.7) ----------------------------------------------------------------------------


class Event(FastEnum):
    """The sixteen event tiles; the value is the move-key slug."""

    ABANDONED_VILLAGE = "abandoned-village"
    DISCOVERY = "discovery"
    DROUGHT = "drought"
    INVADERS = "invaders"
    MAMMOTH = "mammoth"
    MILD_WINTER = "mild-winter"
    PLENTIFUL_FOOD = "plentiful-food"
    PLENTIFUL_STONE = "plentiful-stone"
    PLENTIFUL_WOOD = "plentiful-wood"
    SABERTOOTH_TIGER = "sabertooth-tiger"
    SHARED_KNOWLEDGE = "shared-knowledge"
    VOLCANO = "volcano"
    ALTAR = "altar"
    CHIEFTAIN = "chieftain"
    DUGOUT_CANOE = "dugout-canoe"
    WALLS = "walls"


@dataclass(frozen=True, slots=True)
class EventCard:
    """One event tile: lasting cards take a slot, instant ones resolve and leave (§3.7).

    ``load`` is what is put on the card when drawn, (food, wood, stone, tokens).
    ``acquire`` is the resource an acquirable card is bought with (3 minus its tokens).
    ``plentiful`` is the terrain whose gathers take from the card.
    """

    event: Event
    id: str  # E1..E16
    name: str
    base: bool  # in the base twelve (False: one of the four extra tiles)
    lasting: bool
    load: tuple[int, int, int, int]
    text: str
    acquire: Resource | None = None
    plentiful: Terrain | None = None


_NONE = (0, 0, 0, 0)
_B12, _X4 = True, False

#: §3.7 [S texts]; base-12 / extra-4 split RECONSTRUCTED (G8).
EVENT_DECK: tuple[EventCard, ...] = (
    EventCard(
        Event.ABANDONED_VILLAGE,
        "E1",
        "Abandoned Village",
        _B12,
        False,
        _NONE,
        "In turn order each player may build a village in a hex they Control for 1/1/1.",
    ),
    EventCard(
        Event.DISCOVERY,
        "E2",
        "Discovery",
        _B12,
        True,
        (2, 2, 2, 0),
        "A MOVE into a hex holding only opponents takes 1 resource of any type from here.",
    ),
    EventCard(
        Event.DROUGHT,
        "E3",
        "Drought",
        _B12,
        True,
        _NONE,
        "The hex limit is 4 from this turn's Step 4; leaves on the next doubles.",
    ),
    EventCard(
        Event.INVADERS,
        "E4",
        "Invaders",
        _B12,
        True,
        _NONE,
        "3 invaders in a least-populated hex: no gathering or building there; +1 on doubles.",
    ),
    EventCard(
        Event.MAMMOTH,
        "E5",
        "Mammoth",
        _B12,
        True,
        _NONE,
        "On the least-populated lake; with 4 members there spend a die to hunt or tame it.",
    ),
    EventCard(
        Event.MILD_WINTER,
        "E6",
        "Mild Winter",
        _B12,
        True,
        _NONE,
        "Every GROW grows 2 more; one counter per player, one removed per GROW.",
    ),
    EventCard(
        Event.PLENTIFUL_FOOD,
        "E7",
        "Plentiful Food",
        _B12,
        True,
        (6, 0, 0, 0),
        "Each lake gathered for food takes 2 more food from here.",
        plentiful=Terrain.LAKE,
    ),
    EventCard(
        Event.PLENTIFUL_STONE,
        "E8",
        "Plentiful Stone",
        _B12,
        True,
        (0, 0, 6, 0),
        "Each mountain gathered for stone takes 2 more stone from here.",
        plentiful=Terrain.MOUNTAIN,
    ),
    EventCard(
        Event.PLENTIFUL_WOOD,
        "E9",
        "Plentiful Wood",
        _B12,
        True,
        (0, 6, 0, 0),
        "Each forest gathered for wood takes 2 more wood from here.",
        plentiful=Terrain.FOREST,
    ),
    EventCard(
        Event.SABERTOOTH_TIGER,
        "E10",
        "Sabertooth Tiger",
        _B12,
        True,
        _NONE,
        "On a mountain, each tribe there loses 1; moves on doubles; spend a die to hunt it.",
    ),
    EventCard(
        Event.SHARED_KNOWLEDGE,
        "E11",
        "Shared Knowledge",
        _B12,
        True,
        _NONE,
        "Step 5: sharing a hex with an opponent, pay 1 resource here to draw a goal card.",
    ),
    EventCard(
        Event.VOLCANO,
        "E12",
        "Volcano",
        _B12,
        False,
        _NONE,
        "Placed once, erupts on every draw; hexes next to it may be gathered for stone.",
    ),
    EventCard(
        Event.ALTAR,
        "E13",
        "Altar",
        _X4,
        True,
        _NONE,
        "Buy for 3 food less its tokens; the owner may sacrifice a member and pay for 1 VP.",
        acquire=Resource.FOOD,
    ),
    EventCard(
        Event.CHIEFTAIN,
        "E14",
        "Chieftain",
        _X4,
        False,
        _NONE,
        "Auction in resources: the winner gains 1 VP (2 VP for a bid of 5 or more).",
    ),
    EventCard(
        Event.DUGOUT_CANOE,
        "E15",
        "Dugout Canoe",
        _X4,
        True,
        _NONE,
        "Buy for 3 wood less its tokens; the owner's MOVE crosses lakes without counting.",
        acquire=Resource.WOOD,
    ),
    EventCard(
        Event.WALLS,
        "E16",
        "Walls",
        _X4,
        True,
        _NONE,
        "Buy for 3 stone less its tokens; defending a village hex, remove 1 attacker first.",
        acquire=Resource.STONE,
    ),
)
EVENT_CARD = {card.event: card for card in EVENT_DECK}
EVENTS = tuple(card.event for card in EVENT_DECK)
#: Acquirable cards are discarded when their tokens reach this many (§3.7 E13, E15, E16).
ACQUIRE_TOKENS_MAX = 3
#: Shared Knowledge is discarded after this many payments (§3.7 E11).
SHARED_KNOWLEDGE_PAYMENTS = 3
INVADERS_START = 3  # §3.7 E4
INVADERS_MAX = 5
PLENTIFUL_TAKE = 2  # per matching hex gathered (§3.7 E7-E9)
CHIEFTAIN_BIG_BID = 5  # a winning bid of 5 or more gives 2 VP instead of 1 (§3.7 E14)
#: Event tokens in the box (§2): 5 invaders + mammoth + tiger + 4 markers [P count, R use].
EVENT_TOKENS = 11


def event_deck_for(event_set: EventSet) -> tuple[Event, ...]:
    """The event tiles shuffled into the deck (§4 step 7): all 16 or the base 12."""
    if event_set is EventSet.BASE12:
        return tuple(card.event for card in EVENT_DECK if card.base)
    return EVENTS

"""Five Tribes components and constants (rules spec §2, §3, §4, §7, §10).

Every number the rules use lives here, each table citing the spec section it comes
from, so a corrected card list is a data change, not a code change. The board
geometry (adjacency, 3x3 areas, distances, walk tables) is derived in ``grid``.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass

from tribes.engine import OptionSpec

# -- players (§1, §2, §4) ----------------------------------------------------------------

SEAT_COUNTS = (2, 3, 4)
STARTING_GOLD = 50  # §4 step 2
#: Camels per player by player count (§1: the two 11-camel colours in 2p).
CAMELS = {2: 11, 3: 8, 4: 8}
#: Turn markers per player by player count (§1).
MARKERS_PER_PLAYER = {2: 2, 3: 1, 4: 1}


# -- meeples (§2, §3.2) --------------------------------------------------------------------


class Meeple(enum.IntEnum):
    """The five tribes; the value is the fixed colour order Y, W, G, B, R of §6."""

    VIZIER = 0  # yellow
    ELDER = 1  # white
    MERCHANT = 2  # green
    BUILDER = 3  # blue
    ASSASSIN = 4  # red


MEEPLES = tuple(Meeple)
#: One-letter colour codes used in move keys and examples (§ Naming notes).
MEEPLE_LETTER = ("y", "w", "g", "b", "r")
MEEPLE_NAME = ("Vizier", "Elder", "Merchant", "Builder", "Assassin")
MEEPLE_PLURAL = ("Viziers", "Elders", "Merchants", "Builders", "Assassins")
#: Meeples per colour (§2; 90 in total, §3.9).
MEEPLE_COUNTS = (16, 20, 18, 18, 18)
MEEPLES_PER_TILE = 3  # §4 step 4
NO_MEEPLES = (0, 0, 0, 0, 0)


# -- tiles (§3.1) --------------------------------------------------------------------------


class TileKind(enum.Enum):
    VILLAGE = "village"
    SACRED_PLACE = "sacred-place"
    OASIS = "oasis"
    SMALL_MARKET = "small-market"
    LARGE_MARKET = "large-market"


class TileAction(enum.Enum):
    """What the final tile lets its visitor do (§3.1 "Tile action", §5.8)."""

    PALACE = "palace"  # place a Palace on this tile
    DJINN = "djinn"  # pay E+(E|F): take a displayed Djinn
    PALM = "palm"  # place a Palm Tree on this tile
    MARKET_1_OF_3 = "market-1-of-3"  # pay 3 GC: one of the first 3 cards of the row
    MARKET_2_OF_6 = "market-2-of-6"  # pay 6 GC: two of the first 6 cards of the row


@dataclass(frozen=True, slots=True)
class TileType:
    """One physical tile kind of §3.1: ``blue`` is the colour of the printed value."""

    code: str  # short name used in the spec's layouts ("S10", "SM", ...)
    kind: TileKind
    blue: bool
    value: int
    count: int
    action: TileAction
    compulsory: bool  # red arrow: Village and Oasis actions (§5.8)
    cost_gc: int = 0  # price of the action in GC (markets)


_V, _S, _O = TileKind.VILLAGE, TileKind.SACRED_PLACE, TileKind.OASIS
_SM, _LM = TileKind.SMALL_MARKET, TileKind.LARGE_MARKET

#: §3.1 data block, one row per physical tile kind; a tile's type id is its index here.
TILE_TYPES = (
    TileType("V", _V, True, 5, 5, TileAction.PALACE, True),
    TileType("S6", _S, True, 6, 4, TileAction.DJINN, False),
    TileType("S10", _S, True, 10, 1, TileAction.DJINN, False),
    TileType("S12", _S, True, 12, 1, TileAction.DJINN, False),
    TileType("S15", _S, True, 15, 1, TileAction.DJINN, False),
    TileType("O", _O, False, 8, 6, TileAction.PALM, True),
    TileType("SM", _SM, False, 6, 8, TileAction.MARKET_1_OF_3, False, cost_gc=3),
    TileType("LM", _LM, False, 4, 4, TileAction.MARKET_2_OF_6, False, cost_gc=6),
)
TILE_CODES = {tile.code: index for index, tile in enumerate(TILE_TYPES)}
#: The 30 tiles before the setup shuffle (§4 step 3), as type ids.
TILE_SET = tuple(index for index, tile in enumerate(TILE_TYPES) for _ in range(tile.count))
TILE_NAME = {
    TileKind.VILLAGE: "Village",
    TileKind.SACRED_PLACE: "Sacred Place",
    TileKind.OASIS: "Oasis",
    TileKind.SMALL_MARKET: "Small Market",
    TileKind.LARGE_MARKET: "Large Market",
}

#: Market actions (§3.1, §5.8): price in GC, cards taken, how deep into the row.
SMALL_MARKET_PRICE = TILE_TYPES[TILE_CODES["SM"]].cost_gc
SMALL_MARKET_REACH = 3  # takes 1 card
LARGE_MARKET_PRICE = TILE_TYPES[TILE_CODES["LM"]].cost_gc
LARGE_MARKET_TAKE, LARGE_MARKET_REACH = 2, 6

#: Limited supplies (§2, §10 item 20).
PALM_TREES = 12
PALACES = 10


# -- resource cards (§3.3, §3.4) -----------------------------------------------------------


class Card(enum.IntEnum):
    """The 9 merchandise types and the Fakir (first printing: Slave), §3.3."""

    IVORY = 0
    JEWELS = 1
    GOLD = 2
    PAPYRUS = 3
    SILK = 4
    SPICE = 5
    FISH = 6
    WHEAT = 7
    POTTERY = 8
    FAKIR = 9


CARDS = tuple(Card)
MERCHANDISE = CARDS[:9]
FAKIR = Card.FAKIR
CARD_SLUG = (
    "ivory",
    "jewels",
    "gold",
    "papyrus",
    "silk",
    "spice",
    "fish",
    "wheat",
    "pottery",
    "fakir",
)
CARD_NAME = tuple(slug.capitalize() for slug in CARD_SLUG)
#: Cards per type (§3.3): 36 merchandise + 18 Fakirs = 54.
CARD_COUNTS = (2, 2, 2, 4, 4, 4, 6, 6, 6, 18)
#: GC for a suit of n different types, index = n (§3.4); also its end-game VP.
SUIT_VALUE = (0, 1, 3, 7, 13, 21, 30, 40, 50, 60)
RESOURCE_ROW_SIZE = 9  # §3.9 "Rows"
NO_CARDS = (0,) * len(CARDS)


# -- turn order track (§3.5) ---------------------------------------------------------------

#: Paid spots, in play priority (highest cost plays first).
PAID_SPOTS = (18, 12, 8, 5, 3, 1)
ZERO_SPOTS = 3  # three 0 spots ("the aisle")
#: Kumarbi's price ladder (§3.5): index 0 is any zero spot.
LADDER = (0, 1, 3, 5, 8, 12, 18)


# -- Djinns (§3.6, §3.7) ------------------------------------------------------------------


class Djinn(enum.IntEnum):
    """The 22 Djinns of the base game, in the order of §3.6."""

    AL_AMIN = 0
    ANUN_NAK = 1
    BAAL = 2
    BOAZ = 3
    BOURAQ = 4
    ECHIDNA = 5
    ENKI = 6
    HAGIS = 7
    HAURVATAT = 8
    IBLIS = 9
    JAFAAR = 10
    KANDICHA = 11
    KUMARBI = 12
    LAMIA = 13
    LETA = 14
    MARID = 15
    MONKIR = 16
    NEKIR = 17
    SHAMHAT = 18
    SIBITTIS = 19
    SLOAR = 20
    UTUG = 21


class Cost(enum.Enum):
    """Djinn activation costs (§3.6 payment codes)."""

    NONE = "-"  # passive or end-game scoring
    ELDER_OR_FAKIR = "E|F"
    ELDER_PLUS = "E+(E|F)"
    FAKIR = "F"  # exactly one Fakir (Sloar)
    FAKIRS = "F*k"  # k >= 1 Fakirs while bidding (Kumarbi)


class Power(enum.Enum):
    """When a Djinn acts (§3.6 "Kind")."""

    ENDGAME = "endgame"
    PASSIVE = "passive"
    ACTIVATED = "activated"
    PLACEMENT = "placement-modifier"
    BID = "bid-modifier"


class Target(enum.Enum):
    """The parameter an activated Djinn takes (§5.9 "params")."""

    NONE = "none"
    EMPTY_TILE = "empty-tile"  # no meeple, camel, palm or palace (Anun-Nak, Leta)
    MEEPLE_TILE = "meeple-tile"  # >= 1 meeple, no camel, palm or palace (Utug)
    VILLAGE = "village"  # Bouraq
    OASIS = "oasis"  # Enki


@dataclass(frozen=True, slots=True)
class DjinnCard:
    name: str
    slug: str  # used in move keys
    vp: int
    cost: Cost
    power: Power
    target: Target = Target.NONE


#: §3.6 data block, indexed by ``Djinn``. VP total 141 (§3.6 check).
DJINNS = (
    DjinnCard("Al-Amin", "al-amin", 5, Cost.NONE, Power.ENDGAME),
    DjinnCard("Anun-Nak", "anun-nak", 8, Cost.ELDER_OR_FAKIR, Power.ACTIVATED, Target.EMPTY_TILE),
    DjinnCard("Ba'al", "baal", 6, Cost.NONE, Power.PASSIVE),
    DjinnCard("Boaz", "boaz", 6, Cost.NONE, Power.PASSIVE),
    DjinnCard("Bouraq", "bouraq", 6, Cost.ELDER_OR_FAKIR, Power.ACTIVATED, Target.VILLAGE),
    DjinnCard("Echidna", "echidna", 4, Cost.ELDER_PLUS, Power.ACTIVATED),
    DjinnCard("Enki", "enki", 8, Cost.ELDER_OR_FAKIR, Power.ACTIVATED, Target.OASIS),
    DjinnCard("Hagis", "hagis", 10, Cost.ELDER_OR_FAKIR, Power.PLACEMENT),
    DjinnCard("Haurvatat", "haurvatat", 8, Cost.NONE, Power.ENDGAME),
    DjinnCard("Iblis", "iblis", 8, Cost.ELDER_OR_FAKIR, Power.ACTIVATED),
    DjinnCard("Jafaar", "jafaar", 6, Cost.NONE, Power.ENDGAME),
    DjinnCard("Kandicha", "kandicha", 6, Cost.NONE, Power.PASSIVE),
    DjinnCard("Kumarbi", "kumarbi", 6, Cost.FAKIRS, Power.BID),
    DjinnCard("Lamia", "lamia", 10, Cost.ELDER_OR_FAKIR, Power.PLACEMENT),
    DjinnCard("Leta", "leta", 4, Cost.ELDER_PLUS, Power.ACTIVATED, Target.EMPTY_TILE),
    DjinnCard("Marid", "marid", 6, Cost.NONE, Power.PASSIVE),
    DjinnCard("Monkir", "monkir", 6, Cost.NONE, Power.PASSIVE),
    DjinnCard("Nekir", "nekir", 6, Cost.NONE, Power.PASSIVE),
    DjinnCard("Shamhat", "shamhat", 6, Cost.NONE, Power.ENDGAME),
    DjinnCard("Sibittis", "sibittis", 4, Cost.ELDER_PLUS, Power.ACTIVATED),
    DjinnCard("Sloar", "sloar", 8, Cost.FAKIR, Power.ACTIVATED),
    DjinnCard("Utug", "utug", 4, Cost.ELDER_PLUS, Power.ACTIVATED, Target.MEEPLE_TILE),
)
DJINN_BY_SLUG = {card.slug: Djinn(index) for index, card in enumerate(DJINNS)}
DJINN_DISPLAY_SIZE = 3  # §3.9 "Rows"
SIBITTIS_DRAW = 3  # §5.9
ANUN_NAK_DRAW = 3  # §5.9


class Pay(enum.Enum):
    """A payment in Elders (E, back to the bag) and Fakirs (F, to the discard), §3.6."""

    E = "e"
    F = "f"
    EE = "ee"
    EF = "ef"


#: Elders and Fakirs each payment takes.
PAY_PARTS = {Pay.E: (1, 0), Pay.F: (0, 1), Pay.EE: (2, 0), Pay.EF: (1, 1)}
#: The payments each cost code accepts (§3.6, §3.7: a Sacred Place takes E+(E|F)).
PAYMENTS = {
    Cost.ELDER_OR_FAKIR: (Pay.E, Pay.F),
    Cost.ELDER_PLUS: (Pay.EE, Pay.EF),
    Cost.FAKIR: (Pay.F,),
}
SACRED_PLACE_PAYMENTS = PAYMENTS[Cost.ELDER_PLUS]  # §3.7


# -- passive Djinn payouts (§5.9), GC to the owner: (owner acted, an opponent acted) -------

BAAL_PAYOUT = (1, 2)
MARID_PAYOUT = (1, 2)
MONKIR_PAYOUT = (1, 2)
NEKIR_PAYOUT = (1, 2)
IBLIS_KILLS = 2  # §5.7: kills with Iblis active (otherwise 1)
ECHIDNA_FACTOR = 2  # §5.7: Builders' GC doubled


# -- end-game scoring (§3.8, §7.2) ---------------------------------------------------------

VIZIER_VP, VIZIER_VP_JAFAAR = 1, 3
VIZIER_BONUS = 10  # per opponent with strictly fewer Viziers
ELDER_VP, ELDER_VP_SHAMHAT = 2, 4
PALM_VP, PALM_VP_HAURVATAT = 3, 5
PALACE_VP = 5
FAKIRS_PER_WILD = 2  # Al-Amin: 2 Fakirs = 1 wild merchandise


# -- options: the spec's flagged decisions (§10 items 2 and 3) -----------------------------

#: Hagis/Lamia "neighbouring": the 8 surrounding tiles (spec default) or the 4 adjacent.
OPTION_NEIGHBOURHOOD = "redirect_neighbourhood"
#: Nekir pays per kill event (spec default) or per meeple killed (GameTheory).
OPTION_NEKIR = "nekir_payout"

OPTIONS = (
    OptionSpec(
        name=OPTION_NEIGHBOURHOOD,
        description="tiles Hagis and Lamia may redirect to: 8 surrounding or 4 adjacent (§10.2)",
        default="8",
        choices=("8", "4"),
    ),
    OptionSpec(
        name=OPTION_NEKIR,
        description="Nekir pays per Assassinate move (event) or per meeple killed (§10.3)",
        default="event",
        choices=("event", "meeple"),
    ),
)

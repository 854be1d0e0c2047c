"""Rise of Tribes moves: one small frozen value per decision (spec §5.9 move catalogue).

Every move has a canonical ``key`` (lowercase, no spaces) that doubles as its public
move id; ``parse_move`` inverts it exactly and refuses anything else. Hexes are written
``q,r`` (axial, e.g. ``1,2`` or ``-1,3``), resources, faces, actions, goal cards and
events by their slugs, seats by number. Examples: ``start:1,1``, ``assign:sun:grow``,
``grow:1,2``, ``move:2,1:2,2``, ``move-count:3``, ``gather:1,0:wood``,
``recycle:raiders``, ``conflict:2,1``, ``complete:basketry``, ``village:1,1:wood``,
``spend:moon:mammoth-hunt``, ``bid:4``, ``give:stone:2``, ``end-turn``. ``keys.parse_move``
inverts the keys; the singletons below are the moves without parameters.
"""

from __future__ import annotations

from dataclasses import dataclass

from tribes.games.rise_of_tribes.cards import Event, Goal
from tribes.games.rise_of_tribes.data import (
    Action,
    AltarPayment,
    Face,
    Power,
    Resource,
    SpendTarget,
)
from tribes.games.rise_of_tribes.maps import Hex

# fmt: off
# -- setup (§4) -------------------------------------------------------------------------------

@dataclass(frozen=True, slots=True)
class ChoosePower:
    """(house) Choose one of your tribe's two leader powers for the game (§4 step 8a)."""
    power: Power

    @property
    def key(self) -> str:
        return f"power:{self.power.value}"

@dataclass(frozen=True, slots=True)
class PlaceStart:
    """Place your starting members (2 or 3) on one free hex (§4 step 9)."""
    hex: Hex

    @property
    def key(self) -> str:
        return f"start:{self.hex.text}"

@dataclass(frozen=True, slots=True)
class PlaceStartSplit:
    """Fourth player: 2 members on ``pair_hex``, 1 on the adjacent ``single_hex``."""
    pair_hex: Hex
    single_hex: Hex

    @property
    def key(self) -> str:
        return f"start-split:{self.pair_hex.text}:{self.single_hex.text}"

@dataclass(frozen=True, slots=True)
class StartResources:
    """Third and fourth players: take 2 resources of your choice (§4 step 9)."""
    food: int
    wood: int
    stone: int

    @property
    def key(self) -> str:
        return f"start-resources:{self.food},{self.wood},{self.stone}"

# -- Step 0 and events (§5.1, §5.4) -----------------------------------------------------------

@dataclass(frozen=True, slots=True)
class ReEnter:
    """Eliminated: place 2 members on a hex, an empty one if possible (§5.1)."""
    hex: Hex

    @property
    def key(self) -> str:
        return f"re-enter:{self.hex.text}"

@dataclass(frozen=True, slots=True)
class PlaceInvaders:
    """Put the invaders on a least-populated hex (§5.4.1)."""
    hex: Hex

    @property
    def key(self) -> str:
        return f"invaders:{self.hex.text}"

@dataclass(frozen=True, slots=True)
class PlaceMammoth:
    """Put the mammoth on a least-populated lake (§5.4.1)."""
    hex: Hex

    @property
    def key(self) -> str:
        return f"mammoth:{self.hex.text}"

@dataclass(frozen=True, slots=True)
class PlaceTiger:
    """Put (or move) the sabertooth tiger onto a mountain (§5.4.1)."""
    hex: Hex

    @property
    def key(self) -> str:
        return f"tiger:{self.hex.text}"

@dataclass(frozen=True, slots=True)
class PlaceVolcano:
    """Put the volcano tile at an empty position next to >= 2 map hexes (§5.4.1)."""
    position: Hex

    @property
    def key(self) -> str:
        return f"volcano:{self.position.text}"

@dataclass(frozen=True, slots=True)
class VolcanoLoss:
    """Lose one member to the eruption from this volcano-adjacent hex (§5.4.3)."""
    hex: Hex

    @property
    def key(self) -> str:
        return f"volcano-loss:{self.hex.text}"

@dataclass(frozen=True, slots=True)
class ChiefBid:
    """Chieftain: bid this many resources, more than the high bid (§5.4.4)."""
    amount: int

    @property
    def key(self) -> str:
        return f"bid:{self.amount}"

@dataclass(frozen=True, slots=True)
class ChiefDropOut:
    """Chieftain: leave the auction for good (§5.4.4)."""

    @property
    def key(self) -> str:
        return "drop-out"

@dataclass(frozen=True, slots=True)
class ChiefGive:
    """Chieftain winner: hand one resource of the bid to another player (§5.4.4)."""
    resource: Resource
    to_seat: int

    @property
    def key(self) -> str:
        return f"give:{self.resource.value}:{self.to_seat}"

@dataclass(frozen=True, slots=True)
class AVBuild:
    """Abandoned Village: build a village in a hex you Control for 1/1/1 (§5.4.5)."""
    hex: Hex

    @property
    def key(self) -> str:
        return f"av-build:{self.hex.text}"

@dataclass(frozen=True, slots=True)
class AVPass:
    """Abandoned Village: build nothing (§5.4.5)."""

    @property
    def key(self) -> str:
        return "av-pass"

# -- Step 3: actions (§5.5) -------------------------------------------------------------------

@dataclass(frozen=True, slots=True)
class AssignDie:
    """Place a rolled die showing ``face`` on ``action``'s column and take that action."""
    face: Face
    action: Action

    @property
    def key(self) -> str:
        return f"assign:{self.face.value}:{self.action.value}"

@dataclass(frozen=True, slots=True)
class SpendDie:
    """Spend a rolled die on the Mammoth or the Tiger instead of an action (§5.5)."""
    face: Face
    target: SpendTarget

    @property
    def key(self) -> str:
        return f"spend:{self.face.value}:{self.target.value}"

@dataclass(frozen=True, slots=True)
class CunningReroll:
    """(house) Cunning: reroll one of your rolled dice before using any (§3.5)."""
    face: Face

    @property
    def key(self) -> str:
        return f"reroll:{self.face.value}"

@dataclass(frozen=True, slots=True)
class GrowPlace:
    """GROW: add one member from your supply to this hex."""
    hex: Hex

    @property
    def key(self) -> str:
        return f"grow:{self.hex.text}"

@dataclass(frozen=True, slots=True)
class GrowDone:
    """GROW: place no more members."""

    @property
    def key(self) -> str:
        return "grow-done"

@dataclass(frozen=True, slots=True)
class MoveSelect:
    """MOVE: choose the hex to move from and the hex to move to."""
    from_hex: Hex
    to_hex: Hex

    @property
    def key(self) -> str:
        return f"move:{self.from_hex.text}:{self.to_hex.text}"

@dataclass(frozen=True, slots=True)
class MoveCount:
    """MOVE: how many members go."""
    count: int

    @property
    def key(self) -> str:
        return f"move-count:{self.count}"

@dataclass(frozen=True, slots=True)
class MoveSkip:
    """MOVE: move nothing."""

    @property
    def key(self) -> str:
        return "move-skip"

@dataclass(frozen=True, slots=True)
class DiscoveryTake:
    """Discovery: take one resource of this type from the card."""
    resource: Resource

    @property
    def key(self) -> str:
        return f"discovery:{self.resource.value}"

@dataclass(frozen=True, slots=True)
class AmbushRemove:
    """(house) Ambush: remove one member of this player from the MOVE's destination."""
    seat: int

    @property
    def key(self) -> str:
        return f"ambush:{self.seat}"

@dataclass(frozen=True, slots=True)
class GatherHex:
    """GATHER: take this resource from one of your hexes."""
    hex: Hex
    resource: Resource

    @property
    def key(self) -> str:
        return f"gather:{self.hex.text}:{self.resource.value}"

@dataclass(frozen=True, slots=True)
class GatherDone:
    """GATHER: gather from no more hexes."""

    @property
    def key(self) -> str:
        return "gather-done"

@dataclass(frozen=True, slots=True)
class BasketryBonus:
    """Basketry: the extra resource, of a type taken in this GATHER."""
    resource: Resource

    @property
    def key(self) -> str:
        return f"basketry:{self.resource.value}"

@dataclass(frozen=True, slots=True)
class RecycleGoal:
    """LEAD: put an unfulfilled goal card under your deck (one per village)."""
    goal: Goal

    @property
    def key(self) -> str:
        return f"recycle:{self.goal.value}"

@dataclass(frozen=True, slots=True)
class LeadDraw:
    """LEAD: draw the cards (power plus recycled)."""

    @property
    def key(self) -> str:
        return "lead-draw"

# -- Step 4: conflict (§5.6) ------------------------------------------------------------------

@dataclass(frozen=True, slots=True)
class ChooseConflictHex:
    """Resolve the conflict in this hex next."""
    hex: Hex

    @property
    def key(self) -> str:
        return f"conflict:{self.hex.text}"

@dataclass(frozen=True, slots=True)
class Evade:
    """(house) Evasion: move ``count`` of your members out of the conflict hex first."""
    to_hex: Hex
    count: int

    @property
    def key(self) -> str:
        return f"evade:{self.to_hex.text}:{self.count}"

@dataclass(frozen=True, slots=True)
class SkipEvade:
    """(house) Evasion: stay and fight."""

    @property
    def key(self) -> str:
        return "skip-evade"

@dataclass(frozen=True, slots=True)
class UseBow:
    """Bow: remove one member of this defending player before the rounds."""
    seat: int

    @property
    def key(self) -> str:
        return f"bow:{self.seat}"

@dataclass(frozen=True, slots=True)
class SkipBow:
    """Bow: do not use it in this hex."""

    @property
    def key(self) -> str:
        return "skip-bow"

@dataclass(frozen=True, slots=True)
class UseWalls:
    """Walls: remove one of the active player's members in your village hex."""

    @property
    def key(self) -> str:
        return "walls"

@dataclass(frozen=True, slots=True)
class SkipWalls:
    """Walls: do not use them in this hex."""

    @property
    def key(self) -> str:
        return "skip-walls"

# -- Step 5: goals and villages (§5.7) --------------------------------------------------------

@dataclass(frozen=True, slots=True)
class CompleteGoal:
    """Complete a goal card in progress: pay a development, or meet an achievement."""
    goal: Goal

    @property
    def key(self) -> str:
        return f"complete:{self.goal.value}"

@dataclass(frozen=True, slots=True)
class BuildVillage:
    """Build a village here; ``omit`` names the cost reductions (Shelters, Crafty Builders)."""
    hex: Hex
    omit: tuple[Resource, ...] = ()

    @property
    def key(self) -> str:
        if not self.omit:
            return f"village:{self.hex.text}"
        return f"village:{self.hex.text}:" + "+".join(r.value for r in self.omit)

@dataclass(frozen=True, slots=True)
class SharedKnowledge:
    """Shared Knowledge: pay 1 resource onto the card, draw a goal card."""
    resource: Resource

    @property
    def key(self) -> str:
        return f"shared-knowledge:{self.resource.value}"

@dataclass(frozen=True, slots=True)
class AcquireEvent:
    """Buy Altar, Dugout Canoe or Walls from its slot."""
    event: Event

    @property
    def key(self) -> str:
        return f"acquire:{self.event.value}"

@dataclass(frozen=True, slots=True)
class AltarOffer:
    """Altar: sacrifice one of your members in this hex and pay, for 1 VP."""
    hex: Hex
    payment: AltarPayment

    @property
    def key(self) -> str:
        return f"altar:{self.hex.text}:{self.payment.value}"

@dataclass(frozen=True, slots=True)
class PotteryTrade:
    """Pottery: pay 2 of ``give``, take 1 of ``get`` (any type)."""
    give: Resource
    get: Resource

    @property
    def key(self) -> str:
        return f"pottery:{self.give.value}:{self.get.value}"

@dataclass(frozen=True, slots=True)
class TraderTrade:
    """(house) Trader: pay 2 of ``give``, take 1 of another type ``get``."""
    give: Resource
    get: Resource

    @property
    def key(self) -> str:
        return f"trade:{self.give.value}:{self.get.value}"

@dataclass(frozen=True, slots=True)
class EndTurn:
    """End your turn."""

    @property
    def key(self) -> str:
        return "end-turn"
# fmt: on


Move = (
    ChoosePower | PlaceStart | PlaceStartSplit | StartResources | ReEnter | PlaceInvaders
    | PlaceMammoth | PlaceTiger | PlaceVolcano | VolcanoLoss | ChiefBid | ChiefDropOut
    | ChiefGive | AVBuild | AVPass | AssignDie | SpendDie | CunningReroll | GrowPlace | GrowDone
    | MoveSelect | MoveCount | MoveSkip | DiscoveryTake | AmbushRemove | GatherHex | GatherDone
    | BasketryBonus | RecycleGoal | LeadDraw | ChooseConflictHex | Evade | SkipEvade | UseBow
    | SkipBow | UseWalls | SkipWalls | CompleteGoal | BuildVillage | SharedKnowledge
    | AcquireEvent | AltarOffer | PotteryTrade | TraderTrade | EndTurn
)  # fmt: skip

CHIEF_DROP_OUT = ChiefDropOut()
AV_PASS = AVPass()
GROW_DONE = GrowDone()
MOVE_SKIP = MoveSkip()
GATHER_DONE = GatherDone()
LEAD_DRAW = LeadDraw()
SKIP_EVADE = SkipEvade()
SKIP_BOW = SkipBow()
USE_WALLS = UseWalls()
SKIP_WALLS = SkipWalls()
END_TURN = EndTurn()

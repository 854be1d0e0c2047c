"""The card-effect vocabulary of Fate of Akalon (spec §5.6, drop-in format §3.6).

A card's behaviour is data: a list of ``Ability`` values, each a timing (§5.6.1), an
optional ``attacking``/``defending`` condition and a list of steps. Every step is one
primitive of the spec's small DSL (§5.6.2) and maps to one handler in
``rules/steps.py`` (triggered and on-play steps) or ``rules/values.py`` (static
modifiers and play limits). The names and parameters follow the YAML of §3.6 one to
one, so a corrected published card list is a change of ``data.py`` only.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from typing import Literal, TypeAlias


class Faction(Enum):
    """The four tribes, listed in canonical order (their id prefixes DWF < ELF < ORC < UND)."""

    DWARF = "dwarf"
    ELF = "elf"
    ORC = "orc"
    UNDEAD = "undead"

    @property
    def title(self) -> str:
        return self.value.capitalize()


Timing = Literal[
    "on_play",
    "static",
    "after_all_played",
    "victorious",
    "defeated",
    "replacement",
    "cemetery_reinforce_before_draw",
    "cemetery_reinforce_after_draw",
]
Condition = Literal["attacking", "defending"]
Zone = Literal["battlefield", "hand", "cemetery"]
Destination = Literal["hand", "discard_top", "deck_top", "deck_bottom", "out_of_play"]
CardRef = Literal["T", "self", "deck_top", "discard_top"]
PlayerRef = Literal["self", "X"]
Owners = Literal["self", "opponents", "X"]
ModifyTarget = Literal["self", "T", "own_other", "opposing"]
Mode = Literal["continuous", "snapshot"]


@dataclass(frozen=True, slots=True)
class CardFilter:
    """Filter keys of §5.6.2; every key that is set must match."""

    name: str | None = None
    attribute: tuple[str, ...] = ()
    max_printed_value: int | None = None
    not_self: bool = False


# -- formulas (modify amounts) -------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Count:
    """``{count: own_other}``: the other cards the owner has on the battlefield."""

    what: Literal["own_other"] = "own_other"


@dataclass(frozen=True, slots=True)
class HandSize:
    """``{hand_size: self}``: cards in the ability owner's hand."""

    player: Literal["self"] = "self"


@dataclass(frozen=True, slots=True)
class CemeteryValue:
    """``{cemetery_value: self}``: the owner's cemetery value (printed values, §5.6.3)."""

    player: Literal["self"] = "self"


@dataclass(frozen=True, slots=True)
class Min:
    """``{min: [a, b]}``."""

    left: Amount
    right: Amount


@dataclass(frozen=True, slots=True)
class FloorDiv:
    """``{floor_div: [a, b]}``."""

    left: Amount
    right: Amount


Amount: TypeAlias = "int | Count | HandSize | CemeteryValue | Min | FloorDiv"


# -- steps (the primitives of §5.6.2) -------------------------------------------------


@dataclass(frozen=True, slots=True)
class Modify:
    """A value modifier (static: continuous; triggered: stored as an effect)."""

    target: ModifyTarget
    amount: Amount
    filter: CardFilter = CardFilter()
    mode: Mode = "continuous"


@dataclass(frozen=True, slots=True)
class ExtraPlay:
    """One optional additional play from the owner's hand (EXTRA_PLAY)."""

    filter: CardFilter = CardFilter()
    optional: bool = True


@dataclass(frozen=True, slots=True)
class Reveal:
    """Move the top ``count`` deck cards to the owner's public reveal area; bind them."""

    count: int


@dataclass(frozen=True, slots=True)
class PlayOneOf:
    """PLAY_REVEALED: play one of the bound revealed cards."""

    optional: bool = True


@dataclass(frozen=True, slots=True)
class DiscardRest:
    """The bound revealed cards not played go onto the owner's discard (ORDER_DISCARD)."""


@dataclass(frozen=True, slots=True)
class Draw:
    count: int


@dataclass(frozen=True, slots=True)
class DiscardRandom:
    """Player X discards a uniformly random hand card (canonical order, R-37)."""

    player: PlayerRef = "X"
    count: int = 1


@dataclass(frozen=True, slots=True)
class ChooseCard:
    """CHOOSE_CARD over the matching cards; binds T."""

    zone: Zone
    owner: Owners
    optional: bool
    filter: CardFilter = CardFilter()
    chooser: PlayerRef = "self"


@dataclass(frozen=True, slots=True)
class ChooseOpponent:
    """CHOOSE_OPPONENT over the active opponents; binds X."""

    optional: bool


@dataclass(frozen=True, slots=True)
class Move:
    """Move one card within its owner's areas; nobody chooses."""

    card: CardRef
    to: Destination


@dataclass(frozen=True, slots=True)
class Look:
    """Private information for the ability owner (written to their private log)."""

    what: Literal["deck_top", "hand"]
    player: PlayerRef = "self"


@dataclass(frozen=True, slots=True)
class IgnoreText:
    """A continuous text-ignore effect (§5.6.4)."""

    target: Literal["T", "opposing_all"]


@dataclass(frozen=True, slots=True)
class PlayLimit:
    """A continuous play prohibition (§5.6.5)."""

    max_total: int
    players: Literal["opponents"] = "opponents"


@dataclass(frozen=True, slots=True)
class DesignateAttacker:
    """Append a next-attacker designation (§5.3 B5, last effect wins)."""

    player: PlayerRef


@dataclass(frozen=True, slots=True)
class ReinforceExtraDraw:
    """Adds to the reinforcement draw (B7 step 1)."""

    count: int


@dataclass(frozen=True, slots=True)
class ReplaceDestination:
    """Changes this card's Aftermath destination (B4 step 2)."""

    source: Literal["cemetery"]
    to: Literal["discard", "out_of_play"]


@dataclass(frozen=True, slots=True)
class May:
    """YES_NO for the owner; the inner steps run only on "yes" and only if possible."""

    steps: tuple[Step, ...]


Step: TypeAlias = (
    "Modify | ExtraPlay | Reveal | PlayOneOf | DiscardRest | Draw | DiscardRandom | ChooseCard"
    " | ChooseOpponent | Move | Look | IgnoreText | PlayLimit | DesignateAttacker"
    " | ReinforceExtraDraw | ReplaceDestination | May"
)


@dataclass(frozen=True, slots=True)
class Ability:
    """One ability: when it acts, under which side condition, and what it does."""

    timing: Timing
    steps: tuple[Step, ...]
    condition: Condition | None = None


@dataclass(frozen=True, slots=True)
class CardDef:
    """One card definition (§2 card anatomy, §3.1 identity)."""

    id: str
    name: str
    faction: Faction
    value: int
    copies: int
    attribute: str | None
    text: str
    abilities: tuple[Ability, ...]
    provenance: str  # RECONSTRUCTED, PARTIAL(...) or PUBLISHED (§3.3, §3.6)

    @property
    def is_reconstructed(self) -> bool:
        """True when any field of this card is our reconstruction rather than published."""
        return self.provenance != "PUBLISHED"

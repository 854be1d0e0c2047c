"""Fate of Akalon's moves: one small value per move type of spec §5.4.

Each move has a canonical ``key`` (lowercase, no spaces) that doubles as its public
move id; ``parse_move`` inverts it exactly and rejects anything else as malformed.
Cards are named by their instance key (``orc-goblin-1``, see ``cards.py``).

=====================  =============================  ==================================
move                   key                            decision (§5.4)
=====================  =============================  ==================================
ChooseFirstAttacker    ``attacker:<seat>``            CHOOSE_FIRST_ATTACKER
PlayCard               ``play:<card>``                PLAY, EXTRA_PLAY, PLAY_REVEALED
Decline                ``decline``                    optional decisions
ChooseOpponent         ``opponent:<seat>``            CHOOSE_OPPONENT
ChooseCard             ``choose:<card>``              CHOOSE_CARD
ChooseYesNo            ``yes`` / ``no``               YES_NO
ResolveTrigger         ``trigger:<card>:<index>``     ORDER_TRIGGERS
PlaceOnDiscard         ``discard:<card>``             ORDER_DISCARD
=====================  =============================  ==================================
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TypeAlias

from tribes.engine import MalformedMoveError
from tribes.games.fate_of_akalon.cards import INSTANCE, KEY


@dataclass(frozen=True, slots=True)
class ChooseFirstAttacker:
    seat: int

    @property
    def key(self) -> str:
        return f"attacker:{self.seat}"


@dataclass(frozen=True, slots=True)
class PlayCard:
    card: str

    @property
    def key(self) -> str:
        return f"play:{self.card}"


@dataclass(frozen=True, slots=True)
class Decline:
    @property
    def key(self) -> str:
        return "decline"


@dataclass(frozen=True, slots=True)
class ChooseOpponent:
    seat: int

    @property
    def key(self) -> str:
        return f"opponent:{self.seat}"


@dataclass(frozen=True, slots=True)
class ChooseCard:
    card: str

    @property
    def key(self) -> str:
        return f"choose:{self.card}"


@dataclass(frozen=True, slots=True)
class ChooseYesNo:
    yes: bool

    @property
    def key(self) -> str:
        return "yes" if self.yes else "no"


@dataclass(frozen=True, slots=True)
class ResolveTrigger:
    """Resolve this pending ability next: ``card`` and its 0-based ability index."""

    card: str
    ability: int

    @property
    def key(self) -> str:
        return f"trigger:{self.card}:{self.ability}"


@dataclass(frozen=True, slots=True)
class PlaceOnDiscard:
    card: str

    @property
    def key(self) -> str:
        return f"discard:{self.card}"


AkalonMove: TypeAlias = (
    ChooseFirstAttacker
    | PlayCard
    | Decline
    | ChooseOpponent
    | ChooseCard
    | ChooseYesNo
    | ResolveTrigger
    | PlaceOnDiscard
)

DECLINE = Decline()
YES = ChooseYesNo(True)
NO = ChooseYesNo(False)
#: Shared move values per instance: ``legal_moves`` builds no new objects for them.
PLAY: tuple[PlayCard, ...] = tuple(PlayCard(key) for key in KEY)
CHOOSE: tuple[ChooseCard, ...] = tuple(ChooseCard(key) for key in KEY)
PLACE: tuple[PlaceOnDiscard, ...] = tuple(PlaceOnDiscard(key) for key in KEY)

_BARE: dict[str, AkalonMove] = {"decline": DECLINE, "yes": YES, "no": NO}
_HELP = (
    "expected attacker:<seat>, play:<card>, decline, opponent:<seat>, choose:<card>, "
    "yes, no, trigger:<card>:<index> or discard:<card>"
)


def parse_move(key: str) -> AkalonMove:
    """The move whose canonical key is ``key``; MalformedMoveError for anything else."""
    move = _parse(key)
    if move is None or move.key != key:
        raise MalformedMoveError(f"{key!r} is not a Fate of Akalon move ({_HELP})")
    return move


def _parse(key: str) -> AkalonMove | None:
    kind, _, arg = key.partition(":")
    if not arg:
        return _BARE.get(kind)
    if kind == "trigger":
        card, _, index = arg.rpartition(":")
        return ResolveTrigger(card, int(index)) if card in INSTANCE and _is_number(index) else None
    if kind in ("play", "choose", "discard"):
        if arg not in INSTANCE:
            return None
        return (
            PlayCard(arg)
            if kind == "play"
            else ChooseCard(arg)
            if kind == "choose"
            else (PlaceOnDiscard(arg))
        )
    if kind in ("attacker", "opponent") and _is_number(arg):
        return ChooseFirstAttacker(int(arg)) if kind == "attacker" else ChooseOpponent(int(arg))
    return None


def _is_number(text: str) -> bool:
    return text.isascii() and text.isdigit()


def card_of(move: PlayCard | ChooseCard | PlaceOnDiscard | ResolveTrigger) -> int:
    """The instance a card move names."""
    return INSTANCE[move.card]

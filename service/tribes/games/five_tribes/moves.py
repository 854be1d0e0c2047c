"""Five Tribes moves: one small hashable value per decision (rules spec §5.12).

Every move has a canonical ``key`` (lowercase, no spaces) that doubles as its public
move id; ``parse_move`` inverts it exactly and refuses anything else. Tiles are
written ``r-c`` (row 0..4, column 0..5), meeples by colour letter (``y w g b r``),
payments as ``e f ee ef``. Examples: ``bid:12:k2``, ``pickup:2-3``, ``drop:2-4:w``,
``kill:0-4:wb``, ``kill:p2:y``, ``buy:enki:ef``, ``djinn:anun-nak:f:4-5``,
``sell:ivory+fish``, ``redirect:1-3:f``.
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import pairwise

from tribes.engine import MalformedMoveError
from tribes.games.five_tribes.data import (
    CARD_SLUG,
    DJINN_BY_SLUG,
    DJINNS,
    LADDER,
    MEEPLE_LETTER,
    MEEPLES,
    MERCHANDISE,
    PAID_SPOTS,
    Card,
    Djinn,
    Meeple,
    Pay,
)
from tribes.games.five_tribes.grid import label, parse_label

_PAYS = {pay.value: pay for pay in Pay}
_LETTERS = {letter: MEEPLES[index] for index, letter in enumerate(MEEPLE_LETTER)}
_CARDS = {slug: Card(index) for index, slug in enumerate(CARD_SLUG)}


def _meeples(kills: tuple[Meeple, ...]) -> str:
    return "".join(MEEPLE_LETTER[m] for m in kills)


@dataclass(frozen=True, slots=True)
class Bid:
    """Put the turn marker on a Turn Order spot (§5.3); Kumarbi lowers the price."""

    spot: int
    kumarbi_fakirs: int = 0

    @property
    def key(self) -> str:
        if self.kumarbi_fakirs:
            return f"bid:{self.spot}:k{self.kumarbi_fakirs}"
        return f"bid:{self.spot}"


@dataclass(frozen=True, slots=True)
class BidOverflow:
    """RECONSTRUCTED fallback when no spot is affordable (§5.3, §10 item 11)."""

    @property
    def key(self) -> str:
        return "bid:overflow"


@dataclass(frozen=True, slots=True)
class PickUp:
    """Take all meeples of a tile into the hand (§5.5.1 rule 1)."""

    tile: int

    @property
    def key(self) -> str:
        return f"pickup:{label(self.tile)}"


@dataclass(frozen=True, slots=True)
class SkipMovement:
    """No legal meeple move exists: the end is triggered (§5.4, §7.1)."""

    @property
    def key(self) -> str:
        return "skip-movement"


@dataclass(frozen=True, slots=True)
class Drop:
    """Drop one meeple of the hand on the next tile of the path (§5.5.3)."""

    tile: int
    meeple: Meeple

    @property
    def key(self) -> str:
        return f"drop:{label(self.tile)}:{MEEPLE_LETTER[self.meeple]}"


@dataclass(frozen=True, slots=True)
class ResolveTribe:
    """Viziers, Elders or Merchants: the tribe action has no choice (§5.7)."""

    @property
    def key(self) -> str:
        return "resolve-tribe"


@dataclass(frozen=True, slots=True)
class Build:
    """Builders: earn gold, discarding ``fakirs`` Fakirs as extra Builders (§5.7)."""

    fakirs: int

    @property
    def key(self) -> str:
        return f"build:{self.fakirs}"


@dataclass(frozen=True, slots=True)
class Assassinate:
    """Assassins kill ``kills`` on a tile or in an opponent's supply (§5.7).

    Exactly one of ``tile`` and ``opponent`` is set; ``fakirs`` is the minimal number
    of Fakirs needed to reach the tile (§10 item 8).
    """

    kills: tuple[Meeple, ...]
    tile: int | None = None
    opponent: int | None = None
    fakirs: int = 0

    @property
    def key(self) -> str:
        if self.opponent is not None:
            return f"kill:p{self.opponent}:{_meeples(self.kills)}"
        assert self.tile is not None
        extra = f":f{self.fakirs}" if self.fakirs else ""
        return f"kill:{label(self.tile)}:{_meeples(self.kills)}{extra}"


@dataclass(frozen=True, slots=True)
class AssassinateNone:
    """Assassins with nothing to kill (§5.7)."""

    @property
    def key(self) -> str:
        return "kill:none"


@dataclass(frozen=True, slots=True)
class PlacePalm:
    """Oasis: place a Palm Tree (compulsory, §5.8)."""

    @property
    def key(self) -> str:
        return "palm"


@dataclass(frozen=True, slots=True)
class PlacePalace:
    """Village: place a Palace (compulsory, §5.8)."""

    @property
    def key(self) -> str:
        return "palace"


@dataclass(frozen=True, slots=True)
class SmallMarket:
    """Pay 3 GC, take the card at ``index`` among the first 3 of the row (§5.8)."""

    index: int

    @property
    def key(self) -> str:
        return f"small-market:{self.index}"


@dataclass(frozen=True, slots=True)
class LargeMarket:
    """Pay 6 GC, take the cards at ``indices`` among the first 6 of the row (§5.8)."""

    indices: tuple[int, ...]

    @property
    def key(self) -> str:
        return "large-market:" + ",".join(map(str, self.indices))


@dataclass(frozen=True, slots=True)
class BuyDjinn:
    """Sacred Place: take a displayed Djinn paying EE or EF (§3.7, §5.8)."""

    djinn: Djinn
    pay: Pay

    @property
    def key(self) -> str:
        return f"buy:{DJINNS[self.djinn].slug}:{self.pay.value}"


@dataclass(frozen=True, slots=True)
class SkipTileAction:
    """Decline an optional tile action, or pass an Oasis/Village with no supply (§5.8)."""

    @property
    def key(self) -> str:
        return "skip-tile"


@dataclass(frozen=True, slots=True)
class PlaceHere:
    """Keep the palm/palace on the intended tile; Hagis/Lamia stay unused (§5.9)."""

    @property
    def key(self) -> str:
        return "place-here"


@dataclass(frozen=True, slots=True)
class PlaceRedirect:
    """Hagis/Lamia: pay to put the palace/palm on a neighbouring tile (§5.9)."""

    tile: int
    pay: Pay

    @property
    def key(self) -> str:
        return f"redirect:{label(self.tile)}:{self.pay.value}"


@dataclass(frozen=True, slots=True)
class KeepDjinn:
    """Sibittis: keep one of the drawn Djinns (§5.9)."""

    djinn: Djinn

    @property
    def key(self) -> str:
        return f"keep:{DJINNS[self.djinn].slug}"


@dataclass(frozen=True, slots=True)
class UseDjinn:
    """Activate an owned Djinn's paid power (§5.9); ``tile`` for the Djinns that target one."""

    djinn: Djinn
    pay: Pay
    tile: int | None = None

    @property
    def key(self) -> str:
        where = f":{label(self.tile)}" if self.tile is not None else ""
        return f"djinn:{DJINNS[self.djinn].slug}:{self.pay.value}{where}"


@dataclass(frozen=True, slots=True)
class SellSuit:
    """Sell one card of each of these different merchandise types (§5.10)."""

    cards: tuple[Card, ...]  # distinct, in Card order

    @property
    def key(self) -> str:
        return "sell:" + "+".join(CARD_SLUG[c] for c in self.cards)


@dataclass(frozen=True, slots=True)
class EndTurn:
    """End the action turn (§5.10)."""

    @property
    def key(self) -> str:
        return "end-turn"


Move = (
    Bid
    | BidOverflow
    | PickUp
    | SkipMovement
    | Drop
    | ResolveTribe
    | Build
    | Assassinate
    | AssassinateNone
    | PlacePalm
    | PlacePalace
    | SmallMarket
    | LargeMarket
    | BuyDjinn
    | SkipTileAction
    | PlaceHere
    | PlaceRedirect
    | KeepDjinn
    | UseDjinn
    | SellSuit
    | EndTurn
)

_PLAIN: dict[str, Move] = {
    move.key: move
    for move in (
        BidOverflow(),
        SkipMovement(),
        ResolveTribe(),
        AssassinateNone(),
        PlacePalm(),
        PlacePalace(),
        SkipTileAction(),
        PlaceHere(),
        EndTurn(),
    )
}


def _number(text: str, prefix: str = "") -> int:
    if not text.startswith(prefix) or not text[len(prefix) :].isdigit():
        raise ValueError(f"not a number: {text!r}")
    return int(text[len(prefix) :])


def _kills(text: str) -> tuple[Meeple, ...]:
    if not text:
        raise ValueError("no meeple named")
    return tuple(_LETTERS[letter] for letter in text)


def _parse(key: str) -> Move:
    if key in _PLAIN:
        return _PLAIN[key]
    kind, _, rest = key.partition(":")
    args = rest.split(":")
    match kind, len(args):
        case "bid", 1:
            return Bid(_number(args[0]))
        case "bid", 2:
            return Bid(_number(args[0]), _number(args[1], "k"))
        case "pickup", 1:
            return PickUp(parse_label(args[0]))
        case "drop", 2:
            return Drop(parse_label(args[0]), _LETTERS[args[1]])
        case "build", 1:
            return Build(_number(args[0]))
        case "kill", 2 if args[0].startswith("p"):
            return Assassinate(_kills(args[1]), opponent=_number(args[0], "p"))
        case "kill", 2:
            return Assassinate(_kills(args[1]), tile=parse_label(args[0]))
        case "kill", 3:
            return Assassinate(_kills(args[1]), parse_label(args[0]), None, _number(args[2], "f"))
        case "small-market", 1:
            return SmallMarket(_number(args[0]))
        case "large-market", 1:
            return LargeMarket(tuple(_number(part) for part in args[0].split(",")))
        case "buy", 2:
            return BuyDjinn(DJINN_BY_SLUG[args[0]], _PAYS[args[1]])
        case "redirect", 2:
            return PlaceRedirect(parse_label(args[0]), _PAYS[args[1]])
        case "keep", 1:
            return KeepDjinn(DJINN_BY_SLUG[args[0]])
        case "djinn", 2:
            return UseDjinn(DJINN_BY_SLUG[args[0]], _PAYS[args[1]])
        case "djinn", 3:
            return UseDjinn(DJINN_BY_SLUG[args[0]], _PAYS[args[1]], parse_label(args[2]))
        case "sell", 1:
            return SellSuit(tuple(_CARDS[slug] for slug in args[0].split("+")))
    raise ValueError(f"unknown move {key!r}")


def _well_formed(move: Move) -> bool:
    """Shape checks that do not depend on the state (values any game could have)."""
    match move:
        case Bid(spot, k):
            return (spot == 0 and k == 0) or (spot in PAID_SPOTS and 0 <= k < len(LADDER))
        case Assassinate(kills, _, opponent, _):
            in_order = list(kills) == sorted(kills)
            return 1 <= len(kills) <= 2 and in_order and (opponent is None or opponent < 4)
        case SmallMarket(index):
            return index < 3
        case LargeMarket(indices):
            increasing = all(a < b for a, b in pairwise(indices))
            return 1 <= len(indices) <= 2 and increasing and all(i < 6 for i in indices)
        case SellSuit(cards):
            distinct = all(a < b for a, b in pairwise(cards))
            return bool(cards) and distinct and all(card in MERCHANDISE for card in cards)
    return True


def parse_move(key: str) -> Move:
    """The move whose key is ``key``; MalformedMoveError for anything else.

    Only canonical keys parse (the parsed move's key must give ``key`` back), so a
    move id means exactly one move.
    """
    try:
        move = _parse(key)
    except (ValueError, KeyError, IndexError) as exc:
        raise MalformedMoveError(f"{key!r} is not a Five Tribes move") from exc
    if move.key != key or not _well_formed(move):
        raise MalformedMoveError(f"{key!r} is not a Five Tribes move in canonical form")
    return move

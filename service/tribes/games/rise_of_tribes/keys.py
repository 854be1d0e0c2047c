"""Move keys back to moves: ``parse_move`` inverts ``Move.key`` exactly (spec §5.9).

Only canonical keys parse: the parsed move's key must give the text back, and shapes
no game could ever offer (a start of 3 resources, a count of 0) are refused, so one move
id names exactly one move and anything else is a MalformedMoveError.
"""

from __future__ import annotations

from collections.abc import Callable

from tribes.engine import MalformedMoveError
from tribes.games.rise_of_tribes.cards import Event, Goal
from tribes.games.rise_of_tribes.data import (
    RES_INDEX,
    Action,
    AltarPayment,
    Face,
    Power,
    Resource,
    SpendTarget,
)
from tribes.games.rise_of_tribes.maps import Hex
from tribes.games.rise_of_tribes.moves import (
    AV_PASS,
    CHIEF_DROP_OUT,
    END_TURN,
    GATHER_DONE,
    GROW_DONE,
    LEAD_DRAW,
    MOVE_SKIP,
    SKIP_BOW,
    SKIP_EVADE,
    SKIP_WALLS,
    USE_WALLS,
    AcquireEvent,
    AltarOffer,
    AmbushRemove,
    AssignDie,
    AVBuild,
    BasketryBonus,
    BuildVillage,
    ChiefBid,
    ChiefGive,
    ChooseConflictHex,
    ChoosePower,
    CompleteGoal,
    CunningReroll,
    DiscoveryTake,
    Evade,
    GatherHex,
    GrowPlace,
    Move,
    MoveCount,
    MoveSelect,
    PlaceInvaders,
    PlaceMammoth,
    PlaceStart,
    PlaceStartSplit,
    PlaceTiger,
    PlaceVolcano,
    PotteryTrade,
    RecycleGoal,
    ReEnter,
    SharedKnowledge,
    SpendDie,
    StartResources,
    TraderTrade,
    UseBow,
    VolcanoLoss,
)

_PLAIN: dict[str, Move] = {
    m.key: m
    for m in (
        CHIEF_DROP_OUT, AV_PASS, GROW_DONE, MOVE_SKIP, GATHER_DONE, LEAD_DRAW, SKIP_EVADE,
        SKIP_BOW, USE_WALLS, SKIP_WALLS, END_TURN,
    )
}  # fmt: skip
_HEX_MOVES: dict[str, Callable[[Hex], Move]] = {
    "start": PlaceStart,
    "re-enter": ReEnter,
    "invaders": PlaceInvaders,
    "mammoth": PlaceMammoth,
    "tiger": PlaceTiger,
    "volcano": PlaceVolcano,
    "volcano-loss": VolcanoLoss,
    "av-build": AVBuild,
    "grow": GrowPlace,
    "conflict": ChooseConflictHex,
}
_RESOURCE_MOVES: dict[str, Callable[[Resource], Move]] = {
    "discovery": DiscoveryTake,
    "basketry": BasketryBonus,
    "shared-knowledge": SharedKnowledge,
}
_SEAT_MOVES: dict[str, Callable[[int], Move]] = {"ambush": AmbushRemove, "bow": UseBow}
_NUMBER_MOVES: dict[str, Callable[[int], Move]] = {"bid": ChiefBid, "move-count": MoveCount}
_TRADES: dict[str, Callable[[Resource, Resource], Move]] = {
    "pottery": PotteryTrade,
    "trade": TraderTrade,
}


def _hex(text: str) -> Hex:
    q, r = text.split(",")
    return Hex(int(q), int(r))


def _number(text: str) -> int:
    if not text.isdigit():
        raise ValueError(f"not a number: {text!r}")
    return int(text)


def _parse(key: str) -> Move:
    plain = _PLAIN.get(key)
    if plain is not None:
        return plain
    kind, _, rest = key.partition(":")
    args = rest.split(":")
    n = len(args)
    if kind in _HEX_MOVES and n == 1:
        return _HEX_MOVES[kind](_hex(args[0]))
    if kind in _RESOURCE_MOVES and n == 1:
        return _RESOURCE_MOVES[kind](Resource(args[0]))
    if kind in _SEAT_MOVES and n == 1:
        return _SEAT_MOVES[kind](_number(args[0]))
    if kind in _NUMBER_MOVES and n == 1:
        return _NUMBER_MOVES[kind](_number(args[0]))
    if kind in _TRADES and n == 2:
        return _TRADES[kind](Resource(args[0]), Resource(args[1]))
    match kind, n:
        case "power", 1:
            return ChoosePower(Power(args[0]))
        case "start-split", 2:
            return PlaceStartSplit(_hex(args[0]), _hex(args[1]))
        case "start-resources", 1:
            food, wood, stone = (_number(part) for part in args[0].split(","))
            return StartResources(food, wood, stone)
        case "give", 2:
            return ChiefGive(Resource(args[0]), _number(args[1]))
        case "assign", 2:
            return AssignDie(Face(args[0]), Action(args[1]))
        case "spend", 2:
            return SpendDie(Face(args[0]), SpendTarget(args[1]))
        case "reroll", 1:
            return CunningReroll(Face(args[0]))
        case "move", 2:
            return MoveSelect(_hex(args[0]), _hex(args[1]))
        case "gather", 2:
            return GatherHex(_hex(args[0]), Resource(args[1]))
        case "recycle", 1:
            return RecycleGoal(Goal(args[0]))
        case "evade", 2:
            return Evade(_hex(args[0]), _number(args[1]))
        case "complete", 1:
            return CompleteGoal(Goal(args[0]))
        case "village", 1:
            return BuildVillage(_hex(args[0]))
        case "village", 2:
            return BuildVillage(_hex(args[0]), tuple(Resource(p) for p in args[1].split("+")))
        case "acquire", 1:
            return AcquireEvent(Event(args[0]))
        case "altar", 2:
            return AltarOffer(_hex(args[0]), AltarPayment(args[1]))
    raise ValueError(f"unknown move {key!r}")


def _well_formed(move: Move) -> bool:
    """Shape checks that do not depend on the state."""
    match move:
        case StartResources(food, wood, stone):
            return min(food, wood, stone) >= 0 and food + wood + stone == 2
        case ChiefBid(amount) | MoveCount(amount):
            return amount >= 1
        case Evade(_, count):
            return 1 <= count <= 2
        case AmbushRemove(seat) | UseBow(seat) | ChiefGive(_, seat):
            return seat < 4
        case BuildVillage(_, omit):
            ranks = [RES_INDEX[r] for r in omit]
            return len(omit) <= 2 and ranks == sorted(ranks)
    return True


def parse_move(key: str) -> Move:
    """The move whose key is ``key``; MalformedMoveError for anything else.

    Only canonical keys parse (the parsed move's key must give ``key`` back), so one
    move id means exactly one move.
    """
    try:
        move = _parse(key)
    except (ValueError, KeyError, IndexError, TypeError) as exc:
        raise MalformedMoveError(f"{key!r} is not a Rise of Tribes move") from exc
    if move.key != key or not _well_formed(move):
        raise MalformedMoveError(f"{key!r} is not a Rise of Tribes move in canonical form")
    return move

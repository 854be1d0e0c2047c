"""Words for players: move descriptions and why a move is not legal now (spec §5.3-§5.10).

``describe`` names the decision in the rulebook's vocabulary ("Drop an Elder on (2,4)",
"Buy Djinn Jafaar paying 2 Elders"). ``explain_illegal`` answers for a well-formed move
that ``legal_moves`` does not offer, citing the rule a player would recognise.
"""

from __future__ import annotations

from tribes.games.five_tribes.data import (
    CARD_NAME,
    DJINNS,
    LARGE_MARKET_PRICE,
    MEEPLE_NAME,
    MEEPLE_PLURAL,
    PAY_PARTS,
    SMALL_MARKET_PRICE,
    SUIT_VALUE,
    TILE_NAME,
    TILE_TYPES,
    Meeple,
    Pay,
)
from tribes.games.five_tribes.grid import coords
from tribes.games.five_tribes.moves import (
    Assassinate,
    AssassinateNone,
    Bid,
    BidOverflow,
    Build,
    BuyDjinn,
    Drop,
    EndTurn,
    KeepDjinn,
    LargeMarket,
    Move,
    PickUp,
    PlaceHere,
    PlacePalace,
    PlacePalm,
    PlaceRedirect,
    ResolveTribe,
    SellSuit,
    SkipMovement,
    SkipTileAction,
    SmallMarket,
    UseDjinn,
)
from tribes.games.five_tribes.rules.rounds import price
from tribes.games.five_tribes.rules.tribes import builder_gold
from tribes.games.five_tribes.state import State, Step


def where(tile: int) -> str:
    """A tile as players read it: ``(row,col)``."""
    row, col = coords(tile)
    return f"({row},{col})"


def tile_name(state: State, tile: int) -> str:
    tile_type = TILE_TYPES[state.layout[tile]]
    return f"{where(tile)} {TILE_NAME[tile_type.kind]}"


def _a(name: str) -> str:
    return f"an {name}" if name[0] in "AEIOU" else f"a {name}"


def payment(pay: Pay) -> str:
    elders, fakirs = PAY_PARTS[pay]
    parts = []
    if elders:
        parts.append("an Elder" if elders == 1 else f"{elders} Elders")
    if fakirs:
        parts.append("a Fakir")
    return " and ".join(parts)


def _kills(kills: tuple[Meeple, ...]) -> str:
    if len(kills) == 2 and kills[0] == kills[1]:
        return f"2 {MEEPLE_PLURAL[kills[0]]}"
    return " and ".join(_a(MEEPLE_NAME[m]) for m in kills)


def _cards(names: list[str]) -> str:
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + f" and {names[-1]}"


def describe(state: State, move: Move) -> str:
    """A short sentence naming the decision."""
    turn = state.turn
    match move:
        case Bid(0, _):
            return "Bid 0 GC (a zero spot; you play before earlier zero bids)"
        case Bid(spot, 0):
            return f"Bid {spot} GC for turn order"
        case Bid(spot, k):
            return f"Bid for the {spot} spot paying {price(move)} GC and {k} Fakir(s) (Kumarbi)"
        case BidOverflow():
            return "Take the overflow spot (no affordable bid): play last, pay nothing"
        case PickUp(tile):
            count = sum(state.meeples[tile])
            return f"Pick up the {count} meeple(s) on {tile_name(state, tile)}"
        case SkipMovement():
            return "No meeple move is possible: skip the move (the game ends after this round)"
        case Drop(tile, meeple):
            return f"Drop {_a(MEEPLE_NAME[meeple])} on {tile_name(state, tile)}"
        case ResolveTribe():
            assert turn is not None and turn.tribe is not None
            if turn.tribe == Meeple.MERCHANT:
                return f"Merchants: take the first {turn.collected} card(s) of the row"
            return f"Keep {turn.collected} {MEEPLE_PLURAL[turn.tribe]}"
        case Build(fakirs):
            assert turn is not None and turn.final is not None
            gold = builder_gold(state, turn.seat, turn.collected + fakirs, turn.final)
            extra = f" and {fakirs} Fakir(s)" if fakirs else ""
            return f"Build with {turn.collected} Builders{extra} for {gold} GC"
        case Assassinate(kills, tile, opponent, fakirs):
            extra = f", discarding {fakirs} Fakir(s) for range" if fakirs else ""
            if tile is not None:
                return f"Assassinate {_kills(kills)} on {tile_name(state, tile)}{extra}"
            return f"Assassinate {_kills(kills)} in front of seat {opponent}"
        case AssassinateNone():
            return "The Assassins find no target"
        case PlacePalm():
            assert turn is not None and turn.final is not None
            return f"Place a Palm Tree on {tile_name(state, turn.final)}"
        case PlacePalace():
            assert turn is not None and turn.final is not None
            return f"Place a Palace on {tile_name(state, turn.final)}"
        case SmallMarket(index):
            card = CARD_NAME[state.resource_row[index]]
            return f"Pay {SMALL_MARKET_PRICE} GC for {card} (card {index + 1} of the row)"
        case LargeMarket(indices):
            names = [CARD_NAME[state.resource_row[i]] for i in indices]
            return f"Pay {LARGE_MARKET_PRICE} GC for {_cards(names)}"
        case BuyDjinn(djinn, pay):
            return f"Buy Djinn {DJINNS[djinn].name} paying {payment(pay)}"
        case SkipTileAction():
            return "Skip the tile action"
        case PlaceHere():
            assert turn is not None and turn.pending is not None and turn.pending.tile is not None
            thing = "Palm Tree" if state.step is Step.PLACE_PALM else "Palace"
            return f"Place the {thing} on {tile_name(state, turn.pending.tile)}"
        case PlaceRedirect(tile, pay):
            palm = state.step is Step.PLACE_PALM
            helper, thing = ("Lamia", "Palm Tree") if palm else ("Hagis", "Palace")
            on = tile_name(state, tile)
            return f"Use {helper} paying {payment(pay)}: place the {thing} on {on} instead"
        case KeepDjinn(djinn):
            return f"Keep Djinn {DJINNS[djinn].name}"
        case UseDjinn(djinn, pay, tile):
            target = f" on {tile_name(state, tile)}" if tile is not None else ""
            return f"Use Djinn {DJINNS[djinn].name} paying {payment(pay)}{target}"
        case SellSuit(cards):
            names = [CARD_NAME[c] for c in cards]
            return f"Sell {_cards(names)} for {SUIT_VALUE[len(cards)]} GC"
        case EndTurn():
            return "End the turn"
    raise AssertionError(f"unknown move {move!r}")

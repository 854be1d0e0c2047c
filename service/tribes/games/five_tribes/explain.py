"""Why a well-formed move is not legal now, in a player's words (rules spec §5.2-§5.10).

Called by the driver for a parsed move that ``legal_moves`` does not offer. The checks
mirror the legality rules of each step; the last resort names the pending decision.
"""

from __future__ import annotations

from tribes.games.five_tribes.data import (
    DJINNS,
    MEEPLE_NAME,
    MEEPLE_PLURAL,
    PAY_PARTS,
    PAYMENTS,
    TILE_NAME,
    TILE_TYPES,
    ZERO_SPOTS,
    Djinn,
    Meeple,
    Power,
)
from tribes.games.five_tribes.describe import where
from tribes.games.five_tribes.grid import ADJACENT, DISTANCE
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
from tribes.games.five_tribes.rules import to_act
from tribes.games.five_tribes.rules.rounds import LADDER_RUNG, TRACK_SLOT, price
from tribes.games.five_tribes.state import DJINN_WINDOWS, State, Step

#: What each step expects, for the catch-all answer.
_WANTED = {
    Step.BID: "place your turn marker on the Turn Order track (bid)",
    Step.START: "choose a tile to pick meeples up from (or use a Djinn)",
    Step.DROP: "drop your next meeple",
    Step.TRIBE: "resolve the tribe you collected",
    Step.TILE: "take (or skip) the action of your final tile",
    Step.SALE: "sell merchandise, use a Djinn, or end your turn",
    Step.PLACE_PALM: "choose where the Palm Tree goes",
    Step.PLACE_PALACE: "choose where the Palace goes",
    Step.SIBITTIS_KEEP: "keep one of the Djinns Sibittis drew",
}

_STEP_OF: dict[type, tuple[Step, ...]] = {
    Bid: (Step.BID,),
    BidOverflow: (Step.BID,),
    PickUp: (Step.START,),
    SkipMovement: (Step.START,),
    Drop: (Step.DROP,),
    ResolveTribe: (Step.TRIBE,),
    Build: (Step.TRIBE,),
    Assassinate: (Step.TRIBE,),
    AssassinateNone: (Step.TRIBE,),
    PlacePalm: (Step.TILE,),
    PlacePalace: (Step.TILE,),
    SmallMarket: (Step.TILE,),
    LargeMarket: (Step.TILE,),
    BuyDjinn: (Step.TILE,),
    SkipTileAction: (Step.TILE,),
    PlaceHere: (Step.PLACE_PALM, Step.PLACE_PALACE),
    PlaceRedirect: (Step.PLACE_PALM, Step.PLACE_PALACE),
    KeepDjinn: (Step.SIBITTIS_KEEP,),
    UseDjinn: tuple(DJINN_WINDOWS),
    SellSuit: (Step.SALE,),
    EndTurn: (Step.SALE,),
}


def explain_illegal(state: State, seat: int, move: Move) -> str:
    """A player-readable reason why ``move`` is not legal for ``seat`` now."""
    if state.step is Step.GAME_OVER:
        return "the game is over"
    if seat not in to_act(state):
        return "it is not your turn"
    steps = _STEP_OF.get(type(move))
    if steps is not None and state.step not in steps:
        return f"you cannot do that now: {_WANTED[state.step]}"
    reason = _specific(state, seat, move)
    return reason or f"that is not one of your legal moves now: {_WANTED[state.step]}"


def _specific(state: State, seat: int, move: Move) -> str | None:
    player = state.players[seat]
    turn = state.turn
    match move:
        case Bid(0, _):
            if len(state.zero_aisle) >= ZERO_SPOTS:
                return "all three 0 spots are taken: you must bid on a free paid spot"
        case Bid(spot, k):
            if state.track[TRACK_SLOT[spot]] is not None:
                return f"the {spot} spot is already taken"
            if k and not player.owns(Djinn.KUMARBI):
                return "only the owner of Kumarbi may pay a bid with Fakirs"
            if k and not player.can_use(Djinn.KUMARBI):
                return "Kumarbi has already been used this round"
            if k > player.fakirs:
                return f"you hold only {player.fakirs} Fakir(s)"
            if k > LADDER_RUNG[spot]:
                return f"Kumarbi can lower the {spot} spot by at most {LADDER_RUNG[spot]} rung(s)"
            if price(move) > player.gold:
                return f"you cannot afford {price(move)} GC"
        case BidOverflow():
            return "the overflow spot is only for a marker that cannot make any bid"
        case PickUp(tile):
            if not any(state.meeples[tile]):
                return f"there are no meeples on {where(tile)}"
            return (
                f"no path from {where(tile)} can end on a tile that already holds a meeple "
                "of the last meeple's colour"
            )
        case SkipMovement():
            return "a legal meeple move exists, so you must move"
        case Drop(tile, meeple):
            assert turn is not None and turn.pos is not None
            if tile not in ADJACENT[turn.pos]:
                return f"{where(tile)} is not orthogonally adjacent to {where(turn.pos)}"
            if tile == turn.prev:
                return f"you may not step straight back to {where(tile)}"
            if not turn.hand[meeple]:
                return f"you hold no {MEEPLE_NAME[meeple]}"
            if sum(turn.hand) == 1:
                return (
                    f"the last meeple must land on a tile already holding "
                    f"{'an' if meeple == Meeple.ELDER else 'a'} {MEEPLE_NAME[meeple]}"
                )
            return "after this drop your remaining meeples could not end the move legally"
        case ResolveTribe() | Build() | Assassinate():
            return _tribe(state, seat, move)
        case PlacePalm() | PlacePalace() | SmallMarket() | LargeMarket() | BuyDjinn():
            assert turn is not None and turn.final is not None
            kind = TILE_NAME[TILE_TYPES[state.layout[turn.final]].kind]
            return f"your final tile {where(turn.final)} is a {kind}; that action is not possible"
        case SkipTileAction():
            return "the Palm Tree / Palace of an Oasis / Village is compulsory"
        case PlaceRedirect():
            return "you can only redirect to a neighbouring tile and must pay an Elder or a Fakir"
        case KeepDjinn(djinn):
            return f"Sibittis did not draw {DJINNS[djinn].name}"
        case UseDjinn(djinn, pay, _):
            name = DJINNS[djinn].name
            if not player.owns(djinn):
                return f"you do not own {name}"
            if DJINNS[djinn].power is not Power.ACTIVATED:
                return f"{name} has no power to activate"
            if djinn in player.used:
                return f"{name} has already been used this round"
            if pay not in PAYMENTS[DJINNS[djinn].cost]:
                return f"{name} cannot be paid that way"
            elders, fakirs = PAY_PARTS[pay]
            if player.elders < elders or player.fakirs < fakirs:
                return f"you cannot pay {name}'s cost"
            return f"{name}'s power is not possible with that target now"
        case SellSuit(cards):
            if any(not player.cards[c] for c in cards):
                return "you do not hold every one of those merchandise types"
    return None


def _tribe(state: State, seat: int, move: Move) -> str | None:
    turn = state.turn
    assert turn is not None and turn.tribe is not None and turn.final is not None
    collected = MEEPLE_PLURAL[turn.tribe]
    player = state.players[seat]
    if isinstance(move, ResolveTribe):
        return f"you collected {collected}: choose how to use them"
    if isinstance(move, Build):
        if turn.tribe != Meeple.BUILDER:
            return f"you collected {collected}, not Builders"
        return f"you hold only {player.fakirs} Fakir(s)"
    assert isinstance(move, Assassinate)
    if turn.tribe != Meeple.ASSASSIN:
        return f"you collected {collected}, not Assassins"
    if move.opponent is not None:
        if move.opponent == seat or move.opponent >= state.seats:
            return "you can only kill in front of an opponent"
        if state.players[move.opponent].owns(Djinn.BOAZ):
            return "Boaz protects that player's Viziers and Elders"
        return "that player does not have those meeples (or you must kill the number Iblis sets)"
    assert move.tile is not None
    need = max(0, DISTANCE[turn.final][move.tile] - turn.collected)
    if need > player.fakirs:
        return f"{where(move.tile)} is out of range of your Assassins"
    if need != move.fakirs:
        return f"reaching {where(move.tile)} takes exactly {need} Fakir(s)"
    kills = 2 if player.iblis else 1
    return (
        f"{where(move.tile)} does not hold those meeples "
        f"(you kill {min(kills, sum(state.meeples[move.tile]))} there)"
    )

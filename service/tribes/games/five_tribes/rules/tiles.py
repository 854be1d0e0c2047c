"""A5 TILE: the final tile's action, and palm/palace placement (rules spec §5.8, §5.9).

Oasis and Village actions are compulsory (skipped only with an empty supply); markets
and Sacred Places are optional. Placing a palm or palace opens the PLACE_PALM /
PLACE_PALACE sub-decision whenever Lamia / Hagis is usable (§5.9 "Placement
modifiers"); Monkir pays for every palace placed.
"""

from __future__ import annotations

from dataclasses import replace
from itertools import combinations

from tribes.games.five_tribes.data import (
    BAAL_PAYOUT,
    LARGE_MARKET_PRICE,
    LARGE_MARKET_REACH,
    LARGE_MARKET_TAKE,
    MONKIR_PAYOUT,
    SACRED_PLACE_PAYMENTS,
    SMALL_MARKET_PRICE,
    SMALL_MARKET_REACH,
    TILE_TYPES,
    Djinn,
    Pay,
    TileAction,
)
from tribes.games.five_tribes.grid import ADJACENT, NEIGHBOURS_8
from tribes.games.five_tribes.moves import (
    BuyDjinn,
    LargeMarket,
    PlaceHere,
    PlacePalace,
    PlacePalm,
    PlaceRedirect,
    SkipTileAction,
    SmallMarket,
)
from tribes.games.five_tribes.rules.common import (
    add_cards,
    can_pay,
    mark_used,
    passive_payout,
    pay,
    with_item,
    with_player,
)
from tribes.games.five_tribes.state import Pending, Player, State, Step, Turn

TileMove = PlacePalm | PlacePalace | SmallMarket | LargeMarket | BuyDjinn | SkipTileAction
PlaceMove = PlaceHere | PlaceRedirect


# -- the tile action (A5) -----------------------------------------------------------------


def tile_moves(state: State, turn: Turn) -> list[TileMove]:
    """The final tile's action moves (§5.8 table); Djinn uses are added by the caller."""
    assert turn.final is not None
    action = TILE_TYPES[state.layout[turn.final]].action
    player = state.players[turn.seat]
    row = state.resource_row
    if action is TileAction.PALM:
        return [PlacePalm() if state.palm_supply else SkipTileAction()]
    if action is TileAction.PALACE:
        return [PlacePalace() if state.palace_supply else SkipTileAction()]
    moves: list[TileMove] = [SkipTileAction()]
    if action is TileAction.MARKET_1_OF_3:
        if player.gold >= SMALL_MARKET_PRICE and row:
            moves.extend(SmallMarket(i) for i in range(min(SMALL_MARKET_REACH, len(row))))
    elif action is TileAction.MARKET_2_OF_6:
        if player.gold >= LARGE_MARKET_PRICE and row:
            # exactly min(2, row) cards (§10 item 10): one card left still costs 6 GC (§8)
            take = min(LARGE_MARKET_TAKE, len(row))
            reach = range(min(LARGE_MARKET_REACH, len(row)))
            moves.extend(LargeMarket(indices) for indices in combinations(reach, take))
    else:  # Sacred Place, §3.7
        for djinn in state.djinn_display:
            moves.extend(BuyDjinn(djinn, p) for p in SACRED_PLACE_PAYMENTS if can_pay(player, p))
    return moves


def _to_sale(state: State, turn: Turn) -> State:
    return replace(state, step=Step.SALE, turn=turn)


def apply_tile_move(state: State, turn: Turn, move: TileMove) -> State:
    seat = turn.seat
    assert turn.final is not None
    match move:
        case PlacePalm():
            return start_palm(state, turn, turn.final, Step.SALE)
        case PlacePalace():
            return start_palace(state, turn, turn.final, Step.SALE)
        case SmallMarket(index):
            return _to_sale(_buy_cards(state, seat, SMALL_MARKET_PRICE, (index,)), turn)
        case LargeMarket(indices):
            return _to_sale(_buy_cards(state, seat, LARGE_MARKET_PRICE, indices), turn)
        case BuyDjinn(djinn, payment):
            state = pay(state, seat, payment)
            display = tuple(d for d in state.djinn_display if d != djinn)
            state = acquire_djinn(replace(state, djinn_display=display), seat, djinn)
            return _to_sale(state, turn)
        case SkipTileAction():
            return _to_sale(state, turn)


def _buy_cards(state: State, seat: int, price: int, indices: tuple[int, ...]) -> State:
    row = state.resource_row
    taken = tuple(row[i] for i in indices)
    state = replace(state, resource_row=tuple(c for i, c in enumerate(row) if i not in indices))
    player = state.players[seat]
    player = replace(player, gold=player.gold - price, cards=add_cards(player.cards, taken))
    return with_player(state, seat, player)


def acquire_djinn(state: State, seat: int, djinn: Djinn) -> State:
    """The Djinn joins the player (passive powers act at once); Ba'al pays (§5.9, §10.4)."""
    player = state.players[seat]
    state = with_player(state, seat, replace(player, djinns=(*player.djinns, djinn)))
    if djinn != Djinn.BAAL:
        state = passive_payout(state, Djinn.BAAL, seat, BAAL_PAYOUT)
    return state


# -- palms and palaces, with the Lamia / Hagis redirect (§5.9) ----------------------------


def can_redirect(player: Player, djinn: Djinn) -> bool:
    """Hagis/Lamia is usable: owned, unused this round, and an Elder or a Fakir to pay."""
    return player.can_use(djinn) and (player.elders > 0 or player.fakirs > 0)


def place_palm(state: State, tile: int) -> State:
    return replace(
        state,
        palms=with_item(state.palms, tile, state.palms[tile] + 1),
        palm_supply=state.palm_supply - 1,
    )


def place_palace(state: State, seat: int, tile: int) -> State:
    """Monkir pays for every palace placed (§5.9)."""
    state = replace(
        state,
        palaces=with_item(state.palaces, tile, state.palaces[tile] + 1),
        palace_supply=state.palace_supply - 1,
    )
    return passive_payout(state, Djinn.MONKIR, seat, MONKIR_PAYOUT)


def start_palm(state: State, turn: Turn, tile: int, resume: Step) -> State:
    """Place a palm on ``tile``, or open PLACE_PALM if Lamia is usable; then ``resume``."""
    if can_redirect(state.players[turn.seat], Djinn.LAMIA):
        pending = Pending(return_step=resume, tile=tile, drawn=())
        return replace(state, step=Step.PLACE_PALM, turn=replace(turn, pending=pending))
    return replace(place_palm(state, tile), step=resume, turn=turn)


def start_palace(state: State, turn: Turn, tile: int, resume: Step) -> State:
    """Place a palace on ``tile``, or open PLACE_PALACE if Hagis is usable; then ``resume``."""
    if can_redirect(state.players[turn.seat], Djinn.HAGIS):
        pending = Pending(return_step=resume, tile=tile, drawn=())
        return replace(state, step=Step.PLACE_PALACE, turn=replace(turn, pending=pending))
    return replace(place_palace(state, turn.seat, tile), step=resume, turn=turn)


def redirect_targets(state: State, tile: int) -> tuple[int, ...]:
    """ "Neighbouring" tiles: the 8 around (spec default) or the 4 adjacent (option, §10.2)."""
    return NEIGHBOURS_8[tile] if state.redirect_reach == 8 else ADJACENT[tile]


def place_moves(state: State, turn: Turn) -> list[PlaceMove]:
    """PLACE_PALM / PLACE_PALACE: keep it here for free, or pay to redirect (§5.9)."""
    assert turn.pending is not None and turn.pending.tile is not None
    player = state.players[turn.seat]
    pays = [p for p in (Pay.E, Pay.F) if can_pay(player, p)]
    moves: list[PlaceMove] = [PlaceHere()]
    for tile in redirect_targets(state, turn.pending.tile):
        moves.extend(PlaceRedirect(tile, p) for p in pays)
    return moves


def apply_place(state: State, turn: Turn, move: PlaceMove) -> State:
    pending = turn.pending
    assert pending is not None and pending.tile is not None
    seat = turn.seat
    palm = state.step is Step.PLACE_PALM
    tile = pending.tile
    if isinstance(move, PlaceRedirect):
        state = pay(state, seat, move.pay)
        state = mark_used(state, seat, Djinn.LAMIA if palm else Djinn.HAGIS)
        tile = move.tile
    state = place_palm(state, tile) if palm else place_palace(state, seat, tile)
    return replace(state, step=pending.return_step, turn=replace(turn, pending=None))

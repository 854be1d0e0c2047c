"""Five Tribes rules as pure functions: dispatch of moves by step (rules spec §5.2, §5.12).

One decision is pending at a time (``state.step``); ``legal_moves`` lists every move
of that step (plus ``UseDjinn`` in the Djinn windows START, TRIBE, TILE and SALE),
sorted by key, and ``apply`` dispatches to the phase modules. Automatic steps (A0, A3,
A4b, CLEANUP) run inside the ``apply`` of the move that leads to them.
"""

from __future__ import annotations

from dataclasses import replace
from operator import attrgetter

from tribes.engine import Result
from tribes.engine.game import competition_ranks
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
from tribes.games.five_tribes.rules.djinns import apply_keep, apply_use, djinn_moves, keep_moves
from tribes.games.five_tribes.rules.movement import (
    apply_drop,
    apply_pick_up,
    drop_moves,
    pickup_moves,
)
from tribes.games.five_tribes.rules.rounds import (
    apply_bid,
    apply_end_turn,
    apply_sell,
    bid_moves,
    bidder,
    sell_moves,
)
from tribes.games.five_tribes.rules.tiles import (
    apply_place,
    apply_tile_move,
    place_moves,
    tile_moves,
)
from tribes.games.five_tribes.rules.tribes import (
    apply_assassinate,
    apply_assassinate_none,
    apply_build,
    apply_resolve,
    tribe_moves,
)
from tribes.games.five_tribes.state import DJINN_WINDOWS, State, Step

_KEY = attrgetter("key")


def to_act(state: State) -> tuple[int, ...]:
    """The one seat whose decision is pending; nobody once the game is over (§5.2)."""
    if state.step is Step.GAME_OVER:
        return ()
    if state.step is Step.BID:
        return (bidder(state),)
    assert state.turn is not None
    return (state.turn.seat,)


def _moves(state: State) -> list[Move]:
    step = state.step
    if step is Step.BID:
        return list(bid_moves(state))
    turn = state.turn
    assert turn is not None
    moves: list[Move]
    if step is Step.DROP:
        return list(drop_moves(state, turn))
    if step is Step.START:
        moves = list(pickup_moves(state)) or [SkipMovement()]
    elif step is Step.TRIBE:
        moves = list(tribe_moves(state, turn))
    elif step is Step.TILE:
        moves = list(tile_moves(state, turn))
    elif step is Step.SALE:
        moves = [*sell_moves(state, turn), EndTurn()]
    elif step is Step.SIBITTIS_KEEP:
        return list(keep_moves(turn))
    else:
        return list(place_moves(state, turn))
    if step in DJINN_WINDOWS:
        moves.extend(djinn_moves(state, turn))
    return moves


def legal_moves(state: State, seat: int) -> tuple[Move, ...]:
    """Every legal move of ``seat``, sorted by key (empty when it is not to act)."""
    if seat not in to_act(state):
        return ()
    return tuple(sorted(_moves(state), key=_KEY))


def apply(state: State, seat: int, move: Move) -> State:
    """Apply a legal move (the driver has checked legality) and return the new state."""
    if isinstance(move, Bid | BidOverflow):
        return apply_bid(state, move)
    turn = state.turn
    assert turn is not None
    match move:
        case PickUp():
            return apply_pick_up(state, turn, move)
        case Drop():
            return apply_drop(state, turn, move)
        case SkipMovement():
            # §7.1: no legal meeple move; the end is triggered, the player may still sell
            return replace(state, step=Step.SALE, end_triggered=True)
        case ResolveTribe():
            return apply_resolve(state, turn)
        case Build():
            return apply_build(state, turn, move)
        case Assassinate():
            return apply_assassinate(state, turn, move)
        case AssassinateNone():
            return apply_assassinate_none(state, turn)
        case PlacePalm() | PlacePalace() | SmallMarket() | LargeMarket() | BuyDjinn():
            return apply_tile_move(state, turn, move)
        case SkipTileAction():
            return apply_tile_move(state, turn, move)
        case PlaceHere() | PlaceRedirect():
            return apply_place(state, turn, move)
        case KeepDjinn():
            return apply_keep(state, turn, move)
        case UseDjinn():
            return apply_use(state, turn, move)
        case SellSuit():
            return apply_sell(state, turn, move)
        case EndTurn():
            return apply_end_turn(state)
    raise AssertionError(f"unknown move {move!r}")


def result(state: State) -> Result | None:
    """None until GAME_OVER; ties are shared, no tie-breaker (§7.3)."""
    scores = state.final_scores
    if scores is None:
        return None
    ranks = competition_ranks(scores)
    best = max(scores)
    winners = [str(seat) for seat, score in enumerate(scores) if score == best]
    if len(winners) == 1:
        summary = f"seat {winners[0]} wins with {best} VP"
    else:
        summary = f"seats {', '.join(winners)} share the victory with {best} VP"
    return Result(scores=scores, ranks=ranks, summary=summary)


def scores(state: State, viewer: int) -> tuple[int, ...]:
    """Final scores once the game is over; none before (running totals contain hidden gold)."""
    return state.final_scores or ()

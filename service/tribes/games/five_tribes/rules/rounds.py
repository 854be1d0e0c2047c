"""The round: bids, turn order, sale, end of turn, clean-up (spec §5.3-5.4, §5.10-5.11, §7.1).

BID (§5.3): paid spots hold one marker each; up to three markers share the 0 spots, the
latest zero bidder playing first; Kumarbi discards Fakirs to pay the price of a lower
rung of the ladder; a marker that can afford nothing while the zeros are full takes the
RECONSTRUCTED overflow spot (§10 item 11).

A0 (§5.4) takes the next marker in play order off the Turn Order track (paid spots by
descending cost, then the zero aisle from its front, then the overflow) and appends it
to the next round's bid order.

SALE (§5.10): one ``SellSuit`` per non-empty subset of the merchandise types held (the
normative encoding); ``EndTurn`` is always legal and the only way a turn ends.

CLEANUP (§5.11) refills the resource row and the Djinn display (reshuffling discards
when a pile runs out), resets the per-round Djinn flags, and either ends the game (§7.1)
or starts the next bid.
"""

from __future__ import annotations

from dataclasses import replace

from tribes.games.five_tribes.data import (
    DJINN_DISPLAY_SIZE,
    LADDER,
    MERCHANDISE,
    NO_MEEPLES,
    PAID_SPOTS,
    RESOURCE_ROW_SIZE,
    SUIT_VALUE,
    ZERO_SPOTS,
    Djinn,
)
from tribes.games.five_tribes.moves import Bid, BidOverflow, SellSuit
from tribes.games.five_tribes.rules.common import (
    discard_fakirs,
    draw_djinns,
    draw_resources,
    mark_used,
    with_player,
)
from tribes.games.five_tribes.rules.movement import has_meeple_move
from tribes.games.five_tribes.rules.scoring import final_scores
from tribes.games.five_tribes.state import State, Step, Turn

# -- BID (§5.3) -------------------------------------------------------------------------

BidMove = Bid | BidOverflow

#: Index of each paid spot in ``State.track`` and on Kumarbi's ladder.
TRACK_SLOT = {spot: slot for slot, spot in enumerate(PAID_SPOTS)}
LADDER_RUNG = {spot: rung for rung, spot in enumerate(LADDER)}


def bidder(state: State) -> int:
    """The seat owning the marker at the front of the bid order (§5.3 "Actor")."""
    return state.marker_owner(state.bid_order[0])


def price(move: Bid) -> int:
    """GC paid for a bid: the spot's cost, or ``k`` rungs lower with Kumarbi (§5.3)."""
    return LADDER[LADDER_RUNG[move.spot] - move.kumarbi_fakirs]


def bid_moves(state: State) -> list[BidMove]:
    """Exactly the legal ``(spot, kumarbi_fakirs)`` pairs, or the overflow bid (§5.3, E4)."""
    player = state.players[bidder(state)]
    moves: list[BidMove] = []
    if len(state.zero_aisle) < ZERO_SPOTS:
        moves.append(Bid(0))
    kumarbi = player.fakirs if player.can_use(Djinn.KUMARBI) else 0
    for spot in PAID_SPOTS:
        if state.track[TRACK_SLOT[spot]] is not None:
            continue
        rung = LADDER_RUNG[spot]
        if player.gold >= spot:
            moves.append(Bid(spot))
        for k in range(1, min(kumarbi, rung) + 1):
            if player.gold >= LADDER[rung - k]:
                moves.append(Bid(spot, k))
    return moves or [BidOverflow()]


def apply_bid(state: State, move: BidMove) -> State:
    """Pay, place the marker; after the last bid the action phase starts (A0, §5.2)."""
    marker = state.bid_order[0]
    seat = state.marker_owner(marker)
    state = replace(state, bid_order=state.bid_order[1:])
    if isinstance(move, BidOverflow):
        state = replace(state, overflow=(*state.overflow, marker))
    elif move.spot == 0:
        # the latest zero bidder plays first: earlier zeros are pushed down the aisle
        state = replace(state, zero_aisle=(marker, *state.zero_aisle))
    else:
        player = state.players[seat]
        state = with_player(state, seat, replace(player, gold=player.gold - price(move)))
        if move.kumarbi_fakirs:
            state = discard_fakirs(state, seat, move.kumarbi_fakirs)
            state = mark_used(state, seat, Djinn.KUMARBI)
        slot = TRACK_SLOT[move.spot]
        track = state.track
        state = replace(state, track=(*track[:slot], marker, *track[slot + 1 :]))
    if state.bid_order:
        return state
    return begin_next_turn(state)


# -- A0 and CLEANUP (§5.4, §5.11, §7.1) -------------------------------------------------


def next_marker(state: State) -> tuple[State, int | None]:
    """Remove and return the marker that plays next (§5.3 "Play order")."""
    track = state.track
    for slot, marker in enumerate(track):
        if marker is not None:
            return replace(state, track=(*track[:slot], None, *track[slot + 1 :])), marker
    if state.zero_aisle:
        return replace(state, zero_aisle=state.zero_aisle[1:]), state.zero_aisle[0]
    if state.overflow:
        return replace(state, overflow=state.overflow[1:]), state.overflow[0]
    return state, None


def begin_next_turn(state: State) -> State:
    """A0 for the next marker, or CLEANUP when every marker has played (§5.4)."""
    state, marker = next_marker(state)
    if marker is None:
        return cleanup(state)
    turn = Turn(
        marker=marker,
        seat=state.marker_owner(marker),
        hand=NO_MEEPLES,
        pos=None,
        prev=None,
        start=None,
        final=None,
        tribe=None,
        collected=0,
        pending=None,
    )
    return replace(
        state, step=Step.START, turn=turn, next_bid_order=(*state.next_bid_order, marker)
    )


def cleanup(state: State) -> State:
    """§5.11 steps 1-5, always in this order (the refill runs in the last round too)."""
    row = state.resource_row
    if len(row) < RESOURCE_ROW_SIZE:
        state, cards = draw_resources(state, RESOURCE_ROW_SIZE - len(row))
        state = replace(state, resource_row=row + cards)
    display = state.djinn_display
    if len(display) < DJINN_DISPLAY_SIZE:
        state, djinns = draw_djinns(state, DJINN_DISPLAY_SIZE - len(display))
        state = replace(state, djinn_display=display + djinns)
    players = tuple(
        replace(p, used=(), echidna=False, iblis=False) if p.used or p.echidna or p.iblis else p
        for p in state.players
    )
    state = replace(state, players=players, turn=None)
    if state.end_triggered or not has_meeple_move(state):
        return game_over(state)
    return replace(
        state,
        step=Step.BID,
        bid_order=state.next_bid_order,
        next_bid_order=(),
        round=state.round + 1,
    )


def game_over(state: State) -> State:
    """GAME_OVER: the final scores are computed once and kept (§7)."""
    state = replace(state, step=Step.GAME_OVER, turn=None)
    return replace(state, final_scores=final_scores(state))


# -- A6 SALE and the end of the turn (§5.10) --------------------------------------------


def sell_moves(state: State, turn: Turn) -> list[SellSuit]:
    """One ``SellSuit`` per non-empty subset of the merchandise types held (≤ 511)."""
    cards = state.players[turn.seat].cards
    held = [card for card in MERCHANDISE if cards[card]]
    moves = []
    for subset in range(1, 1 << len(held)):
        moves.append(SellSuit(tuple(card for i, card in enumerate(held) if subset >> i & 1)))
    return moves


def apply_sell(state: State, turn: Turn, move: SellSuit) -> State:
    """The sold cards go to the resource discard pile (§3.3)."""
    seat = turn.seat
    player = state.players[seat]
    cards = list(player.cards)
    for card in move.cards:
        cards[card] -= 1
    player = replace(player, gold=player.gold + SUIT_VALUE[len(move.cards)], cards=tuple(cards))
    state = with_player(state, seat, player)
    return replace(state, resource_discard=state.resource_discard + move.cards)


def apply_end_turn(state: State) -> State:
    """§5.4: the next marker's turn starts (A0), or the round's CLEANUP runs."""
    return begin_next_turn(replace(state, turn=None))

"""Per-seat views (rules spec §6 "Hidden information").

Hidden: every opponent's gold until GAME_OVER (spectators see nobody's), the order and
contents of both draw piles and the bag (sizes only), the Djinns drawn by a pending
Sibittis (except for its user), and the PRNG state. Everything else is public.
"""

from __future__ import annotations

from tribes.engine import SPECTATOR, Viewer
from tribes.games.five_tribes.data import MARKERS_PER_PLAYER, TILE_TYPES
from tribes.games.five_tribes.rules import to_act
from tribes.games.five_tribes.state import PlayerView, State, Step, TurnView, View


def view(state: State, viewer: Viewer) -> View:
    """What ``viewer`` (a seat, or ``SPECTATOR``) may know (§6)."""
    over = state.step is Step.GAME_OVER
    players = tuple(
        PlayerView(
            gold=player.gold if over or seat == viewer else None,
            viziers=player.viziers,
            elders=player.elders,
            cards=player.cards,
            djinns=player.djinns,
            camels=player.camels,
            used=player.used,
            echidna=player.echidna,
            iblis=player.iblis,
        )
        for seat, player in enumerate(state.players)
    )
    turn = state.turn
    turn_view = None
    if turn is not None:
        pending = turn.pending
        drawn = pending.drawn if pending is not None else ()
        turn_view = TurnView(
            marker=turn.marker,
            seat=turn.seat,
            hand=turn.hand,
            pos=turn.pos,
            prev=turn.prev,
            start=turn.start,
            final=turn.final,
            tribe=turn.tribe,
            collected=turn.collected,
            return_step=pending.return_step if pending is not None else None,
            pending_tile=pending.tile if pending is not None else None,
            drawn_count=len(drawn),
            drawn=drawn if viewer != SPECTATOR and viewer == turn.seat else (),
        )
    return View(
        seat=viewer,
        round=state.round,
        step=state.step,
        to_act=to_act(state),
        end_triggered=state.end_triggered,
        tiles=tuple(TILE_TYPES[t].code for t in state.layout),
        meeples=state.meeples,
        owners=state.owners,
        palms=state.palms,
        palaces=state.palaces,
        bag_size=sum(state.bag),
        palm_supply=state.palm_supply,
        palace_supply=state.palace_supply,
        resource_pile_size=len(state.resource_pile),
        resource_row=state.resource_row,
        resource_discard=state.resource_discard,
        djinn_pile_size=len(state.djinn_pile),
        djinn_display=state.djinn_display,
        djinn_discard=state.djinn_discard,
        players=players,
        marker_owners=tuple(
            state.marker_owner(m) for m in range(state.seats * MARKERS_PER_PLAYER[state.seats])
        ),
        bid_order=state.bid_order,
        next_bid_order=state.next_bid_order,
        track=state.track,
        zero_aisle=state.zero_aisle,
        overflow=state.overflow,
        turn=turn_view,
        final_scores=state.final_scores,
    )

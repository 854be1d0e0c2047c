"""Per-seat views (spec §6 hidden information, R-24, R-30, R-32).

A view holds the public state plus the viewer's own hand, private log and, when the
viewer is the pending actor, the decision's options. Never: another seat's hand or
private log (a 4p teammate's included), any deck order, or the PRNG state.
"""

from __future__ import annotations

from tribes.engine import SPECTATOR, Viewer
from tribes.games.fate_of_akalon.cards import KEY, NAME, VALUE
from tribes.games.fate_of_akalon.rules.board import Board
from tribes.games.fate_of_akalon.rules.decisions import legal_moves
from tribes.games.fate_of_akalon.rules.values import card_values, ignore_pass
from tribes.games.fate_of_akalon.state import (
    BattlefieldView,
    EffectKind,
    EffectView,
    PendingView,
    PlayerView,
    State,
    View,
)

_MODES = {2: "2p", 3: "3p", 4: "4p"}


def _keys(cards: tuple[int, ...]) -> tuple[str, ...]:
    return tuple(KEY[c] for c in cards)


def view(state: State, viewer: Viewer) -> View:
    """What ``viewer`` (a seat, or SPECTATOR) may know."""
    b = Board(state)
    values = card_values(b)
    ignored, active_ignores = ignore_pass(b)
    totals = [0] * state.seats
    for entry in state.battle.battlefield:
        totals[entry.owner] += values[entry.card]
    battle = state.battle
    players = tuple(
        PlayerView(
            seat=seat,
            faction=state.factions[seat].value,
            side=battle.sides[seat].value,
            eliminated=area.eliminated,
            hand_size=len(area.hand),
            deck_size=len(area.deck),
            hand=_keys(area.hand) if seat == viewer else (),
            discard=_keys(area.discard),
            cemetery=_keys(area.cemetery),
            cemetery_value=area.cemetery_value,
            out_of_play=_keys(area.out_of_play),
            reveal=_keys(area.reveal),
            plays=battle.plays[seat],
            battlefield_value=totals[seat],
        )
        for seat, area in enumerate(state.players)
    )
    battlefield = tuple(
        BattlefieldView(
            card=KEY[e.card],
            name=NAME[e.card],
            owner=e.owner,
            printed=VALUE[e.card],
            value=values[e.card],
            text_ignored=e.card in ignored,
        )
        for e in battle.battlefield
    )
    effects = tuple(
        EffectView(
            kind=e.kind.value,
            source=KEY[e.source],
            target=KEY[e.target] if e.target >= 0 else "opposing",
            amount=e.amount if e.kind is EffectKind.MODIFY else None,
            active=(
                e.source not in ignored if e.kind is EffectKind.MODIFY else e.seq in active_ignores
            ),
        )
        for e in battle.effects
    )
    pending = None
    if state.pending is not None:
        actor = state.pending.actor
        options = tuple(m.key for m in legal_moves(state, actor)) if viewer == actor else ()
        pending = PendingView(state.pending.decision.value, actor, options)
    cemeteries = [area.cemetery_value for area in state.players]
    return View(
        viewer=viewer,
        mode=_MODES[state.seats],
        teams=((0, 2), (1, 3)) if state.seats == 4 else (),
        phase=state.phase.value,
        battle=battle.number,
        attacker=battle.attacker,
        play_order=battle.play_order,
        players=players,
        battlefield=battlefield,
        effects=effects,
        designations=tuple(seat for seat, _ in battle.designations),
        team_values=(
            (cemeteries[0] + cemeteries[2], cemeteries[1] + cemeteries[3])
            if state.seats == 4
            else ()
        ),
        pending=pending,
        log=state.log,
        private_log=state.players[viewer].private_log if viewer != SPECTATOR else (),
        result=state.result,
        end_reason=state.end_reason,
    )


def scores(state: State, viewer: Viewer) -> tuple[int, ...]:
    """Cemetery values are public (R-24): every viewer sees all of them."""
    return tuple(area.cemetery_value for area in state.players)

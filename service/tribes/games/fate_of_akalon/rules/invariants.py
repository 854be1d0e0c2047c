"""Playout invariants (spec §10.3), checked after every move of the random playouts."""

from __future__ import annotations

from tribes.games.fate_of_akalon.cards import DECKS, FACTION_OF, VALUE
from tribes.games.fate_of_akalon.rules.board import Board
from tribes.games.fate_of_akalon.rules.decisions import legal_moves
from tribes.games.fate_of_akalon.rules.values import card_values
from tribes.games.fate_of_akalon.state import Decision, Pending, Phase, State

_BATTLE_PHASES = (Phase.ATTACK, Phase.DEFEND, Phase.FIGHT, Phase.AFTERMATH)


def check_invariants(state: State) -> None:
    """Raise AssertionError when a §10.3 invariant (or a bookkeeping one) fails."""
    battle, pending = state.battle, state.pending
    seen: set[int] = set()
    for seat, (faction, area) in enumerate(zip(state.factions, state.players, strict=True)):
        mine = [e.card for e in battle.battlefield if e.owner == seat]
        cards = [
            *area.deck,
            *area.hand,
            *area.discard,
            *area.cemetery,
            *area.out_of_play,
            *area.reveal,
            *mine,
        ]
        assert sorted(cards) == list(DECKS[faction]), f"seat {seat}: its 28 cards, each once"
        assert not seen & set(cards), "no card in two places"
        seen.update(cards)
        assert area.cemetery_value == sum(VALUE[c] for c in area.cemetery), "cemetery value"
        assert list(area.hand) == sorted(area.hand), "hands are kept in canonical order"
        batching = pending is not None and pending == Pending(Decision.ORDER_DISCARD, seat)
        assert area.deck or not area.discard or batching, f"seat {seat}: reshuffle missed"
        if area.eliminated:
            assert state.seats == 3, "only 3p eliminates"
    for entry in battle.battlefield:
        assert state.factions[entry.owner] is FACTION_OF[entry.card], "battlefield owner"
    assert all(v >= 0 for v in card_values(Board(state)).values()), "zero floor"
    if state.phase not in _BATTLE_PHASES:
        assert not battle.battlefield, "battlefield empty outside B1-B4"
        assert not any(area.reveal for area in state.players), "reveal empty outside B1-B4"
    if state.result is None:
        assert pending is not None, "a running game has exactly one pending decision"
        assert not state.players[pending.actor].eliminated, "the actor is active"
        assert state.stack, "a pending decision belongs to a suspended task"
        assert legal_moves(state, pending.actor), "a decision always has an option"
    else:
        assert state.pending is None and not state.stack, "nothing pending once over"
        assert state.phase is Phase.OVER and state.end_reason, "the game is over"
        assert state.result.scores == tuple(a.cemetery_value for a in state.players), "scores"

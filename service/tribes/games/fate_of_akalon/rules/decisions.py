"""The options of the pending decision (spec §5.4 decision catalogue).

A decision stores only its type and actor; its options follow from the state and the
suspended task on top of the stack, so ``legal_moves`` never thaws the state. Every
list is sorted by move key and duplicate-free (the legality oracle of the driver).
"""

from __future__ import annotations

from tribes.games.fate_of_akalon import moves
from tribes.games.fate_of_akalon.cards import FACTION_OF, KEY, KEY_RANK, PROGRAM, Ask
from tribes.games.fate_of_akalon.dsl import ChooseCard, ChooseOpponent, ExtraPlay, Step
from tribes.games.fate_of_akalon.moves import (
    CHOOSE,
    DECLINE,
    NO,
    PLACE,
    PLAY,
    YES,
    AkalonMove,
    ChooseFirstAttacker,
    ResolveTrigger,
)
from tribes.games.fate_of_akalon.rules.board import is_opponent
from tribes.games.fate_of_akalon.rules.values import matches
from tribes.games.fate_of_akalon.state import Decision, State, TaskKind

_YES_NO: tuple[AkalonMove, ...] = (NO, YES)


def by_key(cards: tuple[int, ...] | list[int]) -> list[int]:
    """Cards in the order of their keys (the order of ``legal_moves``)."""
    return sorted(cards, key=KEY_RANK.__getitem__)


def owner_of(state: State, card: int) -> int:
    return state.factions.index(FACTION_OF[card])


def opponents_of(state: State, seat: int) -> list[int]:
    eliminated = [p.eliminated for p in state.players]
    return [s for s in range(state.seats) if is_opponent(state.seats, eliminated, seat, s)]


def current_step(state: State) -> Step | Ask | None:
    """The ability step a pending decision belongs to (None outside abilities)."""
    if not state.stack:
        return None
    task = state.stack[-1]
    if task.kind is not TaskKind.ABILITY or task.step < 0:
        return None
    return PROGRAM[task.card][task.ability][task.step]


def option_cards(state: State) -> list[int]:
    """The cards the pending decision offers (play, choose, order or place)."""
    pending = state.pending
    if pending is None:
        return []
    decision, task = pending.decision, state.stack[-1]
    hand = state.players[pending.actor].hand
    if decision is Decision.PLAY:
        return list(hand)
    if decision is Decision.EXTRA_PLAY:
        step = current_step(state)
        assert isinstance(step, ExtraPlay)
        return [card for card in hand if matches(step.filter, card, task.card)]
    if decision is Decision.PLAY_REVEALED:
        reveal = state.players[pending.actor].reveal
        return [card for card in task.cards if card in reveal]
    if decision is Decision.CHOOSE_CARD:
        return list(task.options)
    if decision is Decision.ORDER_DISCARD:
        return list(task.cards)
    if decision is Decision.ORDER_TRIGGERS:
        return [card for card, _ in task.triggers]
    return []


def legal_moves(state: State, seat: int) -> tuple[AkalonMove, ...]:
    """Every legal move of ``seat`` now, sorted by key (§5.4)."""
    pending = state.pending
    if pending is None or pending.actor != seat:
        return ()
    decision = pending.decision
    if decision is Decision.PLAY:
        return tuple(PLAY[c] for c in by_key(state.players[seat].hand))
    if decision in (Decision.EXTRA_PLAY, Decision.PLAY_REVEALED):
        return (DECLINE, *(PLAY[c] for c in by_key(option_cards(state))))
    if decision is Decision.CHOOSE_CARD:
        step = current_step(state)
        assert isinstance(step, ChooseCard)
        chosen: tuple[AkalonMove, ...] = tuple(CHOOSE[c] for c in by_key(state.stack[-1].options))
        return (*chosen, DECLINE) if step.optional else chosen
    if decision is Decision.CHOOSE_OPPONENT:
        step = current_step(state)
        assert isinstance(step, ChooseOpponent)
        owner = owner_of(state, state.stack[-1].card)
        choices = tuple(moves.ChooseOpponent(s) for s in opponents_of(state, owner))
        return (DECLINE, *choices) if step.optional else choices
    if decision is Decision.YES_NO:
        return _YES_NO
    if decision is Decision.ORDER_TRIGGERS:
        triggers = (ResolveTrigger(KEY[c], a) for c, a in state.stack[-1].triggers)
        return tuple(sorted(triggers, key=lambda m: m.key))
    if decision is Decision.ORDER_DISCARD:
        return tuple(PLACE[c] for c in by_key(state.stack[-1].cards))
    return tuple(ChooseFirstAttacker(s) for s in range(state.seats))

"""Bot hooks: ``determinize`` and ``evaluate`` (engine/game.py contract; spec §6, §7).

What a seat cannot see (§6, R-30) is every other seat's hand (a 4p teammate's too) and
private log, every deck order (its own included), the options of another seat's
pending choice and the PRNG state. Cards keep their owner, so another seat's hand and
deck together hold exactly its faction's 28 cards minus those in its public areas
(discard, cemetery, out of play, reveal, battlefield). A determinized state redraws,
from ``seed`` alone:

* every other seat's hand and deck from that pool (gathered in canonical order, then
  shuffled; the hand and deck sizes are public), and drops its private log;
* the seat's own deck order (its contents are known: its cards minus its hand and
  public areas);
* the options of another seat's pending CHOOSE_CARD, recomputed from the redrawn
  state the way the ability computed them (§5.5); for a choice from the chooser's own
  hand the redraw keeps enough matching cards in it for the decision to exist (R-15);
* the PRNG state.

``evaluate(state, seat)`` reads the cemetery margin (§7: the lowest cemetery value
wins once one reaches the threshold): the seat's (or its team's) cemetery value
against the best opposing one, turned into [0, 1].
"""

from __future__ import annotations

import math
from dataclasses import replace

from tribes.engine.rng import Rng
from tribes.games.fate_of_akalon.cards import DECKS
from tribes.games.fate_of_akalon.dsl import ChooseCard
from tribes.games.fate_of_akalon.rules.decisions import current_step, opponents_of, owner_of
from tribes.games.fate_of_akalon.rules.values import matches
from tribes.games.fate_of_akalon.rules.victory import TEAM_THRESHOLD, THRESHOLD
from tribes.games.fate_of_akalon.state import Decision, PlayerArea, State

#: evaluate: a cemetery margin of this share of the threshold maps to about 0.88.
_SCALE = 0.4


def hidden_pool(state: State, seat: int) -> list[int]:
    """``seat``'s cards outside its public areas (its hand and deck), canonical order."""
    area = state.players[seat]
    public = {*area.discard, *area.cemetery, *area.out_of_play, *area.reveal}
    public.update(e.card for e in state.battle.battlefield if e.owner == seat)
    return [card for card in DECKS[state.factions[seat]] if card not in public]


def _chooser_hand_step(state: State, viewer: int) -> tuple[ChooseCard, int] | None:
    """Another seat's pending choice from its own hand: the step and that seat."""
    pending = state.pending
    if pending is None or pending.decision is not Decision.CHOOSE_CARD or pending.actor == viewer:
        return None
    step = current_step(state)
    if isinstance(step, ChooseCard) and step.zone == "hand":
        return step, pending.actor
    return None


def _redraw(state: State, seat: int, rng: Rng, needs: tuple[ChooseCard, int] | None) -> PlayerArea:
    """Another seat's hand and deck from its pool; a pending hand choice keeps its cards."""
    area = state.players[seat]
    pool = list(rng.shuffled(hidden_pool(state, seat)))
    size = len(area.hand)
    if needs is not None and needs[1] == seat:
        step, source = needs[0], state.stack[-1].card
        wanted = 1 if step.optional else 2  # a lone candidate is taken without asking
        hand_hits = [i for i in range(size) if matches(step.filter, pool[i], source)]
        rest_hits = [i for i in range(size, len(pool)) if matches(step.filter, pool[i], source)]
        misses = [i for i in range(size) if i not in hand_hits]
        while len(hand_hits) < min(wanted, size) and rest_hits and misses:
            i, j = misses.pop(0), rest_hits.pop(0)
            pool[i], pool[j] = pool[j], pool[i]
            hand_hits.append(i)
    return replace(area, hand=tuple(sorted(pool[:size])), deck=tuple(pool[size:]), private_log=())


def _choice_options(state: State) -> tuple[int, ...]:
    """The candidates of the pending CHOOSE_CARD, recomputed as ``candidates_of`` does."""
    task = state.stack[-1]
    step = current_step(state)
    assert isinstance(step, ChooseCard)
    owner = owner_of(state, task.card)
    if step.owner == "self":
        owners = [owner]
    elif step.owner == "opponents":
        owners = opponents_of(state, owner)
    else:
        owners = [task.bound_player] if task.bound_player >= 0 else []
    if step.zone == "battlefield":
        pool = [e.card for e in state.battle.battlefield if e.owner in owners]
    else:
        pool = [
            card
            for o in owners
            for card in (
                state.players[o].hand if step.zone == "hand" else state.players[o].cemetery
            )
        ]
    return tuple(sorted(card for card in pool if matches(step.filter, card, task.card)))


def determinize(state: State, seat: int, seed: int) -> State:
    """A state ``seat`` cannot tell from ``state``, its hidden parts redrawn from ``seed``."""
    rng = Rng(seed)
    needs = _chooser_hand_step(state, seat)
    players = tuple(
        replace(area, deck=rng.shuffled(sorted(area.deck)))
        if other == seat
        else _redraw(state, other, rng, needs)
        for other, area in enumerate(state.players)
    )
    guess = replace(state, players=players, rng=rng.next_u64())
    pending = state.pending
    if pending is not None and pending.decision is Decision.CHOOSE_CARD and pending.actor != seat:
        top = replace(guess.stack[-1], options=_choice_options(guess))
        guess = replace(guess, stack=(*guess.stack[:-1], top))
    return guess


def _cemeteries(state: State, seat: int) -> tuple[float, float]:
    """(the seat's side, the best opposing side) cemetery values as threshold shares."""
    values = [area.cemetery_value for area in state.players]
    if state.seats == 4:
        mine = values[seat] + values[(seat + 2) % 4]  # teams are seats 0+2 and 1+3
        theirs = sum(values) - mine
        return mine / TEAM_THRESHOLD, theirs / TEAM_THRESHOLD
    active = [s for s in range(state.seats) if s != seat and not state.players[s].eliminated]
    best = min(values[s] for s in active) if active else THRESHOLD
    return values[seat] / THRESHOLD, best / THRESHOLD


def evaluate(state: State, seat: int) -> float:
    """How good ``state`` looks for ``seat`` in [0, 1]: 1 a sure win, 0 a sure loss."""
    if state.result is not None:
        # a 4p team wins together: count winning sides, not seats
        sides = {w % 2 if state.seats == 4 else w for w in state.result.winners}
        side = seat % 2 if state.seats == 4 else seat
        return 1.0 / len(sides) if side in sides else 0.0
    if state.players[seat].eliminated:
        return 0.0
    mine, best_other = _cemeteries(state, seat)
    return 0.5 + 0.5 * math.tanh((best_other - mine) / _SCALE)

"""Bot hooks: ``determinize`` and ``evaluate`` (engine/game.py contract; spec §6, §7).

What a seat cannot see (§6) is every opponent's gold, the contents and order of both
draw piles and the bag, a pending Sibittis draw (unless it is the seat's own) and the
PRNG state. Every component is conserved (§8), so the hidden contents follow from the
view: the bag is the 90 meeples minus those on the board, in hands and held; the
resource pile is the 54 cards minus the row, the discard and the players' cards; the
unseen Djinns are the 22 minus the display, the discard and those owned. A
determinized state redraws from ``seed`` alone:

* the resource pile and the unseen Djinns (a pending Sibittis draw of another seat
  included) in a new order, gathered canonically (sorted) before the shuffle;
* the bag as the complement of the public meeples;
* every other seat's gold, which the seat cannot count, as its own gold: a symmetric
  guess that keeps gold out of the comparison (§7.2 scores gold 1 VP per coin);
* the PRNG state.

States whose views for ``seat`` are equal therefore give equal results.

``evaluate(state, seat)`` is "VP in hand": the §7.2 score sheet of every seat as if
the game ended now, the lead over the best other seat turned into [0, 1].
"""

from __future__ import annotations

import math
from collections import Counter
from dataclasses import replace

from tribes.engine.rng import Rng
from tribes.games.five_tribes.data import CARD_COUNTS, CARDS, MEEPLE_COUNTS, Card, Djinn, Meeple
from tribes.games.five_tribes.rules.scoring import score_sheet
from tribes.games.five_tribes.state import State, Step

#: evaluate: a lead of this many VP maps to about 0.88 (tanh(1) on the upper half).
_SCALE = 25.0


def public_bag(state: State) -> tuple[int, ...]:
    """The bag's contents as the 90 meeples minus every meeple in sight (§8)."""
    left = list(MEEPLE_COUNTS)
    for counts in state.meeples:
        for colour, count in enumerate(counts):
            left[colour] -= count
    for player in state.players:
        left[Meeple.VIZIER] -= player.viziers
        left[Meeple.ELDER] -= player.elders
    if state.turn is not None:
        for colour, count in enumerate(state.turn.hand):
            left[colour] -= count
    return tuple(left)


def unseen_cards(state: State) -> list[Card]:
    """The resource pile's contents (54 cards minus the row, discard and held), sorted."""
    seen = Counter(state.resource_row + state.resource_discard)
    for player in state.players:
        for card, count in enumerate(player.cards):
            seen[CARDS[card]] += count
    return [
        card
        for card, total in zip(CARDS, CARD_COUNTS, strict=True)
        for _ in range(total - seen[card])
    ]


def unseen_djinns(state: State, seat: int) -> list[Djinn]:
    """The Djinns ``seat`` cannot place: the pile, plus another seat's Sibittis draw."""
    seen = {*state.djinn_display, *state.djinn_discard}
    for player in state.players:
        seen.update(player.djinns)
    turn = state.turn
    if turn is not None and turn.pending is not None and turn.seat == seat:
        seen.update(turn.pending.drawn)
    return [djinn for djinn in Djinn if djinn not in seen]


def determinize(state: State, seat: int, seed: int) -> State:
    """A state ``seat`` cannot tell from ``state``, its hidden parts redrawn from ``seed``."""
    rng = Rng(seed)
    cards = rng.shuffled(unseen_cards(state))
    djinns = rng.shuffled(unseen_djinns(state, seat))
    turn = state.turn
    if turn is not None and turn.pending is not None and turn.seat != seat:
        count = len(turn.pending.drawn)
        turn = replace(turn, pending=replace(turn.pending, drawn=djinns[:count]))
        djinns = djinns[count:]
    players = state.players
    if state.step is not Step.GAME_OVER:
        mine = state.players[seat].gold
        players = tuple(
            p if other == seat else replace(p, gold=mine) for other, p in enumerate(players)
        )
    return replace(
        state,
        players=players,
        resource_pile=cards,
        djinn_pile=djinns,
        bag=public_bag(state),
        turn=turn,
        rng=rng.next_u64(),
    )


def evaluate(state: State, seat: int) -> float:
    """How good ``state`` looks for ``seat`` in [0, 1]: 1 a sure win, 0 a sure loss."""
    if state.final_scores is not None:
        best = max(state.final_scores)
        winners = [s for s, score in enumerate(state.final_scores) if score == best]
        return 1.0 / len(winners) if seat in winners else 0.0
    totals = [score_sheet(state, s).total for s in range(state.seats)]
    best_other = max(total for s, total in enumerate(totals) if s != seat)
    return 0.5 + 0.5 * math.tanh((totals[seat] - best_other) / _SCALE)

"""Goofspiel's rules as pure functions (see the package docstring for the rules)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace

from tests.games.goofspiel import codec
from tests.games.goofspiel.data import CARD_COUNTS, OPTIONS, SEAT_COUNTS
from tests.games.goofspiel.moves import Bid, parse_move
from tests.games.goofspiel.state import State, Trick, View
from tribes.engine import SPECTATOR, GameDef, Result, Viewer
from tribes.engine.game import competition_ranks
from tribes.engine.rng import Rng


def new_game(seats: int, options: Mapping[str, str], seed: int) -> State:
    """Shuffle the prize deck and turn up the first prize."""
    cards = int(options["cards"])
    rng = Rng(seed)
    deck = rng.shuffled(range(1, cards + 1))
    hand = tuple(range(1, cards + 1))
    return State(
        cards=cards,
        prize=deck[0],
        prize_deck=deck[1:],
        hands=(hand,) * seats,
        bids=(None,) * seats,
        scores=(0,) * seats,
        tricks=(),
        rng=rng.state,
    )


def to_act(state: State) -> tuple[int, ...]:
    """Every seat that has not bid yet on the face-up prize (simultaneous)."""
    if state.prize is None:
        return ()
    return tuple(seat for seat, bid in enumerate(state.bids) if bid is None)


_LEGAL: dict[tuple[int, ...], tuple[Bid, ...]] = {}  # hand -> its bids sorted by key
#: every card's Bid, made once, in the order of their keys ("bid:1" < "bid:10" < "bid:2")
_BIDS = tuple(
    sorted(
        (Bid(card) for card in range(1, int(max(CARD_COUNTS, key=int)) + 1)), key=lambda m: m.key
    )
)


def legal_moves(state: State, seat: int) -> tuple[Bid, ...]:
    hand = state.hands[seat]
    legal = _LEGAL.get(hand)
    if legal is None:
        if len(_LEGAL) > 100_000:
            _LEGAL.clear()
        held = set(hand)
        legal = _LEGAL[hand] = tuple(bid for bid in _BIDS if bid.card in held)
    return legal


def apply(state: State, seat: int, move: Bid) -> State:
    """Record the face-down bid; when the last bid is in, reveal and score the round."""
    bids = list(state.bids)
    bids[seat] = move.card
    if any(bid is None for bid in bids):
        return replace(state, bids=tuple(bids))
    return _reveal(state, tuple(b for b in bids if b is not None))


def _reveal(state: State, bids: tuple[int, ...]) -> State:
    assert state.prize is not None
    top = max(bids)
    winner = bids.index(top) if bids.count(top) == 1 else None
    scores = list(state.scores)
    if winner is not None:
        scores[winner] += state.prize
    hands = tuple(
        tuple(card for card in hand if card != bid)
        for hand, bid in zip(state.hands, bids, strict=True)
    )
    deck = state.prize_deck
    return replace(
        state,
        prize=deck[0] if deck else None,
        prize_deck=deck[1:],
        hands=hands,
        bids=(None,) * state.seats,
        scores=tuple(scores),
        tricks=(*state.tricks, Trick(state.prize, bids, winner)),
    )


def view(state: State, viewer: Viewer) -> View:
    return View(
        seat=viewer,
        prize=state.prize,
        prizes_left=tuple(sorted(state.prize_deck)),
        hands=state.hands,
        has_bid=tuple(bid is not None for bid in state.bids),
        my_bid=state.bids[viewer] if viewer != SPECTATOR else None,
        scores=state.scores,
        tricks=state.tricks,
    )


def result(state: State) -> Result | None:
    if state.prize is not None:
        return None
    ranks = competition_ranks(state.scores)
    best = max(state.scores)
    winners = [str(s) for s, score in enumerate(state.scores) if score == best]
    summary = f"seat {winners[0]} wins" if len(winners) == 1 else f"seats {', '.join(winners)} tie"
    return Result(scores=state.scores, ranks=ranks, summary=f"{summary} with {best} points")


def describe(state: State, move: Bid) -> str:
    return f"Bid {move.card} for the prize {state.prize}"


def public_move(state: State, seat: int, move: Bid) -> Bid | None:
    """A bid is face down: others only learn (from the view) that it was made."""
    return None


def scores(state: State, viewer: Viewer) -> tuple[int, ...]:
    return state.scores


def explain_illegal(state: State, seat: int, move: Bid) -> str:
    return f"you do not hold the card {move.card}"


def determinize(state: State, seat: int, seed: int) -> State:
    """What ``seat`` cannot see redrawn from ``seed``: the prize order, others' face-down
    bids (any card of their public hands) and the PRNG state."""
    rng = Rng(seed)
    deck = rng.shuffled(sorted(state.prize_deck))
    bids = tuple(
        bid if bid is None or other == seat else rng.choice(state.hands[other])
        for other, bid in enumerate(state.bids)
    )
    return replace(state, prize_deck=deck, bids=bids, rng=rng.next_u64())


def check_invariants(state: State) -> None:
    """Every card is in a hand or spent in a trick; prizes are conserved; scores add up."""
    full = set(range(1, state.cards + 1))
    spent = len(state.tricks)
    for seat, hand in enumerate(state.hands):
        played = {t.bids[seat] for t in state.tricks}
        assert set(hand) | played == full and not set(hand) & played, f"seat {seat} cards"
        assert len(hand) == state.cards - spent
    prizes = [t.prize for t in state.tricks] + list(state.prize_deck)
    prizes += [state.prize] if state.prize is not None else []
    assert sorted(prizes) == sorted(full), "prizes conserved"
    for seat, score in enumerate(state.scores):
        assert score == sum(t.prize for t in state.tricks if t.winner == seat)
    for seat, bid in enumerate(state.bids):
        assert bid is None or bid in state.hands[seat]


GAME: GameDef[State, Bid, View] = GameDef(
    id="goofspiel",
    title="Goofspiel",
    seat_counts=SEAT_COUNTS,
    options=OPTIONS,
    new_game=new_game,
    to_act=to_act,
    legal_moves=legal_moves,
    apply=apply,
    view=view,
    result=result,
    describe=describe,
    parse_move=parse_move,
    encode=codec.encode,
    decode=codec.decode,
    public_move=public_move,
    scores=scores,
    explain_illegal=explain_illegal,
    check_invariants=check_invariants,
    determinize=determinize,
)

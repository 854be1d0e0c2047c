"""Goofspiel's rules, one test per rule."""

from __future__ import annotations

import random

from tests.games.goofspiel import GAME
from tests.games.goofspiel.moves import Bid, parse_move
from tests.games.goofspiel.wire import view_to_bytes, view_to_proto
from tribes.engine import SPECTATOR
from tribes.engine.driver import new_game, play


def _game(seats: int = 2, cards: str = "5") -> object:
    return new_game(GAME, seats, {"cards": cards}, 11)


def test_bids_are_simultaneous() -> None:
    """Every seat that has not bid is to act at once."""
    state = new_game(GAME, 3, {"cards": "5"}, 11)
    assert GAME.to_act(state) == (0, 1, 2)
    state = play(GAME, state, 1, Bid(2))
    assert GAME.to_act(state) == (0, 2)


def test_highest_single_bid_wins_the_prize() -> None:
    """The single highest bid scores the prize's value; bid cards are spent."""
    state = new_game(GAME, 2, {"cards": "5"}, 11)
    prize = state.prize
    state = play(GAME, state, 0, Bid(5))
    state = play(GAME, state, 1, Bid(3))
    assert state.scores == (prize, 0)
    assert 5 not in state.hands[0] and 3 not in state.hands[1]
    assert state.tricks[-1].winner == 0


def test_tied_highest_bid_scores_nobody() -> None:
    """When the highest bid is tied, nobody scores that prize."""
    state = new_game(GAME, 3, {"cards": "5"}, 11)
    state = play(GAME, state, 0, Bid(4))
    state = play(GAME, state, 1, Bid(4))
    state = play(GAME, state, 2, Bid(5 - 4))
    assert state.scores == (0, 0, 0)
    assert state.tricks[-1].winner is None


def test_a_pending_bid_is_hidden_from_others() -> None:
    """Others see only that a seat has bid, not the card; the bidder sees its own."""
    state = new_game(GAME, 2, {"cards": "5"}, 11)
    state = play(GAME, state, 0, Bid(4))
    mine, theirs, public = (GAME.view(state, s) for s in (0, 1, SPECTATOR))
    assert mine.my_bid == 4 and theirs.my_bid is None and public.my_bid is None
    assert theirs.has_bid == (True, False)
    assert GAME.public_move(state, 0, Bid(4)) is None


def test_prize_order_is_hidden_but_the_set_is_known() -> None:
    """Views list the remaining prizes sorted, never in deck order."""
    state = new_game(GAME, 2, {"cards": "13"}, 11)
    view = GAME.view(state, 0)
    assert view.prizes_left == tuple(sorted(state.prize_deck))
    assert state.prize_deck != view.prizes_left  # seed 11 does not deal them sorted


def test_move_keys_parse_back() -> None:
    """Every move's key parses back to the same move."""
    assert parse_move(Bid(12).key) == Bid(12)


def test_view_bytes_are_the_messages_bytes_at_every_step() -> None:
    """The remembered-parts encoder gives view_to_proto's bytes for every viewer of every
    version of a whole game (tricks, hands and bids as they change)."""
    rng = random.Random(5)
    state = new_game(GAME, 3, {"cards": "8"}, 9)
    while True:
        for viewer in (SPECTATOR, 0, 1, 2):
            view = GAME.view(state, viewer)
            assert view_to_bytes(view) == view_to_proto(view).SerializeToString()
        if GAME.result(state) is not None:
            break
        seat = GAME.to_act(state)[0]
        state = play(GAME, state, seat, rng.choice(GAME.legal_moves(state, seat)))


def test_legal_moves_are_the_hands_bids_in_key_order() -> None:
    """A seat's legal moves are one bid per card it holds, sorted by key (``bid:10``
    before ``bid:2``), at every step of a whole 25-card game."""
    rng = random.Random(3)
    state = new_game(GAME, 2, {"cards": "25"}, 4)
    while GAME.result(state) is None:
        for seat in GAME.to_act(state):
            expected = sorted((Bid(card) for card in state.hands[seat]), key=lambda m: m.key)
            assert list(GAME.legal_moves(state, seat)) == expected
        seat = GAME.to_act(state)[0]
        state = play(GAME, state, seat, rng.choice(GAME.legal_moves(state, seat)))

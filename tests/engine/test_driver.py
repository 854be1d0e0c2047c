"""The generic driver: checks in order (finished, turn, legality) and option handling."""

from __future__ import annotations

import pytest

from tests.games.goofspiel import GAME
from tests.games.goofspiel.moves import Bid
from tribes.engine import (
    BadOptionsError,
    GameFinishedError,
    IllegalMoveError,
    MalformedMoveError,
    NotYourTurnError,
)
from tribes.engine.driver import find_move, legal_moves_for, new_game, play
from tribes.engine.game import competition_ranks


def test_seat_count_outside_the_game_is_bad_options() -> None:
    """Goofspiel is for 2-4 players; 5 is refused with the allowed counts."""
    with pytest.raises(BadOptionsError, match="2, 3, 4 players, not 5"):
        new_game(GAME, 5, {}, 1)


def test_unknown_option_and_bad_choice_are_bad_options() -> None:
    """Unknown option names and values outside the listed choices are refused."""
    with pytest.raises(BadOptionsError, match="no option 'colour'"):
        new_game(GAME, 2, {"colour": "red"}, 1)
    with pytest.raises(BadOptionsError, match="must be one of 3, 5, 8, 13"):
        new_game(GAME, 2, {"cards": "7"}, 1)


def test_defaults_fill_missing_options() -> None:
    """A game created without options uses each option's default."""
    state = new_game(GAME, 2, {}, 1)
    assert state.cards == 13


def test_not_your_turn_before_legality() -> None:
    """A seat that already bid is told it is not its turn, even for a nonsense card."""
    state = new_game(GAME, 2, {"cards": "3"}, 1)
    state = play(GAME, state, 0, Bid(1))
    with pytest.raises(NotYourTurnError, match="waiting for seat 1"):
        play(GAME, state, 0, Bid(99))


def test_illegal_move_uses_the_games_explanation() -> None:
    """A well-formed but illegal move is refused with the game's reason."""
    state = new_game(GAME, 2, {"cards": "3"}, 1)
    with pytest.raises(IllegalMoveError, match="do not hold the card 9"):
        play(GAME, state, 0, Bid(9))
    with pytest.raises(IllegalMoveError, match="do not hold the card 9"):
        find_move(GAME, state, 0, "bid:9")


def test_malformed_move_id() -> None:
    """A move id that is no move of the game at all is malformed, not illegal."""
    state = new_game(GAME, 2, {"cards": "3"}, 1)
    with pytest.raises(MalformedMoveError):
        find_move(GAME, state, 0, "castle:e1")


def test_finished_game_refuses_moves_and_offers_none() -> None:
    """After the last round no seat may move and no seat has legal moves."""
    state = new_game(GAME, 2, {"cards": "3"}, 1)
    for card in (1, 2, 3):
        state = play(GAME, state, 0, Bid(card))
        state = play(GAME, state, 1, Bid(card))
    assert GAME.result(state) is not None
    assert legal_moves_for(GAME, state, 0) == ()
    with pytest.raises(GameFinishedError):
        play(GAME, state, 0, Bid(1))


def test_competition_ranks_share_ties_and_skip() -> None:
    """Equal keys share a rank and the next rank skips (1, 1, 3)."""
    assert competition_ranks([5, 9, 9, 1]) == (3, 1, 1, 4)
    assert competition_ranks([(2, 1), (2, 3), (1, 9)]) == (2, 1, 3)


def test_replay_rebuilds_a_game_and_refuses_a_bad_log() -> None:
    """replay() gives the state the moves made; an illegal logged move is refused."""
    from tribes.engine.driver import replay

    state = new_game(GAME, 2, {"cards": "3"}, 4)
    log = [(0, "bid:3"), (1, "bid:1"), (1, "bid:2")]
    for seat, key in log:
        state = play(GAME, state, seat, find_move(GAME, state, seat, key))
    assert replay(GAME, 2, {"cards": "3"}, 4, log) == state
    with pytest.raises(IllegalMoveError):
        replay(GAME, 2, {"cards": "3"}, 4, [(0, "bid:3"), (1, "bid:3"), (0, "bid:3")])

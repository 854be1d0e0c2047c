"""The GameDef surface of Five Tribes: move keys, views (§6), texts, options, codec."""

from __future__ import annotations

from dataclasses import replace

import pytest

from tests.games.five_tribes.fixtures import at_turn, build, djinns, do, keys
from tests.games.five_tribes.support import perturb
from tribes.engine import SPECTATOR, BadOptionsError, MalformedMoveError
from tribes.engine.driver import new_game
from tribes.engine.rng import Rng
from tribes.games.five_tribes import GAME
from tribes.games.five_tribes.data import Card, Djinn, Meeple, Pay
from tribes.games.five_tribes.moves import (
    Assassinate,
    Bid,
    BuyDjinn,
    Drop,
    LargeMarket,
    SellSuit,
    UseDjinn,
    parse_move,
)
from tribes.games.five_tribes.rules.rounds import game_over
from tribes.games.five_tribes.state import State, Step

A, B, C = 0, 1, 2


def _states(seats: int, seed: int) -> list[State]:
    """Every state of one seeded random game."""
    state = GAME.new_game(seats, {}, seed)
    rng = Rng(seed)
    states = [state]
    while GAME.result(state) is None:
        seat = GAME.to_act(state)[0]
        legal = GAME.legal_moves(state, seat)
        state = GAME.apply(state, seat, rng.choice(legal))
        states.append(state)
    return states


@pytest.mark.parametrize("seats", [2, 3, 4])
def test_every_legal_move_key_parses_back(seats: int) -> None:
    """§5.12: parse_move(m.key) == m for every move offered in a whole game."""
    for state in _states(seats, 11 + seats):
        for seat in GAME.to_act(state):
            for move in GAME.legal_moves(state, seat):
                assert parse_move(move.key) == move
                assert GAME.describe(state, move)


def test_key_examples() -> None:
    """Keys are lowercase, stable and readable."""
    assert Bid(12, 2).key == "bid:12:k2" and Bid(0).key == "bid:0"
    assert Drop(16, Meeple.ELDER).key == "drop:2-4:w"
    assert Assassinate((Meeple.ELDER, Meeple.BUILDER), tile=4).key == "kill:0-4:wb"
    assert Assassinate((Meeple.VIZIER,), opponent=2).key == "kill:p2:y"
    assert BuyDjinn(Djinn.JAFAAR, Pay.EE).key == "buy:jafaar:ee"
    assert UseDjinn(Djinn.ANUN_NAK, Pay.F, 29).key == "djinn:anun-nak:f:4-5"
    assert SellSuit((Card.IVORY, Card.FISH)).key == "sell:ivory+fish"
    assert LargeMarket((2, 3)).key == "large-market:2,3"


@pytest.mark.parametrize(
    "key",
    [
        "",
        "bid",
        "bid:7",
        "bid:0:k1",
        "bid:5:k0",
        "bid:05",
        "pickup:5-0",
        "pickup:2-6",
        "pickup:02-3",
        "drop:2-4:x",
        "drop:2-4",
        "kill:0-4:bw",
        "kill:0-4:",
        "kill:0-4:w:f0",
        "kill:p9:y",
        "kill:0-4:yyy",
        "large-market:3,2",
        "large-market:1,1",
        "small-market:3",
        "buy:nobody:ee",
        "buy:enki:ff",
        "djinn:enki",
        "sell:fish+fish",
        "sell:fakir",
        "sell:fish+ivory",
        "END-TURN",
        "end-turn:now",
    ],
)
def test_malformed_keys_are_refused(key: str) -> None:
    """Only canonical keys parse; anything else is MalformedMoveError."""
    with pytest.raises(MalformedMoveError):
        parse_move(key)


def test_views_hide_opponents_gold_until_the_end() -> None:
    """§6: a seat sees its own gold only; spectators none; at GAME_OVER everyone's."""
    state = build(players={A: {"gold": 11}, B: {"gold": 22}, C: {"gold": 33}})
    assert [p.gold for p in GAME.view(state, B).players] == [None, 22, None]
    assert [p.gold for p in GAME.view(state, SPECTATOR).players] == [None, None, None]
    over = game_over(state)
    assert [p.gold for p in GAME.view(over, SPECTATOR).players] == [11, 22, 33]
    assert GAME.view(over, A).final_scores == over.final_scores


def test_views_show_pile_sizes_not_contents() -> None:
    """§6: draw piles and the bag are served as sizes only; discards are public."""
    state = build(discard="fish")
    view = GAME.view(state, A)
    assert view.resource_pile_size == len(state.resource_pile)
    assert view.djinn_pile_size == len(state.djinn_pile) and view.bag_size == sum(state.bag)
    assert view.resource_discard == (Card.FISH,)


def test_sibittis_draw_is_seen_only_by_its_user() -> None:
    """§6 RECONSTRUCTED: the Djinns drawn by Sibittis are private while pending."""
    state = at_turn(build(players={A: {"djinns": "sibittis", "elders": 2}}), A, later=(B, C))
    state = do(state, "djinn:sibittis:ee")
    mine, theirs = GAME.view(state, A).turn, GAME.view(state, B).turn
    assert mine is not None and theirs is not None
    assert len(mine.drawn) == 3 and theirs.drawn == () and theirs.drawn_count == 3


def test_describe_names_the_decision() -> None:
    """Descriptions use the rulebook's words."""
    state = at_turn(build(board={(2, 3): "YW", (2, 4): "RB", (2, 5): "YG"}), A, later=(B, C))
    assert GAME.describe(state, parse_move("pickup:2-3")) == (
        "Pick up the 2 meeple(s) on (2,3) Small Market"
    )
    state = do(state, "pickup:2-3")
    assert GAME.describe(state, parse_move("drop:2-4:w")) == "Drop an Elder on (2,4) Oasis"
    assert GAME.describe(state, BuyDjinn(Djinn.JAFAAR, Pay.EE)) == (
        "Buy Djinn Jafaar paying 2 Elders"
    )
    assert GAME.describe(state, SellSuit((Card.FISH, Card.WHEAT))) == (
        "Sell Fish and Wheat for 3 GC"
    )


def test_explain_illegal_gives_the_rule() -> None:
    """A well-formed but illegal move gets a player-readable reason."""
    state = at_turn(build(board={(0, 0): "Y", (0, 1): "Y"}), A, later=(B, C))
    explain = GAME.explain_illegal
    assert explain is not None
    assert "no meeples" in explain(state, A, parse_move("pickup:3-3"))
    assert "not your turn" in explain(state, B, parse_move("pickup:0-0"))
    assert "cannot do that now" in explain(state, A, parse_move("end-turn"))
    assert "do not own Enki" in explain(state, A, parse_move("djinn:enki:e:0-5"))
    state = do(state, "pickup:0-0")
    assert "not orthogonally adjacent" in explain(state, A, parse_move("drop:1-1:y"))
    assert "hold no Elder" in explain(state, A, parse_move("drop:0-1:w"))


def test_bad_options_and_seat_counts_are_refused() -> None:
    """Options are validated; 2-4 players only."""
    with pytest.raises(BadOptionsError):
        new_game(GAME, 3, {"redirect_neighbourhood": "6"}, 1)
    with pytest.raises(BadOptionsError):
        new_game(GAME, 3, {"colour": "red"}, 1)
    with pytest.raises(BadOptionsError):
        new_game(GAME, 5, {}, 1)
    with pytest.raises(BadOptionsError):
        GAME.new_game(3, {"nekir_payout": "never"}, 1)
    state = new_game(GAME, 3, {"redirect_neighbourhood": "4", "nekir_payout": "meeple"}, 1)
    assert state.redirect_reach == 4 and state.nekir_per_meeple


def test_codec_round_trips_a_mid_game_state() -> None:
    """The stored form decodes to an equal state, including a pending sub-decision."""
    state = at_turn(build(players={A: {"djinns": "sibittis", "elders": 2}}), A, later=(B, C))
    state = do(state, "djinn:sibittis:ee")
    assert GAME.decode(GAME.encode(state)) == state
    assert state.turn is not None and state.turn.pending is not None
    back = GAME.decode(GAME.encode(state))
    assert back.turn is not None and back.turn.pending is not None
    assert back.turn.pending.drawn == state.turn.pending.drawn


def test_only_the_seat_to_act_has_moves() -> None:
    """legal_moves is empty for a seat that is not to act."""
    state = at_turn(build(board={(0, 0): "Y", (0, 1): "Y"}), A, later=(B, C))
    assert GAME.legal_moves(state, B) == () and keys(state) == ["pickup:0-0", "pickup:0-1"]


def test_apply_leaves_its_input_unchanged() -> None:
    """STYLE habit 1: apply returns a new state."""
    state = at_turn(build(board={(0, 0): "Y", (0, 1): "Y"}), A, later=(B, C))
    before = GAME.encode(state)
    after = do(state, "pickup:0-0", "drop:0-1:y")
    assert GAME.encode(state) == before and after != state


def test_djinn_display_is_public_and_pile_is_not() -> None:
    """§6: the display and the Djinn discard are public."""
    state = build(display="boaz enki marid", djinn_discard="nekir")
    view = GAME.view(state, SPECTATOR)
    assert view.djinn_display == djinns("boaz enki marid")
    assert view.djinn_discard == djinns("nekir") and view.step is Step.BID
    assert replace(state, djinn_pile=state.djinn_pile[::-1]) != state
    assert GAME.view(replace(state, djinn_pile=state.djinn_pile[::-1]), SPECTATOR) == view


def test_determinize_redraws_what_the_seat_cannot_see() -> None:
    """Bot hook: piles, bag and others' gold are redrawn from the view and seed only."""
    assert GAME.determinize is not None
    state = _states(3, 5)[40]
    guesses = [GAME.determinize(state, A, seed) for seed in range(4)]
    assert len({g.resource_pile for g in guesses}) > 1 and len({g.djinn_pile for g in guesses}) > 1
    for guess in guesses:
        assert GAME.view(guess, A) == GAME.view(state, A)
        assert sum(guess.bag) == sum(state.bag) and guess.rng != state.rng
        assert [p.gold for p in guess.players] == [state.players[A].gold] * 3
    assert GAME.determinize(perturb(state, A, Rng(9)), A, 2) == guesses[2]


def test_determinize_redraws_another_seats_sibittis_draw() -> None:
    """Bot hook: a Sibittis draw is kept for its user and redrawn for the others."""
    assert GAME.determinize is not None
    state = at_turn(build(players={A: {"djinns": "sibittis", "elders": 2}}), A, later=(B, C))
    state = do(state, "djinn:sibittis:ee")
    assert state.turn is not None and state.turn.pending is not None
    drawn = state.turn.pending.drawn
    mine = GAME.determinize(state, A, 1).turn
    assert mine is not None and mine.pending is not None and mine.pending.drawn == drawn
    theirs = {GAME.determinize(state, B, seed).turn for seed in range(4)}
    assert len({t.pending.drawn for t in theirs if t and t.pending}) > 1


def test_evaluate_is_vp_in_hand() -> None:
    """Bot hook: more VP in hand looks better; a finished game is 1 for the winner."""
    assert GAME.evaluate is not None
    state = build(players={A: {"gold": 60}, B: {"gold": 20}, C: {"gold": 20}})
    assert 0.5 < GAME.evaluate(state, A) < 1.0 and GAME.evaluate(state, B) < 0.5
    final = _states(2, 4)[-1]
    result = GAME.result(final)
    assert result is not None
    assert GAME.evaluate(final, result.winners[0]) > GAME.evaluate(final, 1 - result.winners[0])

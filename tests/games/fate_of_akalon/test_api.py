"""The game's contract surface: move keys, descriptions, redaction, errors, views, codec."""

from __future__ import annotations

import copy
import dataclasses

import pytest

from tests.games.fate_of_akalon.fixtures import (
    battle,
    choose_key,
    decision,
    key,
    moves,
    play_key,
)
from tests.games.fate_of_akalon.support import perturb
from tribes.engine import SPECTATOR, IllegalMoveError, MalformedMoveError
from tribes.engine.driver import find_move, new_game, play
from tribes.engine.rng import Rng
from tribes.games.fate_of_akalon import GAME
from tribes.games.fate_of_akalon.cards import KEY
from tribes.games.fate_of_akalon.moves import (
    ChooseCard,
    ChooseFirstAttacker,
    ChooseOpponent,
    ChooseYesNo,
    Decline,
    PlaceOnDiscard,
    PlayCard,
    ResolveTrigger,
    parse_move,
)
from tribes.games.fate_of_akalon.rules.board import LOG_LIMIT

EVERY_KIND = [
    (ChooseFirstAttacker(2), "attacker:2"),
    (PlayCard("orc-goblin-1"), "play:orc-goblin-1"),
    (Decline(), "decline"),
    (ChooseOpponent(3), "opponent:3"),
    (ChooseCard("elf-archer-4"), "choose:elf-archer-4"),
    (ChooseYesNo(True), "yes"),
    (ChooseYesNo(False), "no"),
    (ResolveTrigger("undead-wraith-2", 0), "trigger:undead-wraith-2:0"),
    (PlaceOnDiscard("dwarf-hammer-1"), "discard:dwarf-hammer-1"),
]


@pytest.mark.parametrize(("move", "text"), EVERY_KIND)
def test_move_keys_are_canonical_and_parse_back(move: object, text: str) -> None:
    """§5.4 moves: one key per move, lowercase without spaces; ``parse_move`` inverts it."""
    assert move.key == text  # type: ignore[attr-defined]
    assert parse_move(text) == move


@pytest.mark.parametrize(
    "text",
    [
        "",
        "play",
        "play:",
        "play:orc-gremlin-1",
        "PLAY:orc-goblin-1",
        "opponent:01",
        "opponent:-1",
        "opponent:x",
        "yes:1",
        "trigger:orc-goblin-1",
        "trigger:orc-goblin-1:a",
        "discard:orc-goblin-1:0",
        "pass",
        "attacker:²",
    ],
)
def test_garbage_keys_are_malformed(text: str) -> None:
    """§5.4: anything that is not exactly a move key raises MalformedMoveError."""
    with pytest.raises(MalformedMoveError):
        parse_move(text)


def test_describe_says_what_a_move_does() -> None:
    """Descriptions read the pending decision ("Play Goblin (1)", "Place ... on ...")."""
    state = battle("orc,dwarf", hands={0: ["Goblin#1", "Hobgoblin#1"], 1: ["Hammer#1"]})
    assert GAME.describe(state, PlayCard(key("Goblin#1"))) == "Play Goblin (1)"
    state = moves(state, play_key("Goblin#1"))
    assert GAME.describe(state, Decline()) == "Play no extra card"
    hob = PlayCard(key("Hobgoblin#1"))
    assert GAME.describe(state, hob) == "Play Hobgoblin (2) (extra play from Goblin)"
    state = moves(state, play_key("Hobgoblin#1"), play_key("Hammer#1"))
    assert decision(state) == ("order_discard", 0)
    assert GAME.describe(state, PlaceOnDiscard(key("Goblin#1"))) == (
        "Place Goblin on your discard pile"
    )
    state = battle("elf,orc", hands={0: ["Druid#1", "Scout#1"], 1: ["Troll#1"]})
    state = moves(state, play_key("Druid#1"))
    assert GAME.describe(state, ChooseCard(key("Scout#1"))) == (
        "Druid: put Scout on your discard pile"
    )
    state = battle("elf,orc", hands={0: ["Hunter#1"], 1: ["Troll#1"]})
    state = moves(state, play_key("Hunter#1"))
    assert GAME.describe(state, ChooseYesNo(True)) == (
        "Hunter: put the top card of your deck on the bottom of your deck"
    )


def test_public_moves_hide_only_face_down_hand_cards() -> None:
    """§6: plays and discards are public; a hand card put face down on the deck is hidden."""
    state = battle("elf,orc", hands={0: ["Druid#1", "Scout#1"], 1: ["Troll#1"]})
    play_druid = PlayCard(key("Druid#1"))
    assert GAME.public_move(state, 0, play_druid) == play_druid
    state = moves(state, play_key("Druid#1"))
    discard = ChooseCard(key("Scout#1"))
    assert GAME.public_move(state, 0, discard) == discard  # it lands face up
    state = battle("elf,orc", hands={0: ["Elf Knight#1", "Scout#1"], 1: ["Troll#1"]})
    state = moves(state, play_key("Elf Knight#1"))
    assert GAME.public_move(state, 0, ChooseCard(key("Scout#1"))) is None


def test_illegal_moves_are_explained() -> None:
    """The driver's error says why, in a player's words."""
    state = battle("orc,dwarf", hands={0: ["Goblin#1", "Troll#1"], 1: ["Hammer#1"]})
    with pytest.raises(IllegalMoveError, match="Ogre is not in your hand"):
        play(GAME, state, 0, PlayCard(key("Ogre#1")))
    with pytest.raises(IllegalMoveError, match="you must play a card from your hand now"):
        play(GAME, state, 0, ChooseYesNo(True))
    with pytest.raises(IllegalMoveError, match="you cannot decline this"):
        play(GAME, state, 0, Decline())
    state = moves(state, play_key("Goblin#1"))
    with pytest.raises(IllegalMoveError, match="Goblin only lets you play a card named Hobgoblin"):
        play(GAME, state, 0, PlayCard(key("Troll#1")))


def test_apply_returns_a_new_state_and_keeps_its_input() -> None:
    """STYLE habit 1: ``apply`` never mutates the state it is given."""
    state = battle("elf,orc", hands={0: ["Master Summoner#1", "Archer#1"], 1: ["Troll#1"]})
    snapshot = copy.deepcopy(state)
    after = GAME.apply(state, 0, PlayCard(key("Master Summoner#1")))
    assert state == snapshot and after != state


def test_codec_round_trips_a_mid_battle_state() -> None:
    """The stored form decodes to the identical state."""
    state = battle("elf,orc", hands={0: ["Master Summoner#1", "Archer#1"], 1: ["Troll#1"]})
    state = moves(state, play_key("Master Summoner#1"))
    assert GAME.decode(GAME.encode(state)) == state


def test_pending_options_are_shown_only_to_the_actor() -> None:
    """§6/R-30: others and spectators see the decision type and actor, not the options."""
    state = battle("undead,orc", hands={0: ["Banshee#1"], 1: ["Goblin#1", "Troll#1"]})
    state = moves(state, play_key("Banshee#1"))
    actor, other, spectator = (GAME.view(state, s).pending for s in (1, 0, SPECTATOR))
    assert actor is not None and other is not None and spectator is not None
    assert actor.options == tuple(sorted([choose_key("Goblin#1"), choose_key("Troll#1")]))
    assert other.options == () == spectator.options
    assert (other.decision, other.actor) == ("choose_card", 1)
    assert GAME.view(state, SPECTATOR).players[0].hand == ()


def test_the_public_log_is_bounded() -> None:
    """The state keeps the latest LOG_LIMIT public lines (the move log keeps the rest)."""
    state = new_game(GAME, 2, {}, 3)
    while GAME.result(state) is None:
        seat = GAME.to_act(state)[0]
        state = play(GAME, state, seat, GAME.legal_moves(state, seat)[-1])
    assert len(state.log) == LOG_LIMIT
    assert state.log[-1].startswith("Game over: ")


def test_to_act_is_the_pending_actor_and_empty_when_over() -> None:
    """§5.2: exactly one seat acts at a time; nobody once the game is over."""
    state = new_game(GAME, 4, {}, 12)
    assert state.pending is not None
    chooser = state.pending.actor
    assert GAME.to_act(state) == (chooser,)
    state = play(GAME, state, chooser, find_move(GAME, state, chooser, "attacker:3"))
    assert GAME.to_act(state) == (3,)
    finished = new_game(GAME, 2, {}, 3)
    while GAME.result(finished) is None:
        seat = GAME.to_act(finished)[0]
        finished = play(GAME, finished, seat, GAME.legal_moves(finished, seat)[0])
    assert GAME.to_act(finished) == () and GAME.legal_moves(finished, 0) == ()


@pytest.mark.parametrize("seats", [2, 3, 4])
def test_no_view_ever_contains_the_prng_state(seats: int) -> None:
    """§6: the PRNG state never leaves the server, for any viewer, at any point of a game."""
    state = new_game(GAME, seats, {}, 0x5EED0 + seats)
    chooser = Rng(seats)
    while True:
        for viewer in (SPECTATOR, *range(seats)):
            assert str(state.rng) not in repr(GAME.view(state, viewer))
        if GAME.result(state) is not None:
            break
        seat = GAME.to_act(state)[0]
        state = play(GAME, state, seat, chooser.choice(GAME.legal_moves(state, seat)))


def test_determinize_redraws_other_hands_and_their_pending_choice() -> None:
    """Bot hook: another seat's hand is redrawn from its pool and its choice follows it."""
    assert GAME.determinize is not None
    state = battle("undead,orc", hands={0: ["Banshee#1"], 1: ["Goblin#1", "Troll#1"]})
    state = moves(state, play_key("Banshee#1"))
    assert decision(state) == ("choose_card", 1)
    guesses = [GAME.determinize(state, 0, seed) for seed in range(6)]
    assert len({g.players[1].hand for g in guesses}) > 1, "the other hand is redrawn"
    for guess in guesses:
        assert GAME.view(guess, 0) == GAME.view(state, 0)
        hand = guess.players[1].hand
        assert [m.key for m in GAME.legal_moves(guess, 1)] == sorted(
            ChooseCard(KEY[c]).key for c in hand
        )
    assert GAME.determinize(perturb(state, 0, Rng(3)), 0, 4) == guesses[4]


def test_evaluate_reads_the_cemetery_margin() -> None:
    """Bot hook: a lower cemetery than the opponent's looks good; a result is 1 or 0."""
    assert GAME.evaluate is not None
    state = battle("elf,orc", hands={0: ["Druid#1"], 1: ["Troll#1"]})
    players = (
        dataclasses.replace(state.players[0], cemetery_value=5),
        dataclasses.replace(state.players[1], cemetery_value=20),
    )
    ahead = dataclasses.replace(state, players=players)
    assert 0.5 < GAME.evaluate(ahead, 0) < 1.0 and 0.0 < GAME.evaluate(ahead, 1) < 0.5
    finished = new_game(GAME, 2, {}, 3)
    while (result := GAME.result(finished)) is None:
        seat = GAME.to_act(finished)[0]
        finished = play(GAME, finished, seat, GAME.legal_moves(finished, seat)[-1])
    values = [GAME.evaluate(finished, seat) for seat in range(2)]
    assert values[result.winners[0]] == 1.0 and sorted(values) == [0.0, 1.0]

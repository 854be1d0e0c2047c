"""The GameDef surface: move keys, parsing, descriptions, refusals, views (§6), bot hooks."""

from __future__ import annotations

import copy
import dataclasses
import enum
import types
import typing
from typing import Any

import pytest

from tests.games.rise_of_tribes.fixtures import B, R, build, do, goals, key, keys, slot
from tests.games.rise_of_tribes.support import perturb
from tribes.engine import SPECTATOR, IllegalMoveError, MalformedMoveError
from tribes.engine.driver import find_move, new_game, play
from tribes.engine.rng import Rng
from tribes.games.rise_of_tribes import GAME
from tribes.games.rise_of_tribes.cards import Event, Goal
from tribes.games.rise_of_tribes.data import (
    Action,
    AltarPayment,
    Face,
    Power,
    Resource,
    SpendTarget,
    Tribe,
)
from tribes.games.rise_of_tribes.keys import parse_move
from tribes.games.rise_of_tribes.maps import Hex
from tribes.games.rise_of_tribes.moves import (
    AltarOffer,
    AssignDie,
    BuildVillage,
    ChiefGive,
    GatherHex,
    MoveSelect,
    PlaceStartSplit,
    SpendDie,
    StartResources,
)
from tribes.games.rise_of_tribes.state import State, Step
from tribes.games.rise_of_tribes.view import View


def _states(seats: int, seed: int, options: dict[str, str] | None = None) -> list[State]:
    """Every state of one seeded random game."""
    state = new_game(GAME, seats, options or {}, seed)
    rng = Rng(seed)
    states = [state]
    while GAME.result(state) is None:
        seat = GAME.to_act(state)[0]
        state = GAME.apply(state, seat, rng.choice(GAME.legal_moves(state, seat)))
        states.append(state)
    return states


@pytest.mark.parametrize(("seats", "options"), [(2, {}), (3, {"leaders": "house"}), (4, {})])
def test_every_legal_move_key_parses_back(seats: int, options: dict[str, str]) -> None:
    """§5.9: parse_move(m.key) == m and a description, for every move of a whole game."""
    for state in _states(seats, 40 + seats, options):
        for seat in GAME.to_act(state):
            for move in GAME.legal_moves(state, seat):
                assert parse_move(move.key) == move
                assert GAME.describe(state, move).strip()


def test_key_examples() -> None:
    """Keys are lowercase, stable and readable; hexes are written q,r."""
    assert AssignDie(Face.SUN, Action.GROW).key == "assign:sun:grow"
    assert MoveSelect(Hex(2, 1), Hex(-1, 3)).key == "move:2,1:-1,3"
    assert GatherHex(Hex(1, 0), Resource.WOOD).key == "gather:1,0:wood"
    assert BuildVillage(Hex(1, 1), (Resource.FOOD, Resource.STONE)).key == "village:1,1:food+stone"
    assert BuildVillage(Hex(1, 1)).key == "village:1,1"
    assert SpendDie(Face.MOON, SpendTarget.MAMMOTH_HUNT).key == "spend:moon:mammoth-hunt"
    assert AltarOffer(Hex(0, 2), AltarPayment.ONE_OF_EACH).key == "altar:0,2:1-each"
    assert ChiefGive(Resource.STONE, 2).key == "give:stone:2"
    assert PlaceStartSplit(Hex(3, 2), Hex(2, 3)).key == "start-split:3,2:2,3"
    assert StartResources(0, 1, 1).key == "start-resources:0,1,1"


@pytest.mark.parametrize(
    "key_text",
    [
        "",
        "grow",
        "grow:1",
        "grow:1,2,3",
        "grow:01,2",
        "grow:+1,2",
        "grow:-0,2",
        "assign:sun",
        "assign:sunny:grow",
        "assign:sun:sleep",
        "move-count:0",
        "move-count:-1",
        "bid:0",
        "start-resources:1,1,1",
        "start-resources:3,0,-1",
        "evade:1,1:3",
        "bow:7",
        "village:1,1:",
        "village:1,1:stone+food",
        "village:1,1:food+food+food",
        "complete:wheel",
        "END-TURN",
        "end-turn:now",
    ],
)
def test_malformed_keys_are_refused(key_text: str) -> None:
    """Only canonical keys parse; anything else is MalformedMoveError."""
    with pytest.raises(MalformedMoveError):
        parse_move(key_text)


def test_describe_reads_the_position() -> None:
    """Descriptions name terrain, ownership, tiers and counts."""
    s = build(members={0: {R: 1}}, dice="S M")
    assert GAME.describe(s, parse_move("assign:sun:grow")).startswith(
        "GROW with your SUN die: SUN tier, add up to 3"
    )
    s = do(s, "assign:sun:grow")
    text = GAME.describe(s, parse_move(f"grow:{key(s, 0)}"))
    assert (
        text
        == f"Grow: add 1 tribe member to your Forest hex at ({key(s, 0)}) (0 of up to 3 placed)"
    )
    goals_state = build(members={4: {R: 1}}, in_progress={R: goals("D1")}, step=Step.GOALS)
    assert "pay 1 food, 2 wood" in GAME.describe(goals_state, parse_move("complete:basketry"))


#: (house) R's tribe and power; the other seats' tribes and powers, one of each tribe's two
_OTHERS = ((Tribe.DABA, Power.TRADER), (Tribe.DANANU, Power.CUNNING), (Tribe.KAHA, Power.WAYFARERS))


@pytest.mark.parametrize(
    ("completed", "winter", "house", "action", "expected"),
    [
        ((), False, None, "grow", "add up to 2 tribe members"),  # DEFAULT tier: printed 2
        ((Goal.FIRE,), True, None, "grow", "add up to 5 tribe members"),  # 2 + Fire 1 + Winter 2
        ((Goal.CAVE_PAINTING,), False, None, "lead", "draw 3 goal cards"),  # 2 + 1
        ((), False, (Tribe.INDARTSU, Power.FARMING), "grow", "add up to 3 tribe members"),
        ((), False, (Tribe.KIROR, Power.PATHFINDER), "move", "move up to 4 tribe members"),
        ((Goal.FIRE, Goal.CAVE_PAINTING), True, None, "gather", "gather from up to 2 hexes"),
    ],
)
def test_a_die_is_described_with_the_power_the_action_will_have(
    completed: tuple[Goal, ...],
    winter: bool,
    house: tuple[Tribe, Power] | None,
    action: str,
    expected: str,
) -> None:
    """§5.5: the power of GROW, MOVE and LEAD counts the player's cards (Fire, Mild Winter,
    Cave Painting; house: Farming, Pathfinder; GATHER has none), and the die's description
    says that power, the one the action is then played with, not the tier's printed value."""
    seats = None if house is None else (house, *_OTHERS)
    s = build(
        members={4: {R: 2}},
        slots=(slot(Event.MILD_WINTER, tokens=3) if winter else None, None),
        completed={R: completed},
        tribes=None if seats is None else {i: tribe for i, (tribe, _) in enumerate(seats)},
        powers=None if seats is None else {i: power for i, (_, power) in enumerate(seats)},
        dice="- S",
    )
    move = f"assign:blank:{action}"
    assert move in keys(s)
    assert expected in GAME.describe(s, parse_move(move))
    played = do(s, move)
    if played.action is not None:  # the action under way has the power described
        assert f" {played.action.power} " in expected


def test_illegal_moves_are_refused_with_a_reason_and_change_nothing() -> None:
    """A well-formed move the rules forbid now: IllegalMoveError with a reason; no change."""
    s = build(members={0: {R: 1}, 4: {B: 2}}, dice="S M")
    before = copy.deepcopy(s)
    cases = {
        "end-turn": "not possible now",
        "assign:blank:grow": "no BLANK die",
        "spend:sun:mammoth-hunt": "mammoth",
    }
    for key_text, reason in cases.items():
        with pytest.raises(IllegalMoveError, match=reason):
            find_move(GAME, s, R, key_text)
    assert s == before
    s = do(s, "assign:sun:grow", "grow-done")
    with pytest.raises(IllegalMoveError, match="already took GROW"):
        find_move(GAME, s, R, "assign:moon:grow")
    s = do(s, "assign:moon:move")
    with pytest.raises(IllegalMoveError, match="out of reach"):
        find_move(GAME, s, R, f"move:{key(s, 0)}:{key(s, 14)}")
    with pytest.raises(IllegalMoveError, match="not moved"):
        find_move(GAME, s, R, f"move:{key(s, 4)}:{key(s, 3)}")
    with pytest.raises(IllegalMoveError, match="not a hex of the map"):
        find_move(GAME, s, R, f"move:9,9:{key(s, 3)}")


def test_illegal_goal_and_village_moves_explain_why() -> None:
    """Step 5 refusals say what is missing."""
    s = build(members={4: {R: 1}, 5: {B: 1}}, in_progress={R: goals("D1", "A8")}, step=Step.GOALS)
    for key_text, reason in {
        "complete:basketry": "cannot pay",
        "complete:expansion": "condition",
        "complete:fire": "not one of your goal cards",
        f"village:{key(s, 5)}": "where you have tribe members",
        f"village:{key(s, 4)}": "cannot pay",
        "move-skip": "not possible now",
    }.items():
        with pytest.raises(IllegalMoveError, match=reason):
            find_move(GAME, s, R, key_text)


def test_other_seats_cannot_move() -> None:
    """The driver refuses a seat that is not to act; legal_moves is empty for it."""
    s = build(members={0: {R: 1}}, dice="S M")
    assert GAME.legal_moves(s, B) == ()
    with pytest.raises(Exception, match="not your turn"):
        play(GAME, s, B, parse_move("assign:sun:grow"))


def test_the_view_is_the_same_for_every_viewer() -> None:
    """§6: one and the same view for every seat and for a spectator."""
    for state in _states(3, 5)[::40]:
        seen = GAME.view(state, SPECTATOR)
        assert all(GAME.view(state, seat) == seen for seat in range(3))


def test_the_view_hides_only_deck_orders_and_the_prng() -> None:
    """§6: deck orders and the PRNG are hidden; sizes and everything else are shown."""
    state = _states(4, 9)[120]
    view = GAME.view(state, R)
    assert GAME.view(perturb(state, R, Rng(1)), R) == view
    assert view.event_deck_size == len(state.event_deck)
    assert [p.goal_deck_size for p in view.players] == [len(p.goal_deck) for p in state.players]
    assert str(state.rng) not in repr(view)
    changed = dataclasses.replace(
        state, players=(dataclasses.replace(state.players[0], vp=9), *state.players[1:])
    )
    assert GAME.view(changed, R) != view, "public fields are in the view"


def test_view_shows_the_pending_decision() -> None:
    """The view names the step, its actor and the actor's options (for spectators too)."""
    s = build(members={0: {R: 1}}, dice="S M")
    view = GAME.view(s, SPECTATOR)
    assert view.pending.actor == R and view.pending.step is s.step
    assert list(view.pending.options) == keys(s)


_ALLOWED = (int, str, bool)


def _check_regular(tp: Any, seen: set[Any]) -> None:
    """View and moves are trees of frozen dataclasses of ints, strings, bools, enums,
    optionals and tuples (the generic protobuf mapper's input)."""
    origin, args = typing.get_origin(tp), typing.get_args(tp)
    if tp in _ALLOWED:
        return
    if isinstance(tp, type) and issubclass(tp, enum.Enum):
        assert all(m.name.isupper() for m in tp), f"{tp} member names are UPPER_CASE"
        return
    if origin in (typing.Union, types.UnionType):
        real = [a for a in args if a is not type(None)]
        assert len(real) == 1, f"{tp}: only X | None"
        _check_regular(real[0], seen)
        return
    if origin is tuple:
        assert len(args) == 2 and args[1] is Ellipsis, f"{tp}: tuple[X, ...] only"
        _check_regular(args[0], seen)
        return
    assert dataclasses.is_dataclass(tp) and isinstance(tp, type), f"{tp} is not allowed"
    assert tp.__dataclass_params__.frozen, f"{tp} is frozen"  # type: ignore[attr-defined]
    if tp in seen:
        return
    seen.add(tp)
    for name, hint in typing.get_type_hints(tp).items():
        _check_regular(hint, seen)
        assert name == name.lower()


def test_view_and_moves_have_a_regular_shape() -> None:
    """No dicts, sets, lists or Any in the View or any Move."""
    from tribes.games.rise_of_tribes import moves

    seen: set[Any] = set()
    _check_regular(View, seen)
    kinds = typing.get_args(moves.Move)
    assert len(kinds) == 45
    for kind in kinds:
        _check_regular(kind, seen)


def test_scores_are_public_running_vp() -> None:
    """VP are public: every viewer gets everyone's running total."""
    s = build(members={0: {R: 1}}, vp={R: 4, B: 2})
    assert GAME.scores(s, SPECTATOR) == (4, 2, 0, 0)


def test_determinize_redraws_only_hidden_orders() -> None:
    """determinize keeps the view and legal moves and depends only on the view and seed."""
    assert GAME.determinize is not None and GAME.evaluate is not None
    state = _states(3, 21, {"leaders": "house"})[150]
    guess = GAME.determinize(state, B, 77)
    assert GAME.view(guess, B) == GAME.view(state, B)
    assert guess.rng != state.rng
    other = perturb(state, B, Rng(5))
    assert GAME.determinize(other, B, 77) == guess
    assert GAME.determinize(state, B, 78) != guess


def test_evaluate_is_a_probability_like_score() -> None:
    """evaluate is in [0, 1], 1 for the winner and 0 for the others at the end."""
    assert GAME.evaluate is not None
    final = _states(2, 3)[-1]
    result = GAME.result(final)
    assert result is not None
    winner = result.winners[0]
    assert GAME.evaluate(final, winner) == 1.0 and GAME.evaluate(final, 1 - winner) == 0.0
    ahead = build(members={0: {R: 3}}, vp={R: 10, B: 2})
    assert 0.5 < GAME.evaluate(ahead, R) < 1.0 and 0.0 < GAME.evaluate(ahead, B) < 0.5


def test_codec_round_trip_and_apply_purity() -> None:
    """The codec round-trips exactly; apply never mutates its input."""
    for state in _states(4, 2)[::60]:
        assert GAME.decode(GAME.encode(state)) == state
        seat = GAME.to_act(state)
        if seat:
            snapshot = copy.deepcopy(state)
            GAME.apply(state, seat[0], GAME.legal_moves(state, seat[0])[0])
            assert state == snapshot


def test_house_rules_are_named_in_descriptions() -> None:
    """Moves of a HOUSE-RULE power say so in their description."""
    s = build(
        members={0: {R: 1}},
        tribes={R: Tribe.DANANU, B: Tribe.DABA},
        powers={R: Power.CUNNING, B: Power.TRADER, 2: Power.FARMING, 3: Power.WAYFARERS},
        dice="S M",
    )
    assert "reroll:sun" in keys(s)
    assert "house rule" in GAME.describe(s, parse_move("reroll:sun"))


@pytest.mark.parametrize(("seats", "options"), [(2, {"leaders": "house"}), (4, {})])
def test_every_refusal_has_a_reason(seats: int, options: dict[str, str]) -> None:
    """explain_illegal answers (never crashes) for any well-formed move not legal now."""
    assert GAME.explain_illegal is not None
    states = _states(seats, 60 + seats, options)
    pool = {
        m.key: m for st in states for seat in GAME.to_act(st) for m in GAME.legal_moves(st, seat)
    }
    pool["grow:9,9"] = parse_move("grow:9,9")
    pool["move:9,9:2,0"] = parse_move("move:9,9:2,0")
    pool["move:2,0:9,9"] = parse_move("move:2,0:9,9")
    pool["evade:9,9:1"] = parse_move("evade:9,9:1")
    for state in states[::25]:
        seat = GAME.to_act(state)
        if not seat:
            continue
        legal = {m.key for m in GAME.legal_moves(state, seat[0])}
        for key_text, move in pool.items():
            if key_text not in legal:
                reason = GAME.explain_illegal(state, seat[0], move)
                assert reason.strip(), key_text

"""The GameDef surface: move keys, texts, views and their redaction (§6), scores, codec,
the bot hooks, and the regular shape views and moves need for the protobuf mapper."""

from __future__ import annotations

import dataclasses
import enum
import types
import typing
from dataclasses import replace
from typing import Any

import pytest

from tests.games.tribes_early_civilization.fixtures import build, do, h
from tribes.engine import SPECTATOR, MalformedMoveError
from tribes.engine.driver import new_game, play
from tribes.engine.rng import Rng
from tribes.games.tribes_early_civilization import GAME, moves
from tribes.games.tribes_early_civilization.data import BOARDS, EVENTS, Board, Terrain
from tribes.games.tribes_early_civilization.moves import (
    ChooseAchievement,
    ChooseTile,
    PlaceLand,
    Relocate,
    Step,
    parse_move,
)
from tribes.games.tribes_early_civilization.state import (
    BoardView,
    Mode,
    Pending,
    Phase,
    Route,
    State,
    View,
)

MOVE_FIRST = "A_MOVE(0) A_PROCREATE(0) A_EXPLORE(0) A_MOVE_H(0) A_PROCREATE_H(0) A_EXPLORE_H(0)"


def _game(seats: int, seed: int, options: dict[str, str] | None = None) -> list[State]:
    """Every state of one seeded random game."""
    state = new_game(GAME, seats, options or {}, seed)
    rng = Rng(seed)
    states = [state]
    while GAME.result(state) is None:
        (seat,) = GAME.to_act(state)
        state = play(GAME, state, seat, rng.choice(GAME.legal_moves(state, seat)))
        states.append(state)
    return states


# -- moves ----------------------------------------------------------------------------------


def test_key_examples() -> None:
    """§5.2 moves have short canonical keys."""
    assert ChooseTile(2, Mode.ACTION).key == "tile:2:action"
    assert Step(h(0, 0), h(0, 1)).key == "step:0,0:0,1"
    assert Relocate(h(0, 0), h(2, 0)).key == "relocate:0,0:2,0"
    assert PlaceLand(Terrain.WHEAT, h(2, -1)).key == "land:wheat:2,-1"
    assert ChooseAchievement(Board.B_HUNTING, Route.NONE).key == "achieve:b_hunting:none"
    arrow = ChooseAchievement(Board.O_WEAVING, Route.NEW_ARROW, Board.G_CHEESE)
    assert arrow.key == "achieve:o_weaving:new-arrow:g_cheese"


@pytest.mark.parametrize("seats", [2, 3, 4])
def test_every_offered_key_parses_back_and_is_described(seats: int) -> None:
    """parse_move(m.key) == m for every move offered in a whole game, each described."""
    for state in _game(seats, 20 + seats)[::3]:
        for seat in GAME.to_act(state):
            for move in GAME.legal_moves(state, seat):
                assert parse_move(move.key) == move
                assert GAME.describe(state, move).strip()


@pytest.mark.parametrize(
    "key",
    [
        "",
        "tile",
        "tile:2",
        "tile:02:action",
        "tile:2:jump",
        "tile:99:action",
        "step:0,0",
        "step:0,0:0,1:1,1",
        "step:00,0:0,1",
        "step:-0,0:0,1",
        "step:0,0:0,+1",
        "land:wood:0,1",
        "land:WHEAT:0,1",
        "member:1000,0",
        "first:0;1",
        "achieve:b_hunting",
        "achieve:b_hunting:new-arrow",
        "achieve:b_hunting:none:g_cheese",
        "achieve:nothing:none",
        "end-move:now",
        "END-MOVE",
        "wild: 1,0",
    ],
)
def test_malformed_keys_are_refused(key: str) -> None:
    """Only canonical keys parse; anything else is MalformedMoveError."""
    with pytest.raises(MalformedMoveError):
        parse_move(key)


def test_public_move_hides_nothing() -> None:
    """No move of this game is secret (§6): the log shows moves as they are."""
    state = new_game(GAME, 2, {}, 1)
    move = GAME.legal_moves(state, state.start_player)[0]
    assert GAME.public_move(state, state.start_player, move) == move


# -- texts -----------------------------------------------------------------------------------


def test_descriptions_read_like_the_rulebook() -> None:
    """describe names the decision and the tiles involved."""
    state = build(
        sequence=(
            "A_EXPLORE(1) A_MOVE(0) A_PROCREATE(0) A_MOVE_H(0) A_PROCREATE_H(0) A_EXPLORE_H(0)"
        ),
        players={0: {"tiles": "(0,0):GOAT[1] (1,0):HORSE[0] (0,1):WHEAT[0]"}},
        bag={"WHEAT": 1},
    )
    text = GAME.describe(state, parse_move("tile:0:action"))
    assert text == "Take Explore at position 1 (collect 1 shell): Explore 1 land tile(s)"
    exploring = do(state, "tile:0:action", invariants=False)
    assert GAME.describe(exploring, parse_move("land:wheat:2,-1")) == (
        "Explore: place a Wheat tile at (2,-1) next to your Horse tile at (1,0)"
    )
    assert GAME.describe(state, parse_move("step:0,0:0,1")) == (
        "Move: a tribe member from your Goat tile at (0,0) to your Wheat tile at (0,1)"
    )


def test_explanations_name_the_pending_decision() -> None:
    """explain_illegal says what is expected when a move belongs to another phase."""
    state = build(sequence=MOVE_FIRST)
    why = GAME.explain_illegal(state, 0, parse_move("end-move"))  # type: ignore[misc]
    assert why == "you cannot do that now: seat 0: take a tile from the action sequence"
    other = GAME.explain_illegal(state, 1, parse_move("tile:0:action"))  # type: ignore[misc]
    assert other.startswith("it is not your turn")


def test_explanations_never_name_a_hidden_board() -> None:
    """A face-down board and a removed one get the same answer (§6)."""
    state = build(sequence=MOVE_FIRST, pending=Pending(Phase.ACHIEVE_SELECT, 0))
    hidden = next(s.board for s in state.grid if not s.face_up)
    removed = state.removed_boards[1]
    explain = GAME.explain_illegal
    assert explain is not None
    answers = {
        explain(state, 0, ChooseAchievement(b, Route.DIRECT)).replace(BOARDS[b].name, "X")
        for b in (hidden, removed)
    }
    assert answers == {"X is not a face-up achievement board"}


# -- views (§6) ------------------------------------------------------------------------------


def test_face_down_boards_show_only_epoch_and_column() -> None:
    """§6: a face-down board is exactly {epoch, column, face_up: false}."""
    state = new_game(GAME, 3, {}, 4)
    boards = GAME.view(state, 0).boards
    assert [b.face_up for b in boards] == [True] * 4 + [False] * 8
    assert boards[5] == BoardView(2, 1, False, None)
    shown = [b.face.board for b in boards if b.face is not None]
    assert shown == [s.board for s in state.grid[:4]]


def test_hidden_boards_and_stack_tiles_appear_nowhere_in_a_view() -> None:
    """§6: no removed board, no face-down board, no stack tile, no stack order."""
    for state in _game(3, 5)[::40]:
        for viewer in (SPECTATOR, 0, 1, 2):
            text = repr(GAME.view(state, viewer))
            hidden = [s.board for s in state.grid if not s.face_up] + list(state.removed_boards)
            for board in hidden:
                assert f"Board.{board.name}:" not in text and BOARDS[board].name not in text
            visible = {t.event for t in state.sequence} | set(state.executed_orange)
            visible |= set(state.boxed_events) | {state.event}
            for stack in state.event_stacks:
                for event in stack:
                    if event not in visible:
                        assert event.name not in text and EVENTS[event].name not in text
            view = GAME.view(state, viewer)
            assert [s.count for s in view.event_stacks] == [len(s) for s in state.event_stacks]


def test_vp_totals_only_for_their_owner_until_the_end() -> None:
    """§6: opponents' VP are unset; a spectator sees none; at GAME_OVER everyone's."""
    state = build(players={0: {"vp": 4}, 1: {"vp": 7}, 2: {"vp": 1}})
    assert [p.vp for p in GAME.view(state, 1).players] == [None, 7, None]
    assert [p.vp for p in GAME.view(state, SPECTATOR).players] == [None, None, None]
    assert GAME.scores(state, 1) == ()
    public = build(players={0: {"vp": 4}, 1: {"vp": 7}}, options={"hide_opponent_vp": "off"})
    assert [p.vp for p in GAME.view(public, SPECTATOR).players] == [4, 7, 0]
    assert GAME.scores(public, SPECTATOR) == (4, 7, 0)
    final = _game(2, 3, {"turn_cap": "12"})[-1]
    assert final.final is not None
    assert [p.vp for p in GAME.view(final, SPECTATOR).players] == [p.vp for p in final.players]
    assert GAME.scores(final, SPECTATOR) == tuple(s.total for s in final.final)


def test_spectator_view_is_the_same_whichever_seat_it_is_built_from() -> None:
    """§6: view(None) is the public part, the same as what every seat sees of the others."""
    state = build(
        sequence=f"EV1_BEAR(0) {MOVE_FIRST}",
        players={0: {"vp": 1}, 1: {"levels": "S1", "vp": 9}, 2: {"levels": "S1"}},
    )
    state = do(state, "tile:0:event")
    spectator = GAME.view(state, SPECTATOR)
    richer = replace(state, players=tuple(replace(p, vp=p.vp + 5) for p in state.players))
    assert GAME.view(richer, SPECTATOR) == spectator
    for seat in range(3):
        seen = GAME.view(state, seat)
        assert seen.boards == spectator.boards and seen.sequence == spectator.sequence
        assert seen.pending == spectator.pending and seen.bag == spectator.bag
        others = [p for p in seen.players if p.seat != seat]
        assert others == [p for p in spectator.players if p.seat != seat]


def test_applied_vp_loss_shown_to_all_at_the_end() -> None:
    """§6: all applied amounts are revealed at GAME_OVER."""
    state = build(
        seats=2,
        sequence=f"EV1_BEAR(0) {MOVE_FIRST}",
        current=1,
        players={0: {"levels": "S1"}, 1: {"vp": 1}},
        options={"turn_cap": "2"},
    )
    state = do(state, "tile:0:event")
    assert not any("1 lost" in line.text for line in GAME.view(state, 0).log)
    assert any("1 lost" in line.text for line in GAME.view(state, 1).log)
    final = _play_to_end(state)
    assert final.final is not None
    assert any("1 lost" in line.text for line in GAME.view(final, 0).log)


def _play_to_end(state: State) -> State:
    while GAME.result(state) is None:
        (seat,) = GAME.to_act(state)
        state = play(GAME, state, seat, GAME.legal_moves(state, seat)[0])
    return state


def test_view_tells_a_frontend_who_decides_what() -> None:
    """The pending decision is public: phase, decider, prompt, counts, drawn tiles."""
    state = build(
        sequence=(
            "A_EXPLORE(0) A_MOVE(0) A_PROCREATE(0) A_MOVE_H(0) A_PROCREATE_H(0) A_EXPLORE_H(0)"
        ),
        players={0: {"levels": "E1"}},
    )
    state = do(state, "tile:0:action")
    view = GAME.view(state, SPECTATOR)
    assert view.to_act == (0,) and view.pending is not None
    assert view.pending.prompt == "seat 0: place 2 drawn land tile(s) next to the territory"
    assert sum(c.count for c in view.pending.drawn) == 2 and view.pending.taken_tile is not None
    assert view.bag_total == sum(state.bag) and len(view.bag) == 5


_ALLOWED = (int, str, bool)


def _check_type(tp: Any, seen: set[Any], where: str) -> None:
    if tp in _ALLOWED:
        return
    if isinstance(tp, type) and issubclass(tp, enum.Enum):
        assert all(name.isupper() for name in tp.__members__), f"{where}: {tp} member names"
        return
    if dataclasses.is_dataclass(tp) and isinstance(tp, type):
        assert tp.__dataclass_params__.frozen, f"{where}: {tp.__name__} is not frozen"  # type: ignore[attr-defined]
        if tp in seen:
            return
        seen.add(tp)
        for name, hint in typing.get_type_hints(tp).items():
            _check_type(hint, seen, f"{tp.__name__}.{name}")
        return
    origin, args = typing.get_origin(tp), typing.get_args(tp)
    if origin is tuple:
        assert len(args) == 2 and args[1] is Ellipsis, f"{where}: only tuple[X, ...]"
        _check_type(args[0], seen, where)
        return
    if origin in (typing.Union, types.UnionType):
        real = [a for a in args if a is not type(None)]
        assert len(real) == 1 and len(args) == 2, f"{where}: only X | None unions"
        _check_type(real[0], seen, where)
        return
    raise AssertionError(f"{where}: {tp!r} is not a mapper-friendly field type")


def test_views_and_moves_are_regular_trees_for_the_proto_mapper() -> None:
    """Fields are ints, strings, bools, enums, X | None, tuple[X, ...] or frozen dataclasses."""
    seen: set[Any] = set()
    _check_type(View, seen, "View")
    for move in typing.get_args(moves.Move):
        _check_type(move, seen, move.__name__)


# -- codec and bot hooks ---------------------------------------------------------------------


def test_codec_round_trips_exactly() -> None:
    """The stored form decodes to an equal state and encodes to the same bytes."""
    for state in _game(4, 9)[::50]:
        blob = GAME.encode(state)
        assert GAME.decode(blob) == state and GAME.encode(GAME.decode(blob)) == blob


def test_determinize_redraws_what_the_seat_cannot_see() -> None:
    """Hidden boards and stack order change with the seed; the seat's view does not."""
    state = _game(3, 7)[60]
    assert GAME.determinize is not None
    guesses = [GAME.determinize(state, 0, seed) for seed in range(8)]
    for guess in guesses:
        assert GAME.view(guess, 0) == GAME.view(state, 0)
        assert GAME.legal_moves(guess, 0) == GAME.legal_moves(state, 0)
    assert len({g.removed_boards for g in guesses}) > 1
    assert len({g.event_stacks for g in guesses}) > 1
    assert GAME.determinize(state, 0, 3) == guesses[3]


def test_determinize_sets_other_seats_vp_to_their_public_part() -> None:
    """Others' totals become the VP under their stones (what the board shows)."""
    state = build(
        sequence=MOVE_FIRST,
        boards={(1, 0): "B_HUNTING"},
        stones={"B_HUNTING": (1, 2)},
        players={0: {"vp": 3}, 1: {"vp": 11}, 2: {"vp": 5}},
    )
    assert GAME.determinize is not None
    guess = GAME.determinize(state, 0, 1)
    assert [p.vp for p in guess.players] == [3, 2, 2]


def test_evaluate_is_a_probability_like_score() -> None:
    """evaluate is in [0, 1], rises with a lead, and is 1 / 0 for a decided game."""
    assert GAME.evaluate is not None
    ahead = build(players={0: {"vp": 20}})
    behind = build(players={1: {"vp": 20}})
    assert 0.5 < GAME.evaluate(ahead, 0) <= 1 and 0 <= GAME.evaluate(behind, 0) < 0.5
    final = _game(2, 4, {"turn_cap": "20"})[-1]
    assert final.final is not None
    values = [GAME.evaluate(final, seat) for seat in range(2)]
    winners = [s.seat for s in final.final if s.rank == 1]
    assert all(values[s] == 1.0 / len(winners) for s in winners)
    assert all(values[s] == 0.0 for s in range(2) if s not in winners)


def test_result_summary() -> None:
    """Result: totals as scores, ranks with the tie-breaks, a readable summary."""
    final = _game(3, 2)[-1]
    result = GAME.result(final)
    assert result is not None and final.final is not None
    assert result.scores == tuple(s.total for s in final.final)
    assert "VP" in result.summary and min(result.ranks) == 1

"""The seed rulebook's own examples and notes (shared/seeds/tribes-early-civilization.txt).

The rulebook's numbered examples are paraphrased by the spec as Ex 1-11 and tested in
``test_examples`` (selection ex. 1-3 = Ex 1-3, procreate = Ex 4, move = Ex 5, explore =
Ex 6, achievement ex. 1-3 = Ex 7-9, wild tile = Ex 9 Variant A, arrow = Ex 11, event = Ex
12, setup note = Ex 21, no reserve = Ex 19, empty bag = Ex 20). The tests here check the
rulebook's remaining statements, each quoted in its docstring.
"""

from __future__ import annotations

from tests.games.tribes_early_civilization.fixtures import build, do, keys, slot_of, tile
from tribes.games.tribes_early_civilization import GAME
from tribes.games.tribes_early_civilization.data import END_THRESHOLD, Event, Terrain
from tribes.games.tribes_early_civilization.rules.scoring import final_scores
from tribes.games.tribes_early_civilization.state import Phase, RowKind

HAND_FIRST = "A_EXPLORE_H(0) A_MOVE(0) A_PROCREATE(0) A_EXPLORE(0) A_MOVE_H(0) A_PROCREATE_H(0)"
MOVE_FIRST = "A_MOVE(0) A_PROCREATE(0) A_EXPLORE(0) A_MOVE_H(0) A_PROCREATE_H(0) A_EXPLORE_H(0)"


def test_during_the_game_duplicates_are_kept() -> None:
    """Setup NOTE: during the game a player may draw and keep copies of one resource."""
    state = build(
        sequence=(
            "A_EXPLORE(0) A_MOVE(0) A_PROCREATE(0) A_MOVE_H(0) A_PROCREATE_H(0) A_EXPLORE_H(0)"
        ),
        players={0: {"tiles": "(0,0):GOAT[1] (1,0):HORSE[0] (0,1):WHEAT[0]", "levels": "E1"}},
        bag={"GOAT": 2},
    )
    state = do(state, "tile:0:action", "land:goat:2,0", "land:goat:-1,0", invariants=False)
    goats = [t for t in state.players[0].tiles if t.terrain is Terrain.GOAT]
    assert len(goats) == 3


def test_a_hand_tile_gives_the_action_or_an_achievement_never_both() -> None:
    """Selecting: a hand tile gives its action or an achievement, never both."""
    state = build(
        sequence=HAND_FIRST,
        boards={(1, 0): "B_HUNTING"},
        players={0: {"tiles": "(0,0):HORSE[1] (1,0):WHEAT[0] (0,1):GOLD[0]"}},
    )
    achieved = do(state, "tile:0:achieve", "achieve:b_hunting:none")
    assert GAME.to_act(achieved) == (1,) and len(achieved.players[0].tiles) == 3
    explored = do(state, "tile:0:action")
    assert explored.phase is Phase.EXPLORE_PLACE
    explored = do(explored, keys(explored)[0])
    assert not slot_of(explored, "B_HUNTING").stones


def test_moving_is_optional() -> None:
    """Move: a player may use only some of the steps, or not move at all."""
    state = build(sequence=MOVE_FIRST)
    before = state.players[0].tiles
    state = do(state, "tile:0:action", "end-move")
    assert state.players[0].tiles == before and GAME.to_act(state) == (1,)


def test_the_resource_is_not_handed_over() -> None:
    """Achievement: "The player does not hand over this resource in this process." """
    state = build(
        sequence=HAND_FIRST,
        boards={(1, 0): "B_HUNTING"},
        players={0: {"tiles": "(0,0):HORSE[2] (1,0):WHEAT[0] (0,1):GOLD[0]"}},
    )
    after = do(state, "tile:0:achieve", "achieve:b_hunting:none")
    assert after.players[0].tiles == state.players[0].tiles


def test_a_revealed_event_waits_until_someone_takes_it() -> None:
    """Events: a revealed event does nothing until a player selects it."""
    state = build(
        sequence=HAND_FIRST,
        boards={(1, 0): "B_HUNTING"},
        stacks={1: "EV1_BERRIES"},
        players={0: {"tiles": "(0,0):HORSE[1] (1,0):WHEAT[0] (0,1):GOLD[0]"}},
    )
    state = do(state, "tile:0:achieve", "achieve:b_hunting:none")
    assert [p.vp for p in state.players] == [2, 0, 0]
    position = next(i for i, t in enumerate(state.sequence) if t.kind is RowKind.EVENT)
    assert state.sequence[position].event is Event.EV1_BERRIES
    taker = do(state, "tile:0:action")  # P1 takes something else: nothing happens
    assert [p.vp for p in taker.players] == [2, 0, 0]


def test_executed_orange_events_are_displayed_brown_and_green_boxed() -> None:
    """Events: brown and green tiles go back to the box, orange ones to the display."""
    green = do(build(sequence=f"EV2_RIVALS(0) {MOVE_FIRST}"), "tile:0:event")
    assert green.boxed_events == (Event.EV2_RIVALS,) and green.executed_orange == ()
    orange = do(build(sequence=f"EV3_TRIBUTE(0) {MOVE_FIRST}"), "tile:0:event")
    assert orange.executed_orange == (Event.EV3_TRIBUTE,) and orange.boxed_events == ()
    assert GAME.view(orange, -1).orange_executed == 1


def test_end_thresholds() -> None:
    """End of game: "for 2 players, 2 event tiles; for 3 players, 3; for 4 players, 4"."""
    assert END_THRESHOLD == {2: 2, 3: 3, 4: 4}


def test_most_land_counts_only_tiles_not_exhausted() -> None:
    """Scoring 3: most land tiles counts only tiles that have not been exhausted."""
    state = build(
        seats=2,
        players={
            0: {"tiles": "(0,0):GOAT[1] (1,0):WHEAT*[0] (0,1):GOLD*[0] (2,0):HORSE*[0]"},
            1: {"tiles": "(0,0):GOAT[1] (1,0):WHEAT[0] (0,1):GOLD[0]"},
        },
    )
    assert [s.most_land_vp for s in final_scores(state)] == [0, 2]


def test_the_last_member_can_lose_only_down_to_one() -> None:
    """Events: a player loses members only down to one left on the board."""
    two = "(0,0):GOAT[1] (1,0):WHEAT[1] (0,1):GOLD[0]"
    state = build(sequence=f"EV3_EPIDEMIC(0) {MOVE_FIRST}", players={0: {"tiles": two}})
    state = do(state, "tile:0:event")
    assert state.phase is Phase.EVENT_LOSE_MEMBER and state.pending is not None
    assert state.pending.left == 1
    state = do(state, "lose:0,0")
    assert tile(state, 0, 1, 0).members == 1 and state.players[0].on_board == 1

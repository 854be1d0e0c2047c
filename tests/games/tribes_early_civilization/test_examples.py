"""The worked examples Ex 1-23 of the rules spec (§9), each with its exact result.

Seats P0..P3; "Black" is P0, "Brown" P1 and "Gray" P2 where the seed names them.
Territories and sequences are written in the spec's notation (see ``fixtures``).
"""

from __future__ import annotations

from tests.games.tribes_early_civilization.fixtures import (
    build,
    do,
    keys,
    refused,
    row_text,
    slot_of,
    tile,
)
from tribes.engine.rng import Rng
from tribes.games.tribes_early_civilization import GAME
from tribes.games.tribes_early_civilization.data import Event, Terrain, Track
from tribes.games.tribes_early_civilization.rules.scoring import final_scores
from tribes.games.tribes_early_civilization.rules.setup import _starting_territory
from tribes.games.tribes_early_civilization.state import Arrow, BoardCell, Phase, State

START = "(0,0):GOAT[0] (1,0):WHEAT[0] (0,1):GOLD[0]"
TRIANGLE_FRONTIER = {"-1,0", "0,-1", "1,-1", "-1,1", "2,0", "1,1", "2,-1", "0,2", "-1,2"}


def _cells(moves: list[str]) -> set[str]:
    return {key.rsplit(":", 1)[1] for key in moves}


# -- Ex 1-3: the action sequence (seed, selecting an action tile) -----------------------


def test_ex1_first_tile_is_free() -> None:
    """Ex 1: the first tile costs nothing; Procreate 1 onto the occupied Goat tile."""
    state = build(
        sequence=(
            "A_PROCREATE(0) A_MOVE_H(0) A_EXPLORE(0) A_MOVE(0) A_PROCREATE_H(0) A_EXPLORE_H(0)"
        ),
        players={0: {"tiles": "(0,0):GOAT[1] (1,0):WHEAT[0] (0,1):GOLD[0]", "shells": 5}},
    )
    assert state.players[0].reserve == 14
    state = do(state, "tile:0:action")
    assert state.players[0].shells == 5
    assert state.phase is Phase.PROCREATE_PLACE and state.pending is not None
    assert state.pending.left == 1
    assert keys(state) == ["member:0,0"]
    state = do(state, "member:0,0")
    assert tile(state, 0, 0, 0).members == 2 and state.players[0].reserve == 13
    assert row_text(state) == (
        "A_MOVE_H(0) A_EXPLORE(0) A_MOVE(0) A_PROCREATE_H(0) A_EXPLORE_H(0) A_PROCREATE(0)"
    )
    assert GAME.to_act(state) == (1,) and state.phase is Phase.TURN_CHOOSE_TILE


def test_ex2_skipping_two_tiles_pays_two_shells() -> None:
    """Ex 2: position 2 costs a shell on each skipped tile; Explore lands at the end."""
    state = build(
        sequence=(
            "A_PROCREATE(0) A_MOVE(0) A_EXPLORE(0) A_MOVE_H(0) A_PROCREATE_H(0) A_EXPLORE_H(0)"
        ),
        players={0: {"tiles": "(0,0):GOAT[1] (1,0):WHEAT[0] (0,1):GOLD[0]", "shells": 5}},
    )
    state = do(state, "tile:2:action")
    assert state.players[0].shells == 3
    assert state.phase is Phase.EXPLORE_PLACE and state.pending is not None
    assert state.pending.left == 1 and sum(state.pending.drawn) == 1
    state = do(state, keys(state)[0])
    assert len(state.players[0].tiles) == 4
    assert row_text(state) == (
        "A_PROCREATE(1) A_MOVE(1) A_MOVE_H(0) A_PROCREATE_H(0) A_EXPLORE_H(0) A_EXPLORE(0)"
    )


def test_ex3_skip_one_collect_one() -> None:
    """Ex 3: pay 1 onto A_MOVE, collect the 1 on Explore: still 2 shells."""
    state = build(
        sequence=(
            "A_MOVE(0) A_EXPLORE(1) A_PROCREATE(0) A_MOVE_H(0) A_PROCREATE_H(0) A_EXPLORE_H(0)"
        ),
        players={0: {"tiles": "(0,0):GOAT[1] (1,0):WHEAT[0] (0,1):GOLD[0]", "shells": 2}},
    )
    after = do(state, "tile:1:action")
    assert after.players[0].shells == 2
    after = do(after, keys(after)[0])
    assert row_text(after) == (
        "A_MOVE(1) A_PROCREATE(0) A_MOVE_H(0) A_PROCREATE_H(0) A_EXPLORE_H(0) A_EXPLORE(0)"
    )


def test_ex3_without_shells_only_the_first_tile() -> None:
    """Ex 3: with 0 shells only ChooseTile(0, ...) is legal."""
    state = build(
        sequence=(
            "A_MOVE(0) A_EXPLORE(1) A_PROCREATE(0) A_MOVE_H(0) A_PROCREATE_H(0) A_EXPLORE_H(0)"
        ),
        players={0: {"tiles": "(0,0):GOAT[1] (1,0):WHEAT[0] (0,1):GOLD[0]", "shells": 0}},
    )
    assert keys(state) == ["tile:0:action"]
    assert "costs 1 shells; you have 0" in refused(state, "tile:1:action")


# -- Ex 4-6: the actions ------------------------------------------------------------------


def _procreate(tiles: str, lv: str = "", reserve: int | None = None) -> State:
    player: dict[str, object] = {"tiles": tiles, "levels": lv}
    if reserve is not None:
        player["reserve"] = reserve
    state = build(
        sequence=(
            "A_PROCREATE(0) A_MOVE(0) A_EXPLORE(0) A_MOVE_H(0) A_PROCREATE_H(0) A_EXPLORE_H(0)"
        ),
        players={0: player},
    )
    return do(state, "tile:0:action")


def test_ex4_procreate_only_onto_occupied_tiles() -> None:
    """Ex 4: Procreation 1 places 2; empty Gold is not offered; both onto Goat."""
    state = _procreate("(0,0):GOAT[1] (1,0):WHEAT[1] (0,1):GOLD[0]", "P1")
    assert state.players[0].reserve == 13
    assert keys(state) == ["member:0,0", "member:1,0"]
    after = do(state, "member:0,0", "member:0,0")
    assert [t.members for t in after.players[0].tiles] == [3, 1, 0]
    assert after.players[0].reserve == 11
    split = do(state, "member:0,0")
    assert keys(split) == ["member:0,0", "member:1,0"]  # GOAT+1, WHEAT+1 is legal too
    assert "(0,1) is empty" in refused(state, "member:0,1")


def test_ex5_move_three_steps_split() -> None:
    """Ex 5: Movement 2 gives 3 steps; the phase ends at 0 steps left."""
    tiles = "(0,0):GOAT[2] (1,0):WHEAT[0] (0,1):GOLD[0] (1,1):HORSE[0] (2,0):INCENSE[1]"
    state = build(
        sequence=(
            "A_MOVE(0) A_PROCREATE(0) A_EXPLORE(0) A_MOVE_H(0) A_PROCREATE_H(0) A_EXPLORE_H(0)"
        ),
        players={0: {"tiles": tiles, "levels": "M2"}},
    )
    state = do(state, "tile:0:action")
    assert state.phase is Phase.MOVE_STEPS and state.pending is not None
    assert state.pending.left == 3
    assert "not adjacent" in refused(state, "step:0,0:2,0")
    state = do(state, "step:0,0:0,1", "step:0,1:1,1", "step:2,0:1,0")
    members = {(t.hex.q, t.hex.r): t.members for t in state.players[0].tiles}
    assert members == {(0, 0): 1, (1, 0): 1, (0, 1): 0, (1, 1): 1, (2, 0): 0}
    assert GAME.to_act(state) == (1,)


def test_ex6_explore_two_tiles_chaining_allowed() -> None:
    """Ex 6: 2 tiles, placed one by one on the frontier as it stands (INTERPRETATION)."""
    state = build(
        sequence=(
            "A_EXPLORE(0) A_PROCREATE(0) A_MOVE(0) A_MOVE_H(0) A_PROCREATE_H(0) A_EXPLORE_H(0)"
        ),
        players={0: {"tiles": "(0,0):GOAT[1] (1,0):HORSE[0] (0,1):INCENSE[0]", "levels": "E1"}},
        bag={"WHEAT": 1, "GOLD": 1},
    )
    state = do(state, "tile:0:action", invariants=False)
    assert state.pending is not None and state.pending.drawn == (0, 0, 1, 1, 0)
    first = keys(state)
    assert len(first) == 18 and _cells(first) == TRIANGLE_FRONTIER
    state = do(state, "land:wheat:2,0", invariants=False)
    assert {"3,0", "3,-1", "2,1"} <= _cells(keys(state))
    assert "land:gold:3,0" in keys(state)
    state = do(state, "land:gold:-1,0", invariants=False)
    assert len(state.players[0].tiles) == 5 and sum(state.bag) == 0
    assert tile(state, 0, 2, 0).terrain is Terrain.WHEAT
    assert tile(state, 0, -1, 0).terrain is Terrain.GOLD


# -- Ex 7-11: achievements ----------------------------------------------------------------

HAND_FIRST = "A_EXPLORE_H(0) A_MOVE(0) A_PROCREATE(0) A_EXPLORE(0) A_MOVE_H(0) A_PROCREATE_H(0)"


def test_ex7_first_stone_on_hunting() -> None:
    """Ex 7: space 1 gives 2 VP and Exploration; Agriculture turns; Cave bear joins the row."""
    state = build(
        sequence=HAND_FIRST,
        boards={(1, 1): "B_HUNTING", (2, 1): "G_AGRICULTURE"},
        stacks={1: "EV1_BEAR"},
        players={0: {"tiles": "(0,0):GOAT[0] (1,0):WHEAT[0] (0,1):GOLD[0] (2,0):HORSE[1]"}},
    )
    assert not slot_of(state, "G_AGRICULTURE").face_up
    state = do(state, "tile:0:achieve")
    assert "achieve:b_hunting:none" in keys(state)
    state = do(state, "achieve:b_hunting:none")
    assert slot_of(state, "B_HUNTING").stones == (0,)
    assert state.players[0].vp == 2
    assert state.players[0].levels[Track.EXPLORATION] == 1
    assert slot_of(state, "G_AGRICULTURE").face_up
    assert row_text(state) == (
        "A_MOVE(0) A_PROCREATE(0) A_EXPLORE(0) A_MOVE_H(0) A_PROCREATE_H(0) "
        "EV1_BEAR(0) A_EXPLORE_H(0)"
    )


def test_ex8_third_on_cooking_no_event() -> None:
    """Ex 8: third space, 1 VP, Procreation +1, no lightning, no board turned."""
    state = build(
        sequence=HAND_FIRST,
        boards={(1, 2): "B_COOKING"},
        stones={"B_COOKING": (1, 2)},
        players={0: {"tiles": "(0,0):GOAT[0] (1,0):WHEAT[1] (0,1):GOLD[0]"}},
    )
    grid_before = [s.face_up for s in state.grid]
    stacks_before = state.event_stacks
    state = do(state, "tile:0:achieve", "achieve:b_cooking:none")
    assert slot_of(state, "B_COOKING").stones == (1, 2, 0)
    assert state.players[0].vp == 1
    assert state.players[0].levels[Track.PROCREATION] == 1
    assert state.event_stacks == stacks_before
    assert not any(t.event is not None for t in state.sequence)
    assert [s.face_up for s in state.grid] == grid_before


def _cheese(tiles: str, **extra: object) -> State:
    return build(
        sequence=HAND_FIRST,
        boards={(1, 2): "B_COOKING", (2, 2): "G_CHEESE"},
        stones={"B_COOKING": (0,)},
        players={0: {"tiles": tiles, "levels": "P1"}},
        **extra,  # type: ignore[arg-type]
    )


def test_ex9_cheese_making_needs_two_goat_tiles() -> None:
    """Ex 9: two members on one Goat tile count once; a second Goat tile completes it."""
    state = _cheese("(0,0):GOAT[2] (1,0):WHEAT[1] (0,1):GOLD[0] (-1,1):GOAT[1]")
    top = state.event_stacks[1][0]
    state = do(state, "tile:0:achieve")
    assert "achieve:g_cheese:direct" in keys(state)
    state = do(state, "achieve:g_cheese:direct")
    assert slot_of(state, "G_CHEESE").stones == (0,)
    assert state.players[0].vp == 4
    assert state.players[0].levels[Track.PROCREATION] == 2
    assert [t.event for t in state.sequence if t.event is not None] == [top]
    orange_above = state.grid[2 * 4 + 2]
    assert orange_above.face_up


def test_ex9_variant_a_one_wild_for_the_second_goat() -> None:
    """Ex 9 Variant A: G = 1, w = 1: the single legal wild is the occupied Wheat tile."""
    state = _cheese("(0,0):GOAT[2] (1,0):WHEAT[1] (0,1):GOLD[0]")
    state = do(state, "tile:0:achieve", "achieve:g_cheese:direct")
    assert state.phase is Phase.ACHIEVE_WILD
    assert keys(state) == ["wild:1,0"]
    state = do(state, "wild:1,0")
    wheat = tile(state, 0, 1, 0)
    assert wheat.exhausted and wheat.members == 1
    assert slot_of(state, "G_CHEESE").stones == (0,) and state.players[0].vp == 4


def test_ex9_variant_b_no_prerequisite_no_offer() -> None:
    """Ex 9 Variant B: without a stone on Cooking (and no arrow route) Cheese is not offered."""
    state = build(
        sequence=HAND_FIRST,
        boards={(1, 2): "B_COOKING", (2, 2): "G_CHEESE", (1, 1): "B_HUNTING"},
        stones={"B_COOKING": (1,)},
        players={0: {"tiles": "(0,0):GOAT[2] (1,0):WHEAT[1] (0,1):GOLD[0] (-1,1):GOAT[1]"}},
    )
    assert slot_of(state, "G_CHEESE").face_up
    state = do(state, "tile:0:achieve")
    assert not [k for k in keys(state) if "g_cheese" in k]


def test_ex10_brown_wild_tile() -> None:
    """Ex 10: no Incense tile: one occupied tile is exhausted as the wild."""
    state = build(
        sequence=HAND_FIRST,
        boards={(1, 0): "B_SHAMANISM"},
        players={0: {"tiles": "(0,0):GOAT[1] (1,0):WHEAT[1] (0,1):GOLD[0]"}},
    )
    top = state.event_stacks[0][0]
    state = do(state, "tile:0:achieve", "achieve:b_shamanism:none")
    assert keys(state) == ["wild:0,0", "wild:1,0"]
    state = do(state, "wild:1,0")
    assert tile(state, 0, 1, 0).exhausted and tile(state, 0, 1, 0).members == 1
    assert slot_of(state, "B_SHAMANISM").stones == (0,) and state.players[0].vp == 2
    assert [t.event for t in state.sequence if t.event is not None] == [top]
    assert state.players[0].levels[Track.STRENGTH] == 1
    assert state.grid[4 + 0].face_up


GOATS = "(0,0):GOAT[1] (1,0):GOAT[1] (0,1):GOAT[1]"


def _weaving() -> State:
    return build(
        sequence=HAND_FIRST,
        boards={
            (1, 2): "B_COOKING",
            (1, 3): "B_HUNTING",
            (2, 2): "G_CHEESE",
            (2, 3): "G_SMELTING",
            (3, 3): "O_WEAVING",
        },
        stones={"B_COOKING": (0, 1), "B_HUNTING": (2,), "G_CHEESE": (0, 1), "G_SMELTING": (2,)},
        players={0: {"tiles": GOATS}, 1: {"tiles": GOATS}, 2: {"tiles": GOATS}},
    )


def test_ex11_arrow_token_to_weaving() -> None:
    """Ex 11: Black lays the arrow Cheese-making -> Weaving: space 1, 6 VP, Exploration."""
    state = _weaving()
    assert slot_of(state, "O_WEAVING").face_up
    top = state.event_stacks[2][0]
    state = do(state, "tile:0:achieve")
    weaving = [k for k in keys(state) if "o_weaving" in k]
    assert weaving == ["achieve:o_weaving:new-arrow:g_cheese"]
    assert "route to Weaving is your new arrow" in refused(state, "achieve:o_weaving:direct")
    state = do(state, "achieve:o_weaving:new-arrow:g_cheese")
    assert state.arrows == (Arrow(0, BoardCell(2, 2), BoardCell(3, 3)),)
    assert not state.players[0].arrow_available
    assert slot_of(state, "O_WEAVING").stones == (0,) and state.players[0].vp == 6
    assert state.players[0].levels[Track.EXPLORATION] == 1
    assert [t.event for t in state.sequence if t.event is not None] == [top]


def test_ex11_later_brown_uses_the_arrow_gray_goes_direct() -> None:
    """Ex 11: Brown takes existing_arrow without spending its arrow; Gray gets direct."""
    state = do(_weaving(), "tile:0:achieve", "achieve:o_weaving:new-arrow:g_cheese")
    assert GAME.to_act(state) == (1,)
    brown = do(state, "tile:3:achieve")
    assert [k for k in keys(brown) if "o_weaving" in k] == ["achieve:o_weaving:existing-arrow"]
    brown = do(brown, "achieve:o_weaving:existing-arrow")
    assert brown.players[1].arrow_available and len(brown.arrows) == 1
    gray = do(brown, "tile:3:achieve")
    assert [k for k in keys(gray) if "o_weaving" in k] == ["achieve:o_weaving:direct"]


# -- Ex 12-16: events ---------------------------------------------------------------------

EVENT_ROW = (
    "{}(1) A_MOVE(0) A_PROCREATE(0) A_EXPLORE(0) A_MOVE_H(0) A_PROCREATE_H(0) A_EXPLORE_H(0)"
)


def test_ex12_event_with_no_effect() -> None:
    """Ex 12: not the weakest: Cave bear does nothing, goes to the box, shell collected."""
    state = build(
        sequence=EVENT_ROW.format("EV1_BEAR"),
        players={
            0: {"levels": "S2", "shells": 0, "vp": 3},
            1: {"levels": "S0"},
            2: {"levels": "S1"},
        },
    )
    state = do(state, "tile:0:event")
    assert state.players[0].shells == 1 and state.players[0].vp == 3
    assert state.boxed_events == (Event.EV1_BEAR,)
    assert all(t.event is None for t in state.sequence)
    assert GAME.to_act(state) == (1,) and state.phase is Phase.TURN_CHOOSE_TILE


def test_ex13_tied_strongest_activator_gains() -> None:
    """Ex 13: P1 is among the strongest with P2: only P1 gains 2 VP; P1 is not weakest."""
    state = build(
        sequence=EVENT_ROW.format("EV1_RHINO"),
        current=1,
        players={0: {"levels": "S1"}, 1: {"levels": "S3", "vp": 1}, 2: {"levels": "S3", "vp": 1}},
    )
    state = do(state, "tile:0:event")
    assert [p.vp for p in state.players] == [0, 3, 1]
    assert state.players[1].on_board == 1
    assert GAME.to_act(state) == (2,) and state.phase is Phase.TURN_CHOOSE_TILE


def test_ex13_variant_all_level_both_clauses() -> None:
    """Ex 13 variant: all at Strength 0: +2 VP first, then P1 loses a member."""
    state = build(
        sequence=EVENT_ROW.format("EV1_RHINO"),
        current=1,
        players={1: {"tiles": "(0,0):GOAT[1] (1,0):WHEAT[1] (0,1):GOLD[0]"}},
    )
    state = do(state, "tile:0:event")
    assert state.players[1].vp == 2
    assert state.phase is Phase.EVENT_LOSE_MEMBER and GAME.to_act(state) == (1,)
    assert keys(state) == ["lose:0,0", "lose:1,0"]


def test_ex14_cannot_lose_the_last_member() -> None:
    """Ex 14: one member on the board: k = 0, the sub-phase is skipped."""
    state = build(
        sequence=EVENT_ROW.format("EV1_TIGER"),
        current=2,
        players={0: {"levels": "S1"}, 1: {"levels": "S1"}},
    )
    assert state.players[2].on_board == 1
    state = do(state, "tile:0:event")
    assert state.players[2].on_board == 1
    assert GAME.to_act(state) == (0,) and state.phase is Phase.TURN_CHOOSE_TILE


def test_ex14_variant_disease_loses_one_of_two() -> None:
    """Ex 14 variant: lose 2 with 2 on the board: k = 1, back to the reserve."""
    state = build(
        sequence=EVENT_ROW.format("EV2_DISEASE"),
        current=2,
        players={
            0: {"levels": "S1"},
            1: {"levels": "S1"},
            2: {"tiles": "(0,0):GOAT[1] (1,0):WHEAT[1] (0,1):GOLD[0]"},
        },
    )
    state = do(state, "tile:0:event")
    assert state.phase is Phase.EVENT_LOSE_MEMBER and state.pending is not None
    assert state.pending.left == 1
    assert keys(state) == ["lose:0,0", "lose:1,0"]
    state = do(state, "lose:1,0")
    assert state.players[2].on_board == 1 and state.players[2].reserve == 14
    assert GAME.to_act(state) == (0,)


def test_ex15_exhaust_only_unoccupied_tiles() -> None:
    """Ex 15: Flood exhausts 2, but only the empty active Wheat tile is eligible."""
    tiles = "(0,0):GOAT[1] (1,0):WHEAT[0] (0,1):GOLD[2] (2,0):HORSE*[0]"
    state = build(
        sequence=EVENT_ROW.format("EV2_FLOOD"),
        current=1,
        players={0: {"levels": "S1"}, 1: {"tiles": tiles}, 2: {"levels": "S1"}},
    )
    state = do(state, "tile:0:event")
    assert state.phase is Phase.EVENT_EXHAUST and state.pending is not None
    assert state.pending.left == 1 and keys(state) == ["exhaust:1,0"]
    state = do(state, "exhaust:1,0")
    assert tile(state, 1, 1, 0).exhausted and tile(state, 1, 1, 0).members == 0
    assert GAME.to_act(state) == (2,)


def test_ex16_all_tribes_in_order_from_the_activator() -> None:
    """Ex 16: Harsh winter: P2, then P0, then P1 each lose one member."""
    two = "(0,0):GOAT[1] (1,0):WHEAT[1] (0,1):GOLD[0]"
    state = build(
        sequence=EVENT_ROW.format("EV1_WINTER"),
        current=2,
        players={0: {"tiles": two}, 1: {"tiles": two}, 2: {"tiles": two}},
    )
    state = do(state, "tile:0:event")
    deciders = []
    while state.phase is Phase.EVENT_LOSE_MEMBER:
        deciders.append(GAME.to_act(state)[0])
        state = do(state, keys(state)[0])
    assert deciders == [2, 0, 1]
    assert [p.on_board for p in state.players] == [1, 1, 1]


def test_ex16_a_single_member_is_skipped() -> None:
    """Ex 16: a player with a single member on the board is skipped."""
    two = "(0,0):GOAT[1] (1,0):WHEAT[1] (0,1):GOLD[0]"
    state = build(
        sequence=EVENT_ROW.format("EV1_WINTER"),
        current=2,
        players={0: {"tiles": two}, 2: {"tiles": two}},
    )
    state = do(state, "tile:0:event")
    deciders = []
    while state.phase is Phase.EVENT_LOSE_MEMBER:
        deciders.append(GAME.to_act(state)[0])
        state = do(state, keys(state)[0])
    assert deciders == [2, 0]


# -- Ex 17-18: the end --------------------------------------------------------------------

ORANGE_ROW = (
    "EV3_GOLDEN_AGE(0) A_MOVE(0) A_PROCREATE(0) A_EXPLORE(0) A_MOVE_H(0) A_PROCREATE_H(0) "
    "A_EXPLORE_H(0)"
)


def _end_round(trigger: int) -> State:
    return build(
        sequence=ORANGE_ROW,
        current=trigger,
        executed_orange=(Event.EV3_CONQUEST, Event.EV3_WAR),
    )


def _move_turn(state: State) -> State:
    """Play the first legal move until the turn has passed (or the game is over)."""
    (seat,) = GAME.to_act(state)
    state = do(state, "tile:0:action")
    while GAME.to_act(state) == (seat,):
        state = do(state, keys(state)[0])
    return state


def test_ex17_trigger_by_p1_p2_still_plays() -> None:
    """Ex 17: the third orange event ends the game after the round (P2's turn)."""
    state = do(_end_round(1), "tile:0:event")
    assert state.end_triggered and len(state.executed_orange) == 3
    assert GAME.result(state) is None and GAME.to_act(state) == (2,)
    state = _move_turn(state)
    assert GAME.result(state) is not None and GAME.to_act(state) == ()


def test_ex17_trigger_by_the_last_seat_ends_at_once() -> None:
    """Ex 17: if P2 (on the start player's right) triggers, the game ends after P2's turn."""
    state = do(_end_round(2), "tile:0:event")
    assert GAME.result(state) is not None and not state.capped


def test_ex17_trigger_by_the_start_player_two_more_turns() -> None:
    """Ex 17: if P0 triggers, P1 and P2 still play."""
    state = do(_end_round(0), "tile:0:event")
    assert GAME.to_act(state) == (1,)
    state = _move_turn(state)
    assert GAME.to_act(state) == (2,) and GAME.result(state) is None
    state = _move_turn(state)
    assert GAME.result(state) is not None


def test_ex17_revealing_orange_does_not_count() -> None:
    """Ex 17: an orange event revealed onto the row does not count toward the end."""
    state = build(
        sequence=HAND_FIRST,
        boards={(1, 1): "B_HUNTING", (2, 1): "G_TAMING", (3, 1): "O_CART"},
        stones={"B_HUNTING": (0,), "G_TAMING": (0,)},
        players={0: {"tiles": "(0,0):HORSE[1] (1,0):HORSE[1] (0,1):HORSE[1]"}},
        executed_orange=(Event.EV3_CONQUEST, Event.EV3_WAR),
    )
    state = do(state, "tile:0:achieve", "achieve:o_cart:direct")
    assert any(t.event is not None for t in state.sequence)
    assert not state.end_triggered and len(state.executed_orange) == 2


def _chain(count: int, members: int, exhausted: int = 0) -> str:
    """A territory of ``count`` tiles in a row, ``members`` on the first, the last
    ``exhausted`` of them exhausted."""
    cells = [(0, 0), (1, 0), (0, 1)] + [(q, 0) for q in range(2, count)]
    parts = []
    for index, (q, r) in enumerate(cells[:count]):
        star = "*" if index >= count - exhausted else ""
        parts.append(f"({q},{r}):GOAT{star}[{members if index == 0 else 0}]")
    return " ".join(parts)


def _scored(p0: dict[str, object], p1: dict[str, object]) -> State:
    state = build(seats=2, players={0: p0, 1: p1})
    return state


def test_ex18_final_scoring() -> None:
    """Ex 18: 4 + 2 + 2 + 20 = 28 beats 8 + 2 + 0 + 16 = 26."""
    state = _scored(
        {"tiles": _chain(10, 9), "levels": "P2 E1 M0", "vp": 20, "shells": 3},
        {"tiles": _chain(8, 9), "levels": "P1 E1 M3", "vp": 16, "shells": 1},
    )
    sheet = final_scores(state)
    assert [s.track_vp for s in sheet] == [4, 8]
    assert [s.most_members_vp for s in sheet] == [2, 2]
    assert [s.most_land_vp for s in sheet] == [2, 0]
    assert [s.total for s in sheet] == [28, 26]
    assert [s.rank for s in sheet] == [1, 2]


def test_ex18_tie_variants() -> None:
    """Ex 18: 28-28 goes to most shells, then fewest exhausted tiles, else both win."""
    p0 = {"tiles": _chain(10, 9), "levels": "P2 E1 M0", "vp": 20, "shells": 3}
    p1 = {"tiles": _chain(8, 9), "levels": "P1 E1 M3", "vp": 18, "shells": 1}
    assert [s.rank for s in final_scores(_scored(p0, p1))] == [1, 2]
    even = {**p1, "shells": 3}
    tiles0 = _chain(11, 9, exhausted=1)  # 10 active, 1 exhausted
    fewer = final_scores(_scored({**p0, "tiles": tiles0}, even))
    assert [s.total for s in fewer] == [28, 28] and [s.rank for s in fewer] == [2, 1]
    both = final_scores(_scored(p0, even))
    assert [s.rank for s in both] == [1, 1]


# -- Ex 19-23: edge cases -----------------------------------------------------------------


def test_ex19_procreate_with_empty_reserve_relocates() -> None:
    """Ex 19: reserve 0, value 3: 6 ordered pairs + EndRelocate; ends when one tile is left."""
    tiles = "(0,0):GOAT[13] (1,0):WHEAT[1] (0,1):INCENSE[0] (2,0):HORSE[1] (3,0):GOLD[0]"
    state = _procreate(tiles, "P2")
    assert state.players[0].reserve == 0
    assert state.phase is Phase.PROCREATE_RELOCATE and state.pending is not None
    assert state.pending.left == 3
    legal = keys(state)
    assert len(legal) == 7 and "end-relocate" in legal and "relocate:0,0:2,0" in legal
    assert "empty" in refused(state, "relocate:0,0:3,0")
    assert "empty" in refused(state, "relocate:0,0:0,1")
    state = do(state, "relocate:1,0:0,0", "relocate:2,0:0,0")
    assert tile(state, 0, 0, 0).members == 15
    assert GAME.to_act(state) == (1,) and state.phase is Phase.TURN_CHOOSE_TILE


EX20 = "(0,0):WHEAT*[2] (1,0):HORSE[1] (0,1):INCENSE[0] (2,-1):GOLD*[0] (-1,2):GOAT*[0]"


def _ex20() -> State:
    state = build(
        sequence=(
            "A_EXPLORE(0) A_PROCREATE(0) A_MOVE(0) A_MOVE_H(0) A_PROCREATE_H(0) A_EXPLORE_H(0)"
        ),
        players={0: {"tiles": EX20, "levels": "E3"}},
        bag={"HORSE": 1},
    )
    state = do(state, "tile:0:action", invariants=False)
    assert state.pending is not None and state.pending.drawn == (0, 1, 0, 0, 0)
    assert state.pending.shortfall == 3
    return do(state, "land:horse:2,0", invariants=False)


def test_ex20_restores_in_place_of_missing_draws() -> None:
    """Ex 20: 1 tile drawn, 3 missing: the two exhausted empty tiles may be restored."""
    state = _ex20()
    assert state.phase is Phase.EXPLORE_RESTORE and state.pending is not None
    assert state.pending.left == 3
    assert keys(state) == ["end-explore", "restore:-1,2", "restore:2,-1"]
    assert "without tribe members" in refused(state, "restore:0,0")
    assert "not exhausted" in refused(state, "restore:0,1")
    state = do(state, "restore:2,-1", "restore:-1,2", invariants=False)
    assert not tile(state, 0, 2, -1).exhausted and not tile(state, 0, -1, 2).exhausted
    assert sum(state.bag) == 0
    assert GAME.to_act(state) == (1,) and state.phase is Phase.TURN_CHOOSE_TILE


def test_ex20_end_explore_keeps_the_other_exhausted() -> None:
    """Ex 20: EndExplore after one restore leaves the other tile exhausted."""
    state = do(_ex20(), "restore:2,-1", "end-explore", invariants=False)
    assert not tile(state, 0, 2, -1).exhausted and tile(state, 0, -1, 2).exhausted
    assert GAME.to_act(state) == (1,)


def test_ex20_later_turns_restore_only_for_a_missing_draw() -> None:
    """Ex 20: no restore on a turn without a draw; an Explore on an empty bag restores only."""
    state = build(
        sequence=(
            "A_MOVE(0) A_EXPLORE(0) A_PROCREATE(0) A_MOVE_H(0) A_PROCREATE_H(0) A_EXPLORE_H(0)"
        ),
        players={0: {"tiles": EX20, "levels": "E3"}},
        bag={},
    )
    moved = do(state, "tile:0:action", "end-move", invariants=False)
    assert moved.phase is Phase.TURN_CHOOSE_TILE and GAME.to_act(moved) == (1,)
    explored = do(state, "tile:1:action", invariants=False)
    assert explored.phase is Phase.EXPLORE_RESTORE and explored.pending is not None
    assert explored.pending.left == 4
    assert keys(explored) == ["end-explore", "restore:-1,2", "restore:2,-1"]


class _Scripted(Rng):
    """An Rng whose ``below`` answers from a script (to replay the seed's draws)."""

    def __init__(self, picks: list[int]) -> None:
        super().__init__(0)
        self.picks = picks

    def below(self, n: int) -> int:
        return self.picks.pop(0)


def test_ex21_setup_duplicates_go_back_to_the_bag() -> None:
    """Ex 21: GOAT, GOAT, HORSE, GOAT, WHEAT keeps GOAT, HORSE, WHEAT; the bag drops to 47."""
    # pick indices into the bag as it stands: Goat first, then Horse after 8 Goats, ...
    rng = _Scripted([0, 0, 8, 0, 16])
    bag, kept, drawn = _starting_territory(rng, (10, 10, 10, 10, 10))
    G, H, W = Terrain.GOAT, Terrain.HORSE, Terrain.WHEAT
    assert drawn == [G, G, H, G, W]
    assert kept == [G, H, W]
    assert bag == (9, 9, 9, 10, 10) and sum(bag) == 47


def test_ex22_green_needs_one_genuine_tile() -> None:
    """Ex 22: no occupied active Gold tile: Smelting is not offered although wilds exist."""
    state = build(
        sequence=HAND_FIRST,
        boards={(1, 0): "B_JEWELLERY", (2, 0): "G_SMELTING"},
        stones={"B_JEWELLERY": (0,)},
        players={0: {"tiles": "(0,0):GOAT[1] (1,0):WHEAT[1] (0,1):HORSE[1] (2,0):GOLD[0]"}},
    )
    assert slot_of(state, "G_SMELTING").face_up
    state = do(state, "tile:0:achieve")
    assert not [k for k in keys(state) if "g_smelting" in k]
    assert "one genuine tile" in refused(state, "achieve:g_smelting:direct")


def test_ex23_orange_with_two_wilds() -> None:
    """Ex 23: G = 1, w = 2, O = 2: both other occupied tiles are exhausted, in any order."""
    state = build(
        sequence=HAND_FIRST,
        boards={(1, 1): "B_COOKING", (2, 1): "G_AGRICULTURE", (3, 1): "O_FERMENTING"},
        stones={"B_COOKING": (0,), "G_AGRICULTURE": (0,)},
        players={0: {"tiles": "(0,0):WHEAT[1] (1,0):GOAT[1] (0,1):HORSE[1]"}},
    )
    state = do(state, "tile:0:achieve", "achieve:o_fermenting:direct")
    assert state.phase is Phase.ACHIEVE_WILD and keys(state) == ["wild:0,1", "wild:1,0"]
    one = do(state, "wild:0,1")
    assert keys(one) == ["wild:1,0"]
    other = do(state, "wild:1,0", "wild:0,1")
    for done in (do(one, "wild:1,0"), other):
        assert slot_of(done, "O_FERMENTING").stones == (0,) and done.players[0].vp == 6
        assert tile(done, 0, 1, 0).exhausted and tile(done, 0, 0, 1).exhausted

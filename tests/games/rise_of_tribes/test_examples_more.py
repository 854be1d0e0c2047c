"""The worked examples of spec §9, Ex 14-25, each with its exact result."""

from __future__ import annotations

import copy
from dataclasses import replace

import pytest

from tests.games.rise_of_tribes.fixtures import (
    B,
    G,
    R,
    build,
    do,
    faces,
    goals,
    hx,
    key,
    keys,
    roll_for_r,
    slot,
    to_conflict,
    top,
)
from tribes.engine import IllegalMoveError
from tribes.engine.driver import new_game, play
from tribes.games.rise_of_tribes import GAME
from tribes.games.rise_of_tribes.cards import GOAL_CARD, Event, Goal
from tribes.games.rise_of_tribes.data import (
    ACTION_POWER,
    BOARD_OF,
    INVADERS_VP,
    MAMMOTH_HUNT_FOOD,
    MAMMOTH_HUNT_VP,
    START_MEMBERS,
    Action,
    Face,
    Resource,
    Terrain,
    Tier,
    Tribe,
)
from tribes.games.rise_of_tribes.keys import parse_move
from tribes.games.rise_of_tribes.maps import Hex
from tribes.games.rise_of_tribes.rules.query import gather_types, volcano_neighbours
from tribes.games.rise_of_tribes.state import NOBODY, State, Step

BLANK, MOON = faces("- M")


def test_ex14_three_sides() -> None:
    """Ex 14: H5 R3 B2 G2: (2,1,1) then (1,0,0): R1."""
    s = to_conflict(build(members={5: {R: 3, B: 2, G: 2}}, dice="-", pool="S"))
    assert s.members[5] == (1, 0, 0, 0)


def test_ex15_invaders_fight_as_a_side() -> None:
    """Ex 15 (G10): R moves 3 into invaded H2 (B3): sides R, B, INVADERS to (0,0,0); R +2 VP."""
    s = build(
        members={2: {B: 3}, 3: {R: 3}},
        slots=(slot(Event.INVADERS), None),
        invaders=(2, 3),
        dice="-",
        pool="S",
    )
    s = do(s, "assign:blank:move", f"move:{key(s, 3)}:{key(s, 2)}", "move-count:3")
    assert s.step is Step.GOALS
    assert s.members[2] == (0, 0, 0, 0)
    assert s.invader_hex == NOBODY and s.invaders == 0
    assert s.slots == (None, None) and s.event_discard == (Event.INVADERS,)
    assert s.players[R].vp == INVADERS_VP
    assert s.players[R].supply == 20 and s.players[B].supply == 20


def test_ex15_tokens_alone_cause_no_conflict() -> None:
    """Ex 15: with only the tokens there, R's 3 cause no conflict; no GATHER or village there."""
    s = build(
        members={3: {R: 3}},
        slots=(slot(Event.INVADERS), None),
        invaders=(2, 3),
        resources={R: (5, 5, 5)},
        dice="- -",
    )
    s = do(s, "assign:blank:move", f"move:{key(s, 3)}:{key(s, 2)}", "move-count:3")
    assert s.invaders == 3 and s.invader_hex == 2
    assert not [k for k in keys(s) if k.startswith(f"gather:{key(s, 2)}")]
    s = do(s, "assign:blank:gather")  # nothing may be gathered: the GATHER ends at once
    assert s.step is Step.GOALS and s.players[R].resources == (5, 5, 5)
    assert s.invaders == 3, "tokens within the limit stay"
    assert f"village:{key(s, 2)}" not in keys(s)


def test_ex16_drought_timing() -> None:
    """Ex 16: Drought drawn by [-,-] sets the limit to 4 in this Step 4: H6 R3 B2 -> R1."""
    s0 = build(members={6: {R: 3, B: 2}})
    s0 = replace(s0, event_deck=top(s0.event_deck, Event.DROUGHT))
    s = roll_for_r(s0, BLANK, BLANK)
    assert s.slots[0] is not None and s.slots[0].event is Event.DROUGHT
    s = do(s, "assign:blank:lead", "lead-draw", "assign:blank:gather", "gather-done")
    assert s.step is Step.GOALS and s.members[6][R] == 1 and s.members[6][B] == 0
    before = to_conflict(build(members={6: {R: 3, B: 2}}, dice="-", pool="S"))
    assert before.members[6][R] == 3 and before.members[6][B] == 2, "limit 5: no conflict"


def test_ex17_lead_with_recycling() -> None:
    """Ex 17: 2 villages: recycle A3, A7 (not a third), draw 2 + 2 from the top."""
    deck = goals("A1", "D2", "D6", "A8", "D1", "D3", "D4", "D7", "A2", "A5", "A6", "A4")
    s = build(
        seats=3,
        members={0: {R: 1}, 1: {R: 1}},
        villages={0: R, 1: R},
        in_progress={R: goals("D5", "A3", "A7")},
        decks={R: deck},
        dice="-",
        pool="S",
    )
    s = do(s, "assign:blank:lead")
    assert s.action is not None and s.action.tier is Tier.DEFAULT
    s = do(s, "recycle:wanderers", "recycle:raiders")
    assert keys(s) == ["lead-draw"], "a third RecycleGoal is illegal with 2 villages"
    s = do(s, "lead-draw")
    player = s.players[R]
    assert ACTION_POWER[Action.LEAD][Tier.DEFAULT] == 2
    assert player.in_progress == goals("D5", "A1", "D2", "D6", "A8")
    assert player.goal_deck == goals("D1", "D3", "D4", "D7", "A2", "A5", "A6", "A4", "A3", "A7")


def test_ex18_village_lost_by_moving() -> None:
    """Ex 18: moving both R members out of H3 destroys R's village there at once."""
    s = build(members={3: {R: 2}}, villages={3: R}, dice="- S")
    s = do(s, "assign:blank:move", f"move:{key(s, 3)}:{key(s, 4)}", "move-count:2")
    assert s.villages[3] == NOBODY and s.members[4][R] == 2


def test_ex19_win_at_step_one() -> None:
    """Ex 19: 13 VP and 2 villages: Step 1 makes 15, R wins, no dice are rolled."""
    s0 = build(members={0: {R: 1}, 1: {R: 1}}, villages={0: R, 1: R}, vp={R: 13})
    s = roll_for_r(s0, BLANK, MOON)
    result = GAME.result(s)
    assert result is not None and result.winners == (R,)
    assert s.players[R].vp == 15 and s.step is Step.GAME_OVER
    assert s.turn is not None and s.turn.rolled == ()


def test_ex20_development_then_village() -> None:
    """Ex 20: Kaha R with 4F 3W 3S: Basketry first blocks the village; the other order too."""
    cost = BOARD_OF[Tribe.KAHA].village_cost
    assert cost == (3, 2, 1)
    s0 = build(
        members={4: {R: 1}},
        tribes={R: Tribe.KAHA, 3: Tribe.DABA},
        resources={R: (4, 3, 3)},
        in_progress={R: goals("D1")},
        step=Step.GOALS,
    )
    s = do(s0, "complete:basketry")
    assert s.players[R].resources == (3, 1, 3) and s.players[R].vp == 1
    assert f"village:{key(s, 4)}" not in keys(s)
    s = do(s0, f"village:{key(s0, 4)}")
    assert s.players[R].resources == (1, 1, 2) and s.villages[4] == R
    assert "complete:basketry" not in keys(s)


def test_ex21_four_player_setup() -> None:
    """Ex 21: seats in order place 2, 3, 3 + 2 resources, 2 + 1 split + 2 resources."""
    s = new_game(GAME, 4, {}, 21)
    first = s.start_player
    order = [(first + i) % 4 for i in range(4)]
    s = do(s, f"start:{key(4, 3)}")
    assert s.members[3][order[0]] == START_MEMBERS[0]
    assert f"start:{key(4, 3)}" not in keys(s), "seat 2 may not join seat 1's hex"
    s = do(s, f"start:{key(4, 10)}")
    s = do(s, f"start:{key(4, 0)}", "start-resources:0,1,1")
    assert s.players[order[2]].resources == (0, 1, 1)
    assert s.step is Step.PLACE_START_SPLIT
    s = do(s, f"start-split:{key(4, 8)}:{key(4, 12)}", "start-resources:2,0,0")
    fourth = order[3]
    assert s.members[8][fourth] == 2 and s.members[12][fourth] == 1
    assert s.players[fourth].resources == (2, 0, 0)
    assert s.active == first and s.turn is not None and len(s.turn.rolled) == 2


def test_ex22_elimination_and_reentry() -> None:
    """Ex 22: B's last members fall in R's conflict; B's next turn starts with ReEnter."""
    s = build(members={7: {R: 5, B: 2}}, villages={7: B}, dice="-", pool="S")
    s = to_conflict(s)
    assert sum(row[B] for row in s.members) == 0 and s.villages[7] == NOBODY
    s = do(s, "end-turn")
    assert s.step is Step.RE_ENTER and s.actor == B
    empty = [h for h, row in enumerate(s.members) if not any(row)]
    assert keys(s) == sorted(f"re-enter:{key(s, h)}" for h in empty)
    s = do(s, f"re-enter:{key(s, 0)}")
    assert s.members[0][B] == 2 and s.players[B].vp == 0
    assert s.step is not Step.RE_ENTER


def _volcano_game(*roll: Face) -> State:
    s0 = build(seats=2, members={5: {R: 2}, 8: {R: 1}, 2: {B: 3}})
    s0 = replace(s0, event_deck=top(s0.event_deck, Event.VOLCANO))
    return roll_for_r(s0, *roll)


def test_ex23_volcano_blank_doubles() -> None:
    """Ex 23 (G12): sites next to R's hexes; R loses 1 (chooses H8), gains 1 stone; B nothing."""
    s = _volcano_game(BLANK, BLANK)
    assert s.step is Step.PLACE_VOLCANO
    assert keys(s) == sorted(["volcano:3,0", "volcano:3,1", "volcano:1,3"])
    s = do(s, "volcano:3,1")
    assert s.step is Step.VOLCANO_LOSS and keys(s) == [
        f"volcano-loss:{key(2, 5)}",
        f"volcano-loss:{key(2, 8)}",
    ]
    s = do(s, f"volcano-loss:{key(2, 8)}")
    assert s.members[5][R] == 2 and s.members[8][R] == 0 and s.members[2][B] == 3
    assert s.players[R].resources == (0, 0, 1) and s.players[B].resources == (0, 0, 0)
    assert Event.VOLCANO in s.event_deck and s.resolving is None
    near = volcano_neighbours(2, s.volcano)
    assert near == {5, 8}
    assert Resource.STONE in gather_types(s.terrain[5], True)


def test_ex23_volcano_moon_doubles() -> None:
    """Ex 23 variant: MOON doubles, R loses 2: after H8 the second loss is auto from H5."""
    s = _volcano_game(MOON, MOON)
    s = do(s, "volcano:3,1", f"volcano-loss:{key(2, 8)}")
    assert s.members[5][R] == 1 and s.members[8][R] == 0
    assert s.players[R].resources == (0, 0, 1)
    assert s.step is Step.ACTION


def test_ex24_mammoth_hunt() -> None:
    """Ex 24: GROW with SUN then SpendDie(M, hunt): +3 food +1 VP; pool [-, M]; rows kept."""
    s = build(
        members={6: {R: 4}},
        slots=(slot(Event.MAMMOTH), None),
        mammoth=6,
        rows={Action.GROW: "S M -"},
        dice="S M",
    )
    assert "spend:moon:mammoth-tame" not in keys(s), "taming needs 3 food"
    s = do(s, "assign:sun:grow")
    assert s.rows[0] == faces("S S M") and s.pool == faces("-")
    assert s.action is not None and s.action.tier is Tier.SUN
    s = do(s, "grow-done")
    rows = s.rows
    assert "spend:moon:mammoth-hunt" in keys(s)
    s = do(s, "spend:moon:mammoth-hunt")
    assert s.players[R].resources == (MAMMOTH_HUNT_FOOD, 0, 0)
    assert s.players[R].vp == MAMMOTH_HUNT_VP
    assert s.mammoth_hex == NOBODY and s.slots == (None, None)
    assert s.event_discard == (Event.MAMMOTH,)
    assert s.pool == faces("- M") and s.rows == rows
    fed = build(
        members={6: {R: 4}},
        slots=(slot(Event.MAMMOTH), None),
        mammoth=6,
        resources={R: (3, 0, 0)},
        dice="S M",
    )
    assert "spend:moon:mammoth-tame" in keys(fed)


def _destinations(completed: tuple[Goal, ...], owned: tuple[Event, ...]) -> set[int]:
    s = build(
        members={0: {R: 1}},
        completed={R: completed},
        owned={R: owned},
        dice="- S",
    )
    s = do(s, "assign:blank:move")
    prefix = f"move:{key(s, 0)}:"
    coords = {hx(s, h).text: h for h in range(15)}
    return {coords[k[len(prefix) :]] for k in keys(s) if k.startswith(prefix)}


def test_ex25_move_reach() -> None:
    """Ex 25 (G26): from H0: basic {1,2,3}; Oxen distance <= 2; Canoe across lakes; both: all."""
    assert _destinations((), ()) == {1, 2, 3}
    assert _destinations(goals("D2"), ()) == set(range(1, 8))
    assert _destinations((), (Event.DUGOUT_CANOE,)) == {1, 2, 3, 4, 5, 6, 7, 10, 11}
    assert _destinations(goals("D2"), (Event.DUGOUT_CANOE,)) == set(range(1, 15))


def test_ex25_lakes_are_those_of_the_example() -> None:
    """The fixture's 4p terrain puts the lakes where Ex 25 says (H3 H6 H9 H13 H14)."""
    s = build()
    assert [h for h, t in enumerate(s.terrain) if t is Terrain.LAKE] == [3, 6, 9, 13, 14]
    assert hx(s, 0) == Hex(2, 0)
    assert GOAL_CARD[Goal.OXEN].id == "D2"


def test_example_rejections_leave_the_state_unchanged() -> None:
    """Ex 17, 20, 21: the moves the examples call illegal are refused, the state untouched."""
    deck = goals("A1", "D2", "D6", "A8", "D1", "D3", "D4", "D7", "A2", "A5", "A6", "A4")
    lead = build(
        seats=3,
        members={0: {R: 1}, 1: {R: 1}},
        villages={0: R, 1: R},
        in_progress={R: goals("D5", "A3", "A7")},
        decks={R: deck},
        dice="-",
        pool="S",
    )
    lead = do(lead, "assign:blank:lead", "recycle:wanderers", "recycle:raiders")
    village = build(
        members={4: {R: 1}},
        tribes={R: Tribe.KAHA, 3: Tribe.DABA},
        resources={R: (4, 3, 3)},
        in_progress={R: goals("D1")},
        step=Step.GOALS,
    )
    village = do(village, "complete:basketry")
    setup = do(new_game(GAME, 4, {}, 21), f"start:{key(4, 3)}")
    for state, refused, reason in (
        (lead, "recycle:fire", "only 2 card"),
        (village, f"village:{key(village, 4)}", "cannot pay"),
        (setup, f"start:{key(4, 3)}", "already there"),
    ):
        before = copy.deepcopy(state)
        seat = GAME.to_act(state)[0]
        with pytest.raises(IllegalMoveError, match=reason):
            play(GAME, state, seat, parse_move(refused))
        assert state == before

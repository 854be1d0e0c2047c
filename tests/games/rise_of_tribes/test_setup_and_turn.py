"""Setup (§4), options, Steps 0-2 (§5.1-§5.3), the end of a turn and the cap (§5.8)."""

from __future__ import annotations

from dataclasses import replace

import pytest

from tests.games.rise_of_tribes.fixtures import (
    B,
    R,
    build,
    do,
    faces,
    key,
    keys,
    roll_for_r,
    slot,
    to_conflict,
    top,
)
from tribes.engine import BadOptionsError
from tribes.engine.driver import new_game
from tribes.games.rise_of_tribes import GAME
from tribes.games.rise_of_tribes.cards import Event, deck_for, event_deck_for
from tribes.games.rise_of_tribes.data import INITIAL_ROW, EventSet, Face, Leaders, Terrain
from tribes.games.rise_of_tribes.state import NOBODY, Step

SUN, MOON, BLANK = Face.SUN, Face.MOON, Face.BLANK


@pytest.mark.parametrize("seats", [2, 3, 4])
def test_new_game_components(seats: int) -> None:
    """§4: (players+1) tiles of each terrain, 20 members each, shuffled decks, S/M/B rows."""
    s = new_game(GAME, seats, {}, 99)
    assert all(s.terrain.count(t) == seats + 1 for t in Terrain)
    assert all(p.supply == 20 and p.resources == (0, 0, 0) for p in s.players)
    assert all(sorted(p.goal_deck, key=str) == sorted(deck_for(seats), key=str) for p in s.players)
    assert len({p.tribe for p in s.players}) == seats, "distinct tribe boards"
    assert all(p.in_progress == () for p in s.players), "no starting goal hand (G18)"
    assert s.rows == (INITIAL_ROW,) * 4 and len(s.pool) == 2
    assert s.slots == (None, None) and sorted(s.event_deck, key=str) == sorted(
        event_deck_for(EventSet.ALL16), key=str
    )
    assert s.step is Step.PLACE_START and s.actor == s.start_player == s.active


def test_options_choose_house_rules_base12_and_cap() -> None:
    """Options: house asks ChoosePower first; base12 has 12 events; turn_cap is stored."""
    s = new_game(GAME, 3, {"leaders": "house", "event_set": "base12", "turn_cap": "40"}, 5)
    assert s.leaders is Leaders.HOUSE and s.step is Step.CHOOSE_POWER
    assert len(s.event_deck) == 12 and s.turn_cap == 40


@pytest.mark.parametrize(
    "options",
    [
        {"leaders": "on"},
        {"event_set": "all"},
        {"turn_cap": "0"},
        {"turn_cap": "-3"},
        {"turn_cap": "ten"},
        {"turn_cap": "007"},
        {"turn_cap": "100001"},
        {"colour": "red"},
    ],
)
def test_bad_options_are_refused(options: dict[str, str]) -> None:
    """Bad values raise BadOptionsError, both through the driver and the game itself."""
    with pytest.raises(BadOptionsError):
        new_game(GAME, 3, options, 1)
    with pytest.raises(BadOptionsError):
        GAME.new_game(3, options, 1)


def test_seat_counts() -> None:
    """2-4 players only."""
    with pytest.raises(BadOptionsError):
        GAME.new_game(5, {}, 1)


def test_setup_perft_counts() -> None:
    """Legal moves of the setup decisions on the 4p map (a perft-like count from §3.4/§4)."""
    s = new_game(GAME, 4, {}, 3)
    assert len(keys(s)) == 15
    s = do(s, f"start:{key(4, 3)}")
    assert len(keys(s)) == 14
    s = do(s, f"start:{key(4, 10)}")
    assert len(keys(s)) == 13
    s = do(s, f"start:{key(4, 0)}")
    assert len(keys(s)) == 6, "six ways to take 2 resources"
    s = do(s, "start-resources:1,1,0")
    # the 4p map of §3.4 has 31 edges; 14 touch H0, H3 or H10 (H0-H3 once), so 17 edges
    # join two free hexes, each usable both ways (2 members on either end): 34 moves
    assert len(keys(s)) == 34


def test_setup_perft_first_placement_counts() -> None:
    """The first placement may go on any of the 9 / 12 / 15 hexes; 2p has no resources."""
    for seats, size in ((2, 9), (3, 12), (4, 15)):
        assert len(keys(new_game(GAME, seats, {}, 8))) == size
    s = new_game(GAME, 2, {}, 8)
    s = do(s, f"start:{key(2, 0)}", f"start:{key(2, 8)}")
    assert s.step is Step.ACTION and all(p.resources == (0, 0, 0) for p in s.players)
    assert s.members[0][s.start_player] == 2 and s.members[8][1 - s.start_player] == 3


def test_start_resources_only_for_third_and_fourth() -> None:
    """§4 step 9: the third player takes 2 resources of choice after placing 3 members."""
    s = new_game(GAME, 3, {}, 4)
    s = do(s, f"start:{key(3, 0)}", f"start:{key(3, 5)}", f"start:{key(3, 11)}")
    assert s.step is Step.START_RESOURCES
    assert keys(s) == sorted(
        f"start-resources:{f},{w},{2 - f - w}" for f in range(3) for w in range(3 - f)
    )


def test_step1_scores_villages_before_the_roll() -> None:
    """§5.2: 1 VP per own village at the start of the turn; then the dice are rolled."""
    s = build(members={0: {R: 1}, 1: {R: 1}}, villages={0: R, 1: R}, vp={R: 3})
    s = roll_for_r(s, SUN, MOON)
    assert s.players[R].vp == 5 and s.players[R].vp_villages == 5
    assert s.turn is not None and s.turn.dice_left == (SUN, MOON) and s.pool == ()


def test_reentry_on_full_map_allows_any_hex() -> None:
    """§5.1: with no hex free of members and invaders, ReEnter may use any map hex."""
    every = {h: {R: 1} for h in range(15)}
    s = build(members=every, active=B)
    s = replace(s, step=Step.GOALS, actor=B)
    s = do(s, "end-turn")  # seat 2 (G) is next: it has no members
    assert s.step is Step.RE_ENTER
    assert len(keys(s)) == 15


def test_reentry_avoids_invaders() -> None:
    """§5.1: a hex holding only invaders is not free for re-entry."""
    s = build(
        members={0: {R: 1}},
        slots=(slot(Event.INVADERS), None),
        invaders=(5, 3),
        step=Step.GOALS,
        active=R,
    )
    s = do(s, "end-turn")
    assert s.step is Step.RE_ENTER and s.actor == B
    assert f"re-enter:{key(s, 5)}" not in keys(s) and f"re-enter:{key(s, 0)}" not in keys(s)
    assert len(keys(s)) == 13


def test_lasting_event_takes_the_lowest_empty_slot() -> None:
    """§5.4.2 / §8.30 (G28): with slot 1 full, the drawn lasting card goes into slot 2."""
    s0 = build(members={0: {R: 1}}, slots=(slot(Event.PLENTIFUL_FOOD, food=6), None))
    s0 = replace(s0, event_deck=top(s0.event_deck, Event.DROUGHT))
    s = roll_for_r(s0, BLANK, BLANK)
    assert s.slots[1] == slot(Event.DROUGHT)


def test_redrawn_invaders_resolve_afresh_in_the_lowest_slot() -> None:
    """§5.4.2 / §8.29 / G28: beaten invaders leave with their card; drawn again, the card
    takes the empty slot 1 (below the full slot 2) and places 3 new tokens."""
    s0 = build(
        members={2: {R: 6}},
        slots=(slot(Event.INVADERS), slot(Event.PLENTIFUL_FOOD, food=6)),
        invaders=(2, 1),
        dice="-",
        pool="S",
    )
    s = to_conflict(s0)
    assert s.invader_hex == NOBODY and s.invaders == 0 and s.slots[0] is None
    assert s.event_discard == (Event.INVADERS,)
    s = replace(s, event_deck=(Event.INVADERS, *s.event_deck), event_discard=())
    s = roll_for_r(s, SUN, SUN)
    assert s.step is Step.PLACE_INVADERS and s.slots[0] == slot(Event.INVADERS)
    assert s.slots[1] == slot(Event.PLENTIFUL_FOOD, food=6)
    s = do(s, f"invaders:{key(s, 7)}")
    assert s.invader_hex == 7 and s.invaders == 3


def test_clauses_fire_slot_one_first_and_tiger_moves() -> None:
    """§5.3 G9: Tiger in slot 1 asks PlaceTiger first; then slot 2's Drought leaves."""
    s0 = build(
        members={2: {R: 2}, 5: {B: 1}},
        slots=(slot(Event.SABERTOOTH_TIGER), slot(Event.DROUGHT)),
        tiger=2,
    )
    s = roll_for_r(s0, SUN, SUN)
    assert s.step is Step.PLACE_TIGER and s.slots[1] is not None
    mountains = [h for h, t in enumerate(s.terrain) if t is Terrain.MOUNTAIN]
    assert keys(s) == sorted(f"tiger:{key(s, h)}" for h in mountains if h != 2)
    s = do(s, f"tiger:{key(s, 5)}")
    assert s.tiger_hex == 5 and s.members[5][B] == 0, "the loss applies again there"
    assert s.slots[1] is None and s.event_discard == (Event.DROUGHT,)
    assert s.event_deck == s0.event_deck, "both slots were full at the roll: no draw"


def test_drawn_card_ignores_the_roll_that_drew_it() -> None:
    """§5.3 2c: Invaders drawn by doubles start with 3 tokens (no +1 from that roll)."""
    s0 = build(members={0: {R: 1}, 1: {B: 1}})
    s0 = replace(s0, event_deck=top(s0.event_deck, Event.INVADERS))
    s = roll_for_r(s0, MOON, MOON)
    assert s.step is Step.PLACE_INVADERS, "13 empty hexes tie"
    s = do(s, f"invaders:{key(s, 7)}")
    assert s.invaders == 3 and s.invader_hex == 7


def test_any_doubles_clauses_of_tokens() -> None:
    """§3.7: Invaders +1 (max 5); Altar/Canoe/Walls +1 token, discarded at 3."""
    s0 = build(
        members={0: {R: 1}},
        slots=(slot(Event.INVADERS), slot(Event.WALLS, tokens=2)),
        invaders=(7, 5),
    )
    s = roll_for_r(s0, BLANK, BLANK)
    assert s.invaders == 5, "at most 5 invaders"
    assert s.slots[1] is None and s.event_discard == (Event.WALLS,)
    s1 = build(
        members={0: {R: 1}},
        slots=(slot(Event.INVADERS), slot(Event.ALTAR, tokens=0)),
        invaders=(7, 3),
    )
    s = roll_for_r(s1, BLANK, BLANK)
    assert s.invaders == 4 and s.slots[1] == slot(Event.ALTAR, tokens=1)


def test_empty_deck_reshuffles_the_discard_pile() -> None:
    """G21: an empty event deck is rebuilt from the discard pile before the draw."""
    rest = [e for e in event_deck_for(EventSet.ALL16) if e is not Event.PLENTIFUL_FOOD]
    s0 = build(
        members={0: {R: 1}},
        slots=(slot(Event.PLENTIFUL_FOOD, food=6), None),
        event_deck=(),
        event_discard=rest,
    )
    s = roll_for_r(s0, SUN, SUN)
    assert len(s.event_deck) == len(rest) - 1 and s.event_discard == ()
    assert "the event discard pile is shuffled into a new deck" in s.log


def test_end_turn_passes_clockwise_and_counts_turns() -> None:
    """§5.8: flags clear, the next seat starts, turn_count grows; the pool holds 2 dice."""
    s = build(members={0: {R: 1}, 1: {B: 1}}, step=Step.GOALS, pool="S M")
    s = do(s, "end-turn")
    assert s.active == B and s.turn_count == 1 and s.turn is not None
    assert len(s.turn.dice_left) == 2 and s.pool == ()


def test_turn_cap_ends_the_game_as_capped() -> None:
    """§5.8 ENGINE SAFEGUARD (G25): at the cap the game stops; most VP share rank 1."""
    s = build(members={0: {R: 1}, 1: {B: 1}}, step=Step.GOALS, vp={R: 4, B: 4}, turn_cap=1)
    s = do(s, "end-turn")
    result = GAME.result(s)
    assert s.capped and s.step is Step.GAME_OVER and s.winner == NOBODY
    assert result is not None and result.ranks == (1, 1, 3, 3)
    assert "capped" in result.summary and "not a rules win" in result.summary


def test_faces_helper_reads_the_spec_notation() -> None:
    """The fixtures read rows as the spec writes them (S, M, -)."""
    assert faces("S M -") == (SUN, MOON, BLANK)

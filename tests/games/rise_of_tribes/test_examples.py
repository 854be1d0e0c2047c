"""The worked examples of spec §9 (Ex 1-13), each with its exact result.

Tiers are asserted and powers read from ``ACTION_POWER`` (§9: so the tests survive a
corrected table). Ex 14-25 are in ``test_examples_more.py``.
"""

from __future__ import annotations

from dataclasses import replace

from tests.games.rise_of_tribes.fixtures import (
    B,
    R,
    build,
    do,
    faces,
    goals,
    key,
    keys,
    roll_for_r,
    slot,
    to_conflict,
    top,
)
from tribes.games.rise_of_tribes.cards import GOAL_CARD, Event, Goal
from tribes.games.rise_of_tribes.data import ACTION_POWER, GATHER_YIELD, Action, Tier
from tribes.games.rise_of_tribes.state import NOBODY, Step

GROW, MOVE, GATHER, LEAD = Action.GROW, Action.MOVE, Action.GATHER, Action.LEAD


def test_ex01_moon_tier_grow() -> None:
    """Ex 1: [S,M,-] + MOON -> [M,S,M], pool gets BLANK, MOON tier, GROW ends after N."""
    s = build(members={4: {R: 2}}, rows={GROW: "S M -"}, dice="M -")
    s = do(s, "assign:moon:grow")
    assert s.rows[0] == faces("M S M")
    assert s.pool == faces("-")
    assert s.action is not None and s.action.tier is Tier.MOON
    power = ACTION_POWER[GROW][Tier.MOON]
    for _ in range(power):
        assert s.step is Step.GROW
        s = do(s, f"grow:{key(s, 4)}")
    assert s.step is Step.ACTION, "GROW auto-ends once N members are placed"
    assert s.members[4][R] == 2 + power


def test_ex02_sun_tier_move() -> None:
    """Ex 2: [S,M,-] + SUN -> [S,S,M], SUN tier; counts 1..M; moving 4 leaves R1 in H4."""
    s = build(members={4: {R: 5}}, rows={MOVE: "S M -"}, dice="S -")
    s = do(s, "assign:sun:move")
    assert s.rows[1] == faces("S S M") and s.pool == faces("-")
    assert s.action is not None and s.action.tier is Tier.SUN
    s = do(s, f"move:{key(s, 4)}:{key(s, 7)}")
    power = ACTION_POWER[MOVE][Tier.SUN]
    assert keys(s) == sorted(f"move-count:{n}" for n in range(1, min(power, 5) + 1))
    s = do(s, "move-count:4")
    assert s.members[4][R] == 1 and s.members[7][R] == 4


def test_ex03_default_tier_and_next_pool() -> None:
    """Ex 3: [-,S,M] + BLANK -> [-,-,S] pushing MOON: DEFAULT; with Ex 1 the pool is [-,M]."""
    s = build(members={4: {R: 2}}, rows={GROW: "S M -", GATHER: "- S M"}, dice="M -")
    s = do(s, "assign:moon:grow", f"grow:{key(s, 4)}")
    s = do(s, "assign:blank:gather")
    assert s.rows[2] == faces("- - S")
    assert s.action is not None and s.action.tier is Tier.DEFAULT
    assert s.pool == faces("- M")


def test_ex04_two_different_actions() -> None:
    """Ex 4: after the GROW, the BLANK die may go to MOVE, GATHER or LEAD, never GROW."""
    s = build(members={4: {R: 2}}, rows={GROW: "S M -"}, dice="M -")
    s = do(s, "assign:moon:grow", f"grow:{key(s, 4)}")
    legal = keys(s)
    assert {"assign:blank:move", "assign:blank:gather", "assign:blank:lead"} <= set(legal)
    assert not [k for k in legal if k.startswith("assign:") and k.endswith(":grow")]


def test_ex05_doubles_with_both_slots_full() -> None:
    """Ex 5: both slots full at [M,M]: nothing drawn; Drought still leaves, slot 1 stays empty."""
    moon = faces("M")[0]
    full = build(
        members={4: {R: 2}},
        slots=(slot(Event.DROUGHT), slot(Event.PLENTIFUL_WOOD, wood=4)),
    )
    deck = full.event_deck
    s = roll_for_r(full, moon, moon)
    assert s.turn is not None and s.turn.rolled == faces("M M")
    assert s.slots[0] is None and s.slots[1] == slot(Event.PLENTIFUL_WOOD, wood=4)
    assert s.event_deck == deck and s.event_discard == (Event.DROUGHT,)
    assert s.step is Step.ACTION


def test_ex05_full_slots_without_clauses_change_nothing() -> None:
    """Ex 5: with [Plentiful Food, Plentiful Wood] the doubles do nothing at all."""
    moon = faces("M")[0]
    slots = (slot(Event.PLENTIFUL_FOOD, food=6), slot(Event.PLENTIFUL_WOOD, wood=4))
    s0 = build(members={4: {R: 2}}, slots=slots)
    s = roll_for_r(s0, moon, moon)
    assert s.slots == slots and s.event_deck == s0.event_deck and s.event_discard == ()


def test_ex05_one_free_slot_draws_after_the_clause() -> None:
    """Ex 5 (G28): [Drought, empty]: Drought leaves, then the top event is drawn into slot 1."""
    moon = faces("M")[0]
    s0 = build(members={4: {R: 2}}, slots=(slot(Event.DROUGHT), None))
    lasting = replace(s0, event_deck=top(s0.event_deck, Event.PLENTIFUL_STONE))
    s = roll_for_r(lasting, moon, moon)
    assert s.slots[0] == slot(Event.PLENTIFUL_STONE, stone=6) and s.slots[1] is None
    assert s.event_discard == (Event.DROUGHT,)
    instant = replace(s0, event_deck=top(s0.event_deck, Event.ABANDONED_VILLAGE))
    s = roll_for_r(instant, moon, moon)
    assert s.slots == (None, None), "an instant event takes no slot"
    assert s.step is Step.ABANDONED_VILLAGE


def test_ex06_mild_winter() -> None:
    """Ex 6: N = DEFAULT + 2; R places 3 then stops (G16): counters 3 -> 2; an empty GROW -> 1."""
    s = build(members={4: {R: 2}}, slots=(slot(Event.MILD_WINTER, tokens=3), None), dice="- S")
    s = do(s, "assign:blank:grow")
    assert s.action is not None and s.action.power == ACTION_POWER[GROW][Tier.DEFAULT] + 2
    assert s.slots[0] is not None and s.slots[0].tokens == 2
    s = do(s, *[f"grow:{key(s, 4)}"] * 3, "grow-done")
    assert s.members[4][R] == 5
    other = build(
        members={4: {R: 2}, 5: {B: 1}},
        slots=(slot(Event.MILD_WINTER, tokens=2), None),
        dice="- S",
        active=B,
    )
    other = do(other, "assign:blank:grow", "grow-done")
    assert other.slots[0] is not None and other.slots[0].tokens == 1


def test_ex07_gather_with_plentiful_wood() -> None:
    """Ex 7: two forests at DEFAULT: +4 wood, +2+2 from the card (2 left); A1 not completable."""
    s = build(
        members={1: {R: 1}, 4: {R: 1}},
        slots=(slot(Event.PLENTIFUL_WOOD, wood=6), None),
        in_progress={R: goals("A1")},
        dice="-",
        pool="S",
    )
    s = do(s, "assign:blank:gather", f"gather:{key(s, 1)}:wood", f"gather:{key(s, 4)}:wood")
    assert s.players[R].resources == (0, 2 * GATHER_YIELD + 4, 0)
    assert s.slots[0] is not None and s.slots[0].wood == 2
    assert s.turn is not None and s.turn.gathered == 2 * GATHER_YIELD
    assert s.step is Step.GOALS and "complete:bountiful-harvest" not in keys(s)


def test_ex08_sun_gather_completes_a1() -> None:
    """Ex 8: SUN gather of a lake, a forest and a mountain: 2/2/2, A1 completable for its VP."""
    s = build(
        members={3: {R: 1}, 0: {R: 1}, 2: {R: 1}},
        rows={GATHER: "S M -"},
        in_progress={R: goals("A1")},
        dice="S",
        pool="M",
    )
    s = do(s, "assign:sun:gather")
    assert s.action is not None and s.action.tier is Tier.SUN
    s = do(s, f"gather:{key(s, 3)}:food", f"gather:{key(s, 0)}:wood", f"gather:{key(s, 2)}:stone")
    assert s.players[R].resources == (2, 2, 2)
    assert s.turn is not None and s.turn.gathered == 6
    s = do(s, "complete:bountiful-harvest")
    assert s.players[R].vp == GOAL_CARD[Goal.BOUNTIFUL_HARVEST].vp


def test_ex09_discovery() -> None:
    """Ex 9: moving into a hex held only by B: take any type from the card (STONE)."""
    s = build(
        members={0: {B: 2}, 3: {R: 2}},
        slots=(slot(Event.DISCOVERY, 2, 2, 2), None),
        dice="- S",
    )
    s = do(s, "assign:blank:move", f"move:{key(s, 3)}:{key(s, 0)}", "move-count:2")
    assert s.step is Step.DISCOVERY
    assert keys(s) == ["discovery:food", "discovery:stone", "discovery:wood"]
    s = do(s, "discovery:stone")
    assert s.players[R].resources == (0, 0, 1)
    assert s.slots[0] == slot(Event.DISCOVERY, 2, 2, 1)
    later = build(
        members={0: {B: 2, R: 1}, 3: {R: 2}},
        slots=(slot(Event.DISCOVERY, 2, 2, 1), None),
        dice="- S",
    )
    later = do(later, "assign:blank:move", f"move:{key(later, 3)}:{key(later, 0)}", "move-count:1")
    assert later.step is Step.ACTION and later.players[R].resources == (0, 0, 0)


def test_ex10_two_player_conflict_and_raid() -> None:
    """Ex 10: H4 R4 B3 + B village: (3,2) (2,1) (1,0); the village falls; A7 completable."""
    s = build(
        members={4: {R: 4, B: 3}},
        villages={4: B},
        in_progress={R: goals("A7")},
        dice="-",
        pool="S",
    )
    s = to_conflict(s)
    assert s.step is Step.GOALS
    assert s.members[4][R] == 1 and s.members[4][B] == 0
    assert s.villages[4] == NOBODY
    assert s.turn is not None and s.turn.raided
    assert "complete:raiders" in keys(s)


def test_ex11_bow() -> None:
    """Ex 11: UseBow(B) -> R3 B2 (5, the conflict goes on) -> (2,1) -> (1,0): R1."""
    s = build(members={4: {R: 3, B: 3}}, completed={R: goals("D3")}, dice="-", pool="S")
    s = to_conflict(s)
    assert s.step is Step.BOW and keys(s) == ["bow:1", "skip-bow"]
    s = do(s, "bow:1")
    assert s.members[4][R] == 1 and s.members[4][B] == 0 and s.step is Step.GOALS


def test_ex12_single_colour_trim() -> None:
    """Ex 12: H2 R7 only: trimmed to R5; no rounds and no Bow target."""
    s = build(members={2: {R: 7}}, completed={R: goals("D3")}, dice="-", pool="S")
    s = to_conflict(s)
    assert s.step is Step.GOALS and s.members[2][R] == 5


def test_ex13_rounds_then_trim() -> None:
    """Ex 13: H2 R8 B1: one round (7,0), then R alone with 7 is trimmed to 5 (G15)."""
    s = build(members={2: {R: 8, B: 1}}, dice="-", pool="S")
    s = to_conflict(s)
    assert s.members[2][R] == 5 and s.members[2][B] == 0

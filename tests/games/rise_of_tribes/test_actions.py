"""Step 3: dice uses and the four actions (§5.5) with the edge cases of §8.1-§8.3, §8.13,
§8.16, §8.20-§8.21, §8.24-§8.26 and G27."""

from __future__ import annotations

from tests.games.rise_of_tribes.fixtures import (
    B,
    R,
    build,
    do,
    goals,
    key,
    keys,
    slot,
)
from tribes.games.rise_of_tribes.cards import Event, Goal
from tribes.games.rise_of_tribes.data import (
    ACTION_POWER,
    GATHER_YIELD,
    TIGER_HUNT_VP,
    Action,
    Tier,
)
from tribes.games.rise_of_tribes.maps import Hex
from tribes.games.rise_of_tribes.state import NOBODY, Step


def test_identical_dice_are_listed_once_per_action() -> None:
    """§8.24: moves are face-based: two BLANK dice give one AssignDie per action."""
    s = build(members={0: {R: 1}}, dice="- -")
    assert [k for k in keys(s) if k.startswith("assign:")] == sorted(
        f"assign:blank:{a.value}" for a in Action
    )


def test_both_dice_may_be_spent_without_an_action() -> None:
    """§8.1: SpendDie is not an action; a player may spend both dice."""
    s = build(
        members={6: {R: 4}, 2: {R: 1}},
        slots=(slot(Event.MAMMOTH), slot(Event.SABERTOOTH_TIGER)),
        mammoth=6,
        tiger=2,
        dice="S M",
    )
    s = do(s, "spend:sun:tiger-hunt", "spend:moon:mammoth-hunt")
    assert s.step is Step.GOALS and s.turn is not None and s.turn.actions_taken == ()
    assert s.players[R].vp == 2 and s.members[2][R] == 0
    assert s.pool == s.turn.rolled, "spent dice go straight to the next pool"


def test_tiger_hunt() -> None:
    """§3.7 E10: remove 1 own member from the tiger hex, +1 VP, tiger and card leave."""
    s = build(members={2: {R: 2}}, slots=(slot(Event.SABERTOOTH_TIGER), None), tiger=2, dice="S M")
    s = do(s, "spend:moon:tiger-hunt")
    assert s.members[2][R] == 1 and s.players[R].vp == TIGER_HUNT_VP
    assert s.tiger_hex == NOBODY and s.event_discard == (Event.SABERTOOTH_TIGER,)


def test_action_resolves_before_the_next_die() -> None:
    """§8.2: during a GROW no die can be assigned."""
    s = build(members={0: {R: 1}}, dice="S M")
    s = do(s, "assign:sun:grow")
    assert not [k for k in keys(s) if k.startswith(("assign:", "spend:"))]


def test_grow_only_into_hexes_held_when_it_began() -> None:
    """§5.5 GROW: the hexes are fixed at the start; Fire adds 1 to N."""
    s = build(members={0: {R: 1}, 4: {B: 1}}, completed={R: goals("D5")}, dice="- S")
    s = do(s, "assign:blank:grow")
    assert s.action is not None and s.action.power == ACTION_POWER[Action.GROW][Tier.DEFAULT] + 1
    assert keys(s) == sorted([f"grow:{key(s, 0)}", "grow-done"])


def test_grow_stops_when_the_supply_is_empty() -> None:
    """§8.25: GROW ends when the supply runs out."""
    s = build(members={0: {R: 5}, 1: {R: 5}, 4: {R: 5}, 7: {R: 4}}, dice="S M")
    s = do(s, "assign:sun:grow", f"grow:{key(s, 0)}")
    assert s.players[R].supply == 0 and s.step is Step.ACTION


def test_grow_with_no_members_on_the_map_ends_at_once() -> None:
    """§5.5: a player with no member on the map grows nothing (auto-end)."""
    s = build(members={0: {B: 1}}, dice="S M", slots=(slot(Event.MILD_WINTER, tokens=2), None))
    s = do(s, "assign:sun:grow")
    assert s.step is Step.ACTION, "no GROW decision"
    assert s.slots[0] is not None and s.slots[0].tokens == 1, "the counter still goes (§8.20)"


def test_members_move_once_and_may_overfill_a_hex() -> None:
    """§8.4: a MOVE may leave a hex over the limit until Step 4; moved members are marked."""
    s = build(members={3: {R: 4}, 4: {R: 4}}, dice="S M")
    s = do(s, "assign:sun:move", f"move:{key(s, 3)}:{key(s, 4)}", "move-count:4")
    assert s.members[4][R] == 8 and s.turn is not None and s.turn.moved[4] == 4
    assert s.step is Step.ACTION


def test_move_skip_moves_nothing() -> None:
    """§5.5: MoveSkip is always legal."""
    s = build(members={3: {R: 2}}, dice="S M")
    s = do(s, "assign:moon:move", "move-skip")
    assert s.members[3][R] == 2 and s.step is Step.ACTION


def test_move_never_enters_the_volcano() -> None:
    """§5.4.3: the volcano is not a map hex: never a destination, never on a path (G12)."""
    s = build(
        seats=2, members={5: {R: 1}}, volcano=Hex(3, 0), completed={R: goals("D2")}, dice="S M"
    )
    s = do(s, "assign:sun:move")
    assert not [k for k in keys(s) if k.endswith(":3,0")]


def test_gather_next_to_the_volcano_may_take_stone() -> None:
    """§3.7 E12: a hex next to the volcano may yield stone instead of its resource."""
    s = build(seats=2, members={5: {R: 1}, 4: {R: 1}}, volcano=Hex(3, 0), dice="- S")
    s = do(s, "assign:blank:gather")
    assert f"gather:{key(s, 5)}:stone" in keys(s) and f"gather:{key(s, 5)}:food" in keys(s)
    assert f"gather:{key(s, 4)}:stone" not in keys(s), "H4 is a forest far from it"


def test_volcano_stone_gather_gets_no_plentiful_and_basketry_offers_stone() -> None:
    """G27: a lake gathered as STONE triggers no Plentiful card; Basketry offers STONE only."""
    s = build(
        seats=2,
        members={5: {R: 1}},
        volcano=Hex(3, 0),
        completed={R: goals("D1")},
        slots=(slot(Event.PLENTIFUL_FOOD, food=6), slot(Event.PLENTIFUL_STONE, stone=6)),
        dice="- S",
    )
    s = do(s, "assign:blank:gather", f"gather:{key(s, 5)}:stone")
    assert s.step is Step.BASKETRY and keys(s) == ["basketry:stone"]
    s = do(s, "basketry:stone")
    assert s.players[R].resources == (0, 0, GATHER_YIELD + 1)
    assert s.slots[0] is not None and s.slots[0].food == 6
    assert s.slots[1] is not None and s.slots[1].stone == 6
    assert s.turn is not None and s.turn.gathered == GATHER_YIELD + 1, "Basketry counts for A1"


def test_basketry_is_skipped_when_nothing_was_gathered() -> None:
    """§5.5: no BasketryBonus after a GATHER that yielded nothing."""
    s = build(members={0: {R: 1}}, completed={R: goals("D1")}, dice="- S")
    s = do(s, "assign:blank:gather", "gather-done")
    assert s.step is Step.ACTION and s.players[R].resources == (0, 0, 0)


def test_plentiful_is_limited_by_what_is_left() -> None:
    """§8.21: each matching hex takes 2 from the card while it lasts."""
    s = build(
        members={1: {R: 1}, 4: {R: 1}},
        slots=(slot(Event.PLENTIFUL_WOOD, wood=2), None),
        dice="- S",
    )
    s = do(s, "assign:blank:gather", f"gather:{key(s, 1)}:wood", f"gather:{key(s, 4)}:wood")
    assert s.players[R].resources == (0, 2 * GATHER_YIELD + 2, 0)
    assert s.slots[0] is None and s.event_discard == (Event.PLENTIFUL_WOOD,)


def test_gather_ends_when_no_eligible_hex_is_left() -> None:
    """§5.5: GatherDone is automatic when the last own hex has been gathered."""
    s = build(members={3: {R: 1}}, rows={Action.GATHER: "S M -"}, dice="S M")
    s = do(s, "assign:sun:gather", f"gather:{key(s, 3)}:food")
    assert s.step is Step.ACTION


def test_lead_with_cave_painting_and_an_exhausted_deck() -> None:
    """§5.5 LEAD: Cave Painting draws 1 more; a short deck gives what is left (§8.26)."""
    held = tuple(g for g in Goal if g not in goals("D6", "A1", "A2"))
    s = build(
        members={0: {R: 1}},
        completed={R: goals("D6")},
        decks={R: goals("A1", "A2")},
        in_progress={R: held},
        dice="S M",
    )
    s = do(s, "assign:sun:lead")
    assert s.action is not None and s.action.power == ACTION_POWER[Action.LEAD][Tier.SUN] + 1
    s = do(s, "lead-draw")
    assert s.players[R].in_progress == (*held, *goals("A1", "A2"))
    assert s.players[R].goal_deck == ()


def test_recycling_needs_villages() -> None:
    """§8.16: with no village no card may be recycled."""
    s = build(members={0: {R: 1}}, in_progress={R: goals("A3")}, dice="S M")
    s = do(s, "assign:moon:lead")
    assert keys(s) == ["lead-draw"]


def test_a1_counts_no_event_resources() -> None:
    """§8.13: Plentiful resources do not count toward "GATHER any 6"."""
    s = build(
        members={3: {R: 1}, 6: {R: 1}},
        slots=(slot(Event.PLENTIFUL_FOOD, food=6), None),
        in_progress={R: (Goal.BOUNTIFUL_HARVEST,)},
        dice="-",
        pool="S",
    )
    s = do(s, "assign:blank:gather", f"gather:{key(s, 3)}:food", f"gather:{key(s, 6)}:food")
    assert s.players[R].resources[0] == 2 * GATHER_YIELD + 4
    assert s.turn is not None and s.turn.gathered == 2 * GATHER_YIELD
    assert "complete:bountiful-harvest" not in keys(s)


def test_invaders_ban_only_their_own_hex() -> None:
    """§3.7 E4 / G10: the gather and village ban is hex-local: R, also in invaded H2, may
    GATHER from and build in H5, never in H2."""
    s = build(
        members={2: {R: 1}, 5: {R: 1}},
        slots=(slot(Event.INVADERS), None),
        invaders=(2, 3),
        resources={R: (9, 9, 9)},
        dice="- S",
    )
    s = do(s, "assign:blank:gather")
    assert [k for k in keys(s) if k.startswith("gather:")] == [f"gather:{key(s, 5)}:stone"]
    s = do(s, f"gather:{key(s, 5)}:stone", "assign:sun:lead", "lead-draw")
    assert s.step is Step.GOALS and s.players[R].resources == (9, 9, 9 + GATHER_YIELD)
    villages = [k for k in keys(s) if k.startswith("village:")]
    assert villages == [f"village:{key(s, 5)}"]


def test_resources_are_unlimited() -> None:
    """§2 / G19: the supply never runs out: beyond the 24 printed tokens of a type (and the
    96 of all), a GATHER still yields in full."""
    s = build(
        members={1: {R: 1}, 4: {R: 1}},
        resources={R: (40, 40, 40), B: (40, 40, 40)},
        dice="- S",
    )
    s = do(s, "assign:blank:gather", f"gather:{key(s, 1)}:wood", f"gather:{key(s, 4)}:wood")
    assert s.players[R].resources == (40, 40 + 2 * GATHER_YIELD, 40)

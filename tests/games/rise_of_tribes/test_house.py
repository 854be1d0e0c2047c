"""The HOUSE-RULE leader powers (``leaders = house``, spec §3.5): each power's timing and
limits, and the setup choice (§4 step 8a)."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from tests.games.rise_of_tribes.fixtures import (
    B,
    G,
    R,
    build,
    do,
    goals,
    key,
    keys,
    roll_for_r,
    slot,
    to_conflict,
    top,
)
from tribes.engine.driver import new_game
from tribes.games.rise_of_tribes import GAME
from tribes.games.rise_of_tribes.cards import Event
from tribes.games.rise_of_tribes.data import (
    ACTION_POWER,
    BOARD_OF,
    GATHER_YIELD,
    TRIBES,
    Action,
    Face,
    Power,
    Tier,
)
from tribes.games.rise_of_tribes.maps import Hex
from tribes.games.rise_of_tribes.options import OPTIONS
from tribes.games.rise_of_tribes.state import NOBODY, State, Step

SUN, MOON, BLANK = Face.SUN, Face.MOON, Face.BLANK


def house(powers: dict[int, Power], **kw: Any) -> State:
    """A fixture state where each seat in ``powers`` leads the tribe owning that power;
    the other seats get a power that only acts on their own turn (``_QUIET``)."""
    owner = {p: b.tribe for b in BOARD_OF.values() for p in b.powers}
    tribes = {seat: owner[p] for seat, p in powers.items()}
    chosen = dict(powers)
    spare = iter(t for t in TRIBES if t not in tribes.values())
    for seat in range(kw.get("seats", 4)):
        if seat not in tribes:
            tribes[seat] = next(spare)
            chosen[seat] = next(p for p in BOARD_OF[tribes[seat]].powers if p in _QUIET)
    return build(tribes=tribes, powers=chosen, **kw)


#: One power of every tribe that does nothing outside its owner's own turn.
_QUIET = (
    Power.TRADER,
    Power.CUNNING,
    Power.FARMING,
    Power.WAYFARERS,
    Power.DREAMTIME,
    Power.PATHFINDER,
    Power.SHARED_BOUNTY,
    Power.LIGHT_IN_THE_DARK,
)


def test_option_says_house_rules() -> None:
    """The ``leaders`` option is off by default and its text says HOUSE RULES."""
    spec = next(o for o in OPTIONS if o.name == "leaders")
    assert spec.default == "off" and spec.choices == ("off", "house")
    assert "HOUSE RULES" in spec.description and "NOT the published" in spec.description


def test_choose_power_in_seat_order_before_placements() -> None:
    """§4 step 8a: each player, in seat order, picks one of their tribe's two powers."""
    s = new_game(GAME, 3, {"leaders": "house"}, 12)
    order = [(s.start_player + i) % 3 for i in range(3)]
    for seat in order:
        assert s.step is Step.CHOOSE_POWER and s.actor == seat
        powers = BOARD_OF[s.players[seat].tribe].powers
        assert keys(s) == sorted(f"power:{p.value}" for p in powers)
        s = do(s, f"power:{powers[1].value}")
        assert s.players[seat].power is powers[1]
    assert s.step is Step.PLACE_START and s.actor == order[0]


def test_no_power_in_the_basic_game() -> None:
    """leaders = off (G7): nobody has a power and no power move appears."""
    s = new_game(GAME, 4, {}, 12)
    assert s.step is Step.PLACE_START and all(p.power is None for p in s.players)


def test_trader_once_per_turn_another_type_alongside_pottery() -> None:
    """Trader: Step 5 only, 2 of one type for 1 of another, once; Pottery independent."""
    s = house(
        {R: Power.TRADER},
        seats=3,
        members={0: {R: 1}},
        resources={R: (4, 2, 0)},
        completed={R: goals("D4")},
        step=Step.GOALS,
    )
    trades = [k for k in keys(s) if k.startswith("trade:")]
    assert trades == ["trade:food:stone", "trade:food:wood", "trade:wood:food", "trade:wood:stone"]
    s = do(s, "trade:food:stone", "pottery:food:food")
    assert s.players[R].resources == (1, 2, 1)
    assert not [k for k in keys(s) if k.startswith(("trade:", "pottery:"))]


def test_crafty_builders_stacks_with_shelters() -> None:
    """Crafty Builders: +1 reduction (k = 2 with Shelters); omit pairs within the printed cost."""
    s = house(
        {R: Power.CRAFTY_BUILDERS},  # Daba: 2 food, 1 wood, 3 stone
        members={4: {R: 1}},
        completed={R: goals("D7")},
        resources={R: (0, 1, 3)},
        step=Step.GOALS,
    )
    villages = [k for k in keys(s) if k.startswith("village:")]
    assert villages == [f"village:{key(s, 4)}:food+food"]
    s = do(s, villages[0])
    assert s.players[R].resources == (0, 0, 0) and s.villages[4] == R


def test_crafty_builders_does_not_cut_the_abandoned_village_price() -> None:
    """Crafty Builders never lowers Abandoned Village's 1/1/1."""
    s0 = house({R: Power.CRAFTY_BUILDERS}, members={0: {R: 1}}, resources={R: (1, 1, 0)})
    s = roll_for_r(replace(s0, event_deck=top(s0.event_deck, Event.ABANDONED_VILLAGE)), SUN, SUN)
    assert s.step is Step.ABANDONED_VILLAGE and keys(s) == ["av-pass"]


def test_cunning_reroll_before_any_die_and_never_an_event() -> None:
    """Cunning: once, before the first die is used; the new face triggers no event."""
    s = house({R: Power.CUNNING}, members={0: {R: 1}}, dice="S M", rng=3)
    assert sorted(k for k in keys(s) if k.startswith("reroll:")) == ["reroll:moon", "reroll:sun"]
    slots = s.slots
    s = do(s, "reroll:moon")
    assert s.turn is not None and s.turn.cunning_used and s.turn.rolled == (SUN, MOON)
    assert len(s.turn.dice_left) == 2 and s.turn.dice_left[0] is SUN
    assert s.slots == slots and s.step is Step.ACTION
    assert not [k for k in keys(s) if k.startswith("reroll:")], "once per turn"
    late = house({R: Power.CUNNING}, members={0: {R: 1}}, dice="S M")
    late = do(late, "assign:sun:grow", "grow-done")
    assert not [k for k in keys(late) if k.startswith("reroll:")], "only before the first die"


def test_agriculture_adds_food_for_lakes_gathered_for_food() -> None:
    """Agriculture: +1 food if a lake gave food (not stone); it counts for A1."""
    s = house({R: Power.AGRICULTURE}, members={3: {R: 1}}, dice="- S")
    s = do(s, "assign:blank:gather", f"gather:{key(s, 3)}:food")
    assert s.players[R].resources == (GATHER_YIELD + 1, 0, 0)
    assert s.turn is not None and s.turn.gathered == GATHER_YIELD + 1
    stone = house(
        {R: Power.AGRICULTURE}, seats=2, members={5: {R: 1}}, volcano=Hex(3, 0), dice="- S"
    )
    stone = do(stone, "assign:blank:gather", f"gather:{key(stone, 5)}:stone")
    assert stone.players[R].resources == (0, 0, GATHER_YIELD)


def test_farming_and_pathfinder_add_one() -> None:
    """Farming: GROW power +1. Pathfinder: MOVE power +1 (reach unchanged)."""
    s = house({R: Power.FARMING}, members={0: {R: 1}}, dice="- S")
    s = do(s, "assign:blank:grow")
    assert s.action is not None and s.action.power == ACTION_POWER[Action.GROW][Tier.DEFAULT] + 1
    s = house({R: Power.PATHFINDER}, members={0: {R: 9}}, dice="- S")
    s = do(s, "assign:blank:move")
    assert s.action is not None and s.action.power == ACTION_POWER[Action.MOVE][Tier.DEFAULT] + 1
    assert {k.split(":")[2] for k in keys(s) if k.startswith("move:")} == {
        key(s, 1),
        key(s, 2),
        key(s, 3),
    }


def test_exogamy_grows_into_neighbouring_opponent_hexes() -> None:
    """Exogamy: also hexes next to yours holding another player's members, fixed at start."""
    s = house(
        {R: Power.EXOGAMY},
        members={0: {R: 1}, 1: {B: 1}, 8: {B: 1}},
        slots=(slot(Event.INVADERS), None),
        invaders=(2, 3),
        dice="S M",
    )
    s = do(s, "assign:sun:grow")
    assert keys(s) == sorted([f"grow:{key(s, 0)}", f"grow:{key(s, 1)}", "grow-done"])
    s = do(s, f"grow:{key(s, 1)}")
    assert s.members[1][R] == 1 and f"grow:{key(s, 3)}" not in keys(s)


def test_wayfarers_reach_two_and_three_with_oxen() -> None:
    """Wayfarers: like Oxen (distance <= 2); with Oxen two counted intermediates."""
    s = house({R: Power.WAYFARERS}, members={0: {R: 1}}, dice="- S")
    s = do(s, "assign:blank:move")
    assert len([k for k in keys(s) if k.startswith("move:")]) == 7
    s = house({R: Power.WAYFARERS}, members={0: {R: 1}}, completed={R: goals("D2")}, dice="- S")
    s = do(s, "assign:blank:move")
    assert len([k for k in keys(s) if k.startswith("move:")]) == 12  # H1-H12: distance <= 3


def test_focused_effort_repeats_an_action() -> None:
    """Focused Effort: the second die may repeat; moved members stay put; Mild Winter twice."""
    s = house(
        {R: Power.FOCUSED_EFFORT},
        members={3: {R: 2}},
        slots=(slot(Event.MILD_WINTER, tokens=3), None),
        dice="- -",
    )
    s = do(s, "assign:blank:move", f"move:{key(s, 3)}:{key(s, 4)}", "move-count:2")
    assert "assign:blank:move" in keys(s)
    s = do(s, "assign:blank:move")
    assert keys(s) == ["move-skip"], "the moved members may not move again"
    s = house(
        {R: Power.FOCUSED_EFFORT},
        members={3: {R: 2}},
        slots=(slot(Event.MILD_WINTER, tokens=3), None),
        dice="- -",
    )
    s = do(s, "assign:blank:grow", "grow-done", "assign:blank:grow", "grow-done")
    assert s.slots[0] is not None and s.slots[0].tokens == 1


def test_focused_effort_gathered_is_the_larger_gather() -> None:
    """Focused Effort: with two GATHERs, gathered_this_turn is the larger one (A1)."""
    s = house(
        {R: Power.FOCUSED_EFFORT},
        members={0: {R: 1}, 1: {R: 1}, 3: {R: 1}},
        rows={Action.GATHER: "S M -"},
        dice="S -",
    )
    s = do(
        s,
        "assign:sun:gather",
        *(f"gather:{key(s, h)}:{r}" for h, r in ((0, "wood"), (1, "wood"), (3, "food"))),
    )
    s = do(s, "assign:blank:gather", f"gather:{key(s, 0)}:wood")
    assert s.turn is not None and s.turn.gathered == 3 * GATHER_YIELD


def test_ambush_after_the_move() -> None:
    """Ambush: one member of a player in the destination goes; auto with one, chosen with two."""
    s = house({R: Power.AMBUSH}, members={3: {R: 2}, 4: {B: 2}}, dice="- S")
    s = do(s, "assign:blank:move", f"move:{key(s, 3)}:{key(s, 4)}", "move-count:1")
    assert s.members[4][B] == 1 and s.step is Step.ACTION
    s = house(
        {R: Power.AMBUSH},
        members={3: {R: 2}, 4: {B: 1, G: 1}},
        villages={4: G},
        dice="- S",
    )
    s = do(s, "assign:blank:move", f"move:{key(s, 3)}:{key(s, 4)}", "move-count:1")
    assert s.step is Step.AMBUSH and keys(s) == ["ambush:1", "ambush:2"]
    s = do(s, "ambush:2")
    assert s.members[4][G] == 0 and s.villages[4] == NOBODY
    assert s.turn is not None and not s.turn.raided, "a village lost to Ambush is no raid"


def test_ambush_never_after_move_skip_nor_on_invaders() -> None:
    """Ambush needs a real move; invader tokens are never removed."""
    s = house(
        {R: Power.AMBUSH},
        members={3: {R: 2}},
        slots=(slot(Event.INVADERS), None),
        invaders=(4, 3),
        dice="- S",
    )
    s = do(s, "assign:blank:move", f"move:{key(s, 3)}:{key(s, 4)}", "move-count:1")
    assert s.invaders == 3 and s.step is Step.ACTION


def test_dreamtime_recycles_one_more() -> None:
    """Dreamtime: recycle limit = villages + 1 (so 1 without a village)."""
    s = house(
        {R: Power.DREAMTIME}, members={0: {R: 1}}, in_progress={R: goals("A3", "A4")}, dice="- S"
    )
    s = do(s, "assign:blank:lead", "recycle:wanderers")
    assert keys(s) == ["lead-draw"]


def test_evasion_on_defence() -> None:
    """Evasion: a defender moves up to 2 out first, only where the limit holds; C1 at once."""
    s = house(
        {B: Power.EVASION},
        members={3: {R: 4, B: 3}, 0: {G: 4}, 7: {G: 5}},
        dice="-",
        pool="S",
    )
    s = to_conflict(s)
    assert s.step is Step.EVADE and s.actor == B
    legal = keys(s)
    assert f"evade:{key(s, 0)}:1" in legal and f"evade:{key(s, 0)}:2" not in legal
    assert not [k for k in legal if k.startswith(f"evade:{key(s, 7)}")], "H7 is full"
    s = do(s, f"evade:{key(s, 2)}:2")
    assert s.members[2][B] == 2 and s.members[3] == (3, 0, 0, 0)
    assert s.step is Step.GOALS


def test_evasion_is_never_for_the_active_player() -> None:
    """Evasion is a defence: on its owner's own turn there is no Evade."""
    s = house({R: Power.EVASION}, members={3: {R: 4, B: 3}}, dice="-", pool="S")
    s = to_conflict(s)
    assert s.step is Step.GOALS


def test_shared_bounty_yields_one_more_on_shared_hexes() -> None:
    """Shared Bounty: Y + 1 from a hex holding another player's members."""
    s = house({R: Power.SHARED_BOUNTY}, members={1: {R: 1, B: 1}, 4: {R: 1}}, dice="- S")
    s = do(s, "assign:blank:gather", f"gather:{key(s, 1)}:wood", f"gather:{key(s, 4)}:wood")
    assert s.players[R].resources == (0, 2 * GATHER_YIELD + 1, 0)
    assert s.turn is not None and s.turn.gathered == 2 * GATHER_YIELD + 1


def test_intimidate_with_a_majority() -> None:
    """Intimidate: holding a Majority, every other player there loses 1 before the rounds."""
    s = house({R: Power.INTIMIDATE}, members={3: {R: 4, B: 1, G: 1}}, dice="-", pool="S")
    s = to_conflict(s)
    assert s.members[3] == (4, 0, 0, 0)
    s = house({R: Power.INTIMIDATE}, members={3: {R: 3, B: 2, G: 1}}, dice="-", pool="S")
    s = to_conflict(s)
    assert s.members[3] == (1, 0, 0, 0), "no Majority: ordinary rounds (2,1,0) (1,0,0)"


def test_hidden_village_survives_leaving_but_not_a_lost_conflict() -> None:
    """Hidden Village: no C1 for its owner; destroyed in the aftermath if the owner is absent."""
    s = house({R: Power.HIDDEN_VILLAGE}, members={3: {R: 2}}, villages={3: R}, dice="- S")
    s = do(s, "assign:blank:move", f"move:{key(s, 3)}:{key(s, 4)}", "move-count:2")
    assert s.villages[3] == R and s.members[3][R] == 0
    fight = house(
        {B: Power.HIDDEN_VILLAGE},
        members={3: {R: 4, B: 2}},
        villages={3: B},
        in_progress={R: goals("A7")},
        dice="-",
        pool="S",
    )
    fight = to_conflict(fight)
    assert fight.villages[3] == NOBODY and fight.turn is not None and fight.turn.raided


def test_hidden_village_scores_after_re_entry() -> None:
    """Hidden Village: an eliminated owner keeps the village; it scores after Step 0 (§8.27)."""
    s = house(
        {B: Power.HIDDEN_VILLAGE},
        members={0: {R: 1}},
        villages={5: B},
        step=Step.GOALS,
    )
    s = do(s, "end-turn")
    assert s.step is Step.RE_ENTER and s.actor == B
    s = do(s, f"re-enter:{key(s, 8)}")
    assert s.players[B].vp == 1 and s.villages[5] == B


def test_light_in_the_dark_turns_moon_into_default() -> None:
    """Light in the Dark: a MOON tier becomes DEFAULT before the power is read."""
    s = house({R: Power.LIGHT_IN_THE_DARK}, members={0: {R: 1}}, dice="M S")
    s = do(s, "assign:moon:grow")
    assert s.action is not None and s.action.tier is Tier.DEFAULT
    assert s.action.power == ACTION_POWER[Action.GROW][Tier.DEFAULT]

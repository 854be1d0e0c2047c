"""The examples and rulings of the seed rulebook (shared/seeds/rise-of-tribes.txt).

Each test quotes (or paraphrases) the sentence it checks; where a spec §9 example is
the same case it is referenced instead of repeated (Plentiful Wood = Ex 7, single
colour = Ex 12, Bow to 5 = Ex 11, deserted village = Ex 10, recycling = Ex 17, full
slots = Ex 5, Discovery = Ex 9, Drought = Ex 16, Mild Winter = Ex 6, elimination =
Ex 22, immediate win = Ex 19, starting placements = Ex 21, village lost = Ex 18).
"""

from __future__ import annotations

from tests.games.rise_of_tribes.fixtures import (
    B,
    G,
    R,
    build,
    do,
    goals,
    key,
    keys,
    slot,
    to_conflict,
)
from tribes.engine.driver import new_game
from tribes.games.rise_of_tribes import GAME
from tribes.games.rise_of_tribes.cards import GOAL_CARD, Event, Goal
from tribes.games.rise_of_tribes.data import (
    ACTION_POWER,
    GATHER_YIELD,
    Action,
    Terrain,
    Tier,
    Tribe,
)
from tribes.games.rise_of_tribes.rules.query import has_control, has_majority
from tribes.games.rise_of_tribes.state import Step


def test_setup_takes_players_plus_one_tiles_of_each_terrain() -> None:
    """'if you have 2 players, take 3 of each type'."""
    s = new_game(GAME, 2, {}, 1)
    assert [s.terrain.count(t) for t in Terrain] == [3, 3, 3]


def test_grow_of_three_split_between_hexes() -> None:
    """'a growth of 3 ... could add those 3 to any of the hexes they are in ... split up'."""
    s = build(members={0: {R: 1}, 7: {R: 1}}, rows={Action.GROW: "S M -"}, dice="S M")
    s = do(s, "assign:sun:grow")
    assert s.action is not None and s.action.power == ACTION_POWER[Action.GROW][Tier.SUN] == 3
    s = do(s, f"grow:{key(s, 0)}", f"grow:{key(s, 7)}", f"grow:{key(s, 7)}")
    assert s.members[0][R] == 2 and s.members[7][R] == 3 and s.step is Step.ACTION


def test_gather_two_hexes_two_each() -> None:
    """'2 lakes ... 4 food total OR ... the lake and forest produce 2 food and 2 wood'."""
    lakes = build(members={3: {R: 1}, 6: {R: 1}, 0: {R: 1}}, dice="- S")
    both = do(lakes, "assign:blank:gather", f"gather:{key(lakes, 3)}:food")
    both = do(both, f"gather:{key(lakes, 6)}:food")
    assert both.players[R].resources == (2 * GATHER_YIELD, 0, 0) == (4, 0, 0)
    mixed = do(lakes, "assign:blank:gather", f"gather:{key(lakes, 3)}:food")
    mixed = do(mixed, f"gather:{key(lakes, 0)}:wood")
    assert mixed.players[R].resources == (2, 2, 0)


def test_villages_do_not_count_toward_the_limit() -> None:
    """'Villages don't count towards the hex limit, only tribe members.'"""
    s = build(members={4: {R: 3, B: 2}}, villages={4: B}, dice="-", pool="S")
    s = to_conflict(s)
    assert s.members[4][R] == 3 and s.members[4][B] == 2 and s.villages[4] == B


def test_neither_terrain_nor_opponents_affect_movement() -> None:
    """'Neither terrain nor opponent tribe members affect movement.'"""
    s = build(members={3: {R: 2}, 2: {B: 3}, 7: {G: 4}}, dice="- S")
    s = do(s, "assign:blank:move")
    targets = {k.split(":")[2] for k in keys(s) if k.startswith(f"move:{key(s, 3)}:")}
    assert targets == {key(s, h) for h in (0, 1, 2, 4, 6, 7)}


def test_any_number_of_goals_and_villages_in_step_five() -> None:
    """'Players may complete any number of Goals' / 'build any number of villages'."""
    s = build(
        members={0: {R: 1}, 4: {R: 1}, 8: {R: 1}},
        tribes={R: Tribe.KAHA, 3: Tribe.DABA},
        resources={R: (9, 6, 4)},
        in_progress={R: goals("D5", "D2")},
        step=Step.GOALS,
    )
    s = do(s, "complete:fire", "complete:oxen", f"village:{key(s, 0)}", f"village:{key(s, 4)}")
    assert s.players[R].vp == 2 and s.villages[0] == s.villages[4] == R
    assert s.players[R].resources == (0, 0, 0)


def test_completed_points_cannot_be_lost() -> None:
    """'Once completed, points gained cannot be lost': falling below 12 keeps A6's VP."""
    s = build(
        members={0: {R: 4}, 4: {R: 4}, 8: {R: 4}},
        in_progress={R: goals("A6")},
        owned={R: (Event.ALTAR,)},
        resources={R: (4, 0, 0)},
        step=Step.GOALS,
    )
    s = do(s, "complete:great-tribe", f"altar:{key(s, 0)}:4-food")
    vp = GOAL_CARD[Goal.GREAT_TRIBE].vp
    assert sum(row[R] for row in s.members) == 11 and s.players[R].vp == vp + 1


def test_goals_are_never_mandatory() -> None:
    """'Players are not required to fulfill a Goal Card even if they have met the condition.'"""
    s = build(members={h: {R: 1} for h in range(6)}, in_progress={R: goals("A8")}, step=Step.GOALS)
    assert "complete:expansion" in keys(s)
    s = do(s, "end-turn")
    assert s.players[R].in_progress == goals("A8") and s.players[R].vp == 0


def test_bow_on_your_turn_in_every_conflict() -> None:
    """Bow: 'Only applied when conflict happens on YOUR turn. ... used in multiple conflicts.'"""
    s = build(
        members={2: {R: 3, B: 3}, 7: {R: 3, G: 3}},
        completed={R: goals("D3"), B: goals("D3")},
        dice="-",
        pool="S",
    )
    s = to_conflict(s)
    s = do(s, f"conflict:{key(s, 2)}", "bow:1", "bow:2")
    assert s.members[2] == (1, 0, 0, 0) and s.members[7] == (1, 0, 0, 0)
    defending = build(members={2: {R: 3, B: 3}}, completed={B: goals("D3")}, dice="-", pool="S")
    assert to_conflict(defending).step is Step.GOALS, "the defender's Bow is never used"


def test_shared_knowledge_card_can_be_completed_the_same_turn() -> None:
    """'Players can only pay a resource ... once per turn. They may complete the goal card
    during the same turn it was drawn.'"""
    s = build(
        members={4: {R: 1, B: 1}},
        resources={R: (2, 1, 1)},
        decks={R: goals("D5")},
        slots=(slot(Event.SHARED_KNOWLEDGE), None),
        step=Step.GOALS,
    )
    s = do(s, "shared-knowledge:food")
    assert "complete:fire" in keys(s)
    assert not [k for k in keys(s) if k.startswith("shared-knowledge")]
    s = do(s, "complete:fire")
    assert s.players[R].vp == 1 and s.players[R].resources == (0, 0, 0)


def test_hex_control_terms() -> None:
    """Occupation, Majority ('outnumber the total ... from all opponents'), Control ('only')."""
    assert has_majority((3, 2, 0), 0, 0) and not has_majority((3, 2, 1), 0, 0)
    assert not has_majority((3, 1), 2, 0), "invader tokens count against a Majority (R)"
    assert has_control((2, 0, 0), 0, 0) and not has_control((2, 1, 0), 0, 0)
    assert not has_control((0, 0, 0), 0, 0), "an empty hex is controlled by no one"
    assert not has_control((2, 0), 1, 0)


def test_majority_in_neighbouring_lands_needs_no_pattern() -> None:
    """'The hexes ... does not have to match the exact pattern pictured': a line and a
    triangle both count."""
    line = build(
        members={0: {R: 1}, 2: {R: 1}, 5: {R: 1}}, in_progress={R: goals("A2")}, step=Step.GOALS
    )
    tri = build(
        members={0: {R: 1}, 1: {R: 1}, 3: {R: 1}}, in_progress={R: goals("A2")}, step=Step.GOALS
    )
    assert "complete:neighbouring-lands" in keys(line)
    assert "complete:neighbouring-lands" in keys(tri)

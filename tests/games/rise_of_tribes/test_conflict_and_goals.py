"""Step 4 (§5.6, §8.4-§8.10, §8.28, §8.31, G29) and Step 5 (§5.7, §8.11-§8.15, §8.32)."""

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
from tribes.games.rise_of_tribes import GAME
from tribes.games.rise_of_tribes.cards import GOAL_CARD, Event, Goal
from tribes.games.rise_of_tribes.data import BOARD_OF, VILLAGE_POOL, Tribe
from tribes.games.rise_of_tribes.invariants import check_invariants
from tribes.games.rise_of_tribes.state import NOBODY, Step

# -- Step 4 -------------------------------------------------------------------------------------


def test_active_player_orders_the_conflicts() -> None:
    """§5.6 step 1: with two conflict hexes the active player picks the next one."""
    s = build(members={2: {R: 6}, 7: {R: 3, B: 3}}, dice="-", pool="S")
    s = to_conflict(s)
    assert s.step is Step.CHOOSE_CONFLICT
    assert keys(s) == sorted([f"conflict:{key(s, 2)}", f"conflict:{key(s, 7)}"])
    s = do(s, f"conflict:{key(s, 7)}")
    assert s.members[7] == (0, 0, 0, 0) and s.step is Step.GOALS and s.members[2][R] == 5


def test_walls_defend_a_village_hex() -> None:
    """§5.6 step 4: a defender with Walls and a village there removes 1 attacker first."""
    s = build(
        members={4: {R: 4, B: 2}},
        villages={4: B},
        owned={B: (Event.WALLS,)},
        dice="-",
        pool="S",
    )
    s = to_conflict(s)
    assert s.step is Step.WALLS and s.actor == B and keys(s) == ["skip-walls", "walls"]
    s = do(s, "walls")
    # R3 B2 after the Walls: (2,1) then (1,0); B has none left there, so C1 razes it
    assert s.members[4][R] == 1 and s.members[4][B] == 0 and s.villages[4] == NOBODY


def test_bow_without_presence_is_allowed_but_is_no_raid() -> None:
    """§8.8 / G17 / G29: the Bow needs no presence; a fight R is not in never sets Raiders."""
    s = build(
        members={4: {B: 4, G: 2}, 0: {R: 1}},
        villages={4: G},
        completed={R: goals("D3")},
        in_progress={R: goals("A7")},
        dice="-",
        pool="S",
    )
    s = to_conflict(s)
    assert s.step is Step.BOW and keys(s) == ["bow:1", "bow:2", "skip-bow"]
    s = do(s, "bow:2")
    assert s.members[4][G] == 0 and s.villages[4] == NOBODY
    assert s.turn is not None and not s.turn.raided
    assert "complete:raiders" not in keys(s)


def test_bow_never_targets_invaders() -> None:
    """§8.8: the Bow targets tribe members only: invaders besides R give it no target (G17)."""
    s = build(
        members={2: {R: 6}},
        completed={R: goals("D3")},
        slots=(slot(Event.INVADERS), None),
        invaders=(2, 3),
        dice="-",
        pool="S",
    )
    s = to_conflict(s)
    assert s.step is Step.GOALS, "no Bow decision"
    assert s.members[2][R] == 3 and s.invader_hex == NOBODY


def test_invader_vp_needs_presence_at_the_start() -> None:
    """§8.28: defeated invaders give no VP if the active player was not in the hex."""
    s = build(
        members={2: {B: 6}, 0: {R: 1}},
        slots=(slot(Event.INVADERS), None),
        invaders=(2, 3),
        dice="-",
        pool="S",
    )
    s = to_conflict(s)
    assert s.invader_hex == NOBODY and s.players[R].vp == 0 and s.members[2][B] == 3


def test_drought_makes_a_single_colour_of_five_too_many() -> None:
    """§8.6 with Drought: R5 alone is trimmed to 4."""
    s = build(members={2: {R: 5}}, slots=(slot(Event.DROUGHT), None), dice="-", pool="S")
    s = to_conflict(s)
    assert s.members[2][R] == 4


def test_win_between_conflict_hexes_stops_the_game() -> None:
    """§8.31: invader VP reaching 15 ends the game with a hex still over the limit."""
    s = build(
        members={2: {R: 6}, 7: {R: 3, B: 3}},
        slots=(slot(Event.INVADERS), None),
        invaders=(2, 1),
        vp={R: 13},
        dice="-",
        pool="S",
    )
    s = to_conflict(s)
    s = do(s, f"conflict:{key(s, 2)}")
    assert s.winner == R and s.players[R].vp == 15 and sum(s.members[7]) == 6
    check_invariants(s)


# -- Step 5 -------------------------------------------------------------------------------------


def test_goals_are_optional_and_cards_drawn_now_are_completable() -> None:
    """§8.12: a card drawn this turn may be completed now; EndTurn is always legal."""
    s = build(
        members={0: {R: 1}},
        resources={R: (1, 1, 1)},
        decks={R: goals("D5", "A1")},
        dice="-",
        pool="S",
    )
    s = do(s, "assign:blank:lead", "lead-draw")
    assert s.step is Step.GOALS and "complete:fire" in keys(s) and "end-turn" in keys(s)


def test_villages_one_per_hex_shared_hex_allowed() -> None:
    """§8.11: a village may stand where opponents are, but never two in one hex."""
    s = build(
        members={4: {R: 1, B: 3}, 5: {R: 1}},
        villages={5: B},
        tribes={R: Tribe.KAHA, 3: Tribe.DABA},
        resources={R: (6, 4, 2)},
        step=Step.GOALS,
    )
    legal = keys(s)
    assert f"village:{key(s, 4)}" in legal and f"village:{key(s, 5)}" not in legal


def test_village_pool_exhaustion() -> None:
    """§8.25: with all 12 village tokens on the map, no village can be built (G20)."""
    members = {h: {B: 1} for h in range(VILLAGE_POOL)}
    members[13] = {R: 1}
    villages = dict.fromkeys(range(VILLAGE_POOL), B)
    s = build(members=members, villages=villages, resources={R: (9, 9, 9)}, step=Step.GOALS)
    assert not [k for k in keys(s) if k.startswith("village:")]


def test_shelters_names_the_omitted_resource() -> None:
    """§5.7: with Shelters, BuildVillage needs ``omit``: 3 options, each affordable or not."""
    cost = BOARD_OF[Tribe.KAHA].village_cost  # 3/2/1
    s = build(
        members={4: {R: 1}},
        tribes={R: Tribe.KAHA, 3: Tribe.DABA},
        completed={R: goals("D7")},
        resources={R: (2, 2, 1)},
        step=Step.GOALS,
    )
    assert cost == (3, 2, 1)
    villages = [k for k in keys(s) if k.startswith("village:")]
    assert villages == [f"village:{key(s, 4)}:food"], "only dropping a food is affordable"
    s = do(s, f"village:{key(s, 4)}:food")
    assert s.players[R].resources == (0, 0, 0) and s.villages[4] == R


def test_shared_knowledge() -> None:
    """§5.7: sharing a hex with an opponent, pay 1 onto the card for a goal card, once."""
    s = build(
        members={4: {R: 1, B: 1}},
        resources={R: (1, 1, 0)},
        slots=(slot(Event.SHARED_KNOWLEDGE, food=2), None),
        step=Step.GOALS,
    )
    assert [k for k in keys(s) if k.startswith("shared")] == [
        "shared-knowledge:food",
        "shared-knowledge:wood",
    ]
    top = s.players[R].goal_deck[0]
    s = do(s, "shared-knowledge:wood")
    assert s.players[R].in_progress == (top,) and s.players[R].resources == (1, 0, 0)
    assert s.slots[0] is None and s.event_discard == (Event.SHARED_KNOWLEDGE,), "3rd payment"
    alone = build(
        members={4: {R: 1}},
        resources={R: (1, 1, 0)},
        slots=(slot(Event.SHARED_KNOWLEDGE), slot(Event.INVADERS)),
        invaders=(4, 3),
        step=Step.GOALS,
    )
    assert not [k for k in keys(alone) if k.startswith("shared")], "invaders are no opponents"


def test_acquire_altar_and_offer() -> None:
    """§5.7: buy the Altar for 3 - tokens food; then sacrifice and pay for 1 VP, once a turn
    (G13)."""
    s = build(
        members={4: {R: 2}},
        resources={R: (6, 0, 0)},
        slots=(slot(Event.ALTAR, tokens=1), None),
        step=Step.GOALS,
    )
    s = do(s, "acquire:altar")
    assert s.players[R].owned_events == (Event.ALTAR,) and s.slots == (None, None)
    assert s.players[R].resources == (4, 0, 0)
    assert [k for k in keys(s) if k.startswith("altar:")] == [f"altar:{key(s, 4)}:4-food"]
    s = do(s, f"altar:{key(s, 4)}:4-food")
    assert s.players[R].vp == 1 and s.members[4][R] == 1
    assert not [k for k in keys(s) if k.startswith("altar:")]


def test_acquire_events_only_in_own_step_five() -> None:
    """§5.7 / G13: Altar and Walls are bought in the active player's Step 5, never in Step 3,
    even when affordable."""
    s = build(
        members={4: {R: 2}},
        resources={R: (6, 6, 6)},
        slots=(slot(Event.ALTAR), slot(Event.WALLS)),
        dice="-",
        pool="S",
    )
    assert s.step is Step.ACTION and not [k for k in keys(s) if k.startswith("acquire:")]
    s = to_conflict(s)
    assert s.step is Step.GOALS
    assert [k for k in keys(s) if k.startswith("acquire:")] == ["acquire:altar", "acquire:walls"]


def test_pottery_trade_may_take_any_type() -> None:
    """§8.15 / D4: each type held twice gives 3 trades (the type paid included), once a turn."""
    s = build(
        seats=3,
        members={4: {R: 1}},
        completed={R: goals("D4")},
        resources={R: (2, 1, 3)},
        step=Step.GOALS,
    )
    trades = [k for k in keys(s) if k.startswith("pottery:")]
    assert len(trades) == 6 and "pottery:food:food" in trades
    s = do(s, "pottery:stone:wood")
    assert s.players[R].resources == (2, 2, 1)
    assert not [k for k in keys(s) if k.startswith("pottery:")]


def test_achievement_conditions() -> None:
    """§3.6: A2 any connected shape, A3, A4 needs no invaders, A5, A6, A8."""
    cards = goals("A2", "A3", "A4", "A5", "A6", "A8")
    s = build(
        members={0: {R: 2}, 1: {R: 2, B: 1}, 2: {R: 1}, 4: {R: 2}, 3: {R: 4}, 8: {R: 2}},
        villages={0: R, 4: R},
        in_progress={R: cards},
        step=Step.GOALS,
    )
    legal = keys(s)
    for goal in (
        Goal.NEIGHBOURING_LANDS,
        Goal.WANDERERS,
        Goal.DOMINION,
        Goal.SETTLERS,
        Goal.GREAT_TRIBE,
        Goal.EXPANSION,
    ):
        assert f"complete:{goal.value}" in legal, goal
    invaded = build(
        members={0: {R: 1}, 1: {R: 1}},
        slots=(slot(Event.INVADERS), None),
        invaders=(1, 3),
        in_progress={R: goals("A4")},
        step=Step.GOALS,
    )
    assert "complete:dominion" not in keys(invaded), "invaders break Control"
    apart = build(
        members={0: {R: 1}, 8: {R: 1}, 13: {R: 1}}, in_progress={R: goals("A2")}, step=Step.GOALS
    )
    assert "complete:neighbouring-lands" not in keys(apart), "the three hexes must connect"


def test_vp_above_fifteen_are_kept() -> None:
    """§8.32: 13 VP + a 4-VP card = 17 VP, and the game is won at once (G30)."""
    s = build(
        members={h: {R: 1} for h in range(6)},
        vp={R: 13},
        in_progress={R: goals("A8")},
        step=Step.GOALS,
    )
    s = do(s, "complete:expansion")
    result = GAME.result(s)
    assert s.players[R].vp == 13 + GOAL_CARD[Goal.EXPANSION].vp == 17
    assert result is not None and result.scores[R] == 17 and result.winners == (R,)

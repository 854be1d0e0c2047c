"""Rule edges a rules audit verified by hand: Mild Winter's last counter (§5.5 GROW) and a
Chieftain auction that brings its winner to 15 VP (§5.0 C2, §5.4.4). A second audit added
the rules no other test asserted: end-of-turn flags and Shared Knowledge once per player
per turn, the Walls conditions, the Bow followed by the trim, the Abandoned Village pool,
the Chieftain hand-out, GROW into an invaded hex, Mammoth placement population, Discovery
types, one GATHER per hex per action, the volcano's "near" tribes, re-entry hexes, Evasion
during a raid, achievement thresholds and the Mammoth's four hunters."""

from __future__ import annotations

from dataclasses import replace

import pytest

from tests.games.rise_of_tribes.fixtures import (
    B,
    G,
    R,
    Y,
    build,
    do,
    draw,
    goals,
    key,
    keys,
    rigged_rng,
    roll_for_r,
    slot,
    to_conflict,
    top,
)
from tribes.games.rise_of_tribes import GAME
from tribes.games.rise_of_tribes.cards import Event
from tribes.games.rise_of_tribes.data import (
    ACTION_POWER,
    GATHER_YIELD,
    INVADERS_VP,
    Action,
    Face,
    Power,
    Tier,
    Tribe,
)
from tribes.games.rise_of_tribes.maps import Hex
from tribes.games.rise_of_tribes.state import NOBODY, State, Step


def test_mild_winter_last_counter_still_adds_two_then_the_card_is_discarded() -> None:
    """§5.5 GROW: "power N = tier value ... + 2 while Mild Winter is in a slot ... N is fixed
    when GROW is chosen, before the Mild Winter counter is removed"; "On choosing GROW, if
    Mild Winter is in a slot remove one of its counters ...; discard the card at 0".
    §3.7 E6: "discard when no tokens remain".

    The BLANK die on the GROW column gives BLANK, SUN, MOON: DEFAULT tier (§3.3), so
    N = 2 + 2 = 4 (as in Ex 6), although the counter taken was the card's last.
    """
    s = build(members={4: {R: 2}}, slots=(slot(Event.MILD_WINTER, tokens=1), None), dice="- S")
    s = do(s, "assign:blank:grow")
    assert s.slots == (None, None)
    assert s.event_discard == (Event.MILD_WINTER,)
    assert s.action is not None and s.action.power == 4
    for _ in range(4):
        assert s.step is Step.GROW
        s = do(s, f"grow:{key(s, 4)}")
    assert s.members[4][R] == 6
    assert s.step is Step.ACTION, "GROW auto-ends when placed = N"


@pytest.mark.parametrize(
    ("winner", "vp", "resources", "bids", "gain"),
    [
        (R, 13, {R: (3, 3, 3)}, ("bid:5", "drop-out", "drop-out", "drop-out"), 2),
        (B, 14, {B: (1, 0, 0)}, ("drop-out", "bid:1", "drop-out", "drop-out"), 1),
    ],
)
def test_chieftain_winner_reaching_15_vp_ends_the_game_before_paying(
    winner: int,
    vp: int,
    resources: dict[int, tuple[int, int, int]],
    bids: tuple[str, ...],
    gain: int,
) -> None:
    """§5.4.4: "Winner: +2 VP if the winning bid >= 5, else +1 VP. Then the winner pays the
    bid by ChiefGive". §5.0 C2: "if a player has >= 15 VP, that player wins and the game
    ends immediately" (checked after each atomic change; "Chieftain to its winner").
    §7: "the game stops, no further steps or turns".

    The VP come first, so the winner (the active player, or another seat) wins at once and
    nobody is handed a resource.
    """
    s0 = build(members={0: {R: 1}}, resources=resources, vp={winner: vp})
    s = roll_for_r(replace(s0, event_deck=top(s0.event_deck, Event.CHIEFTAIN)), Face.SUN, Face.SUN)
    assert s.step is Step.CHIEFTAIN_BID
    s = do(s, *bids)
    assert s.players[winner].vp == vp + gain == 15
    assert s.step is Step.GAME_OVER and s.winner == winner
    result = GAME.result(s)
    assert result is not None and result.winners == (winner,)
    assert keys(s) == []
    assert [p.resources for p in s.players] == [p.resources for p in s0.players]


# -- a second audit: rules no other test asserted -----------------------------------------------

SUN, MOON, BLANK = Face.SUN, Face.MOON, Face.BLANK


def test_turn_flags_and_moved_marks_are_cleared_for_the_next_player() -> None:
    """§5.8: "Clear turn flags and 'moved this turn' marks". §3.7 E11 / §8.22: Shared
    Knowledge is "at most once per turn per player". §5.5 MOVE: a member moves at most once
    per turn.

    R moves 2 into H4 (marked moved there) and pays Shared Knowledge; R may not pay again.
    On B's turn B's 2 members in H4 may move (R's marks are gone) and B, who shares H4
    with R, may pay Shared Knowledge although R already did.
    """
    s = build(
        members={3: {R: 2}, 4: {B: 2}},
        resources={R: (2, 0, 0), B: (1, 0, 0)},
        slots=(slot(Event.SHARED_KNOWLEDGE), None),
        dice="- S",
        rng=rigged_rng(SUN, MOON),
    )
    s = do(s, "assign:blank:move", f"move:{key(s, 3)}:{key(s, 4)}", "move-count:2")
    assert s.turn is not None and s.turn.moved[4] == 2
    s = do(s, "assign:sun:lead", "lead-draw")
    assert s.step is Step.GOALS and "shared-knowledge:food" in keys(s)
    s = do(s, "shared-knowledge:food")
    assert s.players[R].resources == (1, 0, 0)
    assert not [k for k in keys(s) if k.startswith("shared-knowledge")], "once per turn"
    s = do(s, "end-turn")
    assert s.active == B and s.step is Step.ACTION and s.turn is not None
    assert s.turn.dice_left == (SUN, MOON)
    assert not s.turn.shared_knowledge_used and s.turn.moved == (0,) * 15
    s = do(s, "assign:sun:move")  # MOVE row [S, -, S]: SUN tier, M = 4
    assert f"move:{key(s, 4)}:{key(s, 3)}" in keys(s)
    s = do(s, f"move:{key(s, 4)}:{key(s, 3)}")
    assert keys(s) == ["move-count:1", "move-count:2"], "both of B's members are unmoved"
    s = do(s, "move-count:1", "assign:moon:lead", "lead-draw")
    assert s.step is Step.GOALS and s.members[4] == (2, 1, 0, 0)
    assert [k for k in keys(s) if k.startswith("shared-knowledge")] == ["shared-knowledge:food"]
    s = do(s, "shared-knowledge:food")
    assert s.slots[0] == slot(Event.SHARED_KNOWLEDGE, food=2)


def test_walls_need_a_defending_owner_with_a_village_there_and_the_attacker_present() -> None:
    """§5.6 step 4: Walls for "each defender in seat order after the active player who owns
    Walls and a village in h, if the active player still has members in h". §3.7 E16:
    "when the owner defends in a conflict in a hex where they own a village". §8.7: Walls
    are defence only.

    None of these three fights asks for Walls, so each is plain rounds:
    B owns Walls but the village in H4 is G's: R4 B1 G1 -> (3,0,0), G's village falls;
    R owns Walls and the village (R is the attacker): R4 B2 -> (3,1) -> (2,0);
    G owns Walls and the village but R is not in H4: B4 G2 -> (3,1) -> (2,0).
    """

    def fight(members: dict[int, dict[int, int]], village: int, walls: int) -> State:
        s = build(
            members=members,
            villages={4: village},
            owned={walls: (Event.WALLS,)},
            dice="-",
            pool="S",
        )
        return to_conflict(s)

    others = fight({4: {R: 4, B: 1, G: 1}}, G, B)
    assert others.step is Step.GOALS
    assert others.members[4] == (3, 0, 0, 0) and others.villages[4] == NOBODY
    attacker = fight({4: {R: 4, B: 2}}, R, R)
    assert attacker.step is Step.GOALS
    assert attacker.members[4] == (2, 0, 0, 0) and attacker.villages[4] == R
    absent = fight({4: {B: 4, G: 2}, 0: {R: 1}}, G, G)
    assert absent.step is Step.GOALS
    assert absent.members[4] == (0, 2, 0, 0) and absent.villages[4] == NOBODY
    assert absent.turn is not None and not absent.turn.raided, "R took no part (G29)"


@pytest.mark.parametrize(
    ("r_count", "drought", "choice", "left"),
    [
        (5, False, "bow:1", 5),  # the Bow leaves R5 alone: not over 5, no round, no trim
        (5, False, "skip-bow", 4),  # the same fight without the Bow: (4,0)
        (7, False, "bow:1", 5),  # R7 alone after the Bow is trimmed to 5
        (5, True, "bow:1", 4),  # under Drought R5 alone is trimmed to the limit 4
    ],
)
def test_bow_then_trim_of_the_one_colour_left(
    r_count: int, drought: bool, choice: str, left: int
) -> None:
    """§5.6 step 3: "UseBow(target_player) removes 1 member of that opponent in h";
    step 5: rounds only "while >= 2 sides have >= 1 unit in h"; step 6: "if exactly one
    player remains in h with more members than limit, they remove members down to limit"
    (limit 4 while Drought is in a slot, §3.7 E3).

    R with the Bow against a lone B member in H2: after ``UseBow(B)`` no round is fought,
    and R is trimmed only down to the limit.
    """
    s = build(
        members={2: {R: r_count, B: 1}},
        completed={R: goals("D3")},
        slots=(slot(Event.DROUGHT) if drought else None, None),
        dice="-",
        pool="S",
    )
    s = to_conflict(s)
    assert s.step is Step.BOW and keys(s) == ["bow:1", "skip-bow"]
    s = do(s, choice)
    assert s.step is Step.GOALS
    assert s.members[2] == (left, 0, 0, 0)
    assert s.players[R].supply == 20 - left and s.players[B].supply == 20


def test_abandoned_village_needs_a_token_left_in_the_pool() -> None:
    """§5.4.5: AVBuild is legal only if "... the pool has a village token"; §2 / G20: 12
    village tokens, shared.

    With 11 villages built, R builds the 12th (paying 1/1/1) and B, who Controls H11 and
    holds 1/1/1, may then only pass; had R passed, B could have built there.
    """
    members = {h: {B: 1} for h in range(12)}
    members[13] = {R: 1}
    s0 = build(
        members=members,
        villages=dict.fromkeys(range(11), B),
        resources={R: (1, 1, 1), B: (1, 1, 1)},
    )
    s = draw(s0, Event.ABANDONED_VILLAGE, BLANK, BLANK)
    assert s.step is Step.ABANDONED_VILLAGE and s.actor == R
    assert keys(s) == [f"av-build:{key(s, 13)}", "av-pass"]
    passed = do(s, "av-pass")
    assert passed.actor == B and keys(passed) == [f"av-build:{key(s, 11)}", "av-pass"]
    s = do(s, f"av-build:{key(s, 13)}")
    assert s.villages[13] == R and s.players[R].resources == (0, 0, 0)
    assert s.actor == B and keys(s) == ["av-pass"]
    s = do(s, "av-pass", "av-pass", "av-pass")
    assert s.step is Step.ACTION and s.villages.count(B) == 11
    assert s.event_discard == (Event.ABANDONED_VILLAGE,)


def test_chieftain_winner_hands_the_bid_only_to_the_other_players() -> None:
    """§5.4.4: "the winner pays the bid by ChiefGive(type, to_player) repeated n times
    (type in resources the winner still holds; to_player != winner)"; §3.7 E14: +1 VP for
    a bid under 5, handed out "among the opponents in any split".

    B (not the active player) wins with 2 of its 1 food + 1 wood; the options are exactly
    the types B still holds times the three other seats, the active R included.
    """
    s0 = build(members={0: {R: 1}, 4: {B: 1}}, resources={B: (1, 1, 0)})
    s = draw(s0, Event.CHIEFTAIN, SUN, SUN)
    assert s.step is Step.CHIEFTAIN_BID and s.actor == R and keys(s) == ["drop-out"]
    s = do(s, "drop-out", "bid:2", "drop-out", "drop-out")
    assert s.step is Step.CHIEFTAIN_GIVE and s.actor == B and s.players[B].vp == 1
    assert keys(s) == sorted(f"give:{r}:{to}" for r in ("food", "wood") for to in (R, G, Y))
    s = do(s, f"give:wood:{R}")
    assert keys(s) == [f"give:food:{to}" for to in (R, G, Y)]
    s = do(s, f"give:food:{R}")
    assert s.step is Step.ACTION and s.actor == R
    assert [p.resources for p in s.players] == [(1, 1, 0), (0, 0, 0), (0, 0, 0), (0, 0, 0)]
    assert s.event_discard == (Event.CHIEFTAIN,) and s.players[R].vp == 0


def test_grow_into_an_invaded_hex_then_fight_the_invaders() -> None:
    """§5.5 GROW: GrowPlace is legal "for hexes that contained the player's members when the
    GROW began" (invaders do not block it; §3.7 E4 bans only GATHER and villages there);
    "No hex-limit check now". §5.6: the tokens never count toward the limit but fight as one
    side once the tribe members exceed it; step 7: the card is discarded and the active
    player, a starting side, gains 2 VP.

    R4 with 3 invaders in H2, SUN GROW (N = 3): R grows 2 there -> R6 > 5; rounds
    (5,2) (4,1) (3,0): R3, the invaders are gone.
    """
    s = build(
        members={2: {R: 4}},
        slots=(slot(Event.INVADERS), None),
        invaders=(2, 3),
        dice="S -",
    )
    s = do(s, "assign:sun:grow")
    assert s.action is not None and s.action.power == ACTION_POWER[Action.GROW][Tier.SUN]
    assert keys(s) == sorted([f"grow:{key(s, 2)}", "grow-done"])
    s = do(s, f"grow:{key(s, 2)}", f"grow:{key(s, 2)}", "grow-done")
    assert s.members[2][R] == 6 and s.invaders == 3
    s = do(s, "assign:blank:lead", "lead-draw")
    assert s.step is Step.GOALS
    assert s.members[2][R] == 3 and s.invader_hex == NOBODY and s.invaders == 0
    assert s.slots == (None, None) and s.event_discard == (Event.INVADERS,)
    assert s.players[R].vp == INVADERS_VP


def test_mammoth_placement_population_adds_every_tribe_and_the_invaders() -> None:
    """§3.7 E5 / §5.4.1: the mammoth goes on a lake "with minimum placement population
    (members + invaders)"; §3.7 / G24: "placement population = all tribe members plus
    invader tokens in the hex".

    Lakes H3 R1+B1 = 2, H6 R3 = 3, H9 B1+G1+Y1 = 3, H13 R2 = 2, H14 Y1 + 2 tokens = 3:
    the active player chooses between H3 and H13 only.
    """
    s0 = build(
        members={3: {R: 1, B: 1}, 6: {R: 3}, 9: {B: 1, G: 1, Y: 1}, 13: {R: 2}, 14: {Y: 1}},
        slots=(slot(Event.INVADERS), None),
        invaders=(14, 2),
    )
    s = draw(s0, Event.MAMMOTH, SUN, SUN)
    assert s.step is Step.PLACE_MAMMOTH and s.actor == R
    assert keys(s) == sorted([f"mammoth:{key(s, 3)}", f"mammoth:{key(s, 13)}"])
    s = do(s, f"mammoth:{key(s, 13)}")
    assert s.mammoth_hex == 13 and s.slots[1] == slot(Event.MAMMOTH)


def test_discovery_offers_the_types_left_and_ignores_tokens_beside_an_opponent() -> None:
    """§5.5 MOVE: "the mover chooses DiscoveryTake(type) among the types still on the card";
    the destination must have held ">= 1 opponent member ... and 0 own members before the
    move (tokens are ignored)". §8.17: any type, not just the destination's.

    H0 (a forest) holds B1 and 3 invader tokens; the card holds 2 food and 1 stone: R moving
    in may take food or stone (no wood), and takes food.
    """
    s = build(
        members={3: {R: 2}, 0: {B: 1}},
        slots=(slot(Event.DISCOVERY, 2, 0, 1), slot(Event.INVADERS)),
        invaders=(0, 3),
        dice="- S",
    )
    s = do(s, "assign:blank:move", f"move:{key(s, 3)}:{key(s, 0)}", "move-count:1")
    assert s.step is Step.DISCOVERY and keys(s) == ["discovery:food", "discovery:stone"]
    s = do(s, "discovery:food")
    assert s.players[R].resources == (1, 0, 0)
    assert s.slots[0] == slot(Event.DISCOVERY, 1, 0, 1) and s.step is Step.ACTION


def test_a_hex_is_gathered_once_per_gather_whatever_type_it_gave() -> None:
    """§5.5 GATHER: GatherHex is legal while "hex ... not chosen yet this action"; a hex next
    to the volcano offers its resource or STONE (§3.7 E12).

    2p map, volcano at (3,0) next to lake H5; R in H5 and forest H8; DEFAULT tier (2 hexes).
    After H5 gives STONE, neither H5 option is left, only H8; then the action ends.
    """
    s = build(seats=2, members={5: {R: 1}, 8: {R: 1}}, volcano=Hex(3, 0), dice="- S")
    s = do(s, "assign:blank:gather")
    assert keys(s) == sorted(
        [
            f"gather:{key(s, 5)}:food",
            f"gather:{key(s, 5)}:stone",
            f"gather:{key(s, 8)}:wood",
            "gather-done",
        ]
    )
    s = do(s, f"gather:{key(s, 5)}:stone")
    assert keys(s) == sorted([f"gather:{key(s, 8)}:wood", "gather-done"])
    s = do(s, f"gather:{key(s, 8)}:wood")
    assert s.step is Step.ACTION and s.players[R].resources == (0, GATHER_YIELD, GATHER_YIELD)


def test_volcano_near_is_fixed_before_the_eruption() -> None:
    """§5.4.3: "A tribe is near the volcano if, before the eruption, it has >= 1 member in
    at least one map hex adjacent to the volcano"; MOON: it loses 2 "(or all of its
    volcano-adjacent members, if fewer)", only from volcano-adjacent hexes; "Every tribe
    near the volcano gains 1 stone".

    2p, volcano at (3,0) (next to H2, H5). R has 1 member in H5 and 3 in H4; B is only in
    H8. MOON doubles: R loses its one adjacent member (not 2, nothing from H4) and still
    gains 1 stone although no R member is near the volcano afterwards; B gets nothing.
    """
    s0 = build(seats=2, members={5: {R: 1}, 4: {R: 3}, 8: {B: 2}}, volcano=Hex(3, 0))
    s = draw(s0, Event.VOLCANO, MOON, MOON)
    assert s.step is Step.ACTION and s.volcano == Hex(3, 0)
    assert s.members[5][R] == 0 and s.members[4][R] == 3 and s.members[8][B] == 2
    assert s.players[R].resources == (0, 0, 1) and s.players[B].resources == (0, 0, 0)
    assert Event.VOLCANO in s.event_deck and s.slots == (None, None)


def test_reentry_hexes_ignore_animals_and_fall_back_to_every_hex() -> None:
    """§5.1: ReEnter is legal on "any map hex with no tribe members and no invaders; if no
    such hex exists, any map hex". The tiger and the mammoth are neither.

    B has no member on the map. With the tiger on empty H2 and the mammoth on empty H3, every
    hex but R's H0 and G's H1 is open (13), those two included. With members in every hex
    but H5 and the invaders in H5, no hex is free: all 15, H5 included.
    """
    animals = build(
        members={0: {R: 1}, 1: {G: 1}},
        slots=(slot(Event.SABERTOOTH_TIGER), slot(Event.MAMMOTH)),
        tiger=2,
        mammoth=3,
        step=Step.GOALS,
    )
    animals = do(animals, "end-turn")
    assert animals.step is Step.RE_ENTER and animals.actor == B
    assert keys(animals) == sorted(f"re-enter:{key(animals, h)}" for h in range(2, 15))
    full = build(
        members={h: {R: 1} for h in range(15) if h != 5},
        slots=(slot(Event.INVADERS), None),
        invaders=(5, 3),
        step=Step.GOALS,
        rng=rigged_rng(SUN, MOON),  # B's roll after re-entering: no doubles
    )
    full = do(full, "end-turn")
    assert full.step is Step.RE_ENTER and full.actor == B
    assert keys(full) == sorted(f"re-enter:{key(full, h)}" for h in range(15))
    full = do(full, f"re-enter:{key(full, 5)}")
    assert full.members[5][B] == 2 and full.invaders == 3 and full.step is not Step.RE_ENTER


def test_evading_out_of_a_village_hex_is_a_raid() -> None:
    """(house) §3.5 Evasion: "right after step 2 ... C1 applies to h at once"; §5.6 step 7
    / §3.6 A7: Raiders is set "if the active player is in start_sides ... and a village of
    another player is destroyed at any point while h is being resolved".

    H3: R4, B2 and B's village. B (Evasion) takes both members to the empty H2: the village
    falls at once, R4 is alone and within the limit (no round, no trim), and R may complete
    Raiders.
    """
    s = build(
        members={3: {R: 4, B: 2}},
        villages={3: B},
        tribes={R: Tribe.DABA, B: Tribe.KIROR, G: Tribe.DANANU, Y: Tribe.INDARTSU},
        powers={R: Power.TRADER, B: Power.EVASION, G: Power.CUNNING, Y: Power.FARMING},
        in_progress={R: goals("A7")},
        dice="-",
        pool="S",
    )
    s = to_conflict(s)
    assert s.step is Step.EVADE and s.actor == B
    assert f"evade:{key(s, 2)}:2" in keys(s)
    s = do(s, f"evade:{key(s, 2)}:2")
    assert s.step is Step.GOALS and s.actor == R
    assert s.members[3] == (4, 0, 0, 0) and s.members[2] == (0, 2, 0, 0)
    assert s.villages[3] == NOBODY
    assert s.turn is not None and s.turn.raided and "complete:raiders" in keys(s)


def test_achievement_thresholds() -> None:
    """§3.6: A5 Settlers "2 or more villages", A6 Great Tribe "12 or more tribe members on
    the map", A8 Expansion "Occupy 6 or more hexes": one short of each is not enough."""
    cards = goals("A5", "A6", "A8")
    short = build(
        members={0: {R: 5}, 1: {R: 2}, 2: {R: 2}, 3: {R: 1}, 4: {R: 1}},
        villages={0: R},
        in_progress={R: cards},
        step=Step.GOALS,
    )
    assert sum(row[R] for row in short.members) == 11
    assert not [k for k in keys(short) if k.startswith("complete:")]
    enough = build(
        members={0: {R: 5}, 1: {R: 2}, 2: {R: 2}, 3: {R: 1}, 4: {R: 1}, 5: {R: 1}},
        villages={0: R, 1: R},
        in_progress={R: cards},
        step=Step.GOALS,
    )
    assert [k for k in keys(enough) if k.startswith("complete:")] == [
        "complete:expansion",
        "complete:great-tribe",
        "complete:settlers",
    ]


def test_mammoth_hunters_are_four_of_ones_own_members() -> None:
    """§3.7 E5 / §5.5 SpendDie: Hunt and Tame need "the player has >= 4 members in its hex";
    other players' members there do not count.

    R3 and B1 in the mammoth's lake, R holding 3 food: no SpendDie on the mammoth. With R4:
    both hunt and tame, for each face.
    """
    three = build(
        members={6: {R: 3, B: 1}},
        slots=(slot(Event.MAMMOTH), None),
        mammoth=6,
        resources={R: (3, 0, 0)},
        dice="S M",
    )
    assert not [k for k in keys(three) if k.startswith("spend:")]
    four = build(
        members={6: {R: 4, B: 1}},
        slots=(slot(Event.MAMMOTH), None),
        mammoth=6,
        resources={R: (3, 0, 0)},
        dice="S M",
    )
    assert [k for k in keys(four) if k.startswith("spend:")] == sorted(
        f"spend:{f}:mammoth-{t}" for f in ("sun", "moon") for t in ("hunt", "tame")
    )

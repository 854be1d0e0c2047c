"""Event resolution (§3.7, §5.4) and its clarifications (§8.17-§8.23, §8.29)."""

from __future__ import annotations

from dataclasses import replace

from tests.games.rise_of_tribes.fixtures import (
    B,
    G,
    R,
    Y,
    build,
    do,
    draw,
    key,
    keys,
    roll_for_r,
    slot,
)
from tribes.engine.driver import play
from tribes.games.rise_of_tribes import GAME
from tribes.games.rise_of_tribes.cards import Event
from tribes.games.rise_of_tribes.data import MAMMOTH_TAME_FOOD, MAMMOTH_TAME_VP, Face, Terrain
from tribes.games.rise_of_tribes.maps import Hex
from tribes.games.rise_of_tribes.moves import PlaceInvaders
from tribes.games.rise_of_tribes.state import NOBODY, Step

SUN, MOON, BLANK = Face.SUN, Face.MOON, Face.BLANK


def test_invaders_go_to_the_unique_least_populated_hex_automatically() -> None:
    """§5.4.1: PlaceInvaders is auto when one hex has the lowest placement population."""
    every = {h: {R: 1} for h in range(15) if h != 9}
    s = draw(build(members=every), Event.INVADERS, SUN, SUN)
    assert s.invader_hex == 9 and s.invaders == 3 and s.step is Step.ACTION


def test_invaders_placement_ties_are_the_active_players_choice() -> None:
    """§8.19: empty hexes are the least populated; the active player breaks ties."""
    s = draw(build(members={0: {R: 1}, 1: {B: 2}}), Event.INVADERS, SUN, SUN)
    assert s.step is Step.PLACE_INVADERS and s.actor == R
    assert len(keys(s)) == 13
    before = s
    rejected = PlaceInvaders(Hex(2, 0))  # H0 holds R's member: not least populated
    assert rejected not in GAME.legal_moves(s, R)
    assert s == before


def test_mammoth_goes_to_a_least_populated_lake() -> None:
    """§3.7 E5: invaders count in placement population (G24); unique lake is auto."""
    s0 = build(
        members={3: {R: 1}, 6: {B: 1}, 9: {G: 1}, 13: {Y: 1}},
        slots=(slot(Event.INVADERS), None),
        invaders=(14, 3),
    )
    s = draw(s0, Event.MAMMOTH, MOON, MOON)
    lakes = [h for h, t in enumerate(s.terrain) if t is Terrain.LAKE]
    assert lakes == [3, 6, 9, 13, 14]
    assert s.step is Step.PLACE_MAMMOTH, "four lakes with 1 each tie (14 has 3 invaders)"
    assert keys(s) == sorted(f"mammoth:{key(s, h)}" for h in (3, 6, 9, 13))
    s = do(s, f"mammoth:{key(s, 6)}")
    assert s.mammoth_hex == 6


def test_tiger_on_draw_bites_every_tribe_there() -> None:
    """§3.7 E10: the tiger goes on a mountain of the active player's choice; all there lose 1."""
    s0 = build(members={2: {R: 2, B: 1}, 5: {G: 1}})
    s = draw(s0, Event.SABERTOOTH_TIGER, SUN, SUN)
    mountains = [h for h, t in enumerate(s.terrain) if t is Terrain.MOUNTAIN]
    assert keys(s) == sorted(f"tiger:{key(s, h)}" for h in mountains)
    s = do(s, f"tiger:{key(s, 2)}")
    assert s.members[2][R] == 1 and s.members[2][B] == 0 and s.tiger_hex == 2


def test_mild_winter_is_loaded_with_one_counter_per_player() -> None:
    """§3.7 E6: one counter per player in the game."""
    s = draw(build(seats=3, members={0: {R: 1}}), Event.MILD_WINTER, SUN, SUN)
    assert s.slots[0] == slot(Event.MILD_WINTER, tokens=3)


def test_abandoned_village_round() -> None:
    """§5.4.5: each player from the active one may build in a hex they Control for 1/1/1."""
    s0 = build(
        members={0: {R: 1}, 1: {R: 1, B: 1}, 5: {B: 2}, 8: {G: 1}},
        villages={0: R},
        resources={R: (1, 1, 1), B: (2, 1, 1), G: (0, 1, 1)},
    )
    s = draw(s0, Event.ABANDONED_VILLAGE, BLANK, BLANK)
    assert s.step is Step.ABANDONED_VILLAGE and s.actor == R
    assert keys(s) == ["av-pass"], "R Controls H0 only, and it has a village"
    s = do(s, "av-pass")
    assert s.actor == B and keys(s) == [f"av-build:{key(s, 5)}", "av-pass"]
    s = do(s, f"av-build:{key(s, 5)}")
    assert s.villages[5] == B and s.players[B].resources == (1, 0, 0)
    assert s.actor == G and keys(s) == ["av-pass"], "G lacks food"
    s = do(s, "av-pass", "av-pass")
    assert s.step is Step.ACTION and s.event_discard == (Event.ABANDONED_VILLAGE,)


def test_chieftain_auction() -> None:
    """§5.4.4 (G14): bids rise round the table, drop-outs are final, the winner pays it out."""
    s0 = build(
        members={0: {R: 1}},
        resources={R: (2, 2, 2), B: (1, 1, 1), G: (0, 0, 0), Y: (3, 0, 0)},
    )
    s = draw(s0, Event.CHIEFTAIN, SUN, SUN)
    assert s.step is Step.CHIEFTAIN_BID and s.actor == R
    assert keys(s) == ["bid:1", "bid:2", "bid:3", "bid:4", "bid:5", "bid:6", "drop-out"]
    s = do(s, "bid:2")
    assert s.actor == B and keys(s) == ["bid:3", "drop-out"]
    s = do(s, "bid:3")
    assert s.actor == G and keys(s) == ["drop-out"], "G holds nothing above the high bid"
    s = do(s, "drop-out")
    assert s.actor == Y
    s = do(s, "drop-out", "bid:5", "drop-out")  # Y out, R bids 5, B out: R wins with 5
    assert s.step is Step.CHIEFTAIN_GIVE and s.actor == R
    assert s.players[R].vp == 2, "a winning bid of 5 or more gives 2 VP"
    s = do(s, "give:food:1", "give:food:1", "give:wood:2", "give:wood:3", "give:stone:3")
    assert s.players[R].resources == (0, 0, 1)
    assert [p.resources for p in s.players[1:]] == [(3, 1, 1), (0, 1, 0), (3, 1, 1)]
    assert s.step is Step.ACTION and s.event_discard == (Event.CHIEFTAIN,)


def test_chieftain_without_bids_goes_back_into_the_deck() -> None:
    """§3.7 E14: nobody bids: the card is shuffled back into the event deck."""
    s0 = build(members={0: {R: 1}})
    s = draw(s0, Event.CHIEFTAIN, SUN, SUN)
    s = do(s, "drop-out", "drop-out", "drop-out", "drop-out")
    assert s.step is Step.ACTION and Event.CHIEFTAIN in s.event_deck
    assert s.event_discard == () and all(p.vp == 0 for p in s.players)


def test_small_chieftain_bid_gives_one_vp() -> None:
    """§3.7 E14: a winning bid under 5 gives 1 VP."""
    s0 = build(members={0: {R: 1}}, resources={B: (1, 0, 0)})
    s = draw(s0, Event.CHIEFTAIN, SUN, SUN)
    s = do(s, "drop-out", "bid:1", "drop-out", "drop-out")
    assert s.players[B].vp == 1 and s.step is Step.CHIEFTAIN_GIVE and s.actor == B


def test_volcano_second_eruption_and_sun_doubles() -> None:
    """§5.4.3: once placed the volcano just erupts; SUN doubles cost nobody a member."""
    s0 = build(seats=2, members={5: {R: 2}, 2: {B: 3}}, volcano=Hex(3, 0))
    s = draw(s0, Event.VOLCANO, SUN, SUN)
    assert s.volcano == Hex(3, 0) and s.step is Step.ACTION
    assert s.members[5][R] == 2 and s.members[2][B] == 3
    assert s.players[R].resources == (0, 0, 1) and s.players[B].resources == (0, 0, 1)


def test_volcano_losses_go_round_from_the_active_player() -> None:
    """§5.4.3: near tribes lose in seat order from the active player; single hexes are auto."""
    s0 = build(seats=2, members={2: {B: 3}, 5: {R: 1, B: 1}, 4: {R: 1}}, volcano=Hex(3, 0))
    s = draw(s0, Event.VOLCANO, MOON, MOON)
    # R loses its only volcano-adjacent member (H5) automatically; B chooses between H2/H5
    assert s.step is Step.VOLCANO_LOSS and s.actor == B
    assert s.members[5][R] == 0
    s = do(s, f"volcano-loss:{key(s, 2)}", f"volcano-loss:{key(s, 2)}")
    assert s.members[2][B] == 1 and s.members[5][B] == 1 and s.step is Step.ACTION


def test_volcano_is_placed_anywhere_without_own_members_nearby() -> None:
    """§5.4.1: with no own hex next to a site, every site is legal."""
    s0 = build(seats=2, members={4: {R: 1}, 0: {B: 1}})
    s = draw(s0, Event.VOLCANO, BLANK, BLANK)
    assert len(keys(s)) == 8


def test_discovery_leaves_when_empty() -> None:
    """§3.7 E2: the card is discarded when its last resource is taken."""
    s = build(
        members={0: {B: 1}, 3: {R: 1}},
        slots=(slot(Event.DISCOVERY, 0, 0, 1), None),
        dice="- S",
    )
    s = do(s, "assign:blank:move", f"move:{key(s, 3)}:{key(s, 0)}", "move-count:1")
    assert keys(s) == ["discovery:stone"]
    s = do(s, "discovery:stone")
    assert s.slots == (None, None) and s.event_discard == (Event.DISCOVERY,)


def test_discovery_ignores_hexes_holding_only_invaders() -> None:
    """§8.17: invader tokens are not opponents: moving onto them gives nothing."""
    s = build(
        members={3: {R: 1}},
        slots=(slot(Event.DISCOVERY, 2, 2, 2), slot(Event.INVADERS)),
        invaders=(0, 3),
        dice="- S",
    )
    s = do(s, "assign:blank:move", f"move:{key(s, 3)}:{key(s, 0)}", "move-count:1")
    assert s.step is Step.ACTION


def test_tokens_return_when_their_card_leaves() -> None:
    """§8.29: a hunted mammoth leaves the map with its card, free to be drawn again (G28)."""
    s = build(
        members={6: {R: 4}},
        slots=(slot(Event.MAMMOTH), None),
        mammoth=6,
        dice="S M",
    )
    s = do(s, "spend:sun:mammoth-hunt")
    assert s.mammoth_hex == NOBODY and Event.MAMMOTH in s.event_discard


def test_drought_leaves_on_the_next_doubles() -> None:
    """§8.18: Drought stays until a doubles roll sends it to the discard pile."""
    s0 = build(members={0: {R: 1}}, slots=(slot(Event.DROUGHT), None))
    s = roll_for_r(s0, SUN, MOON)
    assert s.slots[0] == slot(Event.DROUGHT)
    s = roll_for_r(s0, MOON, MOON)
    assert all(x is None or x.event is not Event.DROUGHT for x in s.slots)
    assert Event.DROUGHT in s.event_discard


def test_player_outside_the_decision_cannot_move() -> None:
    """Only the pending actor has legal moves (the driver refuses the others)."""
    s = draw(build(members={0: {R: 1}}), Event.CHIEFTAIN, SUN, SUN)
    assert GAME.legal_moves(s, B) == ()
    assert GAME.to_act(s) == (R,)
    moved = play(GAME, s, R, GAME.legal_moves(s, R)[-1])
    assert moved.actor == B


def test_tamed_mammoth_leaves_the_map_for_good() -> None:
    """§3.7 E5 / §8.29 / G11: taming pays 3 food for 3 VP; the mammoth leaves the map with
    its card and has no ongoing effect, so a later Mammoth draw places the token afresh."""
    s = build(
        members={6: {R: 4}},
        slots=(slot(Event.MAMMOTH), None),
        mammoth=6,
        resources={R: (MAMMOTH_TAME_FOOD, 0, 0)},
        dice="S M",
    )
    s = do(s, "spend:moon:mammoth-tame")
    assert s.players[R].resources == (0, 0, 0) and s.players[R].vp == MAMMOTH_TAME_VP
    assert s.players[R].mammoth_tamed and s.mammoth_hex == NOBODY
    assert s.slots == (None, None) and s.event_discard == (Event.MAMMOTH,)
    s = do(s, "assign:sun:lead", "lead-draw")
    s = replace(s, event_deck=(Event.MAMMOTH, *s.event_deck), event_discard=())
    s = roll_for_r(s, SUN, SUN)
    assert s.players[R].vp == MAMMOTH_TAME_VP, "no VP or other effect on later turns"
    assert s.step is Step.PLACE_MAMMOTH
    assert keys(s) == sorted(f"mammoth:{key(s, h)}" for h in (3, 9, 13, 14))
    s = do(s, f"mammoth:{key(s, 3)}")
    assert s.mammoth_hex == 3 and s.slots[0] == slot(Event.MAMMOTH)

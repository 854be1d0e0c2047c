"""Edge cases of the rules spec that a rules audit checked by hand, one test per case.

Players A, B, C, D are seats 0, 1, 2, 3; tiles are written ``(row, col)`` on layout L
(spec §9). Every expected value is taken from the spec section quoted in the docstring.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

from tests.games.five_tribes.fixtures import (
    at_turn,
    bidding,
    build,
    cards,
    djinns,
    do,
    gold,
    hand,
    keys,
    meeples,
    t,
)
from tribes.engine import IllegalMoveError
from tribes.games.five_tribes import GAME
from tribes.games.five_tribes.data import Djinn
from tribes.games.five_tribes.invariants import check_invariants
from tribes.games.five_tribes.rules.rounds import game_over
from tribes.games.five_tribes.rules.scoring import score_sheet
from tribes.games.five_tribes.state import State, Step

A, B, C, D = 0, 1, 2, 3


def _bag_change(before: State, after: State) -> tuple[int, ...]:
    """Meeples added to the bag between two states, per colour."""
    return tuple(new - old for old, new in zip(before.bag, after.bag, strict=True))


# -- Placement modifiers and returns (§5.2, §5.9) ------------------------------------------


def test_lamia_on_the_oasis_action_resumes_at_sale_and_place_here_is_free() -> None:
    """§5.2: "A sub-decision opened by the tile action itself (Village/Oasis with
    Hagis/Lamia usable) resumes at SALE, because the tile action is then complete."
    §5.9: "`PlaceHere()` (no payment, Hagis stays unused) ... Same for Palm Trees with
    Lamia (PLACE_PALM)"; redirects go to the 8-neighbourhood of the intended tile."""
    state = build(board={(0, 4): "Y", (0, 5): "YG"}, players={A: {"djinns": "lamia", "elders": 1}})
    state = at_turn(state, A, later=(B, C))
    state = do(state, "pickup:0-4", "drop:0-5:y", "resolve-tribe", "palm")
    assert state.step is Step.PLACE_PALM
    assert keys(state) == ["place-here", "redirect:0-4:e", "redirect:1-4:e", "redirect:1-5:e"]
    state = do(state, "place-here")
    assert state.step is Step.SALE
    assert state.palms[t(0, 5)] == 1 and state.palm_supply == 11
    player = state.players[A]
    assert Djinn.LAMIA not in player.used and player.elders == 1
    check_invariants(state)


def test_bouraq_used_in_tile_resumes_at_tile() -> None:
    """§5.2: "A Djinn that opens a sub-decision (Bouraq/Enki with Hagis/Lamia usable →
    PLACE_PALACE/PLACE_PALM ...) sets `return_step` to that step; when the sub-decision is
    resolved the turn resumes there." Back in TILE the Oasis palm is still compulsory
    (§5.8), so `PlacePalm()` is the only move (Bouraq is used, Hagis is not a UseDjinn)."""
    players = {A: {"djinns": "bouraq hagis", "elders": 2}}
    state = build(board={(0, 4): "Y", (0, 5): "YG"}, players=players)
    state = at_turn(state, A, later=(B, C))
    state = do(state, "pickup:0-4", "drop:0-5:y", "resolve-tribe")
    assert state.step is Step.TILE
    state = do(state, "djinn:bouraq:e:0-3")
    assert state.step is Step.PLACE_PALACE
    state = do(state, "place-here")
    assert state.step is Step.TILE
    assert state.palaces[t(0, 3)] == 1 and state.palms[t(0, 5)] == 0
    assert keys(state) == ["palm"]


# -- Bidding (§5.3) ------------------------------------------------------------------------


def test_broke_kumarbi_owner_bids_one_with_a_fakir_instead_of_overflow() -> None:
    """§5.3: "`Bid(OVERFLOW)`: legal only if no other `Bid` is legal (all 3 zero spots
    taken and the player cannot afford any free paid spot, even with Kumarbi)"; with
    Kumarbi and 1 Fakir, `Bid(1, k=1)` costs `LADDER[0] = 0`, while `Bid(3, k=1)` costs 1.
    The marker is on a paid spot, so it plays before every zero marker."""
    players = {D: {"gold": 0, "djinns": "kumarbi", "cards": "fakir"}}
    state = bidding(build(seats=4, players=players), [A, B, C, D])
    state = do(state, "bid:0", "bid:0", "bid:0")
    assert keys(state) == ["bid:1:k1"]
    state = do(state, "bid:1:k1")
    player = state.players[D]
    assert player.gold == 0 and player.fakirs == 0 and Djinn.KUMARBI in player.used
    assert state.turn is not None and state.turn.marker == D
    assert state.zero_aisle == (C, B, A) and state.overflow == ()


# -- Assassins (§5.7, §8) ------------------------------------------------------------------


def test_iblis_on_three_meeples_of_one_colour_offers_one_kill() -> None:
    """§5.7: "`M` is a sub-multiset of `t`'s meeples with `|M| = min(K, |t.meeples|)`"
    (K = 2 with Iblis); the only 2-meeple sub-multiset of [G, G, G] is [G, G]."""
    players = {A: {"djinns": "iblis", "elders": 1}}
    state = build(board={(0, 0): "R", (0, 1): "R", (1, 1): "GGG"}, players=players)
    state = at_turn(state, A, later=(B, C))
    state = do(state, "djinn:iblis:e", "pickup:0-0", "drop:0-1:r")
    assert keys(state) == ["kill:1-1:gg"]
    before = state
    state = do(state, "kill:1-1:gg")
    assert state.meeples[t(1, 1)] == meeples("G")
    assert _bag_change(before, state) == meeples("GGRR")


def test_nekir_pays_when_kandicha_steals_a_vizier() -> None:
    """§10 item 3: "Kandicha's 'place it in front of you instead of killing it' still
    counts as a kill for Nekir"; §5.9 Nekir: "+2 GC" when the killer is an opponent."""
    players = {A: {"djinns": "kandicha"}, B: {"viziers": 1}, C: {"djinns": "nekir"}}
    state = build(board={(0, 0): "R", (0, 1): "R"}, players=players)
    state = at_turn(state, A, later=(B, C))
    state = do(state, "pickup:0-0", "drop:0-1:r", "kill:p1:y")
    assert state.players[A].viziers == 1 and state.players[B].viziers == 0
    assert state.players[C].gold == 52
    check_invariants(state)


# -- Djinn draws (§5.9, §10 items 12-13) ---------------------------------------------------


def test_sibittis_drawing_one_djinn_offers_one_keep() -> None:
    """§5.9 Sibittis: "Draw min(3, pile + discard) ... → SIBITTIS_KEEP: one `KeepDjinn(d)`
    per drawn Djinn (also when only 1 was drawn)"."""
    state = build(
        board={(0, 0): "Y", (0, 1): "Y"}, players={A: {"djinns": "sibittis", "elders": 2}}
    )
    state = at_turn(state, A, later=(B, C))
    rest = tuple(d for d in Djinn if d not in (Djinn.SIBITTIS, Djinn.BOAZ, *state.djinn_display))
    state = replace(
        state,
        djinn_pile=djinns("boaz"),
        djinn_discard=(),
        players=(state.players[A], replace(state.players[B], djinns=rest), state.players[C]),
    )
    state = do(state, "djinn:sibittis:ee")
    assert state.step is Step.SIBITTIS_KEEP
    assert keys(state) == ["keep:boaz"]
    state = do(state, "keep:boaz")
    assert Djinn.BOAZ in state.players[A].djinns
    assert state.step is Step.START and state.djinn_discard == ()
    check_invariants(state)


def test_anun_nak_with_two_meeples_in_the_bag_places_both() -> None:
    """§10 item 12: "Anun-Nak with fewer than 3 meeples in the bag — place all that are
    left"; §8: "with 1-2 meeples in the bag after payment it places what there is"."""
    players = {A: {"djinns": "anun-nak", "cards": "fakir"}}
    state = build(board={(0, 0): "Y", (0, 1): "Y"}, players=players, bag="RG")
    state = at_turn(state, A, later=(B, C))
    state = do(state, "djinn:anun-nak:f:2-2")
    assert state.meeples[t(2, 2)] == meeples("GR")
    assert state.bag == meeples("")
    assert state.players[A].fakirs == 0 and state.step is Step.START


# -- Markets (§5.8, §10 item 10) -----------------------------------------------------------


def test_large_market_with_a_two_card_row_offers_one_pair() -> None:
    """§5.8: "`LargeMarket({i, j})` with `i < j < min(6, len(row))`" ... "take the chosen
    cards (exactly `min(2, len(row))`)"; with 2 cards the only choice is {0, 1}."""
    state = build(board={(0, 1): "Y", (1, 1): "Y"}, row="fish silk")
    state = at_turn(state, A, later=(B, C))
    state = do(state, "pickup:0-1", "drop:1-1:y", "resolve-tribe")
    assert keys(state) == ["large-market:0,1", "skip-tile"]
    state = do(state, "large-market:0,1")
    assert state.players[A].gold == 44
    assert state.players[A].cards == hand("fish silk")
    assert state.resource_row == ()


# -- Clean-up (§5.11) ----------------------------------------------------------------------


def test_cleanup_refills_the_rows_in_the_last_round() -> None:
    """§5.11 step 4: "Steps 1-3 are always performed first, also in the last round": the
    resource row is dealt back to 9 cards and the Djinn display to 3 before GAME_OVER."""
    state = build(board={(0, 0): "Y", (0, 1): "Y"}, row="fish")
    state = at_turn(state, C, step=Step.SALE, played=(A, B))
    state = replace(state, end_triggered=True, djinn_display=djinns("enki"))
    pile, djinn_pile = state.resource_pile, state.djinn_pile
    state = do(state, "end-turn")
    assert state.step is Step.GAME_OVER
    assert state.resource_row == cards("fish") + pile[:8]
    assert state.djinn_display == djinns("enki") + djinn_pile[:2]


# -- Worked examples: parts test_examples.py does not assert (§9) --------------------------


def test_e3_next_round_bid_order_alternates_the_players() -> None:
    """E3: play order A1, B2, A2, B1; "next round's bid order A, B, A, B" (§5.11 step 5:
    `bid_order = next_bid_order`, the order in which the markers played)."""
    a1, b1, a2, b2 = 0, 1, 2, 3
    board = {(r, c): "YWG" for r in range(5) for c in range(6)}
    state = bidding(build(seats=2, board=board), [a1, b1, b2, a2])
    state = do(state, "bid:5", "bid:0", "bid:1", "bid:0")
    for _ in range(4):
        while state.step is not Step.SALE:
            state = do(state, keys(state)[0])
        state = do(state, "end-turn")
    assert state.step is Step.BID and state.round == 2
    assert state.bid_order == (a1, b2, a2, b1)
    assert [state.marker_owner(m) for m in state.bid_order] == [A, B, A, B]


def test_e9_variant_kill_on_the_final_tile_returns_two_assassins_and_the_vizier() -> None:
    """E9 variant: "`Assassinate(tile=(0,1), kills=[Y], fakirs=0)` empties the final tile
    → A places a camel on (0,1) at A4b ...; bag +2 R +1 Y"."""
    players: dict[int, dict[str, object]] = {
        B: {"djinns": "boaz", "viziers": 4, "elders": 2},
        C: {"djinns": "nekir", "viziers": 3, "elders": 1, "gold": 10},
    }
    state = build(board={(0, 0): "R", (0, 1): "RY"}, players=players)
    state = do(at_turn(state, A, later=(B, C)), "pickup:0-0", "drop:0-1:r")
    before = state
    state = do(state, "kill:0-1:y")
    assert _bag_change(before, state) == meeples("RRY")
    assert state.meeples[t(0, 1)] == meeples("")
    check_invariants(state)


def test_e15_end_value_of_the_redirected_palace_tile_with_a_palm() -> None:
    """E15: "End value of (1,3) for A: 8 + 5 (palace) + 3 per palm on it" (§7.2: tile
    value + palms x 3 + palaces x 5); A also owns (0,3) V (5) with no palace on it."""
    players = {B: {"djinns": "marid"}, C: {"djinns": "monkir"}}
    players[A] = {"djinns": "hagis", "cards": "fakir"}
    owners = {(0, 1): B, (0, 2): B, (1, 3): A}
    state = build(board={(0, 0): "GWY", (0, 3): "Y"}, owners=owners, players=players)
    state = at_turn(state, A, later=(B, C))
    state = do(state, "pickup:0-0", "drop:0-1:g", "drop:0-2:w", "drop:0-3:y", "resolve-tribe")
    state = do(state, "palace", "redirect:1-3:f")
    assert state.owners[t(0, 3)] == A and state.palaces[t(0, 3)] == 0
    palms = tuple(1 if tile == t(1, 3) else n for tile, n in enumerate(state.palms))
    state = replace(state, palms=palms, palm_supply=state.palm_supply - 1)
    sheet = score_sheet(state, A)
    assert (sheet.tiles, sheet.palaces, sheet.palms) == (5 + 8, 5, 3)


# -- Audit 2: bidding and turn order (§1, §5.3) --------------------------------------------


def _markers_in_play_order(state: State) -> list[int]:
    """Play out an action phase on a board with no legal move (SkipMovement, EndTurn) and
    return the markers in the order their turns started."""
    started = []
    while state.step is not Step.GAME_OVER and state.step is not Step.BID:
        assert state.turn is not None and keys(state) == ["skip-movement"]
        started.append(state.turn.marker)
        state = do(state, "skip-movement", "end-turn")
    return started


def test_paid_spots_play_high_to_low_whatever_the_bid_order() -> None:
    """§5.3 "Play order": "paid spots in descending cost (18, 12, 8, 5, 3, 1), then
    `zero_aisle` from index 0"; a zero bid goes to the front of the aisle. Bids A 1,
    B 0, C 18, D 0 → play order C, A, D, B; each pays the cost of his spot."""
    state = bidding(build(seats=4), [A, B, C, D])
    state = do(state, "bid:1", "bid:0", "bid:18", "bid:0")
    assert gold(state) == (49, 50, 32, 50)
    assert _markers_in_play_order(state) == [C, A, D, B]


def test_two_player_markers_of_one_seat_bid_and_play_back_to_back() -> None:
    """§1: in 2p "each marker bids separately and takes its own action turn, so a player
    plays twice per round (possibly twice in a row ...)"; §3.5: a paid spot holds one
    marker, also against the same player's other marker. Markers 0, 2 are A's."""
    state = bidding(build(seats=2), [0, 2, 1, 3])
    assert GAME.to_act(state) == (A,)
    state = do(state, "bid:18")
    assert GAME.to_act(state) == (A,) and "bid:18" not in keys(state)
    state = do(state, "bid:12")
    assert GAME.to_act(state) == (B,)
    state = do(state, "bid:0")
    assert GAME.to_act(state) == (B,)
    state = do(state, "bid:0")
    assert gold(state) == (50 - 18 - 12, 50)
    assert _markers_in_play_order(state) == [0, 2, 3, 1]


# -- Audit 2: Djinn costs and conditions (§5.9) --------------------------------------------


def test_leta_and_utug_are_not_offered_without_a_camel() -> None:
    """§5.9: Leta and Utug are possible only if `camels_left > 0` (A has placed all 8
    camels: row 4 and (3,0), (3,1)); the START moves are exactly the two pick-ups."""
    owners = {(4, c): A for c in range(6)} | {(3, 0): A, (3, 1): A}
    players = {A: {"djinns": "leta utug", "elders": 4, "cards": "fakir"}}
    state = build(board={(0, 0): "Y", (0, 1): "Y"}, owners=owners, players=players)
    state = at_turn(state, A, later=(B, C))
    assert state.players[A].camels == 0
    assert keys(state) == ["pickup:0-0", "pickup:0-1"]
    with pytest.raises(IllegalMoveError, match="power is not possible"):
        do(state, "djinn:leta:ee:2-0")


@pytest.mark.parametrize(
    ("owned", "use", "attr", "where"),
    [
        ("bouraq hagis", "djinn:bouraq:f:0-3", "palaces", (0, 3)),
        ("enki lamia", "djinn:enki:f:0-5", "palms", (0, 5)),
    ],
    ids=["bouraq-hagis", "enki-lamia"],
)
def test_redirect_djinn_paid_out_by_the_placing_djinn_is_not_usable(
    owned: str, use: str, attr: str, where: tuple[int, int]
) -> None:
    """§5.9: Hagis/Lamia is usable only with ">=1 Elder or >=1 Fakir (counted after any
    payment already made for this placement, e.g. Bouraq's)". Paying Bouraq/Enki with the
    only Fakir leaves nothing: no PLACE_* sub-decision, the piece lands at once on the
    chosen tile and the turn stays in START; the redirect Djinn stays unused."""
    state = build(
        board={(0, 0): "Y", (0, 1): "Y"}, players={A: {"djinns": owned, "cards": "fakir"}}
    )
    state = do(at_turn(state, A, later=(B, C)), use)
    assert state.step is Step.START and state.turn is not None and state.turn.pending is None
    assert getattr(state, attr)[t(*where)] == 1 and sum(getattr(state, attr)) == 1
    player = state.players[A]
    assert player.fakirs == 0 and player.used == djinns(owned)[:1]
    assert state.resource_discard == cards("fakir")


def test_iblis_used_in_tribe_recomputes_the_kills() -> None:
    """§5.2: after a `UseDjinn` "the turn stays in the same step and its legal moves are
    recomputed"; §5.7: "`UseDjinn` moves are also legal in TRIBE (e.g. Iblis ...)". Before
    Iblis one kill (Y or W) on (1,1); after it exactly one move, killing both."""
    players = {A: {"djinns": "iblis", "elders": 1}}
    state = build(board={(0, 0): "R", (0, 1): "R", (1, 1): "YW"}, players=players)
    state = do(at_turn(state, A, later=(B, C)), "pickup:0-0", "drop:0-1:r")
    assert keys(state) == ["djinn:iblis:e", "kill:1-1:w", "kill:1-1:y"]
    state = do(state, "djinn:iblis:e")
    assert state.step is Step.TRIBE and keys(state) == ["kill:1-1:yw"]
    before = state
    state = do(state, "kill:1-1:yw")
    assert _bag_change(before, state) == meeples("YWRR")
    assert state.owners[t(1, 1)] == A and state.players[A].camels == 6


# -- Audit 2: Assassins, camels and Kandicha (§5.7, §7.1, §8) ------------------------------


def _red_on_0_1(**spec: Any) -> State:
    """A collects 2 Assassins on (0,1) (which keeps a Vizier, so no camel there); (0,2)
    holds one Merchant at distance 1. ``spec`` goes to ``build``."""
    state = build(board={(0, 0): "R", (0, 1): "RY", (0, 2): "G"}, **spec)
    return do(at_turn(state, A, later=(B, C)), "pickup:0-0", "drop:0-1:r")


def test_last_camel_placed_by_an_assassination_triggers_the_end() -> None:
    """§5.7 A4b: the killer places a camel on the emptied tile, "`end_triggered` if it was
    his last" (§7.1 "by assassination"); "A tile gained by assassination gives no tile
    action": TILE is still the Small Market (0,1), not the Sacred Place (0,2)."""
    owners = {(4, c): A for c in range(6)} | {(3, 0): A}
    state = _red_on_0_1(owners=owners, players={A: {"elders": 2}})
    assert state.players[A].camels == 1 and not state.end_triggered
    assert keys(state) == ["kill:0-1:y", "kill:0-2:g"]
    state = do(state, "kill:0-2:g")
    assert state.owners[t(0, 2)] == A and state.owners[t(0, 1)] is None
    assert state.players[A].camels == 0 and state.end_triggered
    assert state.step is Step.TILE
    assert keys(state) == ["skip-tile", "small-market:0", "small-market:1", "small-market:2"]


def test_assassinating_the_last_meeple_of_an_owned_tile_changes_no_owner() -> None:
    """§8: "the target tile must become completely empty; it must not already have an
    owner" — emptying B's tile leaves it B's and A places no camel."""
    state = do(_red_on_0_1(owners={(0, 2): B}), "kill:0-2:g")
    assert state.meeples[t(0, 2)] == meeples("")
    assert state.owners[t(0, 2)] == B and state.players[A].camels == 8
    assert not state.end_triggered


def test_kandicha_merchant_draw_reshuffles_the_resource_discard_pile() -> None:
    """§5.7 Kandicha: "each killed G ... the killer draws 1 card from the top of the
    resource draw pile (reshuffle rule as in §5.11)": with an empty pile the discard pile
    becomes the new pile, so A draws its only card."""
    state = _red_on_0_1(players={A: {"djinns": "kandicha"}})
    state = replace(state, resource_pile=(), resource_discard=cards("silk"))
    state = do(state, "kill:0-2:g")
    assert state.players[A].cards == hand("silk")
    assert state.resource_pile == () and state.resource_discard == ()


# -- Audit 2: tile actions (§5.8, §8) ------------------------------------------------------


def _ending_on_village(**spec: Any) -> State:
    """A moves a Vizier from (0,4) onto (0,3) V = [Y, G] and resolves it (TILE step)."""
    state = build(board={(0, 4): "Y", (0, 3): "YG"}, **spec)
    state = at_turn(state, A, later=(B, C))
    return do(state, "pickup:0-4", "drop:0-3:y", "resolve-tribe")


def test_village_with_no_palace_left_is_skipped_and_monkir_pays_nothing() -> None:
    """§5.8: with `palace_supply = 0` "the action is void and `SkipTileAction()` is the
    only tile-action move"; §8: "no Monkir payout for a palace not placed"."""
    players = {C: {"djinns": "monkir"}}
    state = _ending_on_village(palaces={(4, 1): 10}, players=players)
    assert state.palace_supply == 0 and keys(state) == ["skip-tile"]
    with pytest.raises(IllegalMoveError, match="that action is not possible"):
        do(state, "palace")
    state = do(state, "skip-tile")
    assert state.step is Step.SALE and state.palaces[t(0, 3)] == 0
    assert gold(state) == (50, 50, 50)


def test_monkir_pays_its_owner_one_and_palaces_stack_on_a_village() -> None:
    """§5.9 Monkir: "+1 GC if the placing player is the owner"; §8: "There is no limit on
    palms/palaces per tile" — a Village with 2 palaces gets a third (supply 8 → 7)."""
    state = _ending_on_village(palaces={(0, 3): 2}, players={A: {"djinns": "monkir"}})
    assert keys(state) == ["palace"]
    state = do(state, "palace")
    assert state.palaces[t(0, 3)] == 3 and state.palace_supply == 7
    assert gold(state) == (51, 50, 50)


@pytest.mark.parametrize(
    ("display", "expected"),
    [
        ("enki", ["buy:enki:ee", "buy:enki:ef", "skip-tile"]),
        ("", ["skip-tile"]),
    ],
)
def test_sacred_place_offers_each_payment_per_displayed_djinn(
    display: str, expected: list[str]
) -> None:
    """§5.8 Sacred Place: "`BuyDjinn(d, pay)` for each displayed Djinn `d`, `pay` in
    {EE, EF} as affordable"; "Requires >=1 Djinn displayed". A holds 2 Elders (just
    collected) and 1 Fakir, so both payments are offered; an empty display offers none."""
    state = build(
        board={(0, 3): "W", (0, 2): "WY"}, display=display, players={A: {"cards": "fakir"}}
    )
    state = do(at_turn(state, A, later=(B, C)), "pickup:0-3", "drop:0-2:w", "resolve-tribe")
    assert state.players[A].elders == 2
    assert keys(state) == expected


def test_small_market_with_a_two_card_row_offers_two_cards() -> None:
    """§5.8: "`SmallMarket(i)` for `i < min(3, len(row))`"; pay 3, take `row[i]`."""
    state = build(board={(0, 0): "Y", (0, 1): "YG"}, row="fish silk")
    state = do(at_turn(state, A, later=(B, C)), "pickup:0-0", "drop:0-1:y", "resolve-tribe")
    assert keys(state) == ["skip-tile", "small-market:0", "small-market:1"]
    state = do(state, "small-market:1")
    assert state.players[A].gold == 47 and state.players[A].cards == hand("silk")
    assert state.resource_row == cards("fish") and state.step is Step.SALE


# -- Audit 2: scoring and ties (§7.2, §7.3) ------------------------------------------------

ALL_TYPES = "ivory jewels gold papyrus silk spice fish wheat pottery"


@pytest.mark.parametrize(
    ("owned", "held", "expected"),
    [
        ("al-amin", "fakir fakir fakir fakir", 3),  # no suit: new suit of 1, then grown to 2
        ("al-amin", f"{ALL_TYPES} fakir fakir", 60 + 1),  # full suit of 9: wild starts suit 2
        ("al-amin", "fish fakir fakir fakir", 3),  # floor(3 / 2) = 1 wild: {Fish, X}
        ("", "fish fakir fakir fakir fakir", 1),  # Fakirs score nothing without Al-Amin
    ],
)
def test_al_amin_wild_cards_at_the_edges(owned: str, held: str, expected: int) -> None:
    """§7.2: `w = floor(fakirs / 2)` with Al-Amin, else 0; each wild goes to "the largest
    suit that has fewer than 9 cards (if all existing suits have 9, or there are none,
    start a new suit of size 1)"; §3.4 SUIT_VALUE."""
    state = build(players={A: {"djinns": owned, "cards": held}})
    assert score_sheet(state, A).merchandise == expected


def test_palms_and_palaces_score_only_on_the_owners_tiles() -> None:
    """§7.2: palms and palaces count "over tiles t owned by p"; "Palms/palaces on tiles
    nobody controls score nothing" (A's Haurvatat does not reach them either)."""
    state = build(
        owners={(0, 5): B, (2, 1): B, (1, 3): A},
        palms={(0, 5): 2, (1, 0): 1},
        palaces={(2, 1): 2, (0, 3): 1},
        players={A: {"djinns": "haurvatat"}},
    )
    a, b = score_sheet(state, A), score_sheet(state, B)
    assert (a.tiles, a.palms, a.palaces) == (8, 0, 0)
    assert (b.tiles, b.palms, b.palaces) == (8 + 5, 2 * 3, 2 * 5)


@pytest.mark.parametrize(
    ("golds", "ranks"),
    [
        ((60, 55, 55, 50), (1, 2, 2, 4)),
        ((55, 55, 55, 50), (1, 1, 1, 4)),
    ],
)
def test_ties_share_ranks_in_competition_order(
    golds: tuple[int, ...], ranks: tuple[int, ...]
) -> None:
    """§7.3: "Ties are not broken ... ranks below use standard competition ranking"."""
    players = {seat: {"gold": g} for seat, g in enumerate(golds)}
    result = GAME.result(game_over(build(seats=4, players=players)))
    assert result is not None
    assert result.scores == golds and result.ranks == ranks

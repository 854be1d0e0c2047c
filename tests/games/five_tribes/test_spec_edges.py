"""Edge cases of the rules spec that a rules audit checked by hand, one test per case.

Players A, B, C, D are seats 0, 1, 2, 3; tiles are written ``(row, col)`` on layout L
(spec §9). Every expected value is taken from the spec section quoted in the docstring.
"""

from __future__ import annotations

from dataclasses import replace

from tests.games.five_tribes.fixtures import (
    at_turn,
    bidding,
    build,
    cards,
    djinns,
    do,
    hand,
    keys,
    meeples,
    t,
)
from tribes.games.five_tribes.data import Djinn
from tribes.games.five_tribes.invariants import check_invariants
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

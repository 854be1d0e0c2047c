"""The worked examples E1-E23 of the rules spec (§9), one test (or a few) per example.

Players A, B, C, D are seats 0, 1, 2, 3; tiles are written ``(row, col)`` on layout L.
"""

from __future__ import annotations

from dataclasses import replace

import pytest

from tests.games.five_tribes.fixtures import (
    at_turn,
    bidding,
    build,
    cards,
    djinns,
    do,
    gold,
    keys,
    meeples,
    t,
)
from tribes.engine import IllegalMoveError, MalformedMoveError
from tribes.games.five_tribes import GAME
from tribes.games.five_tribes.data import FAKIR, Card, Djinn, Meeple
from tribes.games.five_tribes.invariants import check_invariants
from tribes.games.five_tribes.moves import parse_move
from tribes.games.five_tribes.rules.rounds import next_marker
from tribes.games.five_tribes.rules.scoring import merchandise_value, score_sheet
from tribes.games.five_tribes.state import State, Step

A, B, C, D = 0, 1, 2, 3


def _play_order(state: State) -> list[int]:
    """The markers still waiting on the Turn Order track, in play order."""
    order: list[int] = []
    while True:
        state, marker = next_marker(state)
        if marker is None:
            return order
        order.append(marker)


def _fakirs(state: State, seat: int) -> int:
    return state.players[seat].cards[FAKIR]


# -- E1-E4: bidding ------------------------------------------------------------------------


def test_e1_bidding_with_zeros() -> None:
    """E1: the latest zero bidder plays first; B (3 GC) plays before every zero."""
    state = bidding(build(seats=4), [A, B, C, D])
    state = do(state, "bid:0", "bid:3", "bid:0")
    state = do(state, "bid:0")
    assert gold(state) == (50, 47, 50, 50)
    # the last bid started the action phase: B (paid spot) is already playing
    assert state.step is Step.START and state.turn is not None and state.turn.seat == B
    assert state.zero_aisle == (D, C, A)
    assert [B, *_play_order(state)] == [B, D, C, A]
    assert state.next_bid_order == (B,)


def test_e1_next_bid_order_is_the_play_order() -> None:
    """E1: next_bid_order becomes B, D, C, A as the markers start their turns."""
    board = {(r, c): "YWG" for r in range(5) for c in range(6)}
    state = bidding(build(seats=4, board=board), [A, B, C, D])
    state = do(state, "bid:0", "bid:3", "bid:0", "bid:0")
    started = []
    for _ in range(4):
        assert state.turn is not None
        started.append(state.turn.marker)
        while state.step is not Step.SALE:
            state = do(state, keys(state)[0])
        state = do(state, "end-turn")
    assert started == [B, D, C, A]
    assert state.step is Step.BID and state.bid_order == (B, D, C, A)


def test_e2_fourth_marker_cannot_bid_zero() -> None:
    """E2: with three zeros taken, D must take a paid spot and then plays first."""
    state = bidding(build(seats=4, players={D: {"gold": 20}}), [A, B, C, D])
    state = do(state, "bid:0", "bid:0", "bid:0")
    assert state.zero_aisle == (C, B, A)
    assert keys(state) == ["bid:1", "bid:12", "bid:18", "bid:3", "bid:5", "bid:8"]
    state = do(state, "bid:1")
    assert state.players[D].gold == 19
    assert state.turn is not None and state.turn.seat == D
    assert _play_order(state) == [C, B, A]


def test_e2_variant_broke_fourth_marker_takes_the_overflow() -> None:
    """E2 variant (RECONSTRUCTED): 0 GC and no Kumarbi -> only the overflow bid."""
    state = bidding(build(seats=4, players={D: {"gold": 0}}), [A, B, C, D])
    state = do(state, "bid:0", "bid:0", "bid:0")
    assert keys(state) == ["bid:overflow"]
    state = do(state, "bid:overflow")
    assert state.players[D].gold == 0
    assert state.turn is not None and state.turn.seat == C
    assert _play_order(state) == [B, A, D]


def test_e3_two_player_bidding_with_two_markers_each() -> None:
    """E3: markers A1, B1, B2, A2 bid separately; each player plays twice."""
    a1, b1, a2, b2 = 0, 1, 2, 3  # marker m belongs to seat m % 2
    state = bidding(build(seats=2), [a1, b1, b2, a2])
    state = do(state, "bid:5", "bid:0", "bid:1", "bid:0")
    assert gold(state) == (45, 49)
    assert state.zero_aisle == (a2, b1)
    assert state.turn is not None and state.turn.marker == a1
    assert [a1, *_play_order(state)] == [a1, b2, a2, b1]
    assert [state.marker_owner(m) for m in (a1, b2, a2, b1)] == [A, B, A, B]


def test_e4_kumarbi_bid() -> None:
    """E4: exactly 12 bids; Bid(12, k=2) costs 5 GC and 2 Fakirs and marks Kumarbi used."""
    state = build(players={A: {"djinns": "kumarbi", "cards": "fakir fakir", "gold": 7}})
    state = bidding(state, [B, A, C])
    state = do(state, "bid:18")
    expected = {
        "bid:0",
        "bid:1",
        "bid:1:k1",
        "bid:3",
        "bid:3:k1",
        "bid:3:k2",
        "bid:5",
        "bid:5:k1",
        "bid:5:k2",
        "bid:8:k1",
        "bid:8:k2",
        "bid:12:k2",
    }
    assert set(keys(state)) == expected and len(keys(state)) == 12
    discard = len(state.resource_discard)
    state = do(state, "bid:12:k2")
    player = state.players[A]
    assert player.gold == 2 and player.fakirs == 0
    assert len(state.resource_discard) == discard + 2
    assert state.track[1] == A  # PAID_SPOTS[1] == 12
    assert Djinn.KUMARBI in player.used


# -- E5-E8: movement, tribes, tiles --------------------------------------------------------


def test_e5_basic_move_and_vizier_collection() -> None:
    """E5: exact pick-ups, the only first drop, collection of 2 Viziers, no camel."""
    board = {(2, 3): "YW", (2, 4): "RB", (2, 5): "YG"}
    state = at_turn(build(board=board, players={A: {"gold": 10}}), A, later=(B, C))
    assert [k for k in keys(state) if k.startswith("pickup")] == ["pickup:2-3", "pickup:2-5"]
    state = do(state, "pickup:2-3")
    assert keys(state) == ["drop:2-4:w"]
    state = do(state, "drop:2-4:w", "drop:2-5:y")
    assert state.meeples[t(2, 3)] == meeples("")
    assert state.meeples[t(2, 4)] == meeples("RBW")
    assert state.meeples[t(2, 5)] == meeples("G")
    assert state.owners[t(2, 3)] is None and state.owners[t(2, 5)] is None
    assert keys(state) == ["resolve-tribe"]
    state = do(state, "resolve-tribe")
    assert state.players[A].viziers == 2
    assert keys(state) == ["skip-tile", "small-market:0", "small-market:1", "small-market:2"]
    check_invariants(state)


def test_e5_illegal_drops_are_explained() -> None:
    """E5: Y first, or stepping back to the start tile, is refused with a reason."""
    board = {(2, 3): "YW", (2, 4): "RB", (2, 5): "YG"}
    state = do(at_turn(build(board=board), A, later=(B, C)), "pickup:2-3")
    with pytest.raises(IllegalMoveError, match="could not end"):
        do(state, "drop:2-4:y")
    state = do(state, "drop:2-4:w")
    with pytest.raises(IllegalMoveError, match="straight back"):
        do(state, "drop:2-3:y")


def test_e6_no_pick_up_is_legal() -> None:
    """E6 A: parity and colours leave no legal move; SkipMovement is the only move."""
    board = {(4, 5): "R", (3, 5): "YW", (4, 4): "B"}
    state = at_turn(build(board=board), A, later=(B, C))
    assert keys(state) == ["skip-movement"]


def test_e6_pick_up_legality() -> None:
    """E6 B: (0,0) can move (W on (0,1), Y on (0,2)); (0,2) cannot."""
    state = at_turn(build(board={(0, 0): "YW", (0, 2): "Y"}), A, later=(B, C))
    assert keys(state) == ["pickup:0-0"]
    state = do(state, "pickup:0-0")
    assert keys(state) == ["drop:0-1:w"]


def _e7(**player: object) -> State:
    spec = {"cards": "fakir", "gold": 20, **player}
    state = build(board={(4, 1): "B", (3, 1): "BB"}, players={A: spec})
    return do(at_turn(state, A, later=(B, C)), "pickup:4-1", "drop:3-1:b")


def test_e7_builders_tile_control_and_compulsory_palm() -> None:
    """E7: camel on (3,1); Build(1) earns (3+1) x 5 = 20; the palm is compulsory."""
    state = _e7()
    assert state.owners[t(3, 1)] == A and state.players[A].camels == 7
    assert keys(state) == ["build:0", "build:1"]
    bag = state.bag
    state = do(state, "build:1")
    assert state.players[A].gold == 40
    assert state.bag[Meeple.BUILDER] == bag[Meeple.BUILDER] + 3
    assert _fakirs(state, A) == 0 and state.resource_discard == (Card.FAKIR,)
    assert keys(state) == ["palm"]
    state = do(state, "palm")
    assert state.palms[t(3, 1)] == 1 and state.palm_supply == 11
    assert state.owners[t(4, 1)] is None and state.meeples[t(4, 1)] == meeples("")
    sheet = score_sheet(state, A)
    assert sheet.tiles + sheet.palms == 11
    check_invariants(state)
    sheet = score_sheet(do(_e7(djinns="haurvatat"), "build:1", "palm"), A)
    assert sheet.tiles + sheet.palms == 13


def test_e7_variants_echidna_and_no_fakir() -> None:
    """E7 variants: Echidna doubles to +40; Build(0) earns +15."""
    state = _e7(djinns="echidna", elders=2, used="echidna", echidna=True)
    assert do(state, "build:1").players[A].gold == 60
    assert do(_e7(), "build:0").players[A].gold == 35


def _e8(camels: int = 8) -> State:
    board = {(3, 4): "R", (3, 3): "R", (2, 2): "W"}
    state = build(board=board, players={A: {"camels": camels}})
    return do(at_turn(state, A, later=(B, C)), "pickup:3-4", "drop:3-3:r")


def test_e8_assassins_take_two_tiles() -> None:
    """E8: camel on (3,3), the only kill is the W at distance 2, camel on (2,2)."""
    state = _e8()
    assert state.owners[t(3, 3)] == A
    assert keys(state) == ["kill:2-2:w"]
    bag = state.bag
    state = do(state, "kill:2-2:w")
    assert state.bag[Meeple.ASSASSIN] == bag[Meeple.ASSASSIN] + 2
    assert state.bag[Meeple.ELDER] == bag[Meeple.ELDER] + 1
    assert state.owners[t(2, 2)] == A and state.players[A].camels == 6
    assert state.owners[t(3, 4)] is None
    assert state.step is Step.TILE and "skip-tile" in keys(state)
    assert any(k.startswith("large-market") for k in keys(state))


def test_e8_variant_one_camel_left() -> None:
    """E8 variant: one camel left -> only (3,3) is claimed and the end is triggered."""
    state = _e8(camels=1)
    assert state.owners[t(3, 3)] == A and state.players[A].camels == 0
    assert state.end_triggered
    state = do(state, "kill:2-2:w")
    assert state.owners[t(2, 2)] is None and state.meeples[t(2, 2)] == meeples("")


# -- E9-E10: assassination details ---------------------------------------------------------


def _e9() -> State:
    players: dict[int, dict[str, object]] = {
        B: {"djinns": "boaz", "viziers": 4, "elders": 2},
        C: {"djinns": "nekir", "viziers": 3, "elders": 1, "gold": 10},
    }
    state = build(board={(0, 0): "R", (0, 1): "RY"}, players=players)
    return do(at_turn(state, A, later=(B, C)), "pickup:0-0", "drop:0-1:r")


def test_e9_kill_in_an_opponents_supply_boaz_and_nekir() -> None:
    """E9: exactly 3 targets (Boaz protects B); killing C's Vizier pays C +2 (Nekir)."""
    state = _e9()
    assert state.meeples[t(0, 1)] == meeples("Y") and state.owners[t(0, 1)] is None
    assert keys(state) == ["kill:0-1:y", "kill:p2:w", "kill:p2:y"]
    bag = state.bag
    state = do(state, "kill:p2:y")
    assert (state.players[C].viziers, state.players[C].elders) == (2, 1)
    assert state.bag[Meeple.ASSASSIN] == bag[Meeple.ASSASSIN] + 2
    assert state.bag[Meeple.VIZIER] == bag[Meeple.VIZIER] + 1
    assert state.players[C].gold == 12
    assert state.meeples[t(0, 1)] == meeples("Y")


def test_e9_variant_killer_owns_nekir() -> None:
    """E9 variant: Nekir pays its owner +1 for his own Assassins."""
    players = {B: {"djinns": "boaz", "viziers": 4, "elders": 2}, A: {"djinns": "nekir"}}
    players[C] = {"viziers": 3, "elders": 1}
    state = build(board={(0, 0): "R", (0, 1): "RY"}, players=players)
    state = do(at_turn(state, A, later=(B, C)), "pickup:0-0", "drop:0-1:r", "kill:p2:y")
    assert state.players[A].gold == 51


def test_e9_variant_kill_on_the_final_tile_claims_it() -> None:
    """E9 variant: emptying the final tile by the kill claims it at A4b; TILE stays (0,1)."""
    state = do(_e9(), "kill:0-1:y")
    assert state.owners[t(0, 1)] == A and state.players[A].camels == 7
    assert state.players[C].gold == 12
    assert state.step is Step.TILE
    assert keys(state)[0] == "skip-tile" and "small-market:0" in keys(state)


def test_e10_iblis_kandicha_village_palace_monkir() -> None:
    """E10: Iblis kills B and W on (0,4); Kandicha keeps the W and earns 2 GC."""
    players = {A: {"djinns": "iblis kandicha", "cards": "fakir"}, C: {"djinns": "monkir"}}
    board = {(0, 2): "R", (0, 3): "RY", (0, 4): "BW"}
    state = at_turn(build(board=board, players=players), A, later=(B, C))
    state = do(state, "djinn:iblis:f", "pickup:0-2", "drop:0-3:r")
    assert state.meeples[t(0, 3)] == meeples("Y")
    assert keys(state) == ["kill:0-3:y", "kill:0-4:wb"]
    bag = state.bag
    state = do(state, "kill:0-4:wb")
    player = state.players[A]
    assert player.elders == 1 and player.gold == 52
    assert state.bag[Meeple.ASSASSIN] == bag[Meeple.ASSASSIN] + 2
    assert state.bag[Meeple.BUILDER] == bag[Meeple.BUILDER] + 1
    assert state.bag[Meeple.ELDER] == bag[Meeple.ELDER]
    assert state.owners[t(0, 4)] == A
    assert keys(state) == ["palace"]
    state = do(state, "palace")
    assert state.palaces[t(0, 3)] == 1 and state.palace_supply == 9
    assert state.players[C].gold == 52
    assert state.resource_discard == (Card.FAKIR,)
    check_invariants(state)


# -- E11-E13: cards ------------------------------------------------------------------------

E11_ROW = "fakir fish ivory silk wheat fish gold spice pottery"


def test_e11_large_market_then_merchants_then_small_market() -> None:
    """E11 1-2: LargeMarket({2,3}); 3 Merchants take the front 3; SmallMarket(1) takes Gold."""
    board = {(0, 1): "Y", (1, 1): "Y", (2, 0): "GG", (2, 1): "G"}
    state = build(board=board, row=E11_ROW, players={A: {"gold": 10}})
    state = at_turn(state, A, later=(B, C))
    state = do(state, "pickup:0-1", "drop:1-1:y", "resolve-tribe")
    market = [k for k in keys(state) if k.startswith("large-market")]
    assert len(market) == 15 and "large-market:5,6" not in market
    state = do(state, "large-market:2,3")
    assert state.players[A].gold == 4
    assert state.players[A].cards[Card.IVORY] == 1 and state.players[A].cards[Card.SILK] == 1
    assert state.resource_row == cards("fakir fish wheat fish gold spice pottery")
    state = do(state, "end-turn")
    assert state.turn is not None and state.turn.seat == B
    bag = state.bag
    state = do(state, "pickup:2-1", "drop:2-0:g", "resolve-tribe")
    assert state.players[B].cards[Card.FAKIR] == 1
    assert state.players[B].cards[Card.FISH] == 1 and state.players[B].cards[Card.WHEAT] == 1
    assert state.bag[Meeple.MERCHANT] == bag[Meeple.MERCHANT] + 3
    assert state.resource_row == cards("fish gold spice pottery")
    state = do(state, "small-market:1")
    assert state.players[B].cards[Card.GOLD] == 1 and state.players[B].gold == 47
    assert state.resource_row == cards("fish spice pottery")
    check_invariants(state)


def test_e11_cleanup_refills_the_row_to_nine() -> None:
    """E11 3: clean-up deals 6 cards to the end of the row."""
    state = build(board={(0, 0): "Y", (0, 1): "Y"}, row="fish spice pottery")
    state = at_turn(state, C, step=Step.SALE, played=(A, B))
    pile = state.resource_pile
    state = do(state, "end-turn")
    assert state.step is Step.BID
    assert state.resource_row == cards("fish spice pottery") + pile[:6]


def test_e11_variants_with_one_card_left() -> None:
    """E11 variants: LargeMarket({0}) costs 6 for one card; 3 Merchants get only Spice."""
    state = build(board={(0, 1): "Y", (1, 1): "Y"}, row="spice", players={A: {"gold": 10}})
    state = do(at_turn(state, A, later=(B, C)), "pickup:0-1", "drop:1-1:y", "resolve-tribe")
    assert keys(state) == ["large-market:0", "skip-tile"]
    state = do(state, "large-market:0")
    assert state.players[A].gold == 4 and state.players[A].cards[Card.SPICE] == 1
    assert state.resource_row == ()
    state = build(board={(2, 0): "GG", (2, 1): "G"}, row="spice")
    state = do(at_turn(state, A, later=(B, C)), "pickup:2-1", "drop:2-0:g", "resolve-tribe")
    assert state.players[A].cards == tuple(1 if c is Card.SPICE else 0 for c in Card)


def _e12(**player: object) -> State:
    spec = {"elders": 1, "cards": "fakir", **player}
    state = build(
        board={(2, 1): "W", (2, 2): "WY"},
        display="jafaar enki marid",
        players={A: spec, B: {"djinns": "baal"}},
    )
    state = do(at_turn(state, A, later=(B, C)), "pickup:2-1", "drop:2-2:w", "resolve-tribe")
    assert state.players[A].elders == 3 and state.meeples[t(2, 2)] == meeples("Y")
    assert state.owners[t(2, 2)] is None
    return state


def test_e12_sacred_place_purchase_and_baal() -> None:
    """E12: BuyDjinn(Enki, EF); Ba'al pays B +2; Enki is usable at once in SALE."""
    state = _e12()
    bag, discard = state.bag, len(state.resource_discard)
    state = do(state, "buy:enki:ef")
    player = state.players[A]
    assert player.elders == 2 and player.fakirs == 0 and player.djinns == (Djinn.ENKI,)
    assert state.bag[Meeple.ELDER] == bag[Meeple.ELDER] + 1
    assert len(state.resource_discard) == discard + 1
    assert state.djinn_display == djinns("jafaar marid")
    assert state.players[B].gold == 52
    assert state.step is Step.SALE
    state = do(state, "djinn:enki:e:3-1")
    assert state.palms[t(3, 1)] == 1 and state.players[A].elders == 1
    check_invariants(state)


def test_e12_sibittis_variant() -> None:
    """E12 Sibittis: draw [Shamhat, Nekir, Utug], keep Shamhat, discard the others."""
    state = _e12(djinns="sibittis")
    state = replace(
        state,
        djinn_pile=djinns("shamhat nekir utug")
        + tuple(d for d in state.djinn_pile if d not in djinns("shamhat nekir utug")),
    )
    state = do(state, "buy:enki:ef")
    bag = state.bag
    state = do(state, "djinn:sibittis:ee")
    assert state.step is Step.SIBITTIS_KEEP
    assert keys(state) == ["keep:nekir", "keep:shamhat", "keep:utug"]
    state = do(state, "keep:shamhat")
    player = state.players[A]
    assert Djinn.SHAMHAT in player.djinns and player.elders == 0
    assert state.djinn_discard == djinns("nekir utug")
    assert state.bag[Meeple.ELDER] == bag[Meeple.ELDER] + 2
    assert state.players[B].gold == 54
    assert state.step is Step.SALE
    check_invariants(state)


def test_e13_selling_merchandise() -> None:
    """E13: a 4-type suit sells for 13, a single Fish for 1; Fakirs stay."""
    state = build(players={A: {"cards": "fish fish wheat ivory gold fakir fakir fakir", "gold": 2}})
    state = at_turn(state, A, step=Step.SALE, later=(B, C))
    assert "sell:ivory+gold+fish+wheat" in keys(state)
    assert len([k for k in keys(state) if k.startswith("sell")]) == 15
    state = do(state, "sell:ivory+gold+fish+wheat", "sell:fish")
    assert state.players[A].gold == 16
    assert state.players[A].cards == tuple(3 if c is Card.FAKIR else 0 for c in Card)
    assert len(state.resource_discard) == 5
    with pytest.raises(MalformedMoveError):
        parse_move("sell:fish+fish")
    with pytest.raises(MalformedMoveError):
        parse_move("sell:fakir")


# -- E14-E16: passive and placement Djinns -------------------------------------------------


def _e14(mover: int = A, a_owns: tuple[tuple[int, int], ...] = (), **a_spec: object) -> State:
    players = {B: {"djinns": "marid"}, C: {"djinns": "monkir"}, A: a_spec}
    owners = {(0, 1): B, (0, 2): B} | {where: A for where in a_owns}
    state = build(board={(0, 0): "GWY", (0, 3): "Y"}, owners=owners, players=players)
    later = tuple(s for s in (A, B, C) if s != mover)
    return at_turn(state, mover, later=later)


def test_e14_marid_and_a_claimed_village() -> None:
    """E14: Marid pays B +4 for two drops by an opponent; A claims (0,3); Monkir +2."""
    state = do(_e14(), "pickup:0-0", "drop:0-1:g", "drop:0-2:w", "drop:0-3:y")
    assert state.players[B].gold == 54
    assert state.owners[t(0, 3)] == A
    state = do(state, "resolve-tribe")
    assert state.players[A].viziers == 2
    state = do(state, "palace")
    assert state.palaces[t(0, 3)] == 1 and state.players[C].gold == 52


def test_e14_variant_marid_owner_moves() -> None:
    """E14 variant: the Marid owner's own drops pay +1 each."""
    state = do(_e14(mover=B), "pickup:0-0", "drop:0-1:g", "drop:0-2:w", "drop:0-3:y")
    assert state.players[B].gold == 52


def test_e15_hagis_redirect() -> None:
    """E15: PLACE_PALACE offers exactly 6 moves; redirecting to (1,3) pays a Fakir."""
    state = _e14(a_owns=((1, 3),), djinns="hagis", cards="fakir")
    state = do(state, "pickup:0-0", "drop:0-1:g", "drop:0-2:w", "drop:0-3:y", "resolve-tribe")
    state = do(state, "palace")
    assert state.step is Step.PLACE_PALACE
    assert keys(state) == [
        "place-here",
        "redirect:0-2:f",
        "redirect:0-4:f",
        "redirect:1-2:f",
        "redirect:1-3:f",
        "redirect:1-4:f",
    ]
    state = do(state, "redirect:1-3:f")
    assert state.palaces[t(1, 3)] == 1 and state.palaces[t(0, 3)] == 0
    assert state.palace_supply == 9
    assert Djinn.HAGIS in state.players[A].used
    assert state.resource_discard == (Card.FAKIR,)
    assert state.players[C].gold == 52
    assert state.step is Step.SALE
    sheet = score_sheet(state, A)
    assert sheet.palaces == 5
    check_invariants(state)


def test_e15_place_here_and_orthogonal_option() -> None:
    """E15: PlaceHere keeps the palace free; with the 4-tile option only 3 redirects."""
    state = _e14(a_owns=((1, 3),), djinns="hagis", cards="fakir")
    moves = ("pickup:0-0", "drop:0-1:g", "drop:0-2:w", "drop:0-3:y", "resolve-tribe", "palace")
    here = do(state, *moves, "place-here")
    assert here.palaces[t(0, 3)] == 1 and here.players[A].fakirs == 1
    assert Djinn.HAGIS not in here.players[A].used
    four = replace(state, redirect_reach=4)
    assert keys(do(four, *moves)) == [
        "place-here",
        "redirect:0-2:f",
        "redirect:0-4:f",
        "redirect:1-3:f",
    ]


def _e16(bag: str = "") -> State:
    players = {
        A: {"djinns": "leta utug anun-nak", "elders": 4, "cards": "fakir fakir", "camels": 5}
    }
    state = build(board={(3, 4): "YG"}, players=players, bag=bag)
    return at_turn(state, A, later=(B, C))


def test_e16_leta_utug_anun_nak() -> None:
    """E16: Leta claims an empty tile, Utug a tile with meeples, Anun-Nak draws the bag."""
    state = do(_e16(), "djinn:leta:ee:2-0")
    assert state.owners[t(2, 0)] == A and state.players[A].elders == 2
    assert state.bag == meeples("WW") and state.players[A].camels == 4
    state = do(state, "djinn:utug:ef:3-4")
    assert state.owners[t(3, 4)] == A and state.meeples[t(3, 4)] == meeples("YG")
    assert (state.players[A].elders, state.players[A].fakirs) == (1, 1)
    assert state.bag == meeples("WWW") and state.players[A].camels == 3
    state = do(state, "djinn:anun-nak:f:4-5")
    assert state.meeples[t(4, 5)] == meeples("WWW")
    assert state.bag == meeples("") and state.players[A].fakirs == 0
    assert state.step is Step.START


def test_e16_variant_anun_nak_with_an_empty_bag() -> None:
    """E16 variant: with an empty bag only pay=E is legal; the paid Elder is drawn."""
    state = _e16()
    anun = [k for k in keys(state) if k.startswith("djinn:anun-nak")]
    assert anun and all(k.startswith("djinn:anun-nak:e:") for k in anun)
    state = do(state, "djinn:anun-nak:e:4-5")
    assert state.meeples[t(4, 5)] == meeples("W") and state.bag == meeples("")


def test_e16_later_emptying_an_utug_tile_keeps_the_owner() -> None:
    """E16: B empties (3,4), which A took with Utug: ownership stays, no camel for B."""
    state = build(board={(3, 4): "Y", (3, 3): "Y"}, owners={(3, 4): A})
    state = do(at_turn(state, B, played=(A,), later=(C,)), "pickup:3-3", "drop:3-4:y")
    assert state.meeples[t(3, 4)] == meeples("") and state.owners[t(3, 4)] == A
    assert state.players[B].camels == 8


# -- E17-E19: loops and game end -----------------------------------------------------------


def test_e17_loop_revisiting_a_tile() -> None:
    """E17: the 5th drop revisits (1,2) and matches the W dropped there at step 1."""
    state = build(board={(1, 1): "WWYGB", (1, 2): "R"})
    state = at_turn(state, A, later=(B, C))
    state = do(state, "pickup:1-1", "drop:1-2:w", "drop:2-2:y", "drop:2-1:g", "drop:1-1:b")
    state = do(state, "drop:1-2:w")
    assert state.turn is not None and state.turn.collected == 2
    assert state.meeples[t(1, 2)] == meeples("R") and state.owners[t(1, 2)] is None
    assert state.meeples[t(1, 1)] == meeples("B")
    assert state.meeples[t(2, 2)] == meeples("Y") and state.meeples[t(2, 1)] == meeples("G")
    state = do(state, "resolve-tribe")
    assert state.players[A].elders == 2
    assert any(k.startswith("large-market") for k in keys(state))


def test_e17_official_variant_collects_three() -> None:
    """E17 variant: (1,2) starts as [W, R]; the loop collects 3 Elders."""
    state = at_turn(build(board={(1, 1): "WWYGB", (1, 2): "WR"}), A, later=(B, C))
    state = do(state, "pickup:1-1", "drop:1-2:w", "drop:2-2:y", "drop:2-1:g", "drop:1-1:b")
    state = do(state, "drop:1-2:w", "resolve-tribe")
    assert state.players[A].elders == 3


def _e18(**b: object) -> State:
    state = build(board={(0, 0): "Y", (2, 3): "W", (4, 5): "R"}, players={B: dict(b)})
    return at_turn(state, B, played=(A,), later=(C,))


def test_e18_end_because_no_meeple_move_exists() -> None:
    """E18: B and C can only skip; the end is triggered; CLEANUP ends the game."""
    state = _e18()
    assert keys(state) == ["skip-movement"]
    state = do(state, "skip-movement")
    assert state.end_triggered and state.step is Step.SALE
    state = do(state, "end-turn")
    assert state.turn is not None and state.turn.seat == C
    assert keys(state) == ["skip-movement"]
    state = do(state, "skip-movement", "end-turn")
    assert state.step is Step.GAME_OVER and GAME.result(state) is not None


def test_e18_variant_anun_nak_reopens_movement() -> None:
    """E18 variant: Anun-Nak puts [Y, G, B] on (0,1); B must move; no end trigger."""
    state = replace(_e18(djinns="anun-nak", cards="fakir"), bag=meeples("YGB"))
    offered = keys(state)
    assert offered[-1] == "skip-movement" and len(offered) == 28  # 27 empty tiles + skip
    assert all(k.startswith("djinn:anun-nak:f:") for k in offered[:-1])
    state = do(state, "djinn:anun-nak:f:0-1")
    assert state.meeples[t(0, 1)] == meeples("YGB")
    assert keys(state) == ["pickup:0-0", "pickup:0-1"]
    assert not state.end_triggered


def test_e18_stuck_board_at_cleanup_ends_without_bidding() -> None:
    """E18: a board with no legal move at the end of a round ends the game at CLEANUP."""
    state = build(board={(0, 0): "Y", (2, 3): "W", (4, 5): "R"})
    state = at_turn(state, C, step=Step.SALE, played=(A, B))
    state = do(state, "end-turn")
    assert state.step is Step.GAME_OVER and not state.end_triggered


def test_e19_end_because_a_player_placed_his_last_camel() -> None:
    """E19: A's last camel triggers the end; B and C still play; then GAME_OVER."""
    board = {(0, 0): "Y", (0, 1): "Y", (4, 0): "G", (4, 1): "G", (2, 4): "B", (2, 5): "BB"}
    state = build(board=board, players={A: {"camels": 1}})
    state = at_turn(state, A, later=(B, C))
    state = do(state, "pickup:0-0", "drop:0-1:y")
    assert state.owners[t(0, 1)] == A and state.players[A].camels == 0 and state.end_triggered
    state = do(state, "resolve-tribe", "skip-tile", "end-turn")
    assert state.turn is not None and state.turn.seat == B
    state = do(state, "pickup:4-0", "drop:4-1:g")
    assert state.owners[t(4, 1)] == B
    state = do(state, "resolve-tribe", "palace", "end-turn")
    assert state.turn is not None and state.turn.seat == C
    state = do(state, "pickup:2-4", "drop:2-5:b", "build:0", "skip-tile", "end-turn")
    assert state.owners[t(2, 5)] == C
    assert state.step is Step.GAME_OVER


# -- E20-E22: scoring ----------------------------------------------------------------------


def _e20() -> State:
    owners = {(0, 5): A, (0, 3): A, (2, 2): A, (0, 1): B, (1, 1): B, (1, 0): B}
    owners |= {(3, 4): C, (3, 5): C, (0, 2): C}
    players = {
        A: {
            "gold": 42,
            "viziers": 5,
            "elders": 3,
            "djinns": "jafaar haurvatat",
            "cards": "fish fish wheat pottery ivory fakir fakir fakir",
        },
        B: {
            "gold": 55,
            "viziers": 2,
            "elders": 6,
            "djinns": "shamhat al-amin",
            "cards": "silk spice fakir fakir fakir fakir fakir",
        },
        C: {"gold": 30, "viziers": 5, "cards": "fakir"},
    }
    return build(
        owners=owners,
        palms={(0, 5): 2, (1, 0): 1},
        palaces={(0, 3): 1, (3, 5): 2},
        players=players,
        display="enki marid iblis",
    )


def test_e20_full_final_scoring() -> None:
    """E20: A 141, B 126, C 81, item by item."""
    state = _e20()
    a, b, c = (score_sheet(state, seat) for seat in (A, B, C))
    assert (a.viziers, a.vizier_bonus, a.elders, a.djinns) == (15, 10, 6, 14)
    assert (a.palms, a.palaces, a.tiles, a.merchandise) == (10, 5, 25, 14)
    assert (b.viziers, b.vizier_bonus, b.elders, b.djinns) == (2, 0, 24, 11)
    assert (b.palms, b.tiles, b.merchandise) == (3, 18, 13)
    assert (c.viziers, c.vizier_bonus, c.palaces, c.tiles) == (5, 10, 10, 26)
    assert (a.total, b.total, c.total) == (141, 126, 81)


def test_e20_result_ranks_the_players() -> None:
    """E20: the game-over state ranks A first, B second, C third."""
    from tribes.games.five_tribes.rules.rounds import game_over

    state = game_over(_e20())
    result = GAME.result(state)
    assert result is not None
    assert result.scores == (141, 126, 81) and result.ranks == (1, 2, 3)
    assert GAME.scores(state, -1) == (141, 126, 81)
    check_invariants(state)


def test_e21_merchandise_suits_and_al_amin() -> None:
    """E21: layered suits are optimal; Al-Amin's wilds join the largest suit."""
    fish, wheat, ivory, gold = (Card.FISH, Card.WHEAT, Card.IVORY, Card.GOLD)
    counts = [0] * 9
    for card, n in ((fish, 3), (wheat, 2), (ivory, 1), (gold, 1)):
        counts[card] = n
    assert merchandise_value(counts) == 17
    counts = [0] * 9
    counts[fish], counts[wheat] = 2, 1
    assert merchandise_value(counts, wilds=2) == 14
    assert merchandise_value(counts) == 4


def test_e22_vizier_bonus_with_ties() -> None:
    """E22: A 24, B 24, C 12, D 0; A with Jafaar 32."""
    players = {A: {"viziers": 4}, B: {"viziers": 4}, C: {"viziers": 2}}
    state = build(seats=4, players=players)
    vp = [score_sheet(state, s).viziers + score_sheet(state, s).vizier_bonus for s in range(4)]
    assert vp == [24, 24, 12, 0]
    state = build(seats=4, players={**players, A: {"viziers": 4, "djinns": "jafaar"}})
    sheet = score_sheet(state, A)
    assert sheet.viziers + sheet.vizier_bonus == 32


# -- E23: clean-up -------------------------------------------------------------------------


def test_e23_cleanup_and_next_round() -> None:
    """E23: the row refills from pile then reshuffled discards; the display from its discards."""
    state = build(seats=4, board={(0, 0): "Y", (0, 1): "Y"}, row="fish spice")
    state = at_turn(state, D, step=Step.SALE, played=(B, A, C))
    rest = state.resource_pile
    state = replace(
        state,
        resource_pile=rest[:3],
        resource_discard=rest[3:13],
        djinn_display=djinns("jafaar enki"),
        djinn_pile=(),
        djinn_discard=djinns("marid iblis"),
    )
    flags = replace(state.players[A], djinns=(Djinn.ECHIDNA,), used=(Djinn.ECHIDNA,), echidna=True)
    state = replace(state, players=(flags, *state.players[1:]))
    state = do(state, "end-turn")
    assert state.step is Step.BID and state.round == 2
    assert len(state.resource_row) == 9 and state.resource_row[:5] == cards("fish spice") + rest[:3]
    assert len(state.resource_pile) == 6 and state.resource_discard == ()
    assert len(state.djinn_display) == 3 and state.djinn_display[:2] == djinns("jafaar enki")
    assert len(state.djinn_pile) == 1 and state.djinn_discard == ()
    assert set(state.djinn_display[2:] + state.djinn_pile) == set(djinns("marid iblis"))
    player = state.players[A]
    assert player.used == () and not player.echidna
    assert state.bid_order == (B, A, C, D) and state.next_bid_order == ()

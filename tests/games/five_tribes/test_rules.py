"""Five Tribes rules, one test per rule (setup §4, bidding §5.3, turns §5.4, tribes §5.7,
tiles §5.8, sale §5.10, clean-up §5.11, end and scoring §7). Djinns: test_djinns.py."""

from __future__ import annotations

from dataclasses import replace

import pytest

from tests.games.five_tribes.fixtures import at_turn, bidding, build, do, gold, keys, t
from tribes.engine import IllegalMoveError
from tribes.games.five_tribes import GAME
from tribes.games.five_tribes.data import CARD_COUNTS, Card, Djinn, Meeple
from tribes.games.five_tribes.invariants import check_invariants
from tribes.games.five_tribes.rules.rounds import game_over
from tribes.games.five_tribes.state import State, Step

A, B, C, D = 0, 1, 2, 3


# -- setup (§4) ----------------------------------------------------------------------------


@pytest.mark.parametrize("seats", [2, 3, 4])
def test_setup_deals_the_initial_state(seats: int) -> None:
    """§4: 3 meeples per tile, empty bag, 9 + 45 cards, 3 + 19 Djinns, 50 GC, all camels."""
    state = GAME.new_game(seats, {}, 42)
    assert all(sum(counts) == 3 for counts in state.meeples) and sum(state.bag) == 0
    assert len(state.resource_row) == 9 and len(state.resource_pile) == 45
    assert len(state.djinn_display) == 3 and len(state.djinn_pile) == 19
    assert gold(state) == (50,) * seats
    assert all(p.camels == (11 if seats == 2 else 8) for p in state.players)
    assert sorted(state.bid_order) == list(range(4 if seats == 2 else seats))
    assert state.step is Step.BID and state.round == 1
    check_invariants(state)


def test_two_players_have_two_markers_each() -> None:
    """§1: with 2 players each seat owns 2 of the 4 markers."""
    state = GAME.new_game(2, {}, 3)
    owners = sorted(state.marker_owner(m) for m in state.bid_order)
    assert owners == [0, 0, 1, 1]


def test_setup_depends_only_on_the_seed() -> None:
    """§4: the same seed gives the same layout, meeples, piles and bid order."""
    assert GAME.new_game(3, {}, 9) == GAME.new_game(3, {}, 9)
    assert GAME.new_game(3, {}, 9).layout != GAME.new_game(3, {}, 10).layout


# -- bidding (§5.3) ------------------------------------------------------------------------


def test_a_paid_spot_holds_one_marker() -> None:
    """§5.3: a taken paid spot is not offered and is explained."""
    state = do(bidding(build(), [A, B, C]), "bid:5")
    assert "bid:5" not in keys(state)
    with pytest.raises(IllegalMoveError, match="already taken"):
        do(state, "bid:5")


def test_bids_need_the_gold() -> None:
    """§5.3: a spot is legal only if the bidder can pay its price."""
    state = bidding(build(players={A: {"gold": 4}}), [A, B, C])
    assert keys(state) == ["bid:0", "bid:1", "bid:3"]
    with pytest.raises(IllegalMoveError, match="cannot afford 8 GC"):
        do(state, "bid:8")


def test_kumarbi_is_once_per_round_across_both_two_player_markers() -> None:
    """§5.3: in 2p the Kumarbi flag covers both of its owner's markers."""
    players = {A: {"djinns": "kumarbi", "cards": "fakir fakir"}}
    state = bidding(build(seats=2, players=players), [0, 1, 2, 3])
    state = do(state, "bid:3:k1")
    assert Djinn.KUMARBI in state.players[A].used
    state = do(state, "bid:0")
    assert state.bid_order == (2, 3)
    assert not any(":k" in k for k in keys(state))


def test_kumarbi_price_never_goes_below_the_zero_rung() -> None:
    """§5.3: k <= index(spot) on the ladder, so Bid(1) takes at most one Fakir."""
    players = {A: {"djinns": "kumarbi", "cards": "fakir fakir fakir"}}
    state = bidding(build(players=players), [A, B, C])
    assert "bid:1:k1" in keys(state) and "bid:1:k2" not in keys(state)
    state = do(state, "bid:1:k1")
    assert state.players[A].gold == 50 and state.track[5] == A


def test_overflow_marker_plays_after_every_zero() -> None:
    """§5.3 RECONSTRUCTED: the overflow spot plays last."""
    state = bidding(build(seats=4, players={D: {"gold": 0}}), [A, B, C, D])
    state = do(state, "bid:0", "bid:0", "bid:0", "bid:overflow")
    assert state.turn is not None and state.turn.marker == C
    assert state.zero_aisle == (B, A) and state.overflow == (D,)


# -- the action turn (§5.4) ----------------------------------------------------------------


def test_turn_marker_moves_to_the_next_bid_order_when_its_turn_starts() -> None:
    """§5.4 A0: the marker leaves the track and joins next_bid_order."""
    state = do(bidding(build(board={(0, 0): "Y", (0, 1): "Y"}), [A, B, C]), "bid:0", "bid:8")
    state = do(state, "bid:1")
    assert state.next_bid_order == (B,) and state.track[2] is None  # spot 8
    state = do(state, "pickup:0-0", "drop:0-1:y", "resolve-tribe", "skip-tile", "end-turn")
    assert state.next_bid_order == (B, C)


def test_skip_movement_only_when_no_pick_up_exists() -> None:
    """§5.4 A1: SkipMovement is not offered while a PickUp is legal."""
    state = at_turn(build(board={(0, 0): "Y", (0, 1): "Y"}), A, later=(B, C))
    assert "skip-movement" not in keys(state)
    with pytest.raises(IllegalMoveError, match="must move"):
        do(state, "skip-movement")


def test_skip_movement_triggers_the_end_and_goes_to_sale() -> None:
    """§5.4 A1, §7.1: no tribe or tile action after SkipMovement; selling is allowed."""
    state = at_turn(build(players={A: {"cards": "fish"}}), A, later=(B, C))
    state = do(state, "skip-movement")
    assert state.end_triggered and state.step is Step.SALE
    assert keys(state) == ["end-turn", "sell:fish"]


# -- tribes (§5.7) -------------------------------------------------------------------------


def _assassins(board: dict[tuple[int, int], str], **spec: object) -> State:
    """A collects 2 Assassins on (0,1) from (0,0)."""
    players: dict[int, dict[str, object]] = {A: dict(spec)}
    board = {(0, 0): "R", (0, 1): "R", **board}
    state = build(board=board, players=players)
    return do(at_turn(state, A, later=(B, C)), "pickup:0-0", "drop:0-1:r")


def test_assassins_kill_nothing_only_without_targets() -> None:
    """§5.7, §10 item 7: AssassinateNone is offered only when nothing can be killed."""
    state = _assassins({})
    assert keys(state) == ["kill:none"]
    bag = state.bag
    state = do(state, "kill:none")
    assert state.bag[Meeple.ASSASSIN] == bag[Meeple.ASSASSIN] + 2 and state.step is Step.TILE
    assert keys(_assassins({(4, 5): "G"}, cards="fakir")) == ["kill:none"]


def test_assassin_range_uses_the_minimal_fakirs() -> None:
    """§5.7, §10 item 8: a tile beyond the range costs exactly the missing Fakirs."""
    state = _assassins({(0, 4): "G", (4, 5): "B"}, cards="fakir")
    assert keys(state) == ["kill:0-4:g:f1"]  # distance 3 = 2 Assassins + 1 Fakir
    state = do(state, "kill:0-4:g:f1")
    assert state.players[A].fakirs == 0 and state.owners[t(0, 4)] == A


def test_own_supply_is_never_a_target() -> None:
    """§5.7: Assassins target opponents' Viziers/Elders only."""
    state = _assassins({}, viziers=3, elders=2)
    assert keys(state) == ["kill:none"]


def test_iblis_kills_two_from_the_same_opponent() -> None:
    """§5.7, §10 item 9: with Iblis, exactly min(2, available) from one opponent."""
    state = build(
        board={(0, 0): "R", (0, 1): "R"},
        players={
            A: {"djinns": "iblis", "elders": 1},
            B: {"viziers": 2, "elders": 1},
            C: {"elders": 1},
        },
    )
    state = do(at_turn(state, A, later=(B, C)), "djinn:iblis:e", "pickup:0-0", "drop:0-1:r")
    assert keys(state) == ["kill:p1:yw", "kill:p1:yy", "kill:p2:w"]
    state = do(state, "kill:p1:yw")
    assert (state.players[B].viziers, state.players[B].elders) == (1, 0)


def test_kandicha_steals_viziers_but_boaz_protects() -> None:
    """§8: Kandicha takes a killed Vizier into the killer's supply; Boaz blocks Kandicha too."""
    players = {A: {"djinns": "kandicha"}, B: {"viziers": 2}, C: {"viziers": 2, "djinns": "boaz"}}
    state = build(board={(0, 0): "R", (0, 1): "R"}, players=players)
    state = do(at_turn(state, A, later=(B, C)), "pickup:0-0", "drop:0-1:r")
    assert keys(state) == ["kill:p1:y"]
    state = do(state, "kill:p1:y")
    assert state.players[A].viziers == 1 and state.players[B].viziers == 1
    check_invariants(state)


def test_kandicha_merchant_kill_draws_a_card_if_any_is_left() -> None:
    """§5.7, §8: a killed Merchant gives the top resource card; nothing if both piles are empty."""
    state = _assassins({(0, 2): "G"}, djinns="kandicha")
    top = state.resource_pile[0]
    after = do(state, "kill:0-2:g")
    assert after.players[A].cards[top] == 1 and after.owners[t(0, 2)] == A
    empty = do(replace(state, resource_pile=(), resource_discard=()), "kill:0-2:g")
    assert sum(empty.players[A].cards) == 0


def test_kandicha_builder_kill_earns_the_builders_gold() -> None:
    """§10 item 14: a killed Builder earns blue(tile), doubled by Echidna, no Fakir bonus."""
    state = _assassins({(1, 1): "B"}, djinns="kandicha", cards="fakir")
    assert do(state, "kill:1-1:b").players[A].gold == 54  # blue((1,1)) = 4
    state = _assassins({(1, 1): "B"}, djinns="kandicha echidna", used="echidna", echidna=True)
    assert do(state, "kill:1-1:b").players[A].gold == 58


def test_nekir_pays_per_event_or_per_meeple_by_option() -> None:
    """§10 item 3: an Iblis double kill pays Nekir once (default) or per meeple (option)."""
    players = {A: {"djinns": "iblis", "elders": 1}, C: {"djinns": "nekir"}}
    moves = ("djinn:iblis:e", "pickup:0-0", "drop:0-1:r", "kill:1-1:yw")
    for option, expected in (("event", 52), ("meeple", 54)):
        state = build(
            board={(0, 0): "R", (0, 1): "R", (1, 1): "YW"},
            players=players,
            options={"nekir_payout": option},
        )
        state = do(at_turn(state, A, later=(B, C)), *moves)
        assert state.players[C].gold == expected


# -- tiles (§5.8) --------------------------------------------------------------------------


def _ending_on(where: tuple[int, int], start: tuple[int, int], **spec: object) -> State:
    """A moves a Vizier from ``start`` onto a Vizier at ``where`` and resolves it."""
    (r, c), (sr, sc) = where, start
    state = build(board={start: "Y", where: "YG"}, players={A: dict(spec)})
    state = at_turn(state, A, later=(B, C))
    return do(state, f"pickup:{sr}-{sc}", f"drop:{r}-{c}:y", "resolve-tribe")


def test_oasis_palm_is_compulsory_even_on_another_players_tile() -> None:
    """§5.8, §8: the palm goes on the final Oasis whoever controls it."""
    state = build(board={(0, 4): "Y", (0, 5): "YG"}, owners={(0, 5): C})
    state = do(at_turn(state, A, later=(B, C)), "pickup:0-4", "drop:0-5:y", "resolve-tribe")
    assert keys(state) == ["palm"]
    assert do(state, "palm").palms[t(0, 5)] == 1


def test_empty_supply_skips_the_compulsory_action() -> None:
    """§5.8, §10 item 23: with no palm left the Oasis offers only SkipTileAction."""
    state = replace(_ending_on((0, 5), (0, 4)), palm_supply=0, palms=(0,) * 29 + (12,))
    assert keys(state) == ["skip-tile"]


def test_small_market_needs_three_gold() -> None:
    """§5.8: a Small Market purchase needs 3 GC."""
    assert keys(_ending_on((0, 1), (0, 0), gold=2)) == ["skip-tile"]
    assert len(keys(_ending_on((0, 1), (0, 0), gold=3))) == 4


def test_large_market_offers_pairs_among_the_first_six() -> None:
    """§5.8: 15 pairs from the first 6 cards, for 6 GC."""
    state = _ending_on((1, 1), (0, 1))
    assert len([k for k in keys(state) if k.startswith("large-market")]) == 15
    assert keys(_ending_on((1, 1), (0, 1), gold=5)) == ["skip-tile"]


def test_sacred_place_needs_an_elder() -> None:
    """§3.7: 2 Elders or 1 Elder + 1 Fakir; Fakirs alone cannot pay."""
    assert keys(_ending_on((0, 2), (0, 3), cards="fakir fakir")) == ["skip-tile"]
    offered = keys(_ending_on((0, 2), (0, 3), elders=1, cards="fakir"))
    assert offered == ["buy:enki:ef", "buy:jafaar:ef", "buy:marid:ef", "skip-tile"]


def test_markets_need_a_card_in_the_row() -> None:
    """§8: with an empty resource row the markets offer only SkipTileAction."""
    state = build(board={(0, 0): "Y", (0, 1): "YG"}, row="")
    state = do(at_turn(state, A, later=(B, C)), "pickup:0-0", "drop:0-1:y", "resolve-tribe")
    assert keys(state) == ["skip-tile"]


def test_selling_waits_for_the_sale_step() -> None:
    """§8: merchandise is sold only after the tribe and tile actions."""
    state = _ending_on((0, 1), (0, 0), cards="fish")
    assert state.step is Step.TILE and not any(k.startswith("sell") for k in keys(state))
    assert "sell:fish" in keys(do(state, "skip-tile"))


# -- sale, clean-up, end (§5.10, §5.11, §7) ------------------------------------------------


def test_sale_offers_every_subset_of_the_types_held() -> None:
    """§5.10: one SellSuit per non-empty subset of the merchandise types held."""
    state = at_turn(
        build(players={A: {"cards": "fish fish silk gold fakir"}}), A, step=Step.SALE, later=(B, C)
    )
    sells = [k for k in keys(state) if k.startswith("sell")]
    assert len(sells) == 7 and all("fakir" not in k for k in sells)


def test_resource_row_stays_short_when_both_piles_are_empty() -> None:
    """§5.11: if the pile and the discards are both empty, the row is not refilled."""
    state = build(
        board={(0, 0): "Y", (0, 1): "Y"},
        row="fish",
        players={B: {"cards": " ".join(["fakir"] * 18)}},
    )
    everything = state.resource_pile
    held = list(state.players[A].cards)
    for card in everything:
        held[card] += 1
    state = replace(
        state,
        resource_pile=(),
        players=(replace(state.players[A], cards=tuple(held)), *state.players[1:]),
    )
    assert sum(held) + 18 + 1 == sum(CARD_COUNTS)
    state = do(at_turn(state, C, step=Step.SALE, played=(A, B)), "end-turn")
    assert state.resource_row == (Card.FISH,) and state.step is Step.BID


def test_tied_players_share_the_rank() -> None:
    """§7.3: no tie-breaker: equal scores share rank 1 (then 3)."""
    state = game_over(build(players={A: {"gold": 60}, B: {"gold": 60}}))
    result = GAME.result(state)
    assert result is not None and result.ranks == (1, 1, 3)
    assert "share" in result.summary


def test_two_player_vizier_bonus() -> None:
    """§1: in 2p the bonus is 10 VP for strictly more Viziers than the opponent."""
    state = game_over(build(seats=2, players={A: {"viziers": 3}, B: {"viziers": 1}}))
    assert state.final_scores == (50 + 3 + 10, 50 + 1)


def test_scores_are_hidden_until_the_end() -> None:
    """§6: running scores contain hidden gold, so none are served during play."""
    state = GAME.new_game(3, {}, 5)
    assert GAME.scores(state, 0) == () and GAME.result(state) is None

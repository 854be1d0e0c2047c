"""Five Tribes' wire module: every move both ways, every view complete and redacted."""

from __future__ import annotations

import functools
import random
import typing
from dataclasses import dataclass

import pytest

from tests.games.five_tribes.support import perturb
from tribes.core.catalog import BUILTIN, builtin_entries
from tribes.engine import SPECTATOR, MalformedMoveError
from tribes.engine.driver import new_game, play
from tribes.engine.rng import Rng
from tribes.games.five_tribes import GAME
from tribes.games.five_tribes.data import PAID_SPOTS, TILE_TYPES, Card, Djinn, Meeple, Pay
from tribes.games.five_tribes.moves import (
    Assassinate,
    AssassinateNone,
    Bid,
    BidOverflow,
    Build,
    BuyDjinn,
    Drop,
    EndTurn,
    KeepDjinn,
    LargeMarket,
    Move,
    PickUp,
    PlaceHere,
    PlacePalace,
    PlacePalm,
    PlaceRedirect,
    ResolveTribe,
    SellSuit,
    SkipMovement,
    SkipTileAction,
    SmallMarket,
    UseDjinn,
)
from tribes.games.five_tribes.state import PlayerView, State, Step, TurnView, View
from tribes.v1 import five_tribes_pb2 as fpb
from tribes.wire.five_tribes import WIRE, move_from_proto, move_to_proto, view_to_proto

#: Seeds whose random games include Sibittis draws and Hagis/Lamia redirects.
SEEDS = {2: (8, 17, 3), 3: (1, 7, 5), 4: (26, 31, 9)}
SAMPLE_EVERY = 4


@dataclass(frozen=True)
class Sample:
    state: State
    seats: int


@functools.cache
def samples() -> tuple[Sample, ...]:
    """States of seeded random games, 2-4 players: every few moves, every pending
    sub-decision, and each final state."""
    found: list[Sample] = []
    for seats, seeds in SEEDS.items():
        for seed in seeds:
            state = new_game(GAME, seats, {}, seed)
            chooser = random.Random(seed)
            step = 0
            while GAME.result(state) is None:
                pending = state.turn is not None and state.turn.pending is not None
                if step % SAMPLE_EVERY == 0 or pending:
                    found.append(Sample(state, seats))
                (seat,) = GAME.to_act(state)
                state = play(GAME, state, seat, chooser.choice(GAME.legal_moves(state, seat)))
                step += 1
            found.append(Sample(state, seats))
    return tuple(found)


def viewers(seats: int) -> list[int]:
    return [SPECTATOR, *range(seats)]


# -- moves ---------------------------------------------------------------------------------

#: At least one move of every kind, with every optional part both set and unset.
EVERY_KIND: tuple[Move, ...] = (
    Bid(0),
    Bid(18),
    Bid(12, 2),
    BidOverflow(),
    PickUp(0),
    PickUp(29),
    SkipMovement(),
    Drop(13, Meeple.ASSASSIN),
    ResolveTribe(),
    Build(0),
    Build(3),
    Assassinate((Meeple.VIZIER,), tile=7),
    Assassinate((Meeple.ELDER, Meeple.BUILDER), tile=4, fakirs=2),
    Assassinate((Meeple.VIZIER, Meeple.ELDER), opponent=3),
    AssassinateNone(),
    PlacePalm(),
    PlacePalace(),
    SmallMarket(2),
    LargeMarket((0,)),
    LargeMarket((1, 5)),
    BuyDjinn(Djinn.UTUG, Pay.EF),
    SkipTileAction(),
    PlaceHere(),
    PlaceRedirect(11, Pay.F),
    KeepDjinn(Djinn.AL_AMIN),
    UseDjinn(Djinn.IBLIS, Pay.E),
    UseDjinn(Djinn.ANUN_NAK, Pay.F, 28),
    SellSuit((Card.IVORY,)),
    SellSuit((Card.IVORY, Card.GOLD, Card.FISH, Card.POTTERY)),
    EndTurn(),
)


def test_every_move_kind_round_trips() -> None:
    """Each of the 21 move kinds converts to its own oneof arm and back unchanged."""
    assert {type(m) for m in EVERY_KIND} == set(typing.get_args(Move))
    arms = set()
    for move in EVERY_KIND:
        msg = move_to_proto(move)
        assert msg.WhichOneof("game") == "five_tribes"
        arms.add(msg.five_tribes.WhichOneof("kind"))
        assert move_from_proto(msg.five_tribes) == move
    assert arms == {f.name for f in fpb.FiveTribesMove.DESCRIPTOR.oneofs_by_name["kind"].fields}


def test_move_fields_carry_the_rulebook_values() -> None:
    """Tiles travel as row/column, enums by name."""
    drop = move_to_proto(Drop(13, Meeple.ASSASSIN)).five_tribes.drop
    assert (drop.tile.row, drop.tile.column, drop.meeple) == (2, 1, fpb.FIVE_TRIBES_MEEPLE_ASSASSIN)
    kill = move_to_proto(Assassinate((Meeple.ELDER,), opponent=0)).five_tribes.assassinate
    assert kill.WhichOneof("target") == "opponent" and kill.opponent == 0
    use = move_to_proto(UseDjinn(Djinn.IBLIS, Pay.EE)).five_tribes.use_djinn
    assert not use.HasField("tile")
    assert (use.djinn, use.payment) == (
        fpb.FIVE_TRIBES_DJINN_IBLIS,
        fpb.FIVE_TRIBES_PAYMENT_TWO_ELDERS,
    )
    sell = move_to_proto(SellSuit((Card.JEWELS, Card.WHEAT))).five_tribes.sell_suit
    assert list(sell.cards) == [fpb.FIVE_TRIBES_CARD_JEWELS, fpb.FIVE_TRIBES_CARD_WHEAT]


def test_every_legal_move_of_random_games_round_trips() -> None:
    """For every legal move of the sampled states, from_proto(to_proto(m)) == m."""
    kinds: set[type] = set()
    count = 0
    for sample in samples():
        state = sample.state
        for seat in GAME.to_act(state):
            for move in GAME.legal_moves(state, seat):
                assert move_from_proto(move_to_proto(move).five_tribes) == move, move.key
                kinds.add(type(move))
                count += 1
    assert count > 1000 and len(kinds) >= 15


def test_enums_match_the_rules_one_to_one() -> None:
    """Each proto enum is exactly the domain's set plus *_UNSPECIFIED = 0."""
    cases = [
        (fpb.FiveTribesMeeple, "FIVE_TRIBES_MEEPLE", [m.name for m in Meeple]),
        (fpb.FiveTribesCard, "FIVE_TRIBES_CARD", [c.name for c in Card]),
        (fpb.FiveTribesDjinn, "FIVE_TRIBES_DJINN", [d.name for d in Djinn]),
        (fpb.FiveTribesStep, "FIVE_TRIBES_STEP", [s.name for s in Step]),
        (
            fpb.FiveTribesPayment,
            "FIVE_TRIBES_PAYMENT",
            ["ELDER", "FAKIR", "TWO_ELDERS", "ELDER_AND_FAKIR"],
        ),
        (
            fpb.FiveTribesTileKind,
            "FIVE_TRIBES_TILE_KIND",
            ["VILLAGE", "SACRED_PLACE", "OASIS", "SMALL_MARKET", "LARGE_MARKET"],
        ),
    ]
    for enum, prefix, names in cases:
        assert enum.Name(0) == f"{prefix}_UNSPECIFIED"
        assert list(enum.keys())[1:] == [f"{prefix}_{name}" for name in names]


def _tile(row: int, column: int) -> fpb.FiveTribesTile:
    return fpb.FiveTribesTile(row=row, column=column)


Y, W = fpb.FIVE_TRIBES_MEEPLE_VIZIER, fpb.FIVE_TRIBES_MEEPLE_ELDER
IVORY = fpb.FIVE_TRIBES_CARD_IVORY

MALFORMED = {
    "no kind": fpb.FiveTribesMove(),
    "pick-up without tile": fpb.FiveTribesMove(pick_up=fpb.FiveTribesPickUp()),
    "row off the board": fpb.FiveTribesMove(pick_up=fpb.FiveTribesPickUp(tile=_tile(5, 0))),
    "column off the board": fpb.FiveTribesMove(pick_up=fpb.FiveTribesPickUp(tile=_tile(0, 6))),
    "negative row": fpb.FiveTribesMove(pick_up=fpb.FiveTribesPickUp(tile=_tile(-1, 2))),
    "drop without meeple": fpb.FiveTribesMove(drop=fpb.FiveTribesDrop(tile=_tile(1, 1))),
    "unknown meeple": fpb.FiveTribesMove(drop=fpb.FiveTribesDrop(tile=_tile(1, 1), meeple=6)),
    "bid on no spot": fpb.FiveTribesMove(bid=fpb.FiveTribesBid(spot=7)),
    "negative bid": fpb.FiveTribesMove(bid=fpb.FiveTribesBid(spot=-3)),
    "kumarbi on zero": fpb.FiveTribesMove(bid=fpb.FiveTribesBid(spot=0, kumarbi_fakirs=1)),
    "kumarbi beyond the ladder": fpb.FiveTribesMove(
        bid=fpb.FiveTribesBid(spot=18, kumarbi_fakirs=7)
    ),
    "negative build": fpb.FiveTribesMove(build=fpb.FiveTribesBuild(fakirs=-1)),
    "kill without target": fpb.FiveTribesMove(assassinate=fpb.FiveTribesAssassinate(kills=[Y])),
    "kill nothing": fpb.FiveTribesMove(assassinate=fpb.FiveTribesAssassinate(tile=_tile(0, 0))),
    "kill three": fpb.FiveTribesMove(
        assassinate=fpb.FiveTribesAssassinate(kills=[Y, Y, Y], tile=_tile(0, 0))
    ),
    "kills out of order": fpb.FiveTribesMove(
        assassinate=fpb.FiveTribesAssassinate(kills=[W, Y], tile=_tile(0, 0))
    ),
    "kill opponent 4": fpb.FiveTribesMove(
        assassinate=fpb.FiveTribesAssassinate(kills=[Y], opponent=4)
    ),
    "fakirs against an opponent": fpb.FiveTribesMove(
        assassinate=fpb.FiveTribesAssassinate(kills=[Y], opponent=1, fakirs=1)
    ),
    "small market index 3": fpb.FiveTribesMove(small_market=fpb.FiveTribesSmallMarket(index=3)),
    "large market no index": fpb.FiveTribesMove(large_market=fpb.FiveTribesLargeMarket()),
    "large market decreasing": fpb.FiveTribesMove(
        large_market=fpb.FiveTribesLargeMarket(indices=[4, 1])
    ),
    "large market three cards": fpb.FiveTribesMove(
        large_market=fpb.FiveTribesLargeMarket(indices=[0, 1, 2])
    ),
    "djinn unspecified": fpb.FiveTribesMove(
        buy_djinn=fpb.FiveTribesBuyDjinn(payment=fpb.FIVE_TRIBES_PAYMENT_TWO_ELDERS)
    ),
    "unknown djinn": fpb.FiveTribesMove(keep_djinn=fpb.FiveTribesKeepDjinn(djinn=23)),
    "payment unspecified": fpb.FiveTribesMove(
        use_djinn=fpb.FiveTribesUseDjinn(djinn=fpb.FIVE_TRIBES_DJINN_IBLIS)
    ),
    "redirect without tile": fpb.FiveTribesMove(
        place_redirect=fpb.FiveTribesPlaceRedirect(payment=fpb.FIVE_TRIBES_PAYMENT_ELDER)
    ),
    "djinn on a tile off the board": fpb.FiveTribesMove(
        use_djinn=fpb.FiveTribesUseDjinn(
            djinn=fpb.FIVE_TRIBES_DJINN_LETA,
            payment=fpb.FIVE_TRIBES_PAYMENT_TWO_ELDERS,
            tile=_tile(2, 9),
        )
    ),
    "sell nothing": fpb.FiveTribesMove(sell_suit=fpb.FiveTribesSellSuit()),
    "sell a fakir": fpb.FiveTribesMove(
        sell_suit=fpb.FiveTribesSellSuit(cards=[fpb.FIVE_TRIBES_CARD_FAKIR])
    ),
    "sell twice the same": fpb.FiveTribesMove(
        sell_suit=fpb.FiveTribesSellSuit(cards=[IVORY, IVORY])
    ),
    "sell unspecified": fpb.FiveTribesMove(sell_suit=fpb.FiveTribesSellSuit(cards=[0])),
}


@pytest.mark.parametrize("name", MALFORMED)
def test_malformed_moves_raise_malformed_move_error(name: str) -> None:
    """Protos that are no Five Tribes move at all are refused with a readable reason."""
    with pytest.raises(MalformedMoveError, match="Five Tribes"):
        move_from_proto(MALFORMED[name])


def test_legality_is_left_to_the_rules() -> None:
    """A well-formed move converts even where no state could allow it right now."""
    msg = fpb.FiveTribesMove(bid=fpb.FiveTribesBid(spot=18, kumarbi_fakirs=6))
    assert move_from_proto(msg) == Bid(18, 6)


# -- views ---------------------------------------------------------------------------------

_MEEPLE_OF = {fpb.FiveTribesMeeple.Value(f"FIVE_TRIBES_MEEPLE_{m.name}"): m for m in Meeple}
_CARD_OF = {fpb.FiveTribesCard.Value(f"FIVE_TRIBES_CARD_{c.name}"): c for c in Card}
_DJINN_OF = {fpb.FiveTribesDjinn.Value(f"FIVE_TRIBES_DJINN_{d.name}"): d for d in Djinn}
_STEP_OF = {fpb.FiveTribesStep.Value(f"FIVE_TRIBES_STEP_{s.name}"): s for s in Step}
_CODE_OF = {
    (fpb.FiveTribesTileKind.Value(f"FIVE_TRIBES_TILE_KIND_{t.kind.name}"), t.value): t.code
    for t in TILE_TYPES
}
_MEEPLE_FIELDS = ("viziers", "elders", "merchants", "builders", "assassins")
_CARD_FIELDS = (*(c.name.lower() for c in Card if c is not Card.FAKIR), "fakirs")


def _tile_index(tile: fpb.FiveTribesTile) -> int:
    return tile.row * 6 + tile.column


def _opt_tile(msg: typing.Any, field: str) -> int | None:
    return _tile_index(getattr(msg, field)) if msg.HasField(field) else None


def _counts(msg: typing.Any, fields: tuple[str, ...]) -> tuple[int, ...]:
    return tuple(getattr(msg, f) for f in fields)


def decode_view(msg: fpb.FiveTribesView) -> View:
    """The domain view back from the proto (test-only inverse of view_to_proto)."""
    turn = None
    if msg.HasField("turn"):
        t = msg.turn
        p = t.pending
        has_pending = t.HasField("pending")
        turn = TurnView(
            marker=t.marker,
            seat=t.seat,
            hand=_counts(t.hand, _MEEPLE_FIELDS),
            pos=_opt_tile(t, "position"),
            prev=_opt_tile(t, "previous"),
            start=_opt_tile(t, "start_tile"),
            final=_opt_tile(t, "final_tile"),
            tribe=_MEEPLE_OF.get(t.tribe),
            collected=t.collected,
            return_step=_STEP_OF[p.return_step] if has_pending else None,
            pending_tile=_opt_tile(p, "tile"),
            drawn_count=p.drawn_count,
            drawn=tuple(_DJINN_OF[d] for d in p.drawn),
        )
    return View(
        seat=msg.seat,
        round=msg.round,
        step=_STEP_OF[msg.step],
        to_act=tuple(msg.to_act),
        end_triggered=msg.end_triggered,
        tiles=tuple(_CODE_OF[(t.kind, t.value)] for t in msg.tiles),
        meeples=tuple(_counts(t.meeples, _MEEPLE_FIELDS) for t in msg.tiles),
        owners=tuple(t.owner if t.HasField("owner") else None for t in msg.tiles),
        palms=tuple(t.palms for t in msg.tiles),
        palaces=tuple(t.palaces for t in msg.tiles),
        bag_size=msg.bag_size,
        palm_supply=msg.palm_supply,
        palace_supply=msg.palace_supply,
        resource_pile_size=msg.resource_pile_size,
        resource_row=tuple(_CARD_OF[c] for c in msg.resource_row),
        resource_discard=tuple(_CARD_OF[c] for c in msg.resource_discard),
        djinn_pile_size=msg.djinn_pile_size,
        djinn_display=tuple(_DJINN_OF[d] for d in msg.djinn_display),
        djinn_discard=tuple(_DJINN_OF[d] for d in msg.djinn_discard),
        players=tuple(
            PlayerView(
                gold=p.gold if p.HasField("gold") else None,
                viziers=p.viziers,
                elders=p.elders,
                cards=_counts(p.cards, _CARD_FIELDS),
                djinns=tuple(_DJINN_OF[d] for d in p.djinns),
                camels=p.camels,
                used=tuple(_DJINN_OF[d] for d in p.used_djinns),
                echidna=p.echidna_active,
                iblis=p.iblis_active,
            )
            for p in msg.players
        ),
        marker_owners=tuple(msg.marker_owners),
        bid_order=tuple(msg.bid_order),
        next_bid_order=tuple(msg.next_bid_order),
        track=tuple(s.marker if s.HasField("marker") else None for s in msg.paid_spots),
        zero_aisle=tuple(msg.zero_aisle),
        overflow=tuple(msg.overflow),
        turn=turn,
        final_scores=tuple(msg.final_scores) if msg.final_scores else None,
    )


def test_every_view_converts_completely() -> None:
    """Every seat's and the spectator's view decodes back to the identical domain view."""
    pending_seen = 0
    for sample in samples():
        for viewer in viewers(sample.seats):
            view = GAME.view(sample.state, viewer)
            msg = view_to_proto(view)
            assert msg.WhichOneof("game") == "five_tribes"
            assert decode_view(msg.five_tribes) == view
            pending_seen += msg.five_tribes.turn.HasField("pending")
    assert pending_seen > 0


def test_view_fields_carry_the_right_values() -> None:
    """Spot checks: positions, meeple totals, paid spots, steps and supplies."""
    for sample in samples()[::7]:
        view = GAME.view(sample.state, 0)
        msg = view_to_proto(view).five_tribes
        assert len(msg.tiles) == 30
        for index, tile in enumerate(msg.tiles):
            assert divmod(index, 6) == (tile.position.row, tile.position.column)
            assert sum(_counts(tile.meeples, _MEEPLE_FIELDS)) == sum(view.meeples[index])
        total = sum(sum(_counts(t.meeples, _MEEPLE_FIELDS)) for t in msg.tiles)
        assert total == sum(map(sum, view.meeples))
        assert [s.cost for s in msg.paid_spots] == list(PAID_SPOTS)
        assert fpb.FiveTribesStep.Name(msg.step) == f"FIVE_TRIBES_STEP_{view.step.name}"
        assert (msg.bag_size, msg.palm_supply, msg.palace_supply) == (
            view.bag_size,
            view.palm_supply,
            view.palace_supply,
        )
        assert len(msg.players) == sample.seats


def test_gold_is_shown_only_to_its_owner_until_the_game_is_over() -> None:
    """A seat sees its own gold, no opponent's; spectators none; everyone's at the end."""
    over_seen = 0
    for sample in samples():
        over = sample.state.step is Step.GAME_OVER
        over_seen += over
        for viewer in viewers(sample.seats):
            players = view_to_proto(GAME.view(sample.state, viewer)).five_tribes.players
            for seat, player in enumerate(players):
                assert player.HasField("gold") == (over or seat == viewer)
                if player.HasField("gold"):
                    assert player.gold == sample.state.players[seat].gold
    assert over_seen == sum(len(seeds) for seeds in SEEDS.values())


def test_final_views_hold_the_final_scores() -> None:
    """At GAME_OVER every view carries the final scores; before, none."""
    for sample in samples():
        msg = view_to_proto(GAME.view(sample.state, SPECTATOR)).five_tribes
        result = GAME.result(sample.state)
        if result is None:
            assert not msg.final_scores
        else:
            assert list(msg.final_scores) == list(result.scores)
            assert msg.step == fpb.FIVE_TRIBES_STEP_GAME_OVER and not msg.to_act


def test_sibittis_draws_reach_only_their_user() -> None:
    """While SIBITTIS_KEEP pends, only the Sibittis user's view lists the drawn Djinns."""
    seen = 0
    for sample in samples():
        turn = sample.state.turn
        if sample.state.step is not Step.SIBITTIS_KEEP or turn is None:
            continue
        for viewer in viewers(sample.seats):
            pending = view_to_proto(GAME.view(sample.state, viewer)).five_tribes.turn.pending
            assert pending.drawn_count >= 1
            assert bool(pending.drawn) == (viewer == turn.seat)
        seen += 1
    assert seen > 0


def test_views_do_not_change_when_hidden_data_does() -> None:
    """The serialized view ignores others' gold, piles, bag, Sibittis draws and the PRNG."""
    rng = Rng(2024)
    for sample in samples()[::3]:
        for viewer in viewers(sample.seats):
            seen = view_to_proto(GAME.view(sample.state, viewer)).SerializeToString()
            other = perturb(sample.state, viewer, rng)
            assert view_to_proto(GAME.view(other, viewer)).SerializeToString() == seen


def test_five_tribes_is_a_builtin_game() -> None:
    """The catalog serves Five Tribes with this wire module."""
    assert ("tribes.games.five_tribes", "tribes.wire.five_tribes") in BUILTIN
    entry = next(e for e in builtin_entries() if e.game.id == "five_tribes")
    assert entry.wire is WIRE and WIRE.arm == "five_tribes" and entry.game is GAME

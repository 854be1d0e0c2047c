"""Five Tribes' protobuf face: the 21 move kinds both ways, and the view (``five_tribes.proto``).

Tiles travel as ``FiveTribesTile{row, column}`` (the domain's index is ``row*6 + column``);
enums map by name onto the domain enums, checked once at import. ``move_from_proto``
refuses only what is not a Five Tribes move at all (no kind, an unknown enum value, a
tile off the board, a shape no legal move can have: it must give back a canonical move
id); whether the move is legal now is the rules' business. This runs for every legal
move of every snapshot, so the converters are table lookups and field assignments.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any, TypeVar

from tribes.engine import MalformedMoveError
from tribes.games.five_tribes.data import (
    PAID_SPOTS,
    TILE_TYPES,
    Card,
    Djinn,
    Meeple,
    Pay,
    TileKind,
)
from tribes.games.five_tribes.grid import COLS, ROWS, TILES
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
    parse_move,
)
from tribes.games.five_tribes.state import PlayerView, Step, TurnView, View
from tribes.v1 import common_pb2 as pb
from tribes.v1 import five_tribes_pb2 as fpb
from tribes.wire import GameWire
from tribes.wire import protowire as pw

E = TypeVar("E")

# -- enum tables (built once; a renamed value on either side fails at import) -------------


def _by_name(prefix: str, names: Iterable[str]) -> tuple[Any, ...]:
    return tuple(getattr(fpb, f"{prefix}_{name}") for name in names)


_MEEPLE_PB: tuple[fpb.FiveTribesMeeple, ...] = _by_name("FIVE_TRIBES_MEEPLE", Meeple.__members__)
_CARD_PB: tuple[fpb.FiveTribesCard, ...] = _by_name("FIVE_TRIBES_CARD", Card.__members__)
_DJINN_PB: tuple[fpb.FiveTribesDjinn, ...] = _by_name("FIVE_TRIBES_DJINN", Djinn.__members__)
_PAY_NAMES = {Pay.E: "ELDER", Pay.F: "FAKIR", Pay.EE: "TWO_ELDERS", Pay.EF: "ELDER_AND_FAKIR"}
_PAY_PB: dict[Pay, fpb.FiveTribesPayment] = dict(
    zip(_PAY_NAMES, _by_name("FIVE_TRIBES_PAYMENT", _PAY_NAMES.values()), strict=True)
)
_STEP_PB: dict[Step, fpb.FiveTribesStep] = dict(
    zip(Step, _by_name("FIVE_TRIBES_STEP", Step.__members__), strict=True)
)
_KIND_PB: dict[TileKind, fpb.FiveTribesTileKind] = dict(
    zip(TileKind, _by_name("FIVE_TRIBES_TILE_KIND", TileKind.__members__), strict=True)
)

_MEEPLE_OF: dict[int, Meeple] = {int(v): Meeple(i) for i, v in enumerate(_MEEPLE_PB)}
_CARD_OF: dict[int, Card] = {int(v): Card(i) for i, v in enumerate(_CARD_PB)}
_DJINN_OF: dict[int, Djinn] = {int(v): Djinn(i) for i, v in enumerate(_DJINN_PB)}
_PAY_OF: dict[int, Pay] = {int(v): pay for pay, v in _PAY_PB.items()}

#: Tile code (``View.tiles``) -> (kind, printed value).
_TILE_TYPE_PB = {t.code: (_KIND_PB[t.kind], t.value) for t in TILE_TYPES}
#: Tile index -> (row, column).
_ROW_COL = tuple(divmod(tile, COLS) for tile in range(TILES))


# -- moves to protobuf --------------------------------------------------------------------


def _set_tile(out: fpb.FiveTribesTile, tile: int) -> None:
    out.row, out.column = _ROW_COL[tile]


def _bid(move: Bid) -> pb.Move:
    out = pb.Move()
    bid = out.five_tribes.bid
    bid.spot = move.spot
    bid.kumarbi_fakirs = move.kumarbi_fakirs
    return out


def _pick_up(move: PickUp) -> pb.Move:
    out = pb.Move()
    _set_tile(out.five_tribes.pick_up.tile, move.tile)
    return out


def _drop(move: Drop) -> pb.Move:
    out = pb.Move()
    drop = out.five_tribes.drop
    _set_tile(drop.tile, move.tile)
    drop.meeple = _MEEPLE_PB[move.meeple]
    return out


def _build(move: Build) -> pb.Move:
    out = pb.Move()
    out.five_tribes.build.fakirs = move.fakirs
    return out


def _assassinate(move: Assassinate) -> pb.Move:
    out = pb.Move()
    kill = out.five_tribes.assassinate
    kill.kills.extend([_MEEPLE_PB[m] for m in move.kills])
    if move.opponent is not None:
        kill.opponent = move.opponent
    elif move.tile is not None:
        _set_tile(kill.tile, move.tile)
    kill.fakirs = move.fakirs
    return out


def _small_market(move: SmallMarket) -> pb.Move:
    out = pb.Move()
    out.five_tribes.small_market.index = move.index
    return out


def _large_market(move: LargeMarket) -> pb.Move:
    out = pb.Move()
    out.five_tribes.large_market.indices.extend(move.indices)
    return out


def _buy_djinn(move: BuyDjinn) -> pb.Move:
    out = pb.Move()
    buy = out.five_tribes.buy_djinn
    buy.djinn = _DJINN_PB[move.djinn]
    buy.payment = _PAY_PB[move.pay]
    return out


def _place_redirect(move: PlaceRedirect) -> pb.Move:
    out = pb.Move()
    redirect = out.five_tribes.place_redirect
    _set_tile(redirect.tile, move.tile)
    redirect.payment = _PAY_PB[move.pay]
    return out


def _keep_djinn(move: KeepDjinn) -> pb.Move:
    out = pb.Move()
    out.five_tribes.keep_djinn.djinn = _DJINN_PB[move.djinn]
    return out


def _use_djinn(move: UseDjinn) -> pb.Move:
    out = pb.Move()
    use = out.five_tribes.use_djinn
    use.djinn = _DJINN_PB[move.djinn]
    use.payment = _PAY_PB[move.pay]
    if move.tile is not None:
        _set_tile(use.tile, move.tile)
    return out


def _sell_suit(move: SellSuit) -> pb.Move:
    out = pb.Move()
    out.five_tribes.sell_suit.cards.extend([_CARD_PB[c] for c in move.cards])
    return out


def _plain(arm: str) -> pb.Move:
    """The Move of a kind without parameters (copied per call, never handed out)."""
    out = pb.Move()
    getattr(out.five_tribes, arm).SetInParent()
    return out


_PLAIN_PB: dict[type, pb.Move] = {
    BidOverflow: _plain("bid_overflow"),
    SkipMovement: _plain("skip_movement"),
    ResolveTribe: _plain("resolve_tribe"),
    AssassinateNone: _plain("assassinate_none"),
    PlacePalm: _plain("place_palm"),
    PlacePalace: _plain("place_palace"),
    SkipTileAction: _plain("skip_tile_action"),
    PlaceHere: _plain("place_here"),
    EndTurn: _plain("end_turn"),
}

_TO_PROTO: dict[type, Callable[[Any], pb.Move]] = {
    Bid: _bid,
    PickUp: _pick_up,
    Drop: _drop,
    Build: _build,
    Assassinate: _assassinate,
    SmallMarket: _small_market,
    LargeMarket: _large_market,
    BuyDjinn: _buy_djinn,
    PlaceRedirect: _place_redirect,
    KeepDjinn: _keep_djinn,
    UseDjinn: _use_djinn,
    SellSuit: _sell_suit,
}


def move_to_proto(move: Move) -> pb.Move:
    """The typed ``tribes.v1.Move`` (arm ``five_tribes``) of a domain move."""
    template = _PLAIN_PB.get(type(move))
    if template is not None:
        out = pb.Move()
        out.CopyFrom(template)
        return out
    return _TO_PROTO[type(move)](move)


# -- moves from protobuf ------------------------------------------------------------------


def _tile_of(msg: Any, kind: str) -> int:
    """The tile index of ``msg.tile``, which must be set and on the board."""
    if not msg.HasField("tile"):
        raise MalformedMoveError(f"a Five Tribes {kind} move needs a tile")
    return _tile_index(msg.tile, kind)


def _tile_index(tile: fpb.FiveTribesTile, kind: str) -> int:
    row, column = tile.row, tile.column
    if not (0 <= row < ROWS and 0 <= column < COLS):
        raise MalformedMoveError(
            f"a Five Tribes {kind} move names tile row {row}, column {column}; "
            f"rows are 0-{ROWS - 1} and columns 0-{COLS - 1}"
        )
    return row * COLS + column


def _enum(table: dict[int, E], value: int, what: str, kind: str) -> E:
    found = table.get(value)
    if found is None:
        raise MalformedMoveError(f"a Five Tribes {kind} move needs a {what} (got {value})")
    return found


def _from_bid(msg: fpb.FiveTribesBid) -> Move:
    return Bid(msg.spot, msg.kumarbi_fakirs)


def _from_pick_up(msg: fpb.FiveTribesPickUp) -> Move:
    return PickUp(_tile_of(msg, "pick_up"))


def _from_drop(msg: fpb.FiveTribesDrop) -> Move:
    return Drop(_tile_of(msg, "drop"), _enum(_MEEPLE_OF, msg.meeple, "meeple", "drop"))


def _from_build(msg: fpb.FiveTribesBuild) -> Move:
    return Build(msg.fakirs)


def _from_assassinate(msg: fpb.FiveTribesAssassinate) -> Move:
    kills = tuple(_enum(_MEEPLE_OF, m, "meeple", "assassinate") for m in msg.kills)
    target = msg.WhichOneof("target")
    if target == "opponent":
        return Assassinate(kills, opponent=msg.opponent, fakirs=msg.fakirs)
    if target == "tile":
        return Assassinate(kills, tile=_tile_index(msg.tile, "assassinate"), fakirs=msg.fakirs)
    raise MalformedMoveError("a Five Tribes assassinate move needs a tile or an opponent")


def _from_small_market(msg: fpb.FiveTribesSmallMarket) -> Move:
    return SmallMarket(msg.index)


def _from_large_market(msg: fpb.FiveTribesLargeMarket) -> Move:
    return LargeMarket(tuple(msg.indices))


def _from_buy_djinn(msg: fpb.FiveTribesBuyDjinn) -> Move:
    return BuyDjinn(
        _enum(_DJINN_OF, msg.djinn, "djinn", "buy_djinn"),
        _enum(_PAY_OF, msg.payment, "payment", "buy_djinn"),
    )


def _from_place_redirect(msg: fpb.FiveTribesPlaceRedirect) -> Move:
    return PlaceRedirect(
        _tile_of(msg, "place_redirect"), _enum(_PAY_OF, msg.payment, "payment", "place_redirect")
    )


def _from_keep_djinn(msg: fpb.FiveTribesKeepDjinn) -> Move:
    return KeepDjinn(_enum(_DJINN_OF, msg.djinn, "djinn", "keep_djinn"))


def _from_use_djinn(msg: fpb.FiveTribesUseDjinn) -> Move:
    tile = _tile_index(msg.tile, "use_djinn") if msg.HasField("tile") else None
    return UseDjinn(
        _enum(_DJINN_OF, msg.djinn, "djinn", "use_djinn"),
        _enum(_PAY_OF, msg.payment, "payment", "use_djinn"),
        tile,
    )


def _from_sell_suit(msg: fpb.FiveTribesSellSuit) -> Move:
    return SellSuit(tuple(_enum(_CARD_OF, c, "card", "sell_suit") for c in msg.cards))


_FROM_PROTO: dict[str, Callable[[Any], Move]] = {
    "bid": _from_bid,
    "bid_overflow": lambda _: BidOverflow(),
    "pick_up": _from_pick_up,
    "skip_movement": lambda _: SkipMovement(),
    "drop": _from_drop,
    "resolve_tribe": lambda _: ResolveTribe(),
    "build": _from_build,
    "assassinate": _from_assassinate,
    "assassinate_none": lambda _: AssassinateNone(),
    "place_palm": lambda _: PlacePalm(),
    "place_palace": lambda _: PlacePalace(),
    "small_market": _from_small_market,
    "large_market": _from_large_market,
    "buy_djinn": _from_buy_djinn,
    "skip_tile_action": lambda _: SkipTileAction(),
    "place_here": lambda _: PlaceHere(),
    "place_redirect": _from_place_redirect,
    "keep_djinn": _from_keep_djinn,
    "use_djinn": _from_use_djinn,
    "sell_suit": _from_sell_suit,
    "end_turn": lambda _: EndTurn(),
}


def move_from_proto(msg: fpb.FiveTribesMove) -> Move:
    """The domain move of a ``FiveTribesMove``; MalformedMoveError if it is no move at all.

    Beyond the per-field checks, the move must be in the rules' canonical form (its
    id parses back to it): bid spots of the track, kills in tribe order, market
    indices in range and increasing, merchandise only in a suit, and so on.
    """
    kind = msg.WhichOneof("kind")
    if kind is None:
        raise MalformedMoveError("a Five Tribes move must set one move kind (bid, drop, ...)")
    move = _FROM_PROTO[kind](getattr(msg, kind))
    key = move.key
    try:
        canonical = parse_move(key)
    except MalformedMoveError:
        canonical = None
    if canonical != move:
        raise MalformedMoveError(
            f"the Five Tribes {kind} move {key!r} has values no move can have "
            "(see five_tribes.proto for the ranges)"
        )
    return move


# -- the view -----------------------------------------------------------------------------
# Built in place (``add()``, attribute and ``extend`` assignments): with the upb runtime,
# keyword constructors copy every nested message and cost about twice as much.


def _set_meeples(out: fpb.FiveTribesMeeples, counts: tuple[int, ...]) -> None:
    out.viziers, out.elders, out.merchants, out.builders, out.assassins = counts


def _set_cards(out: fpb.FiveTribesCards, counts: tuple[int, ...]) -> None:
    (
        out.ivory,
        out.jewels,
        out.gold,
        out.papyrus,
        out.silk,
        out.spice,
        out.fish,
        out.wheat,
        out.pottery,
        out.fakirs,
    ) = counts


def _set_player(out: fpb.FiveTribesPlayer, player: PlayerView) -> None:
    if player.gold is not None:  # hidden gold leaves the optional field unset (§6)
        out.gold = player.gold
    out.viziers = player.viziers
    out.elders = player.elders
    _set_cards(out.cards, player.cards)
    out.djinns.extend([_DJINN_PB[d] for d in player.djinns])
    out.camels = player.camels
    out.used_djinns.extend([_DJINN_PB[d] for d in player.used])
    out.echidna_active = player.echidna
    out.iblis_active = player.iblis


def _set_turn(out: fpb.FiveTribesTurn, turn: TurnView) -> None:
    out.marker = turn.marker
    out.seat = turn.seat
    _set_meeples(out.hand, turn.hand)
    if turn.pos is not None:
        _set_tile(out.position, turn.pos)
    if turn.prev is not None:
        _set_tile(out.previous, turn.prev)
    if turn.start is not None:
        _set_tile(out.start_tile, turn.start)
    if turn.final is not None:
        _set_tile(out.final_tile, turn.final)
    if turn.tribe is not None:
        out.tribe = _MEEPLE_PB[turn.tribe]
    out.collected = turn.collected
    if turn.return_step is not None:
        pending = out.pending
        pending.return_step = _STEP_PB[turn.return_step]
        if turn.pending_tile is not None:
            _set_tile(pending.tile, turn.pending_tile)
        pending.drawn_count = turn.drawn_count
        pending.drawn.extend([_DJINN_PB[d] for d in turn.drawn])


_VIEW_ARM = pb.View.DESCRIPTOR.fields_by_name["five_tribes"].number
_TILES = fpb.FiveTribesView.DESCRIPTOR.fields_by_name["tiles"].number
_PLAYERS = fpb.FiveTribesView.DESCRIPTOR.fields_by_name["players"].number
_MEMO_LIMIT = 100_000
# Encoded repeated entries by value: most tiles and players are unchanged from one
# version to the next, so their bytes are reused instead of rebuilt (bounded memo).
_tile_memo: dict[tuple[Any, ...], bytes] = {}
_player_memo: dict[PlayerView, bytes] = {}


def _tile_entry(key: tuple[Any, ...]) -> bytes:
    index, code, meeples, owner, palms, palaces = key
    tile = fpb.FiveTribesTileState()
    position = tile.position
    position.row, position.column = _ROW_COL[index]
    tile.kind, tile.value = _TILE_TYPE_PB[code]
    _set_meeples(tile.meeples, meeples)
    if owner is not None:
        tile.owner = owner
    tile.palms = palms
    tile.palaces = palaces
    return pw.message_field(_TILES, tile.SerializeToString())


def _player_entry(player: PlayerView) -> bytes:
    out = fpb.FiveTribesPlayer()
    _set_player(out, player)
    return pw.message_field(_PLAYERS, out.SerializeToString())


def _repeated(memo: dict[Any, bytes], keys: Iterable[Any], build: Callable[[Any], bytes]) -> bytes:
    if len(memo) > _MEMO_LIMIT:
        memo.clear()
    parts = []
    for key in keys:
        encoded = memo.get(key)
        if encoded is None:
            encoded = memo[key] = build(key)
        parts.append(encoded)
    return b"".join(parts)


def view_to_bytes(view: View) -> bytes:
    """The serialized ``View`` (arm ``five_tribes``) of a domain view: every field, nothing
    the view lacks. Tiles and players are assembled from remembered entries."""
    v = fpb.FiveTribesView()
    v.seat = view.seat
    v.round = view.round
    v.step = _STEP_PB[view.step]
    v.to_act.extend(view.to_act)
    v.end_triggered = view.end_triggered

    v.bag_size = view.bag_size
    v.palm_supply = view.palm_supply
    v.palace_supply = view.palace_supply

    v.resource_pile_size = view.resource_pile_size
    v.resource_row.extend([_CARD_PB[c] for c in view.resource_row])
    v.resource_discard.extend([_CARD_PB[c] for c in view.resource_discard])
    v.djinn_pile_size = view.djinn_pile_size
    v.djinn_display.extend([_DJINN_PB[d] for d in view.djinn_display])
    v.djinn_discard.extend([_DJINN_PB[d] for d in view.djinn_discard])

    v.marker_owners.extend(view.marker_owners)
    v.bid_order.extend(view.bid_order)
    v.next_bid_order.extend(view.next_bid_order)
    add_spot = v.paid_spots.add
    for cost, marker in zip(PAID_SPOTS, view.track, strict=True):
        spot = add_spot()
        spot.cost = cost
        if marker is not None:
            spot.marker = marker
    v.zero_aisle.extend(view.zero_aisle)
    v.overflow.extend(view.overflow)

    if view.turn is not None:
        _set_turn(v.turn, view.turn)
    if view.final_scores is not None:
        v.final_scores.extend(view.final_scores)
    tiles = _repeated(
        _tile_memo,
        zip(
            range(len(view.tiles)),
            view.tiles,
            view.meeples,
            view.owners,
            view.palms,
            view.palaces,
            strict=True,
        ),
        _tile_entry,
    )
    players = _repeated(_player_memo, view.players, _player_entry)
    return pw.message_field(_VIEW_ARM, v.SerializeToString() + tiles + players)


def view_to_proto(view: View) -> pb.View:
    """The ``View`` message of a domain view (parsed from ``view_to_bytes``)."""
    return pb.View.FromString(view_to_bytes(view))


WIRE: GameWire[Move, View] = GameWire(
    game_id="five_tribes",
    arm="five_tribes",
    move_to_proto=move_to_proto,
    move_from_proto=move_from_proto,
    view_to_proto=view_to_proto,
    view_to_bytes=view_to_bytes,
)

"""Goofspiel's protobuf face, as a plugin's: its messages (``goofspiel.proto``) travel
packed in the ``plugin`` (``google.protobuf.Any``) arms of ``tribes.v1.Move`` and ``View``.
"""

from __future__ import annotations

from google.protobuf import any_pb2

from tests.games.goofspiel import goofspiel_pb2 as gpb
from tests.games.goofspiel.moves import Bid
from tests.games.goofspiel.state import Trick, View
from tribes.engine import SPECTATOR, MalformedMoveError
from tribes.v1 import common_pb2 as pb
from tribes.wire import GameWire
from tribes.wire import protowire as pw


def move_to_proto(move: Bid) -> pb.Move:
    out = pb.Move()
    out.plugin.Pack(gpb.GoofspielMove(bid=gpb.GoofspielBid(card=move.card)))
    return out


def move_from_proto(packed: any_pb2.Any) -> Bid:
    msg = gpb.GoofspielMove()
    if not packed.Unpack(msg):
        raise MalformedMoveError(f"a Goofspiel move is a {msg.DESCRIPTOR.full_name}")
    if msg.WhichOneof("kind") != "bid":
        raise MalformedMoveError("a Goofspiel move must be a bid")
    return Bid(msg.bid.card)


def view_to_proto(view: View) -> pb.View:
    out = gpb.GoofspielView(
        prizes_left=view.prizes_left,
        hands=[gpb.GoofspielHand(cards=hand) for hand in view.hands],
        has_bid=view.has_bid,
        scores=view.scores,
        tricks=[
            gpb.GoofspielTrick(prize=t.prize, bids=t.bids, winner=t.winner) for t in view.tricks
        ],
    )
    if view.prize is not None:
        out.prize = view.prize
    if view.seat != SPECTATOR and view.my_bid is not None:
        out.my_bid = view.my_bid
    packed = pb.View()
    packed.plugin.Pack(out)
    return packed


_VIEW_URL = "type.googleapis.com/" + gpb.GoofspielView.DESCRIPTOR.full_name
_PLUGIN = pb.View.DESCRIPTOR.fields_by_name["plugin"].number
_TRICKS: dict[int, tuple[Trick, bytes]] = {}  # id -> (trick, its field bytes)
_PLAYED: dict[int, tuple[tuple[Trick, ...], bytes]] = {}  # id -> (tricks, their fields)
_HANDS: dict[tuple[int, ...], bytes] = {}


def _trick(trick: Trick) -> bytes:
    hit = _TRICKS.get(id(trick))
    if hit is not None and hit[0] is trick:
        return hit[1]
    body = pw.uint_field(1, trick.prize) + pw.packed_field(2, trick.bids)
    if trick.winner is not None:
        body += pw.tag(3, 0) + pw.varint(trick.winner)
    data = pw.message_field(7, body)
    if len(_TRICKS) > 50_000:
        _TRICKS.clear()
    _TRICKS[id(trick)] = (trick, data)  # the trick is held, so its id is not reused
    return data


def _played(tricks: tuple[Trick, ...]) -> bytes:
    """Every trick's field: the views of one version share the state's tuple."""
    hit = _PLAYED.get(id(tricks))
    if hit is not None and hit[0] is tricks:
        return hit[1]
    data = b"".join(_trick(trick) for trick in tricks)
    if len(_PLAYED) > 10_000:
        _PLAYED.clear()
    _PLAYED[id(tricks)] = (tricks, data)
    return data


def _hand(cards: tuple[int, ...]) -> bytes:
    data = _HANDS.get(cards)
    if data is None:
        if len(_HANDS) > 50_000:
            _HANDS.clear()
        data = _HANDS[cards] = pw.message_field(3, pw.packed_field(1, cards))
    return data


def view_to_bytes(view: View) -> bytes:
    """The serialized ``tribes.v1.View`` (plugin arm) from remembered parts: the same
    bytes as ``view_to_proto(view).SerializeToString()``, at a fraction of the cost."""
    parts = []
    if view.prize is not None:
        parts.append(pw.tag(1, 0) + pw.varint(view.prize))
    parts.append(pw.packed_field(2, view.prizes_left))
    parts.extend(_hand(hand) for hand in view.hands)
    parts.append(pw.packed_field(4, view.has_bid))
    if view.seat != SPECTATOR and view.my_bid is not None:
        parts.append(pw.tag(5, 0) + pw.varint(view.my_bid))
    parts.append(pw.packed_field(6, view.scores))
    parts.append(_played(view.tricks))
    packed = pw.string_field(1, _VIEW_URL) + pw.bytes_field(2, b"".join(parts))
    return pw.message_field(_PLUGIN, packed)


WIRE: GameWire[Bid, View] = GameWire(
    game_id="goofspiel",
    arm="plugin",
    move_to_proto=move_to_proto,
    move_from_proto=move_from_proto,
    view_to_proto=view_to_proto,
    view_to_bytes=view_to_bytes,
)

"""Goofspiel's protobuf face, as a plugin's: its messages (``goofspiel.proto``) travel
packed in the ``plugin`` (``google.protobuf.Any``) arms of ``tribes.v1.Move`` and ``View``.
"""

from __future__ import annotations

from google.protobuf import any_pb2

from tests.games.goofspiel import goofspiel_pb2 as gpb
from tests.games.goofspiel.moves import Bid
from tests.games.goofspiel.state import View
from tribes.engine import SPECTATOR, MalformedMoveError
from tribes.v1 import common_pb2 as pb
from tribes.wire import GameWire


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


WIRE: GameWire[Bid, View] = GameWire(
    game_id="goofspiel",
    arm="plugin",
    move_to_proto=move_to_proto,
    move_from_proto=move_from_proto,
    view_to_proto=view_to_proto,
)

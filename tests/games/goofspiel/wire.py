"""Goofspiel's protobuf face (the template for ``tribes/wire/<game>.py``)."""

from __future__ import annotations

from tests.games.goofspiel.moves import Bid
from tests.games.goofspiel.state import View
from tribes.engine import SPECTATOR, MalformedMoveError
from tribes.v1 import common_pb2 as pb
from tribes.v1 import goofspiel_pb2 as gpb
from tribes.wire import GameWire


def move_to_proto(move: Bid) -> pb.Move:
    return pb.Move(goofspiel=gpb.GoofspielMove(bid=gpb.GoofspielBid(card=move.card)))


def move_from_proto(msg: gpb.GoofspielMove) -> Bid:
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
    return pb.View(goofspiel=out)


WIRE: GameWire[Bid, View] = GameWire(
    game_id="goofspiel",
    arm="goofspiel",
    move_to_proto=move_to_proto,
    move_from_proto=move_from_proto,
    view_to_proto=view_to_proto,
)

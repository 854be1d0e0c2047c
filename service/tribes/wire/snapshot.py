"""Builds the game-agnostic messages: snapshots, legal moves, log records, game types."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from tribes.catalog import Entry
from tribes.engine.game import SPECTATOR
from tribes.records import GameMeta, LogEntry
from tribes.v1 import common_pb2 as pb
from tribes.v1 import game_service_pb2 as spb


def game_name(game_id: str) -> str:
    return f"games/{game_id}"


def snapshot(
    entry: Entry,
    game_id: str,
    meta: GameMeta,
    version: int,
    state: Any,
    viewer: int,
    legal: Sequence[Any],
) -> pb.GameSnapshot:
    """The caller's snapshot: public facts, the caller's view and legal moves."""
    game, wire = entry.game, entry.wire
    result = game.result(state)
    snap = pb.GameSnapshot(
        name=game_name(game_id),
        game_type=game.id,
        version=version,
        finished=result is not None,
        to_act=game.to_act(state),
        viewer_seat=viewer,
        view=wire.view_to_proto(game.view(state, viewer)),
        seat_count=meta.seat_count,
        options=meta.options_dict,
    )
    if result is not None:
        snap.scores.extend(result.scores)
        snap.result.CopyFrom(
            pb.Result(
                scores=result.scores,
                ranks=result.ranks,
                winners=result.winners,
                summary=result.summary,
            )
        )
    else:
        snap.scores.extend(game.scores(state, viewer))
    if legal:
        describe, to_proto = game.describe, wire.move_to_proto
        snap.legal_moves.extend(
            pb.LegalMove(id=m.key, description=describe(state, m), move=to_proto(m)) for m in legal
        )
    return snap


def move_record(entry: Entry, record: LogEntry, viewer: int) -> pb.MoveRecord:
    """A log entry as ``viewer`` may see it: in full for the mover, else redacted."""
    out = pb.MoveRecord(version=record.version, seat=record.seat, time_unix_ms=record.time_ms)
    if viewer != SPECTATOR and viewer == record.seat:
        move_id, description = record.move_id, record.description
    elif record.public_move_id is None:
        out.hidden = True
        out.description = record.public_description
        return out
    else:
        move_id, description = record.public_move_id, record.public_description
    out.move_id = move_id
    out.description = description
    out.move.CopyFrom(entry.wire.move_to_proto(entry.game.parse_move(move_id)))
    return out


def game_types(entries: Iterable[Entry]) -> spb.ListGameTypesResponse:
    return spb.ListGameTypesResponse(
        game_types=[
            pb.GameType(
                id=e.game.id,
                title=e.game.title,
                seat_counts=e.game.seat_counts,
                options=[
                    pb.GameOption(
                        name=o.name,
                        description=o.description,
                        default_value=o.default,
                        choices=o.choices,
                    )
                    for o in e.game.options
                ],
            )
            for e in entries
        ]
    )

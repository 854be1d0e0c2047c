"""Per-seat views (rules spec §6 "Hidden information and the redacted view(seat)").

A view is the full state with these parts left out or reduced, and nothing else:
the PRNG state and the removed boards are never shown; a face-down board is only its
epoch and column; each event stack is only its count; the bag is its public
per-terrain counts (it has no order). While ``hide_opponent_vp`` is on and the game
runs, other seats' VP totals are unset (a spectator sees none) and a log line's
private version (the applied amount of a VP loss) is shown only to the seat it is
about. At GAME_OVER every total and applied amount is shown.
"""

from __future__ import annotations

from typing import TypeVar

from tribes.engine import Viewer
from tribes.games.tribes_early_civilization.data import (
    ACTION_TILES,
    ACTION_VALUES,
    BOARDS,
    EVENTS,
    MARKING_STONES,
    TERRAINS,
    Event,
    action_tile_name,
)
from tribes.games.tribes_early_civilization.describe import clause_text, event_text, prompt
from tribes.games.tribes_early_civilization.state import (
    BoardFace,
    BoardSlot,
    BoardView,
    ClauseView,
    EventStackView,
    EventView,
    Levels,
    LogLine,
    PendingView,
    Player,
    PlayerView,
    QueuedView,
    RowKind,
    RowTile,
    RowTileView,
    SpaceView,
    State,
    TerrainCount,
    View,
)

T = TypeVar("T")


def _event_view(event: Event) -> EventView:
    spec = EVENTS[event]
    clauses = tuple(
        ClauseView(c.condition, c.effect, c.amount, clause_text(c)) for c in spec.clauses
    )
    return EventView(event, spec.epoch, spec.name, spec.scope, clauses, event_text(event))


#: Event faces never change: one view value per event.
EVENT_VIEWS = tuple(_event_view(spec.event) for spec in EVENTS)


def _levels(player: Player) -> Levels:
    p, e, m, s = player.levels
    return Levels(p, e, m, s, ACTION_VALUES[p], ACTION_VALUES[e], ACTION_VALUES[m])


def _counts(counts: tuple[int, ...]) -> tuple[TerrainCount, ...]:
    return tuple(TerrainCount(t, n) for t, n in zip(TERRAINS, counts, strict=True))


#: Remembered view parts, by the identity of the state part they show: consecutive
#: states share most parts, so a view is mostly assembled from earlier pieces.
_MEMO: dict[tuple[int, object], tuple[object, object]] = {}
_MEMO_LIMIT = 8192


def _recall(part: object, extra: object) -> object | None:
    known = _MEMO.get((id(part), extra))
    return known[1] if known is not None and known[0] is part else None


def _keep(part: object, extra: object, value: T) -> T:
    if len(_MEMO) >= _MEMO_LIMIT:
        _MEMO.clear()
    _MEMO[(id(part), extra)] = (part, value)
    return value


def _players(state: State, viewer: Viewer, hidden: bool) -> tuple[PlayerView, ...]:
    stones = [0] * state.seats
    for slot in state.grid:
        for seat in slot.stones:
            stones[seat] += 1
    out = []
    for seat, p in enumerate(state.players):
        vp = None if hidden and seat != viewer else p.vp
        extra = (seat, vp, seat == state.start_player, MARKING_STONES - stones[seat])
        known = _recall(p, extra)
        if isinstance(known, PlayerView):
            out.append(known)
            continue
        made = PlayerView(
            seat=seat,
            is_start_player=extra[2],
            shells=p.shells,
            vp=vp,
            reserve=p.reserve,
            members_on_board=p.on_board,
            arrow_available=p.arrow_available,
            stones_left=extra[3],
            levels=_levels(p),
            tiles=p.tiles,
        )
        out.append(_keep(p, extra, made))
    return tuple(out)


def _row_tile(position: int, tile: RowTile) -> RowTileView:
    known = _recall(tile, position)
    if isinstance(known, RowTileView):
        return known
    if tile.kind is RowKind.EVENT:
        assert tile.event is not None
        event = EVENT_VIEWS[tile.event]
        made = RowTileView(position, tile.kind, event.name, None, None, False, event, tile.shells)
    else:
        assert tile.action is not None
        spec = ACTION_TILES[tile.action]
        name = action_tile_name(tile.action)
        made = RowTileView(
            position, tile.kind, name, tile.action, spec.action, spec.hand, None, tile.shells
        )
    return _keep(tile, position, made)


def _board(slot: BoardSlot) -> BoardView:
    known = _recall(slot, None)
    if isinstance(known, BoardView):
        return known
    if not slot.face_up:
        return _keep(slot, None, BoardView(slot.epoch, slot.column, False, None))
    spec = BOARDS[slot.board]
    stones = slot.stones
    spaces = tuple(
        SpaceView(i + 1, vp, spec.lightning[i], stones[i] if i < len(stones) else None)
        for i, vp in enumerate(spec.space_vp)
    )
    face = BoardFace(spec.board, spec.name, spec.resource, spec.count, spec.track, spaces)
    return _keep(slot, None, BoardView(slot.epoch, slot.column, True, face))


def _pending(state: State) -> PendingView | None:
    p = state.pending
    if p is None:
        return None
    return PendingView(
        phase=p.phase,
        decider=p.decider,
        prompt=prompt(state),
        left=p.left,
        relocations=p.relocations,
        drawn=_counts(p.drawn),
        shortfall=p.shortfall,
        board=p.board,
        route=p.route,
        arrow_source=p.arrow_source,
        taken_tile=state.taken,
        event=None if state.event is None else EVENT_VIEWS[state.event],
        queued=tuple(QueuedView(q.seat, q.effect, q.amount) for q in state.queue),
    )


def view(state: State, viewer: Viewer) -> View:
    """What ``viewer`` (a seat, or SPECTATOR) may know (§6)."""
    over = state.final is not None
    hidden = state.config.hide_opponent_vp and not over
    log = tuple(
        LogLine(
            entry.turn,
            entry.seat,
            entry.private if entry.private and (not hidden or entry.seat == viewer) else entry.text,
        )
        for entry in state.log
    )
    final = state.final or ()
    return View(
        viewer=viewer,
        phase=state.phase,
        to_act=() if state.pending is None else (state.pending.decider,),
        pending=_pending(state),
        num_players=state.seats,
        start_player=state.start_player,
        current_player=state.current,
        round=state.round,
        turn_count=state.turn_count,
        turn_cap=state.config.turn_cap,
        end_threshold=state.config.end_threshold,
        orange_executed=len(state.executed_orange),
        end_triggered=state.end_triggered,
        game_over=over,
        capped=state.capped,
        hide_opponent_vp=state.config.hide_opponent_vp,
        seat_bonus_vp=state.config.seat_bonus_vp,
        players=_players(state, viewer, hidden),
        sequence=tuple(_row_tile(i, tile) for i, tile in enumerate(state.sequence)),
        boards=tuple(_board(slot) for slot in state.grid),
        arrows=state.arrows,
        event_stacks=tuple(
            EventStackView(epoch, len(stack)) for epoch, stack in enumerate(state.event_stacks, 1)
        ),
        executed_orange=tuple(EVENT_VIEWS[e] for e in state.executed_orange),
        boxed_events=state.boxed_events,
        bag=_counts(state.bag),
        bag_total=sum(state.bag),
        log=log,
        final_scores=final,
        winners=tuple(s.seat for s in final if s.rank == 1),
    )

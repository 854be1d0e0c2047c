"""Event resolution (rules spec §3.6 effect semantics, §5.8 EVENT_RESOLVE, §8.3-§8.6, §8.12).

Taking an event tile is the whole turn. Strongest and weakest are fixed once, when the
tile is activated; the clause queue holds (seat, effect, amount) for the activator only
(ACTIVE: the clauses whose condition the activator meets) or for every player from the
activator clockwise (ALL). VP effects apply at once; members to place or lose, tiles to
exhaust and GAIN_LAND's draw open sub-phases for the clause's seat. When the queue is
empty the tile goes to the box (brown, green) or to the executed display (orange), which
may trigger the end.
"""

from __future__ import annotations

from tribes.games.tribes_early_civilization.data import (
    EVENTS,
    FINAL_EPOCH,
    VP_FLOOR,
    Condition,
    Effect,
    Event,
    Scope,
    Track,
)
from tribes.games.tribes_early_civilization.hexes import Hex, where
from tribes.games.tribes_early_civilization.moves import Entry, ExhaustUnoccupied, cell_entry
from tribes.games.tribes_early_civilization.rules.actions import start_draw
from tribes.games.tribes_early_civilization.rules.common import add_members, flip, with_vp
from tribes.games.tribes_early_civilization.rules.work import Work
from tribes.games.tribes_early_civilization.state import (
    Pending,
    Phase,
    Player,
    QueuedEffect,
    State,
)


def strength_sets(state: State | Work) -> tuple[frozenset[int], frozenset[int]]:
    """(strongest seats, weakest seats) on the Strength track (§3.6); all tied: both."""
    levels = [p.levels[Track.STRENGTH] for p in state.players]
    top, bottom = max(levels), min(levels)
    strongest = frozenset(s for s, level in enumerate(levels) if level == top)
    weakest = frozenset(s for s, level in enumerate(levels) if level == bottom)
    return strongest, weakest


def clause_queue(state: State | Work, activator: int, event: Event) -> tuple[QueuedEffect, ...]:
    """§5.8 step 2; conditions are tested for the activator only (§8.5)."""
    spec = EVENTS[event]
    if spec.scope is Scope.ALL:
        order = [(activator + i) % state.seats for i in range(state.seats)]
        return tuple(QueuedEffect(p, c.effect, c.amount) for p in order for c in spec.clauses)
    strongest, weakest = strength_sets(state)
    holds = {
        Condition.NONE: True,
        Condition.STRONGEST: activator in strongest,
        Condition.WEAKEST: activator in weakest,
    }
    return tuple(
        QueuedEffect(activator, c.effect, c.amount) for c in spec.clauses if holds[c.condition]
    )


def start_event(w: Work, activator: int, event: Event) -> None:
    """``ChooseTile(i, event)``: build the queue and process it (§5.8 steps 1-3)."""
    w.queue = clause_queue(w, activator, event)
    w.event = event
    w.pending = None
    if not w.queue:
        w.note(activator, f"{EVENTS[event].name} does not affect seat {activator}")
    advance(w)


def unoccupied_cells(player: Player) -> list[Hex]:
    """Tiles an EXHAUST_UNOCCUPIED clause may flip (§8.4)."""
    return [tile.hex for tile in player.tiles if not tile.exhausted and not tile.members]


def exhaust_entries(player: Player) -> list[Entry]:
    return [cell_entry(ExhaustUnoccupied, c.q, c.r) for c in unoccupied_cells(player)]


def _lose_vp(w: Work, seat: int, amount: int, name: str) -> None:
    """§3.6 LOSE_VP: floored at 0; only the loser reads the applied amount while VP is hidden."""
    player = w.players[seat]
    applied = min(amount, player.vp - VP_FLOOR)
    w.set_player(seat, with_vp(player, player.vp - applied))
    nominal = f"{name}: seat {seat} loses {amount} VP"
    if applied == amount:
        exact = f"{nominal} ({applied} lost)"
    else:
        exact = f"{nominal} ({applied} lost: bear teeth cannot go below {VP_FLOOR})"
    if w.config.hide_opponent_vp:
        w.note(seat, nominal, private=exact)
    else:
        w.note(seat, exact)


def _apply_clause(w: Work, item: QueuedEffect, name: str) -> None:
    """One clause for its seat: VP at once, everything else as a sub-phase (k > 0 only)."""
    seat, amount, effect = item.seat, item.amount, item.effect
    player = w.players[seat]
    if effect is Effect.GAIN_VP:
        w.set_player(seat, with_vp(player, player.vp + amount))
        w.note(seat, f"{name}: seat {seat} gains {amount} VP")
        return
    if effect is Effect.LOSE_VP:
        _lose_vp(w, seat, amount, name)
        return
    if effect is Effect.GAIN_LAND:
        w.note(seat, f"{name}: seat {seat} explores {amount} land tile(s)")
        start_draw(w, seat, amount)
        return
    if effect is Effect.GAIN_MEMBERS:
        count, phase = min(amount, player.reserve), Phase.EVENT_PLACE_MEMBER
        w.note(seat, f"{name}: seat {seat} gains {count} of {amount} tribe member(s)")
    elif effect is Effect.LOSE_MEMBERS:
        count, phase = min(amount, player.on_board - 1), Phase.EVENT_LOSE_MEMBER
        w.note(seat, f"{name}: seat {seat} loses {count} of {amount} tribe member(s)")
    else:
        count, phase = min(amount, len(unoccupied_cells(player))), Phase.EVENT_EXHAUST
        w.note(seat, f"{name}: seat {seat} exhausts {count} of {amount} unoccupied tile(s)")
    if count:
        w.pending = Pending(phase, seat, left=count)


def advance(w: Work) -> None:
    """Process the queue until a clause opens a decision; then finish the tile (§5.8 4-5)."""
    assert w.event is not None
    name = EVENTS[w.event].name
    while w.queue:
        item = w.queue[0]
        w.queue = w.queue[1:]
        _apply_clause(w, item, name)
        if w.pending is not None:
            return
    _finish(w)


def _finish(w: Work) -> None:
    event = w.event
    assert event is not None
    w.event = None
    if EVENTS[event].epoch != FINAL_EPOCH:
        w.boxed_events = (*w.boxed_events, event)
        return
    w.executed_orange = (*w.executed_orange, event)
    if len(w.executed_orange) >= w.config.end_threshold and not w.end_triggered:
        w.end_triggered = True
        count = len(w.executed_orange)
        w.note(-1, f"{count} Bronze Age events carried out: this is the last round")


def _less(w: Work) -> None:
    pending = w.pending
    assert pending is not None
    w.pending = (
        Pending(pending.phase, pending.decider, left=pending.left - 1) if pending.left > 1 else None
    )


def apply_lose_member(w: Work, seat: int, cell: Hex) -> None:
    """LOSE_MEMBERS: one member from ``cell`` back to the reserve (§10 #12)."""
    w.set_player(seat, add_members(w.players[seat], cell, -1))
    w.note(seat, f"seat {seat} loses a tribe member from {where(cell)}")
    _less(w)


def apply_exhaust(w: Work, seat: int, cell: Hex) -> None:
    """EXHAUST_UNOCCUPIED: flip one active tile without members (§8.4)."""
    w.set_player(seat, flip(w.players[seat], cell, exhausted=True))
    w.note(seat, f"seat {seat} exhausts the empty tile on {where(cell)}")
    _less(w)

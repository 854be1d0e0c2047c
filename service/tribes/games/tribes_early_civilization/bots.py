"""Bot hooks: ``determinize`` and ``evaluate`` (engine/game.py contract; spec §6, §7).

``determinize(state, seat, seed)`` redraws everything ``seat`` cannot see, from
``seed`` alone and canonically (gather, sort, shuffle, redeal), so states whose views
for ``seat`` are equal give equal results:

* per epoch, the pool of boards not face up (the removed one and the face-down ones)
  is redealt over the face-down positions and the removed slot;
* each event stack's tiles (known as a set: 8 per colour minus those revealed) get a
  new order;
* while VP totals are hidden, every other seat's total becomes its public part (the
  space VP under its stones plus the seat bonus; event gains and losses are not kept in
  the shown log for long), and other seats' private log versions are dropped;
* the PRNG state is redrawn.

``evaluate(state, seat)`` is a cheap score estimate turned into [0, 1].
"""

from __future__ import annotations

import math

from tribes.engine.rng import Rng
from tribes.games.tribes_early_civilization.data import (
    BOARDS,
    BOARDS_OF_EPOCH,
    EPOCHS,
    SEAT_BONUS_POSITIONS,
    SEAT_BONUS_VP,
)
from tribes.games.tribes_early_civilization.rules.common import with_vp
from tribes.games.tribes_early_civilization.rules.scoring import active_tiles, track_vp
from tribes.games.tribes_early_civilization.rules.work import Work
from tribes.games.tribes_early_civilization.state import BoardSlot, LogEntry, State

#: evaluate: a lead of this many VP maps to about 0.88 (tanh(1) on the upper half).
_SCALE = 10.0


def public_vp(state: State, seat: int) -> int:
    """The part of ``seat``'s VP every seat can see: its stones' spaces and the seat bonus."""
    total = 0
    for slot in state.grid:
        if seat in slot.stones:
            total += BOARDS[slot.board].space_vp[slot.stones.index(seat)]
    if state.config.seat_bonus_vp:
        position = (seat - state.start_player) % state.seats
        if position in SEAT_BONUS_POSITIONS:
            total += SEAT_BONUS_VP
    return total


def _redeal_boards(w: Work, rng: Rng) -> None:
    grid = list(w.grid)
    removed = list(w.removed_boards)
    for epoch in EPOCHS:
        hidden = [i for i, slot in enumerate(grid) if slot.epoch == epoch and not slot.face_up]
        shown = {
            grid[i].board for i, slot in enumerate(grid) if slot.epoch == epoch and slot.face_up
        }
        pool = [b for b in BOARDS_OF_EPOCH[epoch] if b not in shown]  # sorted by board id
        rng.shuffle(pool)
        for index, board in zip(hidden, pool, strict=False):
            slot = grid[index]
            grid[index] = BoardSlot(slot.epoch, slot.column, board, False, ())
        removed[epoch - 1] = pool[-1]
    w.grid = tuple(grid)
    w.removed_boards = tuple(removed)


def determinize(state: State, seat: int, seed: int) -> State:
    """A state ``seat`` cannot tell from ``state``, its hidden parts redrawn from ``seed``."""
    rng = Rng(seed)
    w = Work(state)
    _redeal_boards(w, rng)
    w.event_stacks = tuple(rng.shuffled(sorted(stack)) for stack in state.event_stacks)
    if state.config.hide_opponent_vp and state.final is None:
        for other, player in enumerate(state.players):
            if other != seat:
                w.set_player(other, with_vp(player, public_vp(state, other)))
        w.log = tuple(
            entry
            if entry.seat == seat or not entry.private
            else LogEntry(entry.turn, entry.seat, entry.text)
            for entry in state.log
        )
    w.rng = rng.next_u64()
    return w.freeze()


def _estimate(state: State, seat: int) -> float:
    """VP now plus the end-game VP the position already holds (§7), roughly."""
    player = state.players[seat]
    members = [p.on_board for p in state.players]
    land = [active_tiles(p) for p in state.players]
    bonus = 2 * (members[seat] == max(members)) + 2 * (land[seat] == max(land))
    return player.vp + track_vp(player) + bonus + 0.1 * player.shells


def evaluate(state: State, seat: int) -> float:
    """How good ``state`` looks for ``seat`` in [0, 1]: 1 a sure win, 0 a sure loss."""
    if state.final is not None:
        winners = [s.seat for s in state.final if s.rank == 1]
        return 1.0 / len(winners) if seat in winners else 0.0
    mine = _estimate(state, seat)
    best_other = max(_estimate(state, o) for o in range(state.seats) if o != seat)
    return 0.5 + 0.5 * math.tanh((mine - best_other) / _SCALE)

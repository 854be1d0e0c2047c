"""Tribes: Early Civilization as the conformance suite sees it (hidden information per §6).

Configurations: the default game for 2, 3 and 4 players (100 seeded playouts each), and
3 players with every option changed: the seat bonus on, VP shown to everyone, and a turn
cap of 60 so that the capped ending is played too (and the configuration stays cheap).
Random games are long (about 450, 600 and 800 moves for 2, 3 and 4 players), so the
costly checks sample every 127th state; the invariants run after every move.
"""

from __future__ import annotations

from tests.support.conformance import Config, Subject
from tribes.engine.rng import Rng
from tribes.games.tribes_early_civilization import GAME
from tribes.games.tribes_early_civilization.data import BOARDS_OF_EPOCH, EPOCHS
from tribes.games.tribes_early_civilization.rules.common import with_vp
from tribes.games.tribes_early_civilization.rules.work import Work
from tribes.games.tribes_early_civilization.state import BoardSlot, LogEntry, State


def _shuffle_hidden_boards(w: Work, rng: Rng) -> None:
    """Per epoch, deal the boards that are not face up anew over the face-down positions
    and the removed slot."""
    grid = list(w.grid)
    removed = list(w.removed_boards)
    for epoch in EPOCHS:
        hidden = [i for i, slot in enumerate(grid) if slot.epoch == epoch and not slot.face_up]
        shown = {slot.board for slot in grid if slot.epoch == epoch and slot.face_up}
        pool = rng.shuffled([b for b in BOARDS_OF_EPOCH[epoch] if b not in shown])
        for index, board in zip(hidden, pool, strict=False):
            grid[index] = BoardSlot(epoch, grid[index].column, board, False, ())
        removed[epoch - 1] = pool[-1]
    w.grid = tuple(grid)
    w.removed_boards = tuple(removed)


def perturb(state: State, viewer: int, rng: Rng) -> State:
    """Change only what ``viewer`` must not know (§6): the removed and face-down boards,
    the order of every event stack, the PRNG, and while VP is hidden every other seat's
    VP total (everyone's for a spectator) and other seats' private log versions."""
    w = Work(state)
    _shuffle_hidden_boards(w, rng)
    w.event_stacks = tuple(rng.shuffled(stack) for stack in state.event_stacks)
    if state.config.hide_opponent_vp and state.final is None:
        for seat, player in enumerate(state.players):
            if seat != viewer:
                w.set_player(seat, with_vp(player, rng.below(80)))
        w.log = tuple(
            e if e.seat == viewer else LogEntry(e.turn, e.seat, e.text, f"hidden {rng.below(99)}")
            for e in state.log
        )
    w.rng = rng.next_u64()
    return w.freeze()


SUBJECT = Subject(
    game=GAME,
    configs=(
        Config(2),
        Config(3),
        Config(4),
        Config(3, {"seat_bonus_vp": "on", "hide_opponent_vp": "off", "turn_cap": "60"}),
    ),
    perturb=perturb,
    playouts=100,
    sample_every=127,
)

"""A turn's frame (rules spec §5.3 TURN_CHOOSE_TILE, §5.9 TURN_END, §7 trigger and end).

``ChooseTile(i, mode)`` pays one shell onto each skipped tile, collects the shells on
the chosen one, takes it out of the row and opens the phase it leads to. ``end_turn``
puts a taken action tile back at the end of the row, counts the turn, and either ends
the game (the round after the end trigger is complete, or the turn cap is reached) or
passes the turn clockwise.
"""

from __future__ import annotations

from tribes.games.tribes_early_civilization.data import (
    ACTION_TILES,
    EVENTS,
    Action,
    action_tile_name,
)
from tribes.games.tribes_early_civilization.moves import ChooseTile, Entry, tile_entry
from tribes.games.tribes_early_civilization.rules.achieve import can_achieve
from tribes.games.tribes_early_civilization.rules.actions import (
    start_explore,
    start_move,
    start_procreate,
)
from tribes.games.tribes_early_civilization.rules.common import with_shells
from tribes.games.tribes_early_civilization.rules.events import start_event
from tribes.games.tribes_early_civilization.rules.scoring import final_scores
from tribes.games.tribes_early_civilization.rules.work import Work
from tribes.games.tribes_early_civilization.state import (
    Mode,
    Pending,
    Phase,
    RowKind,
    RowTile,
    State,
)


def choose_tile_entries(state: State, seat: int) -> list[Entry]:
    """§5.2: any index up to the chooser's shells; the mode must fit the tile (§5.3)."""
    shells = state.players[seat].shells
    achieve: bool | None = None  # computed once, only if a hand tile is affordable
    moves: list[Entry] = []
    for index, tile in enumerate(state.sequence[: shells + 1]):
        if tile.kind is RowKind.EVENT:
            moves.append(tile_entry(index, Mode.EVENT))
            continue
        moves.append(tile_entry(index, Mode.ACTION))
        assert tile.action is not None
        if ACTION_TILES[tile.action].hand:
            if achieve is None:
                achieve = can_achieve(state, seat)
            if achieve:
                moves.append(tile_entry(index, Mode.ACHIEVE))
    return moves


def apply_choose_tile(w: Work, seat: int, move: ChooseTile) -> None:
    """§5.3 steps 1-4: pay, collect, take the tile out, open its phase."""
    index = move.index
    row = w.sequence
    chosen = row[index]
    paid = tuple(RowTile(t.kind, t.action, t.event, t.shells + 1) for t in row[:index])
    player = w.players[seat]
    w.set_player(seat, with_shells(player, player.shells - index + chosen.shells))
    w.sequence = paid + row[index + 1 :]
    cost = f", paying {index} shell(s)" if index else ""
    gain = f", collecting {chosen.shells} shell(s)" if chosen.shells else ""
    if chosen.kind is RowKind.EVENT:
        assert chosen.event is not None
        w.note(seat, f"seat {seat} takes the event {EVENTS[chosen.event].name}{cost}{gain}")
        start_event(w, seat, chosen.event)
        return
    assert chosen.action is not None
    w.taken = chosen.action
    name = action_tile_name(chosen.action)
    use = "to complete an achievement" if move.mode is Mode.ACHIEVE else "for its action"
    w.note(seat, f"seat {seat} takes {name} {use}{cost}{gain}")
    if move.mode is Mode.ACHIEVE:
        w.pending = Pending(Phase.ACHIEVE_SELECT, seat)
        return
    action = ACTION_TILES[chosen.action].action
    if action is Action.PROCREATE:
        start_procreate(w, seat)
    elif action is Action.EXPLORE:
        start_explore(w, seat)
    else:
        start_move(w, seat)


def last_seat_of_round(state: State | Work) -> int:
    """The player on the start player's right (§5.9 step 2)."""
    return (state.start_player + state.seats - 1) % state.seats


def end_turn(w: Work) -> None:
    """§5.9 TURN_END: the tile back to the row, the end checks, the next player."""
    if w.taken is not None:
        w.sequence = (*w.sequence, RowTile(RowKind.ACTION, w.taken, None, 0))
        w.taken = None
    w.turn_count += 1
    if w.end_triggered and w.current == last_seat_of_round(w):
        game_over(w, capped=False)
        return
    if w.turn_count >= w.config.turn_cap:
        game_over(w, capped=True)
        return
    following = (w.current + 1) % w.seats
    w.current = following
    if following == w.start_player:
        w.round += 1
    w.pending = Pending(Phase.TURN_CHOOSE_TILE, following)


def game_over(w: Work, *, capped: bool) -> None:
    """GAME_OVER (§7): final scoring; nothing is pending any more."""
    w.final = final_scores(w)
    w.pending = None
    w.capped = capped
    why = f"the turn cap of {w.config.turn_cap} turns" if capped else "the end of the round"
    totals = ", ".join(f"seat {s.seat} {s.total} VP" for s in w.final)
    w.note(-1, f"the game is over ({why}): {totals}")

"""Tribes: Early Civilization rules as pure functions: dispatch by phase (rules spec §5).

One decision is pending at a time (``State.pending``, its ``decider`` is the seat to
act). ``legal_moves`` enumerates that phase's moves, sorted by key; ``apply`` plays one
and then ``settle`` runs the automatic steps: a phase that is over leaves nothing
pending, so the event queue continues (§5.8) or the turn ends (§5.9), until a decision
is pending again or the game is over.

Modules: ``setup`` (§4), ``turn`` (§5.3, §5.9, §7 trigger), ``actions`` (§5.4-§5.6),
``achieve`` (§5.7), ``events`` (§5.8), ``scoring`` (§7).
"""

from __future__ import annotations

from tribes.engine import Result
from tribes.games.tribes_early_civilization.moves import (
    ChooseAchievement,
    ChooseTile,
    EndExplore,
    EndMove,
    EndRelocate,
    Entry,
    ExhaustUnoccupied,
    ExhaustWild,
    LoseMember,
    Move,
    PlaceFirstMember,
    PlaceLand,
    PlaceNewMember,
    Relocate,
    RestoreTile,
    Step,
)
from tribes.games.tribes_early_civilization.rules import achieve, actions, events, setup, turn
from tribes.games.tribes_early_civilization.rules.scoring import result as _result
from tribes.games.tribes_early_civilization.rules.work import Work
from tribes.games.tribes_early_civilization.state import Phase, State


def to_act(state: State) -> tuple[int, ...]:
    """The pending decision's decider; nobody once the game is over (§5.1)."""
    pending = state.pending
    return () if pending is None else (pending.decider,)


def move_entries(state: State, seat: int) -> list[Entry]:
    """The pending phase's moves as (key, move) pairs, unsorted (``seat`` is the decider)."""
    pending = state.pending
    assert pending is not None
    phase = pending.phase
    player = state.players[seat]
    if phase is Phase.TURN_CHOOSE_TILE:
        return turn.choose_tile_entries(state, seat)
    if phase is Phase.PROCREATE_PLACE or phase is Phase.EVENT_PLACE_MEMBER:
        return actions.member_entries(player)
    if phase is Phase.MOVE_STEPS:
        return actions.move_entries(player)
    if phase is Phase.EXPLORE_PLACE:
        return actions.land_entries(player, pending.drawn)
    if phase is Phase.ACHIEVE_SELECT:
        return achieve.claim_entries(state, seat)
    if phase is Phase.ACHIEVE_WILD:
        assert pending.board is not None
        return achieve.wild_entries(player, pending.board)
    if phase is Phase.EVENT_LOSE_MEMBER:
        return actions.member_entries(player, LoseMember)
    if phase is Phase.EVENT_EXHAUST:
        return events.exhaust_entries(player)
    if phase is Phase.PROCREATE_RELOCATE:
        return actions.relocate_entries(player)
    if phase is Phase.EXPLORE_RESTORE:
        return actions.restore_entries(player)
    if phase is Phase.SETUP_FIRST_MEMBER:
        return setup.first_member_entries(state, seat)
    raise AssertionError(f"no moves in phase {phase.name}")


#: The last few answers of ``legal_moves`` by state identity: callers (the service's
#: snapshot and move lookup, the test suites) often ask twice about the same state.
#: Rebound whole (never mutated), so concurrent readers always see a consistent tuple.
_recent: tuple[tuple[State, tuple[Move, ...]], ...] = ()
_RECENT_SIZE = 4


def legal_moves(state: State, seat: int) -> tuple[Move, ...]:
    """Every legal move of ``seat``, sorted by key (empty when it is not to act)."""
    pending = state.pending
    if pending is None or pending.decider != seat:
        return ()
    global _recent
    for known, found in _recent:
        if known is state:
            return found
    entries = move_entries(state, seat)
    entries.sort()  # keys are unique, so moves themselves are never compared
    found = tuple([move for _, move in entries])
    _recent = ((state, found), *_recent[: _RECENT_SIZE - 1])
    return found


def _apply(w: Work, seat: int, move: Move) -> None:
    match move:
        case ChooseTile():
            turn.apply_choose_tile(w, seat, move)
        case PlaceNewMember(cell):
            actions.apply_place_member(w, seat, cell)
        case Step(origin, destination):
            actions.apply_step(w, seat, origin, destination)
        case PlaceLand(terrain, cell):
            actions.apply_place_land(w, seat, terrain, cell)
        case ChooseAchievement():
            achieve.apply_claim(w, seat, move)
        case ExhaustWild(cell):
            achieve.apply_wild(w, seat, cell)
        case LoseMember(cell):
            events.apply_lose_member(w, seat, cell)
        case ExhaustUnoccupied(cell):
            events.apply_exhaust(w, seat, cell)
        case Relocate(origin, destination):
            actions.apply_relocate(w, seat, origin, destination)
        case RestoreTile(cell):
            actions.apply_restore(w, seat, cell)
        case EndMove() | EndRelocate() | EndExplore():
            actions.end_phase(w)
        case PlaceFirstMember(cell):
            setup.apply_first_member(w, seat, cell)
        case _:
            raise AssertionError(f"unknown move {move!r}")


def settle(w: Work) -> None:
    """Run the automatic steps until a decision is pending or the game is over."""
    while w.pending is None and w.final is None:
        if w.event is not None:
            events.advance(w)
        else:
            turn.end_turn(w)


def apply(state: State, seat: int, move: Move) -> State:
    """Apply a legal move (the driver has checked legality) and return the new state."""
    w = Work(state)
    _apply(w, seat, move)
    settle(w)
    return w.freeze()


def result(state: State) -> Result | None:
    return _result(state)


def scores(state: State, viewer: int) -> tuple[int, ...]:
    """Final totals once over; while running the bear teeth only when VP is public (§6)."""
    if state.final is not None:
        return tuple(s.total for s in state.final)
    if state.config.hide_opponent_vp:
        return ()
    return tuple(p.vp for p in state.players)

"""The frame of a turn: re-entry, villages, the roll, the end (spec §5.1-§5.3, §5.8).

A turn begins inside the ``apply`` of the move that ended the previous one (or the
last setup move): re-entry is asked if the player has no member on the map, villages
score, the two pool dice are rolled (chance, through the state's Rng) and doubles are
handed to ``events``. ``end_turn`` counts the turn against the cap (ENGINE SAFEGUARD)
and starts the next player's.
"""

from __future__ import annotations

from tribes.engine.rng import Rng
from tribes.games.rise_of_tribes.data import DIE_FACES, FACE_NAME, REENTRY_MEMBERS
from tribes.games.rise_of_tribes.maps import geometry
from tribes.games.rise_of_tribes.moves import Move, ReEnter
from tribes.games.rise_of_tribes.rules import events
from tribes.games.rise_of_tribes.rules.board import Board
from tribes.games.rise_of_tribes.rules.query import invaders_at
from tribes.games.rise_of_tribes.state import NOBODY, State, Step, Turn


def fresh_turn(hexes: int) -> Turn:
    return Turn(
        rolled=(),
        dice_left=(),
        actions_taken=(),
        dice_used=0,
        roll_stage=3,
        draw_blocked=False,
        gathered=0,
        raided=False,
        shared_knowledge_used=False,
        altar_used=False,
        pottery_used=False,
        trader_used=False,
        cunning_used=False,
        moved=(0,) * hexes,
    )


def begin_turn(b: Board, seat: int) -> None:
    """Step 0 if the player has no member on the map (C3), else Step 1."""
    b.active = seat
    b.turn = fresh_turn(b.geo.size)
    b.action = b.conflict = b.resolving = None
    if b.on_map(seat) == 0:
        b.ask(Step.RE_ENTER, seat)
        return
    count_villages(b)


def count_villages(b: Board) -> None:
    """Step 1: 1 VP per own village (C2 may end the game here, Ex 19); then roll."""
    seat = b.active
    villages = b.villages_of(seat)
    if villages:
        b.log(f"seat {seat} scores {villages} VP for villages")
        b.award(seat, villages, source="villages")
    roll(b)


def roll(b: Board) -> None:
    """Step 2: roll the two pool dice (each face uniform over the die's six, G1)."""
    rng = Rng(b.rng)
    first = DIE_FACES[rng.below(len(DIE_FACES))]
    second = DIE_FACES[rng.below(len(DIE_FACES))]
    b.rng = rng.state
    b.pool = ()
    doubles = first is second
    assert b.turn is not None
    full = all(slot is not None for slot in b.slots)
    b.turn = Turn(
        rolled=(first, second),
        dice_left=(first, second),
        actions_taken=(),
        dice_used=0,
        roll_stage=0 if doubles else 3,
        draw_blocked=doubles and full,
        gathered=0,
        raided=False,
        shared_knowledge_used=False,
        altar_used=False,
        pottery_used=False,
        trader_used=False,
        cunning_used=False,
        moved=b.turn.moved,
    )
    b.log(f"seat {b.active} rolls {FACE_NAME[first]} and {FACE_NAME[second]}")
    events.resume_roll(b)


# -- Step 0 (§5.1) ----------------------------------------------------------------------------


def reentry_hexes(state: State) -> list[int]:
    """Hexes with no tribe members and no invaders; every map hex if there is none."""
    free = [
        h
        for h, row in enumerate(state.members)
        if not any(row) and not invaders_at(state.invader_hex, state.invaders, h)
    ]
    return free or list(range(len(state.members)))


def reentry_moves(state: State) -> list[Move]:
    hexes = geometry(state.seats).hexes
    return [ReEnter(hexes[h]) for h in reentry_hexes(state)]


def apply_reenter(b: Board, h: int) -> None:
    b.put(h, b.active, REENTRY_MEMBERS, from_supply=True)
    b.log(f"seat {b.active} re-enters in {b.geo.hexes[h].text}")
    count_villages(b)


# -- end of turn (§5.8) -----------------------------------------------------------------------


def end_turn(b: Board) -> None:
    """Flags and marks clear with the new Turn; the cap is the ENGINE SAFEGUARD of G25."""
    b.turn_count += 1
    if b.turn_count >= b.turn_cap:
        b.capped = True
        b.step = Step.GAME_OVER
        b.actor = NOBODY
        b.log(f"the turn cap of {b.turn_cap} turns is reached: the game stops (not a rules win)")
        return
    begin_turn(b, (b.active + 1) % b.n)

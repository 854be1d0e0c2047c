"""Step 3: what a rolled die is used for (spec §3.3, §5.5, §8.1, §8.3, §8.24).

``AssignDie`` pushes the die into slot 1 of the action's column (the slot-3 die falls
into the next roll pool), reads the tier from the three dice now there and starts the
action (``actions``); ``SpendDie`` hunts or tames the Mammoth or hunts the Tiger
instead, the die going straight to the next pool; (house) Cunning rerolls a die before
any is used. Moves are face-based: equal faces are listed once (§8.24).
"""

from __future__ import annotations

from dataclasses import replace

from tribes.engine.rng import Rng
from tribes.games.rise_of_tribes.cards import Event
from tribes.games.rise_of_tribes.data import (
    ACTION_NAME,
    ACTIONS,
    DIE_FACES,
    MAMMOTH_HUNT_FOOD,
    MAMMOTH_HUNT_VP,
    MAMMOTH_HUNTERS,
    MAMMOTH_TAME_FOOD,
    MAMMOTH_TAME_VP,
    TIGER_HUNT_VP,
    Action,
    Face,
    Power,
    SpendTarget,
    Tier,
    tier_of,
)
from tribes.games.rise_of_tribes.moves import AssignDie, CunningReroll, Move, SpendDie
from tribes.games.rise_of_tribes.rules import actions
from tribes.games.rise_of_tribes.rules.board import Board
from tribes.games.rise_of_tribes.rules.query import action_power
from tribes.games.rise_of_tribes.state import NOBODY, State, Step

_FACES = (Face.SUN, Face.MOON, Face.BLANK)
_ROW = {action: i for i, action in enumerate(ACTIONS)}


def start_actions(b: Board) -> None:
    """Step 3 begins: the active player chooses what to do with a die."""
    b.ask(Step.ACTION, b.active)


def _without(dice: tuple[Face, ...], face: Face) -> tuple[Face, ...]:
    i = dice.index(face)
    return dice[:i] + dice[i + 1 :]


# -- choosing a die's use (§5.5) ----------------------------------------------------------------


def action_moves(state: State) -> list[Move]:
    turn = state.turn
    assert turn is not None
    seat = state.active
    player = state.players[seat]
    faces = [f for f in _FACES if f in turn.dice_left]
    focused = player.power is Power.FOCUSED_EFFORT
    open_actions = [a for a in ACTIONS if focused or a not in turn.actions_taken]
    moves: list[Move] = [AssignDie(f, a) for f in faces for a in open_actions]
    targets = []
    mammoth = state.mammoth_hex
    if mammoth != NOBODY and state.members[mammoth][seat] >= MAMMOTH_HUNTERS:
        targets.append(SpendTarget.MAMMOTH_HUNT)
        if player.resources[0] >= MAMMOTH_TAME_FOOD:
            targets.append(SpendTarget.MAMMOTH_TAME)
    if state.tiger_hex != NOBODY and state.members[state.tiger_hex][seat]:
        targets.append(SpendTarget.TIGER_HUNT)
    moves.extend(SpendDie(f, t) for f in faces for t in targets)
    if player.power is Power.CUNNING and not turn.cunning_used and turn.dice_used == 0:
        moves.extend(CunningReroll(f) for f in faces)
    return moves


def apply_reroll(b: Board, face: Face) -> None:
    """(house) Cunning: the new face never triggers an event (§3.5)."""
    assert b.turn is not None
    rng = Rng(b.rng)
    new = DIE_FACES[rng.below(len(DIE_FACES))]
    b.rng = rng.state
    dice = b.turn.dice_left
    i = dice.index(face)
    b.turn = replace(b.turn, dice_left=(*dice[:i], new, *dice[i + 1 :]), cunning_used=True)
    b.log(f"seat {b.active} rerolls a {face.name} die: {new.name}")


def apply_spend(b: Board, face: Face, target: SpendTarget) -> None:
    """The die goes straight to the next pool; the card leaves play (§5.5, E5, E10)."""
    assert b.turn is not None
    seat = b.active
    b.turn = replace(
        b.turn, dice_left=_without(b.turn.dice_left, face), dice_used=b.turn.dice_used + 1
    )
    b.pool = (*b.pool, face)
    if target is SpendTarget.TIGER_HUNT:
        b.remove(b.tiger_hex, seat, 1)
        b.discard_slot(b.slot_of(Event.SABERTOOTH_TIGER))
        b.log(f"seat {seat} hunts the tiger")
        b.award(seat, TIGER_HUNT_VP, source="events")
    else:
        b.discard_slot(b.slot_of(Event.MAMMOTH))
        if target is SpendTarget.MAMMOTH_HUNT:
            b.gain(seat, food=MAMMOTH_HUNT_FOOD)
            b.log(f"seat {seat} hunts the mammoth")
            b.award(seat, MAMMOTH_HUNT_VP, source="events")
        else:
            b.pay(seat, (MAMMOTH_TAME_FOOD, 0, 0))
            b.set_player(seat, replace(b.players[seat], mammoth_tamed=True))
            b.log(f"seat {seat} tames the mammoth")
            b.award(seat, MAMMOTH_TAME_VP, source="events")
    actions.next_die(b)


def apply_assign(b: Board, face: Face, action: Action) -> None:
    """Push the die into slot 1, read the tier (§3.3), start the action."""
    assert b.turn is not None
    seat = b.active
    turn = b.turn
    b.turn = replace(
        turn,
        dice_left=_without(turn.dice_left, face),
        dice_used=turn.dice_used + 1,
        actions_taken=(*turn.actions_taken, action),
    )
    index = _ROW[action]
    old = b.rows[index]
    row = (face, old[0], old[1])
    b.rows = (*b.rows[:index], row, *b.rows[index + 1 :])
    b.pool = (*b.pool, old[2])
    tier = tier_of(row)
    if tier is Tier.MOON and b.has_power(seat, Power.LIGHT_IN_THE_DARK):
        tier = Tier.DEFAULT
    power = action_power(action, tier, b.players[seat], b.slots)
    b.log(f"seat {seat} takes {ACTION_NAME[action]} at the {tier.name} tier")
    actions.START[action](b, tier, power)

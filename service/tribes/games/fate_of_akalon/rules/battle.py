"""The battle state machine (spec §5.2, §5.3 B0-B7) and the engine loop that drives it.

Every step is a task on the state's stack. ``run`` pops and executes tasks until one
suspends on a decision (``Board.ask``) or the game ends; ``resume`` hands the next
move to the task that suspended. So everything between two decisions happens inside
one ``apply``, as §5.2 requires.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

from tribes.games.fate_of_akalon.cards import (
    AFTER_ALL_PLAYED,
    CEMETERY_AFTER_DRAW,
    CONDITION,
    DEF_OF,
    DEFEATED,
    EXTRA_DRAW,
    NAME,
    REPLACEMENT,
    VICTORIOUS,
    same_definition,
    trigger_code,
)
from tribes.games.fate_of_akalon.moves import (
    AkalonMove,
    ChooseFirstAttacker,
    PlaceOnDiscard,
    PlayCard,
    ResolveTrigger,
    card_of,
)
from tribes.games.fate_of_akalon.rules.board import Board
from tribes.games.fate_of_akalon.rules.steps import play_card, resume_ability, run_ability
from tribes.games.fate_of_akalon.rules.values import (
    battlefield_values,
    ignored_cards,
    is_blocked,
)
from tribes.games.fate_of_akalon.rules.victory import (
    SAFEGUARD_REASON,
    check_victory,
    final_result,
    initiative,
    safeguard_triggered,
)
from tribes.games.fate_of_akalon.state import Decision, Pending, Phase, Side, Task, TaskKind

HAND_SIZE = 5  # §4.2 step 5 and B7: five cards


# -- setup end and B0 -------------------------------------------------------------------


def _resume_first_attacker(b: Board, task: Task, move: AkalonMove) -> None:
    """§4.2 steps 4-5: the chosen player attacks first; everyone draws 5 (not a reinforcement)."""
    assert isinstance(move, ChooseFirstAttacker)
    b.next_attacker = move.seat
    b.say(f"{b.name(task.seat)} chooses {b.name(move.seat)} to attack first")
    for seat in range(b.n):
        b.draw(seat, HAND_SIZE)
    b.say(f"Every player draws {HAND_SIZE} cards")
    b.stack.append(Task(TaskKind.BEGIN_BATTLE))


def _begin_battle(b: Board, task: Task) -> None:
    """B0: reset the battle, fix sides (R-07) and the play order."""
    b.number += 1
    attacker = b.attacker = b.next_attacker
    if b.n == 4:  # the lead attacker's team attacks; play runs clockwise from them
        b.sides = [Side.ATTACKING if (s - attacker) % 2 == 0 else Side.DEFENDING for s in range(4)]
        b.play_order = tuple((attacker + k) % 4 for k in range(4))
    else:
        b.sides = [
            Side.NONE if b.eliminated[s] else Side.ATTACKING if s == attacker else Side.DEFENDING
            for s in range(b.n)
        ]
        b.play_order = tuple(b.clockwise(attacker))  # eliminated seats skipped
    b.plays = [0] * b.n
    b.battlefield.clear()
    b.effects.clear()
    b.fired.clear()
    b.designations.clear()
    b.values = (0,) * b.n
    b.winners = b.losers = ()
    b.phase = Phase.ATTACK
    b.say(f"Battle {b.number}: {b.name(attacker)} attacks")
    b.stack.append(Task(TaskKind.FIGHT_ROUND))
    b.push(*(Task(TaskKind.TURN, seat=seat) for seat in b.play_order))


# -- B1/B2 -------------------------------------------------------------------------------


def _turn(b: Board, task: Task) -> None:
    """One player's turn: a mandatory play unless the hand is empty or a limit blocks."""
    seat = task.seat
    b.phase = Phase.ATTACK if seat == b.attacker else Phase.DEFEND
    if not b.hand[seat]:
        b.say(f"{b.name(seat)} has no card to play")
        return
    if is_blocked(b, seat):
        b.say(f"{b.name(seat)} may not play a card")
        return
    b.ask(Pending(Decision.PLAY, seat), task)


def _resume_turn(b: Board, task: Task, move: AkalonMove) -> None:
    assert isinstance(move, PlayCard)
    b.push(*play_card(b, task.seat, card_of(move), "hand"))


# -- simultaneous batches (§5.6.6) -----------------------------------------------------------


def _triggers(b: Board, task: Task) -> None:
    """One player's share of a batch: they order it unless every trigger is alike (R-15)."""
    pending = task.triggers
    if not pending:
        return
    if len(pending) == 1 or same_definition(pending):
        if len(pending) > 1:
            b.stack.append(replace(task, triggers=pending[1:]))
        card, ability = pending[0]
        b.stack.append(Task(TaskKind.ABILITY, card=card, ability=ability))
        return
    b.ask(Pending(Decision.ORDER_TRIGGERS, task.seat), task)


def _resume_triggers(b: Board, task: Task, move: AkalonMove) -> None:
    assert isinstance(move, ResolveTrigger)
    chosen = (card_of(move), move.ability)
    rest = tuple(t for t in task.triggers if t != chosen)
    if rest:
        b.stack.append(replace(task, triggers=rest))
    b.stack.append(Task(TaskKind.ABILITY, card=chosen[0], ability=chosen[1]))


def _batch(b: Board, by_seat: dict[int, list[tuple[int, int]]]) -> None:
    """Push a batch: players clockwise from the (lead) attacker, each ordering their own."""
    b.push(
        *(
            Task(TaskKind.TRIGGERS, seat=seat, triggers=tuple(sorted(by_seat[seat])))
            for seat in b.clockwise(b.attacker)
            if by_seat.get(seat)
        )
    )


def _gather(
    b: Board, table: tuple[tuple[int, ...], ...], seats: tuple[int, ...] | None
) -> dict[int, list[tuple[int, int]]]:
    """Battlefield abilities that may fire now: not ignored, not fired, condition holds."""
    ignored = ignored_cards(b)
    found: dict[int, list[tuple[int, int]]] = {}
    for entry in b.battlefield:
        card = entry.card
        if not table[card] or card in ignored or (seats is not None and entry.owner not in seats):
            continue
        side = b.sides[entry.owner]
        for ability in table[card]:
            condition = CONDITION[card][ability]
            if trigger_code(card, ability) in b.fired:
                continue
            if condition is not None and condition is not side:
                continue
            found.setdefault(entry.owner, []).append((card, ability))
    return found


# -- B3 FIGHT ------------------------------------------------------------------------------


def _fight_round(b: Board, task: Task) -> None:
    """B3.1: after-all-played rounds until a round set is empty."""
    b.phase = Phase.FIGHT
    found = _gather(b, AFTER_ALL_PLAYED, None)
    if not found:
        b.stack.append(Task(TaskKind.FIGHT_RESULT))
        return
    b.stack.append(Task(TaskKind.FIGHT_ROUND))
    _batch(b, found)


def _fight_result(b: Board, task: Task) -> None:
    """B3.2-3 values and results, then B4.1: gather Victorious/Defeated triggers."""
    values = b.values = battlefield_values(b)
    active = [s for s in range(b.n) if b.active(s)]
    if b.n == 4:
        teams = (values[0] + values[2], values[1] + values[3])
        if teams[0] == teams[1]:
            b.winners, b.losers = (), (0, 1, 2, 3)
        else:
            win = 0 if teams[0] > teams[1] else 1
            b.winners, b.losers = (win, win + 2), (1 - win, 3 - win)
        shown = f"{teams[0]} to {teams[1]} (team totals)"
    else:
        top = max(values[s] for s in active)
        best = [s for s in active if values[s] == top]
        if len(best) == 1:
            b.winners, b.losers = (best[0],), tuple(s for s in active if s != best[0])
        else:  # a tie for the highest value: everyone loses
            b.winners, b.losers = (), tuple(active)
        shown = ", ".join(f"{b.name(s)} {values[s]}" for s in active)
    if not b.winners:
        outcome = "everyone loses"
    else:
        outcome = " and ".join(b.name(s) for s in b.winners) + (
            " win" if len(b.winners) > 1 else " wins"
        )
    b.say(f"Fight: {shown}; {outcome}")
    b.phase = Phase.AFTERMATH
    b.stack.append(Task(TaskKind.AFTERMATH_MOVES))
    found = _gather(b, VICTORIOUS, b.winners)
    for seat, triggers in _gather(b, DEFEATED, b.losers).items():
        found.setdefault(seat, []).extend(triggers)
    _batch(b, found)


# -- B4 AFTERMATH ---------------------------------------------------------------------------


def _aftermath_moves(b: Board, task: Task) -> None:
    """B4.2-4: fix destinations (R-10), move to cemetery/out of play, then discard batches."""
    ignored = ignored_cards(b)
    to_discard: dict[int, list[int]] = {}
    elsewhere: list[tuple[int, int, str]] = []
    for entry in b.battlefield:
        card, owner = entry.card, entry.owner
        destination = "discard" if owner in b.winners else "cemetery"
        if card not in ignored:
            for condition, replacement in REPLACEMENT[card]:
                if condition is not None and condition is not b.sides[owner]:
                    continue
                if replacement.source == destination:
                    destination = replacement.to
        if destination == "discard":
            to_discard.setdefault(owner, []).append(card)
        else:
            elsewhere.append((card, owner, destination))
    for card, owner, destination in sorted(elsewhere):
        b.leave_battlefield(card)
        b.put(card, owner, destination)
        where = "the cemetery" if destination == "cemetery" else "out of play"
        b.say(f"{b.name(owner)}'s {NAME[card]} goes to {where}")
    b.stack.append(Task(TaskKind.END_BATTLE))
    b.push(
        *(
            Task(TaskKind.DISCARD_BATCH, seat=seat, cards=tuple(sorted(to_discard[seat])))
            for seat in b.clockwise(b.attacker)
            if seat in to_discard
        )
    )


def _discard_batch(b: Board, task: Task) -> None:
    """Cards placed on the discard in the owner's order (R-11); reshuffle waits (R-23)."""
    cards, seat = task.cards, task.seat
    if len(cards) > 1 and any(DEF_OF[c] != DEF_OF[cards[0]] for c in cards):
        b.ask(Pending(Decision.ORDER_DISCARD, seat), task)
        return
    for card in cards:  # one card, or identical cards: canonical order
        _place(b, seat, card)
    b.reshuffle()  # only now that the whole batch is placed


def _resume_discard(b: Board, task: Task, move: AkalonMove) -> None:
    assert isinstance(move, PlaceOnDiscard)
    card = card_of(move)
    _place(b, task.seat, card)
    b.stack.append(replace(task, cards=tuple(c for c in task.cards if c != card)))


def _place(b: Board, seat: int, card: int) -> None:
    """One card of a batch onto the discard; no reshuffle until the batch is done (R-23)."""
    if card in b.reveal[seat]:
        b.reveal[seat].remove(card)
    else:
        b.leave_battlefield(card)
    b.discard[seat].append(card)
    b.say(f"{b.name(seat)} places {NAME[card]} on their discard pile")


# -- B4.5, B5, B6, B7 -------------------------------------------------------------------------


def _end_battle(b: Board, task: Task) -> None:
    """B4.5 end battle effects; B5 initiative; B6 victory; then queue B7."""
    b.effects.clear()
    b.reshuffle()
    next_attacker = check_victory(b, initiative(b))
    if b.result is not None:
        b.say(f"Game over: {b.result.summary}")
        return
    b.next_attacker = next_attacker
    b.phase = Phase.REINFORCE
    b.stack.append(Task(TaskKind.NEXT_BATTLE))
    b.push(*(Task(TaskKind.REINFORCE, seat=seat) for seat in b.clockwise(b.attacker)))


def _reinforce(b: Board, task: Task) -> None:
    """B7 for one player (R-12): with an empty hand draw 5 + Sylvans (R-13), then Skeletons."""
    seat = task.seat
    if b.hand[seat] or not b.active(seat):
        return
    count = HAND_SIZE + sum(EXTRA_DRAW[c] for c in b.cemetery[seat])
    drawn = b.draw(seat, count)
    b.say(f"{b.name(seat)} reinforces and draws {drawn} cards")
    triggers = tuple((c, a) for c in sorted(b.cemetery[seat]) for a in CEMETERY_AFTER_DRAW[c])
    if triggers:
        b.stack.append(Task(TaskKind.TRIGGERS, seat=seat, triggers=triggers))


def _next_battle(b: Board, task: Task) -> None:
    """The safeguards (R-14), then B0 of the next battle."""
    if safeguard_triggered(b):
        result = final_result(b, SAFEGUARD_REASON)
        b.finish(result, SAFEGUARD_REASON)
        b.say(f"Game over: {result.summary}")
        return
    b.stack.append(Task(TaskKind.BEGIN_BATTLE))


# -- the engine loop ------------------------------------------------------------------------

Runner = Callable[[Board, Task], None]
Resumer = Callable[[Board, Task, AkalonMove], None]

_RUN: dict[TaskKind, Runner] = {
    TaskKind.BEGIN_BATTLE: _begin_battle,
    TaskKind.TURN: _turn,
    TaskKind.ABILITY: run_ability,
    TaskKind.TRIGGERS: _triggers,
    TaskKind.FIGHT_ROUND: _fight_round,
    TaskKind.FIGHT_RESULT: _fight_result,
    TaskKind.AFTERMATH_MOVES: _aftermath_moves,
    TaskKind.DISCARD_BATCH: _discard_batch,
    TaskKind.END_BATTLE: _end_battle,
    TaskKind.REINFORCE: _reinforce,
    TaskKind.NEXT_BATTLE: _next_battle,
}
_RESUME: dict[TaskKind, Resumer] = {
    TaskKind.FIRST_ATTACKER: _resume_first_attacker,
    TaskKind.TURN: _resume_turn,
    TaskKind.ABILITY: resume_ability,
    TaskKind.TRIGGERS: _resume_triggers,
    TaskKind.DISCARD_BATCH: _resume_discard,
}


def run(b: Board) -> None:
    """Execute automatic tasks until a decision is pending or the game is over."""
    while b.pending is None and b.stack:
        task = b.stack.pop()
        _RUN[task.kind](b, task)


def resume(b: Board, move: AkalonMove) -> None:
    """Give ``move`` to the task that suspended on the pending decision, then run on."""
    task = b.stack.pop()
    b.pending = None
    _RESUME[task.kind](b, task, move)
    run(b)

"""Ability resolution: the DSL primitives as handlers (spec §5.5, §5.6.2).

An ability runs as its compiled program (``cards.PROGRAM``: ``may`` flattened into an
``Ask`` plus a skip count). Each handler returns how many steps to advance, or 0 when
it suspended on a decision; the task on the stack keeps the step index and the
bindings T, X and R, so the next move resumes exactly there. A step that plays a card
(extra plays, Master Summoner) or starts a discard batch leaves *nested* tasks: they
fully resolve before the rest of the ability (R-16).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from tribes.games.fate_of_akalon import moves
from tribes.games.fate_of_akalon.cards import (
    CONDITION,
    NAME,
    ON_PLAY,
    PROGRAM,
    TIMING,
    Ask,
    trigger_code,
)
from tribes.games.fate_of_akalon.dsl import (
    ChooseCard,
    ChooseOpponent,
    DesignateAttacker,
    DiscardRandom,
    DiscardRest,
    Draw,
    ExtraPlay,
    IgnoreText,
    Look,
    Modify,
    Move,
    PlayLimit,
    PlayOneOf,
    ReinforceExtraDraw,
    ReplaceDestination,
    Reveal,
)
from tribes.games.fate_of_akalon.moves import AkalonMove, ChooseYesNo, PlayCard, card_of
from tribes.games.fate_of_akalon.rules.board import Board
from tribes.games.fate_of_akalon.rules.values import evaluate, ignored_cards, is_blocked, matches
from tribes.games.fate_of_akalon.state import (
    BattlefieldCard,
    Decision,
    Effect,
    EffectKind,
    Pending,
    Task,
    TaskKind,
)

_BATTLEFIELD_TRIGGERS = ("after_all_played", "victorious", "defeated")
_FROM = {
    "battlefield": "the battlefield",
    "cemetery": "their cemetery",
    "discard": "their discard pile",
    "reveal": "their revealed cards",
    "out_of_play": "out of play",
    "deck": "their deck",
}
_PLACE = {
    "hand": "into their hand",
    "discard_top": "on their discard pile",
    "deck_top": "on top of their deck",
    "deck_bottom": "on the bottom of their deck",
    "out_of_play": "out of play",
}


class Ctx:
    """One ability in progress: source, owner, bindings and what the step asks for."""

    __slots__ = ("ability", "card", "index", "nested", "options", "owner", "pending", "r", "t", "x")

    def __init__(self, b: Board, task: Task) -> None:
        self.card = task.card
        self.ability = task.ability
        self.owner = b.owner(task.card)
        self.index = max(task.step, 0)
        self.t = task.bound_card
        self.x = task.bound_player
        self.r = task.cards
        self.options: tuple[int, ...] = ()
        self.nested: list[Task] = []
        self.pending: Pending | None = None

    def task(self, index: int) -> Task:
        return Task(
            TaskKind.ABILITY,
            card=self.card,
            ability=self.ability,
            step=index,
            bound_card=self.t,
            bound_player=self.x,
            cards=self.r,
            options=self.options,
        )

    def suspend(self, decision: Decision, actor: int) -> int:
        self.pending = Pending(decision, actor)
        return 0


# -- running ---------------------------------------------------------------------------


def play_card(b: Board, seat: int, card: int, source: str) -> list[Task]:
    """The play procedure of §5.3 B1/B2 step 2; returns the on-play tasks to run."""
    (b.hand if source == "hand" else b.reveal)[seat].remove(card)
    b.battlefield.append(BattlefieldCard(card, seat, b.next_seq(), False))
    ignored = bool(b.effects) and card in ignored_cards(b)
    if ignored:
        b.battlefield[-1] = BattlefieldCard(card, seat, b.seq, True)
    b.plays[seat] += 1
    b.say(f"{b.name(seat)} plays {NAME[card]}" + (" (its text is ignored)" if ignored else ""))
    if ignored:  # §5.6.4 item 3: an ignored card's on-play text never resolves
        return []
    return [Task(TaskKind.ABILITY, card=card, ability=index) for index in ON_PLAY[card]]


def run_ability(b: Board, task: Task) -> None:
    """Start the ability if it has not started, then run its steps (§5.5)."""
    ctx = Ctx(b, task)
    if task.step < 0 and not _starts(b, ctx):
        return
    _proceed(b, ctx, ctx.index)


def resume_ability(b: Board, task: Task, move: AkalonMove) -> None:
    """Apply ``move`` to the suspended step, then run on."""
    ctx = Ctx(b, task)
    step = PROGRAM[ctx.card][ctx.ability][ctx.index]
    advance = _RESUME[type(step)](b, ctx, step, move)
    ctx.options = ()
    _proceed(b, ctx, ctx.index + advance)


def _starts(b: Board, ctx: Ctx) -> bool:
    """The start checks of each timing (§5.3, R-08, R-22, R-35)."""
    timing = TIMING[ctx.card][ctx.ability]
    code = trigger_code(ctx.card, ctx.ability)
    if timing == "on_play":
        if code in b.fired:
            return False
        condition = CONDITION[ctx.card][ctx.ability]
        if condition is not None and condition is not b.sides[ctx.owner]:
            return False
        b.fired.add(code)
        return True
    if timing in _BATTLEFIELD_TRIGGERS:
        b.fired.add(code)  # used even when it fizzles
        if not b.on_battlefield(ctx.card) or ctx.card in ignored_cards(b):
            b.say(f"{NAME[ctx.card]}'s ability does nothing")
            return False
    return True


def _proceed(b: Board, ctx: Ctx, index: int) -> None:
    program = PROGRAM[ctx.card][ctx.ability]
    while True:
        if ctx.nested:
            if index < len(program):
                b.stack.append(ctx.task(index))
            b.push(*ctx.nested)
            return
        if index >= len(program):
            return
        ctx.index = index
        step = program[index]
        advance = _RUN[type(step)](b, ctx, step)
        if advance == 0:
            assert ctx.pending is not None
            b.ask(ctx.pending, ctx.task(index))
            return
        index += advance


# -- the primitives -------------------------------------------------------------------


def _modify(b: Board, ctx: Ctx, step: Modify) -> int:
    """A resolved triggered ``modify`` is stored as an effect (§5.6.3)."""
    if step.target == "T":
        if ctx.t < 0 or not b.on_battlefield(ctx.t):
            return 1
        target = ctx.t
    else:
        target = ctx.card if step.target == "self" else -1
    dynamic = step.mode == "continuous" and not isinstance(step.amount, int)
    amount = None if dynamic else evaluate(step.amount, b, ctx.card, ctx.owner)
    b.effects.append(
        Effect(EffectKind.MODIFY, ctx.card, ctx.ability, ctx.index, target, amount, b.next_seq())
    )
    if amount is not None:
        what = NAME[target] if target >= 0 else "its targets"
        b.say(f"{NAME[ctx.card]} gives {what} {amount:+d}")
    return 1


def _extra_play(b: Board, ctx: Ctx, step: ExtraPlay) -> int:
    # created whenever the hand is non-empty and no limit blocks, match or not.
    if not b.hand[ctx.owner]:
        return 1
    if is_blocked(b, ctx.owner):
        b.say(f"{b.name(ctx.owner)} may not play another card this battle")
        return 1
    return ctx.suspend(Decision.EXTRA_PLAY, ctx.owner)


def _reveal(b: Board, ctx: Ctx, step: Reveal) -> int:
    revealed: list[int] = []
    for _ in range(step.count):
        deck = b.deck[ctx.owner]
        if not deck:
            break
        card = deck.pop(0)
        b.reveal[ctx.owner].append(card)
        revealed.append(card)
        b.reshuffle()
    ctx.r = tuple(revealed)
    shown = " and ".join(NAME[c] for c in revealed) or "no card"
    b.say(f"{b.name(ctx.owner)} reveals {shown}")
    return 1


def _play_one_of(b: Board, ctx: Ctx, step: PlayOneOf) -> int:
    if not any(c in b.reveal[ctx.owner] for c in ctx.r):
        return 1
    if is_blocked(b, ctx.owner):  # the Ghoul-Master Summoner example (§8.2)
        b.say(f"{b.name(ctx.owner)} may not play a revealed card")
        return 1
    return ctx.suspend(Decision.PLAY_REVEALED, ctx.owner)


def _discard_rest(b: Board, ctx: Ctx, step: DiscardRest) -> int:
    rest = tuple(sorted(c for c in ctx.r if c in b.reveal[ctx.owner]))
    if rest:
        ctx.nested.append(Task(TaskKind.DISCARD_BATCH, seat=ctx.owner, cards=rest))
    return 1


def _draw(b: Board, ctx: Ctx, step: Draw) -> int:
    drawn = b.draw(ctx.owner, step.count)
    b.say(f"{b.name(ctx.owner)} draws {_cards(drawn)}")
    return 1


def _discard_random(b: Board, ctx: Ctx, step: DiscardRandom) -> int:
    player = ctx.owner if step.player == "self" else ctx.x
    if player < 0:
        return 1
    for _ in range(step.count):
        hand = b.hand[player]
        if not hand:  # §8.3: nothing happens
            b.say(f"{b.name(player)} has no card to discard")
            break
        card = hand.pop(b.rng.below(len(hand)))  # canonical-order index
        b.discard[player].append(card)
        b.reshuffle()
        b.say(f"{b.name(player)} discards {NAME[card]} at random")
    return 1


def _choose_card(b: Board, ctx: Ctx, step: ChooseCard) -> int:
    chooser = ctx.owner if step.chooser == "self" else ctx.x
    owners = _owners(b, ctx, step.owner)
    if chooser < 0 or not owners:
        return 1
    candidates = candidates_of(b, ctx, step, owners)
    ctx.t = -1
    if not candidates:  # §5.5: no candidate, no decision; T stays unset
        return 1
    if len(candidates) == 1 and not step.optional:
        ctx.t = candidates[0]
        return 1
    ctx.options = tuple(candidates)
    return ctx.suspend(Decision.CHOOSE_CARD, chooser)


def candidates_of(b: Board, ctx: Ctx, step: ChooseCard, owners: list[int]) -> list[int]:
    if step.zone == "battlefield":
        pool = [e.card for e in b.battlefield if e.owner in owners]
    else:
        zones = b.hand if step.zone == "hand" else b.cemetery
        pool = [card for owner in owners for card in zones[owner]]
    return sorted(card for card in pool if matches(step.filter, card, ctx.card))


def _owners(b: Board, ctx: Ctx, owner: str) -> list[int]:
    if owner == "self":
        return [ctx.owner]
    if owner == "opponents":
        return b.opponents(ctx.owner)
    return [ctx.x] if ctx.x >= 0 else []


def _choose_opponent(b: Board, ctx: Ctx, step: ChooseOpponent) -> int:
    opponents = b.opponents(ctx.owner)
    if not opponents:
        return 1
    if len(opponents) == 1 and not step.optional:  # e.g. Hammer in 2p
        ctx.x = opponents[0]
        b.say(f"{NAME[ctx.card]} targets {b.name(ctx.x)}")
        return 1
    return ctx.suspend(Decision.CHOOSE_OPPONENT, ctx.owner)


def _move_card(b: Board, ctx: Ctx, ref: str) -> int:
    """The card a ``move`` names, or -1 when it does not exist (§5.6.2)."""
    if ref == "T":
        return ctx.t
    if ref == "self":
        in_cemetery = TIMING[ctx.card][ctx.ability].startswith("cemetery")
        here = ctx.card in b.cemetery[ctx.owner] if in_cemetery else b.on_battlefield(ctx.card)
        return ctx.card if here else -1
    if ref == "deck_top":
        return b.deck[ctx.owner][0] if b.deck[ctx.owner] else -1
    return b.discard[ctx.owner][-1] if b.discard[ctx.owner] else -1


def _move(b: Board, ctx: Ctx, step: Move) -> int:
    card = _move_card(b, ctx, step.card)
    if card < 0:
        return 1
    owner = b.owner(card)
    zone = b.take(card, owner)
    if zone is None:
        return 1
    b.put(card, owner, step.to)
    b.reshuffle()
    who, where = b.name(owner), _PLACE[step.to]
    if zone == "deck" and step.to.startswith("deck"):
        b.say(f"{who} puts the top card of their deck {where}")
    elif zone == "hand" and step.to in ("deck_top", "deck_bottom"):
        b.say(f"{who} puts a card from their hand {where}")  # face down (§6)
        b.tell(owner, f"{NAME[ctx.card]}: you put {NAME[card]} {where.replace('their', 'your')}")
    elif zone == "hand":
        b.say(f"{who} puts {NAME[card]} from their hand {where}")
    else:
        b.say(f"{who} puts {NAME[card]} from {_FROM[zone]} {where}")
    return 1


def _look(b: Board, ctx: Ctx, step: Look) -> int:
    player = ctx.owner if step.player == "self" else ctx.x
    if player < 0:
        return 1
    source, me = NAME[ctx.card], b.name(ctx.owner)
    if step.what == "deck_top":
        deck = b.deck[player]
        if deck:  # with no card there nothing is seen (§5.6.2)
            b.tell(ctx.owner, f"{source}: the top card of your deck is {NAME[deck[0]]}")
            b.say(f"{me} looks at the top card of their deck")
        return 1
    cards = ", ".join(NAME[c] for c in b.hand[player]) or "empty"
    b.tell(ctx.owner, f"{source}: {b.name(player)}'s hand is {cards}")
    b.say(f"{me} looks at {b.name(player)}'s hand")
    return 1


def _ignore_text(b: Board, ctx: Ctx, step: IgnoreText) -> int:
    if step.target == "T":
        if ctx.t < 0:
            return 1
        kind, target, what = EffectKind.IGNORE_CARD, ctx.t, NAME[ctx.t]
    else:
        kind, target, what = EffectKind.IGNORE_OPPOSING, -1, "every opposing card"
    b.effects.append(Effect(kind, ctx.card, ctx.ability, ctx.index, target, None, b.next_seq()))
    b.say(f"{NAME[ctx.card]}: {what} is treated as having no card text")
    return 1


def _designate(b: Board, ctx: Ctx, step: DesignateAttacker) -> int:
    player = ctx.owner if step.player == "self" else ctx.x
    if player < 0:
        return 1
    b.designations.append((player, b.next_seq()))
    b.say(f"{NAME[ctx.card]} designates {b.name(player)} as the attacker next battle")
    return 1


def _passive(b: Board, ctx: Ctx, step: object) -> int:
    """Play limits, extra reinforcement and replacements are read where they apply."""
    return 1


def _ask(b: Board, ctx: Ctx, step: Ask) -> int:
    """``may``: ask only if the first inner step is possible (§5.6.2)."""
    first = step.first
    if isinstance(first, Move):
        possible = _move_card(b, ctx, first.card) >= 0
    elif isinstance(first, DesignateAttacker):
        possible = first.player == "self" or ctx.x >= 0
    else:
        possible = True
    if not possible:
        return 1 + step.skip
    return ctx.suspend(Decision.YES_NO, ctx.owner)


# -- resuming after a decision ----------------------------------------------------------


def _resume_play(b: Board, ctx: Ctx, step: object, move: AkalonMove) -> int:
    """EXTRA_PLAY / PLAY_REVEALED: the played card resolves before the ability goes on."""
    if isinstance(move, PlayCard):
        source = "reveal" if isinstance(step, PlayOneOf) else "hand"
        ctx.nested.extend(play_card(b, ctx.owner, card_of(move), source))
    return 1


def _resume_choose_card(b: Board, ctx: Ctx, step: ChooseCard, move: AkalonMove) -> int:
    ctx.t = card_of(move) if isinstance(move, moves.ChooseCard) else -1
    if ctx.t >= 0 and step.zone != "hand":
        b.say(f"{NAME[ctx.card]} chooses {NAME[ctx.t]}")
    return 1


def _resume_choose_opponent(b: Board, ctx: Ctx, step: ChooseOpponent, move: AkalonMove) -> int:
    ctx.x = move.seat if isinstance(move, moves.ChooseOpponent) else -1
    if ctx.x >= 0:
        b.say(f"{NAME[ctx.card]} targets {b.name(ctx.x)}")
    return 1


def _resume_ask(b: Board, ctx: Ctx, step: Ask, move: AkalonMove) -> int:
    yes = isinstance(move, ChooseYesNo) and move.yes
    return 1 if yes else 1 + step.skip


Handler = Callable[[Board, Ctx, Any], int]
Resumer = Callable[[Board, Ctx, Any, AkalonMove], int]

_RUN: dict[type, Handler] = {
    Modify: _modify,
    ExtraPlay: _extra_play,
    Reveal: _reveal,
    PlayOneOf: _play_one_of,
    DiscardRest: _discard_rest,
    Draw: _draw,
    DiscardRandom: _discard_random,
    ChooseCard: _choose_card,
    ChooseOpponent: _choose_opponent,
    Move: _move,
    Look: _look,
    IgnoreText: _ignore_text,
    DesignateAttacker: _designate,
    PlayLimit: _passive,
    ReinforceExtraDraw: _passive,
    ReplaceDestination: _passive,
    Ask: _ask,
}
_RESUME: dict[type, Resumer] = {
    ExtraPlay: _resume_play,
    PlayOneOf: _resume_play,
    ChooseCard: _resume_choose_card,
    ChooseOpponent: _resume_choose_opponent,
    Ask: _resume_ask,
}


#: The step types this module resolves (every DSL primitive, plus the compiled ``may``).
HANDLED_STEPS = frozenset(_RUN)


def _cards(count: int) -> str:
    return "no card" if count == 0 else "a card" if count == 1 else f"{count} cards"

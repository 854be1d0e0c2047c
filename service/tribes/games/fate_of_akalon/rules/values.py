"""Card values, text-ignore and play limits (spec §5.6.3, §5.6.4, §5.6.5).

* A card's value is ``max(0, printed + every active modifier)`` (R-17, R-18): static
  ``modify`` abilities of non-ignored cards whose condition holds, plus the stored
  effects of resolved triggered ``modify`` steps whose source is still active.
* Ignore effects are evaluated newest first (R-19): an effect is active while its
  source is on the battlefield and not covered by a more recent active effect.
* A play limit is a prohibition and beats every permission (R-20).
"""

from __future__ import annotations

from tribes.games.fate_of_akalon.cards import (
    ATTRIBUTE,
    LIMITERS,
    NAME,
    PLAY_LIMIT,
    PROGRAM,
    STATIC_MODIFY,
    VALUE,
)
from tribes.games.fate_of_akalon.dsl import (
    Amount,
    CardFilter,
    CemeteryValue,
    Count,
    FloorDiv,
    HandSize,
    Min,
    Modify,
)
from tribes.games.fate_of_akalon.rules.board import Board
from tribes.games.fate_of_akalon.state import EffectKind

_NOTHING: frozenset[int] = frozenset()


def ignored_cards(b: Board) -> frozenset[int]:
    """The battlefield cards that are text-ignored right now (§5.6.4)."""
    return ignore_pass(b)[0] if b.effects else _NOTHING


def ignore_pass(b: Board) -> tuple[frozenset[int], frozenset[int]]:
    """(covered cards, seqs of the active ignore effects), evaluated newest first (R-19)."""
    owners = {entry.card: entry.owner for entry in b.battlefield}
    covered: set[int] = set()
    active: set[int] = set()
    for effect in reversed(b.effects):  # effects are kept in seq order: newest first
        if effect.kind is EffectKind.MODIFY:
            continue
        if effect.source not in owners or effect.source in covered:
            continue
        active.add(effect.seq)
        if effect.kind is EffectKind.IGNORE_CARD:
            if effect.target in owners:
                covered.add(effect.target)
        else:
            source_owner = owners[effect.source]
            covered.update(c for c, o in owners.items() if b.is_opponent(source_owner, o))
    return frozenset(covered), frozenset(active)


def matches(flt: CardFilter, card: int, source: int) -> bool:
    """The filter keys of §5.6.2; name and attribute are not card text (R-36)."""
    if flt.name is not None and NAME[card] != flt.name:
        return False
    if flt.attribute and ATTRIBUTE[card] not in flt.attribute:
        return False
    if flt.max_printed_value is not None and VALUE[card] > flt.max_printed_value:
        return False
    return not (flt.not_self and card == source)


def evaluate(amount: Amount, b: Board, source: int, owner: int) -> int:
    """A modify amount: an integer or a formula (§5.6.2 notes on ``modify``)."""
    if isinstance(amount, int):
        return amount
    if isinstance(amount, Count):
        return sum(1 for e in b.battlefield if e.owner == owner and e.card != source)
    if isinstance(amount, HandSize):
        return len(b.hand[owner])
    if isinstance(amount, CemeteryValue):
        return b.cem_value[owner]
    if isinstance(amount, Min | FloorDiv):
        left = evaluate(amount.left, b, source, owner)
        right = evaluate(amount.right, b, source, owner)
        return min(left, right) if isinstance(amount, Min) else left // right
    raise TypeError(f"unknown amount {amount!r}")  # pragma: no cover


def selected(b: Board, step: Modify, source: int, owner: int) -> list[int]:
    """The battlefield cards a selector target (self / own_other / opposing) covers now."""
    if step.target == "self":
        return [source]
    if step.target == "own_other":
        return [
            e.card
            for e in b.battlefield
            if e.owner == owner and e.card != source and matches(step.filter, e.card, source)
        ]
    return [
        e.card
        for e in b.battlefield
        if b.is_opponent(owner, e.owner) and matches(step.filter, e.card, source)
    ]


def card_values(b: Board) -> dict[int, int]:
    """Every battlefield card's current value (§5.6.3), floored at zero per card."""
    mods = {entry.card: 0 for entry in b.battlefield}
    if not mods:
        return mods
    ignored = ignored_cards(b)
    for entry in b.battlefield:
        source = entry.card
        statics = STATIC_MODIFY[source]
        if not statics or source in ignored:
            continue
        side = b.sides[entry.owner]
        for condition, step in statics:
            if condition is not None and condition is not side:
                continue
            amount = evaluate(step.amount, b, source, entry.owner)
            for target in selected(b, step, source, entry.owner):
                mods[target] += amount
    for effect in b.effects:
        if effect.kind is not EffectKind.MODIFY:
            continue
        if effect.source not in mods or effect.source in ignored:
            continue
        modify = PROGRAM[effect.source][effect.ability][effect.step]
        assert isinstance(modify, Modify)
        owner = b.owner(effect.source)
        if effect.amount is None:
            change = evaluate(modify.amount, b, effect.source, owner)
        else:
            change = effect.amount
        if effect.target >= 0:
            targets = [effect.target]
        else:
            targets = selected(b, modify, effect.source, owner)
        for target in targets:
            if target in mods:
                mods[target] += change
    return {card: max(0, VALUE[card] + mod) for card, mod in mods.items()}


def battlefield_values(b: Board) -> tuple[int, ...]:
    """Each player's battlefield value: the sum of their cards' values (§5.3 B3.2)."""
    values = card_values(b)
    totals = [0] * b.n
    for entry in b.battlefield:
        totals[entry.owner] += values[entry.card]
    return tuple(totals)


def is_blocked(b: Board, seat: int) -> bool:
    """True if an active play limit forbids ``seat`` another play now (§5.6.5)."""
    ignored: frozenset[int] | None = None
    for entry in b.battlefield:
        if entry.card not in LIMITERS or not b.is_opponent(entry.owner, seat):
            continue
        if ignored is None:
            ignored = ignored_cards(b)
        if entry.card in ignored:
            continue
        for condition, limit in PLAY_LIMIT[entry.card]:
            if condition is not None and condition is not b.sides[entry.owner]:
                continue
            if b.plays[seat] >= limit.max_total:
                return True
    return False

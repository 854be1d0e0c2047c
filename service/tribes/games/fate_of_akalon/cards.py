"""Card instances and precomputed ability tables (spec §3.1 identity, §5.6 effect model).

Every physical card is an instance ``<ID>#k``; the engine numbers all 112 instances
0..111 in canonical order (definition id, then copy), so sorting ints sorts
canonically. Its public key is ``<faction>-<name-slug>-<copy>`` (``orc-goblin-1``),
the form used in move keys and views. The tables below are built once from
``data.CARDS`` so the rules never scan ability lists on the hot path.
"""

from __future__ import annotations

from dataclasses import dataclass

from tribes.games.fate_of_akalon.data import CARDS
from tribes.games.fate_of_akalon.dsl import (
    Faction,
    May,
    Modify,
    PlayLimit,
    ReinforceExtraDraw,
    ReplaceDestination,
    Step,
)
from tribes.games.fate_of_akalon.state import Side


@dataclass(frozen=True, slots=True)
class Ask:
    """The compiled head of a ``may``: ask YES_NO about ``first``; on "no" skip ``skip``."""

    skip: int
    first: Step | Ask


Program = tuple["Step | Ask", ...]


def _slug(name: str) -> str:
    return name.lower().replace(" ", "-")


def _compile(steps: tuple[Step, ...]) -> list[Step | Ask]:
    """Flatten ``may`` blocks so an ability is a flat program with skips (§5.5)."""
    out: list[Step | Ask] = []
    for step in steps:
        if isinstance(step, May):
            inner = _compile(step.steps)
            out.append(Ask(len(inner), inner[0]))
            out.extend(inner)
        else:
            out.append(step)
    return out


_COND = {None: None, "attacking": Side.ATTACKING, "defending": Side.DEFENDING}

_def_of: list[int] = []
_copy: list[int] = []
for _index, _card in enumerate(CARDS):
    for _k in range(1, _card.copies + 1):
        _def_of.append(_index)
        _copy.append(_k)

#: Instance -> index of its definition in ``CARDS``.
DEF_OF: tuple[int, ...] = tuple(_def_of)
COUNT = len(DEF_OF)
CARD_RANGE = range(COUNT)
#: Instance -> printed value, name, attribute, faction, copy number.
VALUE: tuple[int, ...] = tuple(CARDS[d].value for d in DEF_OF)
NAME: tuple[str, ...] = tuple(CARDS[d].name for d in DEF_OF)
ATTRIBUTE: tuple[str | None, ...] = tuple(CARDS[d].attribute for d in DEF_OF)
FACTION_OF: tuple[Faction, ...] = tuple(CARDS[d].faction for d in DEF_OF)
KEY: tuple[str, ...] = tuple(
    f"{CARDS[d].faction.value}-{_slug(CARDS[d].name)}-{k}"
    for d, k in zip(DEF_OF, _copy, strict=True)
)
#: The spec's own notation, ``Goblin#1``.
LABEL: tuple[str, ...] = tuple(f"{CARDS[d].name}#{k}" for d, k in zip(DEF_OF, _copy, strict=True))
INSTANCE: dict[str, int] = {key: card for card, key in enumerate(KEY)}
#: Position of each instance when move keys are sorted (``legal_moves`` order).
_rank = [0] * COUNT
for _position, _instance in enumerate(sorted(CARD_RANGE, key=KEY.__getitem__)):
    _rank[_instance] = _position
KEY_RANK: tuple[int, ...] = tuple(_rank)
#: Every faction's 28 instances in canonical order: the unshuffled deck (§4.1).
DECKS: dict[Faction, tuple[int, ...]] = {
    faction: tuple(c for c in CARD_RANGE if FACTION_OF[c] is faction) for faction in Faction
}


def _per_instance_indices(timing: str) -> tuple[tuple[int, ...], ...]:
    return tuple(
        tuple(i for i, a in enumerate(CARDS[d].abilities) if a.timing == timing) for d in DEF_OF
    )


#: Instance -> indices of its abilities with that timing (§5.6.1).
ON_PLAY = _per_instance_indices("on_play")
AFTER_ALL_PLAYED = _per_instance_indices("after_all_played")
VICTORIOUS = _per_instance_indices("victorious")
DEFEATED = _per_instance_indices("defeated")
CEMETERY_AFTER_DRAW = _per_instance_indices("cemetery_reinforce_after_draw")

#: Instance -> ability index -> its flattened program, timing and side condition.
PROGRAM: tuple[tuple[Program, ...], ...] = tuple(
    tuple(tuple(_compile(a.steps)) for a in CARDS[d].abilities) for d in DEF_OF
)
TIMING: tuple[tuple[str, ...], ...] = tuple(
    tuple(a.timing for a in CARDS[d].abilities) for d in DEF_OF
)
CONDITION: tuple[tuple[Side | None, ...], ...] = tuple(
    tuple(_COND[a.condition] for a in CARDS[d].abilities) for d in DEF_OF
)

#: Instance -> (condition, step) of its static modifiers / play limits (§5.6.3, §5.6.5).
STATIC_MODIFY: tuple[tuple[tuple[Side | None, Modify], ...], ...] = tuple(
    tuple(
        (_COND[a.condition], s)
        for a in CARDS[d].abilities
        if a.timing == "static"
        for s in a.steps
        if isinstance(s, Modify)
    )
    for d in DEF_OF
)
PLAY_LIMIT: tuple[tuple[tuple[Side | None, PlayLimit], ...], ...] = tuple(
    tuple(
        (_COND[a.condition], s)
        for a in CARDS[d].abilities
        if a.timing == "static"
        for s in a.steps
        if isinstance(s, PlayLimit)
    )
    for d in DEF_OF
)
#: Instances that carry any play limit: the fast path of the block check.
LIMITERS: frozenset[int] = frozenset(c for c in CARD_RANGE if PLAY_LIMIT[c])
#: Instance -> (condition, replacement) of its Aftermath replacements (B4 step 2).
REPLACEMENT: tuple[tuple[tuple[Side | None, ReplaceDestination], ...], ...] = tuple(
    tuple(
        (_COND[a.condition], s)
        for a in CARDS[d].abilities
        if a.timing == "replacement"
        for s in a.steps
        if isinstance(s, ReplaceDestination)
    )
    for d in DEF_OF
)
#: Instance -> extra cards its owner draws when reinforcing with it in the cemetery (B7.1).
EXTRA_DRAW: tuple[int, ...] = tuple(
    sum(
        s.count
        for a in CARDS[d].abilities
        if a.timing == "cemetery_reinforce_before_draw"
        for s in a.steps
        if isinstance(s, ReinforceExtraDraw)
    )
    for d in DEF_OF
)


def trigger_code(card: int, ability: int) -> int:
    """The ``fired`` entry of one ability of one instance (§5.1)."""
    return card * 4 + ability


def same_definition(triggers: tuple[tuple[int, int], ...]) -> bool:
    """True when every pending trigger is the same ability of the same card (R-15)."""
    first_def, first_ability = DEF_OF[triggers[0][0]], triggers[0][1]
    return all(DEF_OF[c] == first_def and a == first_ability for c, a in triggers)


def show(card: int) -> str:
    """A card for log lines: ``Goblin``."""
    return NAME[card]

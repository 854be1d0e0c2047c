"""Fate of Akalon's stored state and per-seat view (spec §5.1 state, §6 hidden information).

Everything is a frozen value with tuples inside. Card instances are small ints (see
``cards.py``; their int order is the canonical order of §3.1), so the rules can work
on plain ints; views turn them into the public instance keys (``orc-goblin-1``).

Resolution in progress is a stack of ``Task`` values (top last): the battle steps of
§5.3 and every ability being resolved (§5.5) are tasks, so a decision can suspend the
engine anywhere and the next move resumes it exactly there.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

from tribes.engine import Result
from tribes.games.fate_of_akalon.dsl import Faction


class Phase(Enum):
    """Where the game is (§5.2)."""

    CHOOSE_FIRST_ATTACKER = "choose_first_attacker"
    ATTACK = "attack"  # B1
    DEFEND = "defend"  # B2
    FIGHT = "fight"  # B3
    AFTERMATH = "aftermath"  # B4 (B5, B6 are automatic)
    REINFORCE = "reinforce"  # B7
    OVER = "over"


class Side(Enum):
    """A player's side in the current battle, fixed at B0 (R-07)."""

    ATTACKING = "attacking"
    DEFENDING = "defending"
    NONE = "none"  # an eliminated 3p player


class Decision(Enum):
    """The decision catalogue of §5.4."""

    CHOOSE_FIRST_ATTACKER = "choose_first_attacker"
    PLAY = "play"
    EXTRA_PLAY = "extra_play"
    PLAY_REVEALED = "play_revealed"
    CHOOSE_OPPONENT = "choose_opponent"
    CHOOSE_CARD = "choose_card"
    YES_NO = "yes_no"
    ORDER_TRIGGERS = "order_triggers"
    ORDER_DISCARD = "order_discard"


class EffectKind(Enum):
    """Resolved continuous effects (§5.6.3, §5.6.4)."""

    MODIFY = "modify"
    IGNORE_CARD = "ignore_card"  # Illusionist: one chosen card
    IGNORE_OPPOSING = "ignore_opposing"  # Tactician: every opposing card


class TaskKind(Enum):
    """One unit of automatic work on the resolution stack."""

    FIRST_ATTACKER = "first_attacker"  # §4.2 step 4 (a decision), then step 5
    BEGIN_BATTLE = "begin_battle"  # B0
    TURN = "turn"  # B1/B2: one player's base play
    ABILITY = "ability"  # one ability resolving step by step (§5.5)
    TRIGGERS = "triggers"  # one player's share of a simultaneous batch (ORDER_TRIGGERS)
    FIGHT_ROUND = "fight_round"  # B3.1: one after-all-played round
    FIGHT_RESULT = "fight_result"  # B3.2-3, then B4.1 gathering
    AFTERMATH_MOVES = "aftermath_moves"  # B4.2-3
    DISCARD_BATCH = "discard_batch"  # B4.4 / Master Summoner leftovers (ORDER_DISCARD)
    END_BATTLE = "end_battle"  # B4.5, B5, B6
    REINFORCE = "reinforce"  # B7 for one player
    NEXT_BATTLE = "next_battle"  # the safeguards, then B0


@dataclass(frozen=True, slots=True)
class Task:
    """A resumable unit of work; which fields matter depends on ``kind``.

    ABILITY uses ``card`` (the source), ``ability`` (its index), ``step`` (the next step
    of the compiled program, -1 before the ability starts) and the bindings T
    (``bound_card``), X (``bound_player``) and R (``cards``). TRIGGERS keeps the
    ``triggers`` still to resolve, DISCARD_BATCH the ``cards`` still to place. TURN,
    TRIGGERS, DISCARD_BATCH and REINFORCE name their player in ``seat``.
    """

    kind: TaskKind
    seat: int = -1
    card: int = -1
    ability: int = -1
    step: int = -1
    bound_card: int = -1
    bound_player: int = -1
    cards: tuple[int, ...] = ()
    triggers: tuple[tuple[int, int], ...] = ()
    options: tuple[int, ...] = ()  # ABILITY suspended on CHOOSE_CARD: the candidates


@dataclass(frozen=True, slots=True)
class Pending:
    """The one pending decision: its type and actor; its options follow from the state."""

    decision: Decision
    actor: int


@dataclass(frozen=True, slots=True)
class PlayerArea:
    """One player's card areas (§2, §5.1). Deck top first; discard bottom to top."""

    deck: tuple[int, ...]
    hand: tuple[int, ...]  # kept in canonical order
    discard: tuple[int, ...]
    cemetery: tuple[int, ...]
    out_of_play: tuple[int, ...]
    reveal: tuple[int, ...]
    cemetery_value: int  # sum of printed values in the cemetery (§5.6.3)
    eliminated: bool  # 3p only (§7)
    private_log: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class BattlefieldCard:
    """A card on the battlefield; it keeps its owner (§2)."""

    card: int
    owner: int
    play_seq: int
    ignored_at_play: bool


@dataclass(frozen=True, slots=True)
class Effect:
    """A resolved continuous effect; active while its source is on the battlefield.

    ``amount`` is None for a modifier whose formula is re-evaluated (continuous mode);
    ``target`` is -1 for a selector target (``own_other``/``opposing``/``opposing_all``).
    """

    kind: EffectKind
    source: int
    ability: int
    step: int
    target: int
    amount: int | None
    seq: int


@dataclass(frozen=True, slots=True)
class Battle:
    """Battle-scoped state (§5.1), reset at B0; ``number`` 0 before battle 1."""

    number: int
    attacker: int  # the lead attacker in 4p
    sides: tuple[Side, ...]
    play_order: tuple[int, ...]
    plays: tuple[int, ...]
    battlefield: tuple[BattlefieldCard, ...]
    effects: tuple[Effect, ...]
    fired: frozenset[int]  # card * 4 + ability index
    designations: tuple[tuple[int, int], ...]  # (seat, seq)
    values: tuple[int, ...]  # battlefield values fixed in the Fight (B3.2)
    winners: tuple[int, ...]
    losers: tuple[int, ...]
    next_attacker: int


@dataclass(frozen=True, slots=True)
class State:
    """Everything the server stores for one game."""

    factions: tuple[Faction, ...]  # by seat
    players: tuple[PlayerArea, ...]
    battle: Battle
    phase: Phase
    pending: Pending | None
    stack: tuple[Task, ...]  # top last
    seq: int  # the effect timestamp (§5.1 "Global")
    log: tuple[str, ...]  # the public log (most recent LOG_LIMIT lines)
    result: Result | None
    end_reason: str  # "threshold" or "safeguard" once over (§7)
    rng: int

    @property
    def seats(self) -> int:
        return len(self.factions)


# -- views (§6) -------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class PlayerView:
    """One player as a viewer sees them: public areas, counts, own hand only."""

    seat: int
    faction: str
    side: str
    eliminated: bool
    hand_size: int
    deck_size: int
    hand: tuple[str, ...]  # empty unless this is the viewer's own seat
    discard: tuple[str, ...]  # bottom to top
    cemetery: tuple[str, ...]
    cemetery_value: int
    out_of_play: tuple[str, ...]
    reveal: tuple[str, ...]
    plays: int
    battlefield_value: int


@dataclass(frozen=True, slots=True)
class BattlefieldView:
    card: str
    name: str
    owner: int
    printed: int
    value: int
    text_ignored: bool


@dataclass(frozen=True, slots=True)
class EffectView:
    kind: str
    source: str
    target: str  # a card key, or "opposing" for a selector
    amount: int | None
    active: bool  # False while its source is text-ignored (§5.6.3, §5.6.4)


@dataclass(frozen=True, slots=True)
class PendingView:
    """Type and actor for everyone; the options only for the actor (R-30)."""

    decision: str
    actor: int
    options: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class View:
    """What one seat (or a spectator, ``viewer == -1``) may know (§6)."""

    viewer: int
    mode: str
    teams: tuple[tuple[int, ...], ...]
    phase: str
    battle: int
    attacker: int
    play_order: tuple[int, ...]
    players: tuple[PlayerView, ...]
    battlefield: tuple[BattlefieldView, ...]
    effects: tuple[EffectView, ...]
    designations: tuple[int, ...]  # designated seats, oldest first
    team_values: tuple[int, ...]  # 4p team cemetery totals (A, B); empty otherwise
    pending: PendingView | None
    log: tuple[str, ...]
    private_log: tuple[str, ...]
    result: Result | None
    end_reason: str  # "threshold" or "safeguard" once over (§7), else ""

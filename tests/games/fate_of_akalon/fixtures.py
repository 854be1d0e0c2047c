"""Fixture builders for Fate of Akalon scenarios (the §9 "state convention").

* Cards are named as in the spec, ``"Goblin#1"``.
* A listed hand, discard, cemetery or out-of-play area is the whole area; every
  unlisted area is empty, except the deck: it holds its listed top cards followed by
  all of that player's remaining instances in canonical order (the spec's ``…``).
* ``battle`` starts a battle at B1 (empty battlefield, the stated attacker);
  ``after_fight`` and ``reinforcement`` start from B5/B6 and B7 respectively.
* Moves go through the engine driver, so each one must be legal.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import replace

from tribes.engine import SPECTATOR
from tribes.engine.driver import find_move, play
from tribes.games.fate_of_akalon import GAME
from tribes.games.fate_of_akalon.cards import DECKS, FACTION_OF, INSTANCE, KEY, LABEL, VALUE
from tribes.games.fate_of_akalon.dsl import Faction
from tribes.games.fate_of_akalon.rules.battle import run
from tribes.games.fate_of_akalon.rules.board import Board
from tribes.games.fate_of_akalon.rules.setup import initial_state, start
from tribes.games.fate_of_akalon.rules.steps import play_card
from tribes.games.fate_of_akalon.state import (
    PlayerArea,
    Side,
    State,
    Task,
    TaskKind,
)

_BY_LABEL = {label: card for card, label in enumerate(LABEL)}

Cards = Sequence[str]
PerSeat = Mapping[int, Cards]


def card(label: str) -> int:
    """The instance named ``Name#k``."""
    return _BY_LABEL[label]


def labels(cards: Iterable[int]) -> list[str]:
    return [LABEL[c] for c in cards]


def factions_of(line_up: str) -> tuple[Faction, ...]:
    return tuple(Faction(name) for name in line_up.split(","))


def deck_order(faction: Faction, top: Cards = (), used: Iterable[int] = ()) -> list[int]:
    """``top`` followed by every other instance of ``faction`` not in ``used`` (canonical)."""
    first = [card(label) for label in top]
    taken = set(first) | set(used)
    return first + [c for c in DECKS[faction] if c not in taken]


def build(
    line_up: str,
    *,
    hands: PerSeat | None = None,
    decks: PerSeat | None = None,
    discards: PerSeat | None = None,
    cemeteries: PerSeat | None = None,
    out_of_play: PerSeat | None = None,
    eliminated: Sequence[int] = (),
    seed: int = 0xA4A10F5EED,
) -> State:
    """A state under the §9 convention with nothing pending yet."""
    factions = factions_of(line_up)
    areas = []
    for seat, faction in enumerate(factions):
        for listed in (hands, decks, discards, cemeteries, out_of_play):
            for label in (listed or {}).get(seat, ()):
                assert FACTION_OF[card(label)] is faction, f"{label} is not a {faction.value} card"
        hand = sorted(card(x) for x in (hands or {}).get(seat, ()))
        discard = [card(x) for x in (discards or {}).get(seat, ())]
        cemetery = [card(x) for x in (cemeteries or {}).get(seat, ())]
        out = [card(x) for x in (out_of_play or {}).get(seat, ())]
        deck = deck_order(faction, (decks or {}).get(seat, ()), [*hand, *discard, *cemetery, *out])
        areas.append((deck, hand, discard, cemetery, out))
    state = initial_state(factions, [a[0] for a in areas], seed)
    players = tuple(
        replace(
            area,
            hand=tuple(hand),
            discard=tuple(discard),
            cemetery=tuple(cemetery),
            out_of_play=tuple(out),
            cemetery_value=sum(VALUE[c] for c in cemetery),
            eliminated=seat in eliminated,
        )
        for seat, (area, (_, hand, discard, cemetery, out)) in enumerate(
            zip(state.players, areas, strict=True)
        )
    )
    return replace(state, players=players)


def _run(state: State, tasks: Sequence[Task], **board: object) -> State:
    b = Board(state)
    for name, value in board.items():
        setattr(b, name, value)
    b.stack = list(reversed(tasks))
    run(b)
    return b.freeze()


def battle(line_up: str, attacker: int = 0, number: int = 1, **areas: object) -> State:
    """A battle example at B1 of battle ``number`` with ``attacker`` (§9 convention)."""
    state = build(line_up, **areas)  # type: ignore[arg-type]
    return _run(state, [Task(TaskKind.BEGIN_BATTLE)], next_attacker=attacker, number=number - 1)


def after_fight(
    state: State,
    *,
    attacker: int,
    winners: tuple[int, ...],
    values: tuple[int, ...],
    number: int = 1,
) -> State:
    """Run B5-B7 of a battle whose Fight gave ``winners`` (battlefield already empty)."""
    seats = state.seats
    losers = tuple(s for s in range(seats) if s not in winners and not state.players[s].eliminated)
    sides = _sides(state, attacker)
    return _run(
        state,
        [Task(TaskKind.END_BATTLE)],
        attacker=attacker,
        number=number,
        winners=winners,
        losers=losers,
        values=values,
        sides=sides,
    )


def reinforcement(state: State, attacker: int = 0, number: int = 1) -> State:
    """Run B7 (players clockwise from ``attacker``) and go on to the next battle."""
    seats = [s for s in range(state.seats) if not state.players[s].eliminated]
    order = sorted(seats, key=lambda s: (s - attacker) % state.seats)
    tasks = [Task(TaskKind.REINFORCE, seat=s) for s in order] + [Task(TaskKind.NEXT_BATTLE)]
    return _run(state, tasks, attacker=attacker, next_attacker=attacker, number=number)


def _sides(state: State, attacker: int) -> list[Side]:
    if state.seats == 4:
        return [Side.ATTACKING if (s - attacker) % 2 == 0 else Side.DEFENDING for s in range(4)]
    return [
        Side.NONE if area.eliminated else Side.ATTACKING if seat == attacker else Side.DEFENDING
        for seat, area in enumerate(state.players)
    ]


def skirmish(line_up: str, tops: PerSeat, max_rounds: int = 100, seed: int = 0xA4A10F5EED) -> State:
    """A new game from deck orders (§4.1 test constructor), up to CHOOSE_FIRST_ATTACKER."""
    factions = factions_of(line_up)
    decks = [deck_order(f, tops.get(seat, ())) for seat, f in enumerate(factions)]
    return start(factions, decks, seed, max_rounds)


def actor(state: State) -> int:
    assert state.pending is not None, "nothing is pending"
    return state.pending.actor


def moves(state: State, *keys: str) -> State:
    """Play move keys for whoever is to act, each checked for legality by the driver."""
    for key in keys:
        seat = actor(state)
        state = play(GAME, state, seat, find_move(GAME, state, seat, key))
    return state


def options(state: State) -> list[str]:
    """The pending actor's legal move keys."""
    return [m.key for m in GAME.legal_moves(state, actor(state))]


def decision(state: State) -> tuple[str, int] | None:
    """(decision type, actor) of the pending decision."""
    if state.pending is None:
        return None
    return state.pending.decision.value, state.pending.actor


def area(state: State, seat: int, name: str) -> list[str]:
    """The labels in one of a player's areas (``hand``, ``deck``, ``discard``...)."""
    player: PlayerArea = state.players[seat]
    return labels(getattr(player, name))


def on_battlefield(state: State) -> list[str]:
    return labels(e.card for e in state.battle.battlefield)


def key(label: str) -> str:
    """The public instance key of ``Name#k``."""
    return KEY[card(label)]


def play_key(label: str) -> str:
    return f"play:{key(label)}"


def choose_key(label: str) -> str:
    return f"choose:{key(label)}"


def place_key(label: str) -> str:
    return f"discard:{key(label)}"


def trigger_key(label: str, ability: int = 0) -> str:
    return f"trigger:{key(label)}:{ability}"


def values(state: State) -> dict[str, int]:
    """Current battlefield card values (§5.6.3) as the public view shows them."""
    shown = GAME.view(state, SPECTATOR).battlefield
    return {LABEL[INSTANCE[entry.card]]: entry.value for entry in shown}


def totals(state: State) -> list[int]:
    """Each player's current battlefield value."""
    return [p.battlefield_value for p in GAME.view(state, SPECTATOR).players]


def last_fight(state: State) -> str:
    """The public log line of the most recent Fight (B3): values and winners."""
    return next(line for line in reversed(state.log) if line.startswith("Fight: "))


def fight(state: State, placed: Sequence[tuple[int, str]]) -> State:
    """Play ``(seat, card)`` pairs in order straight onto the battlefield of a battle at B1,
    resolving on-play text that needs no decision, then run the Fight step (B3).

    For situations normal play cannot set up in one battle: a player's chain of extra
    plays stops at the first card that grants none.
    """
    board = Board(state)
    board.pending = None
    for seat, label in placed:
        instance = card(label)
        if instance not in board.hand[seat]:
            board.deck[seat].remove(instance)
            board.hand[seat].append(instance)
        board.stack = list(reversed(play_card(board, seat, instance, "hand")))
        run(board)
        assert board.pending is None, f"{label}'s on-play text asked for a decision"
    board.stack = [Task(TaskKind.FIGHT_ROUND)]
    run(board)
    return board.freeze()

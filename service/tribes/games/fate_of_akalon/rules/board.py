"""A mutable working copy of the state for one ``apply`` (spec §5.1, §5.7 reshuffling).

``apply`` thaws the frozen ``State`` into a ``Board`` (lists instead of tuples), runs
the automatic steps on it and freezes the result into a new ``State``; the input is
never touched. The board also owns the card movements every rule shares: drawing,
flipping, moving between a player's areas, and the immediate reshuffle of R-23.
"""

from __future__ import annotations

from bisect import insort  # hands are kept in canonical order (§5.1)
from collections.abc import Sequence

from tribes.engine import Result
from tribes.engine.rng import Rng
from tribes.games.fate_of_akalon.cards import FACTION_OF, VALUE
from tribes.games.fate_of_akalon.state import (
    Battle,
    BattlefieldCard,
    Pending,
    Phase,
    PlayerArea,
    State,
    Task,
)

#: The public log keeps this many recent lines (the service's move log has the rest).
LOG_LIMIT = 80
#: Each private log keeps this many recent lines.
PRIVATE_LOG_LIMIT = 24

Zone = str  # "deck", "hand", "discard", "cemetery", "out_of_play", "reveal", "battlefield"


class Board:
    """Lists where the state has tuples; everything else as in ``State``."""

    __slots__ = (
        "_old_log",
        "_old_private",
        "attacker",
        "battlefield",
        "cem_value",
        "cemetery",
        "deck",
        "designations",
        "discard",
        "effects",
        "eliminated",
        "end_reason",
        "factions",
        "fired",
        "hand",
        "log",
        "losers",
        "n",
        "next_attacker",
        "number",
        "out",
        "pending",
        "phase",
        "play_order",
        "plays",
        "private",
        "result",
        "reveal",
        "rng",
        "seat_of",
        "seq",
        "sides",
        "stack",
        "values",
        "winners",
    )

    def __init__(self, state: State) -> None:
        players = state.players
        self.factions = state.factions
        self.n = len(players)
        self.seat_of = {faction: seat for seat, faction in enumerate(state.factions)}
        self.deck = [list(p.deck) for p in players]
        self.hand = [list(p.hand) for p in players]
        self.discard = [list(p.discard) for p in players]
        self.cemetery = [list(p.cemetery) for p in players]
        self.out = [list(p.out_of_play) for p in players]
        self.reveal = [list(p.reveal) for p in players]
        self.cem_value = [p.cemetery_value for p in players]
        self.eliminated = [p.eliminated for p in players]
        self._old_private = [p.private_log for p in players]
        self.private: list[list[str]] = [[] for _ in players]
        battle = state.battle
        self.number = battle.number
        self.attacker = battle.attacker
        self.sides = list(battle.sides)
        self.play_order = battle.play_order
        self.plays = list(battle.plays)
        self.battlefield = list(battle.battlefield)
        self.effects = list(battle.effects)
        self.fired = set(battle.fired)
        self.designations = list(battle.designations)
        self.values = battle.values
        self.winners = battle.winners
        self.losers = battle.losers
        self.next_attacker = battle.next_attacker
        self.phase = state.phase
        self.pending = state.pending
        self.stack = list(state.stack)
        self.seq = state.seq
        self._old_log = state.log
        self.log: list[str] = []
        self.result = state.result
        self.end_reason = state.end_reason
        self.rng = Rng(state.rng)

    def freeze(self) -> State:
        players = tuple(
            PlayerArea(
                deck=tuple(self.deck[s]),
                hand=tuple(self.hand[s]),
                discard=tuple(self.discard[s]),
                cemetery=tuple(self.cemetery[s]),
                out_of_play=tuple(self.out[s]),
                reveal=tuple(self.reveal[s]),
                cemetery_value=self.cem_value[s],
                eliminated=self.eliminated[s],
                private_log=_tail(self._old_private[s], self.private[s], PRIVATE_LOG_LIMIT),
            )
            for s in range(self.n)
        )
        battle = Battle(
            number=self.number,
            attacker=self.attacker,
            sides=tuple(self.sides),
            play_order=self.play_order,
            plays=tuple(self.plays),
            battlefield=tuple(self.battlefield),
            effects=tuple(self.effects),
            fired=frozenset(self.fired),
            designations=tuple(self.designations),
            values=self.values,
            winners=self.winners,
            losers=self.losers,
            next_attacker=self.next_attacker,
        )
        return State(
            factions=self.factions,
            players=players,
            battle=battle,
            phase=self.phase,
            pending=self.pending,
            stack=tuple(self.stack),
            seq=self.seq,
            log=_tail(self._old_log, self.log, LOG_LIMIT),
            result=self.result,
            end_reason=self.end_reason,
            rng=self.rng.state,
        )

    # -- seats ----------------------------------------------------------------------

    def owner(self, card: int) -> int:
        return self.seat_of[FACTION_OF[card]]

    def active(self, seat: int) -> bool:
        return not self.eliminated[seat]

    def is_opponent(self, seat: int, other: int) -> bool:
        return is_opponent(self.n, self.eliminated, seat, other)

    def opponents(self, seat: int) -> list[int]:
        return [
            other for other in range(self.n) if is_opponent(self.n, self.eliminated, seat, other)
        ]

    def left(self, seat: int) -> int:
        """The next active seat clockwise (§1)."""
        for step in range(1, self.n + 1):
            other = (seat + step) % self.n
            if not self.eliminated[other]:
                return other
        return seat

    def clockwise(self, start: int) -> list[int]:
        """Active seats clockwise from ``start`` (included when active)."""
        seats = [(start + step) % self.n for step in range(self.n)]
        return [seat for seat in seats if not self.eliminated[seat]]

    def name(self, seat: int) -> str:
        return self.factions[seat].title

    def next_seq(self) -> int:
        self.seq += 1
        return self.seq

    # -- logs -----------------------------------------------------------------------

    def say(self, line: str) -> None:
        """A public log line (§6): only facts every seat may know."""
        self.log.append(line)

    def tell(self, seat: int, line: str) -> None:
        """A private log line for ``seat`` only (look results, §6)."""
        self.private[seat].append(line)

    # -- card movement (§5.7: reshuffle after every single movement) -----------------

    def reshuffle(self) -> None:
        """Shuffle any empty deck's discard into a new deck (R-23).

        Called after every card movement except the placing of a chosen-order discard
        batch, which calls it once the whole batch is placed (the R-23 exception).
        """
        for seat in range(self.n):
            if not self.deck[seat] and self.discard[seat]:
                cards = self.discard[seat]
                self.rng.shuffle(cards)
                self.deck[seat] = cards
                self.discard[seat] = []
                self.say(f"{self.name(seat)} shuffles {len(cards)} discarded cards into a new deck")

    def draw(self, seat: int, count: int) -> int:
        """Draw up to ``count`` cards one at a time; stops when deck and discard are empty."""
        drawn = 0
        for _ in range(count):
            deck = self.deck[seat]  # a reshuffle replaces the list
            if not deck:
                break
            insort(self.hand[seat], deck.pop(0))
            drawn += 1
            self.reshuffle()
        return drawn

    def flip(self, seat: int) -> int | None:
        """Skirmish flip: the top deck card onto the battlefield (§4.2 step 1)."""
        if not self.deck[seat]:
            return None
        card = self.deck[seat].pop(0)
        self.battlefield.append(BattlefieldCard(card, seat, 0, True))
        self.reshuffle()
        return card

    def to_cemetery(self, seat: int, card: int) -> None:
        self.cemetery[seat].append(card)
        self.cem_value[seat] += VALUE[card]

    def take(self, card: int, seat: int) -> Zone | None:
        """Remove ``card`` from wherever it is (its owner's areas or the battlefield)."""
        for zone, cards in (
            ("hand", self.hand[seat]),
            ("cemetery", self.cemetery[seat]),
            ("deck", self.deck[seat]),
            ("discard", self.discard[seat]),
            ("reveal", self.reveal[seat]),
            ("out_of_play", self.out[seat]),
        ):
            if card in cards:
                cards.remove(card)
                if zone == "cemetery":
                    self.cem_value[seat] -= VALUE[card]
                return zone
        if self.leave_battlefield(card):
            return "battlefield"
        return None

    def leave_battlefield(self, card: int) -> bool:
        """Remove a battlefield card and end the effects it is source or target of."""
        for index, entry in enumerate(self.battlefield):
            if entry.card == card:
                del self.battlefield[index]
                self.effects = [e for e in self.effects if card not in (e.source, e.target)]
                return True
        return False

    def put(self, card: int, seat: int, to: str) -> None:
        """Place ``card`` in one of its owner's areas (§5.6.2 ``move`` destinations)."""
        if to == "hand":
            insort(self.hand[seat], card)
        elif to in ("discard_top", "discard"):
            self.discard[seat].append(card)
        elif to == "deck_top":
            self.deck[seat].insert(0, card)
        elif to == "deck_bottom":
            self.deck[seat].append(card)
        elif to == "out_of_play":
            self.out[seat].append(card)
        elif to == "cemetery":
            self.to_cemetery(seat, card)
        else:  # pragma: no cover - the DSL has no other destination
            raise ValueError(to)

    def on_battlefield(self, card: int) -> bool:
        return any(entry.card == card for entry in self.battlefield)

    # -- battle bookkeeping -----------------------------------------------------------

    def push(self, *tasks: Task) -> None:
        """Push tasks so that the first one given runs first."""
        self.stack.extend(reversed(tasks))

    def ask(self, pending: Pending, task: Task) -> None:
        """Suspend on a decision; ``task`` is what the next move resumes."""
        self.pending = pending
        self.stack.append(task)

    def finish(self, result: Result, reason: str) -> None:
        self.result = result
        self.end_reason = reason
        self.pending = None
        self.stack.clear()
        self.phase = Phase.OVER


def is_opponent(seats: int, eliminated: Sequence[bool], seat: int, other: int) -> bool:
    """§3.2: any other active player (2p/3p), a member of the other team (4p)."""
    if seat == other or eliminated[other]:
        return False
    return seats != 4 or (seat - other) % 2 == 1


def _tail(old: tuple[str, ...], new: list[str], limit: int) -> tuple[str, ...]:
    if not new:
        return old
    joined = old + tuple(new)
    return joined[-limit:] if len(joined) > limit else joined

"""Game creation and the skirmish (spec §4.1 setup, §4.2 skirmish, R-03, R-04, R-33, R-34).

``new_game`` checks the faction option, shuffles every deck with the game PRNG and
plays the fully automatic skirmish, stopping at the one decision it asks for:
CHOOSE_FIRST_ATTACKER. ``start`` does the same from explicit deck orders (the
test-only constructor of §4.1 and §9).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from tribes.engine import BadOptionsError
from tribes.engine.rng import Rng
from tribes.games.fate_of_akalon.cards import DECKS, NAME, VALUE
from tribes.games.fate_of_akalon.dsl import Faction
from tribes.games.fate_of_akalon.options import DEFAULT_FACTIONS
from tribes.games.fate_of_akalon.rules.board import Board
from tribes.games.fate_of_akalon.state import (
    Battle,
    Decision,
    Pending,
    Phase,
    PlayerArea,
    Side,
    State,
    Task,
    TaskKind,
)

#: R-34: after this many flip rounds without a winner the PRNG picks one.
SKIRMISH_ROUNDS = 100

_NAMES = ", ".join(f.value for f in Faction)


def parse_factions(seats: int, value: str) -> tuple[Faction, ...]:
    """The ``factions`` option: one distinct faction per seat, or ``auto`` (§1, §4.1)."""
    if value.strip().lower() in ("", "auto"):
        return DEFAULT_FACTIONS[seats]
    names = [part.strip().lower() for part in value.split(",")]
    factions: list[Faction] = []
    for name in names:
        try:
            faction = Faction(name)
        except ValueError:
            raise BadOptionsError(
                f"option 'factions': there is no faction {name!r} (choose from {_NAMES})"
            ) from None
        if faction in factions:
            raise BadOptionsError(
                f"option 'factions': {name!r} is given twice; every player needs a different "
                "faction (the box holds one deck of each)"
            )
        factions.append(faction)
    if len(factions) != seats:
        raise BadOptionsError(
            f"option 'factions': {seats} players need {seats} factions, not {len(factions)} "
            f"({value!r})"
        )
    return tuple(factions)


def new_game(seats: int, options: Mapping[str, str], seed: int) -> State:
    """§4.1: shuffle each faction deck with the game PRNG, then the skirmish."""
    factions = parse_factions(seats, options.get("factions", "auto"))
    rng = Rng(seed)
    decks = [rng.shuffled(DECKS[faction]) for faction in factions]
    return start(factions, decks, rng.state)


def start(
    factions: Sequence[Faction],
    decks: Sequence[Sequence[int]],
    rng: int,
    max_rounds: int = SKIRMISH_ROUNDS,
) -> State:
    """A game from explicit deck orders (top first), played up to CHOOSE_FIRST_ATTACKER."""
    b = Board(initial_state(tuple(factions), decks, rng))
    skirmish(b, max_rounds)
    return b.freeze()


def initial_state(factions: tuple[Faction, ...], decks: Sequence[Sequence[int]], rng: int) -> State:
    """Every card in its deck, everything else empty, before battle 1."""
    seats = len(factions)
    players = tuple(
        PlayerArea(
            deck=tuple(deck),
            hand=(),
            discard=(),
            cemetery=(),
            out_of_play=(),
            reveal=(),
            cemetery_value=0,
            eliminated=False,
            private_log=(),
        )
        for deck in decks
    )
    battle = Battle(
        number=0,
        attacker=0,
        sides=(Side.NONE,) * seats,
        play_order=(),
        plays=(0,) * seats,
        battlefield=(),
        effects=(),
        fired=frozenset(),
        designations=(),
        values=(0,) * seats,
        winners=(),
        losers=(),
        next_attacker=0,
    )
    return State(
        factions=factions,
        players=players,
        battle=battle,
        phase=Phase.CHOOSE_FIRST_ATTACKER,
        pending=None,
        stack=(),
        seq=0,
        log=(),
        result=None,
        end_reason="",
        rng=rng,
    )


def skirmish(b: Board, max_rounds: int = SKIRMISH_ROUNDS) -> None:
    """§4.2 steps 1-4: flip, compare printed values (text ignored), place, ask the chooser."""
    contest = list(range(b.n))
    rounds = 0
    while True:
        rounds += 1
        flipped = {seat: b.flip(seat) for seat in contest}
        value = {seat: -1 if c is None else VALUE[c] for seat, c in flipped.items()}
        b.say(
            "Skirmish: "
            + ", ".join(
                f"{b.name(s)} flips {NAME[c]} ({VALUE[c]})"
                for s, c in flipped.items()
                if c is not None
            )
        )
        tied: list[int]
        if b.n == 4:  # team totals (§4.2 step 2)
            totals = (value[0] + value[2], value[1] + value[3])
            tied = [0, 1] if totals[0] == totals[1] else [0 if totals[0] > totals[1] else 1]
        else:
            top = max(value.values())
            tied = [seat for seat in contest if value[seat] == top]
        if len(tied) > 1 and rounds >= max_rounds:
            tied = [tied[b.rng.below(len(tied))]]
            b.say(f"After {rounds} tied rounds the skirmish winner is drawn at random")
        if len(tied) == 1:
            break
        # A tie: only the tied players' cards go to their discards, and they flip again
        # (3p, R-33); in 4p all four cards go.
        retreating = list(range(4)) if b.n == 4 else tied
        for seat in retreating:
            card = flipped[seat]
            if card is not None:
                b.leave_battlefield(card)
                b.discard[seat].append(card)
                b.reshuffle()
        if b.n != 4:
            contest = tied
    winners: tuple[int, ...]
    if b.n == 4:
        winners = (tied[0], tied[0] + 2)
        chooser = 1 - tied[0]  # the lower seat of the losing team
    else:
        winners = (tied[0],)
        chooser = b.left(tied[0])  # 2p: the loser; 3p: left of the winner
    for entry in sorted(b.battlefield, key=lambda e: e.card):
        b.leave_battlefield(entry.card)
        if entry.owner in winners:
            b.discard[entry.owner].append(entry.card)
        else:  # every other card still on the battlefield loses
            b.to_cemetery(entry.owner, entry.card)
        b.reshuffle()
    who = " and ".join(b.name(s) for s in winners)
    b.say(f"{who} {'win' if len(winners) > 1 else 'wins'} the skirmish")
    b.phase = Phase.CHOOSE_FIRST_ATTACKER
    b.ask(
        Pending(Decision.CHOOSE_FIRST_ATTACKER, chooser),
        Task(TaskKind.FIRST_ATTACKER, seat=chooser),
    )

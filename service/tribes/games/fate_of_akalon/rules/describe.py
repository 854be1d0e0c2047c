"""Moves in words: descriptions, public redaction and illegal-move reasons (spec §5.4, §6).

``describe`` reads the pending decision so a move says what it will do ("Druid:
discard Scout"). ``public_move`` is what other seats may see in the move log: every
move is public except choosing a card from one's own hidden hand that goes face down
into a deck (Elf Knight), which is hidden entirely (§6: others learn only that it
happened, from the public log).
"""

from __future__ import annotations

from tribes.games.fate_of_akalon import dsl
from tribes.games.fate_of_akalon.cards import KEY, NAME, PROGRAM, TIMING, VALUE, Ask
from tribes.games.fate_of_akalon.dsl import (
    DesignateAttacker,
    ExtraPlay,
    IgnoreText,
    Modify,
    Move,
)
from tribes.games.fate_of_akalon.moves import (
    AkalonMove,
    ChooseCard,
    ChooseFirstAttacker,
    ChooseOpponent,
    ChooseYesNo,
    Decline,
    PlaceOnDiscard,
    PlayCard,
    ResolveTrigger,
    card_of,
)
from tribes.games.fate_of_akalon.rules.decisions import current_step, option_cards
from tribes.games.fate_of_akalon.state import Decision, State

_YOUR_PLACE = {
    "hand": "into your hand",
    "discard_top": "on your discard pile",
    "deck_top": "on top of your deck",
    "deck_bottom": "on the bottom of your deck",
    "out_of_play": "out of play",
}
_TIMING_WORDS = {
    "after_all_played": "after-all-played",
    "victorious": "Victorious",
    "defeated": "Defeated",
    "cemetery_reinforce_after_draw": "Cemetery",
}
_WANTED: dict[Decision, tuple[type, str]] = {
    Decision.CHOOSE_FIRST_ATTACKER: (ChooseFirstAttacker, "choose the first attacker"),
    Decision.PLAY: (PlayCard, "play a card from your hand"),
    Decision.EXTRA_PLAY: (PlayCard, "play another card from your hand"),
    Decision.PLAY_REVEALED: (PlayCard, "play one of the revealed cards"),
    Decision.CHOOSE_OPPONENT: (ChooseOpponent, "choose an opponent"),
    Decision.CHOOSE_CARD: (ChooseCard, "choose a card"),
    Decision.YES_NO: (ChooseYesNo, "answer yes or no"),
    Decision.ORDER_TRIGGERS: (ResolveTrigger, "choose which ability resolves next"),
    Decision.ORDER_DISCARD: (PlaceOnDiscard, "place a card on your discard pile"),
}


def _source(state: State) -> str:
    task = state.stack[-1] if state.stack else None
    return NAME[task.card] if task is not None and task.card >= 0 else "Card"


def _seat(state: State, seat: int) -> str:
    return f"{state.factions[seat].title} (seat {seat})"


def _next_step(state: State) -> object:
    task = state.stack[-1]
    program = PROGRAM[task.card][task.ability]
    return program[task.step + 1] if task.step + 1 < len(program) else None


def _yes_phrase(first: object) -> str:
    if isinstance(first, DesignateAttacker):
        return "become the attacker next battle"
    if isinstance(first, Move):
        what = {
            "deck_top": "the top card of your deck",
            "discard_top": "the top card of your discard pile",
            "self": "this card from your cemetery",
            "T": "the chosen card",
        }[first.card]
        return f"put {what} {_YOUR_PLACE[first.to]}"
    return "do it"


def describe(state: State, move: AkalonMove) -> str:
    """A readable sentence for ``move`` in ``state`` ("Play Goblin (1)")."""
    decision = state.pending.decision if state.pending is not None else None
    if isinstance(move, ChooseFirstAttacker):
        return f"Choose {_seat(state, move.seat)} to attack first"
    if isinstance(move, PlayCard):
        card = card_of(move)
        label = f"{NAME[card]} ({VALUE[card]})"
        if decision is Decision.EXTRA_PLAY:
            return f"Play {label} (extra play from {_source(state)})"
        if decision is Decision.PLAY_REVEALED:
            return f"Play the revealed {label}"
        return f"Play {label}"
    if isinstance(move, Decline):
        if decision is Decision.EXTRA_PLAY:
            return "Play no extra card"
        if decision is Decision.PLAY_REVEALED:
            return "Play none of the revealed cards"
        what = "opponent" if decision is Decision.CHOOSE_OPPONENT else "card"
        return f"{_source(state)}: choose no {what}"
    if isinstance(move, ChooseOpponent):
        return f"{_source(state)}: choose {_seat(state, move.seat)}"
    if isinstance(move, ChooseCard):
        return f"{_source(state)}: {_choose_card_phrase(state, card_of(move))}"
    if isinstance(move, ChooseYesNo):
        step = current_step(state)
        phrase = _yes_phrase(step.first) if isinstance(step, Ask) else "do it"
        return f"{_source(state)}: {phrase}" if move.yes else f"{_source(state)}: do not {phrase}"
    if isinstance(move, ResolveTrigger):
        card = card_of(move)
        timing = _TIMING_WORDS.get(TIMING[card][move.ability], "")
        return f"Resolve {NAME[card]}'s {timing} ability next".replace("  ", " ")
    return f"Place {NAME[card_of(move)]} on your discard pile"


def _choose_card_phrase(state: State, card: int) -> str:
    name = NAME[card]
    follow = _next_step(state) if state.stack else None
    if isinstance(follow, Move):
        return f"put {name} {_YOUR_PLACE[follow.to]}"
    if isinstance(follow, Modify) and isinstance(follow.amount, int):
        return f"give {name} {follow.amount:+d}"
    if isinstance(follow, IgnoreText):
        return f"treat {name} as having no card text"
    return f"choose {name}"


def public_move(state: State, seat: int, move: AkalonMove) -> AkalonMove | None:
    """The move as other seats see it: hidden when it picks a hand card put face down."""
    if not isinstance(move, ChooseCard):
        return move
    step = current_step(state)
    if isinstance(step, dsl.ChooseCard) and step.zone == "hand":
        follow = _next_step(state)
        if isinstance(follow, Move) and follow.to in ("deck_top", "deck_bottom", "hand"):
            return None
    return move


def explain_illegal(state: State, seat: int, move: AkalonMove) -> str:
    """Why a well-formed move is not legal now, in a player's words."""
    pending = state.pending
    if pending is None:
        return "the game is over"
    wanted, doing = _WANTED[pending.decision]
    optional = pending.decision in (Decision.EXTRA_PLAY, Decision.PLAY_REVEALED) or (
        pending.decision in (Decision.CHOOSE_CARD, Decision.CHOOSE_OPPONENT)
        and getattr(current_step(state), "optional", False)
    )
    if isinstance(move, Decline):
        return "you cannot decline this: " + doing
    if not isinstance(move, wanted):
        return f"you must {doing} now" + (" (or decline)" if optional else "")
    if isinstance(move, ChooseFirstAttacker):
        return f"there is no seat {move.seat} in this game"
    if isinstance(move, ChooseOpponent):
        return f"seat {move.seat} is not an opponent you can choose"
    if isinstance(move, ResolveTrigger):
        return f"{NAME[card_of(move)]}'s ability {move.ability} is not waiting to resolve"
    assert isinstance(move, PlayCard | ChooseCard | PlaceOnDiscard)
    card = card_of(move)
    offered = ", ".join(NAME[c] for c in option_cards(state)) or "none"
    if pending.decision is Decision.PLAY or (
        pending.decision is Decision.EXTRA_PLAY and card not in state.players[seat].hand
    ):
        return f"{NAME[card]} is not in your hand"
    if pending.decision is Decision.EXTRA_PLAY:
        step = current_step(state)
        name = step.filter.name if isinstance(step, ExtraPlay) else None
        if name is not None:
            return f"{_source(state)} only lets you play a card named {name}"
    return f"{NAME[card]} ({KEY[card]}) is not one of the cards offered now: {offered}"

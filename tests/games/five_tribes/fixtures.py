"""Builders of small Five Tribes test states (rules spec §9 "Defaults for building a test state").

``build`` makes a state on the reference layout L with only the named tiles holding
meeples; every other component is where the defaults put it (meeples not on the board
or held are in the bag, cards not in the row or held are in the draw pile, Djinns not
displayed or owned are in the Djinn pile), so the conservation invariants hold unless
a test rigs the bag or a pile on purpose. ``at_turn`` puts a seat in a step of its
action turn; ``bidding`` starts a bid phase; ``play`` applies moves by key through the
driver (so every move is checked against ``legal_moves``).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import replace
from typing import Any

from tribes.engine.driver import find_move, play
from tribes.games.five_tribes import GAME
from tribes.games.five_tribes.data import (
    CAMELS,
    CARD_COUNTS,
    CARD_SLUG,
    CARDS,
    DJINN_BY_SLUG,
    MEEPLE_COUNTS,
    MEEPLE_LETTER,
    NO_CARDS,
    NO_MEEPLES,
    PAID_SPOTS,
    PALACES,
    PALM_TREES,
    STARTING_GOLD,
    TILE_CODES,
    Card,
    Djinn,
)
from tribes.games.five_tribes.grid import TILES, tile_at
from tribes.games.five_tribes.state import Player, State, Step, Turn

#: Reference layout L (§9).
LAYOUT_L_TEXT = """
S10 SM  S6  V   SM  O
O   LM  LM  O   LM  S6
SM  V   S12 SM  O   SM
S6  O   SM  LM  S15 V
SM  V   S6  O   V   SM
"""
LAYOUT_L = tuple(TILE_CODES[code] for code in LAYOUT_L_TEXT.split())

Where = tuple[int, int]
#: The display when a test names none: the first three of these nobody owns.
DEFAULT_DISPLAY = "jafaar enki marid iblis sloar boaz"


def t(row: int, col: int) -> int:
    """Tile index of ``(row, col)``."""
    return tile_at(row, col)


def meeples(text: str) -> tuple[int, ...]:
    """Counts from colour letters, e.g. ``"YWW"``."""
    counts = [0] * 5
    for letter in text.lower():
        counts[MEEPLE_LETTER.index(letter)] += 1
    return tuple(counts)


def cards(text: str | Iterable[str] = ()) -> tuple[Card, ...]:
    """Cards from slugs: ``"fish fish wheat"``."""
    names = text.split() if isinstance(text, str) else list(text)
    return tuple(CARDS[CARD_SLUG.index(name.lower())] for name in names)


def djinns(text: str) -> tuple[Djinn, ...]:
    """Djinns from slugs: ``"jafaar enki marid"``."""
    return tuple(DJINN_BY_SLUG[name] for name in text.split())


def hand(text: str) -> tuple[int, ...]:
    counts = list(NO_CARDS)
    for card in cards(text):
        counts[card] += 1
    return tuple(counts)


def build(
    *,
    seats: int = 3,
    board: Mapping[Where, str] | None = None,
    owners: Mapping[Where, int] | None = None,
    palms: Mapping[Where, int] | None = None,
    palaces: Mapping[Where, int] | None = None,
    players: Mapping[int, Any] | None = None,
    row: str | None = None,
    discard: str = "",
    display: str | None = None,
    djinn_top: str = "",
    djinn_discard: str = "",
    bag: str | None = None,
    options: Mapping[str, str] | None = None,
) -> State:
    """A state on layout L (§9 defaults); ``players[seat]`` overrides Player fields, with
    ``cards`` and ``djinns`` given as slug strings."""
    base = GAME.new_game(seats, dict(options or {}), 1)
    counts: list[tuple[int, ...]] = [NO_MEEPLES] * TILES
    for (r, c), text in (board or {}).items():
        counts[t(r, c)] = meeples(text)
    owner_list: list[int | None] = [None] * TILES
    for (r, c), seat in (owners or {}).items():
        owner_list[t(r, c)] = seat
    palm_list, palace_list = [0] * TILES, [0] * TILES
    for (r, c), n in (palms or {}).items():
        palm_list[t(r, c)] = n
    for (r, c), n in (palaces or {}).items():
        palace_list[t(r, c)] = n

    people = []
    for seat in range(seats):
        spec = dict((players or {}).get(seat, {}))
        held = hand(spec.pop("cards", ""))
        owned = djinns(spec.pop("djinns", ""))
        used = tuple(sorted(djinns(spec.pop("used", ""))))
        placed = sum(1 for owner in owner_list if owner == seat)
        player = Player(
            gold=STARTING_GOLD,
            viziers=0,
            elders=0,
            cards=held,
            djinns=owned,
            camels=CAMELS[seats] - placed,
            used=used,
            echidna=False,
            iblis=False,
        )
        people.append(replace(player, **spec))

    row_cards = cards(row) if row is not None else cards("fish wheat pottery silk spice papyrus")
    discard_cards = cards(discard)
    left = list(CARD_COUNTS)
    for card in (*row_cards, *discard_cards):
        left[card] -= 1
    for person in people:
        for index, n in enumerate(person.cards):
            left[index] -= n
    pile = [CARDS[c] for c, n in enumerate(left) for _ in range(n)]
    assert min(left) >= 0, "more cards than the game has"

    owned_any = {d for person in people for d in person.djinns}
    if display is None:
        shown = tuple(d for d in djinns(DEFAULT_DISPLAY) if d not in owned_any)[:3]
    else:
        shown = djinns(display)
    top = djinns(djinn_top)
    gone = djinns(djinn_discard)
    taken = {d for person in people for d in person.djinns} | set(shown) | set(top) | set(gone)
    djinn_pile = top + tuple(d for d in Djinn if d not in taken)

    if bag is None:
        in_bag = list(MEEPLE_COUNTS)
        for tile_counts in counts:
            for colour, n in enumerate(tile_counts):
                in_bag[colour] -= n
        for person in people:
            in_bag[0] -= person.viziers
            in_bag[1] -= person.elders
        bag_counts = tuple(in_bag)
    else:
        bag_counts = meeples(bag)

    return replace(
        base,
        layout=LAYOUT_L,
        meeples=tuple(counts),
        owners=tuple(owner_list),
        palms=tuple(palm_list),
        palaces=tuple(palace_list),
        bag=bag_counts,
        palm_supply=PALM_TREES - sum(palm_list),
        palace_supply=PALACES - sum(palace_list),
        resource_pile=tuple(pile),
        resource_row=row_cards,
        resource_discard=discard_cards,
        djinn_pile=djinn_pile,
        djinn_display=shown,
        djinn_discard=gone,
        players=tuple(people),
    )


def bidding(state: State, order: Iterable[int]) -> State:
    """A BID phase with markers to bid in ``order`` (marker m belongs to seat m % seats)."""
    return replace(
        state,
        step=Step.BID,
        turn=None,
        bid_order=tuple(order),
        next_bid_order=(),
        track=(None,) * len(PAID_SPOTS),
        zero_aisle=(),
        overflow=(),
    )


def at_turn(
    state: State,
    seat: int,
    *,
    step: Step = Step.START,
    played: Iterable[int] = (),
    later: Iterable[int] = (),
    final: Where | None = None,
) -> State:
    """``seat``'s marker is in its action turn at ``step``; markers ``played`` already
    played this round and ``later`` wait on the 0 spots, in play order."""
    marker = seat
    turn = Turn(
        marker=marker,
        seat=seat,
        hand=NO_MEEPLES,
        pos=None,
        prev=None,
        start=None,
        final=None if final is None else t(*final),
        tribe=None,
        collected=0,
        pending=None,
    )
    return replace(
        state,
        step=step,
        turn=turn,
        bid_order=(),
        next_bid_order=(*played, marker),
        track=(None,) * len(PAID_SPOTS),
        zero_aisle=tuple(later),
        overflow=(),
    )


def keys(state: State) -> list[str]:
    """The keys of the legal moves of whoever is to act."""
    seat = GAME.to_act(state)[0]
    return [move.key for move in GAME.legal_moves(state, seat)]


def do(state: State, *move_keys: str) -> State:
    """Apply moves by key for the seat to act, checking each is legal (driver)."""
    for key in move_keys:
        seat = GAME.to_act(state)[0]
        state = play(GAME, state, seat, find_move(GAME, state, seat, key))
    return state


def gold(state: State) -> tuple[int, ...]:
    return tuple(p.gold for p in state.players)

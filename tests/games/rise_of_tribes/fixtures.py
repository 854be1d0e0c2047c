"""Builders of small Rise of Tribes test states (spec §9 "Notation" and its defaults).

``build`` makes a state after setup with only the named hexes holding members: seat 0
(R in the spec's examples) is active and the start player, B is seat 1, G seat 2, Y
seat 3. Unless a test says otherwise the defaults of §9 hold: leaders off, all 16
events, no developments, no acquired events, empty event slots, no invaders or volcano,
every row S/M/B. Members not on the map are in the supply, goal cards not in progress
or completed are in the deck (``decks`` gives its top cards, the rest follow in card
order), events not elsewhere are
in the event deck, so the conservation invariants hold. ``play`` applies moves by key
through the driver, so every move is checked against ``legal_moves``.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import replace

from tribes.engine.driver import find_move, play
from tribes.engine.rng import Rng
from tribes.games.rise_of_tribes import GAME
from tribes.games.rise_of_tribes.cards import (
    GOAL_BY_ID,
    GOAL_CARD,
    Event,
    Goal,
    deck_for,
    event_deck_for,
)
from tribes.games.rise_of_tribes.data import (
    ACTIONS,
    DIE_FACES,
    INITIAL_ROW,
    MEMBERS_PER_PLAYER,
    TRIBES,
    Action,
    EventSet,
    Face,
    Leaders,
    Power,
    Terrain,
    Tribe,
)
from tribes.games.rise_of_tribes.invariants import check_invariants
from tribes.games.rise_of_tribes.maps import Hex, geometry
from tribes.games.rise_of_tribes.rules.turn import fresh_turn
from tribes.games.rise_of_tribes.state import (
    NOBODY,
    Conflict,
    Player,
    Slot,
    State,
    Step,
)

R, B, G, Y = 0, 1, 2, 3
FACES = {"S": Face.SUN, "M": Face.MOON, "-": Face.BLANK}
_TERRAIN = {"F": Terrain.FOREST, "L": Terrain.LAKE, "M": Terrain.MOUNTAIN}
#: Default terrain by player count (H0 first). 4p: the lakes of Ex 25 (H3 H6 H9 H13 H14),
#: forests H0 H1 H4 H8 H11 (Ex 7 needs H1 and H4), mountains H2 H5 H7 H10 H12.
TERRAIN_TEXT = {
    2: "F L M M F L L M F",
    3: "F L M F L M F L M F L M",
    4: "F F M L F M L M F L M F M L L",
}


def terrain(text: str) -> tuple[Terrain, ...]:
    return tuple(_TERRAIN[c] for c in text.split())


def faces(text: str) -> tuple[Face, ...]:
    """Faces from the spec's notation: ``"S M -"``."""
    return tuple(FACES[c] for c in text.split())


def hx(state_or_seats: State | int, h: int) -> Hex:
    """The coordinate of hex id ``Hh``."""
    seats = state_or_seats if isinstance(state_or_seats, int) else state_or_seats.seats
    return geometry(seats).hexes[h]


def key(state_or_seats: State | int, h: int) -> str:
    """The key text ``q,r`` of hex id ``Hh``."""
    return hx(state_or_seats, h).text


def goals(*ids: str) -> tuple[Goal, ...]:
    """Goal cards from the spec's ids: ``goals("D5", "A3")``."""
    return tuple(GOAL_BY_ID[i] for i in ids)


def build(
    seats: int = 4,
    *,
    members: Mapping[int, Mapping[int, int]] | None = None,
    terrain_text: str | None = None,
    villages: Mapping[int, int] | None = None,
    resources: Mapping[int, tuple[int, int, int]] | None = None,
    in_progress: Mapping[int, Iterable[Goal]] | None = None,
    completed: Mapping[int, Iterable[Goal]] | None = None,
    decks: Mapping[int, Iterable[Goal]] | None = None,
    vp: Mapping[int, int] | None = None,
    tribes: Mapping[int, Tribe] | None = None,
    powers: Mapping[int, Power] | None = None,
    owned: Mapping[int, Iterable[Event]] | None = None,
    slots: Iterable[Slot | None] = (None, None),
    event_deck: Iterable[Event] | None = None,
    event_discard: Iterable[Event] = (),
    invaders: tuple[int, int] | None = None,
    mammoth: int = NOBODY,
    tiger: int = NOBODY,
    volcano: Hex | None = None,
    rows: Mapping[Action, str] | None = None,
    pool: str = "",
    dice: str = "",
    step: Step = Step.ACTION,
    active: int = R,
    event_set: EventSet = EventSet.ALL16,
    turn_cap: int = 500,
    rng: int = 12345,
) -> State:
    """A state after setup, in ``step`` of ``active``'s turn (Step 3 by default)."""
    geo = geometry(seats)
    counts = [[0] * seats for _ in range(geo.size)]
    for h, by_seat in (members or {}).items():
        for seat, n in by_seat.items():
            counts[h][seat] = n
    slots = tuple(slots)
    owned = owned or {}
    players = []
    for seat in range(seats):
        done = tuple(completed.get(seat, ()) if completed else ())
        held = tuple(in_progress.get(seat, ()) if in_progress else ())
        top_cards = tuple(decks.get(seat, ())) if decks else ()
        rest = (g for g in deck_for(seats) if g not in done + held + top_cards)
        deck = top_cards + tuple(rest)
        on_map = sum(row[seat] for row in counts)
        players.append(
            Player(
                tribe=(tribes or {}).get(seat, TRIBES[seat]),
                power=(powers or {}).get(seat),
                vp=(vp or {}).get(seat, 0) + sum(_vp(g) for g in done),
                vp_villages=(vp or {}).get(seat, 0),
                vp_events=0,
                supply=MEMBERS_PER_PLAYER - on_map,
                resources=(resources or {}).get(seat, (0, 0, 0)),
                goal_deck=deck,
                in_progress=held,
                completed=done,
                owned_events=tuple(owned.get(seat, ())),
                mammoth_tamed=False,
            )
        )
    placed = {s.event for s in slots if s is not None} | set(event_discard)
    for events in owned.values():
        placed |= set(events)
    if event_deck is None:
        event_deck = [e for e in event_deck_for(event_set) if e not in placed]
    row_faces = tuple(faces(rows[a]) if rows and a in rows else INITIAL_ROW for a in ACTIONS)
    village_owner = [NOBODY] * geo.size
    for h, seat in (villages or {}).items():
        village_owner[h] = seat
    inv_hex, inv = invaders if invaders else (NOBODY, 0)
    left = faces(dice)
    turn = replace(fresh_turn(geo.size), rolled=left, dice_left=left)
    return State(
        seats=seats,
        event_set=event_set,
        leaders=Leaders.HOUSE if powers else Leaders.OFF,
        turn_cap=turn_cap,
        terrain=terrain(terrain_text or TERRAIN_TEXT[seats]),
        members=tuple(tuple(row) for row in counts),
        villages=tuple(village_owner),
        invader_hex=inv_hex,
        invaders=inv,
        mammoth_hex=mammoth,
        tiger_hex=tiger,
        volcano=volcano,
        rows=row_faces,
        pool=faces(pool) if pool else (() if left else (Face.BLANK, Face.BLANK)),
        players=tuple(players),
        event_deck=tuple(event_deck),
        event_discard=tuple(event_discard),
        slots=slots,
        start_player=R,
        step=step,
        actor=active,
        active=active,
        turn=turn,
        action=None,
        conflict=None,
        resolving=None,
        turn_count=0,
        winner=NOBODY,
        capped=False,
        log=(),
        rng=rng,
    )


def _vp(goal: Goal) -> int:
    return GOAL_CARD[goal].vp


def slot(event: Event, food: int = 0, wood: int = 0, stone: int = 0, tokens: int = 0) -> Slot:
    return Slot(event, food, wood, stone, tokens)


def rigged_rng(*wanted: Face) -> int:
    """An Rng state whose next die rolls show ``wanted`` (a search over small seeds)."""
    for seed in range(100_000):
        rng = Rng(seed)
        if all(DIE_FACES[rng.below(len(DIE_FACES))] is face for face in wanted):
            return seed
    raise AssertionError("no seed rolls that")


def before_turn(state: State, *roll: Face) -> State:
    """The previous player's Step 5, with the PRNG rigged so R's roll shows ``roll``.

    Playing ``end-turn`` from here starts R's turn: Step 0/1, then the roll.
    """
    previous = (state.active - 1) % state.seats
    return replace(
        state,
        step=Step.GOALS,
        actor=previous,
        active=previous,
        pool=(Face.BLANK, Face.BLANK),
        turn=replace(fresh_turn(len(state.members)), rolled=(), dice_left=()),
        rng=rigged_rng(*roll),
    )


def in_conflict(state: State, hexes: Iterable[int]) -> State:
    """Step 4 about to choose among ``hexes`` (the move that ends Step 3 starts it)."""
    return replace(
        state, step=Step.CHOOSE_CONFLICT, conflict=Conflict(tuple(hexes), NOBODY, (), False, ())
    )


def do(state: State, *keys: str) -> State:
    """Apply moves by key through the driver (legality checked), each by the actor; the
    invariants must hold after each."""
    for k in keys:
        seat = GAME.to_act(state)[0]
        state = play(GAME, state, seat, find_move(GAME, state, seat, k))
        check_invariants(state)
    return state


def keys(state: State) -> list[str]:
    """The pending actor's legal move keys."""
    acting_seats = GAME.to_act(state)
    if not acting_seats:
        return []
    return [m.key for m in GAME.legal_moves(state, acting_seats[0])]


def roll_for_r(state: State, *roll: Face) -> State:
    """The previous player ends their turn; R's turn starts and rolls ``roll``."""
    return do(before_turn(state, *roll), "end-turn")


def to_conflict(state: State) -> State:
    """End Step 3 without touching the map: the last die (BLANK) goes to LEAD."""
    return do(state, "assign:blank:lead", "lead-draw")


def top(deck: tuple[Event, ...], event: Event) -> tuple[Event, ...]:
    """The event deck with ``event`` moved to the top."""
    return (event, *(e for e in deck if e is not event))


def draw(state: State, event: Event, *roll: Face) -> State:
    """R's turn starts with ``roll`` and, on doubles, draws ``event`` from the top."""
    return roll_for_r(replace(state, event_deck=top(state.event_deck, event)), *roll)

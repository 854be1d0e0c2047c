"""Game creation and the setup decisions (spec §4, §3.1, §3.3, §3.5).

Random setup steps, in this fixed order from ``Rng(seed)``: the terrain permutation,
the tribe boards, the start player, each seat's goal deck (seat 0 first), the event
deck. Then (house) every player chooses a leader power and the starting placements are
made in seat order from the start player; the last one starts the first turn.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace

from tribes.engine import BadOptionsError
from tribes.engine.rng import Rng
from tribes.games.rise_of_tribes.cards import deck_for, event_deck_for
from tribes.games.rise_of_tribes.data import (
    ACTIONS,
    BOARD_OF,
    EVENT_SLOTS,
    INITIAL_ROW,
    MEMBERS_PER_PLAYER,
    SEAT_COUNTS,
    START_MEMBERS,
    TERRAINS,
    TRIBES,
    Face,
    Leaders,
    tiles_per_terrain,
)
from tribes.games.rise_of_tribes.maps import geometry
from tribes.games.rise_of_tribes.moves import (
    ChoosePower,
    Move,
    PlaceStart,
    PlaceStartSplit,
    StartResources,
)
from tribes.games.rise_of_tribes.options import parse_options
from tribes.games.rise_of_tribes.rules import turn
from tribes.games.rise_of_tribes.rules.board import Board
from tribes.games.rise_of_tribes.state import NOBODY, Player, State, Step

#: The pool before the first roll: the two dice left over at setup (§4 step 6). Their
#: faces are never read (they are rolled first); BLANK is the engine's choice.
SETUP_POOL = (Face.BLANK, Face.BLANK)
#: The six ways to take 2 resources (§4 step 9), in key order.
START_CHOICES = tuple(StartResources(f, w, 2 - f - w) for f in range(3) for w in range(3 - f))


def new_game(seats: int, options: Mapping[str, str], seed: int) -> State:
    """Set up a game (every random setup step included); BadOptionsError on bad input."""
    if seats not in SEAT_COUNTS:
        raise BadOptionsError(f"Rise of Tribes is played by 2-4 players, not {seats}")
    event_set, leaders, turn_cap = parse_options(options)
    rng = Rng(seed)
    geo = geometry(seats)
    per = tiles_per_terrain(seats)
    terrain = rng.shuffled([t for t in TERRAINS for _ in range(per)])
    tribes = rng.shuffled(TRIBES)[:seats]
    start = rng.below(seats)
    decks = [rng.shuffled(deck_for(seats)) for _ in range(seats)]
    event_deck = rng.shuffled(event_deck_for(event_set))
    players = tuple(
        Player(
            tribe=tribes[seat],
            power=None,
            vp=0,
            vp_villages=0,
            vp_events=0,
            supply=MEMBERS_PER_PLAYER,
            resources=(0, 0, 0),
            goal_deck=decks[seat],
            in_progress=(),
            completed=(),
            owned_events=(),
            mammoth_tamed=False,
        )
        for seat in range(seats)
    )
    return State(
        seats=seats,
        event_set=event_set,
        leaders=leaders,
        turn_cap=turn_cap,
        terrain=terrain,
        members=((0,) * seats,) * geo.size,
        villages=(NOBODY,) * geo.size,
        invader_hex=NOBODY,
        invaders=0,
        mammoth_hex=NOBODY,
        tiger_hex=NOBODY,
        volcano=None,
        rows=(INITIAL_ROW,) * len(ACTIONS),
        pool=SETUP_POOL,
        players=players,
        event_deck=event_deck,
        event_discard=(),
        slots=(None,) * EVENT_SLOTS,
        start_player=start,
        step=Step.CHOOSE_POWER if leaders is Leaders.HOUSE else Step.PLACE_START,
        actor=start,
        active=start,
        turn=None,
        action=None,
        conflict=None,
        resolving=None,
        turn_count=0,
        winner=NOBODY,
        capped=False,
        log=(),
        rng=rng.state,
    )


def position(state: State | Board, seat: int) -> int:
    """0 for the start player, 1 for the next clockwise, ... (the spec's seat 1, 2, ...)."""
    return (seat - state.start_player) % len(state.players)


# -- legal moves --------------------------------------------------------------------------------


def power_moves(state: State) -> list[Move]:
    board = BOARD_OF[state.players[state.actor].tribe]
    return [ChoosePower(p) for p in board.powers]


def start_moves(state: State) -> list[Move]:
    """Free hexes: no other player's members (§4 step 9); the actor has none yet."""
    geo = geometry(state.seats)
    return [PlaceStart(geo.hexes[h]) for h, row in enumerate(state.members) if not any(row)]


def split_moves(state: State) -> list[Move]:
    geo = geometry(state.seats)
    free = [not any(row) for row in state.members]
    return [
        PlaceStartSplit(geo.hexes[pair], geo.hexes[single])
        for pair in range(geo.size)
        if free[pair]
        for single in geo.neighbours[pair]
        if free[single]
    ]


def resource_moves(state: State) -> list[Move]:
    return list(START_CHOICES)


# -- applying -----------------------------------------------------------------------------------


def apply_power(b: Board, move: ChoosePower) -> None:
    seat = b.actor
    b.set_player(seat, replace(b.players[seat], power=move.power))
    b.log(f"seat {seat} chooses the power {move.power.value} (house rule)")
    if position(b, seat) + 1 < b.n:
        b.ask(Step.CHOOSE_POWER, (seat + 1) % b.n)
    else:
        b.ask(Step.PLACE_START, b.start_player)


def apply_place(b: Board, hexes: tuple[tuple[int, int], ...]) -> None:
    """Place the starting members (``(hex, count)`` pairs) of the actor."""
    seat = b.actor
    for h, count in hexes:
        b.put(h, seat, count, from_supply=True)
    if position(b, seat) >= 2:
        b.ask(Step.START_RESOURCES, seat)
    else:
        _next_placement(b, seat)


def start_count(state: State | Board, seat: int) -> int:
    return START_MEMBERS[position(state, seat)]


def apply_resources(b: Board, move: StartResources) -> None:
    b.gain(b.actor, move.food, move.wood, move.stone)
    _next_placement(b, b.actor)


def _next_placement(b: Board, seat: int) -> None:
    after = position(b, seat) + 1
    if after >= b.n:
        b.log("setup is complete")
        turn.begin_turn(b, b.start_player)
        return
    nxt = (seat + 1) % b.n
    b.ask(Step.PLACE_START_SPLIT if after == 3 else Step.PLACE_START, nxt)

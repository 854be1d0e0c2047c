"""Rule edges a rules audit verified by hand: the order of the setup draws (§4 step 7) and
who reads the applied amount of a VP loss (§3.6 LOSE_VP, §6, review log item 20)."""

from __future__ import annotations

import pytest

from tests.games.tribes_early_civilization.fixtures import build, do
from tribes.engine import SPECTATOR
from tribes.engine.driver import new_game, play
from tribes.engine.rng import Rng
from tribes.games.tribes_early_civilization import GAME
from tribes.games.tribes_early_civilization.data import (
    ACTION_TILES,
    BOARDS_OF_EPOCH,
    EPOCHS,
    EVENTS_OF_EPOCH,
    LAND_COUNTS,
    TERRAIN_NAME,
    Terrain,
)
from tribes.games.tribes_early_civilization.state import Phase, State

BEAR_FIRST = (
    "EV1_BEAR(0) A_MOVE(0) A_PROCREATE(0) A_EXPLORE(0) A_MOVE_H(0) A_PROCREATE_H(0) A_EXPLORE_H(0)"
)

Draws = dict[int, tuple[list[Terrain], list[Terrain]]]
Setup = tuple[int, Draws, tuple[int, ...], int]


def _spec_setup(seats: int, seed: int, first: int | None) -> Setup:
    """Replay §4 on ``Rng(seed)`` in the spec's order: (start player, each seat's drawn and
    kept tiles, the bag after step 7, the RNG state after step 7).

    Step 1 the start player, 4 the action row, 5 the boards per epoch, 6 the three event
    stacks, 7 the territories one seat after the other beginning with ``first`` (the start
    player when None). A bag draw is uniform without replacement (§6): a pick below the bag
    size counted through the terrains in §3.1 order. Set-aside duplicates go back to the bag
    before the next seat draws (Ex 21).
    """
    rng = Rng(seed)
    start = rng.below(seats)
    rng.shuffled(ACTION_TILES)
    for epoch in EPOCHS:
        rng.shuffled(BOARDS_OF_EPOCH[epoch])
    for epoch in EPOCHS:
        rng.shuffled(EVENTS_OF_EPOCH[epoch])
    bag = list(LAND_COUNTS)
    draws: Draws = {}
    lead = start if first is None else first
    for offset in range(seats):
        seat = (lead + offset) % seats
        drawn: list[Terrain] = []
        kept: list[Terrain] = []
        while len(kept) < 3:
            pick = rng.below(sum(bag))
            terrain = 0
            while pick >= bag[terrain]:
                pick -= bag[terrain]
                terrain += 1
            bag[terrain] -= 1
            drawn.append(Terrain(terrain))
            if Terrain(terrain) not in kept:
                kept.append(Terrain(terrain))
        for tile in drawn:
            bag[tile] += 1
        for tile in kept:
            bag[tile] -= 1
        draws[seat] = (drawn, kept)
    return start, draws, tuple(bag), rng.state


def _names(tiles: list[Terrain]) -> str:
    return ", ".join(TERRAIN_NAME[t] for t in tiles)


@pytest.mark.parametrize(("seats", "seed"), [(3, 9), (4, 10)])
def test_setup_draws_go_in_turn_order_from_the_start_player(seats: int, seed: int) -> None:
    """§4 step 7: "Starting territories, in turn order from the start player. Draw tiles one
    at a time. Keep a drawn tile if its type differs from the types already kept; otherwise
    set it aside. Stop when 3 different types are kept, then return the set-aside tiles to
    the bag." §3.2: the kept tiles go on (0,0), (1,0), (0,1) in the order kept.

    The seeds have a start player other than seat 0 and set-aside duplicates, so draws in
    plain seat order would deal every seat different tiles.
    """
    start, draws, bag, rng_after = _spec_setup(seats, seed, None)
    _, seat_order_draws, _, _ = _spec_setup(seats, seed, 0)
    assert start != 0
    assert any(len(drawn) > 3 for drawn, _ in draws.values())
    assert all(draws[s][1] != seat_order_draws[s][1] for s in range(seats))

    state = new_game(GAME, seats, {}, seed)
    assert state.start_player == start
    for seat in range(seats):
        assert [t.terrain for t in state.players[seat].tiles] == draws[seat][1]
        assert [(t.hex.q, t.hex.r) for t in state.players[seat].tiles] == [(0, 0), (1, 0), (0, 1)]
    assert state.bag == bag
    assert state.rng == rng_after
    setup_lines = [line for line in GAME.view(state, SPECTATOR).log if " drew " in line.text]
    order = [(start + i) % seats for i in range(seats)]
    assert [line.seat for line in setup_lines] == order
    for line in setup_lines:
        drawn, kept = draws[line.seat]
        assert f"drew {_names(drawn)} and keeps {_names(kept)}" in line.text


def _bear_on_one_vp(options: dict[str, str]) -> State:
    """Seat 0 (1 VP, the weakest) takes Cave bear (WEAKEST: LOSE_VP 2): 1 VP is applied."""
    state = build(
        sequence=BEAR_FIRST,
        players={0: {"vp": 1}, 1: {"levels": "S1"}, 2: {"levels": "S1"}},
        options=options,
    )
    return do(state, "tile:0:event")


def _bear_lines(state: State, viewer: int) -> list[str]:
    return [line.text for line in GAME.view(state, viewer).log if "Cave bear:" in line.text]


def test_with_vp_shown_every_seat_reads_the_applied_vp_loss() -> None:
    """§6: the view is the full state "with these replacements and nothing else"; only
    "while hide_opponent_vp is true and the game is not over" are opponents' VP null and
    "each LOSE_VP log entry of another seat o keeps only the event, the seat and the nominal
    amount n". §3.6 LOSE_VP: "VP = max(0, VP - n)"; the amount applied is VP before - VP
    after. With the option off every seat and the spectator read the applied 1 of the 2.
    """
    state = _bear_on_one_vp({"hide_opponent_vp": "off"})
    assert state.players[0].vp == 0 and state.phase is not Phase.GAME_OVER
    own = _bear_lines(state, 0)
    assert len(own) == 1 and "loses 2 VP" in own[0] and "(1 lost" in own[0]
    for viewer in (1, 2, SPECTATOR):
        assert _bear_lines(state, viewer) == own
        assert GAME.view(state, viewer).players[0].vp == 0


@pytest.mark.parametrize("hide", ["on", "off"])
def test_at_game_over_every_seat_reads_the_applied_vp_loss(hide: str) -> None:
    """§6 table, VP total: "All totals (and applied amounts) are revealed at GAME_OVER";
    the spectator view "At GAME_OVER ... shows every total, like every seat's view".
    Review log 20: before the end, only the losing seat reads the applied amount.
    """
    state = _bear_on_one_vp({"hide_opponent_vp": hide, "turn_cap": "3"})
    if hide == "on":
        for viewer in (1, 2, SPECTATOR):
            assert not any("lost" in text for text in _bear_lines(state, viewer))
    while GAME.result(state) is None:
        (seat,) = GAME.to_act(state)
        state = play(GAME, state, seat, GAME.legal_moves(state, seat)[0])
    assert state.phase is Phase.GAME_OVER
    for viewer in (0, 1, 2, SPECTATOR):
        (line,) = _bear_lines(state, viewer)
        assert "loses 2 VP" in line and "(1 lost" in line
        assert GAME.view(state, viewer).players[0].vp == state.players[0].vp

"""Rule edges a rules audit verified by hand: the order of the setup draws (§4 step 7) and
who reads the applied amount of a VP loss (§3.6 LOSE_VP, §6, review log item 20)."""

from __future__ import annotations

import pytest

from tests.games.tribes_early_civilization.fixtures import (
    build,
    do,
    keys,
    refused,
    row_text,
    slot_of,
)
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
    Event,
    Terrain,
)
from tribes.games.tribes_early_civilization.rules.scoring import final_scores
from tribes.games.tribes_early_civilization.state import Arrow, BoardCell, Phase, State

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


# -- a second audit: rules no earlier test asserted ------------------------------------------

MOVE_FIRST = "A_MOVE(0) A_PROCREATE(0) A_EXPLORE(0) A_MOVE_H(0) A_PROCREATE_H(0) A_EXPLORE_H(0)"
HAND_FIRST = "A_EXPLORE_H(0) A_MOVE(0) A_PROCREATE(0) A_EXPLORE(0) A_MOVE_H(0) A_PROCREATE_H(0)"
GOLDEN_FIRST = f"EV3_GOLDEN_AGE(0) {MOVE_FIRST}"
TWO_ORANGE = f"EV3_GOLDEN_AGE(0) EV3_TRIBUTE(0) {MOVE_FIRST}"


def _pass_turn(state: State) -> State:
    """The player to act takes the first tile for its action and plays the first legal
    move until the turn has passed (or the game is over)."""
    (seat,) = GAME.to_act(state)
    state = do(state, "tile:0:action")
    while GAME.to_act(state) == (seat,):
        state = do(state, keys(state)[0])
    return state


def _turns_until_over(state: State, limit: int = 10) -> list[int]:
    """The seats that play a turn before the game is over."""
    seats: list[int] = []
    for _ in range(limit):
        if GAME.result(state) is not None:
            return seats
        seats.append(GAME.to_act(state)[0])
        state = _pass_turn(state)
    raise AssertionError("the game did not end")


@pytest.mark.parametrize(
    ("start", "trigger", "after"),
    [(1, 2, [0]), (1, 0, []), (1, 1, [2, 0]), (2, 1, []), (2, 0, [1]), (2, 2, [0, 1])],
)
def test_last_round_ends_on_the_start_players_right(
    start: int, trigger: int, after: list[int]
) -> None:
    """§5.9 step 2: GAME_OVER when the end is triggered and the current player is the last
    seat of the round, (start_player + N - 1) mod N; §7, Ex 17: the round is finished up to
    and including the player to the right of the start player. With start player 1 (or 2)
    of 3, that is seat 0 (or 1), not seat 2."""
    state = build(
        start=start,
        current=trigger,
        sequence=GOLDEN_FIRST,
        executed_orange=(Event.EV3_CONQUEST, Event.EV3_WAR),
    )
    state = do(state, "tile:0:event")
    assert state.end_triggered and len(state.executed_orange) == 3
    assert _turns_until_over(state) == after


def test_rounds_count_from_a_nonzero_start_player() -> None:
    """§5.9 step 3, §5.11: the round number goes up when play returns to the start player;
    with start player 2 of 3 the turns go 2, 0, 1 in round 1, then 2 in round 2."""
    state = build(start=2, current=2, sequence=MOVE_FIRST)
    seen = []
    for _ in range(4):
        seen.append((GAME.to_act(state)[0], state.round))
        state = _pass_turn(state)
    assert seen == [(2, 1), (0, 1), (1, 1), (2, 2)]
    assert state.round == 2 and state.turn_count == 4 and GAME.to_act(state) == (0,)


def test_four_players_need_four_orange_events() -> None:
    """§3.7, §1: the end trigger is 4 orange events carried out with 4 players; §5.8 step 5.
    The third does not trigger it, the fourth does, and seats 2 and 3 still play."""
    state = build(seats=4, sequence=TWO_ORANGE, executed_orange=(Event.EV3_CONQUEST, Event.EV3_WAR))
    state = do(state, "tile:0:event")  # seat 0: Golden age, the third
    assert len(state.executed_orange) == 3 and not state.end_triggered
    assert GAME.to_act(state) == (1,)
    state = do(state, "tile:0:event")  # seat 1: Tribute, the fourth
    assert len(state.executed_orange) == 4 and state.end_triggered
    assert [p.vp for p in state.players] == [2, 3, 0, 0]  # all tied: seat 1 is strongest
    assert _turns_until_over(state) == [2, 3]


def test_orange_events_after_the_trigger_resolve_but_do_not_change_the_end() -> None:
    """§7: "Orange events carried out after the trigger still resolve normally but change
    nothing about the ending"; §5.8 step 5 sets the trigger only if it is not yet set.
    Start player 0 triggered with the third; seats 1 and 2 each carry out another one:
    both take effect, both are counted and displayed, the game ends after seat 2."""
    executed = (Event.EV3_CONQUEST, Event.EV3_WAR, Event.EV3_FAMINE)
    state = build(
        current=1,
        sequence=TWO_ORANGE,
        players={1: {"vp": 1}, 2: {"vp": 1}},
        executed_orange=executed,
        end_triggered=True,
    )
    state = do(state, "tile:0:event")  # seat 1: Golden age, +2
    assert state.players[1].vp == 3 and state.executed_orange == (*executed, Event.EV3_GOLDEN_AGE)
    assert GAME.result(state) is None and GAME.to_act(state) == (2,)
    state = do(state, "tile:0:event")  # seat 2: Tribute, all tied so strongest, +3
    assert state.players[2].vp == 4 and len(state.executed_orange) == 5
    assert state.final is not None and not state.capped and GAME.to_act(state) == ()
    assert GAME.view(state, SPECTATOR).orange_executed == 5


@pytest.mark.parametrize(("cap", "after", "capped"), [(10, [], True), (11, [2], False)])
def test_turn_cap_in_the_last_round(cap: int, after: list[int], capped: bool) -> None:
    """§5.9 step 4: turn_count counts completed turns; "if turn_count >= turn_cap and the
    game is not already over" the game ends, scored normally and flagged capped, so a cap
    reached inside the last round ends it before the last seat plays. If the last seat's
    turn both completes the round (step 2) and reaches the cap, the game is already over:
    a real ending, not capped."""
    state = build(
        sequence=GOLDEN_FIRST,
        executed_orange=(Event.EV3_CONQUEST, Event.EV3_WAR),
        turn_count=8,
        options={"turn_cap": str(cap)},
    )
    state = do(state, "tile:0:event")  # seat 0 triggers; turn 9
    assert state.end_triggered and GAME.to_act(state) == (1,)
    state = _pass_turn(state)  # turn 10
    assert _turns_until_over(state) == after
    while state.final is None:
        state = _pass_turn(state)
    assert state.capped is capped and state.turn_count == cap
    result = GAME.result(state)
    assert result is not None and ("turn cap" in result.summary) is capped


@pytest.mark.parametrize(
    ("seats", "stones", "board", "route", "gained", "epoch", "revealed"),
    [
        (3, {"B_HUNTING": (1,)}, "B_HUNTING", "none", 2, 1, True),
        (4, {"B_HUNTING": (1, 2, 3)}, "B_HUNTING", "none", 1, 1, False),
        (3, {"B_HUNTING": (0, 1), "G_TAMING": (1,)}, "G_TAMING", "direct", 3, 2, True),
        (
            4,
            {"B_HUNTING": (0, 1, 2, 3), "G_TAMING": (0, 1, 2, 3), "O_CART": (1, 2, 3)},
            "O_CART",
            "direct",
            3,
            3,
            False,
        ),
    ],
    ids=["brown-space-2", "brown-space-4", "green-space-2", "orange-space-4"],
)
def test_lightning_on_space_two_but_not_space_four(
    seats: int,
    stones: dict[str, tuple[int, ...]],
    board: str,
    route: str,
    gained: int,
    epoch: int,
    revealed: bool,
) -> None:
    """§3.4: spaces 1-2-3-4 give brown 2-2-1-1, green 4-3-3-2, orange 6-5-4-3 VP, and
    lightning is on spaces 1 and 2 only; §5.7 steps 3, 4 and 7: the leftmost empty space,
    its VP, and on a lightning space the epoch's top event joins the end of the row,
    before the hand tile."""
    state = build(
        seats=seats,
        sequence=HAND_FIRST,
        boards={(1, 0): "B_HUNTING", (2, 0): "G_TAMING", (3, 0): "O_CART"},
        stones=stones,
        stacks={1: "EV1_BERRIES", 2: "EV2_FLOOD", 3: "EV3_WAR"},
        players={0: {"tiles": "(0,0):HORSE[1] (1,0):HORSE[1] (0,1):HORSE[1]"}},
    )
    top = state.event_stacks[epoch - 1][0]
    state = do(state, "tile:0:achieve", f"achieve:{board.lower()}:{route}")
    assert slot_of(state, board).stones == (*stones[board], 0)
    assert state.players[0].vp == gained
    events = [t.event for t in state.sequence if t.event is not None]
    if revealed:
        assert events == [top] and len(state.event_stacks[epoch - 1]) == 7
        assert row_text(state).endswith(f"{top.name}(0) A_EXPLORE_H(0)")
    else:
        assert events == [] and len(state.event_stacks[epoch - 1]) == 8


def test_an_exhausted_occupied_tile_is_no_genuine_tile_and_no_wild() -> None:
    """§3.1: an exhausted tile gives no resource and cannot be used as a wild tile; §5.7:
    G and O count only active occupied tiles, and green needs G >= 1. With the only Goat
    member on an exhausted Goat tile, Cheese-making is refused (counting it would make
    G = 1, w = 1 <= O = 2); with one active occupied Goat tile the one wild must be the
    active Horse tile, not the exhausted occupied Wheat tile."""
    layout = {(1, 1): "B_HUNTING", (1, 2): "B_COOKING", (2, 2): "G_CHEESE"}
    worn = build(
        sequence=HAND_FIRST,
        boards=layout,
        stones={"B_COOKING": (0,)},
        players={0: {"tiles": "(0,0):GOAT*[1] (1,0):GOAT[0] (0,1):WHEAT[1] (-1,1):HORSE[1]"}},
    )
    worn = do(worn, "tile:0:achieve")
    assert "achieve:b_hunting:none" in keys(worn)
    assert not [k for k in keys(worn) if "g_cheese" in k]
    assert "you have 0 and 2 other" in refused(worn, "achieve:g_cheese:direct")

    wild = build(
        sequence=HAND_FIRST,
        boards=layout,
        stones={"B_COOKING": (0,)},
        players={0: {"tiles": "(0,0):GOAT[1] (1,0):WHEAT*[1] (0,1):HORSE[1]"}},
    )
    wild = do(wild, "tile:0:achieve", "achieve:g_cheese:direct")
    assert wild.phase is Phase.ACHIEVE_WILD and keys(wild) == ["wild:0,1"]
    assert "already exhausted" in refused(wild, "wild:1,0")
    wild = do(wild, "wild:0,1")
    assert slot_of(wild, "G_CHEESE").stones == (0,) and wild.players[0].vp == 4


def test_orange_needs_as_many_other_occupied_tiles_as_wilds() -> None:
    """§5.7 epochs 2-3: G >= 1 and w <= O. Fermenting needs 3 Wheat: with 1 Wheat and 1
    other occupied tile (w = 2 > O = 1) it is refused; with 2 Wheat (w = 1 = O) it is
    offered and the one wild is the Goat tile."""
    boards = {(1, 1): "B_COOKING", (2, 1): "G_AGRICULTURE", (3, 1): "O_FERMENTING"}
    stones = {"B_COOKING": (0,), "G_AGRICULTURE": (0,)}
    short = build(
        sequence=HAND_FIRST,
        boards=boards,
        stones=stones,
        players={0: {"tiles": "(0,0):WHEAT[1] (1,0):GOAT[1] (0,1):HORSE[0]"}},
    )
    short = do(short, "tile:0:achieve")
    assert not [k for k in keys(short) if "o_fermenting" in k]
    assert "needs 3 Wheat" in refused(short, "achieve:o_fermenting:direct")
    enough = build(
        sequence=HAND_FIRST,
        boards=boards,
        stones=stones,
        players={0: {"tiles": "(0,0):WHEAT[1] (1,0):GOAT[1] (0,1):WHEAT[1]"}},
    )
    enough = do(enough, "tile:0:achieve", "achieve:o_fermenting:direct")
    assert keys(enough) == ["wild:1,0"]


ARROW_BOARDS = {
    (1, 0): "B_HUNTING",
    (1, 1): "B_COOKING",
    (1, 2): "B_LEATHER",
    (2, 0): "G_TAMING",
    (2, 1): "G_AGRICULTURE",
    (3, 1): "O_CART",
}
WHEATS = "(0,0):WHEAT[1] (1,0):WHEAT[1] (0,1):GOAT[1]"


def _agriculture(
    stones: dict[str, tuple[int, ...]], arrows: tuple[Arrow, ...], own_arrow: bool
) -> State:
    """Seat 0 (two occupied Wheat tiles) aims at Agriculture (green column 1), which seat 2
    turned face up; Cooking below it never holds seat 0's stone, so there is no direct
    route. ``own_arrow`` False: seat 0's arrow already lies on Horse taming -> Wheeled cart."""
    everyone = {"B_COOKING": (2,), "G_AGRICULTURE": (2,), **stones}
    if not own_arrow:
        everyone["G_TAMING"] = (0,)
        arrows = (*arrows, Arrow(0, BoardCell(2, 0), BoardCell(3, 1)))
    state = build(
        sequence=HAND_FIRST,
        boards=ARROW_BOARDS,
        stones=everyone,
        players={
            0: {"tiles": WHEATS, "arrow": own_arrow},
            1: {"arrow": all(a.owner != 1 for a in arrows)},
        },
        arrows=arrows,
    )
    return do(state, "tile:0:achieve")


def _agriculture_keys(state: State) -> list[str]:
    return [k for k in keys(state) if "g_agriculture" in k]


def test_a_used_arrow_and_no_other_route_means_no_claim() -> None:
    """§5.7 new_arrow(S) needs "X's arrow is unused"; §8.10 one arrow per player per game.
    Seat 0 has a stone only on the diagonal source Hunting: with its arrow free it may lay
    it, with its arrow already used Agriculture is not offered at all."""
    free = _agriculture({"B_HUNTING": (0,)}, (), own_arrow=True)
    assert _agriculture_keys(free) == ["achieve:g_agriculture:new-arrow:b_hunting"]
    used = _agriculture({"B_HUNTING": (0,)}, (), own_arrow=False)
    assert not used.players[0].arrow_available
    assert _agriculture_keys(used) == []
    assert "your own arrow is used" in refused(used, "achieve:g_agriculture:new-arrow:b_hunting")


def test_an_arrow_from_another_source_is_no_route() -> None:
    """§5.7 existing_arrow: an arrow on a link S -> B counts only if X has a stone on S.
    Seat 1's arrow Leather-making -> Agriculture does not help seat 0, whose stone is on
    Hunting: seat 0 must lay its own arrow (then both links hold one, §8.10)."""
    theirs = Arrow(1, BoardCell(1, 2), BoardCell(2, 1))
    state = _agriculture({"B_HUNTING": (0,), "B_LEATHER": (1,)}, (theirs,), own_arrow=True)
    assert _agriculture_keys(state) == ["achieve:g_agriculture:new-arrow:b_hunting"]
    assert "new-arrow:b_hunting" in refused(state, "achieve:g_agriculture:existing-arrow")
    state = do(state, "achieve:g_agriculture:new-arrow:b_hunting")
    assert state.arrows == (theirs, Arrow(0, BoardCell(1, 0), BoardCell(2, 1)))
    used = _agriculture({"B_HUNTING": (0,), "B_LEATHER": (1,)}, (theirs,), own_arrow=False)
    assert _agriculture_keys(used) == []


def test_an_existing_arrow_needs_no_own_arrow_and_excludes_a_new_one() -> None:
    """§5.7: existing_arrow when an arrow lies on S -> B and X has a stone on S ("anyone may
    use them", §8.10), whatever X's own arrow; new_arrow(S') only when neither direct nor
    existing_arrow is available, so with stones on both diagonal sources and an arrow on
    one link, the other source is not offered."""
    theirs = Arrow(1, BoardCell(1, 0), BoardCell(2, 1))
    used = _agriculture({"B_HUNTING": (0, 1)}, (theirs,), own_arrow=False)
    assert _agriculture_keys(used) == ["achieve:g_agriculture:existing-arrow"]
    after = do(used, "achieve:g_agriculture:existing-arrow")
    assert slot_of(after, "G_AGRICULTURE").stones == (2, 0) and after.players[0].vp == 3
    assert after.arrows == used.arrows and not after.players[0].arrow_available

    both = _agriculture({"B_HUNTING": (0, 1), "B_LEATHER": (0,)}, (theirs,), own_arrow=True)
    assert _agriculture_keys(both) == ["achieve:g_agriculture:existing-arrow"]
    assert "existing-arrow" in refused(both, "achieve:g_agriculture:new-arrow:b_leather")
    after = do(both, "achieve:g_agriculture:existing-arrow")
    assert after.arrows == (theirs,) and after.players[0].arrow_available


@pytest.mark.parametrize("level", ["S0", "S2"])
def test_invaders_when_everyone_is_tied(level: str) -> None:
    """§3.6 EV3_INVADERS (STRONGEST: GAIN_VP 4; WEAKEST: LOSE_MEMBERS 2), §8.5: if every
    player is on the same Strength level the activator is both, and the clauses apply in
    order: +4 VP, then 2 members lost (an exhausted occupied tile may lose them, §5.2).
    Only the activator is affected."""
    tiles = "(0,0):GOAT[2] (1,0):WHEAT*[1] (0,1):GOLD[0]"
    state = build(
        sequence=f"EV3_INVADERS(0) {MOVE_FIRST}",
        players={
            0: {"tiles": tiles, "vp": 1, "levels": level},
            1: {"levels": level},
            2: {"levels": level},
        },
    )
    others = state.players[1:]
    state = do(state, "tile:0:event")
    assert state.players[0].vp == 5
    assert state.phase is Phase.EVENT_LOSE_MEMBER and state.pending is not None
    assert state.pending.left == 2 and keys(state) == ["lose:0,0", "lose:1,0"]
    state = do(state, "lose:1,0", "lose:0,0")
    assert state.players[0].on_board == 1 and state.players[0].reserve == 14
    assert state.players[1:] == others
    assert state.executed_orange == (Event.EV3_INVADERS,) and GAME.to_act(state) == (1,)


def test_epidemic_from_the_activator_clockwise_then_the_next_turn() -> None:
    """§3.6 EV3_EPIDEMIC (ALL: LOSE_MEMBERS 2), §5.8 step 2: every player from the
    activator clockwise, each k = min(2, members on the board - 1) LoseMember moves in a
    row. Activator seat 2 of 4: seat 2 loses 2, seat 3 (2 on the board) 1, seat 0 (1)
    is skipped, seat 1 loses 2; then seat 3 (after the activator) takes the next turn."""
    state = build(
        seats=4,
        current=2,
        sequence=f"EV3_EPIDEMIC(0) {MOVE_FIRST}",
        players={
            1: {"tiles": "(0,0):GOAT[3] (1,0):WHEAT[0] (0,1):GOLD[0]"},
            2: {"tiles": "(0,0):GOAT[2] (1,0):WHEAT[1] (0,1):GOLD[0]"},
            3: {"tiles": "(0,0):GOAT[1] (1,0):WHEAT*[1] (0,1):GOLD[0]"},
        },
    )
    state = do(state, "tile:0:event")
    deciders = []
    while state.phase is Phase.EVENT_LOSE_MEMBER:
        (seat,) = GAME.to_act(state)
        deciders.append(seat)
        if seat == 3:
            assert keys(state) == ["lose:0,0", "lose:1,0"]
        state = do(state, keys(state)[0])
    assert deciders == [2, 2, 3, 1, 1]
    assert [p.on_board for p in state.players] == [1, 1, 1, 1]
    assert [p.reserve for p in state.players] == [14, 14, 14, 14]
    assert state.executed_orange == (Event.EV3_EPIDEMIC,) and not state.end_triggered
    assert state.phase is Phase.TURN_CHOOSE_TILE and GAME.to_act(state) == (3,)


@pytest.mark.parametrize("seed", range(6))
def test_seat_bonus_with_two_and_three_players(seed: int) -> None:
    """§3.7 / §4 step 2 seat_bonus_vp: 1 VP for the 3rd and 4th players in turn order. With
    2 players nobody is 3rd, so nobody gets it; with 3 only the seat two places after the
    start player (whoever starts)."""
    two = new_game(GAME, 2, {"seat_bonus_vp": "on"}, seed)
    assert [p.vp for p in two.players] == [0, 0]
    three = new_game(GAME, 3, {"seat_bonus_vp": "on"}, seed)
    third = (three.start_player + 2) % 3
    assert [p.vp for p in three.players] == [1 if s == third else 0 for s in range(3)]


def test_seat_bonus_seeds_cover_every_start_player() -> None:
    """§4 step 1 (start player at random): the seeds of the seat-bonus test give every
    seat of 3 as the start player, so that test checks turn order, not seat numbers."""
    assert {new_game(GAME, 3, {}, seed).start_player for seed in range(6)} == {0, 1, 2}


def test_views_after_game_over_show_the_final_sheet_to_everyone() -> None:
    """§5.1 GAME_OVER: no decision pending, no seat to act; §6: at GAME_OVER every view
    shows every total; §7: a tie on total, shells and exhausted tiles is a shared win.
    2 players, start player 1: seat 0 is the last seat, so its second orange ends the game.
    Each: 5 bear teeth + 0 track VP + 2 (tied most members) + 2 (tied most land) = 9."""
    state = build(
        seats=2,
        start=1,
        current=0,
        sequence=GOLDEN_FIRST,
        players={0: {"vp": 3}, 1: {"vp": 5}},
        executed_orange=(Event.EV3_CONQUEST,),
    )
    state = do(state, "tile:0:event")
    assert state.final is not None and not state.capped
    for viewer in (0, 1, SPECTATOR):
        view = GAME.view(state, viewer)
        assert view.phase is Phase.GAME_OVER and view.game_over and view.end_triggered
        assert view.to_act == () and view.pending is None and view.orange_executed == 2
        assert [p.vp for p in view.players] == [5, 5]
        assert view.final_scores == state.final
        assert [s.total for s in view.final_scores] == [9, 9]
        assert [s.rank for s in view.final_scores] == [1, 1] and view.winners == (0, 1)
    assert all(GAME.legal_moves(state, seat) == () for seat in (0, 1))
    result = GAME.result(state)
    assert result is not None and result.ranks == (1, 1) and "share" in result.summary


def test_strength_scores_nothing_at_the_end() -> None:
    """§3.3, §7 step 1: P, E and M score 0/1/3/6 by level; Strength scores nothing."""
    state = build(seats=2, players={0: {"levels": "S6"}, 1: {"levels": "P3 E2 M1 S0"}})
    sheet = final_scores(state)
    assert [s.track_vp for s in sheet] == [0, 10]
    assert [s.total - s.most_members_vp - s.most_land_vp for s in sheet] == [0, 10]

"""The rules review of 2026-12-01 (spec §12, items 17-33): what no earlier test asserted.

Item 32 replaced the BAG_RESTORE reading of items 22, 24 and 29: a restore is offered
only in place of a land tile the bag cannot supply, inside the Explore or GAIN_LAND
clause that wanted it (§5.6.3). What the earlier tests already assert is not repeated
here (Ex 20 in ``test_examples``; the face-down board, the VP redaction and GAME_OVER
in ``test_api`` and ``test_rules``; the event counts of item 31 in ``test_data``).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import replace

import pytest

from tests.games.tribes_early_civilization.fixtures import build, do, keys, refused, slot_of, tile
from tests.games.tribes_early_civilization.support import perturb
from tribes.engine import SPECTATOR, MalformedMoveError
from tribes.engine.driver import new_game, play
from tribes.engine.rng import Rng
from tribes.games.tribes_early_civilization import GAME
from tribes.games.tribes_early_civilization.data import BOARDS, Board, Event, Terrain
from tribes.games.tribes_early_civilization.explain import explain_illegal
from tribes.games.tribes_early_civilization.moves import ChooseAchievement, parse_move
from tribes.games.tribes_early_civilization.state import (
    BoardView,
    Pending,
    Phase,
    Route,
    State,
)

MOVE_FIRST = "A_MOVE(0) A_PROCREATE(0) A_EXPLORE(0) A_MOVE_H(0) A_PROCREATE_H(0) A_EXPLORE_H(0)"
PROCREATE_FIRST = (
    "A_PROCREATE(0) A_MOVE(0) A_EXPLORE(0) A_MOVE_H(0) A_PROCREATE_H(0) A_EXPLORE_H(0)"
)
EXPLORE_FIRST = "A_EXPLORE(0) A_PROCREATE(0) A_MOVE(0) A_MOVE_H(0) A_PROCREATE_H(0) A_EXPLORE_H(0)"
HAND_FIRST = "A_EXPLORE_H(0) A_MOVE(0) A_PROCREATE(0) A_EXPLORE(0) A_MOVE_H(0) A_PROCREATE_H(0)"
#: Two exhausted empty tiles, (1,0) and (0,1), and an exhausted occupied one, (2,0).
WORN = "(0,0):GOAT[1] (1,0):WHEAT*[0] (0,1):GOLD*[0] (2,0):HORSE*[1]"


def _event_first(event: str, shells: int = 0) -> str:
    return f"{event}({shells}) {MOVE_FIRST}"


def _random_game(seats: int, seed: int, options: dict[str, str] | None = None) -> State:
    state = new_game(GAME, seats, options or {}, seed)
    chooser = Rng(seed)
    while GAME.result(state) is None:
        (seat,) = GAME.to_act(state)
        state = play(GAME, state, seat, chooser.choice(GAME.legal_moves(state, seat)))
    return state


# -- §6 views: items 17, 19, 20 ---------------------------------------------------------------


def test_spectator_view_is_exactly_what_every_seat_sees_of_the_others() -> None:
    """§6 view(None), §10 #21 (review 17, 20): no VP total, no applied VP loss, no RNG;
    its log is each seat's log without that seat's private lines; perturbing anything
    hidden (boards, stack order, every VP, private log lines, RNG) changes nothing."""
    state = build(
        sequence=_event_first("EV1_BEAR"),
        players={0: {"vp": 1}, 1: {"levels": "S1", "vp": 9}, 2: {"levels": "S1", "vp": 4}},
    )
    state = do(state, "tile:0:event")  # P0 is weakest: loses 2 nominal, 1 applied
    spectator = GAME.view(state, SPECTATOR)
    assert [p.vp for p in spectator.players] == [None, None, None]
    assert str(state.rng) not in repr(spectator)
    assert not any("lost" in line.text for line in spectator.log)
    assert any(line.text == "Cave bear: seat 0 loses 2 VP" for line in spectator.log)
    for seat in range(3):
        seen = GAME.view(state, seat)
        assert [p.vp for p in seen.players] == [
            p.vp if s == seat else None for s, p in enumerate(state.players)
        ]
        assert [(line.turn, line.seat, line.text) for line in seen.log if line.seat != seat] == [
            (line.turn, line.seat, line.text) for line in spectator.log if line.seat != seat
        ]
    assert any("(1 lost" in line.text for line in GAME.view(state, 0).log)
    for seed in range(5):
        assert GAME.view(perturb(state, SPECTATOR, Rng(seed)), SPECTATOR) == spectator


def test_removed_and_face_down_boards_stay_unlisted_at_game_over() -> None:
    """§4 step 5, §6 table (review 18, 19): no view lists a removed board, also not at
    GAME_OVER; boards still face down stay {epoch, column, face_up: false}; stacks are
    counts only."""
    final = _random_game(2, 8, {"turn_cap": "30"})
    assert final.final is not None
    down = [slot for slot in final.grid if not slot.face_up]
    assert down, "the short game leaves boards face down"
    for viewer in (SPECTATOR, 0, 1):
        view = GAME.view(final, viewer)
        text = repr(view)
        for board in (*final.removed_boards, *(slot.board for slot in down)):
            assert f"Board.{board.name}:" not in text and BOARDS[board].name not in text
        for slot in down:
            assert view.boards[(slot.epoch - 1) * 4 + slot.column] == BoardView(
                slot.epoch, slot.column, False, None
            )
        assert [s.count for s in view.event_stacks] == [len(s) for s in final.event_stacks]


# -- §5.8: an event that affects nobody, items 21 and 30 ----------------------------------------


@pytest.mark.parametrize(
    ("event", "tiles"),
    [
        ("EV3_WAR", "(0,0):GOAT[1] (1,0):WHEAT[0] (0,1):GOLD[0]"),  # lose 4 VP at 0 VP
        ("EV3_FAMINE", "(0,0):GOAT[1] (1,0):WHEAT*[0] (0,1):GOLD[1]"),  # k = 0 tiles
    ],
)
def test_an_orange_clause_that_changes_nothing_still_uses_and_counts(
    event: str, tiles: str
) -> None:
    """§5.8 closing paragraph, §10 #10 (review 21, 30): the weakest activator's clause
    applies but changes nothing; the turn is used, the shells are kept, the tile leaves
    the row, is executed and triggers the end (2 players: the second orange)."""
    state = build(
        seats=2,
        sequence=_event_first(event, shells=2),
        players={0: {"tiles": tiles, "shells": 0}, 1: {"levels": "S1"}},
        executed_orange=(Event.EV3_CONQUEST,),
    )
    before = state.players[0]
    state = do(state, "tile:0:event")
    after = state.players[0]
    assert after.vp == 0 and after.tiles == before.tiles and after.shells == 2
    assert all(t.event is None for t in state.sequence)
    assert state.executed_orange == (Event.EV3_CONQUEST, Event[event])
    assert state.end_triggered and GAME.result(state) is None
    assert state.phase is Phase.TURN_CHOOSE_TILE and GAME.to_act(state) == (1,)


def test_a_vp_loss_at_zero_reads_the_same_to_others_as_a_full_loss() -> None:
    """§3.6 LOSE_VP, §8.6 (review 20, 30): other seats and spectators read the nominal
    text whether the floor cut the loss to 0 or not; only the loser reads the amount."""
    seen = {}
    for vp in (0, 9):
        state = build(
            seats=2, sequence=_event_first("EV3_WAR"), players={0: {"vp": vp}, 1: {"levels": "S1"}}
        )
        state = do(state, "tile:0:event")
        assert state.players[0].vp == max(0, vp - 4)
        seen[vp] = state
    for viewer in (1, SPECTATOR):
        assert GAME.view(seen[0], viewer).log == GAME.view(seen[9], viewer).log
    own = {vp: [line.text for line in GAME.view(s, 0).log] for vp, s in seen.items()}
    assert any("(0 lost" in text for text in own[0])
    assert any("(4 lost)" in text for text in own[9])


# -- §5.6 the empty bag: items 23, 27, 32 (and 22, 24, 29 as replaced by 32) --------------------


def test_gain_land_on_an_empty_bag_offers_a_restore_per_missing_tile() -> None:
    """§3.6 GAIN_LAND, §5.6.3, §5.8 step 3, §8.12 (review 32): Scouts wants 1 tile; the
    empty bag gives none, so its activator may restore 1 exhausted empty tile inside
    the event; the phase ends by itself when the one restore is used, then the event."""
    state = build(
        sequence=_event_first("EV1_SCOUTS"), players={0: {"tiles": WORN, "levels": "S1"}}, bag={}
    )
    state = do(state, "tile:0:event", invariants=False)
    assert state.phase is Phase.EXPLORE_RESTORE and state.event is Event.EV1_SCOUTS
    assert state.pending is not None and state.pending.left == 1
    assert GAME.to_act(state) == (0,)
    assert keys(state) == ["end-explore", "restore:0,1", "restore:1,0"]
    public = GAME.view(state, SPECTATOR).pending
    assert public is not None and (public.phase, public.decider, public.left) == (
        Phase.EXPLORE_RESTORE,
        0,
        1,
    )
    state = do(state, "restore:1,0", invariants=False)
    restored = tile(state, 0, 1, 0)
    assert (restored.terrain, restored.exhausted, restored.members) == (Terrain.WHEAT, False, 0)
    assert tile(state, 0, 0, 1).exhausted and tile(state, 0, 2, 0).exhausted
    assert len(state.players[0].tiles) == 4 and sum(state.bag) == 0
    assert state.boxed_events == (Event.EV1_SCOUTS,) and state.event is None
    assert state.phase is Phase.TURN_CHOOSE_TILE and GAME.to_act(state) == (1,)


def test_gain_land_short_draw_places_then_restores_for_the_rest() -> None:
    """§5.6.1-§5.6.3 (review 23, 32): Settlers wants 2, the bag holds 1: the tile drawn
    must be placed (no EndExplore then), and 1 restore is offered for the missing one;
    EndExplore declines it and the event ends."""
    state = build(
        sequence=_event_first("EV2_SETTLERS"),
        players={0: {"tiles": WORN, "levels": "S1"}},
        bag={"GOAT": 1},
    )
    state = do(state, "tile:0:event", invariants=False)
    assert state.phase is Phase.EXPLORE_PLACE and state.pending is not None
    assert state.pending.left == 1 and state.pending.shortfall == 1
    assert "end-explore" not in keys(state)
    refused(state, "end-explore")
    state = do(state, "land:goat:-1,0", invariants=False)
    assert tile(state, 0, -1, 0).terrain is Terrain.GOAT and sum(state.bag) == 0
    assert state.phase is Phase.EXPLORE_RESTORE and state.pending is not None
    assert state.pending.left == 1 and GAME.to_act(state) == (0,)
    state = do(state, "end-explore", invariants=False)
    assert tile(state, 0, 1, 0).exhausted and tile(state, 0, 0, 1).exhausted
    assert state.boxed_events == (Event.EV2_SETTLERS,) and GAME.to_act(state) == (1,)


def test_gain_land_with_nothing_to_draw_or_restore_does_nothing() -> None:
    """§5.6.1, §5.8 closing paragraph (review 23, 30): d = 0 and no exhausted empty tile:
    no decision at all; the event still used the turn and goes to the box."""
    tiles = "(0,0):GOAT[1] (1,0):WHEAT[0] (0,1):GOLD*[1]"
    state = build(
        sequence=_event_first("EV1_SCOUTS", shells=1),
        players={0: {"tiles": tiles, "levels": "S1", "shells": 2}},
        bag={},
    )
    before = state.players[0].tiles
    state = do(state, "tile:0:event", invariants=False)
    assert state.players[0].tiles == before and state.players[0].shells == 3
    assert state.boxed_events == (Event.EV1_SCOUTS,)
    assert state.phase is Phase.TURN_CHOOSE_TILE and GAME.to_act(state) == (1,)


@pytest.mark.parametrize(
    ("sequence", "moves", "levels"),
    [
        (PROCREATE_FIRST, ("tile:0:action", "member:0,0"), ""),
        (_event_first("EV1_BERRIES"), ("tile:0:event",), ""),
        (_event_first("EV1_SCOUTS"), ("tile:0:event",), "S0"),  # not strongest: no draw
        (HAND_FIRST, ("tile:0:achieve", "achieve:b_hunting:none"), ""),
    ],
    ids=["procreate", "event", "gain-land-not-applied", "achieve"],
)
def test_no_restore_on_a_turn_without_a_missing_draw(
    sequence: str, moves: tuple[str, ...], levels: str
) -> None:
    """§5.6.3, §8.2 (review 32, replacing 22/29's BAG_RESTORE): with the bag empty and a
    restorable tile, a turn without an Explore or GAIN_LAND draw restores nothing."""
    state = build(
        sequence=sequence,
        boards={(1, 0): "B_HUNTING"},
        players={
            0: {"tiles": "(0,0):HORSE[1] (1,0):WHEAT*[0] (0,1):GOLD[0]", "levels": levels},
            1: {"levels": "S1" if levels else ""},
        },
        bag={},
    )
    state = do(state, *moves, invariants=False)
    assert state.phase is Phase.TURN_CHOOSE_TILE and GAME.to_act(state) == (1,)
    assert tile(state, 0, 1, 0).exhausted


def test_the_end_of_turn_restore_phase_is_gone() -> None:
    """§5.1, §5.2 (review 32): phase BAG_RESTORE and move EndRestore were removed."""
    assert "BAG_RESTORE" not in Phase.__members__
    with pytest.raises(MalformedMoveError):
        parse_move("end-restore")


def test_gain_land_draws_uniformly_from_the_seeded_rng() -> None:
    """§6 random processes (review 27): a GAIN_LAND draw, like an Explore's, comes from
    the state's RNG: replayable, advancing it, without replacement, and both of two
    tiles left in the bag are drawn about equally often."""
    state = build(sequence=_event_first("EV2_SETTLERS"), players={0: {"levels": "S1"}})
    drawn = do(state, "tile:0:event")
    assert drawn.pending is not None and sum(drawn.pending.drawn) == 2
    assert [b - a for b, a in zip(state.bag, drawn.bag, strict=True)] == list(drawn.pending.drawn)
    assert drawn.rng != state.rng
    assert GAME.encode(do(state, "tile:0:event")) == GAME.encode(drawn)
    scouts = build(
        sequence=_event_first("EV1_SCOUTS"),
        players={0: {"levels": "S1"}},
        bag={"GOAT": 1, "HORSE": 1},
    )
    counts: Counter[int] = Counter()
    for seed in range(200):
        after = do(replace(scouts, rng=Rng(seed).next_u64()), "tile:0:event", invariants=False)
        assert after.pending is not None and sum(after.pending.drawn) == 1
        counts[after.pending.drawn.index(1)] += 1
    assert set(counts) == {Terrain.GOAT, Terrain.HORSE}
    assert min(counts.values()) >= 70


# -- §7 tie-break: item 25 ------------------------------------------------------------------------


def test_tie_break_counts_tiles_exhausted_at_game_end() -> None:
    """§7, §10 #20 (review 25): fewest tiles exhausted *at game end*; a tile P0 restored
    no longer counts, so P0 beats P1 (1 exhausted) on equal VP and shells. Counting
    every exhaustion of the game would tie them."""
    state = build(
        seats=2,
        sequence=EXPLORE_FIRST,
        players={
            0: {"tiles": "(0,0):GOAT[1] (1,0):WHEAT[0] (0,1):GOLD*[0]"},
            1: {"tiles": "(0,0):GOAT[1] (1,0):WHEAT[0] (0,1):GOLD[0] (2,0):HORSE*[0]"},
        },
        bag={},
        options={"turn_cap": "1"},
    )
    state = do(state, "tile:0:action", "restore:0,1", invariants=False)
    assert state.final is not None and state.capped
    assert [s.total for s in state.final] == [4, 4]
    assert [s.shells for s in state.final] == [5, 5]
    assert [s.exhausted for s in state.final] == [0, 1]
    assert [s.rank for s in state.final] == [1, 2]


# -- §8.8 a full board: item 26 -------------------------------------------------------------------


def test_a_full_board_is_never_why_a_claim_fails() -> None:
    """§8.8 (review 26): with 4 players the 4th stone fills Hunting's last space; after
    that every seat is refused for holding a stone there, not for a full board."""
    horse = "(0,0):HORSE[1] (1,0):WHEAT[0] (0,1):GOLD[0]"
    state = build(
        seats=4,
        sequence=HAND_FIRST,
        boards={(1, 0): "B_HUNTING"},
        stones={"B_HUNTING": (1, 2, 3)},
        players={seat: {"tiles": horse} for seat in range(4)},
    )
    state = do(state, "tile:0:achieve")
    assert "achieve:b_hunting:none" in keys(state)
    state = do(state, "achieve:b_hunting:none")
    assert slot_of(state, "B_HUNTING").stones == (1, 2, 3, 0)
    assert state.players[0].vp == BOARDS[Board.B_HUNTING].space_vp[3] == 1
    claim = ChooseAchievement(Board.B_HUNTING, Route.NONE)
    for seat in range(4):
        asking = replace(state, current=seat, pending=Pending(Phase.ACHIEVE_SELECT, seat))
        assert claim not in GAME.legal_moves(asking, seat)
        reason = explain_illegal(asking, seat, claim)
        assert "already completed" in reason and "no empty space" not in reason


# -- §5.1 / §5.11: item 33 ------------------------------------------------------------------------


def test_setup_placements_are_not_turns() -> None:
    """§5.11, §5.9 step 4 (review 33): round 1 and turn_count 0 at the first turn, after
    every first member is placed; the first completed turn makes it 1."""
    state = new_game(GAME, 3, {}, 5)
    for _ in range(3):
        state = do(state, keys(state)[0])
    assert state.phase is Phase.TURN_CHOOSE_TILE
    assert (state.round, state.turn_count) == (1, 0)
    view = GAME.view(state, SPECTATOR)
    assert (view.round, view.turn_count) == (1, 0)
    (seat,) = GAME.to_act(state)
    while GAME.to_act(state) == (seat,):
        state = do(state, keys(state)[0])
    assert (state.round, state.turn_count) == (1, 1)

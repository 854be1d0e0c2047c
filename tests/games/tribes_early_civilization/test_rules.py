"""Rules by phase and the edge cases of spec §8: setup (§4), the action row (§5.3), the
actions (§5.4-§5.6), achievements (§5.7), events (§5.8), the end (§5.9, §7)."""

from __future__ import annotations

from collections import Counter
from dataclasses import replace

import pytest

from tests.games.tribes_early_civilization.fixtures import build, do, keys, slot_of, tile
from tribes.engine import BadOptionsError, GameFinishedError
from tribes.engine.driver import find_move, new_game, play
from tribes.games.tribes_early_civilization import GAME
from tribes.games.tribes_early_civilization.data import BOARDS, Event, Terrain, Track
from tribes.games.tribes_early_civilization.invariants import check_invariants
from tribes.games.tribes_early_civilization.moves import parse_move
from tribes.games.tribes_early_civilization.rules.scoring import final_scores
from tribes.games.tribes_early_civilization.state import Phase, RowKind, State

HAND_FIRST = "A_EXPLORE_H(0) A_MOVE(0) A_PROCREATE(0) A_EXPLORE(0) A_MOVE_H(0) A_PROCREATE_H(0)"
PROCREATE_FIRST = (
    "A_PROCREATE(0) A_MOVE(0) A_EXPLORE(0) A_MOVE_H(0) A_PROCREATE_H(0) A_EXPLORE_H(0)"
)
MOVE_FIRST = "A_MOVE(0) A_PROCREATE(0) A_EXPLORE(0) A_MOVE_H(0) A_PROCREATE_H(0) A_EXPLORE_H(0)"
EXPLORE_FIRST = "A_EXPLORE(0) A_PROCREATE(0) A_MOVE(0) A_MOVE_H(0) A_PROCREATE_H(0) A_EXPLORE_H(0)"


def _event_first(event: str) -> str:
    return f"{event}(0) {MOVE_FIRST}"


# -- setup (§4) ---------------------------------------------------------------------------


@pytest.mark.parametrize("seats", [2, 3, 4])
def test_setup_pieces_boards_stacks_and_row(seats: int) -> None:
    """§4: pieces, tracks, 4 boards per epoch (brown up), stacks of 8, a bare action row."""
    state = new_game(GAME, seats, {}, 42)
    for player in state.players:
        assert (player.reserve, player.shells, player.vp) == (15, 5, 0)
        assert player.arrow_available and player.levels == (0, 0, 0, 0)
    assert [s.face_up for s in state.grid] == [True] * 4 + [False] * 8
    assert [BOARDS[b].epoch for b in state.removed_boards] == [1, 2, 3]
    assert [len(stack) for stack in state.event_stacks] == [8, 8, 8]
    assert len(state.sequence) == 6 and all(t.kind is RowKind.ACTION for t in state.sequence)
    assert all(t.shells == 0 for t in state.sequence)
    assert state.round == 1 and state.turn_count == 0
    assert state.phase is Phase.SETUP_FIRST_MEMBER and GAME.to_act(state) == (state.start_player,)
    check_invariants(state)


@pytest.mark.parametrize("seed", range(6))
def test_starting_territories_hold_three_different_resources(seed: int) -> None:
    """§4 step 7: three different types on the triangle; duplicates went back to the bag."""
    state = new_game(GAME, 4, {}, seed)
    for player in state.players:
        cells = [(t.hex.q, t.hex.r) for t in player.tiles]
        assert cells == [(0, 0), (1, 0), (0, 1)]
        assert len({t.terrain for t in player.tiles}) == 3
        assert not any(t.exhausted or t.members for t in player.tiles)
    assert sum(state.bag) == 50 - 12


def test_first_members_in_turn_order_then_the_start_player_plays() -> None:
    """§4 steps 8-9: each player places one member, clockwise from the start player."""
    state = new_game(GAME, 3, {}, 5)
    start = state.start_player
    order = []
    for _ in range(3):
        (seat,) = GAME.to_act(state)
        order.append(seat)
        assert len(keys(state)) == 3
        state = do(state, keys(state)[1])
    assert order == [start, (start + 1) % 3, (start + 2) % 3]
    assert [p.on_board for p in state.players] == [1, 1, 1]
    assert [p.reserve for p in state.players] == [14, 14, 14]
    assert state.phase is Phase.TURN_CHOOSE_TILE and GAME.to_act(state) == (start,)


def test_seat_bonus_for_the_third_and_fourth_in_turn_order() -> None:
    """§3.7 option seat_bonus_vp: the 3rd and 4th players in turn order start with 1 VP."""
    state = new_game(GAME, 4, {"seat_bonus_vp": "on"}, 9)
    start = state.start_player
    vp = [state.players[(start + i) % 4].vp for i in range(4)]
    assert vp == [0, 0, 1, 1]
    assert [p.vp for p in new_game(GAME, 4, {}, 9).players] == [0, 0, 0, 0]


@pytest.mark.parametrize(
    ("seats", "options"),
    [
        (1, {}),
        (5, {}),
        (3, {"colour": "red"}),
        (3, {"turn_cap": "0"}),
        (3, {"turn_cap": "-5"}),
        (3, {"turn_cap": "many"}),
        (3, {"turn_cap": "10001"}),
        (3, {"turn_cap": "\uff10"}),  # a full-width zero is not an ASCII number
        (3, {"seat_bonus_vp": "maybe"}),
        (3, {"hide_opponent_vp": "yes"}),
    ],
)
def test_bad_seat_counts_and_options_are_refused(seats: int, options: dict[str, str]) -> None:
    """Options are validated by the driver and by new_game itself (BadOptionsError)."""
    with pytest.raises(BadOptionsError):
        new_game(GAME, seats, options, 1)
    with pytest.raises(BadOptionsError):
        GAME.new_game(seats, options, 1)


def test_options_defaults() -> None:
    """§5.11 config: no seat bonus, VP hidden, turn cap 400."""
    config = new_game(GAME, 2, {}, 1).config
    assert (config.seat_bonus_vp, config.hide_opponent_vp, config.turn_cap) == (False, True, 400)
    assert config.end_threshold == 2


# -- the action sequence (§5.3) -----------------------------------------------------------


def test_modes_fit_the_tile() -> None:
    """§5.2: an event tile is taken only as an event; achieve only on hand tiles."""
    state = build(
        sequence=f"EV1_BERRIES(0) {HAND_FIRST}",
        players={0: {"tiles": "(0,0):HORSE[1] (1,0):WHEAT[0] (0,1):GOLD[0]"}},
        boards={(1, 0): "B_HUNTING"},
    )
    legal = keys(state)
    assert "tile:0:event" in legal and "tile:0:action" not in legal
    assert "tile:1:achieve" in legal and "tile:1:action" in legal
    assert "tile:2:achieve" not in legal  # A_MOVE has no hand
    assert all(not k.endswith(":event") for k in legal[1:] if not k.startswith("tile:0"))


def test_no_achieve_mode_without_a_claim() -> None:
    """§5.2: no achieve mode without a legal claim (an exhausted tile is no wild either)."""
    tiles = "(0,0):GOAT[0] (1,0):WHEAT[0] (0,1):GOLD[0] (2,0):INCENSE*[1]"
    state = build(sequence=HAND_FIRST, players={0: {"tiles": tiles}})
    assert not [k for k in keys(state) if k.endswith(":achieve")]
    why = GAME.explain_illegal(state, 0, parse_move("tile:0:achieve"))  # type: ignore[misc]
    assert "cannot complete any achievement" in why
    active = build(sequence=HAND_FIRST, players={0: {"tiles": tiles.replace("*", "")}})
    assert "tile:0:achieve" in keys(active)  # one occupied tile: any other brown by a wild


def test_skipped_event_tiles_take_a_shell_too() -> None:
    """§5.3 / seed: a player may skip an event tile by placing a shell on it."""
    state = build(sequence=f"EV1_BEAR(0) {MOVE_FIRST}")
    state = do(state, "tile:1:action", "end-move")
    assert state.sequence[0].event is Event.EV1_BEAR and state.sequence[0].shells == 1


# -- Procreate, Move, Explore (§5.4-§5.6, §8.1, §8.2, §8.15) -------------------------------


def test_reserve_running_out_part_way_gives_relocations() -> None:
    """§5.4 INTERPRETATION: value 3, reserve 1: one placement, then up to 2 relocations."""
    tiles = "(0,0):GOAT[12] (1,0):WHEAT[2] (0,1):GOLD[0]"
    state = build(sequence=PROCREATE_FIRST, players={0: {"tiles": tiles, "levels": "P2"}})
    state = do(state, "tile:0:action")
    assert state.pending is not None and (state.pending.left, state.pending.relocations) == (1, 2)
    state = do(state, "member:1,0")
    assert state.phase is Phase.PROCREATE_RELOCATE and state.pending is not None
    assert state.pending.left == 2
    assert keys(state) == ["end-relocate", "relocate:0,0:1,0", "relocate:1,0:0,0"]


def test_empty_reserve_with_one_occupied_tile_does_nothing() -> None:
    """§5.1: no relocation is possible with one occupied tile: the turn just ends."""
    state = build(
        sequence=PROCREATE_FIRST,
        players={0: {"tiles": "(0,0):GOAT[15] (1,0):WHEAT[0] (0,1):GOLD[0]"}},
    )
    state = do(state, "tile:0:action")
    assert GAME.to_act(state) == (1,) and state.sequence[-1].action is not None


def test_new_members_may_go_onto_exhausted_occupied_tiles() -> None:
    """§8.15: a tile counts as occupied whether active or exhausted."""
    state = build(
        sequence=PROCREATE_FIRST,
        players={0: {"tiles": "(0,0):GOAT*[1] (1,0):WHEAT[0] (0,1):GOLD[0]"}},
    )
    state = do(state, "tile:0:action")
    assert keys(state) == ["member:0,0"]


def test_move_may_end_early_and_enter_exhausted_tiles() -> None:
    """§5.5: steps onto exhausted tiles; one member may take several steps; EndMove."""
    tiles = "(0,0):GOAT[1] (1,0):WHEAT*[0] (0,1):GOLD[0] (2,0):HORSE[0]"
    state = build(sequence=MOVE_FIRST, players={0: {"tiles": tiles, "levels": "M2"}})
    state = do(state, "tile:0:action", "step:0,0:1,0", "step:1,0:2,0")
    assert tile(state, 0, 2, 0).members == 1 and state.pending is not None
    assert state.pending.left == 1 and "end-move" in keys(state)
    state = do(state, "end-move")
    assert GAME.to_act(state) == (1,)


def test_a_full_draw_that_empties_the_bag_gives_no_restore() -> None:
    """§8.2: no restore when the bag supplies the whole draw, even if that empties it."""
    tiles = "(0,0):GOAT[1] (1,0):WHEAT[0] (0,1):GOLD*[0]"
    state = build(sequence=EXPLORE_FIRST, players={0: {"tiles": tiles}}, bag={"HORSE": 1})
    state = do(state, "tile:0:action", invariants=False)
    state = do(state, "land:horse:2,0", invariants=False)
    assert sum(state.bag) == 0 and GAME.to_act(state) == (1,)


def test_empty_bag_and_nothing_to_restore_explore_does_nothing() -> None:
    """§5.6.1: d = 0 and no eligible tile: the Explore does nothing."""
    state = build(sequence=EXPLORE_FIRST, bag={})
    state = do(state, "tile:0:action", invariants=False)
    assert GAME.to_act(state) == (1,) and len(state.players[0].tiles) == 3


# -- achievements (§5.7, §8.8-§8.11) --------------------------------------------------------


def test_one_stone_per_player_per_board() -> None:
    """§5.7: once X has a stone on a board, that board is not offered to X again."""
    state = build(
        sequence=HAND_FIRST,
        boards={(1, 0): "B_HUNTING"},
        stones={"B_HUNTING": (0,)},
        players={0: {"tiles": "(0,0):HORSE[1] (1,0):HORSE[1] (0,1):GOLD[0]"}},
    )
    state = do(state, "tile:0:achieve")
    assert "achieve:b_hunting:none" not in keys(state)


def test_face_down_board_is_no_target_even_for_an_arrow() -> None:
    """§8.9: a green board is completed (and arrowed into) only once face up."""
    state = build(
        sequence=HAND_FIRST,
        boards={(1, 0): "B_COOKING", (2, 1): "G_CHEESE"},
        stones={"B_COOKING": (0,)},
        players={0: {"tiles": "(0,0):GOAT[1] (1,0):GOAT[1] (0,1):WHEAT[1]"}},
    )
    assert not slot_of(state, "G_CHEESE").face_up
    state = do(state, "tile:0:achieve")
    assert not [k for k in keys(state) if "g_cheese" in k]


def test_both_arrow_sources_are_offered_and_mirrored_arrows_allowed() -> None:
    """§5.7: new_arrow has a variant per diagonal source; §8.10: c->c+1 and c+1->c coexist."""
    state = build(
        sequence=HAND_FIRST,
        boards={
            (1, 0): "B_HUNTING",
            (1, 1): "B_COOKING",
            (1, 2): "B_LEATHER",
            (2, 0): "G_TAMING",
            (2, 1): "G_AGRICULTURE",
            (2, 2): "G_CHEESE",
        },
        stones={
            "B_HUNTING": (0, 1),
            "B_COOKING": (2,),
            "B_LEATHER": (0, 1),
            "G_TAMING": (0,),
            "G_CHEESE": (0,),
        },
        players={0: {"tiles": "(0,0):WHEAT[1] (1,0):WHEAT[1] (0,1):GOAT[1]"}},
    )
    state = do(state, "tile:0:achieve")
    agriculture = [k for k in keys(state) if "g_agriculture" in k]
    assert agriculture == [
        "achieve:g_agriculture:new-arrow:b_hunting",
        "achieve:g_agriculture:new-arrow:b_leather",
    ]
    state = do(state, "achieve:g_agriculture:new-arrow:b_leather")
    assert [(a.source.column, a.target.column) for a in state.arrows] == [(2, 1)]


def test_wild_tiles_of_the_required_type_are_not_offered() -> None:
    """§10 #14: only occupied active tiles of another type may be exhausted as wilds."""
    state = build(
        sequence=HAND_FIRST,
        boards={(1, 2): "B_COOKING", (2, 2): "G_CHEESE"},
        stones={"B_COOKING": (0,)},
        players={0: {"tiles": "(0,0):GOAT[1] (1,0):HORSE[1] (0,1):GOLD[1] (2,0):GOAT*[1]"}},
    )
    state = do(state, "tile:0:achieve", "achieve:g_cheese:direct")
    assert keys(state) == ["wild:0,1", "wild:1,0"]


def test_advances_beyond_the_track_maximum_are_lost() -> None:
    """§3.3: the marker stays at the maximum."""
    state = build(
        sequence=HAND_FIRST,
        boards={(1, 0): "B_COOKING"},
        players={0: {"tiles": "(0,0):WHEAT[1] (1,0):GOAT[0] (0,1):GOLD[0]", "levels": "P3"}},
    )
    state = do(state, "tile:0:achieve", "achieve:b_cooking:none")
    assert state.players[0].levels[Track.PROCREATION] == 3 and state.players[0].vp == 2


def test_lightning_on_an_empty_stack_reveals_nothing() -> None:
    """§8.7: nothing is revealed when the epoch's stack is empty."""
    state = build(
        sequence=HAND_FIRST,
        boards={(1, 0): "B_COOKING"},
        players={0: {"tiles": "(0,0):WHEAT[1] (1,0):GOAT[0] (0,1):GOLD[0]"}},
    )
    brown = state.event_stacks[0]
    state = replace(state, event_stacks=((), *state.event_stacks[1:]), boxed_events=brown)
    state = do(state, "tile:0:achieve", "achieve:b_cooking:none")
    assert not any(t.kind is RowKind.EVENT for t in state.sequence)
    assert slot_of(state, "B_COOKING").stones == (0,)


def test_only_the_first_stone_turns_the_board_above() -> None:
    """§5.7 step 6: the green board turns with the first stone below it."""
    state = build(
        sequence=HAND_FIRST,
        boards={(1, 0): "B_COOKING", (2, 0): "G_RITES"},
        players={0: {"tiles": "(0,0):WHEAT[1] (1,0):GOAT[0] (0,1):GOLD[0]"}},
    )
    state = do(state, "tile:0:achieve", "achieve:b_cooking:none")
    assert slot_of(state, "G_RITES").face_up
    assert any("Burial rites is turned face up" in e.text for e in state.log)


# -- events (§5.8, §8.3-§8.6, §8.12) --------------------------------------------------------


def test_tied_strongest_without_the_activator_affects_nobody() -> None:
    """§8.5: strongest clauses test the activator only."""
    state = build(
        sequence=_event_first("EV1_MAMMOTH"),
        players={0: {"levels": "S1"}, 1: {"levels": "S3"}, 2: {"levels": "S3"}},
    )
    before = [p.reserve for p in state.players]
    state = do(state, "tile:0:event")
    assert [p.reserve for p in state.players] == before and GAME.to_act(state) == (1,)


def test_gain_members_with_a_short_reserve() -> None:
    """§3.6 GAIN_MEMBERS: k = min(n, reserve); nothing with an empty reserve (§8.1)."""
    full = "(0,0):GOAT[14] (1,0):WHEAT[0] (0,1):GOLD[0]"
    state = build(
        sequence=_event_first("EV2_HARVEST"), players={0: {"tiles": full, "levels": "S1"}}
    )
    state = do(state, "tile:0:event")
    assert state.phase is Phase.EVENT_PLACE_MEMBER and state.pending is not None
    assert state.pending.left == 1
    state = do(state, "member:0,0")
    assert state.players[0].reserve == 0 and GAME.to_act(state) == (1,)
    empty = "(0,0):GOAT[15] (1,0):WHEAT[0] (0,1):GOLD[0]"
    state = build(
        sequence=_event_first("EV2_HARVEST"), players={0: {"tiles": empty, "levels": "S1"}}
    )
    assert GAME.to_act(do(state, "tile:0:event")) == (1,)


def test_gain_land_explores_inside_the_event() -> None:
    """§3.6 GAIN_LAND: the strongest activator draws and places n tiles, then the event ends."""
    state = build(sequence=_event_first("EV2_SETTLERS"), players={0: {"levels": "S2"}})
    state = do(state, "tile:0:event")
    assert state.phase is Phase.EXPLORE_PLACE and state.pending is not None
    assert state.pending.left == 2 and state.event is Event.EV2_SETTLERS
    state = do(state, keys(state)[0])
    state = do(state, keys(state)[0])
    assert len(state.players[0].tiles) == 5
    assert state.boxed_events == (Event.EV2_SETTLERS,) and GAME.to_act(state) == (1,)


def test_vp_loss_is_floored_and_only_the_loser_reads_the_applied_amount() -> None:
    """§3.6 LOSE_VP, §8.6: 1 VP - 2 = 0; others see only the nominal loss."""
    state = build(
        sequence=_event_first("EV1_BEAR"),
        players={0: {"vp": 1}, 1: {"levels": "S1"}, 2: {"levels": "S1"}},
    )
    state = do(state, "tile:0:event")
    assert state.players[0].vp == 0
    mine = [line.text for line in GAME.view(state, 0).log if "Cave bear" in line.text]
    theirs = [line.text for line in GAME.view(state, 1).log if "Cave bear" in line.text]
    public = [line.text for line in GAME.view(state, -1).log if "Cave bear" in line.text]
    assert any("1 lost" in text for text in mine)
    assert not any("lost" in text for text in theirs + public)
    assert any("loses 2 VP" in text for text in theirs)


def test_all_tribes_exhaust_skips_players_without_empty_tiles() -> None:
    """§3.6 EXHAUST_UNOCCUPIED, §8.4: k = min(n, empty active tiles), possibly 0."""
    covered = "(0,0):GOAT[1] (1,0):WHEAT[1] (0,1):GOLD[1]"
    state = build(sequence=_event_first("EV2_DROUGHT"), players={1: {"tiles": covered}})
    state = do(state, "tile:0:event")
    deciders = []
    while state.phase is Phase.EVENT_EXHAUST:
        deciders.append(GAME.to_act(state)[0])
        state = do(state, keys(state)[0])
    assert deciders == [0, 2]


def test_orange_event_without_effect_still_counts_and_can_end_the_game() -> None:
    """§5.8, §10 #10: an orange event that affects nobody is executed and counts."""
    state = build(
        seats=2,
        sequence=_event_first("EV3_WAR"),
        current=1,
        players={0: {"levels": "S0"}, 1: {"levels": "S2", "vp": 7}},
        executed_orange=(Event.EV3_CONQUEST,),
    )
    state = do(state, "tile:0:event")
    assert state.players[1].vp == 7
    assert state.executed_orange == (Event.EV3_CONQUEST, Event.EV3_WAR)
    assert state.end_triggered and GAME.result(state) is not None


def test_an_event_is_the_whole_turn() -> None:
    """§8.12: no action after an event tile; the activator keeps its shells."""
    state = build(
        sequence="A_MOVE(0) EV1_BERRIES(2) A_PROCREATE(0) A_EXPLORE(0) A_MOVE_H(0) "
        "A_PROCREATE_H(0) A_EXPLORE_H(0)",
        players={0: {"shells": 5}},
    )
    state = do(state, "tile:1:event")
    assert state.players[0].shells == 5 - 1 + 2 and state.players[0].vp == 1
    assert GAME.to_act(state) == (1,) and state.phase is Phase.TURN_CHOOSE_TILE


# -- the end (§5.9, §7) ---------------------------------------------------------------------


def _play_out(state: State, limit: int = 5000) -> State:
    for _ in range(limit):
        if GAME.result(state) is not None:
            return state
        (seat,) = GAME.to_act(state)
        state = play(GAME, state, seat, GAME.legal_moves(state, seat)[0])
    raise AssertionError("no end")


def test_turn_cap_ends_and_scores_the_game() -> None:
    """§5.9 step 4: after turn_cap completed turns the game is scored, flagged capped."""
    state = _play_out(new_game(GAME, 3, {"turn_cap": "7"}, 3))
    assert state.capped and state.turn_count == 7 and not state.end_triggered
    result = GAME.result(state)
    assert result is not None and "turn cap" in result.summary
    assert result.scores == tuple(s.total for s in state.final or ())


def test_game_over_is_terminal() -> None:
    """§5.1 / review 33: nothing pending, nobody to act, every move refused."""
    state = _play_out(new_game(GAME, 2, {"turn_cap": "4"}, 1))
    assert GAME.to_act(state) == () and state.pending is None
    assert GAME.legal_moves(state, 0) == ()
    before = GAME.encode(state)
    with pytest.raises(GameFinishedError):
        play(GAME, state, 0, parse_move("tile:0:action"))
    with pytest.raises(GameFinishedError):
        find_move(GAME, state, 1, "end-move")
    assert GAME.encode(state) == before


def test_rounds_count_from_one() -> None:
    """§5.11: round 1 after setup; +1 when play returns to the start player."""
    state = build(sequence=MOVE_FIRST)
    rounds = []
    for _ in range(4):
        rounds.append(state.round)
        (seat,) = GAME.to_act(state)
        state = do(state, "tile:0:action")
        while GAME.to_act(state) == (seat,):
            state = do(state, keys(state)[0])
    assert rounds == [1, 1, 1, 2] and state.turn_count == 4


def test_ties_for_most_members_and_land_all_score() -> None:
    """§7: every player tied for most members (or most active land) gets the 2 VP."""
    state = build(
        players={
            0: {"tiles": "(0,0):GOAT[2] (1,0):WHEAT[0] (0,1):GOLD[0]"},
            1: {"tiles": "(0,0):GOAT[1] (1,0):WHEAT[1] (0,1):GOLD[0] (2,0):GOLD[0]"},
            2: {"tiles": "(0,0):GOAT[1] (1,0):WHEAT*[0] (0,1):GOLD[0] (2,0):GOLD[0]"},
        }
    )
    sheet = final_scores(state)
    assert [s.most_members_vp for s in sheet] == [2, 2, 0]
    assert [s.most_land_vp for s in sheet] == [0, 2, 0]


def test_apply_never_mutates_its_input() -> None:
    """Pure rules: the input state is unchanged after apply."""
    state = build(sequence=PROCREATE_FIRST)
    before = GAME.encode(state)
    GAME.apply(state, 0, parse_move("tile:0:action"))
    assert GAME.encode(state) == before


def test_land_terrains_never_run_out_of_enum_order() -> None:
    """The bag's counts follow the Terrain order of §3.1."""
    state = new_game(GAME, 2, {}, 11)
    held = Counter(t.terrain for p in state.players for t in p.tiles)
    assert tuple(10 - held[t] for t in Terrain) == state.bag

"""Component counts and tables against the spec (§2, §3) and its Appendix A.

``appendix_a.json`` is the spec's machine-readable Appendix A, copied verbatim; the data
module must say the same, field by field.
"""

from __future__ import annotations

import json
import pathlib
from collections import Counter
from typing import Any

from tribes.games.tribes_early_civilization import data
from tribes.games.tribes_early_civilization.data import (
    ACTION_TILES,
    ACTION_VALUES,
    BEAR_TEETH,
    BOARDS,
    END_THRESHOLD,
    EVENTS,
    HEX_NEIGHBOURS,
    LAND_COUNTS,
    LIGHTNING_SPACES,
    RECONSTRUCTED,
    SPACE_VP,
    START_CELLS,
    TRACK_END_VP,
    TRACK_MAX,
    Condition,
    Scope,
    Terrain,
    Track,
)
from tribes.games.tribes_early_civilization.hexes import adjacent, hex_at
from tribes.games.tribes_early_civilization.rules.actions import frontier_cells
from tribes.games.tribes_early_civilization.state import Player, Tile

APPENDIX: dict[str, Any] = json.loads(
    (pathlib.Path(__file__).parent / "appendix_a.json").read_text()
)


def test_fifty_land_tiles_ten_of_each_resource() -> None:
    """§3.1: 10 each of Goat, Horse, Wheat, Gold, Incense."""
    assert LAND_COUNTS == (10, 10, 10, 10, 10) and sum(LAND_COUNTS) == 50
    assert (
        dict(zip([t.name for t in data.TERRAINS], LAND_COUNTS, strict=True)) == APPENDIX["terrains"]
    )


def test_per_player_pieces() -> None:
    """§2: 15 members, 12 stones, 4 markers, 5 shells, 1 arrow per player (60/48/16/20/4)."""
    per = APPENDIX["per_player"]
    assert (
        per["tribe_members"],
        per["marking_stones"],
        per["shells"],
        per["arrows"],
    ) == (data.TRIBE_MEMBERS, data.MARKING_STONES, data.SHELLS, data.ARROWS)
    assert 4 * data.TRIBE_MEMBERS == 60 and 4 * data.MARKING_STONES == 48
    assert 4 * data.PROGRESS_MARKERS == 16 and 4 * data.SHELLS == 20 and 4 * data.ARROWS == 4


def test_bear_teeth_counts_and_reconstructed_values() -> None:
    """§2: 89 tokens, 30 + 20 + 12 + 15 + 12; values 1/2/3/5/10 are RECONSTRUCTED."""
    assert [count for _, count in BEAR_TEETH] == [30, 20, 12, 15, 12]
    assert sum(count for _, count in BEAR_TEETH) == 89
    assert [value for value, _ in BEAR_TEETH] == [1, 2, 3, 5, 10]


def test_geometry_and_start_triangle() -> None:
    """§3.2: six neighbours; the triangle's cells are pairwise adjacent, 9 frontier cells."""
    assert [list(v) for v in HEX_NEIGHBOURS] == APPENDIX["hex_neighbours"]
    assert [list(c) for c in START_CELLS] == APPENDIX["start_cells"]
    cells = [hex_at(q, r) for q, r in START_CELLS]
    assert all(adjacent(a, b) for a in cells for b in cells if a != b)
    triangle = Player(
        5, 0, 15, True, (0, 0, 0, 0), tuple(Tile(c, Terrain.GOAT, False, 0) for c in cells)
    )
    around = set(frontier_cells(triangle))
    assert len(frontier_cells(triangle)) == 9
    assert around == {(-1, 0), (0, -1), (1, -1), (-1, 1), (2, 0), (1, 1), (2, -1), (0, 2), (-1, 2)}


def test_progress_tracks() -> None:
    """§3.3: P/E/M give 1-2-3-4 and score 0/1/3/6; Strength 0..6, no VP."""
    tracks = APPENDIX["tracks"]
    for track in (Track.PROCREATION, Track.EXPLORATION, Track.MOVEMENT):
        assert list(ACTION_VALUES) == tracks[track.name]["values"]
        assert list(TRACK_END_VP) == tracks[track.name]["end_vp"]
        assert TRACK_MAX[track] == len(ACTION_VALUES) - 1
    assert TRACK_MAX[Track.STRENGTH] == tracks["STRENGTH"]["max_level"]
    assert Track.STRENGTH not in data.SCORING_TRACKS


def test_track_maxima_equal_the_boards_showing_each_track() -> None:
    """§3.3: the maxima equal the number of boards per track (P/E/M 3, S 6)."""
    per_track = Counter(board.track for board in BOARDS)
    assert [per_track[t] for t in Track] == list(TRACK_MAX)


def test_end_threshold_by_player_count() -> None:
    """§3.7: 2, 3, 4 orange events for 2, 3, 4 players."""
    assert {str(k): v for k, v in END_THRESHOLD.items()} == APPENDIX["end_threshold"]


def test_six_action_tiles_each_action_twice_once_with_a_hand() -> None:
    """§3.5: Procreate, Explore, Move, each on one plain tile and one hand tile."""
    rows = [{"id": t.tile.name, "action": t.action.name, "hand": t.hand} for t in ACTION_TILES]
    assert rows == APPENDIX["action_tiles"]
    assert Counter((t.action, t.hand) for t in ACTION_TILES) == {
        (a, hand): 1 for a in data.Action for hand in (False, True)
    }


def test_fifteen_boards_mirror_appendix_a() -> None:
    """§3.4 / Appendix A: id, epoch, name, resource, count and track of every board."""
    rows = [
        {
            "id": b.board.name,
            "epoch": b.epoch,
            "name": b.name,
            "resource": b.resource.name,
            "count": b.count,
            "track": b.track.name,
        }
        for b in BOARDS
    ]
    assert rows == APPENDIX["achievements"]
    assert {str(k): list(v) for k, v in SPACE_VP.items()} == APPENDIX["space_vp"]
    assert list(LIGHTNING_SPACES) == APPENDIX["lightning_spaces"]


def test_board_principles() -> None:
    """§3.4: one board per resource per epoch; tracks P, E, M, S, S; 4 spaces; 2 lightning."""
    for epoch in data.EPOCHS:
        boards = [b for b in BOARDS if b.epoch == epoch]
        assert sorted(b.resource for b in boards) == list(data.Terrain)
        assert Counter(b.track for b in boards) == {
            Track.PROCREATION: 1,
            Track.EXPLORATION: 1,
            Track.MOVEMENT: 1,
            Track.STRENGTH: 2,
        }
        for b in boards:
            assert b.count == epoch and len(b.space_vp) == 4 and b.space_vp == SPACE_VP[epoch]
            assert b.lightning == (True, True, False, False)
            assert "RECONSTRUCTED" in b.provenance


def test_board_values_match_the_seed_anchors() -> None:
    """§3.4: the seed anchors (Hunting, Cooking, Cheese-making, Weaving) hold in the data."""
    by = {b.board.name: b for b in BOARDS}
    hunting, cooking = by["B_HUNTING"], by["B_COOKING"]
    assert hunting.space_vp[0] == 2 and hunting.lightning[0]
    assert hunting.track is Track.EXPLORATION and cooking.track is Track.PROCREATION
    assert cooking.space_vp[2] == 1 and not cooking.lightning[2]
    assert (by["G_CHEESE"].resource.name, by["G_CHEESE"].count) == ("GOAT", 2)
    assert (by["O_WEAVING"].resource.name, by["O_WEAVING"].count) == ("GOAT", 3)
    assert by["O_WEAVING"].space_vp[0] == 6


def test_twenty_four_events_mirror_appendix_a() -> None:
    """§3.6 / Appendix A: 8 per epoch; scope and clauses of every event."""
    rows = [
        {
            "id": e.event.name,
            "epoch": e.epoch,
            "scope": e.scope.name,
            "clauses": [[c.condition.name, c.effect.name, c.amount] for c in e.clauses],
        }
        for e in EVENTS
    ]
    assert rows == APPENDIX["events"]
    assert Counter(e.epoch for e in EVENTS) == {1: 8, 2: 8, 3: 8}


def test_events_fit_the_lightning_spaces_and_tie_rule() -> None:
    """§3.6: 8 per colour, ALL events unconditional, 17 of 24 depend on Strength (review 31)."""
    assert data.COLUMNS * len(LIGHTNING_SPACES) == 8
    for event in EVENTS:
        if event.scope is Scope.ALL:
            assert all(c.condition is Condition.NONE for c in event.clauses)
    strength = [e for e in EVENTS if any(c.condition is not Condition.NONE for c in e.clauses)]
    assert len(strength) == 17
    assert Counter(e.epoch for e in strength) == {1: 6, 2: 6, 3: 5}


def test_reconstructed_tables_are_named_and_exist() -> None:
    """§10: every RECONSTRUCTED table is listed by name, so a corrected one is a data change."""
    assert set(RECONSTRUCTED) >= {"BOARDS", "EVENTS", "ACTION_VALUES", "BEAR_TEETH", "SPACE_VP"}
    for name in RECONSTRUCTED:
        assert hasattr(data, name), name

"""Component counts and totals against the spec's component list (§2, §3)."""

from __future__ import annotations

from collections import Counter
from itertools import pairwise

from tests.games.five_tribes.fixtures import LAYOUT_L
from tribes.games.five_tribes.data import (
    CAMELS,
    CARD_COUNTS,
    DJINNS,
    LADDER,
    MARKERS_PER_PLAYER,
    MEEPLE_COUNTS,
    MERCHANDISE,
    PAID_SPOTS,
    PALACES,
    PALM_TREES,
    PAYMENTS,
    STARTING_GOLD,
    SUIT_VALUE,
    TILE_SET,
    TILE_TYPES,
    Cost,
    Power,
    TileAction,
    TileKind,
)
from tribes.games.five_tribes.grid import ADJACENT, DISTANCE, NEIGHBOURS_8, SURROUNDING, TILES
from tribes.games.five_tribes.rules.common import blue_around


def test_thirty_tiles_twelve_blue_eighteen_red() -> None:
    """§3.1: 30 tiles; 12 blue (values 86), 18 red (values 112); 198 VP in all."""
    tiles = [TILE_TYPES[i] for i in TILE_SET]
    assert len(tiles) == TILES == 30
    blue = [tile for tile in tiles if tile.blue]
    red = [tile for tile in tiles if not tile.blue]
    assert (len(blue), len(red)) == (12, 18)
    assert sum(t.value for t in blue) == 86 and sum(t.value for t in red) == 112
    kinds = Counter(tile.kind for tile in tiles)
    assert kinds == {
        TileKind.VILLAGE: 5,
        TileKind.SACRED_PLACE: 7,
        TileKind.OASIS: 6,
        TileKind.SMALL_MARKET: 8,
        TileKind.LARGE_MARKET: 4,
    }
    compulsory = {tile.kind for tile in tiles if tile.compulsory}
    assert compulsory == {TileKind.VILLAGE, TileKind.OASIS}
    actions = {(tile.kind, tile.action, tile.cost_gc) for tile in tiles}
    assert actions == {
        (TileKind.VILLAGE, TileAction.PALACE, 0),
        (TileKind.SACRED_PLACE, TileAction.DJINN, 0),
        (TileKind.OASIS, TileAction.PALM, 0),
        (TileKind.SMALL_MARKET, TileAction.MARKET_1_OF_3, 3),
        (TileKind.LARGE_MARKET, TileAction.MARKET_2_OF_6, 6),
    }


def test_ninety_meeples() -> None:
    """§2: 16 Viziers, 20 Elders, 18 Merchants, 18 Builders, 18 Assassins = 90."""
    assert MEEPLE_COUNTS == (16, 20, 18, 18, 18) and sum(MEEPLE_COUNTS) == 90


def test_fifty_four_resource_cards() -> None:
    """§3.3: 36 merchandise of 9 types (2/2/2/4/4/4/6/6/6) + 18 Fakirs."""
    assert len(MERCHANDISE) == 9
    assert CARD_COUNTS[:9] == (2, 2, 2, 4, 4, 4, 6, 6, 6) and sum(CARD_COUNTS[:9]) == 36
    assert CARD_COUNTS[9] == 18 and sum(CARD_COUNTS) == 54


def test_suit_values() -> None:
    """§3.4: 1, 3, 7, 13, 21, 30, 40, 50, 60 with non-decreasing increments (convex)."""
    assert SUIT_VALUE == (0, 1, 3, 7, 13, 21, 30, 40, 50, 60)
    steps = [b - a for a, b in pairwise(SUIT_VALUE)]
    assert steps == sorted(steps)


def test_twenty_two_djinns_with_141_vp() -> None:
    """§3.6: 22 Djinns; VP 4x4, 5x1, 6x10, 8x5, 10x2 = 141."""
    assert len(DJINNS) == 22 and len({d.name for d in DJINNS}) == 22
    assert Counter(d.vp for d in DJINNS) == {4: 4, 5: 1, 6: 10, 8: 5, 10: 2}
    assert sum(d.vp for d in DJINNS) == 141


def test_djinn_costs_and_kinds() -> None:
    """§3.6: paid powers have a payment code; passive and scoring Djinns have none."""
    by_name = {d.name: d for d in DJINNS}
    elder_or_fakir = {"Anun-Nak", "Bouraq", "Enki", "Hagis", "Iblis", "Lamia"}
    elder_plus = {"Echidna", "Leta", "Sibittis", "Utug"}
    assert {n for n, d in by_name.items() if d.cost is Cost.ELDER_OR_FAKIR} == elder_or_fakir
    assert {n for n, d in by_name.items() if d.cost is Cost.ELDER_PLUS} == elder_plus
    assert by_name["Sloar"].cost is Cost.FAKIR and by_name["Kumarbi"].cost is Cost.FAKIRS
    endgame = {n for n, d in by_name.items() if d.power is Power.ENDGAME}
    assert endgame == {"Al-Amin", "Haurvatat", "Jafaar", "Shamhat"}
    for djinn in DJINNS:
        if djinn.power is Power.ACTIVATED:
            assert djinn.cost in PAYMENTS


def test_turn_order_track_and_supplies() -> None:
    """§3.5, §2, §4: spots 18..1 and three zeros; 12 palms, 10 palaces, 50 GC."""
    assert PAID_SPOTS == (18, 12, 8, 5, 3, 1) and LADDER == (0, 1, 3, 5, 8, 12, 18)
    assert (PALM_TREES, PALACES, STARTING_GOLD) == (12, 10, 50)
    assert CAMELS == {2: 11, 3: 8, 4: 8} and MARKERS_PER_PLAYER == {2: 2, 3: 1, 4: 1}


def test_board_geometry() -> None:
    """Naming notes: 5x6 grid, orthogonal adjacency, 3x3 areas, Manhattan distance."""
    assert sum(len(a) for a in ADJACENT) == 2 * (5 * 5 + 4 * 6)
    assert len(SURROUNDING[0]) == 4 and len(SURROUNDING[7]) == 9
    assert len(NEIGHBOURS_8[7]) == 8 and 7 not in NEIGHBOURS_8[7]
    assert DISTANCE[0][29] == 9


def test_layout_l_blue_counts() -> None:
    """§9: the blue(T) grid of the reference layout L."""
    from dataclasses import replace

    from tests.games.five_tribes.fixtures import build

    state = replace(build(), layout=LAYOUT_L)
    expected = """
        1 2 2 2 2 1
        2 4 4 3 2 1
        2 3 2 2 3 3
        3 5 4 4 3 3
        2 3 2 3 3 3
    """
    assert [blue_around(state, t) for t in range(30)] == [int(x) for x in expected.split()]
    assert sorted(LAYOUT_L) == sorted(TILE_SET)

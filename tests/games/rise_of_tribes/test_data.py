"""The component data against the spec's component list and tables (§2, §3).

The map tables below are copied from §3.4 (neighbour lists and volcano positions), so
the derived geometry is checked against the spec text, not against itself.
"""

from __future__ import annotations

import inspect
from itertools import product

import pytest

from tribes.games.rise_of_tribes import cards, data
from tribes.games.rise_of_tribes.cards import (
    EVENT_CARD,
    EVENT_DECK,
    EVENT_TOKENS,
    GOAL_CARD,
    GOAL_DECK,
    INVADERS_MAX,
    Event,
    Goal,
    GoalKind,
    deck_for,
    event_deck_for,
)
from tribes.games.rise_of_tribes.data import (
    ACTION_POWER,
    BOARD_OF,
    DICE,
    DIE_FACES,
    INITIAL_ROW,
    POWER_RULES,
    TILES_IN_BOX,
    TRIBE_BOARDS,
    Action,
    EventSet,
    Face,
    Power,
    Terrain,
    Tier,
    Tribe,
    tier_of,
    tiles_per_terrain,
)
from tribes.games.rise_of_tribes.maps import Hex, geometry

NEIGHBOURS = {
    2: "H1 H3|H0 H2 H3 H4|H1 H4 H5|H0 H1 H4 H6|H1 H2 H3 H5 H6 H7|H2 H4 H7 H8|H3 H4 H7|"
    "H4 H5 H6 H8|H5 H7",
    3: "H1 H3 H4|H0 H2 H4 H5|H1 H5 H6|H0 H4 H7|H0 H1 H3 H5 H7 H8|H1 H2 H4 H6 H8 H9|H2 H5 H9|"
    "H3 H4 H8 H10|H4 H5 H7 H9 H10 H11|H5 H6 H8 H11|H7 H8 H11|H8 H9 H10",
    4: "H1 H2 H3|H0 H3 H4|H0 H3 H5 H6|H0 H1 H2 H4 H6 H7|H1 H3 H7 H8|H2 H6 H9 H10|"
    "H2 H3 H5 H7 H10 H11|H3 H4 H6 H8 H11 H12|H4 H7 H12|H5 H10 H13|H5 H6 H9 H11 H13 H14|"
    "H6 H7 H10 H12 H14|H7 H8 H11|H9 H10 H14|H10 H11 H13",
}
COORDS = {
    2: "(0,0) (1,0) (2,0) (0,1) (1,1) (2,1) (0,2) (1,2) (2,2)",
    3: "(1,0) (2,0) (3,0) (0,1) (1,1) (2,1) (3,1) (0,2) (1,2) (2,2) (0,3) (1,3)",
    4: "(2,0) (3,0) (1,1) (2,1) (3,1) (0,2) (1,2) (2,2) (3,2) (-1,3) (0,3) (1,3) (2,3) "
    "(-1,4) (0,4)",
}
VOLCANO = {
    2: "(-1,1)[H0,H3] (-1,2)[H3,H6] (0,3)[H6,H7] (1,-1)[H0,H1] (1,3)[H7,H8] (2,-1)[H1,H2] "
    "(3,0)[H2,H5] (3,1)[H5,H8]",
    3: "(-1,2)[H3,H7] (-1,3)[H7,H10] (0,0)[H0,H3] (0,4)[H10,H11] (2,-1)[H0,H1] (2,3)[H9,H11] "
    "(3,-1)[H1,H2] (3,2)[H6,H9] (4,0)[H2,H6]",
    4: "(-2,4)[H9,H13] (-1,2)[H5,H9] (-1,5)[H13,H14] (0,1)[H2,H5] (1,0)[H0,H2] "
    "(1,4)[H11,H12,H14] (3,-1)[H0,H1] (3,3)[H8,H12] (4,0)[H1,H4] (4,1)[H4,H8]",
}


def _coord(text: str) -> Hex:
    q, r = text.strip("()").split(",")
    return Hex(int(q), int(r))


def _ids(text: str) -> tuple[int, ...]:
    return tuple(int(part[1:]) for part in text.replace(",", " ").split())


@pytest.mark.parametrize("seats", [2, 3, 4])
def test_layout_coordinates_and_neighbours_match_section_3_4(seats: int) -> None:
    """§3.4 (G4): hex ids, axial coordinates and every neighbour list as tabled."""
    geo = geometry(seats)
    assert geo.hexes == tuple(_coord(c) for c in COORDS[seats].split())
    assert geo.neighbours == tuple(_ids(row) for row in NEIGHBOURS[seats].split("|"))
    assert geo.size == 3 * tiles_per_terrain(seats), "9 / 12 / 15 hexes"


@pytest.mark.parametrize("seats", [2, 3, 4])
def test_volcano_sites_match_section_3_4(seats: int) -> None:
    """§3.4: the volcano may go on every empty cell touching >= 2 map hexes, as listed."""
    geo = geometry(seats)
    listed = {}
    for entry in VOLCANO[seats].split():
        cell, around = entry.split("[")
        listed[_coord(cell)] = _ids(around.rstrip("]"))
    assert geo.site_neighbours == listed


def test_terrain_tiles_and_map_size() -> None:
    """§2/§3.1: 15 basic tiles 5/5/5 plus 1 volcano; (players + 1) of each type per game."""
    assert TILES_IN_BOX == {Terrain.FOREST: 5, Terrain.LAKE: 5, Terrain.MOUNTAIN: 5}
    assert data.VOLCANO_TILES == 1
    assert [tiles_per_terrain(n) for n in (2, 3, 4)] == [3, 4, 5]
    assert all(tiles_per_terrain(4) <= count for count in TILES_IN_BOX.values())


def test_dice() -> None:
    """§3.2 (G1): 14 dice, each with 2 SUN, 2 MOON, 2 BLANK faces."""
    assert DICE == 14
    assert sorted(f.value for f in DIE_FACES) == ["blank", "blank", "moon", "moon", "sun", "sun"]


def test_tier_rule_on_every_row() -> None:
    """§3.3: SUN with >= 2 suns, MOON with >= 2 moons, else DEFAULT, on all 27 rows."""
    for row in product(Face, repeat=3):
        suns, moons = row.count(Face.SUN), row.count(Face.MOON)
        expected = Tier.SUN if suns >= 2 else Tier.MOON if moons >= 2 else Tier.DEFAULT
        assert tier_of(row) is expected


def test_initial_rows_give_the_face_placed() -> None:
    """§3.3 (G3): S/M/B in slots 1-3, so a first SUN gives SUN, MOON MOON, BLANK DEFAULT."""
    assert INITIAL_ROW == (Face.SUN, Face.MOON, Face.BLANK)
    pushed = {face: tier_of((face, INITIAL_ROW[0], INITIAL_ROW[1])) for face in Face}
    assert pushed == {Face.SUN: Tier.SUN, Face.MOON: Tier.MOON, Face.BLANK: Tier.DEFAULT}


def test_action_powers_table() -> None:
    """§3.3 (G2): GROW 1/2/3, MOVE 2/3/4, GATHER 1/2/3 hexes x 2, LEAD 1/2/3."""
    table = {
        a: tuple(ACTION_POWER[a][t] for t in (Tier.MOON, Tier.DEFAULT, Tier.SUN)) for a in Action
    }
    assert table == {
        Action.GROW: (1, 2, 3),
        Action.MOVE: (2, 3, 4),
        Action.GATHER: (1, 2, 3),
        Action.LEAD: (1, 2, 3),
    }
    assert data.GATHER_YIELD == 2


def test_tribe_boards_and_village_costs() -> None:
    """§3.5 (G6): 8 tribes, village costs F/W/S as tabled, each 6 in total, power names."""
    costs = {b.tribe: b.village_cost for b in TRIBE_BOARDS}
    assert costs == {
        Tribe.DABA: (2, 1, 3),
        Tribe.DANANU: (4, 1, 1),
        Tribe.INDARTSU: (1, 2, 3),
        Tribe.KAHA: (3, 2, 1),
        Tribe.KIA_KIA: (1, 4, 1),
        Tribe.KIROR: (1, 3, 2),
        Tribe.MUKAAN: (3, 1, 2),
        Tribe.TUNGA: (2, 3, 1),
    }
    assert all(sum(c) == 6 and min(c) >= 1 for c in costs.values())
    assert BOARD_OF[Tribe.TUNGA].powers == (Power.HIDDEN_VILLAGE, Power.LIGHT_IN_THE_DARK)
    powers = [p for b in TRIBE_BOARDS for p in b.powers]
    assert sorted(p.value for p in powers) == sorted(p.value for p in Power), "16 powers, 2 each"


def test_house_powers_belong_to_their_tribes() -> None:
    """§3.5: each HOUSE-RULE power text is filed under the tribe whose board names it."""
    assert len(POWER_RULES) == 16
    for rule in POWER_RULES:
        assert rule.power in BOARD_OF[rule.tribe].powers and rule.text


def test_goal_deck() -> None:
    """§3.6 (G5): D1-D7 and A1-A8 with the tabled costs and VP; developments give 1 VP."""
    assert [c.id for c in GOAL_DECK] == [f"D{i}" for i in range(1, 8)] + [
        f"A{i}" for i in range(1, 9)
    ]
    costs = {c.id: c.cost for c in GOAL_DECK if c.kind is GoalKind.DEVELOPMENT}
    assert costs == {
        "D1": (1, 2, 0),
        "D2": (2, 1, 1),
        "D3": (0, 2, 1),
        "D4": (1, 0, 2),
        "D5": (1, 1, 1),
        "D6": (2, 0, 1),
        "D7": (0, 1, 2),
    }
    assert all(c.vp == 1 for c in GOAL_DECK if c.kind is GoalKind.DEVELOPMENT)
    vps = {c.id: c.vp for c in GOAL_DECK if c.kind is GoalKind.ACHIEVEMENT}
    assert vps == {"A1": 3, "A2": 3, "A3": 2, "A4": 3, "A5": 2, "A6": 3, "A7": 3, "A8": 4}
    assert GOAL_CARD[Goal.BOW].name == "Bow" and GOAL_CARD[Goal.POTTERY].id == "D4"


def test_two_player_decks_lose_pottery() -> None:
    """§2/§4 step 3: 4 identical decks of 15; in a 2-player game Pottery is removed (14)."""
    assert len(deck_for(3)) == len(deck_for(4)) == 15
    assert len(deck_for(2)) == 14 and Goal.POTTERY not in deck_for(2)
    assert set(deck_for(2)) | {Goal.POTTERY} == set(deck_for(4))


def test_event_tiles() -> None:
    """§3.7: 16 tiles E1-E16; base12 drops Altar, Chieftain, Dugout Canoe and Walls (G8)."""
    assert [c.id for c in EVENT_DECK] == [f"E{i}" for i in range(1, 17)]
    assert len(event_deck_for(EventSet.ALL16)) == 16
    dropped = set(event_deck_for(EventSet.ALL16)) - set(event_deck_for(EventSet.BASE12))
    assert dropped == {Event.ALTAR, Event.CHIEFTAIN, Event.DUGOUT_CANOE, Event.WALLS}
    instant = {c.event for c in EVENT_DECK if not c.lasting}
    assert instant == {Event.ABANDONED_VILLAGE, Event.VOLCANO, Event.CHIEFTAIN}
    assert EVENT_CARD[Event.DISCOVERY].load == (2, 2, 2, 0)
    assert [EVENT_CARD[e].load for e in (Event.PLENTIFUL_FOOD, Event.PLENTIFUL_STONE)] == [
        (6, 0, 0, 0),
        (0, 0, 6, 0),
    ]
    assert EVENT_CARD[Event.PLENTIFUL_WOOD].plentiful is Terrain.FOREST
    assert EVENT_TOKENS == INVADERS_MAX + 1 + 1 + 4, "5 invaders, mammoth, tiger, 4 markers"


def test_engine_constants() -> None:
    """§2: 20 members each, 12 villages, 15 VP, limit 5 (4 under Drought), 2 event slots."""
    assert (data.MEMBERS_PER_PLAYER, data.VILLAGE_POOL, data.WIN_VP) == (20, 12, 15)
    assert (data.HEX_LIMIT, data.DROUGHT_LIMIT, data.EVENT_SLOTS) == (5, 4, 2)
    assert data.DEFAULT_TURN_CAP == 500


@pytest.mark.parametrize(
    ("module", "names"),
    [
        (data, ["DIE_FACES", "INITIAL_ROW", "ACTION_POWER", "GATHER_YIELD", "TRIBE_BOARDS",
                "POWER_RULES", "INVADERS_VP", "VILLAGE_POOL"]),
        (cards, ["GOAL_DECK", "EVENT_DECK"]),
    ],
)  # fmt: skip
def test_reconstructed_items_are_marked(module: object, names: list[str]) -> None:
    """Every [R] table is marked RECONSTRUCTED in the comment right above (or on) it."""
    lines = inspect.getsource(module).splitlines()  # type: ignore[arg-type]
    for name in names:
        at = next(i for i, line in enumerate(lines) if line.startswith(f"{name}"))
        context = "\n".join(lines[max(0, at - 3) : at + 1])
        assert "RECONSTRUCTED" in context, f"{name} is not marked RECONSTRUCTED"

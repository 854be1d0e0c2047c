"""Small helpers every phase uses: players, tiles, board positions, bag draws (spec §5, §6).

Players are rebuilt positionally (cheaper than ``dataclasses.replace`` on the hot path);
cells are compared by coordinates, so a ``Hex`` decoded from storage and an interned one
behave the same.
"""

from __future__ import annotations

from tribes.engine.rng import Rng
from tribes.games.tribes_early_civilization.data import (
    ACTION_VALUES,
    COLUMNS,
    TERRAIN_NAME,
    Terrain,
    Track,
)
from tribes.games.tribes_early_civilization.hexes import Hex, where
from tribes.games.tribes_early_civilization.state import Player, Tile


def action_value(player: Player, track: Track) -> int:
    """Members per Procreate, tiles per Explore, steps per Move at the player's level (§3.3)."""
    return ACTION_VALUES[player.levels[track]]


def find_tile(player: Player, cell: Hex) -> int:
    """The index of the player's tile on ``cell``, or -1."""
    q, r = cell.q, cell.r
    for index, tile in enumerate(player.tiles):
        h = tile.hex
        if h.q == q and h.r == r:
            return index
    return -1


def tile_at(player: Player, cell: Hex) -> Tile | None:
    index = find_tile(player, cell)
    return None if index < 0 else player.tiles[index]


def with_tiles(p: Player, tiles: tuple[Tile, ...], reserve: int | None = None) -> Player:
    return Player(
        p.shells,
        p.vp,
        p.reserve if reserve is None else reserve,
        p.arrow_available,
        p.levels,
        tiles,
    )


def with_shells(p: Player, shells: int) -> Player:
    return Player(shells, p.vp, p.reserve, p.arrow_available, p.levels, p.tiles)


def with_vp(p: Player, vp: int) -> Player:
    return Player(p.shells, vp, p.reserve, p.arrow_available, p.levels, p.tiles)


def add_members(player: Player, cell: Hex, count: int) -> Player:
    """``count`` members onto (or, negative, off) the tile on ``cell``; the reserve balances."""
    index = find_tile(player, cell)
    tiles = player.tiles
    tile = tiles[index]
    moved = Tile(tile.hex, tile.terrain, tile.exhausted, tile.members + count)
    return with_tiles(player, (*tiles[:index], moved, *tiles[index + 1 :]), player.reserve - count)


def shift_member(player: Player, origin: Hex, destination: Hex) -> Player:
    """One member from ``origin`` to ``destination`` (Step and Relocate); reserve unchanged."""
    oq, orr, dq, dr = origin.q, origin.r, destination.q, destination.r
    tiles = list(player.tiles)
    for index, tile in enumerate(tiles):
        h = tile.hex
        if h.q == oq and h.r == orr:
            tiles[index] = Tile(h, tile.terrain, tile.exhausted, tile.members - 1)
        elif h.q == dq and h.r == dr:
            tiles[index] = Tile(h, tile.terrain, tile.exhausted, tile.members + 1)
    return with_tiles(player, tuple(tiles))


def flip(player: Player, cell: Hex, exhausted: bool) -> Player:
    """Turn the tile on ``cell`` to its exhausted (or resource) side; members stay on it."""
    index = find_tile(player, cell)
    tiles = player.tiles
    tile = tiles[index]
    turned = Tile(tile.hex, tile.terrain, exhausted, tile.members)
    return with_tiles(player, (*tiles[:index], turned, *tiles[index + 1 :]))


def occupied_count(player: Player) -> int:
    """Tiles holding at least one member (active or exhausted, §8.15)."""
    return sum(1 for tile in player.tiles if tile.members)


def slot_index(epoch: int, column: int) -> int:
    """Index of board position ``(epoch, column)`` in ``State.grid``."""
    return (epoch - 1) * COLUMNS + column


def draw_tiles(rng: Rng, bag: tuple[int, ...], count: int) -> tuple[tuple[int, ...], list[Terrain]]:
    """Draw ``count`` tiles uniformly without replacement (§6): (bag after, tiles drawn)."""
    left = list(bag)
    total = sum(left)
    drawn: list[Terrain] = []
    for _ in range(count):
        pick = rng.below(total)
        for terrain, n in enumerate(left):
            if pick < n:
                left[terrain] -= 1
                drawn.append(Terrain(terrain))
                break
            pick -= n
        total -= 1
    return tuple(left), drawn


def tile_name(tile: Tile) -> str:
    """``Goat tile at (2,-1)`` (``exhausted`` when flipped)."""
    side = "exhausted " if tile.exhausted else ""
    return f"{side}{TERRAIN_NAME[tile.terrain]} tile at {where(tile.hex)}"

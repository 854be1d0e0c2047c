"""A4 TRIBE: the action of the collected tribe (rules spec §5.7, §8, §10 items 7-9, 14).

Viziers and Elders go in front of the player, Merchants take cards from the front of
the resource row, Builders earn gold by the blue tiles around the final tile, and
Assassins kill on a tile in range or in an opponent's supply (compulsory when a
target exists), with Iblis, Kandicha, Boaz and Nekir applied here.
"""

from __future__ import annotations

from dataclasses import replace

from tribes.games.five_tribes.data import (
    ECHIDNA_FACTOR,
    IBLIS_KILLS,
    MEEPLES,
    NEKIR_PAYOUT,
    NO_MEEPLES,
    Djinn,
    Meeple,
)
from tribes.games.five_tribes.grid import ALL_TILES, DISTANCE
from tribes.games.five_tribes.moves import (
    Assassinate,
    AssassinateNone,
    Build,
    ResolveTribe,
)
from tribes.games.five_tribes.rules.common import (
    add_cards,
    blue_around,
    claim_if_emptied,
    discard_fakirs,
    draw_resources,
    gain_gold,
    owner_of,
    set_tile_meeples,
    to_bag,
    with_player,
)
from tribes.games.five_tribes.state import State, Step, Turn

TribeMove = ResolveTribe | Build | Assassinate | AssassinateNone
_COLOURS = range(len(MEEPLES))


def kill_sets(counts: tuple[int, ...], kills: int) -> list[tuple[Meeple, ...]]:
    """Sub-multisets of ``counts`` of size ``min(kills, total)`` (§5.7, §10 item 9)."""
    size = min(kills, sum(counts))
    present = [MEEPLES[c] for c in _COLOURS if counts[c]]
    if size == 1:
        return [(m,) for m in present]
    found: list[tuple[Meeple, ...]] = []
    for i, first in enumerate(present):
        if counts[first] >= 2:
            found.append((first, first))
        found.extend((first, second) for second in present[i + 1 :])
    return found


def assassinate_moves(state: State, turn: Turn) -> list[Assassinate]:
    """Every board target in range (minimal Fakirs) and every unprotected opponent (§5.7)."""
    seat = turn.seat
    player = state.players[seat]
    kills = IBLIS_KILLS if player.iblis else 1
    final = turn.final
    assert final is not None
    reach = turn.collected
    fakirs = player.fakirs
    distance = DISTANCE[final]
    moves: list[Assassinate] = []
    for tile in ALL_TILES:
        counts = state.meeples[tile]
        if counts == NO_MEEPLES:
            continue
        need = max(0, distance[tile] - reach)
        if need > fakirs:
            continue
        moves.extend(Assassinate(ks, tile=tile, fakirs=need) for ks in kill_sets(counts, kills))
    for other, victim in enumerate(state.players):
        if other == seat or victim.owns(Djinn.BOAZ) or not (victim.viziers or victim.elders):
            continue
        supply = (victim.viziers, victim.elders, 0, 0, 0)
        moves.extend(Assassinate(ks, opponent=other) for ks in kill_sets(supply, kills))
    return moves


def tribe_moves(state: State, turn: Turn) -> list[TribeMove]:
    tribe = turn.tribe
    if tribe == Meeple.BUILDER:
        return [Build(k) for k in range(state.players[turn.seat].fakirs + 1)]
    if tribe == Meeple.ASSASSIN:
        return list(assassinate_moves(state, turn)) or [AssassinateNone()]
    return [ResolveTribe()]


def _done(state: State, turn: Turn) -> State:
    """The tribe is resolved: its meeples left the hand; go to the tile action (A5)."""
    return replace(state, step=Step.TILE, turn=replace(turn, hand=NO_MEEPLES))


def apply_resolve(state: State, turn: Turn) -> State:
    """Viziers and Elders are kept; Merchants take the front of the row (§5.7)."""
    seat, count = turn.seat, turn.collected
    player = state.players[seat]
    if turn.tribe == Meeple.VIZIER:
        state = with_player(state, seat, replace(player, viziers=player.viziers + count))
    elif turn.tribe == Meeple.ELDER:
        state = with_player(state, seat, replace(player, elders=player.elders + count))
    else:
        row = state.resource_row
        taken, row = row[:count], row[count:]
        state = to_bag(replace(state, resource_row=row), Meeple.MERCHANT, count)
        state = with_player(state, seat, replace(player, cards=add_cards(player.cards, taken)))
    return _done(state, turn)


def builder_gold(state: State, seat: int, builders: int, tile: int) -> int:
    """GC for ``builders`` Builders around ``tile``, doubled by Echidna (§5.7)."""
    factor = ECHIDNA_FACTOR if state.players[seat].echidna else 1
    return builders * blue_around(state, tile) * factor


def apply_build(state: State, turn: Turn, move: Build) -> State:
    """Builders to the bag; (Builders + Fakirs) x blue tiles around the final tile (§5.7)."""
    assert turn.final is not None
    seat = turn.seat
    gold = builder_gold(state, seat, turn.collected + move.fakirs, turn.final)
    state = to_bag(state, Meeple.BUILDER, turn.collected)
    state = discard_fakirs(state, seat, move.fakirs)
    state = gain_gold(state, seat, gold)
    return _done(state, turn)


def apply_assassinate(state: State, turn: Turn, move: Assassinate) -> State:
    """§5.7 effect order: Assassins to the bag, Fakirs, kills (Kandicha), Nekir, A4b."""
    seat = turn.seat
    state = to_bag(state, Meeple.ASSASSIN, turn.collected)
    state = discard_fakirs(state, seat, move.fakirs)
    if move.tile is not None:
        counts = list(state.meeples[move.tile])
        for meeple in move.kills:
            counts[meeple] -= 1
        state = set_tile_meeples(state, move.tile, tuple(counts))
    else:
        assert move.opponent is not None
        victim = state.players[move.opponent]
        lost_viziers = move.kills.count(Meeple.VIZIER)
        lost_elders = move.kills.count(Meeple.ELDER)
        victim = replace(
            victim, viziers=victim.viziers - lost_viziers, elders=victim.elders - lost_elders
        )
        state = with_player(state, move.opponent, victim)
    kandicha = state.players[seat].owns(Djinn.KANDICHA)
    for meeple in move.kills:
        state = _dispose(state, seat, meeple, move.tile, kandicha)
    owner = owner_of(state, Djinn.NEKIR)
    if owner is not None:
        events = len(move.kills) if state.nekir_per_meeple else 1
        payout = NEKIR_PAYOUT[0] if owner == seat else NEKIR_PAYOUT[1]
        state = gain_gold(state, owner, payout * events)
    if move.tile is not None:
        state = claim_if_emptied(state, seat, move.tile)
    return _done(state, turn)


def apply_assassinate_none(state: State, turn: Turn) -> State:
    """No target: the Assassins simply go back to the bag (§5.7)."""
    return _done(to_bag(state, Meeple.ASSASSIN, turn.collected), turn)


def _dispose(state: State, seat: int, meeple: Meeple, tile: int | None, kandicha: bool) -> State:
    """A killed meeple goes to the bag, or with Kandicha (§3.6 #12, §10 item 14): Viziers
    and Elders join the killer, a Merchant draws a card, a Builder earns its gold."""
    if kandicha and meeple in (Meeple.VIZIER, Meeple.ELDER):
        player = state.players[seat]
        if meeple == Meeple.VIZIER:
            player = replace(player, viziers=player.viziers + 1)
        else:
            player = replace(player, elders=player.elders + 1)
        return with_player(state, seat, player)
    state = to_bag(state, meeple, 1)
    if kandicha and meeple == Meeple.MERCHANT:
        state, drawn = draw_resources(state, 1)
        player = state.players[seat]
        state = with_player(state, seat, replace(player, cards=add_cards(player.cards, drawn)))
    elif kandicha and meeple == Meeple.BUILDER:
        assert tile is not None
        state = gain_gold(state, seat, builder_gold(state, seat, 1, tile))
    return state

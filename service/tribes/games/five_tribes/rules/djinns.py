"""Activated Djinn powers and the Sibittis sub-decision (rules spec §3.6, §5.9, §10).

``UseDjinn`` is offered in START, TRIBE, TILE and SALE of the owner's own turn, once
per round per Djinn, for every payment the owner can make and every target the
power accepts. "Possible iff" is judged after the payment (§5.9, §10 item 24).
Passive Djinns act where their event happens (Marid in movement, Nekir/Kandicha/Boaz
in tribes, Monkir/Ba'al in tiles); scoring Djinns act in scoring.
"""

from __future__ import annotations

from dataclasses import replace

from tribes.games.five_tribes.data import (
    ANUN_NAK_DRAW,
    DJINNS,
    PAYMENTS,
    SIBITTIS_DRAW,
    Djinn,
    Pay,
    Power,
    Target,
    TileKind,
)
from tribes.games.five_tribes.grid import ALL_TILES
from tribes.games.five_tribes.moves import KeepDjinn, UseDjinn
from tribes.games.five_tribes.rules.common import (
    add_cards,
    can_pay,
    draw_djinns,
    draw_from_bag,
    draw_resources,
    is_empty_tile,
    kind_of,
    mark_used,
    pay,
    place_camel,
    set_tile_meeples,
    with_player,
)
from tribes.games.five_tribes.rules.tiles import acquire_djinn, start_palace, start_palm
from tribes.games.five_tribes.state import Pending, Player, State, Step, Turn


def _target_tiles(state: State, target: Target) -> list[int | None]:
    """The tiles a power may target (§5.9 "params"); ``[None]`` for untargeted powers."""
    match target:
        case Target.NONE:
            return [None]
        case Target.EMPTY_TILE:
            return [t for t in ALL_TILES if is_empty_tile(state, t)]
        case Target.MEEPLE_TILE:  # Utug: only meeples on it (§10 item 15)
            return [
                t
                for t in ALL_TILES
                if any(state.meeples[t])
                and state.owners[t] is None
                and not state.palms[t]
                and not state.palaces[t]
            ]
        case Target.VILLAGE:
            return [t for t in ALL_TILES if kind_of(state, t) is TileKind.VILLAGE]
        case Target.OASIS:
            return [t for t in ALL_TILES if kind_of(state, t) is TileKind.OASIS]


def _possible(state: State, player: Player, djinn: Djinn, payment: Pay) -> bool:
    """§5.9 "Possible iff", judged after ``payment`` (§10 item 24)."""
    match djinn:
        case Djinn.ANUN_NAK:
            return sum(state.bag) + (payment is Pay.E) > 0  # a paid Elder is in the bag first
        case Djinn.BOURAQ:
            return state.palace_supply > 0
        case Djinn.ENKI:
            return state.palm_supply > 0
        case Djinn.ECHIDNA:
            return not player.echidna
        case Djinn.IBLIS:
            return not player.iblis
        case Djinn.LETA | Djinn.UTUG:
            return player.camels > 0
        case Djinn.SIBITTIS:
            return bool(state.djinn_pile or state.djinn_discard)
    return True  # Sloar: the paid Fakir can always be drawn back (§5.9)


def djinn_moves(state: State, turn: Turn) -> list[UseDjinn]:
    """Every legal ``UseDjinn`` for the actor: one per payment and target (§5.9 table)."""
    player = state.players[turn.seat]
    moves: list[UseDjinn] = []
    for djinn in player.djinns:
        card = DJINNS[djinn]
        if card.power is not Power.ACTIVATED or djinn in player.used:
            continue
        pays = [
            p
            for p in PAYMENTS[card.cost]
            if can_pay(player, p) and _possible(state, player, djinn, p)
        ]
        if pays:
            tiles = _target_tiles(state, card.target)
            moves.extend(UseDjinn(djinn, p, tile) for p in pays for tile in tiles)
    return moves


def apply_use(state: State, turn: Turn, move: UseDjinn) -> State:
    """Pay, mark the Djinn used this round, resolve; the turn stays in its step (§5.2)."""
    seat, djinn, tile = turn.seat, move.djinn, move.tile
    step = state.step
    state = mark_used(pay(state, seat, move.pay), seat, djinn)
    match djinn:
        case Djinn.ANUN_NAK:
            assert tile is not None
            state, drawn = draw_from_bag(state, ANUN_NAK_DRAW)
            state = set_tile_meeples(state, tile, drawn)
        case Djinn.BOURAQ:
            assert tile is not None
            return start_palace(state, turn, tile, step)
        case Djinn.ENKI:
            assert tile is not None
            return start_palm(state, turn, tile, step)
        case Djinn.ECHIDNA:
            state = _set_flag(state, seat, echidna=True)
        case Djinn.IBLIS:
            state = _set_flag(state, seat, iblis=True)
        case Djinn.LETA | Djinn.UTUG:
            assert tile is not None
            state = place_camel(state, seat, tile)
        case Djinn.SIBITTIS:
            state, drawn = draw_djinns(state, SIBITTIS_DRAW)
            pending = Pending(return_step=step, tile=None, drawn=drawn)
            return replace(state, step=Step.SIBITTIS_KEEP, turn=replace(turn, pending=pending))
        case Djinn.SLOAR:
            state, cards = draw_resources(state, 1)
            player = state.players[seat]
            state = with_player(state, seat, replace(player, cards=add_cards(player.cards, cards)))
    return state


def _set_flag(state: State, seat: int, *, echidna: bool = False, iblis: bool = False) -> State:
    player = state.players[seat]
    player = replace(player, echidna=player.echidna or echidna, iblis=player.iblis or iblis)
    return with_player(state, seat, player)


def keep_moves(turn: Turn) -> list[KeepDjinn]:
    assert turn.pending is not None
    return [KeepDjinn(djinn) for djinn in turn.pending.drawn]


def apply_keep(state: State, turn: Turn, move: KeepDjinn) -> State:
    """Keep one drawn Djinn, the others go to the (public) Djinn discard pile (§5.9)."""
    pending = turn.pending
    assert pending is not None
    others = tuple(d for d in pending.drawn if d != move.djinn)
    state = replace(state, djinn_discard=state.djinn_discard + others)
    state = acquire_djinn(state, turn.seat, move.djinn)
    return replace(state, step=pending.return_step, turn=replace(turn, pending=None))

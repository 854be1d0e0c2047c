"""Small pure helpers shared by the phases: holdings, payments, piles, bag, camels.

Rules spec references: payments §3.6/§3.7 (Elders to the bag, Fakirs to the resource
discard); draws and reshuffles §5.11 and §6; bag draws §6 (fixed colour order,
``below(bag size)`` per meeple); camels §5.4 A3 and §7.1; passive payouts §5.9.
"""

from __future__ import annotations

from dataclasses import replace

from tribes.engine.rng import Rng
from tribes.games.five_tribes.data import (
    DJINNS,
    FAKIR,
    MEEPLES,
    NO_MEEPLES,
    PAY_PARTS,
    TILE_TYPES,
    Card,
    Djinn,
    Meeple,
    Pay,
    TileKind,
)
from tribes.games.five_tribes.grid import SURROUNDING
from tribes.games.five_tribes.state import Player, State, Step, Turn


def kind_of(state: State, tile: int) -> TileKind:
    return TILE_TYPES[state.layout[tile]].kind


def blue_around(state: State, tile: int) -> int:
    """Blue-valued tiles in the 3x3 area of ``tile``, itself included (§5.7)."""
    layout = state.layout
    return sum(1 for t in SURROUNDING[tile] if TILE_TYPES[layout[t]].blue)


def is_empty_tile(state: State, tile: int) -> bool:
    """No meeple, camel, palm or palace (Anun-Nak and Leta targets, §5.9)."""
    return (
        state.meeples[tile] == NO_MEEPLES
        and state.owners[tile] is None
        and not state.palms[tile]
        and not state.palaces[tile]
    )


def with_counts(counts: tuple[int, ...], index: int, delta: int) -> tuple[int, ...]:
    """``counts`` with ``counts[index] += delta``."""
    items = list(counts)
    items[index] += delta
    return tuple(items)


def with_item(items: tuple[int, ...], index: int, value: int) -> tuple[int, ...]:
    """``items`` with ``items[index] = value``."""
    return (*items[:index], value, *items[index + 1 :])


def set_tile_meeples(state: State, tile: int, counts: tuple[int, ...]) -> State:
    meeples = state.meeples
    return replace(state, meeples=(*meeples[:tile], counts, *meeples[tile + 1 :]))


def with_player(state: State, seat: int, player: Player) -> State:
    players = state.players
    return replace(state, players=(*players[:seat], player, *players[seat + 1 :]))


def with_turn(state: State, step: Step, turn: Turn) -> State:
    return replace(state, step=step, turn=turn)


def gain_gold(state: State, seat: int, amount: int) -> State:
    player = state.players[seat]
    return with_player(state, seat, replace(player, gold=player.gold + amount))


def add_cards(cards: tuple[int, ...], gained: tuple[Card, ...]) -> tuple[int, ...]:
    items = list(cards)
    for card in gained:
        items[card] += 1
    return tuple(items)


def to_bag(state: State, meeple: int, count: int) -> State:
    if not count:
        return state
    return replace(state, bag=with_counts(state.bag, meeple, count))


def pay(state: State, seat: int, payment: Pay) -> State:
    """Pay Elders into the bag and Fakirs onto the resource discard pile (§3.6)."""
    elders, fakirs = PAY_PARTS[payment]
    player = state.players[seat]
    player = replace(
        player, elders=player.elders - elders, cards=with_counts(player.cards, FAKIR, -fakirs)
    )
    state = with_player(state, seat, player)
    state = to_bag(state, Meeple.ELDER, elders)
    if fakirs:
        state = replace(state, resource_discard=state.resource_discard + (FAKIR,) * fakirs)
    return state


def can_pay(player: Player, payment: Pay) -> bool:
    elders, fakirs = PAY_PARTS[payment]
    return player.elders >= elders and player.cards[FAKIR] >= fakirs


def discard_fakirs(state: State, seat: int, count: int) -> State:
    """Discard ``count`` Fakirs (Builders, Assassins, Kumarbi)."""
    if not count:
        return state
    player = state.players[seat]
    state = with_player(
        state, seat, replace(player, cards=with_counts(player.cards, FAKIR, -count))
    )
    return replace(state, resource_discard=state.resource_discard + (FAKIR,) * count)


def mark_used(state: State, seat: int, djinn: Djinn) -> State:
    """The Djinn's paid power is spent for this round (§3.6)."""
    player = state.players[seat]
    used = tuple(sorted((*player.used, djinn)))
    return with_player(state, seat, replace(player, used=used))


def owner_of(state: State, djinn: Djinn) -> int | None:
    for seat, player in enumerate(state.players):
        if djinn in player.djinns:
            return seat
    return None


def passive_payout(state: State, djinn: Djinn, actor: int, payout: tuple[int, int]) -> State:
    """Pay a passive Djinn's owner: ``payout[0]`` if the owner acted, else ``payout[1]``."""
    owner = owner_of(state, djinn)
    if owner is None:
        return state
    return gain_gold(state, owner, payout[0] if owner == actor else payout[1])


def draw_resources(state: State, count: int) -> tuple[State, tuple[Card, ...]]:
    """Top cards of the resource pile, reshuffling the discard pile when it runs out (§5.11)."""
    pile, discard = state.resource_pile, state.resource_discard
    if len(pile) >= count:
        return replace(state, resource_pile=pile[count:]), pile[:count]
    drawn = list(pile)
    pile = ()
    rng_state = state.rng
    if discard:
        rng = Rng(rng_state)
        pile = rng.shuffled(discard)
        rng_state = rng.state
        discard = ()
        take = count - len(drawn)
        drawn.extend(pile[:take])
        pile = pile[take:]
    state = replace(state, resource_pile=pile, resource_discard=discard, rng=rng_state)
    return state, tuple(drawn)


def draw_djinns(state: State, count: int) -> tuple[State, tuple[Djinn, ...]]:
    """Top Djinns of the pile, reshuffling the Djinn discard pile when it runs out (§5.11)."""
    pile, discard = state.djinn_pile, state.djinn_discard
    if len(pile) >= count:
        return replace(state, djinn_pile=pile[count:]), pile[:count]
    drawn = list(pile)
    pile = ()
    rng_state = state.rng
    if discard:
        rng = Rng(rng_state)
        pile = rng.shuffled(discard)
        rng_state = rng.state
        discard = ()
        take = count - len(drawn)
        drawn.extend(pile[:take])
        pile = pile[take:]
    state = replace(state, djinn_pile=pile, djinn_discard=discard, rng=rng_state)
    return state, tuple(drawn)


def draw_from_bag(state: State, count: int) -> tuple[State, tuple[int, ...]]:
    """Draw ``min(count, bag)`` meeples at random (§6: list the bag Y, W, G, B, R and pick
    index ``below(bag size)``, once per meeple). Returns the counts drawn."""
    bag = list(state.bag)
    drawn = [0] * len(MEEPLES)
    rng = Rng(state.rng)
    for _ in range(min(count, sum(bag))):
        index = rng.below(sum(bag))
        for colour, have in enumerate(bag):
            if index < have:
                bag[colour] -= 1
                drawn[colour] += 1
                break
            index -= have
    return replace(state, bag=tuple(bag), rng=rng.state), tuple(drawn)


def place_camel(state: State, seat: int, tile: int) -> State:
    """Claim ``tile``; placing one's last camel triggers the end (§7.1)."""
    player = state.players[seat]
    state = with_player(state, seat, replace(player, camels=player.camels - 1))
    owners = state.owners
    state = replace(state, owners=(*owners[:tile], seat, *owners[tile + 1 :]))
    if player.camels == 1:
        state = replace(state, end_triggered=True)
    return state


def claim_if_emptied(state: State, seat: int, tile: int) -> State:
    """A3/A4b: an emptied, unowned tile gets a camel if the player has one left."""
    if (
        state.meeples[tile] == NO_MEEPLES
        and state.owners[tile] is None
        and state.players[seat].camels > 0
    ):
        return place_camel(state, seat, tile)
    return state


def djinn_name(djinn: Djinn) -> str:
    return DJINNS[djinn].name

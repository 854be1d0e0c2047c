"""Setup (rules spec §4): every random step, from the seeded PRNG, in the spec's order.

1-2 players, camels, markers and 50 GC; 3 shuffle the 30 tiles into the 5x6 grid
(row-major); 4 shuffle the 90 meeples and put 3 on each tile, tile 0 first; 5 shuffle
the markers onto the Bid Order track; 6 shuffle the 54 resource cards and deal 9 face
up; 7 shuffle the 22 Djinns and display 3; 8 full palm and palace supplies.
"""

from __future__ import annotations

from collections.abc import Mapping

from tribes.engine import BadOptionsError
from tribes.engine.rng import Rng
from tribes.games.five_tribes.data import (
    CAMELS,
    CARD_COUNTS,
    CARDS,
    DJINN_DISPLAY_SIZE,
    MARKERS_PER_PLAYER,
    MEEPLE_COUNTS,
    MEEPLES,
    MEEPLES_PER_TILE,
    NO_CARDS,
    NO_MEEPLES,
    OPTION_NEIGHBOURHOOD,
    OPTION_NEKIR,
    OPTIONS,
    PAID_SPOTS,
    PALACES,
    PALM_TREES,
    RESOURCE_ROW_SIZE,
    SEAT_COUNTS,
    STARTING_GOLD,
    TILE_SET,
    Djinn,
)
from tribes.games.five_tribes.grid import TILES
from tribes.games.five_tribes.state import Player, State, Step


def _option(options: Mapping[str, str], name: str) -> str:
    spec = next(spec for spec in OPTIONS if spec.name == name)
    value = options.get(name, spec.default)
    if value not in spec.choices:
        raise BadOptionsError(
            f"option {name!r} must be one of {', '.join(spec.choices)}, not {value!r}"
        )
    return value


def new_game(seats: int, options: Mapping[str, str], seed: int) -> State:
    """A new game for ``seats`` players (§4), fully determined by ``seed``."""
    if seats not in SEAT_COUNTS:
        raise BadOptionsError(f"Five Tribes is played by 2 to 4 players, not {seats}")
    unknown = sorted(set(options) - {spec.name for spec in OPTIONS})
    if unknown:
        raise BadOptionsError(f"Five Tribes has no option {', '.join(map(repr, unknown))}")
    reach = int(_option(options, OPTION_NEIGHBOURHOOD))
    nekir_per_meeple = _option(options, OPTION_NEKIR) == "meeple"

    rng = Rng(seed)
    layout = rng.shuffled(TILE_SET)
    bag = [MEEPLES[c] for c, count in enumerate(MEEPLE_COUNTS) for _ in range(count)]
    rng.shuffle(bag)
    meeples = []
    for tile in range(TILES):
        counts = list(NO_MEEPLES)
        for meeple in bag[tile * MEEPLES_PER_TILE : (tile + 1) * MEEPLES_PER_TILE]:
            counts[meeple] += 1
        meeples.append(tuple(counts))
    markers = rng.shuffled(range(seats * MARKERS_PER_PLAYER[seats]))
    resources = rng.shuffled(
        [CARDS[c] for c, count in enumerate(CARD_COUNTS) for _ in range(count)]
    )
    djinns = rng.shuffled(tuple(Djinn))

    player = Player(
        gold=STARTING_GOLD,
        viziers=0,
        elders=0,
        cards=NO_CARDS,
        djinns=(),
        camels=CAMELS[seats],
        used=(),
        echidna=False,
        iblis=False,
    )
    return State(
        seats=seats,
        redirect_reach=reach,
        nekir_per_meeple=nekir_per_meeple,
        round=1,
        step=Step.BID,
        layout=layout,
        meeples=tuple(meeples),
        owners=(None,) * TILES,
        palms=(0,) * TILES,
        palaces=(0,) * TILES,
        bag=NO_MEEPLES,
        palm_supply=PALM_TREES,
        palace_supply=PALACES,
        resource_pile=resources[RESOURCE_ROW_SIZE:],
        resource_row=resources[:RESOURCE_ROW_SIZE],
        resource_discard=(),
        djinn_pile=djinns[DJINN_DISPLAY_SIZE:],
        djinn_display=djinns[:DJINN_DISPLAY_SIZE],
        djinn_discard=(),
        players=(player,) * seats,
        bid_order=markers,
        next_bid_order=(),
        track=(None,) * len(PAID_SPOTS),
        zero_aisle=(),
        overflow=(),
        turn=None,
        end_triggered=False,
        final_scores=None,
        rng=rng.state,
    )

"""Game options (rules spec §3.7, §5.9, §5.11 ``config``, §6, §10 #6 and #17).

``seat_bonus_vp`` (UNVERIFIED variant, default off), ``hide_opponent_vp`` (the seed's
"nobody has to reveal their VP", default on) and ``turn_cap`` (the ENGINE SAFEGUARD
against a game that never executes orange events, default 400 completed turns).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from tribes.engine import BadOptionsError, OptionSpec
from tribes.games.tribes_early_civilization.data import DEFAULT_TURN_CAP, END_THRESHOLD

SEAT_BONUS = "seat_bonus_vp"
HIDE_VP = "hide_opponent_vp"
TURN_CAP = "turn_cap"
#: Bounds of ``turn_cap``: a cap below one round would end the game before anyone plays
#: twice; above this the safeguard no longer bounds the work a stored game can cost.
TURN_CAP_RANGE = (1, 10_000)

OPTIONS = (
    OptionSpec(
        name=SEAT_BONUS,
        description=(
            "the 3rd and 4th players in turn order start with 1 VP (a review's claim, "
            "not in the rulebook; spec §3.7)"
        ),
        default="off",
        choices=("off", "on"),
    ),
    OptionSpec(
        name=HIDE_VP,
        description="victory points are shown only to their owner until the game ends (§6)",
        default="on",
        choices=("on", "off"),
    ),
    OptionSpec(
        name=TURN_CAP,
        description=(
            f"completed turns of all players after which the game ends and is scored "
            f"(engine safeguard, §5.9; {TURN_CAP_RANGE[0]}-{TURN_CAP_RANGE[1]})"
        ),
        default=str(DEFAULT_TURN_CAP),
    ),
)


@dataclass(frozen=True, slots=True)
class Config:
    """The resolved options of one game (§5.11 ``config``)."""

    num_players: int
    end_threshold: int
    seat_bonus_vp: bool
    hide_opponent_vp: bool
    turn_cap: int


def _value(options: Mapping[str, str], spec: OptionSpec) -> str:
    value = options.get(spec.name, spec.default)
    if spec.choices and value not in spec.choices:
        raise BadOptionsError(
            f"option {spec.name!r} must be one of {', '.join(spec.choices)}, not {value!r}"
        )
    return value


def _turn_cap(text: str) -> int:
    low, high = TURN_CAP_RANGE
    if not (text.isascii() and text.isdigit()) or not low <= int(text) <= high:
        shown = text if len(text) <= 12 else text[:12] + "..."
        raise BadOptionsError(
            f"option {TURN_CAP!r} must be a whole number from {low} to {high}, not {shown!r}"
        )
    return int(text)


def resolve(seats: int, options: Mapping[str, str]) -> Config:
    """Check the seat count and every option; defaults for the ones not given."""
    if seats not in END_THRESHOLD:
        raise BadOptionsError(
            f"Tribes: Early Civilization is played by 2 to 4 players, not {seats}"
        )
    known = {spec.name: spec for spec in OPTIONS}
    unknown = sorted(set(options) - set(known))
    if unknown:
        raise BadOptionsError(
            f"Tribes: Early Civilization has no option {', '.join(map(repr, unknown))} "
            f"(options: {', '.join(sorted(known))})"
        )
    return Config(
        num_players=seats,
        end_threshold=END_THRESHOLD[seats],
        seat_bonus_vp=_value(options, known[SEAT_BONUS]) == "on",
        hide_opponent_vp=_value(options, known[HIDE_VP]) == "on",
        turn_cap=_turn_cap(_value(options, known[TURN_CAP])),
    )

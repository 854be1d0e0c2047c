"""Game options (spec §3.5 ``leaders``, §3.7 ``event_set``, §5.8 ``turn_cap``).

``leaders`` chooses the basic game or the HOUSE RULES of §3.5 (placeholder leader powers,
not the published ones); ``event_set`` the sixteen event tiles or the base twelve;
``turn_cap`` is the ENGINE SAFEGUARD that ends a game nobody wins (not a rule).
"""

from __future__ import annotations

from collections.abc import Mapping

from tribes.engine import BadOptionsError, OptionSpec
from tribes.games.rise_of_tribes.data import DEFAULT_TURN_CAP, EventSet, Leaders

#: The turn cap accepted: at least one turn, at most this many (a bounded game).
TURN_CAP_MAX = 100_000

OPTIONS = (
    OptionSpec(
        name="leaders",
        description=(
            "off: the basic game, tribes differ only in village cost; house: HOUSE RULES, "
            "each player picks one of their leader's two powers at setup, with placeholder "
            "effects that are NOT the published powers (a game played with them is a "
            "house-rules game)"
        ),
        default=Leaders.OFF.value,
        choices=tuple(v.value for v in Leaders),
    ),
    OptionSpec(
        name="event_set",
        description=(
            "all16: all sixteen event tiles; base12: without Altar, Chieftain, Dugout Canoe "
            "and Walls (the 12/4 split is a reconstruction)"
        ),
        default=EventSet.ALL16.value,
        choices=tuple(v.value for v in EventSet),
    ),
    OptionSpec(
        name="turn_cap",
        description=(
            "engine safeguard, not a rule: after this many turns (of all players) without "
            f"a 15-VP win the game stops as capped, the most VP leading (1-{TURN_CAP_MAX})"
        ),
        default=str(DEFAULT_TURN_CAP),
    ),
)


def parse_options(options: Mapping[str, str]) -> tuple[EventSet, Leaders, int]:
    """The typed options; defaults for missing names; BadOptionsError for bad values."""
    unknown = sorted(set(options) - {spec.name for spec in OPTIONS})
    if unknown:
        raise BadOptionsError(f"Rise of Tribes has no option {', '.join(map(repr, unknown))}")
    try:
        leaders = Leaders(options.get("leaders", Leaders.OFF.value))
        event_set = EventSet(options.get("event_set", EventSet.ALL16.value))
    except ValueError as exc:
        raise BadOptionsError(f"bad Rise of Tribes option: {exc}") from None
    text = options.get("turn_cap", str(DEFAULT_TURN_CAP))
    if not text.isdigit() or text != str(int(text)) or not 1 <= int(text) <= TURN_CAP_MAX:
        raise BadOptionsError(
            f"option 'turn_cap' must be a whole number from 1 to {TURN_CAP_MAX}, not {text!r}"
        )
    return event_set, leaders, int(text)

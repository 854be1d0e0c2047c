"""The pinned pseudo-random generator whose state lives inside every game state.

SplitMix64 (Steele, Lea & Flood 2014; the seeding generator of Vigna's xoshiro
family): one 64-bit word of state, so it is trivially stored in a frozen ``State``
and replayed on any replica. It is our own implementation, pinned by golden vectors
in ``tests/engine/test_rng.py``: changing it would change every stored game, so it
never changes.

Usage inside a pure rule function::

    rng = Rng(state.rng)
    rng.shuffle(deck)
    state = replace(state, rng=rng.state)

The state is hidden information: views never contain it.
"""

from __future__ import annotations

from collections.abc import MutableSequence, Sequence
from typing import TypeVar

T = TypeVar("T")

_MASK = (1 << 64) - 1
_GOLDEN = 0x9E3779B97F4A7C15


class Rng:
    """A SplitMix64 generator; ``state`` is the value to store back in the game."""

    __slots__ = ("state",)

    def __init__(self, state: int) -> None:
        self.state = state & _MASK

    def next_u64(self) -> int:
        """The next 64-bit output."""
        self.state = z = (self.state + _GOLDEN) & _MASK
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
        return z ^ (z >> 31)

    def below(self, n: int) -> int:
        """A uniform integer in ``[0, n)``, without modulo bias (rejection sampling)."""
        if n <= 0:
            raise ValueError("below() needs a positive bound")
        limit = (1 << 64) - ((1 << 64) % n)
        while True:
            x = self.next_u64()
            if x < limit:
                return x % n

    def shuffle(self, items: MutableSequence[T]) -> None:
        """Fisher-Yates shuffle in place, from the last position down."""
        for i in range(len(items) - 1, 0, -1):
            j = self.below(i + 1)
            items[i], items[j] = items[j], items[i]

    def shuffled(self, items: Sequence[T]) -> tuple[T, ...]:
        """A shuffled copy as a tuple (handy for frozen states)."""
        out = list(items)
        self.shuffle(out)
        return tuple(out)

    def choice(self, items: Sequence[T]) -> T:
        """One element, uniformly."""
        return items[self.below(len(items))]

"""Seeded mutations of valid request bytes, for the hostile-input suites."""

from __future__ import annotations

import random


def mutate(rng: random.Random, data: bytes) -> bytes:
    """``data`` with 1-5 random edits: a byte changed, the tail cut, 8 random bytes
    inserted, or a prefix appended (what a broken or hostile client sends)."""
    out = bytearray(data)
    for _ in range(rng.randrange(1, 6)):
        kind = rng.randrange(4)
        if kind == 0 and out:
            out[rng.randrange(len(out))] = rng.randrange(256)
        elif kind == 1 and out:
            del out[rng.randrange(len(out)) :]
        elif kind == 2:
            out[rng.randrange(len(out) + 1) : 0] = bytes(rng.randrange(256) for _ in range(8))
        else:
            out += out[: rng.randrange(len(out) + 1)]
    return bytes(out)

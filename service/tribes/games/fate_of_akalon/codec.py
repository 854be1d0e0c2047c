"""Fate of Akalon's stored form: the state as compact JSON (``tribes.engine.codec``)."""

from __future__ import annotations

from tribes.engine.codec import StateCodec
from tribes.games.fate_of_akalon.state import State

CODEC = StateCodec(State, version=1)
encode = CODEC.encode
decode = CODEC.decode

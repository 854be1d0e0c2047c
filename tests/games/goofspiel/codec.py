"""Goofspiel's stored form."""

from __future__ import annotations

from tests.games.goofspiel.state import State
from tribes.engine.codec import StateCodec

CODEC = StateCodec(State, version=1)
encode = CODEC.encode
decode = CODEC.decode

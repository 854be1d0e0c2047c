"""Rise of Tribes' stored form: the engine's JSON state codec over ``State`` (DESIGN "Store")."""

from __future__ import annotations

from tribes.engine.codec import StateCodec
from tribes.games.rise_of_tribes.state import State

CODEC = StateCodec(State, version=1)
encode = CODEC.encode
decode = CODEC.decode

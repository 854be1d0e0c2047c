"""Protobuf <-> domain conversion: one module per game plus the shared snapshot code.

With the servicer, the only code that imports ``tribes.v1``.
"""

from tribes.wire.base import GameWire

__all__ = ["GameWire"]

"""tribes: a game-state service for four tribal board and card games.

The import package is laid out in rings (see README "Architecture"): ``engine`` and
``games`` are pure rules code; ``wire``, ``store`` and the gRPC modules sit around them.
"""

from tribes import native

__version__ = "0.1.0"

native.guard()  # before any compiled module can be imported (tribes.native)

"""tribes: a game-state service for four tribal board and card games.

The import package is laid out in rings (see README "Architecture"): ``engine`` and
``games`` are pure rules code; ``wire``, ``store`` and the gRPC modules sit around them.
"""

__version__ = "0.1.0"

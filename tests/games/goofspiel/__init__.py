"""Goofspiel: the platform's example game, registered only in tests.

A small complete game that exercises everything the real games need: a shuffled,
hidden prize deck (randomness in the state), hidden simultaneous bids revealed
together (several seats to act at once), per-seat views and a final result. It is
also the template for adding a game: the same files as ``tribes/games/<game>/``.

Rules (the classic card game): every player holds the cards 1..N of one suit; the
prize deck holds 1..N of another, shuffled. Each round the top prize is turned face
up and every player bids one card from hand, face down, all at once. The bids are
revealed together; the single highest bid wins the prize's value in points; if the
highest bid is tied, nobody scores the prize. Bid cards are spent. After N rounds the
highest total wins.
"""

from tests.games.goofspiel.rules import GAME

__all__ = ["GAME"]

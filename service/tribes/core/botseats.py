"""Seats the service plays itself: bot seats, seats played out after leaving, timed-out
decisions — outside the request path, exactly once per decision on any replica.

After every commit (and from the sweep over due work) ``kick`` looks at the game: if a
seat that a bot plays is to act (or a seat whose decision timed out with on_timeout =
bot), a background task takes the decision's lease (so one
replica does the work), lets the bot choose in a worker thread (a slow bot never delays a
person's call), and plays the move through the ordinary move path as that seat, with the
version it chose against and a request id naming the decision — so even two replicas
that both computed it land it once (the compare-and-set and the request-id record).

The sweep runs on every replica each ``interval``: games whose deadline has passed get
their timeout applied (``Games.enforce``, compare-and-set: exactly once), games whose bot
is to act are kicked (a replica that died mid-decision leaves its lease to expire).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import random
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from tribes.core import hosting
from tribes.core.status import KNOWN

if TYPE_CHECKING:
    from tribes.core.cache import Cached
    from tribes.core.catalog import Entry
    from tribes.core.games import Games

log = logging.getLogger(__name__)

#: (game, state the bot's seat may know is derived inside, seat, kind, seed) -> a legal move
Chooser = Callable[[Any, Any, int, str, int], Any]
#: (game, state, seat, kind, seed, budget in ms) -> a legal move: SuggestMove's bot
Suggester = Callable[[Any, Any, int, str, int, int], Any]
LEASE_MS = 30_000
MAX_RUNNING = 32  # bot decisions computed at once by this process


def random_choice(game: Any, state: Any, seat: int, kind: str, seed: int) -> Any:
    """The fallback bot: a uniform choice among the legal moves (no hidden data read)."""
    return random.Random(seed).choice(list(game.legal_moves(state, seat)))


def random_suggestion(game: Any, state: Any, seat: int, kind: str, seed: int, ms: int) -> Any:
    """The fallback suggester: ``random_choice`` (it needs no thinking time)."""
    return random_choice(game, state, seat, kind, seed)


class BotSeats:
    def __init__(self, games: Games, chooser: Chooser | None = None) -> None:
        self.games = games
        self.chooser = chooser or random_choice
        self._running: dict[str, asyncio.Task[None]] = {}
        #: the newest version kicked while that game's decision was running (its own move's
        #: commit, or another seat's): looked at as soon as the running one ends
        self._next: dict[str, tuple[Entry, Cached]] = {}
        self._slots = asyncio.Semaphore(MAX_RUNNING)
        self._closed = False
        self._holder = f"{os.getpid()}-{os.urandom(4).hex()}"  # this process's leases

    def to_play(self, entry: Entry, cached: Cached) -> int | None:
        """The seat a bot should move for now, if any."""
        game, record = entry.game, cached.record
        if hosting.is_over(game, cached.state, record):
            return None
        for seat in game.to_act(cached.state):
            if record.seats[seat].bot or record.seats[seat].bot_decides:
                return int(seat)
        return None

    def kick(self, entry: Entry, game_id: str, cached: Cached) -> None:
        """Start the bot's decision for this version; while one runs here for the game, the
        version is kept and looked at when it ends (a bot's next move in a row, or the
        move after a person's that overtook it, does not wait for the sweep)."""
        seat = None if self._closed else self.to_play(entry, cached)
        if seat is None:
            return
        if game_id in self._running:
            waiting = self._next.get(game_id)
            if waiting is None or waiting[1].version < cached.version:
                self._next[game_id] = (entry, cached)
            return
        task = asyncio.get_running_loop().create_task(self._decide(entry, game_id, cached, seat))
        self._running[game_id] = task
        task.add_done_callback(lambda _: self._ended(game_id))

    def _ended(self, game_id: str) -> None:
        self._running.pop(game_id, None)
        waiting = self._next.pop(game_id, None)
        if waiting is not None:
            self.kick(waiting[0], game_id, waiting[1])

    async def _decide(self, entry: Entry, game_id: str, cached: Cached, seat: int) -> None:
        """Claim the decision's lease, choose and play; a decision not played — refused,
        failed, or cancelled because the process is stopping — hands its lease back at
        once, so the sweep's next look (here or on another replica) takes it without
        waiting for the lease to run out; its request id still lands the move once if a
        refused commit did land."""
        games = self.games
        decision = f"bot:{cached.version}:{seat}"
        claimed = played = False
        try:
            async with self._slots:
                if not await games.store.claim(game_id, decision, LEASE_MS, self._holder):
                    return  # another replica is on it
                claimed = True
                kind = cached.record.seats[seat].bot or hosting.DEFAULT_BOT
                seed = (cached.meta.seed ^ (cached.version * 0x9E3779B97F4A7C15)) & (2**64 - 1)
                move = await asyncio.to_thread(
                    self.chooser, entry.game, cached.state, seat, kind, seed
                )
                version = await games.play_as(game_id, seat, move.key, cached.version, decision)
                played = True
                games.metrics.inc(games.metrics.bot_moves, entry.game.id, kind)
                log.debug("bot %s moved %s in %s at %d", kind, move.key, game_id, version)
        except KNOWN as exc:  # the game moved on, or the store is away: the sweep retries
            log.debug("bot decision %s of %s not played: %s", decision, game_id, exc)
        except Exception:
            log.exception("bot decision %s of %s failed", decision, game_id)
        finally:
            if claimed and not played:
                with contextlib.suppress(*KNOWN):
                    await games.store.unclaim(game_id, decision, self._holder)

    async def close(self) -> None:
        self._closed = True
        self._next.clear()
        for task in list(self._running.values()):
            task.cancel()
        for task in list(self._running.values()):
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task


async def sweep(games: Games, bots: BotSeats, batch: int = 100) -> int:
    """One pass over the work that has fallen due; the number of games looked at."""
    now = await games.store.now_ms()
    games.clock.observe(now)
    due = await games.store.due_before(now, batch)
    for game_id in due:
        try:
            await games.service_due(game_id, now)
        except KNOWN as exc:
            log.debug("due work of %s not done: %s", game_id, exc)
    return len(due)

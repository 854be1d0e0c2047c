"""A mutable working copy of the state for one ``apply``, and the continuous rules (spec §5.0).

``apply`` thaws the frozen ``State`` into a ``Board``, runs the move and every automatic
step after it, and freezes the result into a new ``State``; the input is never
touched, and unchanged parts keep their identity (cheap to re-encode). The board owns
what every phase shares: members entering and leaving hexes with C1 (village loss) and
C4 (supply), VP with C2 (the immediate win, raised as ``GameWon``), resources, the
event slots and the public log.
"""

from __future__ import annotations

from dataclasses import replace

from tribes.games.rise_of_tribes.cards import EVENT_CARD, Event
from tribes.games.rise_of_tribes.data import (
    DROUGHT_LIMIT,
    HEX_LIMIT,
    WIN_VP,
    EventSet,
    Leaders,
    Power,
    Terrain,
)
from tribes.games.rise_of_tribes.maps import Geometry, Hex, geometry
from tribes.games.rise_of_tribes.state import (
    NOBODY,
    ActionState,
    Conflict,
    Player,
    Resolving,
    Slot,
    State,
    Step,
    Turn,
)

#: The public log keeps this many recent lines (the service's move log has every move).
LOG_LIMIT = 24


class GameWon(Exception):
    """C2: a player reached 15 VP; the game stops at once (raised out of any step)."""


class Board:
    """The state's fields as attributes; members as lists once a hex changes."""

    __slots__ = (
        "_log",
        "_members_thawed",
        "action",
        "active",
        "actor",
        "capped",
        "conflict",
        "event_deck",
        "event_discard",
        "event_set",
        "geo",
        "invader_hex",
        "invaders",
        "leaders",
        "mammoth_hex",
        "members",
        "n",
        "old",
        "players",
        "pool",
        "resolving",
        "rng",
        "rows",
        "slots",
        "start_player",
        "step",
        "terrain",
        "tiger_hex",
        "turn",
        "turn_cap",
        "turn_count",
        "villages",
        "volcano",
        "winner",
    )

    def __init__(self, state: State) -> None:
        self.old = state
        self.n = state.seats
        self.geo: Geometry = geometry(state.seats)
        self.event_set: EventSet = state.event_set
        self.leaders: Leaders = state.leaders
        self.turn_cap = state.turn_cap
        self.terrain: tuple[Terrain, ...] = state.terrain
        self.members: list[list[int]] | tuple[tuple[int, ...], ...] = state.members
        self._members_thawed = False
        self.villages = list(state.villages)
        self.invader_hex = state.invader_hex
        self.invaders = state.invaders
        self.mammoth_hex = state.mammoth_hex
        self.tiger_hex = state.tiger_hex
        self.volcano: Hex | None = state.volcano
        self.rows = state.rows
        self.pool = state.pool
        self.players = list(state.players)
        self.event_deck = state.event_deck
        self.event_discard = state.event_discard
        self.slots = list(state.slots)
        self.start_player = state.start_player
        self.step = state.step
        self.actor = state.actor
        self.active = state.active
        self.turn: Turn | None = state.turn
        self.action: ActionState | None = state.action
        self.conflict: Conflict | None = state.conflict
        self.resolving: Resolving | None = state.resolving
        self.turn_count = state.turn_count
        self.winner = state.winner
        self.capped = state.capped
        self._log: list[str] = []
        self.rng = state.rng

    def freeze(self) -> State:
        old = self.old
        members = old.members
        if self._members_thawed:
            rows = []
            for fresh, before in zip(self.members, old.members, strict=True):
                row = tuple(fresh)
                rows.append(before if row == before else row)
            members = tuple(rows)
        log = old.log
        if self._log:
            log = (*old.log, *self._log)[-LOG_LIMIT:]
        villages = tuple(self.villages)
        slots = tuple(self.slots)
        players = old.players
        if any(a is not b for a, b in zip(self.players, players, strict=True)):
            players = tuple(self.players)
        return State(
            seats=self.n,
            event_set=self.event_set,
            leaders=self.leaders,
            turn_cap=self.turn_cap,
            terrain=self.terrain,
            members=members,
            villages=old.villages if villages == old.villages else villages,
            invader_hex=self.invader_hex,
            invaders=self.invaders,
            mammoth_hex=self.mammoth_hex,
            tiger_hex=self.tiger_hex,
            volcano=self.volcano,
            rows=self.rows,
            pool=self.pool,
            players=players,
            event_deck=self.event_deck,
            event_discard=self.event_discard,
            slots=old.slots if slots == old.slots else slots,
            start_player=self.start_player,
            step=self.step,
            actor=self.actor,
            active=self.active,
            turn=self.turn,
            action=self.action,
            conflict=self.conflict,
            resolving=self.resolving,
            turn_count=self.turn_count,
            winner=self.winner,
            capped=self.capped,
            log=log,
            rng=self.rng,
        )

    # -- decisions ------------------------------------------------------------------------

    def ask(self, step: Step, actor: int) -> None:
        """Make ``step`` the pending decision of ``actor``."""
        self.step = step
        self.actor = actor

    def order_from(self, first: int) -> list[int]:
        """Seats in clockwise order starting with ``first``."""
        n = self.n
        return [(first + i) % n for i in range(n)]

    def log(self, line: str) -> None:
        self._log.append(line)

    # -- tribe members (C1, C3, C4) -------------------------------------------------------------

    def _thaw(self) -> list[list[int]]:
        if not self._members_thawed:
            self.members = [list(row) for row in self.members]
            self._members_thawed = True
        members = self.members
        assert isinstance(members, list)
        return members

    def total(self, h: int) -> int:
        """Tribe members of all players in hex ``h`` (the hex-limit count, §5.6)."""
        return sum(self.members[h])

    def on_map(self, seat: int) -> int:
        return sum(row[seat] for row in self.members)

    def put(self, h: int, seat: int, count: int, *, from_supply: bool) -> None:
        """``count`` members of ``seat`` enter hex ``h`` (from the supply, or moving)."""
        self._thaw()[h][seat] += count
        if from_supply:
            player = self.players[seat]
            self.players[seat] = replace(player, supply=player.supply - count)

    def take(self, h: int, seat: int, count: int, *, to_supply: bool) -> None:
        """``count`` members of ``seat`` leave hex ``h`` (removed, or moving); then C1."""
        row = self._thaw()[h]
        row[seat] -= count
        if to_supply:
            player = self.players[seat]
            self.players[seat] = replace(player, supply=player.supply + count)
        if (
            row[seat] == 0
            and self.villages[h] == seat
            and not self.has_power(seat, Power.HIDDEN_VILLAGE)
        ):
            self.destroy_village(h)

    def remove(self, h: int, seat: int, count: int = 1) -> None:
        """Members removed from the map go back to their owner's supply (C4)."""
        if count:
            self.take(h, seat, count, to_supply=True)

    def destroy_village(self, h: int) -> None:
        """The village returns to the pool; a Step 4 raid is noted for Raiders (A7, G29)."""
        owner = self.villages[h]
        self.villages[h] = NOBODY
        self.log(f"the village of seat {owner} in {self.geo.hexes[h].text} is destroyed")
        conflict = self.conflict
        if (
            conflict is not None
            and conflict.hex == h
            and owner != self.active
            and self.active in conflict.start_sides
            and self.turn is not None
        ):
            self.turn = replace(self.turn, raided=True)

    def has_power(self, seat: int, power: Power) -> bool:
        return self.players[seat].power is power

    def villages_of(self, seat: int) -> int:
        return self.villages.count(seat)

    # -- resources and VP (C2) ------------------------------------------------------------------

    def gain(self, seat: int, food: int = 0, wood: int = 0, stone: int = 0) -> None:
        player = self.players[seat]
        f, w, s = player.resources
        self.players[seat] = replace(player, resources=(f + food, w + wood, s + stone))

    def pay(self, seat: int, cost: tuple[int, int, int]) -> None:
        self.gain(seat, -cost[0], -cost[1], -cost[2])

    def award(self, seat: int, vp: int, *, source: str) -> None:
        """``vp`` to ``seat`` (``source``: villages, goals or events); C2 at once."""
        if not vp:
            return
        player = self.players[seat]
        if source == "villages":
            player = replace(player, vp=player.vp + vp, vp_villages=player.vp_villages + vp)
        elif source == "events":
            player = replace(player, vp=player.vp + vp, vp_events=player.vp_events + vp)
        else:
            player = replace(player, vp=player.vp + vp)
        self.players[seat] = player
        if player.vp >= WIN_VP:
            self.winner = seat
            self.log(f"seat {seat} reaches {player.vp} VP and wins")
            self.step = Step.GAME_OVER
            self.actor = NOBODY
            raise GameWon

    def set_player(self, seat: int, player: Player) -> None:
        self.players[seat] = player

    # -- event slots (§3.7, §5.4.2, §8.29) ------------------------------------------------------

    def slot_of(self, event: Event) -> int:
        """The slot holding ``event``, or NOBODY."""
        for i, slot in enumerate(self.slots):
            if slot is not None and slot.event is event:
                return i
        return NOBODY

    def in_slot(self, event: Event) -> bool:
        return self.slot_of(event) != NOBODY

    def set_slot(self, index: int, slot: Slot | None) -> None:
        self.slots[index] = slot

    def discard_slot(self, index: int) -> None:
        """The card leaves its slot for the discard pile; its tokens go back to the box."""
        slot = self.slots[index]
        assert slot is not None
        self.slots[index] = None
        self.event_discard = (*self.event_discard, slot.event)
        self.clear_tokens(slot.event)
        self.log(f"{EVENT_CARD[slot.event].name} leaves play")

    def clear_tokens(self, event: Event) -> None:
        if event is Event.INVADERS:
            self.invader_hex, self.invaders = NOBODY, 0
        elif event is Event.MAMMOTH:
            self.mammoth_hex = NOBODY
        elif event is Event.SABERTOOTH_TIGER:
            self.tiger_hex = NOBODY

    def limit(self) -> int:
        """The hex limit now: 4 while Drought is in a slot, else 5 (§5.6)."""
        return DROUGHT_LIMIT if self.in_slot(Event.DROUGHT) else HEX_LIMIT

"""Per-caller rate limits: a token bucket per peer address, kept in this process (one
address counts once, whichever door it calls through: ``address_of``).

``CreateGame`` costs a bucket token: a peer may create ``rate`` games per second on
average with bursts of ``burst`` (``TRIBES_CREATE_RATE``, ``TRIBES_CREATE_BURST``; rate
0 turns the limit off). Buckets are per replica: N replicas allow N times the rate, which
bounds a flood without a store round trip per request. The table of buckets is bounded
too: full buckets are forgotten first, since forgetting them changes nothing.

Loopback peers (local tools, benchmarks, tests on the same host) are not limited unless
``TRIBES_LIMIT_LOOPBACK=1`` — which a deployment whose callers all arrive through a proxy
on the same host must set.
"""

from __future__ import annotations

import contextlib
import ipaddress
import time
from collections.abc import AsyncIterator, Callable

from tribes.core.errors import QuotaError

_MAX_PEERS = 50_000
Address = ipaddress.IPv4Address | ipaddress.IPv6Address


class RateLimit:
    def __init__(
        self,
        rate: float,
        burst: float,
        *,
        what: str,
        clock: Callable[[], float] = time.monotonic,
        limit_loopback: bool = False,
    ) -> None:
        self.limit_loopback = limit_loopback
        self.rate = rate
        self.burst = max(burst, 1.0)
        self.what = what
        self._clock = clock
        self._buckets: dict[str, tuple[float, float]] = {}  # peer -> (tokens, when)

    def take(self, peer: str) -> None:
        """Spend one token of ``peer``'s bucket, or raise QuotaError (RESOURCE_EXHAUSTED)."""
        if self.rate <= 0 or (not self.limit_loopback and is_loopback(peer)):
            return
        now = self._clock()
        tokens, then = self._buckets.get(peer, (self.burst, now))
        tokens = min(self.burst, tokens + (now - then) * self.rate)
        if tokens < 1.0:
            wait = (1.0 - tokens) / self.rate
            raise QuotaError(
                f"too many {self.what} from this address; retry in {wait:.1f} s",
                "RATE_LIMITED",
                retry_after_seconds=f"{wait:.1f}",
            )
        if len(self._buckets) >= _MAX_PEERS and peer not in self._buckets:
            self._forget_full(now)
        self._buckets[peer] = (tokens - 1.0, now)

    def _forget_full(self, now: float) -> None:
        refill = self.burst / self.rate
        full = [p for p, (_, when) in self._buckets.items() if now - when >= refill]
        for peer in full or list(self._buckets)[: _MAX_PEERS // 10]:
            del self._buckets[peer]


class StreamLimit:
    """Open streams (Play sessions, WatchGame and SSE watches) per peer address, in this
    process: each one holds a subscription, a presence entry and memory until it ends, so
    a peer may keep at most ``per_peer`` open at once (``TRIBES_STREAMS_PER_PEER``; 0 turns
    the limit off). Loopback peers are exempt unless ``limit_loopback``, as for rates."""

    def __init__(self, per_peer: int, *, limit_loopback: bool = False) -> None:
        self.per_peer = per_peer
        self.limit_loopback = limit_loopback
        self._open: dict[str, int] = {}  # peer address -> open streams (none: absent)

    def enter(self, peer: str) -> str | None:
        """Count a new stream of ``peer`` (the key to give to ``leave``), or raise
        QuotaError (RESOURCE_EXHAUSTED); None when the peer is not counted."""
        if self.per_peer <= 0 or (not self.limit_loopback and is_loopback(peer)):
            return None
        host = address_of(peer)
        held = self._open.get(host, 0)
        if held >= self.per_peer:
            raise QuotaError(
                f"this address has {held} streams open, the most it may; close one first",
                "TOO_MANY_STREAMS",
            )
        self._open[host] = held + 1
        return host

    def leave(self, key: str | None) -> None:
        if key is None:
            return
        held = self._open.get(key, 0) - 1
        if held > 0:
            self._open[key] = held
        else:
            self._open.pop(key, None)

    @contextlib.asynccontextmanager
    async def held(self, peer: str) -> AsyncIterator[None]:
        """``async with limit.held(peer):`` around a stream's life (beside its watch)."""
        key = self.enter(peer)
        try:
            yield
        finally:
            self.leave(key)


def peer_host(peer: str) -> str:
    """The address part of a peer (``ipv4:127.0.0.1:5000`` -> ``ipv4:127.0.0.1``; a bare
    address, as the HTTP door gives it, stays as it is)."""
    if peer.count(":") > 1 and not peer.startswith(("ipv4:", "ipv6:", "unix:")):
        return peer  # a bare IPv6 address
    if peer.startswith("ipv6:["):
        return peer.split("]", 1)[0] + "]"
    head, _, tail = peer.rpartition(":")
    return head if head and tail.isdigit() else peer


def parse_address(text: str) -> Address | None:
    """An address as a peer or a forwarded entry writes it: bare, ``ipv4:a.b.c.d:port``
    or ``ipv6:[v6]:port`` (gRPC), ``[v6]:port`` or ``a.b.c.d:port``; None for anything
    else. An IPv4-mapped IPv6 address is its IPv4 address."""
    text = text.strip()
    if text.startswith(("ipv4:", "ipv6:")):
        text = peer_host(text)[5:]
    host, _, port = text.rpartition(":")
    if port.isdigit() and (host.startswith("[") or (host and ":" not in host)):
        text = host  # a port after an address: [v6]:port or a.b.c.d:port
    if text.startswith("[") and text.endswith("]"):
        text = text[1:-1]
    try:
        address = ipaddress.ip_address(text)
    except ValueError:
        return None
    if isinstance(address, ipaddress.IPv6Address) and address.ipv4_mapped is not None:
        return address.ipv4_mapped
    return address


def address_of(peer: str) -> str:
    """The address a peer's limits count under, the same through either door: gRPC's
    ``ipv4:1.2.3.4:5000`` and the HTTP door's bare ``1.2.3.4`` (or ``::ffff:1.2.3.4``)
    are one canonical address (anything else is its ``peer_host``)."""
    parsed = parse_address(peer)
    return peer_host(peer) if parsed is None else str(parsed)


def is_loopback(peer: str) -> bool:
    """A peer address (gRPC ``ipv4:127.0.0.1:5000`` or HTTP ``127.0.0.1``) on this host."""
    host = peer_host(peer).removeprefix("ipv4:").removeprefix("ipv6:").strip("[]")
    return host.startswith("127.") or host in ("::1", "localhost") or peer.startswith("unix:")

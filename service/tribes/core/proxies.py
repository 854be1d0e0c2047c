"""Whose address a call comes from when it arrives through a proxy this deployment trusts.

Rate and stream limits and the request log count the peer address. Behind an ingress or
a load balancer every caller has the proxy's address, so the proxy's ``X-Forwarded-For``
(an HTTP header; the same name in gRPC metadata, as Envoy and nginx forward it) must be
read — but only from a proxy: any caller can write the header, so it is believed only
when the connecting peer is inside ``TRIBES_TRUSTED_PROXIES`` (comma-separated networks,
``10.0.0.0/8,fd00::/8``; unset = nobody, the header is ignored).

Each proxy appends the address it received the request from, so the list is read from
the right: trusted proxies are skipped and the first address that is not one of them is
the caller (what nginx's ``real_ip_recursive`` does). An entry that is not an address
stops the walk at the last one a trusted proxy vouched for. The header is hostile input:
only its last ``MAX_HEADER`` characters and ``MAX_HOPS`` entries are read, so a caller
cannot make the service parse an unbounded list.
"""

from __future__ import annotations

import ipaddress
from collections.abc import Iterable, Sequence

from tribes.core.quotas import Address, parse_address

MAX_HEADER = 1024  # characters of X-Forwarded-For read (from its end)
MAX_HOPS = 16  # entries walked
HEADER = "x-forwarded-for"

Network = ipaddress.IPv4Network | ipaddress.IPv6Network


def parse_networks(text: str) -> tuple[Network, ...]:
    """``TRIBES_TRUSTED_PROXIES``: networks (or single addresses), comma-separated;
    ValueError naming the entry that is neither."""
    networks = []
    for entry in (part.strip() for part in text.split(",")):
        if not entry:
            continue
        try:
            networks.append(ipaddress.ip_network(entry, strict=False))
        except ValueError:
            raise ValueError(
                f"TRIBES_TRUSTED_PROXIES: {entry[:40]!r} is not a network or address"
            ) from None
    return tuple(networks)


class TrustedProxies:
    """Resolves the caller's address from the peer and its forwarded-for values."""

    __slots__ = ("_networks",)

    def __init__(self, networks: Sequence[Network] = ()) -> None:
        self._networks = tuple(networks)

    def __bool__(self) -> bool:
        return bool(self._networks)

    def trusts(self, address: Address) -> bool:
        return any(address in network for network in self._networks)

    def client(self, peer: str, forwarded: Iterable[str] = ()) -> str:
        """The caller's address: ``peer`` itself unless it is a trusted proxy that
        forwarded one (then that address, bare and in its canonical form)."""
        if not self._networks:
            return peer
        hop = parse_address(peer)
        if hop is None or not self.trusts(hop):
            return peer
        header = ",".join(forwarded)[-MAX_HEADER:]
        if not header:
            return peer
        entries = header.split(",")
        if len(header) == MAX_HEADER and len(entries) > 1:
            entries = entries[1:]  # the first may be cut: only whole entries
        nearest = hop
        for entry in reversed(entries[-MAX_HOPS:]):
            address = parse_address(entry)
            if address is None:
                break  # not an address: stop at what a trusted proxy vouched for
            nearest = address
            if not self.trusts(address):
                break
        return peer if nearest is hop else str(nearest)

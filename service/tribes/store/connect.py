"""Which Redis the service talks to, and how: standalone, Redis Cluster or Sentinel.

``TRIBES_REDIS_MODE`` picks the path (``tribes.store.commands``): ``standalone`` (the
default; ``REDIS_URL`` names the server, ``rediss://`` for TLS), ``cluster`` (``REDIS_URL``
names any one node: the client discovers the rest and follows slots and failovers) and
``sentinel`` (``REDIS_URL`` names the sentinels, ``redis://[:password@]h1:26379,h2:26379/0``,
and ``TRIBES_REDIS_SENTINEL_SERVICE`` the master; the password is the master's).
"""

from __future__ import annotations

from typing import Any
from urllib.parse import unquote, urlsplit

from tribes.store.commands import ClusterCommands, Commands, ConnectionCommands

MODES = ("standalone", "cluster", "sentinel")


def sentinel_hosts(url: str) -> tuple[list[tuple[str, int]], dict[str, Any]]:
    """The sentinels of a sentinel URL, and the master's connection settings."""
    parts = urlsplit(url)
    netloc = parts.netloc.rpartition("@")[2]
    hosts = []
    for item in netloc.split(","):
        host, _, port = item.rpartition(":")
        hosts.append((host.strip("[]") or "localhost", int(port or 26379)))
    kwargs: dict[str, Any] = {}
    if parts.password:
        kwargs["password"] = unquote(parts.password)
    if parts.username:
        kwargs["username"] = unquote(parts.username)
    path = parts.path.strip("/")
    if path.isdigit():
        kwargs["db"] = int(path)
    if parts.scheme == "rediss":
        kwargs["ssl"] = True
    return hosts, kwargs


def commands_for(
    mode: str, url: str, *, timeout: float = 2.0, sentinel_service: str = "mymaster"
) -> Commands:
    if mode == "standalone":
        return ConnectionCommands.from_url(url, timeout=timeout)
    if mode == "cluster":
        return ClusterCommands.from_url(url, timeout=timeout)
    if mode == "sentinel":
        hosts, kwargs = sentinel_hosts(url)
        return ConnectionCommands.sentinel(hosts, sentinel_service, timeout=timeout, **kwargs)
    raise ValueError(f"TRIBES_REDIS_MODE must be one of {', '.join(MODES)}, not {mode!r}")

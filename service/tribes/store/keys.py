"""Every Redis key and channel the service uses, in one place.

All keys of one game share the hash tag ``{<game id>}`` so a game's keys live in one
Redis Cluster slot and one Lua script may touch them all. ``prefix`` separates
deployments (and test runs) sharing one Redis.
"""

from __future__ import annotations

import zlib

#: sorted sets the due index is spread over (each in its own cluster slot)
DUE_SHARDS = 16


class Keys:
    def __init__(self, prefix: str) -> None:
        self.prefix = prefix

    def game(self, game_id: str) -> str:
        """Hash: m = metadata, v = version, s = state, f = finished ("0"/"1")."""
        return f"{self.prefix}:{{{game_id}}}"

    def log(self, game_id: str) -> str:
        """List of move-log entries, oldest first."""
        return f"{self.prefix}:{{{game_id}}}:log"

    def request(self, game_id: str, request_key: str) -> str:
        """String: the version a request id produced (expires)."""
        return f"{self.prefix}:{{{game_id}}}:req:{request_key}"

    def changes(self, game_id: str, replica: str) -> str:
        """Pub/sub channel of one replica following the game: b"<version>:<state bytes>"
        after every commit another replica made, b"0:<entries>" after a presence change
        (``channels(game_id)`` followed by the replica's id)."""
        return self.channels(game_id) + replica

    def channels(self, game_id: str) -> str:
        """What every replica's change channel of the game starts with."""
        return f"{self.prefix}:{{{game_id}}}:changes:"

    def followers(self, game_id: str) -> str:
        """Sorted set: the replicas that follow the game's changes, each until (ms) its
        next renewal is due at the latest; a commit publishes to each but its own."""
        return f"{self.prefix}:{{{game_id}}}:followers"

    def lease(self, game_id: str, name: str) -> str:
        """String with a TTL: who works on the game's ``name`` (a bot decision)."""
        return f"{self.prefix}:{{{game_id}}}:lease:{name}"

    def presence(self, game_id: str) -> str:
        """Hash: ``seat:holder`` -> ``since:seen`` of the game's open sessions and watches."""
        return f"{self.prefix}:{{{game_id}}}:presence"

    def due(self, game_id: str) -> str:
        """Sorted set: games by when they need the service (deadlines, bot turns), one
        of ``DUE_SHARDS`` by the game id, so a cluster spreads a timed game's every move
        over its slots instead of writing one key."""
        return self.due_shard(zlib.crc32(game_id.encode()) % DUE_SHARDS)

    def due_shard(self, shard: int) -> str:
        return f"{self.prefix}:due:{shard}"

    def due_unsharded(self) -> str:
        """The single due set of earlier releases, read until it is empty (a rolling
        upgrade: replicas of the earlier release still write it)."""
        return f"{self.prefix}:due"

    def lobby(self, kind: str) -> str:
        """Sorted set: listed games of ``kind`` ("" = every kind) by creation time (ms)."""
        return f"{self.prefix}:lobby:{kind or '*'}"

    def secret(self) -> str:
        """String: the token-signing secret shared by every server of the deployment."""
        return f"{self.prefix}:server-secret"

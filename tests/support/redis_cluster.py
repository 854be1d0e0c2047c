"""Real, throwaway Redis deployments on loopback ports: a Cluster and a Sentinel group.

``LocalCluster``: three masters with one replica each (``redis-server --cluster-enabled``,
``redis-cli --cluster create``), a short node timeout so a failover takes about a second.
``LocalSentinel``: a master, a replica and three sentinels watching them. Each process gets
its own port and directory, is stopped by the pid it was started with, and nothing else is
touched. ``available()`` says whether this machine can run them.
"""

from __future__ import annotations

import pathlib
import random
import shutil
import socket
import subprocess
import tempfile
import time

import redis

from tests.support.redis_server import free_port


def available() -> str | None:
    """None when redis-server and redis-cli can run a cluster here, else the reason."""
    for tool in ("redis-server", "redis-cli"):
        if shutil.which(tool) is None:
            return f"{tool} is not installed"
    return None


def _ephemeral_start() -> int:
    """The first port the kernel hands out to outgoing connections (and to ``bind(0)``)."""
    try:
        return int(pathlib.Path("/proc/sys/net/ipv4/ip_local_port_range").read_text().split()[0])
    except (OSError, ValueError, IndexError):
        return 32768


def _cluster_port() -> int:
    """A free port whose cluster bus port (port + 10000) is free and valid too, both below
    the kernel's ephemeral range: a connection the tests open elsewhere (or another
    server's ``bind(0)``) cannot take either between this check and the node's start."""
    top = max(_ephemeral_start() - 10000, 11000)
    for _ in range(200):
        port = random.randrange(10000, top)
        try:
            with socket.socket() as a, socket.socket() as b:
                a.bind(("127.0.0.1", port))
                b.bind(("127.0.0.1", port + 10000))
            return port
        except OSError:
            continue
    raise RuntimeError("no free port pair for a cluster node")


class PortTaken(RuntimeError):
    """The server exited at once: another process bound its port first."""


def _wait(port: int, seconds: float = 10, proc: subprocess.Popen[bytes] | None = None) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if proc is not None and proc.poll() is not None:
            raise PortTaken(f"the server for port {port} exited (code {proc.returncode})")
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.5):
                pass
        except OSError:
            time.sleep(0.05)
            continue
        time.sleep(0.05)  # a server that lost the port exits within milliseconds
        if proc is not None and proc.poll() is not None:
            raise PortTaken(f"port {port} is another process's")
        return
    raise RuntimeError(f"nothing listens on {port}")


class _Processes:
    def __init__(self, prefix: str) -> None:
        self.dir = pathlib.Path(tempfile.mkdtemp(prefix=prefix))
        self.procs: dict[int, subprocess.Popen[bytes]] = {}

    def start(self, port: int, *args: str) -> None:
        workdir = self.dir / str(port)
        workdir.mkdir(exist_ok=True)
        self.procs[port] = subprocess.Popen(
            [
                "redis-server",
                *args,
                "--port",
                str(port),
                "--bind",
                "127.0.0.1",
                "--dir",
                str(workdir),
            ],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        _wait(port, proc=self.procs[port])

    def kill(self, port: int) -> None:
        proc = self.procs.pop(port, None)
        if proc is not None and proc.poll() is None:
            proc.kill()
            proc.wait(5)

    def stop(self) -> None:
        for port in list(self.procs):
            self.kill(port)
        shutil.rmtree(self.dir, ignore_errors=True)


class LocalCluster:
    def __init__(self, masters: int = 3, node_timeout_ms: int = 1000) -> None:
        self.ports = [_cluster_port() for _ in range(masters * 2)]
        self.masters = masters
        self.node_timeout_ms = node_timeout_ms
        self._procs = _Processes("tribes-cluster-")

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.ports[0]}/0"

    def start(self) -> LocalCluster:
        for i, port in enumerate(self.ports):
            for _ in range(5):
                try:
                    self._start(port)
                    break
                except PortTaken:  # taken since it was chosen: another port
                    self._procs.procs.pop(port, None)
                    port = self.ports[i] = _cluster_port()
            else:
                raise RuntimeError("no cluster node could start on five free ports")
        subprocess.run(
            [
                "redis-cli",
                "--cluster",
                "create",
                *(f"127.0.0.1:{port}" for port in self.ports),
                "--cluster-replicas",
                "1",
                "--cluster-yes",
            ],
            check=True,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            timeout=60,
        )
        self.wait_ok()
        self.wait_replicas()
        return self

    def _start(self, port: int) -> None:
        self._procs.start(
            port,
            *("--cluster-enabled", "yes", "--cluster-config-file", f"nodes-{port}.conf"),
            *("--cluster-node-timeout", str(self.node_timeout_ms)),
            *("--save", "", "--appendonly", "yes", "--appendfsync", "everysec"),
            *("--repl-diskless-sync-delay", "0"),  # replicas sync at once, not after 5 s
        )

    def wait_replicas(self, seconds: float = 30) -> None:
        """Until every replica's link to its master is up (it could take over)."""
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            links = []
            for port in self._procs.procs:
                try:
                    client = redis.Redis(port=port, socket_timeout=1)
                    info = client.info("replication")
                    client.close()
                except redis.RedisError:
                    links.append("down")
                    continue
                if info.get("role") == "slave":
                    links.append(str(info.get("master_link_status")))
            if links and all(link == "up" for link in links):
                return
            time.sleep(0.1)
        raise RuntimeError("the replicas did not sync")

    def wait_ok(self, seconds: float = 30) -> None:
        """Until every live node says the cluster is OK with all slots served."""
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            if all(self._state(port) == "ok" for port in self._procs.procs):
                return
            time.sleep(0.1)
        raise RuntimeError("the cluster did not become OK")

    def _state(self, port: int) -> str:
        try:
            client = redis.Redis(port=port, socket_timeout=1)
            info = client.execute_command("CLUSTER", "INFO")
            client.close()
        except redis.RedisError:
            return "down"
        text = info.decode() if isinstance(info, bytes) else str(info)
        for line in text.splitlines():
            if line.startswith("cluster_state:"):
                return line.split(":", 1)[1].strip()
        return "unknown"

    def master_of(self, key: str) -> int:
        """The port of the master serving ``key``'s slot."""
        client = redis.RedisCluster(host="127.0.0.1", port=self._live_port())
        try:
            node = client.get_node_from_key(key)
            return int(node.port)
        finally:
            client.close()

    def wait_promoted(self, key: str, old: int, seconds: float = 30) -> None:
        """Until a node other than ``old`` serves ``key``'s slot (the failover is done)."""
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            try:
                if self.master_of(key) != old:
                    return
            except redis.RedisError:
                pass
            time.sleep(0.1)
        raise RuntimeError("no replica was promoted")

    def slots_of(self, port: int) -> set[int]:
        """The hash slots the master on ``port`` serves."""
        client = redis.Redis(port=port, socket_timeout=1)
        try:
            slots: set[int] = set()
            for start, end, *nodes in client.execute_command("CLUSTER", "SLOTS"):
                if int(nodes[0][1]) == port:
                    slots.update(range(int(start), int(end) + 1))
            return slots
        finally:
            client.close()

    def _live_port(self) -> int:
        return next(iter(self._procs.procs))

    def kill(self, port: int) -> None:
        self._procs.kill(port)

    def restart(self, port: int) -> None:
        """Start a killed node again: it rejoins (as a replica, after a failover)."""
        self._start(port)

    def stop(self) -> None:
        self._procs.stop()


class LocalSentinel:
    """A master, one replica, three sentinels (quorum 2), quick failover."""

    service = "tribesmaster"

    def __init__(self) -> None:
        self.master_port, self.replica_port = free_port(), free_port()
        self.sentinel_ports = [free_port() for _ in range(3)]
        self._procs = _Processes("tribes-sentinel-")

    @property
    def url(self) -> str:
        hosts = ",".join(f"127.0.0.1:{port}" for port in self.sentinel_ports)
        return f"redis://{hosts}/0"

    def start(self) -> LocalSentinel:
        common = ("--save", "", "--appendonly", "no", "--repl-diskless-sync-delay", "0")
        self._procs.start(self.master_port, *common)
        self._procs.start(
            self.replica_port, *common, "--replicaof", "127.0.0.1", str(self.master_port)
        )
        for port in self.sentinel_ports:
            conf = self._procs.dir / f"sentinel-{port}.conf"
            conf.write_text(
                f"port {port}\nbind 127.0.0.1\n"
                f"sentinel monitor {self.service} 127.0.0.1 {self.master_port} 2\n"
                f"sentinel down-after-milliseconds {self.service} 1000\n"
                f"sentinel failover-timeout {self.service} 5000\n"
                f"sentinel parallel-syncs {self.service} 1\n"
            )
            self._procs.procs[port] = subprocess.Popen(
                ["redis-server", str(conf), "--sentinel"],
                stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL,
            )
            _wait(port)
        self._wait_replica()
        return self

    def _wait_replica(self, seconds: float = 20) -> None:
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            try:
                client = redis.Redis(port=self.replica_port, socket_timeout=1)
                info = client.info("replication")
                client.close()
                if info.get("master_link_status") == "up":  # synced, acknowledging
                    return
            except redis.RedisError:
                pass
            time.sleep(0.1)
        raise RuntimeError("the replica did not connect")

    def master_port_now(self) -> int:
        client = redis.Redis(port=self.sentinel_ports[0], socket_timeout=1)
        try:
            reply = client.execute_command("SENTINEL", "GET-MASTER-ADDR-BY-NAME", self.service)
            _host, port = reply
            return int(port)
        finally:
            client.close()

    def kill(self, port: int) -> None:
        self._procs.kill(port)

    def stop(self) -> None:
        self._procs.stop()

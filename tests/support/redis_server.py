"""A private, throwaway redis-server for tests that must stop and restart Redis.

The shared server the rest of the suite uses is never touched.
"""

from __future__ import annotations

import pathlib
import shutil
import socket
import subprocess
import tempfile
import time


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class PrivateRedis:
    def __init__(self, extra: tuple[str, ...] = ()) -> None:
        self.extra = extra
        binary = shutil.which("redis-server")
        if binary is None:
            raise RuntimeError("redis-server is not installed (make test installs it)")
        self.binary = binary
        self.port = free_port()
        self.dir = pathlib.Path(tempfile.mkdtemp(prefix="tribes-private-redis-"))
        self.proc: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start_tls(self) -> None:
        """Start a server whose ``extra`` arguments serve TLS on ``port`` (no plain port):
        ready when the port accepts a TCP connection."""
        self._spawn()
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            try:
                with socket.create_connection(("127.0.0.1", self.port), timeout=0.5):
                    return
            except OSError:
                time.sleep(0.05)
        raise RuntimeError("private TLS redis-server did not start")

    def _spawn(self) -> None:
        self.proc = subprocess.Popen(
            [
                self.binary,
                "--bind",
                "127.0.0.1",
                "--port",
                str(self.port),
                "--save",
                "",
                "--appendonly",
                "no",
                "--dir",
                str(self.dir),
                *self.extra,
            ],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )

    def start(self) -> None:
        self._spawn()
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            try:
                with socket.create_connection(("127.0.0.1", self.port), timeout=0.5) as probe:
                    probe.sendall(b"PING\r\n")
                    if probe.recv(64):  # +PONG, or -NOAUTH when a password is set
                        return
            except OSError:
                time.sleep(0.05)
        raise RuntimeError("private redis-server did not start")

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            self.proc.wait(10)
        self.proc = None

    def close(self) -> None:
        self.stop()
        shutil.rmtree(self.dir, ignore_errors=True)

"""Running real servers for tests: in-process (``App``) and as separate processes."""

from __future__ import annotations

import collections
import contextlib
import os
import pathlib
import re
import subprocess
import sys
import threading
import time
from collections.abc import AsyncIterator, Iterator
from dataclasses import replace
from typing import TextIO

import grpc
from google.rpc import error_details_pb2, status_pb2

from tribes.core.catalog import Catalog, plugin_entry
from tribes.server import App
from tribes.settings import Settings
from tribes.store import Store

ROOT = pathlib.Path(__file__).resolve().parents[2]
PLUGIN = "tests.games.goofspiel.plugin"

TEST_SETTINGS = Settings(
    port=0,
    metrics_port=0,
    http_port=0,
    allow_seed=True,
    log_requests=False,
    health_interval=0.2,
    grace=1.0,
    token_secret="test-secret-0123456789abcdef",
)


def catalog_with_example_game() -> Catalog:
    """The built-in games plus the example game."""
    from tribes.core.catalog import builtin_entries

    return Catalog([*builtin_entries(), plugin_entry(PLUGIN)])


@contextlib.asynccontextmanager
async def running_app(
    store: Store | None = None, request_stream: TextIO | None = None, **overrides: object
) -> AsyncIterator[App]:
    settings = replace(TEST_SETTINGS, **overrides)  # type: ignore[arg-type]
    app = await App.create(
        settings, catalog=catalog_with_example_game(), store=store, request_stream=request_stream
    )
    await app.start()
    try:
        yield app
    finally:
        await app.stop(grace=0.5)


class ServerProcess:
    """``python -m tribes`` in a child process; the port is read from its banner."""

    def __init__(self, env: dict[str, str]) -> None:
        full = {
            **os.environ,
            "PYTHONPATH": f"{ROOT}{os.pathsep}{ROOT / 'service'}",
            "TRIBES_PORT": "0",
            "TRIBES_METRICS_PORT": "0",
            "TRIBES_HTTP_PORT": "0",
            "TRIBES_GAME_PLUGINS": PLUGIN,
            "TRIBES_ALLOW_SEED": "1",
            "TRIBES_LOG_REQUESTS": "0",
            "TRIBES_HEALTH_INTERVAL_SECONDS": "0.2",
            "TRIBES_GRACE_SECONDS": "1",
            **env,
        }
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "tribes"],
            env=full,
            cwd=ROOT,
            stderr=subprocess.PIPE,
            text=True,
        )
        self.tail: collections.deque[str] = collections.deque(maxlen=200)
        self.port = self._read_port()

    def _read_port(self) -> int:
        deadline = time.monotonic() + 20
        assert self.proc.stderr is not None
        lines: list[str] = []
        while time.monotonic() < deadline:
            line = self.proc.stderr.readline()
            if not line:
                if self.proc.poll() is not None:
                    break
                continue
            lines.append(line)
            match = re.search(r"listening on [^:]+:(\d+)", line)
            if match:
                http = re.search(r"HTTP on [^:]+:(\d+)", line)
                self.http_port = int(http.group(1)) if http else None
                threading.Thread(target=self._drain, daemon=True).start()
                return int(match.group(1))
        self.proc.kill()
        raise RuntimeError("server did not start:\n" + "".join(lines))

    def _drain(self) -> None:
        """Keep reading stderr (the request log may be on), keeping the last lines."""
        assert self.proc.stderr is not None
        with contextlib.suppress(ValueError, OSError):
            for line in self.proc.stderr:
                self.tail.append(line)

    @property
    def target(self) -> str:
        return f"127.0.0.1:{self.port}"

    def stop(self) -> int:
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        if self.proc.stderr is not None:
            self.proc.stderr.close()
        return self.proc.returncode


@contextlib.contextmanager
def server_process(env: dict[str, str]) -> Iterator[ServerProcess]:
    proc = ServerProcess(env)
    try:
        yield proc
    finally:
        proc.stop()


def error_info(err: grpc.aio.AioRpcError) -> error_details_pb2.ErrorInfo:
    """The ErrorInfo detail of a failed call (every error of the service has one)."""
    for key, value in err.trailing_metadata() or ():
        if key == "grpc-status-details-bin":
            status = status_pb2.Status.FromString(value)
            for detail in status.details:
                info = error_details_pb2.ErrorInfo()
                if detail.Unpack(info):
                    return info
    raise AssertionError(f"no ErrorInfo in {err!r}")


def bearer(token: str) -> tuple[tuple[str, str], ...]:
    return (("authorization", f"Bearer {token}"),)

"""Several server processes on one port (``TRIBES_WORKERS=N``), metrics aggregated.

A Python server is bound to one core by its interpreter lock; with Redis as the store
any number of processes can serve the same games. The supervisor starts N copies of
``python -m tribes`` sharing the gRPC port (SO_REUSEPORT: the kernel spreads
connections), runs prometheus_client's multiprocess mode (each worker writes its
metrics to files in one directory) and serves the sum on ``TRIBES_METRICS_PORT``.
SIGTERM/SIGINT are passed on and the supervisor waits for the workers; a worker that
dies on its own is started again (at most once a second).

Measured on this project's 2-core machine (README "Performance"): two workers served
about 20 % more requests per second than one at 16 calls in flight.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time

from tribes.settings import Settings

log = logging.getLogger("tribes.workers")


def _free_port(host: str) -> int:
    with socket.socket() as s:
        s.bind((host, 0))
        return int(s.getsockname()[1])


def _spawn(env: dict[str, str], index: int) -> subprocess.Popen[bytes]:
    return subprocess.Popen(
        [sys.executable, "-m", "tribes"], env={**env, "TRIBES_WORKER_INDEX": str(index)}
    )


async def supervise(settings: Settings) -> int:
    if not settings.redis_url:
        raise SystemExit("TRIBES_WORKERS > 1 needs REDIS_URL: the embedded store is per process")
    from prometheus_client import CollectorRegistry
    from prometheus_client import multiprocess as prom_multiprocess

    from tribes.http.metrics import MetricsEndpoint

    port = settings.port or _free_port(settings.host)
    http_port = settings.http_port
    if http_port == 0:
        http_port = _free_port(settings.http_host)
    own_dir = "PROMETHEUS_MULTIPROC_DIR" not in os.environ
    metrics_dir = os.environ.get("PROMETHEUS_MULTIPROC_DIR") or tempfile.mkdtemp(
        prefix="tribes-metrics-"
    )
    for name in os.listdir(metrics_dir):  # stale files from an earlier run
        os.remove(os.path.join(metrics_dir, name))
    env = {
        **os.environ,
        "TRIBES_WORKERS": "1",
        "TRIBES_PORT": str(port),
        "TRIBES_HTTP_PORT": str(http_port),
        "TRIBES_REUSEPORT": "1",
        "TRIBES_METRICS_PORT": "-1",
        "PROMETHEUS_MULTIPROC_DIR": metrics_dir,
    }
    workers = [_spawn(env, i) for i in range(settings.workers)]
    registry = CollectorRegistry()
    prom_multiprocess.MultiProcessCollector(registry, path=metrics_dir)
    metrics = None
    if settings.metrics_port >= 0:
        metrics = MetricsEndpoint(registry)
        await metrics.start(settings.host, settings.metrics_port)
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(sig, stop.set)
    log.info("supervising %d workers on %s:%d", len(workers), settings.host, port)
    last_restart = 0.0
    try:
        while not stop.is_set():
            with contextlib.suppress(TimeoutError):
                async with asyncio.timeout(0.5):
                    await stop.wait()
            for i, proc in enumerate(workers):
                if proc.poll() is not None and not stop.is_set():
                    prom_multiprocess.mark_process_dead(proc.pid, metrics_dir)
                    if time.monotonic() - last_restart < 1.0:
                        continue
                    log.warning("worker %d exited with %s; starting it again", i, proc.returncode)
                    workers[i] = _spawn(env, i)
                    last_restart = time.monotonic()
    finally:
        for proc in workers:
            if proc.poll() is None:
                proc.send_signal(signal.SIGTERM)
        deadline = time.monotonic() + settings.grace + 5
        for proc in workers:
            try:
                proc.wait(max(0.1, deadline - time.monotonic()))
            except subprocess.TimeoutExpired:
                proc.kill()
        if metrics is not None:
            await metrics.stop()
        if own_dir:
            shutil.rmtree(metrics_dir, ignore_errors=True)
    return 0

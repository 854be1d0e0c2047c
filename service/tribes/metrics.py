"""Every Prometheus metric of the service, declared once, on an injectable registry.

Base units (seconds), bounded labels only: gRPC method and code, game type, reject
reason, store operation — never a game id or a seat. The standard ``grpc_server_*``
names follow go-grpc-prometheus / py-grpc-prometheus so existing dashboards work.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

from prometheus_client import (
    GC_COLLECTOR,
    PLATFORM_COLLECTOR,
    PROCESS_COLLECTOR,
    CollectorRegistry,
    Counter,
    Gauge,
    Histogram,
)

# From 100 µs (an in-memory rule step) to 10 s (a stuck store call).
LATENCY_BUCKETS = (
    0.0001,
    0.00025,
    0.0005,
    0.001,
    0.0025,
    0.005,
    0.01,
    0.025,
    0.05,
    0.1,
    0.25,
    0.5,
    1.0,
    2.5,
    10.0,
)
RULE_BUCKETS = (0.00002, 0.00005, 0.0001, 0.0002, 0.0005, 0.001, 0.002, 0.005, 0.01, 0.05, 0.25)


class Timer:
    """``with timer:`` observes the elapsed seconds (lighter than prometheus' own)."""

    __slots__ = ("_begin", "_observe")

    def __init__(self, observe: Callable[[float], None]) -> None:
        self._observe = observe
        self._begin = 0.0

    def __enter__(self) -> None:
        self._begin = time.perf_counter()

    def __exit__(self, *exc: object) -> None:
        self._observe(time.perf_counter() - self._begin)


class Metrics:
    def __init__(self, registry: CollectorRegistry | None = None) -> None:
        if registry is None:
            registry = CollectorRegistry()
            # the client library's process_*, python_info and python_gc_* metrics
            for collector in (PROCESS_COLLECTOR, PLATFORM_COLLECTOR, GC_COLLECTOR):
                registry.register(collector)
        self.registry = registry
        self._children: dict[tuple[int, tuple[str, ...]], Any] = {}
        r = self.registry
        grpc_labels = ("grpc_type", "grpc_service", "grpc_method")
        self.started = Counter(
            "grpc_server_started_total", "RPCs started on the server.", grpc_labels, registry=r
        )
        self.handled = Counter(
            "grpc_server_handled_total",
            "RPCs completed on the server, regardless of success or failure.",
            (*grpc_labels, "grpc_code"),
            registry=r,
        )
        self.handling = Histogram(
            "grpc_server_handling_seconds",
            "Time from receiving an RPC to sending its status.",
            grpc_labels,
            buckets=LATENCY_BUCKETS,
            registry=r,
        )
        self.msg_received = Counter(
            "grpc_server_msg_received_total",
            "RPC stream messages received on the server.",
            grpc_labels,
            registry=r,
        )
        self.msg_sent = Counter(
            "grpc_server_msg_sent_total",
            "gRPC stream messages sent on the server.",
            grpc_labels,
            registry=r,
        )
        self.http_requests = Counter(
            "http_server_requests_total",
            "HTTP requests completed, by method, route template and status code.",
            ("method", "route", "code"),
            registry=r,
        )
        self.http_seconds = Histogram(
            "http_server_request_duration_seconds",
            "Time from receiving an HTTP request to its response (stream: to its end).",
            ("method", "route"),
            buckets=LATENCY_BUCKETS,
            registry=r,
        )
        self.moves_applied = Counter(
            "tribes_moves_applied_total", "Moves applied and stored.", ("game",), registry=r
        )
        self.moves_rejected = Counter(
            "tribes_moves_rejected_total",
            "Moves refused, by reason (ILLEGAL_MOVE, NOT_YOUR_TURN, STALE_VERSION, ...).",
            ("game", "reason"),
            registry=r,
        )
        self.rule_seconds = Histogram(
            "tribes_rule_seconds",
            "Time spent in rule code per call (apply, legal_moves, view, new_game).",
            ("game", "operation"),
            buckets=RULE_BUCKETS,
            registry=r,
        )
        self.store_seconds = Histogram(
            "tribes_store_seconds",
            "Store latency per operation.",
            ("operation",),
            buckets=LATENCY_BUCKETS,
            registry=r,
        )
        self.version_conflicts = Counter(
            "tribes_version_conflicts_total",
            "Moves that lost a compare-and-set race or carried a stale expected_version.",
            ("game",),
            registry=r,
        )
        self.games_created = Counter(
            "tribes_games_created_total", "Games created.", ("game",), registry=r
        )
        self.games_finished = Counter(
            "tribes_games_finished_total", "Games that reached their end.", ("game",), registry=r
        )
        self.idempotent_replays = Counter(
            "tribes_idempotent_replays_total",
            "Requests answered from an earlier request with the same request_id.",
            ("method",),
            registry=r,
        )
        self.state_cache = Counter(
            "tribes_state_cache_total",
            "Lookups of the in-process (game, version) state cache.",
            ("result",),
            registry=r,
        )
        self.store_errors = Counter(
            "tribes_store_errors_total",
            "Store operations that failed (unreachable, timed out).",
            ("operation",),
            registry=r,
        )
        self.store_up = Gauge(
            "tribes_store_up",
            "1 while the store answers the health probe, 0 while it does not.",
            registry=r,
            multiprocess_mode="min",
        )
        self.rate_limited = Counter(
            "tribes_rate_limited_total",
            "Requests refused by a rate limit or capacity limit.",
            ("method",),
            registry=r,
        )
        self.timeouts = Counter(
            "tribes_timeouts_total",
            "Decisions that ran out of time (time controls), by game.",
            ("game",),
            registry=r,
        )
        self.resignations = Counter(
            "tribes_resignations_total", "Seats that resigned, by game.", ("game",), registry=r
        )
        self.bot_moves = Counter(
            "tribes_bot_moves_total",
            "Moves the service played for bot seats, by game and bot kind.",
            ("game", "bot"),
            registry=r,
        )
        self.suggestions = Counter(
            "tribes_bot_suggestions_total",
            "Moves suggested by SuggestMove, by game and bot kind.",
            ("game", "bot"),
            registry=r,
        )
        self.sessions = Gauge(
            "tribes_sessions",
            "Open play sessions, by transport (grpc, websocket).",
            ("transport",),
            registry=r,
            multiprocess_mode="livesum",
        )
        self.watchers = Gauge(
            "tribes_watchers",
            "Open watch streams (gRPC WatchGame and HTTP server-sent events).",
            registry=r,
            multiprocess_mode="livesum",
        )

    def child(self, metric: Any, *labels: str) -> Any:
        """``metric.labels(*labels)``, memoised (labels come from bounded sets)."""
        key = (id(metric), labels)
        found = self._children.get(key)
        if found is None:
            found = self._children[key] = metric.labels(*labels)
        return found

    def inc(self, counter: Counter, *labels: str) -> None:
        self.child(counter, *labels).inc()

    def timer(self, histogram: Histogram, *labels: str) -> Timer:
        return Timer(self.child(histogram, *labels).observe)

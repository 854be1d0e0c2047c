"""Every Prometheus metric of the service, declared once, on an injectable registry.

Base units (seconds), bounded labels only: gRPC method and code, game type, reject
reason, store operation — never a game id or a seat. The standard ``grpc_server_*``
names follow go-grpc-prometheus / py-grpc-prometheus so existing dashboards work.
"""

from __future__ import annotations

from prometheus_client import CollectorRegistry, Counter, Gauge, Histogram

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


class Metrics:
    def __init__(self, registry: CollectorRegistry | None = None) -> None:
        self.registry = registry if registry is not None else CollectorRegistry()
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
        self.watchers = Gauge(
            "tribes_watchers", "Open WatchGame streams.", registry=r, multiprocess_mode="livesum"
        )

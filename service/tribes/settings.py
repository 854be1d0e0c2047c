"""Configuration from environment variables, with defaults that run out of the box.

| variable                       | default   | meaning                                         |
|--------------------------------|-----------|-------------------------------------------------|
| TRIBES_HOST                    | 127.0.0.1 | gRPC listen address                             |
| TRIBES_PORT                    | 50051     | gRPC port (0 = any free port)                   |
| TRIBES_METRICS_PORT            | 9464      | Prometheus /metrics port (-1 = off, 0 = any)    |
| TRIBES_HTTP_HOST               | 127.0.0.1 | HTTP/JSON (REST, SSE) listen address            |
| TRIBES_HTTP_PORT               | 8080      | HTTP port (-1 = off, 0 = any free port)         |
| TRIBES_CORS_ORIGINS            | (none)    | origins allowed by CORS, comma-separated; *=any |
| TRIBES_SSE_HEARTBEAT_SECONDS   | 15        | SSE comment heartbeat while nothing changes     |
| TRIBES_WS_COMPRESS             | 0         | 1 = accept permessage-deflate on WebSockets     |
| TRIBES_WEB_DIR                 | clients/web | the playground's files, served at / (none = off)|
| REDIS_URL                      | (unset)   | Redis store; unset = embedded in-process store  |
| TRIBES_REDIS_PREFIX            | tribes    | key prefix (separates deployments)              |
| TRIBES_REDIS_MODE              | standalone| standalone, cluster (REDIS_URL: any node) or    |
|                                |           | sentinel (REDIS_URL: the sentinels, h1:p,h2:p)  |
| TRIBES_REDIS_SENTINEL_SERVICE  | mymaster  | the master's name under Sentinel                |
| TRIBES_REDIS_MIN_REPLICAS      | 0         | acknowledge a move only once N replicas have it |
| TRIBES_REDIS_WAIT_MS           | 1000      | how long a move waits for those replicas        |
| TRIBES_TOKEN_SECRET            | (shared)  | token signing secret; unset = agreed via store  |
| TRIBES_TOKEN_PREVIOUS_SECRETS  | (none)    | earlier secrets still accepted (rotation), a,b  |
| TRIBES_TLS_CERT, _KEY          | (none)    | PEM files: gRPC and HTTP serve TLS when both set|
| TRIBES_TLS_CLIENT_CA           | (none)    | PEM CA: clients must present a cert it signed   |
| TRIBES_ALLOW_SEED              | 0         | 1 = honour CreateGame.seed (tests, dev only)    |
| TRIBES_IDLE_TTL_SECONDS        | 2592000   | drop a game nobody moved in for this long       |
| TRIBES_FINISHED_TTL_SECONDS    | 604800    | keep a finished game this long                  |
| TRIBES_REQUEST_TTL_SECONDS     | 86400     | remember request ids this long                  |
| TRIBES_CACHE_GAMES             | 10000     | games whose latest state is kept in memory      |
| TRIBES_GAME_PLUGINS            | (none)    | extra game modules, comma-separated             |
| TRIBES_LOG_LEVEL               | INFO      | logging level                                   |
| TRIBES_LOG_REQUESTS            | 1         | one JSON log line per request                   |
| TRIBES_HEALTH_INTERVAL_SECONDS | 1.0       | how often health probes the store               |
| TRIBES_GRACE_SECONDS           | 5.0       | SIGTERM: time given to in-flight calls          |
| TRIBES_UVLOOP                  | 1         | use uvloop when installed                       |
| TRIBES_GC_TUNE                 | 1         | freeze start-up objects, collect less often     |
| TRIBES_REUSEPORT               | 0         | 1 = several processes may share TRIBES_PORT     |
| TRIBES_WORKERS                 | 1         | server processes on the port (needs REDIS_URL)  |
| TRIBES_CREATE_RATE             | 5         | CreateGame per second per peer (0 = no limit)   |
| TRIBES_CREATE_BURST            | 50        | CreateGame burst per peer                       |
| TRIBES_STREAMS_PER_PEER        | 200       | open sessions + watches per peer (0 = no limit) |
| TRIBES_LIMIT_LOOPBACK          | 0         | 1 = limit loopback peers too (a local proxy)    |
| TRIBES_TRUSTED_PROXIES         | (none)    | proxies whose X-Forwarded-For names the caller, |
|                                |           | networks comma-separated (10.0.0.0/8,fd00::/8)  |
| TRIBES_MAX_GAMES               | 100000    | live games the embedded store may hold          |
| TRIBES_BOT_BUDGET_MS           | 500       | a bot seat's thinking time per decision; also   |
|                                |           | SuggestMove's when the request names none       |
| TRIBES_BOT_MAX_BUDGET_MS       | 2000      | the most SuggestMove may ask for                |
| TRIBES_BOT_DEFAULT             | ismcts    | SuggestMove's bot when the request names none   |
"""

from __future__ import annotations

import os
import pathlib
from collections.abc import Mapping, MutableMapping
from dataclasses import dataclass

from tribes.core.proxies import Network, parse_networks
from tribes.store import Ttls

#: The repository checkout this package runs from (``make run``), if it is one.
_CHECKOUT = pathlib.Path(__file__).resolve().parents[2]


#: gRPC's experiment that serves accepted connections on its EventEngine's threads
_EE_LISTENER = "event_engine_listener"


def grpc_experiments(current: str, poller: bool) -> str:
    """The ``GRPC_EXPERIMENTS`` value that serves gRPC's connections as configured. With
    ``poller`` its EventEngine listener is switched off, so an accepted connection's I/O
    runs on grpc.aio's poller thread, one thread hop fewer per message, instead of on the
    EventEngine's threads. The operator's own experiments are kept, and so is their word
    on this one."""
    wanted = _experiments(current)
    if poller and not any(x.lstrip("-") == _EE_LISTENER for x in wanted):
        wanted.append("-" + _EE_LISTENER)
    return ",".join(wanted)


def prepare_grpc(env: MutableMapping[str, str]) -> None:
    """Set what gRPC's core reads from the environment once, when ``grpc`` is imported:
    call it before that import (``python -m tribes`` and ``tribes-server`` do)."""
    experiments = _wanted(env)
    if experiments:
        env["GRPC_EXPERIMENTS"] = experiments


def grpc_prepared(env: Mapping[str, str]) -> bool:
    """Whether ``GRPC_EXPERIMENTS`` already says what ``TRIBES_GRPC_POLLER`` asks for (it
    is too late to set once ``grpc`` is imported)."""
    return _wanted(env) == ",".join(_experiments(env.get("GRPC_EXPERIMENTS", "")))


def _wanted(env: Mapping[str, str]) -> str:
    poller = _flag(env, "TRIBES_GRPC_POLLER", Settings().grpc_poller)
    return grpc_experiments(env.get("GRPC_EXPERIMENTS", ""), poller)


def _experiments(value: str) -> list[str]:
    return [x.strip() for x in value.split(",") if x.strip()]


def _flag(env: Mapping[str, str], name: str, default: bool) -> bool:
    value = env.get(name)
    return default if value is None else value.strip().lower() in ("1", "true", "yes")


@dataclass(frozen=True, slots=True)
class Settings:
    host: str = "127.0.0.1"
    port: int = 50051
    metrics_port: int = 9464
    http_host: str = "127.0.0.1"
    http_port: int = 8080
    cors_origins: tuple[str, ...] = ()
    sse_heartbeat: float = 15.0
    # permessage-deflate: ~120 KiB of zlib state per session and a compression per frame,
    # for frames of a few hundred bytes (README "Decisions")
    ws_compress: bool = False
    web_dir: str | None = str(_CHECKOUT / "clients" / "web")
    redis_url: str | None = None
    redis_prefix: str = "tribes"
    redis_mode: str = "standalone"
    sentinel_service: str = "mymaster"
    min_replicas: int = 0
    replica_wait_ms: int = 1000
    token_secret: str | None = None
    previous_secrets: tuple[str, ...] = ()
    tls_cert: str | None = None
    tls_key: str | None = None
    tls_client_ca: str | None = None
    allow_seed: bool = False
    ttls: Ttls = Ttls()
    cache_games: int = 10_000
    plugins: tuple[str, ...] = ()
    log_level: str = "INFO"
    log_requests: bool = True
    health_interval: float = 1.0
    sweep_interval: float = 1.0
    grace: float = 5.0
    uvloop: bool = True
    # gRPC's network I/O on grpc.aio's poller thread instead of gRPC's EventEngine threads:
    # cheaper per Play-session message, dearer per unary call in flight (README "Performance")
    grpc_poller: bool = False
    gc_tune: bool = True
    reuseport: bool = False
    workers: int = 1
    create_rate: float = 5.0
    create_burst: float = 50.0
    streams_per_peer: int = 200
    limit_loopback: bool = False
    # parsed once here, so a typo stops the start, not a limit at run time
    trusted_proxies: tuple[Network, ...] = ()  # (tribes.core.proxies)
    max_games: int = 100_000
    bot_budget_ms: int = 500
    bot_max_budget_ms: int = 2000
    bot_default: str = "ismcts"

    @classmethod
    def from_env(cls, env: Mapping[str, str] | None = None) -> Settings:
        e = os.environ if env is None else env

        def flag(name: str, default: bool) -> bool:
            return _flag(e, name, default)

        d = cls()
        return cls(
            host=e.get("TRIBES_HOST", d.host),
            port=int(e.get("TRIBES_PORT", d.port)),
            metrics_port=int(e.get("TRIBES_METRICS_PORT", d.metrics_port)),
            http_host=e.get("TRIBES_HTTP_HOST", d.http_host),
            http_port=int(e.get("TRIBES_HTTP_PORT", d.http_port)),
            cors_origins=tuple(
                o.strip() for o in e.get("TRIBES_CORS_ORIGINS", "").split(",") if o.strip()
            ),
            sse_heartbeat=float(e.get("TRIBES_SSE_HEARTBEAT_SECONDS", d.sse_heartbeat)),
            ws_compress=flag("TRIBES_WS_COMPRESS", d.ws_compress),
            web_dir=e.get("TRIBES_WEB_DIR", d.web_dir or "") or None,
            redis_url=e.get("REDIS_URL") or None,
            redis_prefix=e.get("TRIBES_REDIS_PREFIX", d.redis_prefix),
            redis_mode=e.get("TRIBES_REDIS_MODE", d.redis_mode).strip().lower(),
            sentinel_service=e.get("TRIBES_REDIS_SENTINEL_SERVICE", d.sentinel_service),
            min_replicas=int(e.get("TRIBES_REDIS_MIN_REPLICAS", d.min_replicas)),
            replica_wait_ms=int(e.get("TRIBES_REDIS_WAIT_MS", d.replica_wait_ms)),
            token_secret=e.get("TRIBES_TOKEN_SECRET") or None,
            previous_secrets=tuple(
                x.strip()
                for x in e.get("TRIBES_TOKEN_PREVIOUS_SECRETS", "").split(",")
                if x.strip()
            ),
            tls_cert=e.get("TRIBES_TLS_CERT") or None,
            tls_key=e.get("TRIBES_TLS_KEY") or None,
            tls_client_ca=e.get("TRIBES_TLS_CLIENT_CA") or None,
            allow_seed=flag("TRIBES_ALLOW_SEED", d.allow_seed),
            ttls=Ttls(
                idle=int(e.get("TRIBES_IDLE_TTL_SECONDS", d.ttls.idle)),
                finished=int(e.get("TRIBES_FINISHED_TTL_SECONDS", d.ttls.finished)),
                request=int(e.get("TRIBES_REQUEST_TTL_SECONDS", d.ttls.request)),
            ),
            cache_games=int(e.get("TRIBES_CACHE_GAMES", d.cache_games)),
            plugins=tuple(
                p.strip() for p in e.get("TRIBES_GAME_PLUGINS", "").split(",") if p.strip()
            ),
            log_level=e.get("TRIBES_LOG_LEVEL", d.log_level),
            log_requests=flag("TRIBES_LOG_REQUESTS", d.log_requests),
            health_interval=float(e.get("TRIBES_HEALTH_INTERVAL_SECONDS", d.health_interval)),
            sweep_interval=float(e.get("TRIBES_SWEEP_SECONDS", d.sweep_interval)),
            grace=float(e.get("TRIBES_GRACE_SECONDS", d.grace)),
            uvloop=flag("TRIBES_UVLOOP", d.uvloop),
            grpc_poller=flag("TRIBES_GRPC_POLLER", d.grpc_poller),
            gc_tune=flag("TRIBES_GC_TUNE", d.gc_tune),
            reuseport=flag("TRIBES_REUSEPORT", d.reuseport),
            workers=int(e.get("TRIBES_WORKERS", d.workers)),
            create_rate=float(e.get("TRIBES_CREATE_RATE", d.create_rate)),
            create_burst=float(e.get("TRIBES_CREATE_BURST", d.create_burst)),
            streams_per_peer=int(e.get("TRIBES_STREAMS_PER_PEER", d.streams_per_peer)),
            limit_loopback=flag("TRIBES_LIMIT_LOOPBACK", d.limit_loopback),
            trusted_proxies=parse_networks(e.get("TRIBES_TRUSTED_PROXIES", "")),
            max_games=int(e.get("TRIBES_MAX_GAMES", d.max_games)),
            bot_budget_ms=int(e.get("TRIBES_BOT_BUDGET_MS", d.bot_budget_ms)),
            bot_max_budget_ms=int(e.get("TRIBES_BOT_MAX_BUDGET_MS", d.bot_max_budget_ms)),
            bot_default=e.get("TRIBES_BOT_DEFAULT", d.bot_default).strip(),
        )

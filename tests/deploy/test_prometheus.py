"""Prometheus: promtool on the config, the rules and their unit tests, and on a live /metrics.

The rules and alerts (deploy/prometheus/) are checked by promtool itself: syntax
(``check config``, ``check rules``) and behaviour (``test rules`` on the unit tests in
deploy/prometheus/tests/). Beside that: every name they read is a metric of the service or
a recorded series, every alert is unit-tested and explained in the README, and promtool's
metric linter passes on what a real server exposes after real calls.
"""

from __future__ import annotations

import re
import urllib.request
from pathlib import Path

import pytest

from tests.deploy.support import (
    GRPC_CODES,
    HISTOGRAMS,
    PROMETHEUS,
    ROOT,
    dashboard_exprs,
    is_contract_series,
    load,
    recorded_names,
    rule_groups,
    run,
    series_names,
    tool,
)
from tests.support.redis_server import free_port
from tests.support.server import PLUGIN, server_process
from tribes_client import Client, TribesError

UNIT_TESTS = sorted((PROMETHEUS / "tests").glob("*.yml"))


def test_promtool_accepts_the_config_and_finds_both_rule_files() -> None:
    """`promtool check config` passes on prometheus.yml, which loads alerts and recording rules."""
    result = run(tool("promtool"), "check", "config", str(PROMETHEUS / "prometheus.yml"))
    assert result.returncode == 0, result.stdout + result.stderr
    assert set(load(PROMETHEUS / "prometheus.yml")["rule_files"]) == {"alerts.yml", "recording.yml"}
    assert "2 rule files found" in result.stdout


def test_promtool_accepts_the_rules() -> None:
    """`promtool check rules` passes on the alert and recording rules."""
    files = [str(PROMETHEUS / "alerts.yml"), str(PROMETHEUS / "recording.yml")]
    result = run(tool("promtool"), "check", "rules", *files)
    assert result.returncode == 0, result.stdout + result.stderr


def test_promtool_unit_tests_of_the_rules_pass() -> None:
    """`promtool test rules` passes on every unit test file of deploy/prometheus/tests."""
    assert UNIT_TESTS, "no promtool unit tests found"
    result = run(tool("promtool"), "test", "rules", *map(str, UNIT_TESTS))
    assert result.returncode == 0, result.stdout + result.stderr
    assert result.stdout.count("SUCCESS") == len(UNIT_TESTS)


def test_promtool_unit_tests_catch_a_changed_threshold(tmp_path: Path) -> None:
    """The unit tests fail when an alert's threshold moves (they test, not just run)."""
    copy = tmp_path / "prometheus"
    (copy / "tests").mkdir(parents=True)
    for name in ("recording.yml", "alerts.yml"):
        (copy / name).write_text((PROMETHEUS / name).read_text())
    for test_file in UNIT_TESTS:
        (copy / "tests" / test_file.name).write_text(test_file.read_text())
    alerts = (copy / "alerts.yml").read_text()
    changed = alerts.replace("tribes_store_up) == 0", "tribes_store_up) == 2")
    assert changed != alerts
    (copy / "alerts.yml").write_text(changed)
    result = run(tool("promtool"), "test", "rules", str(copy / "tests" / "alerts_test.yml"))
    assert result.returncode != 0
    assert "TribesStoreUnavailable" in result.stdout + result.stderr


def test_every_alert_has_a_unit_test_a_severity_and_a_readme_row() -> None:
    """Each alert is exercised by a promtool test, carries a severity, and is explained."""
    tested = {
        case["alertname"]
        for test_file in UNIT_TESTS
        for group in load(test_file)["tests"]
        for case in group.get("alert_rule_test", [])
        if case.get("exp_alerts")
    }
    readme = (ROOT / "README.md").read_text()
    alerts = [rule for rule in rule_groups(PROMETHEUS / "alerts.yml")]
    assert alerts
    for rule in alerts:
        name = rule["alert"]
        assert name in tested, f"{name} is never shown firing in a unit test"
        assert rule["labels"]["severity"] in {"critical", "warning"}, name
        assert {"summary", "description", "runbook_url"} <= set(rule["annotations"]), name
        assert f"`{name}`" in readme, f"{name} is not explained in the README"


def test_every_recording_rule_is_read_and_tested() -> None:
    """No recorded series is dead (an alert, a rule or the dashboard reads it) or untested."""
    read: set[str] = set()
    for path in (PROMETHEUS / "alerts.yml", PROMETHEUS / "recording.yml"):
        for rule in rule_groups(path):
            read |= series_names(rule["expr"])
    for _, expr in dashboard_exprs():
        read |= series_names(expr)
    assert not recorded_names() - read, f"never read: {sorted(recorded_names() - read)}"
    alert_exprs = {rule["alert"]: rule["expr"] for rule in rule_groups(PROMETHEUS / "alerts.yml")}
    tested: set[str] = set()
    for test_file in UNIT_TESTS:
        for group in load(test_file)["tests"]:
            for case in group.get("promql_expr_test", []):
                tested |= series_names(case["expr"])
            for case in group.get("alert_rule_test", []):
                if case.get("exp_alerts"):
                    tested |= series_names(alert_exprs[case["alertname"]])
    # a rule feeding a tested rule is tested through it
    for rule in rule_groups(PROMETHEUS / "recording.yml"):
        if rule["record"] in tested:
            tested |= series_names(rule["expr"])
    assert not recorded_names() - tested, f"untested: {sorted(recorded_names() - tested)}"


def test_rules_read_only_metrics_of_the_service_and_recorded_series() -> None:
    """Every series name in the rules is a metric of the service or a recorded series."""
    recorded = recorded_names()
    for path in (PROMETHEUS / "alerts.yml", PROMETHEUS / "recording.yml"):
        for rule in rule_groups(path):
            for name in series_names(rule["expr"]):
                assert name in recorded or is_contract_series(name), f"{path.name}: {name}"


def test_rules_spell_grpc_codes_as_go_grpc_prometheus_does() -> None:
    """The grpc_code values the rules match are the contract's spelling (`Unavailable`)."""
    for path in (PROMETHEUS / "alerts.yml", PROMETHEUS / "recording.yml"):
        for rule in rule_groups(path):
            for values in re.findall(r'grpc_code\s*[!=]~?\s*"([^"]*)"', rule["expr"]):
                assert set(values.split("|")) <= GRPC_CODES, f"{path.name}: {values}"


def _play_a_little(target: str) -> None:
    """Calls that make the server record counters, histograms and rejections."""
    with Client(target) as client:
        game, tokens = client.create_game("goofspiel", 2, {"cards": "3"}, seed=3)
        seat = client.with_token(tokens[0])
        snapshot = seat.get_game(game.name)
        seat.apply_move(game.name, move_id=snapshot.legal_moves[0].id, expected_version=1)
        with pytest.raises(TribesError):  # a stale version: a rejection, a version conflict
            seat.apply_move(game.name, move_id=snapshot.legal_moves[0].id, expected_version=1)
        seat.list_moves(game.name)


def test_promtool_check_metrics_passes_on_a_live_server(redis_url: str, redis_prefix: str) -> None:
    """`promtool check metrics` finds no problem in /metrics of a server that served calls."""
    promtool = tool("promtool")
    metrics_port = free_port()
    env = {
        "REDIS_URL": redis_url,
        "TRIBES_REDIS_PREFIX": redis_prefix,
        "TRIBES_METRICS_PORT": str(metrics_port),
        "TRIBES_GAME_PLUGINS": PLUGIN,
    }
    with server_process(env) as server:
        _play_a_little(server.target)
        url = f"http://127.0.0.1:{metrics_port}/metrics"
        with urllib.request.urlopen(url, timeout=10) as response:
            exposition = response.read().decode()
    families = {line.split()[2] for line in exposition.splitlines() if line.startswith("# TYPE")}
    # the check must see real series, not an empty page
    assert {"grpc_server_handled_total", "grpc_server_handling_seconds"} <= families
    assert {"tribes_moves_applied_total", "tribes_store_seconds"} <= families
    undocumented = {name for name in families if not is_contract_series(name)}
    undocumented -= HISTOGRAMS
    assert not undocumented, f"exposed but not in the metric contract: {sorted(undocumented)}"
    result = run(promtool, "check", "metrics", stdin=exposition)
    assert result.returncode == 0, result.stdout + result.stderr
    assert result.stdout.strip() == "" and result.stderr.strip() == ""

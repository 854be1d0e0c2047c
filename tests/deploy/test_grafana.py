"""Grafana: the provisioned dashboard's queries are valid PromQL over the service's metrics.

Every query of deploy/grafana/dashboards/tribes.json is handed to promtool (as a rule
file, with the dashboard's variables filled in), so a typo in PromQL fails here rather
than as an empty panel. The panels cover what operators need first (RED per method, moves
and rule time per game, store latency, sessions) and the provisioning finds the file.
"""

from __future__ import annotations

from pathlib import Path

from tests.deploy.support import (
    GRAFANA,
    dashboard,
    dashboard_exprs,
    is_contract_series,
    load,
    recorded_names,
    run,
    series_names,
    tool,
    yaml,
)


def as_rule_file(exprs: list[str], path: Path) -> Path:
    """The expressions as recording rules, with Grafana's variables replaced by values."""
    rules = [
        {
            "record": f"dashboard:query_{number}",
            "expr": expr.replace("$__rate_interval", "5m").replace("$job", ".*"),
        }
        for number, expr in enumerate(exprs)
    ]
    path.write_text(yaml.safe_dump({"groups": [{"name": "dashboard", "rules": rules}]}))
    return path


def test_every_dashboard_query_is_valid_promql(tmp_path: Path) -> None:
    """promtool parses every query of every panel."""
    exprs = [expr for _, expr in dashboard_exprs()]
    assert len(exprs) >= 20
    result = run(tool("promtool"), "check", "rules", str(as_rule_file(exprs, tmp_path / "d.yml")))
    assert result.returncode == 0, result.stdout + result.stderr
    assert f"SUCCESS: {len(exprs)} rules found" in result.stdout


def test_promql_check_rejects_a_broken_query(tmp_path: Path) -> None:
    """The same check fails on a query with a syntax error (it is a real check)."""
    broken = as_rule_file(
        ['sum by (game (rate(tribes_moves_applied_total{job=~"$job"}[5m]))'],
        tmp_path / "broken.yml",
    )
    result = run(tool("promtool"), "check", "rules", str(broken))
    assert result.returncode != 0


def test_dashboard_reads_only_metrics_of_the_service_and_recorded_series() -> None:
    """Every series a panel reads is a metric of the service or a recording rule."""
    recorded = recorded_names()
    for title, expr in dashboard_exprs():
        for name in series_names(expr):
            assert name in recorded or is_contract_series(name), f"{title}: {name}"


def test_dashboard_covers_red_per_method_games_store_and_sessions() -> None:
    """Rate, errors and duration per method; moves and rule time per game; store; sessions."""
    read = {name for _, expr in dashboard_exprs() for name in series_names(expr)}
    wanted = {
        "job_method:grpc_server_handled:rate5m",
        "job_method:grpc_server_error_ratio:rate5m",
        "job_method:grpc_server_handling_seconds:p99_5m",
        "job_route:http_server_requests:rate5m",
        "job:http_server_error_ratio:rate5m",
        "job_route:http_server_request_duration_seconds:p99_5m",
        "job_game:tribes_moves_applied:rate5m",
        "job_game_operation:tribes_rule_seconds:p99_5m",
        "job_operation:tribes_store_seconds:p99_5m",
        "tribes_store_up",
        "job_transport:tribes_sessions:sum",
        "job:tribes_watchers:sum",
    }
    assert not wanted - read, f"no panel reads {sorted(wanted - read)}"


def test_panels_are_laid_out_without_overlap_and_use_the_datasource_variable() -> None:
    """Unique ids, a 24-column grid without overlaps, every query on ${datasource}."""
    board = dashboard()
    panels = board["panels"]
    assert len({p["id"] for p in panels}) == len(panels)
    cells: set[tuple[int, int]] = set()
    for panel in panels:
        pos = panel["gridPos"]
        assert pos["x"] + pos["w"] <= 24, panel["title"]
        mine = {
            (x, y)
            for x in range(pos["x"], pos["x"] + pos["w"])
            for y in range(pos["y"], pos["y"] + pos["h"])
        }
        assert not cells & mine, f"{panel['title']} overlaps another panel"
        cells |= mine
        for target in panel.get("targets", []):
            assert target["datasource"]["uid"] == "${datasource}", panel["title"]
    variables = {v["name"]: v for v in board["templating"]["list"]}
    assert variables["datasource"]["type"] == "datasource"
    assert variables["datasource"]["query"] == "prometheus"
    assert "job" in variables


def test_provisioning_points_at_the_dashboard_and_the_compose_prometheus() -> None:
    """The file provider reads the mounted dashboards; the datasource is compose's Prometheus."""
    (provider,) = load(GRAFANA / "provisioning" / "dashboards" / "tribes.yml")["providers"]
    assert provider["type"] == "file"
    compose = load(GRAFANA.parent / "compose.yaml")
    mounts = dict(v.split(":")[:2] for v in compose["services"]["grafana"]["volumes"])
    assert mounts["./grafana/dashboards"] == provider["options"]["path"]
    assert mounts["./grafana/provisioning"] == "/etc/grafana/provisioning"
    (source,) = load(GRAFANA / "provisioning" / "datasources" / "prometheus.yml")["datasources"]
    assert source["type"] == "prometheus"
    assert source["url"] == "http://prometheus:9090"
    assert "prometheus" in compose["services"]

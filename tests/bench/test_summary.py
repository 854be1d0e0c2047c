"""``make bench``'s summary against the targets: the ratios it reads from the peer
script's results and the verdicts it prints (figures only; these check the arithmetic)."""

from __future__ import annotations

from typing import Any

from tests.bench.bench import UNARY_FLOOR, peer_ratios, ratio_table, summary_table


def _row(label: str, n: int, moves: float, cpu: float | None) -> dict[str, Any]:
    return {"label": label, "n": n, "moves_per_s": moves, "server_cpu_us_per_move": cpu}


def test_peer_ratios_are_ratios_of_medians_per_concurrency() -> None:
    rows = [
        _row("bgio-inmem", 16, 1000, 200),
        _row("bgio-inmem", 16, 3000, 400),
        _row("bgio-inmem", 16, 2000, 300),  # medians 2000 moves/s, 300 µs
        _row("tribes-goofspiel", 16, 2100, 270),
        _row("tribes-goofspiel", 16, 1900, 330),
        _row("tribes-goofspiel", 16, 2500, None),  # a pass that read no CPU is left out
        _row("bgio-inmem", 1, 500, 700),
        _row("tribes-goofspiel", 64, 900, 100),  # no peer figure at 64: no ratio
    ]
    ratios = peer_ratios(rows)
    assert [(r["label"], r["concurrency"]) for r in ratios] == [("tribes-goofspiel", 16)]
    assert ratios[0]["moves_ratio"] == 2100 / 2000
    assert ratios[0]["cpu_ratio"] == 300 / 300


def _verdicts(table: str) -> dict[str, str]:
    out = {}
    for line in table.splitlines()[2:]:
        target, _figure, met = (cell.strip() for cell in line.strip("|").split("|"))
        out[target] = met
    return out


def test_summary_judges_each_session_target_beside_the_peer() -> None:
    peer = {
        "websocket": [
            {"label": "tribes-goofspiel", "concurrency": 1, "moves_ratio": 1.02, "cpu_ratio": 1.01},
            {"label": "tribes-goofspiel", "concurrency": 16, "moves_ratio": 0.97, "cpu_ratio": 0.9},
        ],
        "unary": [
            {"label": "tribes-goofspiel", "concurrency": 16, "moves_ratio": 0.4, "cpu_ratio": 3}
        ],
    }
    verdicts = _verdicts(summary_table([], [], peer))
    assert verdicts == {
        "WebSocket sessions, N=1: moves/s ≥ 1.0x boardgame.io": "yes",
        "WebSocket sessions, N=1: CPU per move ≤ 1.0x boardgame.io": "no",
        "WebSocket sessions, N=16: moves/s ≥ 1.0x boardgame.io": "no",
        "WebSocket sessions, N=16: CPU per move ≤ 1.0x boardgame.io": "yes",
    }  # unary moves have no target beside the peer


def test_summary_holds_the_unary_service_to_its_floor() -> None:
    def load(server: str, moves: float) -> dict[str, Any]:
        return {
            "concurrency": 16,
            "server": server,
            "moves_per_s": moves,
            "p99_ms": 10.0,
            "server_cpu_us_per_move": 400.0,
        }

    just_below = [load("bare", 1000), load("service", UNARY_FLOOR * 1000 - 1)]
    floor = f"N=16: service/bare moves/s ≥ {UNARY_FLOOR} (floor)"
    assert _verdicts(summary_table([], just_below))[floor] == "no"
    at_floor = [load("bare", 1000), load("service", UNARY_FLOOR * 1000)]
    assert _verdicts(summary_table([], at_floor))[floor] == "yes"


def test_the_load_table_counts_calls_per_move_for_each_server() -> None:
    """A unary service that polls GetGame makes more calls per move than the bare, whose
    seat 0 always acts: the table says so beside the ratio."""

    def load(server: str, moves: int, calls: dict[str, int]) -> dict[str, Any]:
        per_rpc = {name: {"count": count} for name, count in calls.items()}
        return {
            "concurrency": 16,
            "server": server,
            "moves_per_s": moves / 10,
            "p99_ms": 10.0,
            "server_cpu_us_per_move": 400.0,
            "per_rpc": per_rpc,
            "requests": sum(calls.values()),
            "errors": {},
        }

    rows = [
        load("bare", 2000, {"ApplyMove": 2000}),
        load("service", 1000, {"ApplyMove": 1000, "GetGame": 150, "CreateGame": 4}),
    ]
    table = ratio_table(rows, {"service": 2391, "bare": 2385})
    line = next(row for row in table.splitlines() if row.startswith("| 16 | service |"))
    cells = [cell.strip() for cell in line.strip("|").split("|")]
    assert cells[4] == "**0.50**"
    assert cells[9] == "1.00 / 1.15"

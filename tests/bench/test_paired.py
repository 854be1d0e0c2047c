"""``tests.bench.paired``: A/B passes of the service with and without a setting (figures
only; this checks the passes are made and the table's ratios are those of the medians)."""

from __future__ import annotations

import argparse

import pytest

from tests.bench.paired import _assignment, compare, table


def test_both_sides_play_real_passes() -> None:
    rows = compare({"TRIBES_GRPC_POLLER": "1"}, "session", "goofspiel", [1], 2, 1.0)
    assert [row["n"] for row in rows] == [1]
    for side in ("A", "B"):
        assert len(rows[0][side]) == 2
        assert all(r["moves_per_s"] > 0 and r["server_cpu_us_per_move"] > 0 for r in rows[0][side])


def test_the_ratios_are_those_of_the_medians() -> None:
    def runs(*pairs: tuple[float, float]) -> list[dict[str, float]]:
        return [{"moves_per_s": m, "server_cpu_us_per_move": c} for m, c in pairs]

    rows = [
        {"n": 16, "A": runs((100, 500), (300, 400), (200, 450)), "B": runs((300, 300), (250, 9))}
    ]
    text = table(rows, {"X": "1"})
    assert "B = with X=1" in text
    line = text.splitlines()[-1]
    assert line.startswith("| 16 | 100 / 300 / 200 | 300 / 250 |")
    # medians: A 200 moves/s at 450 µs, B 275 at 154.5 µs
    assert line.endswith(f"| {275 / 200:.2f} | {154.5 / 450:.2f} |")


def test_a_setting_is_name_equals_value() -> None:
    assert _assignment("A=b=c") == ("A", "b=c")
    for bad in ("A", "=1"):
        with pytest.raises(argparse.ArgumentTypeError):
            _assignment(bad)

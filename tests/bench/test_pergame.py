"""``tests.bench.pergame``: a game's own cost measured alone (figures only; this checks the
phases play real games through real doors and count the store's commands per game)."""

from __future__ import annotations

from tests.bench.pergame import measure, table


def test_both_phases_play_real_games_and_count_their_commands() -> None:
    rows = measure(games=60, concurrency=4, passes=2)
    assert [(r["phase"], r["rep"]) for r in rows] == [
        ("create", 0),
        ("sessions", 0),
        ("sessions", 1),
        ("create", 1),
    ]
    for row in rows:
        assert row["games_per_s"] > 0 and row["cpu_us_per_game"] > 0
    for row in rows:
        commands = row["commands_per_game"]
        if row["phase"] == "create":
            assert "subscribe" not in commands and "hmget" not in commands
        else:
            # both seats' sessions of a game share this replica's one subscription to it,
            # made before either seat's first snapshot is sent
            assert commands["subscribe"] == 1.0
    text = table(rows)
    assert text.count("| sessions |") == 2 and "subscribe 1.00" in text

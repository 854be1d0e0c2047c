"""The CLI's pure helpers: natural order, the generic renderer, time-control parsing."""

from __future__ import annotations

import os

import pytest

from tribes_client.cli import parse_duration, parse_time_control
from tribes_client.render import natural_key
from tribes_client.render.common import duration
from tribes_client.render.generic import message_lines
from tribes_client.render.style import Style, strip, wants_color
from tribes_client.v1 import common_pb2 as pb
from tribes_client.v1 import five_tribes_pb2 as ft


def test_natural_order_compares_digit_runs_as_numbers() -> None:
    """bid:3 sorts before bid:12; text sorting would put bid:12 first."""
    ids = ["bid:18", "bid:3", "bid:0", "bid:12", "bid:1", "kill:0-4:wb", "kill:0-10:w"]
    assert sorted(ids, key=natural_key) == [
        "bid:0", "bid:1", "bid:3", "bid:12", "bid:18", "kill:0-4:wb", "kill:0-10:w",
    ]  # fmt: skip
    assert sorted(["step:-1,2", "step:-1,10", "end-move"], key=natural_key) == [
        "end-move",
        "step:-1,2",
        "step:-1,10",
    ]


def test_generic_lines_are_readable() -> None:
    """Enum prefixes go, (0,0) prints as a position, empty messages are left out,
    repeated scalars share a line."""
    tile = ft.FiveTribesTileState(
        position=ft.FiveTribesTile(row=0, column=0),
        kind=ft.FIVE_TRIBES_TILE_KIND_SACRED_PLACE,
        value=10,
        meeples=ft.FiveTribesMeeples(),
    )
    tile.meeples.SetInParent()  # set but empty
    view = ft.FiveTribesView(tiles=[tile], to_act=[0, 2], step=ft.FIVE_TRIBES_STEP_BID)
    text = "\n".join(message_lines(view))
    assert "position: (0,0)" in text
    assert "kind: sacred place" in text and "FIVE_TRIBES" not in text
    assert "meeples" not in text
    assert "to_act: 0, 2" in text and "step: bid" in text


def test_time_control_specs() -> None:
    """per-move, chess INITIAL+INCREMENT and on-timeout map onto TimeControl's fields."""
    control = parse_time_control("per-move=30s,chess=10m+5s,on-timeout=bot")
    assert control == pb.TimeControl(
        per_move_seconds=30, initial_seconds=600, increment_seconds=5, on_timeout="bot"
    )
    assert parse_duration("1h30m") == 5400 and parse_duration("2d") == 172_800
    assert parse_duration("45") == 45
    with pytest.raises(SystemExit):
        parse_time_control("on-timeout=draw")
    with pytest.raises(SystemExit):
        parse_duration("10 minutes")


def test_durations_print_as_clocks() -> None:
    """mm:ss below an hour, h:mm:ss below a day, never negative."""
    assert duration(599_999) == "09:59"
    assert duration(3_661_000) == "1:01:01"
    assert duration(90_000_000) == "1d 01:00"
    assert duration(-5) == "00:00"


def test_colour_wants_a_terminal_and_no_no_color() -> None:
    """A terminal gets colour unless NO_COLOR is non-empty; the flag decides over both."""

    leader, follower = os.openpty()
    with open(follower, "w") as tty, open(os.devnull, "w") as pipe_like:
        assert wants_color(tty, None, {})
        assert not wants_color(tty, None, {"NO_COLOR": "1"})
        assert wants_color(tty, None, {"NO_COLOR": ""})
        assert wants_color(pipe_like, True, {"NO_COLOR": "1"})
        assert not wants_color(pipe_like, None, {})
    os.close(leader)
    painted = Style(True).seat("seat 1", 1)
    assert painted != "seat 1" and strip(painted) == "seat 1"
    assert Style(False).seat("seat 1", 1) == "seat 1"

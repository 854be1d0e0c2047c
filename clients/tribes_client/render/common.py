"""The parts of a snapshot every game shares: status line, seats, clocks, scores, moves.

Moves are shown in natural order (``bid:3`` before ``bid:12``) and numbered from 1, so
``tribes move N`` can name one by its number (see ``ordered_moves``).
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from tribes_client.render.style import Style
from tribes_client.v1 import common_pb2 as pb

_DIGITS = re.compile(r"(\d+)")


def natural_key(text: str) -> tuple[tuple[int, str], ...]:
    """Sort key comparing digit runs as numbers: ``bid:3`` < ``bid:12`` < ``bid:18``."""
    parts = _DIGITS.split(text)
    return tuple((int(part), "") if index % 2 else (0, part) for index, part in enumerate(parts))


def ordered_moves(moves: Sequence[pb.LegalMove]) -> list[pb.LegalMove]:
    """The legal moves in natural order of their ids: the order they are numbered in."""
    return sorted(moves, key=lambda move: natural_key(move.id))


def duration(ms: int) -> str:
    """``mm:ss`` (``h:mm:ss`` from an hour, ``Nd hh:mm`` from a day); never negative."""
    seconds = max(0, ms) // 1000
    days, rest = divmod(seconds, 86_400)
    hours, rest = divmod(rest, 3600)
    minutes, secs = divmod(rest, 60)
    if days:
        return f"{days}d {hours:02}:{minutes:02}"
    if hours:
        return f"{hours}:{minutes:02}:{secs:02}"
    return f"{minutes:02}:{secs:02}"


def seat_label(snapshot: pb.GameSnapshot, seat: int) -> str:
    """``seat 1`` or ``seat 1 (Ana)`` when the player gave a name."""
    for info in snapshot.seats:
        if info.seat == seat and info.player_name:
            return f"seat {seat} ({info.player_name})"
    return f"seat {seat}"


def header_lines(snapshot: pb.GameSnapshot, style: Style) -> list[str]:
    """``games/x  five_tribes  v3  to act: seat 1  you: seat 0`` and the options."""
    who = "spectator" if snapshot.viewer_seat < 0 else f"seat {snapshot.viewer_seat}"
    if snapshot.finished:
        status = style.bold("finished")
    elif snapshot.to_act:
        acting = ", ".join(style.seat(f"seat {s}", s) for s in snapshot.to_act)
        status = f"to act: {acting}"
        if snapshot.viewer_seat in snapshot.to_act:
            status += style.paint("  (your move)", "bold", "green")
    else:
        status = "waiting"
    line = f"{style.bold(snapshot.name)}  {snapshot.game_type}  v{snapshot.version}"
    lines = [f"{line}  {status}  as {who}"]
    if snapshot.options:
        options = " ".join(f"{key}={snapshot.options[key]}" for key in sorted(snapshot.options))
        lines.append(style.dim(f"options: {options}"))
    if snapshot.HasField("time_control"):
        lines.append(f"time: {time_control_text(snapshot.time_control)}")
    return lines


def time_control_text(control: pb.TimeControl) -> str:
    """``30s a move, chess clock 10:00 +5s, on timeout: forfeit``."""
    parts = []
    if control.per_move_seconds:
        parts.append(f"{control.per_move_seconds}s a move")
    if control.initial_seconds:
        clock = f"chess clock {duration(control.initial_seconds * 1000)}"
        if control.increment_seconds:
            clock += f" +{control.increment_seconds}s"
        parts.append(clock)
    parts.append(f"on timeout: {control.on_timeout or 'forfeit'}")
    return ", ".join(parts)


def seat_lines(snapshot: pb.GameSnapshot, style: Style) -> list[str]:
    """One line per seat: name, bot, presence, clock, deadline, resigned / timed out."""
    now = snapshot.server_time_unix_ms
    lines = ["seats:"]
    for info in snapshot.seats:
        tags = []
        if info.open:
            name = "(open)"
        elif info.player_name:
            name = info.player_name
        else:
            name = "-"
        if info.bot:
            tags.append(f"bot {info.bot}")
        elif not info.open:
            tags.append("present" if info.present else style.dim("away"))
        if info.seat == snapshot.viewer_seat:
            tags.append(style.bold("you"))
        if info.seat in snapshot.to_act and not snapshot.finished:
            tags.append(style.paint("to act", "bold"))
        if info.remaining_ms >= 0 and snapshot.time_control.initial_seconds:
            left = info.remaining_ms
            if info.clock_since_unix_ms and now:
                left -= now - info.clock_since_unix_ms
            tags.append(f"clock {duration(left)} left")
        if info.deadline_unix_ms and now:
            tags.append(f"deadline in {duration(info.deadline_unix_ms - now)}")
        if info.resigned:
            tags.append(style.paint("resigned", "red"))
        if info.timed_out:
            tags.append(style.paint("timed out", "red"))
        score = ""
        if info.seat < len(snapshot.scores):
            score = f"{snapshot.scores[info.seat]:>4} pts"
        label = style.seat(f"{info.seat:>3} {name:<16}", info.seat)
        lines.append(f"{label}{score:>9}  {', '.join(tags)}".rstrip())
    if not snapshot.seats and snapshot.scores:
        scores = ", ".join(f"seat {s}: {v}" for s, v in enumerate(snapshot.scores))
        lines = [f"scores: {scores}"]
    return lines


def result_lines(snapshot: pb.GameSnapshot, style: Style) -> list[str]:
    if not snapshot.finished:
        return []
    result = snapshot.result
    ranks = ", ".join(f"seat {seat}: #{rank}" for seat, rank in enumerate(result.ranks))
    return [style.bold(f"result: {result.summary}"), f"ranks: {ranks}"]


def move_lines(moves: Sequence[pb.LegalMove], style: Style) -> list[str]:
    """The numbered moves, ``  3. bid:3   Bid 3 GC for turn order``."""
    if not moves:
        return []
    width = min(28, max(len(move.id) for move in moves))
    lines = [f"your moves ({len(moves)}): tribes move N, or the id"]
    for number, move in enumerate(moves, 1):
        lines.append(f"  {number:>3}. {style.bold(move.id.ljust(width))}  {move.description}")
    return lines

"""Final scoring and tie-breaks (rules spec §7).

Bear teeth + the P/E/M tracks' end VP (0/1/3/6) + 2 VP to everyone tied for most tribe
members on the board + 2 VP to everyone tied for most active land tiles. The winner has
the highest total; ties go to most shells, then fewest tiles exhausted at game end
(§10 #20); players still tied share the win.
"""

from __future__ import annotations

from tribes.engine import Result
from tribes.engine.game import competition_ranks
from tribes.games.tribes_early_civilization.data import SCORING_TRACKS, TRACK_END_VP
from tribes.games.tribes_early_civilization.rules.work import Work
from tribes.games.tribes_early_civilization.state import FinalScore, Player, State

MOST_MEMBERS_VP = 2
MOST_LAND_VP = 2


def track_vp(player: Player) -> int:
    return sum(TRACK_END_VP[player.levels[track]] for track in SCORING_TRACKS)


def active_tiles(player: Player) -> int:
    return sum(1 for tile in player.tiles if not tile.exhausted)


def exhausted_tiles(player: Player) -> int:
    return sum(1 for tile in player.tiles if tile.exhausted)


def final_scores(state: State | Work) -> tuple[FinalScore, ...]:
    """The §7 score sheet of every seat, with its rank (ties share a rank)."""
    players = state.players
    members = [p.on_board for p in players]
    land = [active_tiles(p) for p in players]
    most_members, most_land = max(members), max(land)
    sheets = []
    for seat, player in enumerate(players):
        bonus_members = MOST_MEMBERS_VP if members[seat] == most_members else 0
        bonus_land = MOST_LAND_VP if land[seat] == most_land else 0
        tracks = track_vp(player)
        total = player.vp + tracks + bonus_members + bonus_land
        sheets.append((seat, player, tracks, bonus_members, bonus_land, total))
    keys = [(total, p.shells, -exhausted_tiles(p)) for _, p, _, _, _, total in sheets]
    ranks = competition_ranks(keys)
    return tuple(
        FinalScore(
            seat=seat,
            bear_teeth=player.vp,
            track_vp=tracks,
            most_members_vp=bonus_members,
            most_land_vp=bonus_land,
            total=total,
            shells=player.shells,
            exhausted=exhausted_tiles(player),
            rank=ranks[seat],
        )
        for seat, player, tracks, bonus_members, bonus_land, total in sheets
    )


def result(state: State) -> Result | None:
    """None until GAME_OVER; scores are totals, ranks include the tie-breaks (§7)."""
    final = state.final
    if final is None:
        return None
    scores = tuple(s.total for s in final)
    ranks = tuple(s.rank for s in final)
    winners = [s.seat for s in final if s.rank == 1]
    best = max(scores)
    ended = " (turn cap reached)" if state.capped else ""
    if len(winners) == 1:
        seat = winners[0]
        tied = [s for s in final if s.total == best]
        how = " on the tie-break" if len(tied) > 1 else ""
        summary = f"seat {seat} wins with {best} VP{how}{ended}"
    else:
        summary = f"seats {', '.join(map(str, winners))} share the victory with {best} VP{ended}"
    return Result(scores=scores, ranks=ranks, summary=summary)

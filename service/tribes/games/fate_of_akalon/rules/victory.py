"""Initiative, victory, elimination and scoring (spec §5.3 B5-B6, §7, R-25 … R-29, R-39).

Cemetery values are printed-value sums and lower is better. A finished game stores its
``Result`` in the state, so ``result()`` costs nothing: scores are the cemetery values,
ranks are competition ranks (1 + the number of seats, or in 4p teams, with a strictly
better value; tied seats share a rank, R-39).
"""

from __future__ import annotations

from tribes.engine import Result
from tribes.engine.game import competition_ranks
from tribes.games.fate_of_akalon.rules.board import Board
from tribes.games.fate_of_akalon.state import Side

THRESHOLD = 30  # §7: 2p/3p cemetery value that ends the game (R-26: "exceeds" read as >=)
TEAM_THRESHOLD = 60  # §7: 4p combined team value
MAX_BATTLES = 200  # safeguard

THRESHOLD_REASON = "threshold"
SAFEGUARD_REASON = "safeguard"


def initiative(b: Board) -> int:
    """B5: the next (lead) attacker; the latest designation overrides (last effect wins)."""
    if b.designations:
        return max(b.designations, key=lambda d: d[1])[0]
    attacker = b.attacker
    if b.n == 4:
        defenders_won = bool(b.winners) and b.sides[b.winners[0]] is Side.DEFENDING
        return (attacker + 1) % 4 if defenders_won else attacker
    if len(b.winners) == 1:
        return b.winners[0]
    # Everyone lost: a tie for the highest value. The attacker keeps the attack if
    # tied for it; otherwise only defenders tied and the player left of the attacker attacks.
    top = max(b.values[s] for s in range(b.n) if b.active(s))
    return attacker if b.values[attacker] == top else b.left(attacker)


def check_victory(b: Board, next_attacker: int) -> int:
    """B6: end the game, eliminate (3p) or go on; returns the (possibly moved) next attacker."""
    values = b.cem_value
    if b.n == 4:
        if max(values[0] + values[2], values[1] + values[3]) >= TEAM_THRESHOLD:
            b.finish(final_result(b, THRESHOLD_REASON), THRESHOLD_REASON)
        return next_attacker
    active = [s for s in range(b.n) if b.active(s)]
    over = [s for s in active if values[s] >= THRESHOLD]
    if not over:
        return next_attacker
    if b.n == 3 and len(active) == 3 and len(over) == 1:
        return eliminate(b, over[0], next_attacker)
    b.finish(final_result(b, THRESHOLD_REASON), THRESHOLD_REASON)
    return next_attacker


def eliminate(b: Board, seat: int, next_attacker: int) -> int:
    """3p: one player at the threshold leaves; the other two play on under 2p rules (§7)."""
    b.eliminated[seat] = True
    b.say(f"{b.name(seat)} is eliminated with cemetery value {b.cem_value[seat]}")
    if next_attacker == seat:
        next_attacker = b.left(seat)
    return next_attacker


def safeguard_triggered(b: Board) -> bool:
    """R-14: after B7, an active player with no cards in hand, deck and discard, or battle 200."""
    if b.number >= MAX_BATTLES:
        return True
    return any(b.active(s) and not (b.hand[s] or b.deck[s] or b.discard[s]) for s in range(b.n))


def final_result(b: Board, reason: str) -> Result:
    """Scores and ranks by §7 and R-39 (also used for safeguard endings)."""
    values = tuple(b.cem_value)
    suffix = " (safeguard ending)" if reason == SAFEGUARD_REASON else ""
    if b.n == 4:
        teams = (values[0] + values[2], values[1] + values[3])
        ranks = tuple(1 + sum(1 for t in teams if t < teams[s % 2]) for s in range(4))
        names = [f"{b.name(s)} and {b.name(s + 2)}" for s in (0, 1)]
        if teams[0] == teams[1]:
            summary = f"the teams tie at cemetery value {teams[0]}"
        else:
            win = 0 if teams[0] < teams[1] else 1
            summary = f"{names[win]} win with cemetery value {teams[win]} against {teams[1 - win]}"
        return Result(scores=values, ranks=ranks, summary=summary + suffix)
    ranks = competition_ranks([(b.active(s), -values[s]) for s in range(b.n)])
    winners = [s for s in range(b.n) if ranks[s] == 1]
    if len(winners) > 1:
        who = " and ".join(b.name(s) for s in winners)
        summary = f"{who} tie at cemetery value {values[winners[0]]}"
    else:
        others = ", ".join(
            f"{b.name(s)} {values[s]}" + (" eliminated" if b.eliminated[s] else "")
            for s in range(b.n)
            if s != winners[0]
        )
        summary = f"{b.name(winners[0])} wins with cemetery value {values[winners[0]]} ({others})"
    return Result(scores=values, ranks=ranks, summary=summary + suffix)

"""Fate of Akalon: the battlefield as one column per seat (§5), the viewer's hand, and
every seat's cemetery with its value (lower is better, §7).

Cards are named as players know them ("Orc Berserker (4)"); the viewer's hand adds the
card text. Move ids name card instances ("play:orc-orc-berserker-1").
"""

from __future__ import annotations

from tribes_client.render.generic import enum_name
from tribes_client.render.style import Style
from tribes_client.render.tribes_early_civilization import log_lines
from tribes_client.v1 import fate_of_akalon_pb2 as foa

COLUMN = 18
_FACTION_COLOUR = {
    foa.FATE_OF_AKALON_FACTION_DWARF: "yellow",
    foa.FATE_OF_AKALON_FACTION_ELF: "green",
    foa.FATE_OF_AKALON_FACTION_ORC: "red",
    foa.FATE_OF_AKALON_FACTION_UNDEAD: "magenta",
}


def _name(enum: object, number: int) -> str:
    return enum_name(enum.DESCRIPTOR, number)  # type: ignore[attr-defined]


def card_name(view: foa.FateOfAkalonView, card: str) -> str:
    """``Orc Berserker (4)``: the card's name and printed value (its id if unknown)."""
    definition = view.cards.get(card)
    if definition is None:
        return card
    return f"{definition.name} ({definition.printed_value})"


def battlefield_lines(view: foa.FateOfAkalonView, style: Style) -> list[str]:
    """One column per seat in play order, each card with its current value."""
    seats = list(view.play_order) or [player.seat for player in view.players]
    columns: dict[int, list[str]] = {seat: [] for seat in seats}
    for entry in view.battlefield:
        name = view.cards[entry.card].name if entry.card in view.cards else entry.card
        mark = " (no text)" if entry.text_ignored else ""
        columns.setdefault(entry.owner, []).append(f"{name} {entry.value}{mark}")
    players = {player.seat: player for player in view.players}
    heads: list[tuple[str, str, int]] = []
    for seat in columns:
        player = players.get(seat)
        faction = _name(foa.FateOfAkalonFaction, player.faction) if player else "?"
        side = _name(foa.FateOfAkalonSide, player.side) if player else ""
        total = player.battlefield_value if player else 0
        heads.append((f"seat {seat} {faction}", f"{side}: {total}", seat))
    out = ["battlefield:"]
    for part in (0, 1):
        title = " | ".join(style.seat(str(h[part])[:COLUMN].ljust(COLUMN), h[2]) for h in heads)
        out.append(f"  {title}".rstrip())
    depth = max((len(cards) for cards in columns.values()), default=0)
    for row in range(depth):
        cells = [
            (cards[row] if row < len(cards) else "")[:COLUMN].ljust(COLUMN)
            for cards in columns.values()
        ]
        out.append(("  " + " | ".join(cells)).rstrip())
    if depth == 0:
        out.append("  (no cards)")
    return out


def player_lines(view: foa.FateOfAkalonView, style: Style) -> list[str]:
    out = ["players:"]
    for player in view.players:
        faction = _name(foa.FateOfAkalonFaction, player.faction)
        colour = _FACTION_COLOUR.get(player.faction, "white")
        out_text = ", out" if player.eliminated else ""
        out.append(
            f"  {style.seat(f'seat {player.seat}', player.seat)} "
            f"{style.paint(faction, colour)}{out_text}: hand {player.hand_size}, deck "
            f"{player.deck_size}, cemetery value {style.bold(str(player.cemetery_value))}"
        )
        if player.cemetery:
            names = ", ".join(card_name(view, card) for card in player.cemetery)
            out.append(f"      cemetery: {names}")
        if player.discard:
            names = ", ".join(card_name(view, card) for card in player.discard)
            out.append(f"      discard (top last): {names}")
        if player.reveal:
            out.append("      revealed: " + ", ".join(card_name(view, c) for c in player.reveal))
    return out


def hand_lines(view: foa.FateOfAkalonView, style: Style) -> list[str]:
    """The viewer's hand, with the card texts."""
    mine = [player for player in view.players if player.seat == view.viewer and player.hand]
    if not mine:
        return []
    out = ["your hand:"]
    for card in mine[0].hand:
        definition = view.cards.get(card)
        text = f" - {definition.text}" if definition is not None and definition.text else ""
        out.append(f"  {style.bold(card_name(view, card))}{text}")
    return out


def lines(view: foa.FateOfAkalonView, style: Style) -> list[str]:
    """The whole Fate of Akalon view."""
    phase = _name(foa.FateOfAkalonPhase, view.phase)
    out = [f"battle {view.battle}, phase: {phase}, attacker: seat {view.attacker}"]
    if view.teams:
        teams = " vs ".join("+".join(f"seat {s}" for s in team.seats) for team in view.teams)
        values = ", ".join(str(v) for v in view.team_values)
        out.append(f"teams: {teams} (cemetery values {values})")
    if view.HasField("pending"):
        decision = _name(foa.FateOfAkalonDecision, view.pending.decision)
        out.append(f"pending: seat {view.pending.actor} to decide ({decision})")
    out += battlefield_lines(view, style)
    out += player_lines(view, style)
    out += hand_lines(view, style)
    out += log_lines(list(view.log))
    if view.HasField("result") and view.result.summary:
        out.append(style.bold(f"outcome: {view.result.summary}"))
    return out

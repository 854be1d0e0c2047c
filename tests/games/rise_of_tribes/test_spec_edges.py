"""Rule edges a rules audit verified by hand: Mild Winter's last counter (§5.5 GROW) and a
Chieftain auction that brings its winner to 15 VP (§5.0 C2, §5.4.4)."""

from __future__ import annotations

from dataclasses import replace

import pytest

from tests.games.rise_of_tribes.fixtures import (
    B,
    R,
    build,
    do,
    key,
    keys,
    roll_for_r,
    slot,
    top,
)
from tribes.games.rise_of_tribes import GAME
from tribes.games.rise_of_tribes.cards import Event
from tribes.games.rise_of_tribes.data import Face
from tribes.games.rise_of_tribes.state import Step


def test_mild_winter_last_counter_still_adds_two_then_the_card_is_discarded() -> None:
    """§5.5 GROW: "power N = tier value ... + 2 while Mild Winter is in a slot ... N is fixed
    when GROW is chosen, before the Mild Winter counter is removed"; "On choosing GROW, if
    Mild Winter is in a slot remove one of its counters ...; discard the card at 0".
    §3.7 E6: "discard when no tokens remain".

    The BLANK die on the GROW column gives BLANK, SUN, MOON: DEFAULT tier (§3.3), so
    N = 2 + 2 = 4 (as in Ex 6), although the counter taken was the card's last.
    """
    s = build(members={4: {R: 2}}, slots=(slot(Event.MILD_WINTER, tokens=1), None), dice="- S")
    s = do(s, "assign:blank:grow")
    assert s.slots == (None, None)
    assert s.event_discard == (Event.MILD_WINTER,)
    assert s.action is not None and s.action.power == 4
    for _ in range(4):
        assert s.step is Step.GROW
        s = do(s, f"grow:{key(s, 4)}")
    assert s.members[4][R] == 6
    assert s.step is Step.ACTION, "GROW auto-ends when placed = N"


@pytest.mark.parametrize(
    ("winner", "vp", "resources", "bids", "gain"),
    [
        (R, 13, {R: (3, 3, 3)}, ("bid:5", "drop-out", "drop-out", "drop-out"), 2),
        (B, 14, {B: (1, 0, 0)}, ("drop-out", "bid:1", "drop-out", "drop-out"), 1),
    ],
)
def test_chieftain_winner_reaching_15_vp_ends_the_game_before_paying(
    winner: int,
    vp: int,
    resources: dict[int, tuple[int, int, int]],
    bids: tuple[str, ...],
    gain: int,
) -> None:
    """§5.4.4: "Winner: +2 VP if the winning bid >= 5, else +1 VP. Then the winner pays the
    bid by ChiefGive". §5.0 C2: "if a player has >= 15 VP, that player wins and the game
    ends immediately" (checked after each atomic change; "Chieftain to its winner").
    §7: "the game stops, no further steps or turns".

    The VP come first, so the winner (the active player, or another seat) wins at once and
    nobody is handed a resource.
    """
    s0 = build(members={0: {R: 1}}, resources=resources, vp={winner: vp})
    s = roll_for_r(replace(s0, event_deck=top(s0.event_deck, Event.CHIEFTAIN)), Face.SUN, Face.SUN)
    assert s.step is Step.CHIEFTAIN_BID
    s = do(s, *bids)
    assert s.players[winner].vp == vp + gain == 15
    assert s.step is Step.GAME_OVER and s.winner == winner
    result = GAME.result(s)
    assert result is not None and result.winners == (winner,)
    assert keys(s) == []
    assert [p.resources for p in s.players] == [p.resources for p in s0.players]

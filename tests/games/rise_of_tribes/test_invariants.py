"""The invariant checker catches broken states (each check can fail), and §8.26/§8.33."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

import pytest

from tests.games.rise_of_tribes.fixtures import B, R, build, do, keys, slot
from tribes.games.rise_of_tribes.cards import Event, Goal
from tribes.games.rise_of_tribes.invariants import check_invariants
from tribes.games.rise_of_tribes.state import State, Step


def _player(state: State, seat: int, **changes: object) -> State:
    players = list(state.players)
    players[seat] = replace(players[seat], **changes)  # type: ignore[arg-type]
    return replace(state, players=tuple(players))


def test_a_consistent_fixture_passes() -> None:
    """The reference state satisfies every invariant."""
    check_invariants(build(members={0: {R: 2}, 4: {B: 3}}, villages={0: R}))


@pytest.mark.parametrize(
    ("broken", "message"),
    [
        (lambda s: _player(s, R, supply=19), "20 members"),
        (lambda s: _player(s, R, resources=(-1, 0, 0)), "negative resources"),
        (lambda s: _player(s, R, vp=3), "recount"),
        (lambda s: _player(s, R, goal_deck=s.players[R].goal_deck[1:]), "goal cards conserved"),
        (lambda s: replace(s, event_deck=s.event_deck[1:]), "event tiles conserved"),
        (lambda s: replace(s, villages=(B, *s.villages[1:])), "owner's members"),
        (lambda s: replace(s, pool=()), "14 dice"),
        (lambda s: replace(s, mammoth_hex=3), "mammoth token"),
        (lambda s: _player(s, B, tribe=s.players[R].tribe), "distinct"),
    ],
)
def test_broken_states_are_caught(broken: Callable[[State], State], message: str) -> None:
    """Each invariant fails on a state that breaks it."""
    state = build(members={0: {R: 2}, 4: {B: 3}}, villages={0: R})
    with pytest.raises(AssertionError, match=message):
        check_invariants(broken(state))


def test_over_the_limit_after_conflicts_is_caught_unless_won() -> None:
    """§5.6: > limit in Step 5 is a bug, except in a just-won game (§8.31)."""
    over = build(members={0: {R: 6}}, step=Step.GOALS)
    with pytest.raises(AssertionError, match="limit"):
        check_invariants(over)


def test_two_players_at_fifteen_is_impossible() -> None:
    """§8.33 (G22): two players never reach 15 together; the checker refuses such a state."""
    s = build(members={0: {R: 1}, 4: {B: 1}}, vp={R: 15, B: 15})
    s = replace(s, step=Step.GAME_OVER, actor=-1, winner=R)
    with pytest.raises(AssertionError, match="only one player"):
        check_invariants(s)


def test_shared_knowledge_on_an_empty_deck_draws_nothing() -> None:
    """§8.26: Shared Knowledge with an empty goal deck takes the payment, draws nothing."""
    s = build(
        members={4: {R: 1, B: 1}},
        resources={R: (1, 0, 0)},
        in_progress={R: tuple(Goal)},
        slots=(slot(Event.SHARED_KNOWLEDGE), None),
        step=Step.GOALS,
    )
    assert s.players[R].goal_deck == ()
    s = do(s, "shared-knowledge:food")
    assert s.players[R].in_progress == tuple(Goal) and s.players[R].resources == (0, 0, 0)
    assert s.slots[0] == slot(Event.SHARED_KNOWLEDGE, food=1)
    assert "end-turn" in keys(s)

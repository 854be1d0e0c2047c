"""The follow-up review of 2026-12-01 (spec §12, items 15-28): the points no other test
asserted. Asserted elsewhere: item 17 by ``test_pottery_trade_may_take_any_type``; 18 by
the G27 test of ``test_actions.py``; 19 by ``test_hex_control_terms`` and
``test_abandoned_village_round``; 20 by the invader tests of Discovery, Shared Knowledge,
the Bow, Exogamy and Ambush; 21 by ``test_two_players_at_fifteen_is_impossible`` and
``test_turn_cap_ends_the_game_as_capped``; 23 by ``test_ex05_doubles_with_both_slots_full``;
28's tokens and distinct boards by ``test_acquire_altar_and_offer`` and
``test_broken_states_are_caught``.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from dataclasses import replace
from typing import Any

import pytest

from tests.games.rise_of_tribes.fixtures import (
    B,
    G,
    R,
    Y,
    before_turn,
    build,
    do,
    goals,
    key,
    keys,
    slot,
    to_conflict,
)
from tribes.engine import SPECTATOR
from tribes.engine.driver import new_game
from tribes.engine.rng import Rng
from tribes.games.rise_of_tribes import GAME
from tribes.games.rise_of_tribes.cards import Event
from tribes.games.rise_of_tribes.data import (
    INVADERS_VP,
    TIGER_HUNT_VP,
    Action,
    EventSet,
    Face,
    Leaders,
    Power,
    Resource,
    Tier,
    Tribe,
)
from tribes.games.rise_of_tribes.invariants import check_invariants
from tribes.games.rise_of_tribes.keys import parse_move
from tribes.games.rise_of_tribes.maps import Hex
from tribes.games.rise_of_tribes.state import (
    NOBODY,
    ActionState,
    Conflict,
    Player,
    Resolving,
    Slot,
    State,
    Step,
    Turn,
)

SUN, MOON, BLANK = Face.SUN, Face.MOON, Face.BLANK

# -- item 15: only tribe members count toward the hex limit -------------------------------------


def test_item15_invader_tokens_over_the_drought_limit_are_never_trimmed() -> None:
    """§5.6 "Invaders and the limit", §8.10, G10 (review item 15): under Drought (limit 4)
    5 invader tokens alone, or with R2, cause no conflict and are never trimmed."""
    alone = build(
        members={0: {R: 1}},
        slots=(slot(Event.DROUGHT), slot(Event.INVADERS)),
        invaders=(2, 5),
        dice="-",
        pool="S",
    )
    alone = to_conflict(alone)
    assert alone.step is Step.GOALS and alone.invader_hex == 2 and alone.invaders == 5
    shared = build(
        members={2: {R: 2}},
        slots=(slot(Event.DROUGHT), slot(Event.INVADERS)),
        invaders=(2, 5),
        dice="-",
        pool="S",
    )
    shared = to_conflict(shared)
    assert shared.step is Step.GOALS, "2 tribe members <= 4: no conflict (the tokens do not count)"
    assert shared.members[2][R] == 2 and shared.invaders == 5
    assert shared.players[R].vp == 0 and shared.slots[1] == slot(Event.INVADERS)


def test_item15_invaders_fight_as_one_side_and_the_survivors_stay() -> None:
    """§5.6 steps 5-6 (review item 15): in H2 with R3 B3 (6 > 5) the 5 tokens are one side;
    (3,3,5) -> (2,2,4) -> (1,1,3) -> (0,0,2): the 2 tokens left stay, untrimmed, the card
    stays in its slot and nobody scores the Invaders VP."""
    s = build(
        members={2: {R: 3, B: 3}, 0: {R: 1}},
        slots=(slot(Event.INVADERS), None),
        invaders=(2, 5),
        dice="-",
        pool="S",
    )
    s = to_conflict(s)
    assert s.step is Step.GOALS
    assert s.members[2] == (0, 0, 0, 0) and s.invader_hex == 2 and s.invaders == 2
    assert s.slots[0] == slot(Event.INVADERS) and s.players[R].vp == 0


# -- item 16: a win may leave a hex over the limit ----------------------------------------------


def test_item16_a_win_in_step_three_ends_the_game_with_a_hex_over_the_limit() -> None:
    """§5.6 invariant, §7, §8.31 (review item 16): a SUN GROW fills H2 to R7, then the Tiger
    hunt (-1 member, +1 VP) takes R from 14 to 15: the game ends at once with R6 in H2, no
    conflict is resolved, and the invariant holds because the game has just been won. The
    same position not won breaks it."""
    s = build(
        members={2: {R: 4}},
        slots=(slot(Event.SABERTOOTH_TIGER), None),
        tiger=2,
        vp={R: 14},
        dice="S M",
    )
    s = do(s, "assign:sun:grow", *[f"grow:{key(s, 2)}"] * 3)
    assert s.step is Step.ACTION and s.members[2][R] == 7
    s = do(s, "spend:moon:tiger-hunt")
    assert s.winner == R and s.players[R].vp == 14 + TIGER_HUNT_VP == 15
    assert s.step is Step.GAME_OVER and s.conflict is None and s.members[2][R] == 6
    check_invariants(s)
    not_won = replace(s, winner=NOBODY, step=Step.GOALS, actor=R)
    with pytest.raises(AssertionError, match="limit"):
        check_invariants(not_won)


# -- item 22: Raiders counts the fights the active player took part in --------------------------


def test_item22_raiders_counts_presence_when_the_fight_began() -> None:
    """§3.6 A7, §5.6 step 7, G29 (review item 22): R3 B3 with B's village: (2,2) (1,1) (0,0);
    R had members there when the hex's resolution began, so the raid counts although R has
    none left. A third player's village counts too; R's own village never does."""
    lost = build(
        members={4: {R: 3, B: 3}, 0: {R: 1}},
        villages={4: B},
        in_progress={R: goals("A7")},
        dice="-",
        pool="S",
    )
    lost = to_conflict(lost)
    assert lost.members[4] == (0, 0, 0, 0) and lost.villages[4] == NOBODY
    assert lost.turn is not None and lost.turn.raided
    assert "complete:raiders" in keys(lost)
    third = build(
        members={4: {R: 3, B: 2, G: 1}},
        villages={4: G},
        in_progress={R: goals("A7")},
        dice="-",
        pool="S",
    )
    third = to_conflict(third)
    assert third.villages[4] == NOBODY and "complete:raiders" in keys(third)
    own = build(
        members={4: {R: 3, B: 3}, 0: {R: 1}},
        villages={4: R},
        in_progress={R: goals("A7")},
        dice="-",
        pool="S",
    )
    own = to_conflict(own)
    assert own.villages[4] == NOBODY
    assert own.turn is not None and not own.turn.raided
    assert "complete:raiders" not in keys(own)


# -- item 24: leaders = house (Intimidate; tokens are not opponents) ----------------------------

_QUIET = {B: Power.TRADER, G: Power.CUNNING, Y: Power.FARMING}  # Daba, Dananu, Indartsu


def _intimidate(members: dict[int, dict[int, int]], invaders: tuple[int, int]) -> State:
    return build(
        members=members,
        tribes={R: Tribe.MUKAAN, B: Tribe.DABA, G: Tribe.DANANU, Y: Tribe.INDARTSU},
        powers={R: Power.INTIMIDATE, **_QUIET},
        slots=(slot(Event.INVADERS), None),
        invaders=invaders,
        dice="-",
        pool="S",
    )


def test_item24_intimidate_counts_tokens_against_the_majority_and_spares_them() -> None:
    """§3.5 Intimidate, §3.6 Majority (review items 20, 24): R5 B1 + 1 token: 5 > 1 + 1 is a
    Majority, so B loses 1 and the token stays; then R vs the token: R4, R +2 VP. R4 B3 + 1
    token: 4 > 3 + 1 fails, so no Intimidate: (3,2,0) (2,1) (1,0) leaves R1."""
    s = to_conflict(_intimidate({3: {R: 5, B: 1}}, (3, 1)))
    assert s.members[3] == (4, 0, 0, 0), "the token fought one round after B's loss"
    assert s.invader_hex == NOBODY and s.players[R].vp == INVADERS_VP
    s = to_conflict(_intimidate({3: {R: 4, B: 3}}, (3, 1)))
    assert s.members[3] == (1, 0, 0, 0)


# -- item 25: hidden information is exactly the deck orders and the PRNG ------------------------


def _reordered(state: State) -> State:
    """Every goal deck and the event deck reversed; the PRNG kept (§6 hidden orders)."""
    players = tuple(replace(p, goal_deck=p.goal_deck[::-1]) for p in state.players)
    return replace(state, players=players, event_deck=state.event_deck[::-1])


def _view_base() -> State:
    """A Step 5 state whose every context (action, conflict, event) is filled in."""
    s = build(
        members={0: {R: 2}, 3: {R: 1, G: 1}, 4: {B: 3}, 8: {Y: 1}},
        villages={0: R},
        resources={R: (1, 2, 3)},
        in_progress={R: goals("A3")},
        completed={B: goals("D5")},
        tribes={R: Tribe.DABA, B: Tribe.DANANU, G: Tribe.INDARTSU, Y: Tribe.KAHA},
        powers={R: Power.TRADER, B: Power.CUNNING, G: Power.FARMING, Y: Power.WAYFARERS},
        owned={G: (Event.WALLS,)},
        slots=(slot(Event.DISCOVERY, 2, 2, 1), slot(Event.INVADERS)),
        invaders=(6, 3),
        event_discard=(Event.DROUGHT, Event.MILD_WINTER),
        step=Step.GOALS,
    )
    return replace(
        s,
        action=ActionState(Action.GATHER, Tier.DEFAULT, 2, (3,), (Resource.FOOD,), 2, 0, 3),
        conflict=Conflict((4,), 3, (R, G), True, (B,)),
        resolving=Resolving(Event.CHIEFTAIN, (B,), (0, 1, 0, 0), (B,), 2, R, 1),
        log=("seat 0 recycles raiders",),
    )


def _with(state: State, **changes: Any) -> State:
    return replace(state, **changes)


def _player(state: State, **changes: Any) -> State:
    return replace(state, players=(replace(state.players[R], **changes), *state.players[1:]))


def _turn(state: State, **changes: Any) -> State:
    assert state.turn is not None
    return replace(state, turn=replace(state.turn, **changes))


def _slot(state: State, **changes: Any) -> State:
    first = state.slots[0]
    assert first is not None
    return replace(state, slots=(replace(first, **changes), state.slots[1]))


def _nested(field: str) -> Any:
    def change(state: State, **changes: Any) -> State:
        return replace(state, **{field: replace(getattr(state, field), **changes)})

    return change


#: A change of every public field of §5.0, by dataclass: each must show in the view.
PUBLIC: dict[type, tuple[Any, dict[str, Any]]] = {
    State: (
        _with,
        {
            "event_set": EventSet.BASE12,
            "leaders": Leaders.OFF,
            "turn_cap": 7,
            "terrain": lambda s: (s.terrain[2], s.terrain[1], s.terrain[0], *s.terrain[3:]),
            "members": lambda s: ((3, 0, 0, 0), *s.members[1:]),
            "villages": lambda s: (*s.villages[:4], B, *s.villages[5:]),
            "invader_hex": 7,
            "invaders": 4,
            "mammoth_hex": 9,
            "tiger_hex": 2,
            "volcano": Hex(1, 0),
            "rows": lambda s: ((MOON, MOON, MOON), *s.rows[1:]),
            "pool": (SUN, MOON),
            "event_deck": lambda s: s.event_deck[1:],  # its size is public
            "event_discard": (Event.MILD_WINTER, Event.DROUGHT),
            "start_player": B,
            "step": Step.GAME_OVER,
            "actor": B,
            "active": B,
            "turn_count": 5,
            "winner": R,
            "capped": True,
            "log": lambda s: (*s.log, "seat 1 bids 3"),
        },
    ),
    Player: (
        _player,
        {
            "tribe": Tribe.TUNGA,
            "power": Power.CRAFTY_BUILDERS,
            "vp": 9,
            "vp_villages": 9,
            "vp_events": 9,
            "supply": 9,
            "resources": (9, 9, 9),
            "goal_deck": lambda p: p.goal_deck[1:],  # its size is public
            "in_progress": goals("A3", "A4"),
            "completed": goals("D1"),
            "owned_events": (Event.ALTAR,),
            "mammoth_tamed": True,
        },
    ),
    Turn: (
        _turn,
        {
            "rolled": (SUN, SUN),
            "dice_left": (MOON,),
            "actions_taken": (Action.GROW,),
            "dice_used": 1,
            "roll_stage": 0,
            "draw_blocked": True,
            "gathered": 6,
            "raided": True,
            "shared_knowledge_used": True,
            "altar_used": True,
            "pottery_used": True,
            "trader_used": True,
            "cunning_used": True,
            "moved": lambda t: (1, *t.moved[1:]),
        },
    ),
    Slot: (
        _slot,
        {"event": Event.PLENTIFUL_FOOD, "food": 1, "wood": 1, "stone": 2, "tokens": 1},
    ),
    ActionState: (
        _nested("action"),
        {
            "action": Action.LEAD,
            "tier": Tier.SUN,
            "power": 3,
            "hexes": (3, 0),
            "types": (Resource.STONE,),
            "count": 1,
            "origin": 1,
            "target": 4,
        },
    ),
    Conflict: (
        _nested("conflict"),
        {
            "remaining": (),
            "hex": 4,
            "start_sides": (R,),
            "invaders_at_start": False,
            "waiting": (),
        },
    ),
    Resolving: (
        _nested("resolving"),
        {
            "event": Event.VOLCANO,
            "waiting": (),
            "losses": (1, 1, 0, 0),
            "near": (R, B),
            "high_bid": 3,
            "high_bidder": B,
            "to_give": 2,
        },
    ),
}
#: ``rng`` is hidden (§6; the deck orders are checked in the next test), ``seats`` fixes
#: the layout (``View.seats``), the other fields hold the dataclasses of the table.
NOT_CHANGED_HERE: dict[type, set[str]] = {
    State: {"seats", "rng", "players", "slots", "turn", "action", "conflict", "resolving"},
}


@pytest.mark.parametrize("kind", list(PUBLIC), ids=lambda k: k.__name__)
def test_item25_every_public_field_shows_in_the_one_view(kind: type) -> None:
    """§6 "Exact content of view" (review item 25): one view for every seat and the
    spectator; every field of §5.0 except the PRNG and the deck orders changes it (deck
    sizes are public), so nothing public is withheld."""
    base = _view_base()
    seen = GAME.view(base, SPECTATOR)
    assert all(GAME.view(base, seat) == seen for seat in range(base.seats))
    assert seen.seats == base.seats
    apply_change, changes = PUBLIC[kind]
    names = {f.name for f in dataclasses.fields(kind)} - NOT_CHANGED_HERE.get(kind, set())
    assert set(changes) == names, "a change for every public field"
    source = {
        State: base,
        Player: base.players[R],
        Turn: base.turn,
        Slot: base.slots[0],
        ActionState: base.action,
        Conflict: base.conflict,
        Resolving: base.resolving,
    }[kind]
    for name, value in changes.items():
        if callable(value):
            value = value(source)
        changed = apply_change(base, **{name: value})
        assert GAME.view(changed, SPECTATOR) != seen, f"{kind.__name__}.{name} is not shown"


def test_item25_the_view_hides_exactly_the_deck_orders_and_the_prng() -> None:
    """§6 items 1-3 (review item 25): reordering every goal deck and the event deck, or a
    new PRNG state, changes no viewer's view; the sizes are shown."""
    base = _view_base()
    for viewer in (SPECTATOR, R, B, G, Y):
        seen = GAME.view(base, viewer)
        assert GAME.view(_reordered(base), viewer) == seen
        assert GAME.view(replace(base, rng=base.rng + 1), viewer) == seen
    view = GAME.view(base, SPECTATOR)
    assert view.event_deck_size == len(base.event_deck) > 1
    assert [p.goal_deck_size for p in view.players] == [len(p.goal_deck) for p in base.players]


def test_item25_moves_texts_and_logs_never_depend_on_deck_orders() -> None:
    """§6 (review item 25): with the deck orders reversed, the legal moves, their
    descriptions and the refusals are the same, and a move that draws no card gives the
    same view (log included) afterwards: in a LEAD that recycles (Ex 17's deck), in Step 5
    and through a whole seeded game."""
    deck = goals("A1", "D2", "D6", "A8", "D1", "D3", "D4", "D7", "A2", "A5", "A6", "A4")
    lead = build(
        seats=3,
        members={0: {R: 1}, 1: {R: 1, B: 1}},
        villages={0: R, 1: R},
        in_progress={R: goals("D5", "A3", "A7")},
        decks={R: deck},
        resources={R: (2, 2, 2)},
        slots=(slot(Event.SHARED_KNOWLEDGE), None),
        dice="- S",
    )
    lead = do(lead, "assign:blank:lead")
    assert lead.step is Step.LEAD and "recycle:wanderers" in keys(lead)
    _same_without_the_orders(lead)
    _same_without_the_orders(do(lead, "recycle:wanderers"))
    _same_without_the_orders(do(lead, "lead-draw", "assign:sun:grow", "grow-done"))
    state = new_game(GAME, 2, {}, 31)
    chooser = Rng(31)
    step = 0
    while GAME.result(state) is None:
        seat = GAME.to_act(state)[0]
        legal = GAME.legal_moves(state, seat)
        if step % 5 == 0 or state.step is Step.LEAD:
            _same_without_the_orders(state)
        state = GAME.apply(state, seat, chooser.choice(legal))
        step += 1
    assert step > 100


def _same_without_the_orders(state: State) -> None:
    seat = GAME.to_act(state)[0]
    legal = GAME.legal_moves(state, seat)
    other = _reordered(state)
    assert other != state or all(len(p.goal_deck) < 2 for p in state.players)
    assert GAME.legal_moves(other, seat) == legal
    for move in legal:
        assert GAME.describe(other, move) == GAME.describe(state, move)
        after, after_other = GAME.apply(state, seat, move), GAME.apply(other, seat, move)
        if _drew_nothing(state, after) and _drew_nothing(other, after_other):
            assert GAME.view(after_other, SPECTATOR) == GAME.view(after, SPECTATOR), move.key
    assert GAME.explain_illegal is not None
    for move in _refused(legal):
        assert GAME.explain_illegal(other, seat, move) == GAME.explain_illegal(state, seat, move)


def _drew_nothing(before: State, after: State) -> bool:
    """No card left a deck's top (recycled cards may have gone under a goal deck)."""
    return after.event_deck == before.event_deck and all(
        a.goal_deck[: len(b.goal_deck)] == b.goal_deck
        for a, b in zip(after.players, before.players, strict=True)
    )


def _refused(legal: Sequence[Any]) -> list[Any]:
    wanted = ("lead-draw", "end-turn", "recycle:raiders", "complete:fire", "assign:sun:lead")
    return [m for m in map(parse_move, wanted) if m not in legal]


# -- item 26: VP are the actual total ------------------------------------------------------------


def test_item26_vp_above_fifteen_are_stored_and_shown() -> None:
    """§3.8, §8.32, G30 (review item 26): 13 VP and 3 villages: Step 1 makes 16, the game is
    won at once, and the state, the view and the result all say 16 (no cap at 15)."""
    s = build(
        members={0: {R: 1}, 1: {R: 1}, 4: {R: 1}},
        villages={0: R, 1: R, 4: R},
        vp={R: 13},
    )
    s = do(before_turn(s, SUN, MOON), "end-turn")
    assert s.winner == R and s.players[R].vp == 16
    assert GAME.view(s, SPECTATOR).players[R].vp == 16
    result = GAME.result(s)
    assert result is not None and result.scores[R] == 16 and "16 VP" in result.summary


# -- item 27: the omit multiset of BuildVillage ------------------------------------------------


def test_item27_omit_names_a_type_at_most_as_often_as_it_is_printed() -> None:
    """§5.7 BuildVillage, §3.5 Crafty Builders (review item 27): Daba (2F 1W 3S) with Shelters
    and Crafty Builders (k = 2) holding 2F 0W 3S: food+wood (1/0/3) and wood+stone (2/0/2)
    are legal; wood+wood is not (wood is printed once), although 2/0/3 would be affordable;
    food+food (0/1/3), food+stone (1/1/2) and stone+stone (2/1/1) need a wood."""
    s = build(
        members={4: {R: 1}},
        tribes={R: Tribe.DABA, B: Tribe.DANANU, G: Tribe.INDARTSU, Y: Tribe.KAHA},
        powers={R: Power.CRAFTY_BUILDERS, B: Power.CUNNING, G: Power.FARMING, Y: Power.WAYFARERS},
        completed={R: goals("D7")},
        resources={R: (2, 0, 3)},
        step=Step.GOALS,
    )
    villages = [k for k in keys(s) if k.startswith("village:")]
    assert villages == [f"village:{key(s, 4)}:food+wood", f"village:{key(s, 4)}:wood+stone"]
    s = do(s, f"village:{key(s, 4)}:wood+stone")
    assert s.players[R].resources == (0, 0, 1) and s.villages[4] == R


# -- item 28: capped leaders in seat order ------------------------------------------------------


def test_item28_capped_leaders_are_listed_in_seat_order() -> None:
    """§7, §5.8, §4 step 8 (review item 28): seat order starts with the start player (seat 1).
    Start player B, R and G tied on most VP: the capped result lists G before R."""
    s = build(
        seats=3,
        members={0: {R: 1}, 4: {B: 1}, 8: {G: 1}},
        vp={R: 4, B: 1, G: 4},
        step=Step.GOALS,
        turn_cap=1,
    )
    s = do(replace(s, start_player=B), "end-turn")
    result = GAME.result(s)
    assert s.capped and result is not None and result.ranks == (1, 3, 1)
    assert result.summary.endswith("most VP (4) for seat(s) 2, 0")

"""Fate of Akalon's protobuf face: moves both ways, per-seat views, no hidden card on the wire."""

from __future__ import annotations

import itertools
import random
from collections.abc import Iterator

import pytest

from tribes.core.catalog import build_catalog
from tribes.engine import SPECTATOR, MalformedMoveError, driver
from tribes.games.fate_of_akalon import GAME
from tribes.games.fate_of_akalon.cards import ATTRIBUTE, FACTION_OF, KEY, NAME, VALUE
from tribes.games.fate_of_akalon.moves import ChooseYesNo, Decline
from tribes.games.fate_of_akalon.state import State
from tribes.v1 import fate_of_akalon_pb2 as fpb
from tribes.wire.fate_of_akalon import WIRE

FACTIONS = ("dwarf", "elf", "orc", "undead")
#: Every ordered 2p pairing, plus 3p and 4p line-ups (teams are seats 0+2 and 1+3).
CONFIGS = (
    *((2, f"{a},{b}") for a, b in itertools.permutations(FACTIONS, 2)),
    (3, "dwarf,orc,elf"),
    (3, "undead,elf,orc"),
    (4, "orc,elf,undead,dwarf"),
    (4, "elf,dwarf,orc,undead"),
)
_FACTION = {
    "dwarf": fpb.FATE_OF_AKALON_FACTION_DWARF,
    "elf": fpb.FATE_OF_AKALON_FACTION_ELF,
    "orc": fpb.FATE_OF_AKALON_FACTION_ORC,
    "undead": fpb.FATE_OF_AKALON_FACTION_UNDEAD,
}


def playout(seats: int, factions: str, seed: int) -> Iterator[State]:
    """Every state of one seeded random game, the finished one last."""
    state = driver.new_game(GAME, seats, {"factions": factions}, seed)
    chooser = random.Random(seed)
    while True:
        yield state
        if GAME.result(state) is not None:
            return
        seat = GAME.to_act(state)[0]
        state = driver.play(GAME, state, seat, chooser.choice(GAME.legal_moves(state, seat)))


def view_of(state: State, viewer: int) -> fpb.FateOfAkalonView:
    msg = WIRE.view_to_proto(GAME.view(state, viewer))
    assert msg.WhichOneof("game") == "fate_of_akalon"
    return msg.fate_of_akalon


def named_cards(view: fpb.FateOfAkalonView) -> set[str]:
    """Every card id the view shows outside its card table."""
    named = {b.card for b in view.battlefield}
    for p in view.players:
        named.update(p.hand, p.discard, p.cemetery, p.out_of_play, p.reveal)
    for e in view.effects:
        named.add(e.source)
        if e.target:
            named.add(e.target)
    return named


def check_view(state: State, viewer: int) -> None:
    """The converted view matches the state and shows only what ``viewer`` may know."""
    view = view_of(state, viewer)
    assert view.viewer == viewer
    assert len(view.players) == state.seats
    for seat, (p, area) in enumerate(zip(view.players, state.players, strict=True)):
        assert (p.seat, p.faction) == (seat, _FACTION[state.factions[seat].value])
        assert (p.hand_size, p.deck_size) == (len(area.hand), len(area.deck))
        assert list(p.hand) == ([KEY[c] for c in area.hand] if seat == viewer else [])
        assert list(p.discard) == [KEY[c] for c in area.discard]
        assert list(p.cemetery) == [KEY[c] for c in area.cemetery]
        assert p.cemetery_value == area.cemetery_value == sum(VALUE[c] for c in area.cemetery)
        assert p.eliminated == area.eliminated
    if state.seats == 4:
        values = [a.cemetery_value for a in state.players]
        assert list(view.team_values) == [values[0] + values[2], values[1] + values[3]]
        assert [list(t.seats) for t in view.teams] == [[0, 2], [1, 3]]
    else:
        assert not view.team_values and not view.teams
    pending = state.pending
    if pending is None:
        assert not view.HasField("pending")
    else:
        assert view.pending.actor == pending.actor
        assert view.pending.decision != fpb.FATE_OF_AKALON_DECISION_UNSPECIFIED
        expected = (
            [m.key for m in GAME.legal_moves(state, viewer)] if viewer == pending.actor else []
        )
        assert list(view.pending.options) == expected
    assert list(view.private_log) == (
        list(state.players[viewer].private_log) if viewer != SPECTATOR else []
    )
    # the card table holds exactly the cards the view names, with their definitions
    instance = {key: card for card, key in enumerate(KEY)}
    in_options = {
        part for option in view.pending.options for part in option.split(":") if part in instance
    }
    assert set(view.cards) == named_cards(view) | in_options
    for key, card in view.cards.items():
        c = instance[key]
        assert (card.name, card.printed_value) == (NAME[c], VALUE[c])
        assert (card.faction, card.attribute) == (_FACTION[FACTION_OF[c].value], ATTRIBUTE[c] or "")
    for b in view.battlefield:
        assert b.value >= 0
    # hidden cards: other hands and every deck never appear, not even as bytes
    wire = view.SerializeToString()
    hidden = [
        KEY[c]
        for seat, area in enumerate(state.players)
        for c in (area.deck if seat == viewer else area.hand + area.deck)
    ]
    leaked = [key for key in hidden if key.encode() in wire]
    assert not leaked, f"viewer {viewer} sees hidden cards {leaked}"


@pytest.mark.parametrize(("seats", "factions"), CONFIGS)
def test_moves_round_trip_and_views_convert(seats: int, factions: str) -> None:
    """Every legal move survives proto and back; every seat's and the spectator's view is right."""
    for seed in (1, 2):
        for index, state in enumerate(playout(seats, factions, seed)):
            for seat in GAME.to_act(state):
                for move in GAME.legal_moves(state, seat):
                    msg = WIRE.move_to_proto(move)
                    assert msg.WhichOneof("game") == "fate_of_akalon"
                    assert WIRE.move_from_proto(msg.fate_of_akalon) == move
            if index % 3 == 0 or GAME.result(state) is not None:
                for viewer in (SPECTATOR, *range(seats)):
                    check_view(state, viewer)


def test_finished_view_has_the_result() -> None:
    """A finished game's view carries the outcome, reason, ranks and cemetery values."""
    *_, last = playout(4, "orc,elf,undead,dwarf", 3)
    result = GAME.result(last)
    assert result is not None
    view = view_of(last, SPECTATOR)
    assert view.phase == fpb.FATE_OF_AKALON_PHASE_OVER
    assert not view.HasField("pending")
    assert list(view.result.cemetery_values) == [a.cemetery_value for a in last.players]
    assert list(view.result.ranks) == list(result.ranks)
    assert list(view.result.winners) == list(result.winners)
    assert view.result.summary == result.summary
    assert view.result.reason == fpb.FATE_OF_AKALON_END_REASON_THRESHOLD
    tie = len(result.winners) == 4
    assert view.result.outcome == (
        fpb.FATE_OF_AKALON_OUTCOME_TIE if tie else fpb.FATE_OF_AKALON_OUTCOME_WIN
    )


def test_card_table_describes_cards() -> None:
    """A card's definition facts come with its id: name, faction, value, attribute, text."""
    state = next(s for s in playout(2, "elf,orc", 1) if s.players[0].hand)
    view = view_of(state, 0)
    hand = list(view.players[0].hand)
    assert set(hand) <= set(view.cards)
    card = view.cards[hand[0]]
    assert card.name and card.text and card.definition_id.startswith("ELF-")
    assert card.faction == fpb.FATE_OF_AKALON_FACTION_ELF


def test_typed_moves_decode() -> None:
    """Hand-built messages decode to the moves their ids name."""
    cases = {
        "attacker:1": fpb.FateOfAkalonMove(
            choose_first_attacker=fpb.FateOfAkalonChooseFirstAttacker(seat=1)
        ),
        "play:orc-goblin-1": fpb.FateOfAkalonMove(
            play_card=fpb.FateOfAkalonPlayCard(card="orc-goblin-1")
        ),
        "decline": fpb.FateOfAkalonMove(decline=fpb.FateOfAkalonDecline()),
        "opponent:0": fpb.FateOfAkalonMove(choose_opponent=fpb.FateOfAkalonChooseOpponent(seat=0)),
        "choose:elf-scout-2": fpb.FateOfAkalonMove(
            choose_card=fpb.FateOfAkalonChooseCard(card="elf-scout-2")
        ),
        "yes": fpb.FateOfAkalonMove(choose_yes_no=fpb.FateOfAkalonChooseYesNo(yes=True)),
        "no": fpb.FateOfAkalonMove(choose_yes_no=fpb.FateOfAkalonChooseYesNo()),
        "trigger:undead-skeleton-3:0": fpb.FateOfAkalonMove(
            resolve_trigger=fpb.FateOfAkalonResolveTrigger(card="undead-skeleton-3", ability=0)
        ),
        "discard:dwarf-miner-1": fpb.FateOfAkalonMove(
            place_on_discard=fpb.FateOfAkalonPlaceOnDiscard(card="dwarf-miner-1")
        ),
    }
    for key, msg in cases.items():
        assert WIRE.move_from_proto(msg) == GAME.parse_move(key)
    assert WIRE.move_from_proto(cases["decline"]) == Decline()
    assert WIRE.move_from_proto(cases["no"]) == ChooseYesNo(False)


@pytest.mark.parametrize(
    "msg",
    [
        fpb.FateOfAkalonMove(),
        fpb.FateOfAkalonMove(play_card=fpb.FateOfAkalonPlayCard()),
        fpb.FateOfAkalonMove(play_card=fpb.FateOfAkalonPlayCard(card="goblin")),
        fpb.FateOfAkalonMove(play_card=fpb.FateOfAkalonPlayCard(card="orc-goblin-9")),
        fpb.FateOfAkalonMove(play_card=fpb.FateOfAkalonPlayCard(card="ORC-GOBLIN-1")),
        fpb.FateOfAkalonMove(choose_card=fpb.FateOfAkalonChooseCard(card="orc-goblin")),
        fpb.FateOfAkalonMove(place_on_discard=fpb.FateOfAkalonPlaceOnDiscard(card="orc-02#1")),
        fpb.FateOfAkalonMove(choose_first_attacker=fpb.FateOfAkalonChooseFirstAttacker(seat=-1)),
        fpb.FateOfAkalonMove(choose_opponent=fpb.FateOfAkalonChooseOpponent(seat=-2)),
        fpb.FateOfAkalonMove(
            resolve_trigger=fpb.FateOfAkalonResolveTrigger(card="orc-goblin-1", ability=-1)
        ),
        fpb.FateOfAkalonMove(resolve_trigger=fpb.FateOfAkalonResolveTrigger(card="x", ability=0)),
    ],
)
def test_malformed_moves_are_refused(msg: fpb.FateOfAkalonMove) -> None:
    """An empty move, an unknown card id or a negative seat/index is MalformedMoveError."""
    with pytest.raises(MalformedMoveError):
        WIRE.move_from_proto(msg)


def test_registered_in_the_builtin_catalog() -> None:
    """Every server hosts Fate of Akalon with this wire module."""
    entry = build_catalog().get("fate_of_akalon")
    assert entry.wire is WIRE and entry.game is GAME

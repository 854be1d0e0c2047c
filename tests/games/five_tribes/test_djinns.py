"""Djinn powers, one test per rule (spec §3.6, §5.9, §8, §10 items 4-6, 12-15, 24)."""

from __future__ import annotations

from dataclasses import replace

import pytest

from tests.games.five_tribes.fixtures import at_turn, build, djinns, do, keys, meeples, t
from tribes.engine import IllegalMoveError
from tribes.games.five_tribes.data import Card, Djinn
from tribes.games.five_tribes.invariants import check_invariants
from tribes.games.five_tribes.state import State, Step

A, B, C = 0, 1, 2


def _turn(board: dict[tuple[int, int], str] | None = None, **spec: object) -> State:
    state = build(board=board or {(0, 0): "Y", (0, 1): "Y"}, players={A: dict(spec)})
    return at_turn(state, A, later=(B, C))


def _uses(state: State, djinn: str) -> list[str]:
    return [k for k in keys(state) if k.startswith(f"djinn:{djinn}:")]


def test_a_paid_power_works_once_per_round() -> None:
    """§3.6: after a use the Djinn is not offered again this round."""
    state = do(_turn(djinns="iblis", elders=2), "djinn:iblis:e")
    assert _uses(state, "iblis") == [] and state.players[A].iblis
    with pytest.raises(IllegalMoveError, match="already been used this round"):
        do(state, "djinn:iblis:e")


def test_flags_span_both_turns_of_a_two_player_round() -> None:
    """§10 item 5: in 2p a paid power used in the first turn stays used in the second."""
    board = {(0, 0): "Y", (0, 1): "Y", (4, 4): "W", (4, 5): "W"}
    state = build(seats=2, board=board, players={A: {"djinns": "iblis", "elders": 2}})
    state = at_turn(state, A, later=(1, 2, 3))
    state = do(state, "djinn:iblis:e", "pickup:0-0", "drop:0-1:y", "resolve-tribe")
    state = do(state, "skip-tile", "end-turn")
    state = do(state, "pickup:4-4", "drop:4-5:w", "resolve-tribe", "skip-tile", "end-turn")
    assert state.turn is not None and state.turn.seat == A and state.turn.marker == 2
    assert state.players[A].iblis and _uses(state, "iblis") == []


def test_no_djinn_use_in_the_middle_of_a_move() -> None:
    """§5.2, §10 item 6: UseDjinn is never offered in DROP."""
    state = do(_turn(board={(0, 0): "YW", (0, 2): "W"}, djinns="iblis", elders=1), "pickup:0-0")
    assert state.step is Step.DROP and _uses(state, "iblis") == []
    with pytest.raises(IllegalMoveError, match="cannot do that now"):
        do(state, "djinn:iblis:e")


def test_useless_activations_are_still_listed() -> None:
    """§5.9: Echidna/Iblis are legal (if wasteful) in SALE too."""
    state = at_turn(
        build(players={A: {"djinns": "echidna iblis", "elders": 2}}),
        A,
        step=Step.SALE,
        later=(B, C),
    )
    assert keys(state) == ["djinn:echidna:ee", "djinn:iblis:e", "end-turn"]


def test_baal_pays_its_owner_one_but_not_for_itself() -> None:
    """§5.9, §10 item 4: +1 GC when the owner acquires a Djinn; nothing for Ba'al itself."""
    board = {(0, 3): "W", (0, 2): "WY"}
    state = build(board=board, display="baal enki marid", players={A: {"elders": 2}})
    state = do(at_turn(state, A, later=(B, C)), "pickup:0-3", "drop:0-2:w", "resolve-tribe")
    state = do(state, "buy:baal:ee")
    assert state.players[A].gold == 50 and state.players[A].djinns == (Djinn.BAAL,)
    state = build(
        board=board, display="enki marid iblis", players={A: {"elders": 2, "djinns": "baal"}}
    )
    state = do(at_turn(state, A, later=(B, C)), "pickup:0-3", "drop:0-2:w", "resolve-tribe")
    assert do(state, "buy:enki:ee").players[A].gold == 51


def test_bouraq_with_hagis_opens_place_palace_and_resumes() -> None:
    """§5.9: Bouraq's palace opens PLACE_PALACE when Hagis is usable; the turn resumes
    in the step where Bouraq was used; Monkir pays for the palace."""
    players = {A: {"djinns": "bouraq hagis", "cards": "fakir fakir"}, C: {"djinns": "monkir"}}
    state = at_turn(build(board={(0, 0): "Y", (0, 1): "Y"}, players=players), A, later=(B, C))
    state = do(state, "djinn:bouraq:f:2-1")
    assert state.step is Step.PLACE_PALACE and state.turn is not None
    assert state.turn.pending is not None and state.turn.pending.return_step is Step.START
    state = do(state, "redirect:2-2:f")
    assert state.palaces[t(2, 2)] == 1 and state.step is Step.START
    assert state.players[C].gold == 52 and state.players[A].fakirs == 0
    assert "pickup:0-0" in keys(state)
    check_invariants(state)


def test_hagis_needs_an_elder_or_fakir_to_be_usable() -> None:
    """§5.9: with nothing to pay, the palace is placed at once (no sub-decision)."""
    board = {(0, 4): "Y", (0, 3): "YG"}
    state = build(board=board, players={A: {"djinns": "hagis"}})
    state = do(at_turn(state, A, later=(B, C)), "pickup:0-4", "drop:0-3:y", "resolve-tribe")
    state = do(state, "palace")
    assert state.step is Step.SALE and state.palaces[t(0, 3)] == 1


def test_enki_and_lamia() -> None:
    """§5.9: Enki places a palm on any Oasis; with Lamia usable PLACE_PALM opens."""
    state = do(_turn(djinns="enki", elders=1), "djinn:enki:e:4-3")
    assert state.palms[t(4, 3)] == 1 and state.step is Step.START
    state = do(_turn(djinns="enki lamia", elders=2), "djinn:enki:e:4-3")
    assert state.step is Step.PLACE_PALM
    assert len([k for k in keys(state) if k.startswith("redirect")]) == 5  # edge tile: 5 around
    state = do(state, "redirect:3-3:e")
    assert state.palms[t(3, 3)] == 1 and Djinn.LAMIA in state.players[A].used


def test_enki_and_bouraq_need_the_supply() -> None:
    """§8: with no palm/palace left Enki/Bouraq cannot be activated."""
    state = _turn(djinns="enki bouraq", elders=2)
    state = replace(
        state, palm_supply=0, palace_supply=0, palms=(12,) + (0,) * 29, palaces=(10,) + (0,) * 29
    )
    assert _uses(state, "enki") == [] and _uses(state, "bouraq") == []


def test_sibittis_reshuffles_and_draws_what_there_is() -> None:
    """§10 item 13: pile short -> reshuffle the Djinn discards; keep 1 of those drawn."""
    state = _turn(djinns="sibittis", elders=2)
    state = replace(
        state,
        djinn_pile=djinns("boaz"),
        djinn_discard=djinns("nekir"),
        djinn_display=djinns("jafaar enki marid"),
    )
    rest = [
        d for d in Djinn if d not in (*state.djinn_display, Djinn.SIBITTIS, Djinn.BOAZ, Djinn.NEKIR)
    ]
    holder = replace(state.players[B], djinns=tuple(rest))
    state = replace(state, players=(state.players[A], holder, state.players[C]))
    state = do(state, "djinn:sibittis:ee")
    assert state.turn is not None and state.turn.pending is not None
    assert state.turn.pending.drawn == djinns("boaz nekir")
    assert state.djinn_pile == () and state.djinn_discard == ()
    check_invariants(state)
    state = do(state, "keep:nekir")
    assert state.djinn_discard == djinns("boaz") and state.step is Step.START


def test_sibittis_needs_a_djinn_to_draw() -> None:
    """§5.9: with pile and discard empty Sibittis is not possible."""
    state = replace(_turn(djinns="sibittis", elders=2), djinn_pile=(), djinn_discard=())
    assert _uses(state, "sibittis") == []


def test_sloar_draws_even_from_an_empty_pile() -> None:
    """§5.9: the paid Fakir is reshuffled into a new pile and can be drawn back."""
    state = _turn(djinns="sloar", cards="fakir")
    state = replace(state, resource_pile=(), resource_discard=())
    state = do(state, "djinn:sloar:f")
    assert state.players[A].cards[Card.FAKIR] == 1
    assert state.resource_pile == () and state.resource_discard == ()


def test_utug_needs_meeples_and_leta_an_empty_tile() -> None:
    """§10 item 15: Utug only on tiles with meeples; Leta only on empty tiles."""
    state = build(
        board={(0, 0): "Y", (0, 1): "Y"},
        palms={(2, 0): 1},
        owners={(3, 0): B},
        players={A: {"djinns": "utug leta", "elders": 4}},
    )
    state = at_turn(state, A, later=(B, C))
    utug = {k.split(":")[3] for k in _uses(state, "utug")}
    leta = {k.split(":")[3] for k in _uses(state, "leta")}
    assert utug == {"0-0", "0-1"}
    assert "0-0" not in leta and "2-0" not in leta and "3-0" not in leta and len(leta) == 26


def test_leta_last_camel_triggers_the_end() -> None:
    """§8: camels placed by Leta/Utug count like any camel."""
    state = do(_turn(djinns="leta", elders=2, camels=1), "djinn:leta:ee:4-5")
    assert state.owners[t(4, 5)] == A and state.end_triggered


def test_marid_pays_for_the_last_drop_too() -> None:
    """§8: Marid pays per meeple dropped on its owner's tiles, the last drop included."""
    state = build(
        board={(0, 0): "Y", (0, 1): "Y"}, owners={(0, 1): B}, players={B: {"djinns": "marid"}}
    )
    state = do(at_turn(state, A, later=(B, C)), "pickup:0-0", "drop:0-1:y")
    assert state.players[B].gold == 52 and state.owners[t(0, 1)] == B


def test_anun_nak_draws_from_the_bag_with_the_prng() -> None:
    """§6: bag draws pick uniformly with the PRNG; the draw changes the stored PRNG state."""
    state = _turn(djinns="anun-nak", elders=1)
    after = do(state, "djinn:anun-nak:e:2-2")
    assert sum(after.meeples[t(2, 2)]) == 3 and after.rng != state.rng
    assert sum(after.bag) == sum(state.bag) + 1 - 3
    check_invariants(after)


def test_echidna_doubles_builders_with_fakirs() -> None:
    """§8: (Builders + Fakirs) x blue x 2."""
    board = {(4, 1): "B", (3, 1): "BB"}
    state = build(board=board, players={A: {"djinns": "echidna", "elders": 2, "cards": "fakir"}})
    state = at_turn(state, A, later=(B, C))
    state = do(state, "djinn:echidna:ee", "pickup:4-1", "drop:3-1:b", "build:1")
    assert state.players[A].gold == 50 + (3 + 1) * 5 * 2


def test_djinn_conditions_are_checked_after_payment() -> None:
    """§10 item 24: Anun-Nak with an empty bag: only the Elder payment makes it possible."""
    state = replace(_turn(djinns="anun-nak", elders=1, cards="fakir"), bag=meeples(""))
    assert {k.split(":")[2] for k in _uses(state, "anun-nak")} == {"e"}

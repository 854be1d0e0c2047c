"""Fate of Akalon's rules, one test per rule (spec §4, §5, §7 and the R-numbers of §10.2)."""

from __future__ import annotations

from dataclasses import replace

import pytest

from tests.games.fate_of_akalon.fixtures import (
    after_fight,
    area,
    battle,
    build,
    card,
    choose_key,
    decision,
    fight,
    last_fight,
    moves,
    options,
    place_key,
    play_key,
    reinforcement,
    skirmish,
    trigger_key,
    values,
)
from tribes.engine import BadOptionsError
from tribes.engine.driver import new_game
from tribes.engine.rng import Rng
from tribes.games.fate_of_akalon import GAME
from tribes.games.fate_of_akalon.cards import DECKS, LABEL
from tribes.games.fate_of_akalon.dsl import Faction
from tribes.games.fate_of_akalon.rules import check_invariants
from tribes.games.fate_of_akalon.state import Side, State

# -- §4 setup and skirmish ---------------------------------------------------------------------


@pytest.mark.parametrize(
    ("seats", "expected"),
    [(2, ("elf", "orc")), (3, ("dwarf", "orc", "elf")), (4, ("orc", "elf", "undead", "dwarf"))],
)
def test_default_factions_per_seat_count(seats: int, expected: tuple[str, ...]) -> None:
    """§1: ``factions=auto`` gives the rulebook examples' line-up for each seat count."""
    state = new_game(GAME, seats, {}, 5)
    assert tuple(f.value for f in state.factions) == expected


@pytest.mark.parametrize(
    ("value", "message"),
    [
        ("orc,gnome", "there is no faction 'gnome'"),
        ("orc,orc", "'orc' is given twice"),
        ("orc,elf,dwarf", "2 players need 2 factions, not 3"),
        ("orc", "2 players need 2 factions, not 1"),
    ],
)
def test_bad_faction_options_are_rejected(value: str, message: str) -> None:
    """§4.1: factions are known, distinct and one per seat; the error says which."""
    with pytest.raises(BadOptionsError, match=message):
        new_game(GAME, 2, {"factions": value}, 5)


def test_faction_names_ignore_case_and_spaces() -> None:
    """§4.1: ``" Undead , DWARF"`` names the Undead and Dwarf decks."""
    state = new_game(GAME, 2, {"factions": " Undead , DWARF"}, 5)
    assert state.factions == (Faction.UNDEAD, Faction.DWARF)


def test_decks_are_shuffled_by_the_seed() -> None:
    """§4.1: every deck is shuffled with the game PRNG; equal seeds give equal games."""
    first, again = (new_game(GAME, 2, {}, 99) for _ in range(2))
    other = new_game(GAME, 2, {}, 100)
    assert first == again and first.players != other.players
    assert first.players[0].deck != tuple(DECKS[Faction.ELF])[: len(first.players[0].deck)]


def test_skirmish_safeguard_draws_the_winner() -> None:
    """R-34: when the round limit ends in a tie the PRNG picks one winner among the tied."""
    state = skirmish("elf,orc", {0: ["Hunter#1"], 1: ["Orc Raider#1"]}, max_rounds=1)
    winner = 0 if area(state, 0, "discard") == ["Hunter#1"] else 1
    assert area(state, 1 - winner, "cemetery") == [["Hunter#1", "Orc Raider#1"][1 - winner]]
    assert decision(state) == ("choose_first_attacker", 1 - winner)
    assert any("drawn at random" in line for line in state.log)


def test_four_player_skirmish_tie_reflips_all_four() -> None:
    """R-04: equal team totals send all four cards to the discards and all four flip again."""
    tops = {
        0: ["Ogre#1", "Goblin#1"],  # 6 + 1 = 7 against 0 + 7 = 7: a tie
        1: ["Scout#1", "Wizard#1"],
        2: ["Cultist#1", "Zombie#1"],  # re-flip: 1 + 4 = 5 against 7 + 2 = 9
        3: ["Gatekeeper#1", "Miner#1"],
    }
    state = skirmish("orc,elf,undead,dwarf", tops)
    assert area(state, 0, "discard") == ["Ogre#1"] and area(state, 2, "discard") == ["Cultist#1"]
    assert area(state, 1, "discard") == ["Scout#1", "Wizard#1"]
    assert area(state, 3, "discard") == ["Gatekeeper#1", "Miner#1"]
    assert area(state, 0, "cemetery") == ["Goblin#1"] and area(state, 2, "cemetery") == ["Zombie#1"]
    assert decision(state) == ("choose_first_attacker", 0)


def test_first_attacker_may_be_any_seat_and_everyone_draws_five() -> None:
    """§4.2 steps 4-5: the chooser names any player; every player draws 5 cards."""
    state = new_game(GAME, 3, {}, 8)
    assert options(state) == ["attacker:0", "attacker:1", "attacker:2"]
    state = moves(state, "attacker:2")
    assert state.battle.attacker == 2 and state.battle.play_order == (2, 0, 1)
    assert [len(p.hand) for p in state.players] == [5, 5, 5]


# -- §5.3 battle steps ----------------------------------------------------------------------------


def test_the_base_play_is_mandatory() -> None:
    """§5.3 B1: PLAY offers exactly the hand, never a pass, even with one card."""
    state = battle("orc,elf", hands={0: ["Troll#1"], 1: ["Scout#1"]})
    assert options(state) == [play_key("Troll#1")]


def test_sides_are_fixed_for_the_whole_battle() -> None:
    """R-07: a designation mid-battle does not change who is attacking."""
    state = battle("dwarf,orc", hands={0: ["Hammer#1"], 1: ["Battering Ram#1"]})
    state = moves(state, play_key("Hammer#1"))
    assert state.battle.designations and state.battle.sides == (Side.ATTACKING, Side.DEFENDING)
    state = moves(state, play_key("Battering Ram#1"))
    assert last_fight(state) == "Fight: Dwarf 3, Orc 4; Orc wins"  # the Ram still defends: 6-2


def _archer_under_fire() -> State:
    state = battle(
        "elf,dwarf,undead",
        hands={0: ["Archer#1", "Elf Lord#1"], 1: ["Shield Wall#1"], 2: ["Wraith#1"]},
    )
    state = moves(state, play_key("Archer#1"), play_key("Elf Lord#1"))
    assert values(state)["Archer#1"] == 3  # Elf Lord: other Ranged +1
    return moves(state, play_key("Shield Wall#1"), play_key("Wraith#1"))


def test_modifiers_add_up() -> None:
    """R-17: modifiers from different cards all apply: Archer 2 +1 (Elf Lord) -2 (Shield Wall)."""
    assert values(_archer_under_fire()) == {
        "Archer#1": 1,
        "Elf Lord#1": 8,
        "Shield Wall#1": 2,
        "Wraith#1": 1,
    }


def test_the_floor_applies_per_card_before_the_sums() -> None:
    """R-18/§8.6: Archer 2 +1 -2 -2 counts 0 (not -1), so the Elf side is 8, not 7."""
    state = moves(_archer_under_fire(), choose_key("Archer#1"))
    assert last_fight(state) == "Fight: Elf 8, Dwarf 2, Undead 1; Elf wins"


def test_a_newer_ignore_switches_off_an_older_one() -> None:
    """R-19: a Tactician covering the Illusionist gives the Orc Warrior its text back."""
    state = battle(
        "orc,elf,dwarf,undead",
        hands={0: ["Orc Warrior#1"], 1: ["Illusionist#1"], 2: ["Tactician#1"], 3: ["Cultist#1"]},
    )
    state = moves(state, play_key("Orc Warrior#1"), play_key("Illusionist#1"))
    state = moves(state, choose_key("Orc Warrior#1"))
    assert values(state)["Orc Warrior#1"] == 5  # ignored: no attack bonus
    state = moves(state, play_key("Tactician#1"))
    assert values(state)["Orc Warrior#1"] == 6  # the Illusionist's effect is switched off


def test_designations_persist_when_their_source_is_ignored() -> None:
    """R-21: the Hammer's designation survives an Illusionist covering the Hammer."""
    state = battle("dwarf,elf", hands={0: ["Hammer#1"], 1: ["Illusionist#1"]})
    state = moves(state, play_key("Hammer#1"), play_key("Illusionist#1"), choose_key("Hammer#1"))
    assert last_fight(state) == "Fight: Dwarf 3, Elf 2; Dwarf wins"
    assert state.battle.attacker == 1


def test_an_ability_fires_once_per_battle() -> None:
    """R-22/R-35: an on-play ability already in ``fired`` does not resolve again."""
    state = battle("elf,orc", hands={0: ["Archer#1", "Scout#1"], 1: ["Troll#1"]})
    fired = frozenset({card("Archer#1") * 4})
    state = replace(state, battle=replace(state.battle, fired=fired))
    state = moves(state, play_key("Archer#1"))
    assert decision(state) == ("play", 1)


def _two_elf_triggers() -> State:
    # A player's chain of extra plays ends at its first card without one, so two
    # different after-all-played cards of one player are placed directly (fixture).
    state = battle("orc,elf", hands={0: ["Troll#1"], 1: ["Scout#1"]})
    return fight(state, [(0, "Troll#1"), (1, "Blademaster#1"), (1, "Trickster#1")])


def test_triggers_are_ordered_by_their_owner() -> None:
    """§5.6.6: a player with different simultaneous triggers chooses their order."""
    state = _two_elf_triggers()
    assert decision(state) == ("order_triggers", 1)
    assert options(state) == [trigger_key("Blademaster#1"), trigger_key("Trickster#1")]
    state = moves(state, trigger_key("Blademaster#1"))
    assert "Blademaster gives Blademaster +1" in state.log  # one card (Scout) in hand
    assert decision(state) == ("choose_card", 1)  # then the Trickster


def test_a_trigger_whose_card_left_does_nothing_but_is_used() -> None:
    """R-08: the Trickster returns the Blademaster first; its pending ability fizzles."""
    state = moves(_two_elf_triggers(), trigger_key("Trickster#1"))
    assert decision(state) == ("choose_card", 1)
    state = moves(state, choose_key("Blademaster#1"))
    assert "Blademaster's ability does nothing" in state.log
    assert "Blademaster#1" in area(state, 1, "hand")


def test_identical_triggers_resolve_in_canonical_order() -> None:
    """R-15: two Wraiths need no ORDER_TRIGGERS; Wraith#1 resolves first."""
    state = battle("undead,orc", hands={0: ["Wraith#1", "Wraith#2"], 1: ["Troll#1"]})
    state = moves(state, play_key("Wraith#1"), play_key("Troll#1"))
    assert state.battle.plays == (1, 1)
    state = battle("orc,undead", hands={0: ["Troll#1"], 1: ["Wraith#1", "Banshee#1"]})
    state = moves(state, play_key("Troll#1"), play_key("Wraith#1"))
    assert decision(state) == ("choose_card", 1)
    assert state.stack[-1].card == card("Wraith#1")


def test_after_all_played_rounds_repeat_for_new_cards() -> None:
    """§5.3 B3.1: a card played in a round has its after-all-played text in the next round."""
    state = battle(
        "orc,elf", hands={0: ["Orc Raider#1", "Orc Raider#2", "Troll#1"], 1: ["Scout#1"]}
    )
    state = moves(state, play_key("Orc Raider#1"), play_key("Scout#1"))
    assert decision(state) == ("extra_play", 0)
    state = moves(state, play_key("Orc Raider#2"))
    assert decision(state) == ("extra_play", 0)  # the second Raider, next round
    assert options(state) == ["decline", play_key("Troll#1")]


def test_simultaneous_triggers_start_with_the_attacker() -> None:
    """§5.6.6: the attacker resolves their triggers first, then clockwise."""
    state = battle(
        "undead,elf",
        hands={0: ["Wraith#1"], 1: ["Archer#1", "Trickster#1"]},
    )
    state = moves(state, play_key("Wraith#1"), play_key("Archer#1"), play_key("Trickster#1"))
    assert decision(state) == ("choose_card", 0)
    state = moves(state, "decline")
    assert decision(state) == ("choose_card", 1)


# -- §5.7 reshuffling ---------------------------------------------------------------------------

ELF = [LABEL[c] for c in DECKS[Faction.ELF]]


def test_druid_reshuffle_happens_before_its_discard() -> None:
    """§5.7: a Druid drawing the last deck card reshuffles first; its discard stays."""
    rest = [x for x in ELF if x not in ("Druid#1", "Scout#1", "Wizard#1")]
    state = battle(
        "elf,orc",
        hands={0: ["Druid#1", "Scout#1"], 1: ["Troll#1"]},
        decks={0: ["Wizard#1"]},
        discards={0: rest},
    )
    assert area(state, 0, "deck") == ["Wizard#1"]
    state = moves(state, play_key("Druid#1"))
    assert len(state.players[0].deck) == len(rest) and state.players[0].discard == ()
    state = moves(state, choose_key("Scout#1"))
    assert area(state, 0, "discard") == ["Scout#1"]


def test_master_summoner_reveal_reshuffles_at_once() -> None:
    """§5.7: revealing the last deck card reshuffles before the second reveal."""
    rest = [x for x in ELF if x not in ("Master Summoner#1", "Wizard#1")]
    state = battle(
        "elf,orc",
        hands={0: ["Master Summoner#1"], 1: ["Troll#1"]},
        decks={0: ["Wizard#1"]},
        discards={0: rest},
    )
    state = moves(state, play_key("Master Summoner#1"))
    revealed = area(state, 0, "reveal")
    assert revealed[0] == "Wizard#1" and len(revealed) == 2
    assert state.players[0].discard == () and len(state.players[0].deck) == len(rest) - 1


def test_a_chosen_order_batch_delays_the_reshuffle() -> None:
    """R-23: while cards are placed in order, the discard is not shuffled away."""
    hand = ["Archer#1", "Archer#2", "Hunter#1"]
    out = [x for x in ELF if x not in hand]
    state = battle("orc,elf", hands={0: ["Kobold#1"], 1: hand}, out_of_play={1: out})
    state = moves(state, play_key("Kobold#1"), play_key("Archer#1"), play_key("Archer#2"))
    state = moves(state, play_key("Hunter#1"), "no")
    assert decision(state) == ("order_discard", 1)
    state = moves(state, place_key("Archer#1"))
    assert decision(state) == ("order_discard", 1)
    assert area(state, 1, "discard") == ["Archer#1"] and state.players[1].deck == ()
    check_invariants(state)  # the deferred reshuffle is the R-23 exception
    state = moves(state, place_key("Hunter#1"))
    assert state.players[1].discard == ()  # reshuffled at once, then drawn at B7
    assert sorted(area(state, 1, "hand")) == sorted(hand)


def test_draw_stops_when_deck_and_discard_are_empty() -> None:
    """§5.6.2 draw: with nothing left to draw the Scout draws nothing."""
    out = [x for x in ELF if x != "Scout#1"]
    state = battle("elf,orc", hands={0: ["Scout#1"], 1: ["Troll#1"]}, out_of_play={0: out})
    state = moves(state, play_key("Scout#1"))
    assert "Elf draws no card" in state.log


# -- B5-B7 and §7 ----------------------------------------------------------------------------------


def test_three_players_highest_wins_when_lower_values_tie() -> None:
    """R-40: 5, 2, 2: the single highest wins; a tie below it does not matter."""
    state = battle("orc,dwarf,elf", hands={0: ["Orc Warrior#1"], 1: ["Miner#1"], 2: ["Archer#1"]})
    state = moves(state, play_key("Orc Warrior#1"), play_key("Miner#1"))
    state = moves(state, play_key("Archer#1"))
    assert last_fight(state) == "Fight: Orc 6, Dwarf 2, Elf 2; Orc wins"


def test_three_players_attacker_tied_for_highest_keeps_the_attack() -> None:
    """§5.3 B5: a tie that includes the attacker: everyone loses, the attacker stays."""
    state = battle("elf,orc,undead", hands={0: ["Hunter#1"], 1: ["Kobold#1"], 2: ["Ghoul#1"]})
    state = moves(state, play_key("Hunter#1"), "no", play_key("Kobold#1"), play_key("Ghoul#1"))
    state = moves(state, "no")
    assert last_fight(state) == "Fight: Elf 3, Orc 1, Undead 3; everyone loses"
    assert state.battle.attacker == 0


def test_four_player_tie_both_teams_lose_and_the_lead_stays() -> None:
    """R-09: equal team totals: all four lose; the lead attacker is unchanged."""
    state = battle(
        "orc,elf,undead,dwarf",
        hands={0: ["Troll#1"], 1: ["Wizard#1"], 2: ["Cultist#1"], 3: ["Runesmith#1"]},
    )
    state = moves(state, *(play_key(c) for c in ("Troll#1", "Wizard#1", "Cultist#1")))
    state = moves(state, play_key("Runesmith#1"))
    assert last_fight(state) == "Fight: 8 to 8 (team totals); everyone loses"
    assert state.battle.attacker == 0 and state.players[3].cemetery_value == 1


def test_four_player_attacking_team_win_keeps_the_lead() -> None:
    """§5.3 B5: when the attacking team wins, the lead attacker is unchanged."""
    state = battle(
        "orc,elf,undead,dwarf",
        attacker=1,
        hands={0: ["Goblin#1"], 1: ["Wizard#1"], 2: ["Cultist#1"], 3: ["Miner#1"]},
    )
    state = moves(state, play_key("Wizard#1"), play_key("Cultist#1"), play_key("Miner#1"))
    state = moves(state, play_key("Goblin#1"))
    assert last_fight(state) == "Fight: 2 to 9 (team totals); Elf and Dwarf win"
    assert state.battle.attacker == 1


def test_an_eliminated_player_is_no_longer_an_opponent() -> None:
    """§7 3p: after an elimination the Hammer's only opponent is chosen automatically."""
    state = battle(
        "orc,dwarf,elf",
        attacker=1,
        hands={1: ["Hammer#1"], 2: ["Scout#1"]},
        eliminated=(0,),
    )
    assert state.battle.play_order == (1, 2)
    state = moves(state, play_key("Hammer#1"))
    assert decision(state) == ("play", 2)
    assert state.battle.designations[0][0] == 2


def test_reinforcement_only_with_an_empty_hand() -> None:
    """§5.3 B7: a player with cards keeps them; an empty hand draws 5 (no hand limit)."""
    state = build("orc,elf", hands={1: ["Scout#1"]})
    state = reinforcement(state)
    assert [len(p.hand) for p in state.players] == [5, 1]


def test_reinforcement_goes_clockwise_from_the_attacker() -> None:
    """R-12: the attacker of the battle just fought reinforces first."""
    state = reinforcement(build("orc,elf"), attacker=1)
    lines = [line for line in state.log if "reinforces" in line]
    assert lines == ["Elf reinforces and draws 5 cards", "Orc reinforces and draws 5 cards"]


def test_skeleton_may_return_to_the_deck_bottom() -> None:
    """§3.4 UND-04: after drawing, each Skeleton may go from the cemetery to the deck bottom."""
    state = build(
        "undead,orc", cemeteries={0: ["Skeleton#1", "Skeleton#2"]}, hands={1: ["Troll#1"]}
    )
    state = reinforcement(state)
    assert decision(state) == ("yes_no", 0)
    state = moves(state, "yes")
    assert decision(state) == ("yes_no", 0)
    state = moves(state, "no")
    assert area(state, 0, "deck")[-1] == "Skeleton#1"
    assert area(state, 0, "cemetery") == ["Skeleton#2"] and state.players[0].cemetery_value == 2


def test_safeguard_after_battle_200() -> None:
    """R-14: battle 200 ending without a result ends the game, scored as usual."""
    state = build("orc,elf", cemeteries={0: ["Troll#1"], 1: ["Scout#1"]}, hands={0: ["Goblin#1"]})
    state = after_fight(state, attacker=0, winners=(0,), values=(1, 0), number=200)
    result = GAME.result(state)
    assert result is not None and state.end_reason == "safeguard"
    assert result.winners == (1,) and result.summary.endswith("(safeguard ending)")


def test_result_is_stored_once_the_game_ends() -> None:
    """§7: the result sits in the state (scores are cemetery values, ranks lower-is-better)."""
    orc_30 = ["Troll#1", "Ogre#1", "Orc Warlord#1", "Battering Ram#1", "Kobold#1", "Hobgoblin#1"]
    state = build("orc,elf", cemeteries={0: orc_30})
    state = after_fight(state, attacker=0, winners=(1,), values=(0, 1))
    assert state.result is not None and GAME.result(state) is state.result
    assert state.result.scores == (30, 0) and state.result.ranks == (2, 1)
    assert GAME.scores(state, 0) == (30, 0)


def test_vampire_random_discard_is_reproducible() -> None:
    """R-37: the pick is a PRNG index into the hand in canonical order."""
    state = battle("undead,elf", hands={0: ["Vampire#1"], 1: ["Scout#1", "Archer#1", "Wizard#1"]})
    expected = ["Scout#1", "Archer#1", "Wizard#1"][Rng(state.rng).below(3)]
    state = moves(state, play_key("Vampire#1"))
    assert area(state, 1, "discard") == [expected]

"""The rulebook's play examples and rulings as engine rules (spec §8.1 … §8.6).

The §9 worked examples are in ``test_examples.py``.
"""

from __future__ import annotations

from tests.games.fate_of_akalon.fixtures import (
    area,
    battle,
    build,
    decision,
    last_fight,
    moves,
    options,
    play_key,
    reinforcement,
    skirmish,
    values,
)
from tribes.games.fate_of_akalon import GAME
from tribes.games.fate_of_akalon.state import Side

# -- §8.1 Goblin/Hobgoblin, then Tactician ------------------------------------------------


def test_8_1_cards_played_after_tactician_are_textless() -> None:
    """§8.1.3: an opposing card played after the Tactician resolves no on-play text."""
    state = battle(
        "dwarf,elf,orc",
        hands={0: ["Tactician#1"], 1: ["Archer#1", "Scout#1"], 2: ["Goblin#1", "Hobgoblin#1"]},
    )
    state = moves(state, play_key("Tactician#1"), play_key("Archer#1"))
    assert decision(state) == ("play", 2)  # no EXTRA_PLAY for the Archer
    assert state.battle.battlefield[-1].ignored_at_play
    state = moves(state, play_key("Goblin#1"))
    assert state.battle.number == 2  # nor for the Goblin: the battle is over
    assert area(state, 2, "hand") == ["Hobgoblin#1"]


def test_8_1_an_ignored_orc_raider_does_not_fire() -> None:
    """§8.1.4: a covered Orc Raider gets no Fight-step play."""
    state = battle(
        "orc,dwarf", hands={0: ["Orc Raider#1", "Troll#1"], 1: ["Tactician#1", "Miner#1"]}
    )
    state = moves(state, play_key("Orc Raider#1"), play_key("Tactician#1"))
    assert state.battle.number == 2 and area(state, 0, "hand") == ["Troll#1"]


def test_8_1_ignored_hobgoblin_stays_on_the_battlefield() -> None:
    """§8.1.2: text-ignored cards keep their printed value and stay (EX-04, 3 players)."""
    state = battle(
        "orc,dwarf,elf",
        hands={0: ["Goblin#1", "Hobgoblin#1"], 1: ["Tactician#1"], 2: ["Scout#1", "Sylvan#1"]},
    )
    state = moves(state, play_key("Goblin#1"), play_key("Hobgoblin#1"), play_key("Tactician#1"))
    assert values(state) == {"Goblin#1": 1, "Hobgoblin#1": 2, "Tactician#1": 2}
    assert state.battle.plays == (2, 1, 0)


# -- §8.2 Ghoul, then Master Summoner ------------------------------------------------------


def test_8_2_the_ghoul_stops_an_archers_extra_play() -> None:
    """§8.2.5: the Ghoul's limit stops the Archer's extra play."""
    state = battle("undead,elf", hands={0: ["Ghoul#1"], 1: ["Archer#1", "Wizard#1"]})
    state = moves(state, play_key("Ghoul#1"), play_key("Archer#1"))
    assert state.battle.number == 2 and area(state, 1, "hand") == ["Wizard#1"]


def test_8_2_the_ghoul_stops_a_crossbowmans_extra_play() -> None:
    """§8.2.5: the Ghoul's limit stops the Crossbowman's extra play."""
    state = battle("undead,dwarf", hands={0: ["Ghoul#1"], 1: ["Crossbowman#1", "Miner#1"]})
    state = moves(state, play_key("Ghoul#1"), play_key("Crossbowman#1"))
    assert state.battle.number == 2 and area(state, 1, "hand") == ["Miner#1"]


# -- §8.3 Vampire ---------------------------------------------------------------------------


def test_8_3_vampire_against_an_empty_hand_does_nothing() -> None:
    """§8.3.2: a Vampire aimed at an empty hand discards nothing."""
    state = battle("undead,elf", hands={0: ["Vampire#1"], 1: []})
    state = moves(state, play_key("Vampire#1"))
    assert state.players[1].discard == ()
    assert "Elf has no card to discard" in state.log


# -- §8.4 Hammer, then Kobold ----------------------------------------------------------------


def test_8_4_hammer_then_kobold_both_name_the_orc() -> None:
    """§8.4: the Hammer designates at play, the Kobold later; in 2p both name the Orc."""
    state = battle("dwarf,orc", hands={0: ["Hammer#1", "Miner#1"], 1: ["Kobold#1", "Troll#1"]})
    state = moves(state, play_key("Hammer#1"))
    assert state.battle.designations[0][0] == 1  # automatic: the only opponent
    state = moves(state, play_key("Kobold#1"))
    assert decision(state) == ("yes_no", 1)
    first_seq = state.battle.designations[0][1]
    state = moves(state, "yes")
    assert state.battle.attacker == 1
    assert "Kobold designates Orc as the attacker next battle" in state.log
    assert state.seq > first_seq


# -- §8.5 numeric examples ----------------------------------------------------------------------


def test_8_5_skirmish_hunter_beats_goblin() -> None:
    """§8.5: Hunter (printed 3) beats Goblin (printed 1) in the skirmish."""
    state = skirmish("elf,orc", {0: ["Hunter#1"], 1: ["Goblin#1"]})
    assert area(state, 0, "discard") == ["Hunter#1"] and area(state, 1, "cemetery") == ["Goblin#1"]


def test_8_5_three_player_dwarf_lord_example() -> None:
    """§8.5: Dwarf Lord 8 (defending) beats Orc Warrior 5+1 and Hunter 3, and attacks next."""
    state = battle(
        "orc,dwarf,elf",
        hands={0: ["Orc Warrior#1", "Goblin#1"], 1: ["Dwarf Lord#1", "Miner#1"], 2: ["Hunter#1"]},
    )
    state = moves(state, play_key("Orc Warrior#1"), play_key("Dwarf Lord#1"))
    assert values(state) == {"Orc Warrior#1": 6, "Dwarf Lord#1": 8}
    state = moves(state, play_key("Hunter#1"), "no")
    assert last_fight(state) == "Fight: Orc 6, Dwarf 8, Elf 3; Dwarf wins"
    assert state.battle.attacker == 1


# -- §8.6 further rulings --------------------------------------------------------------------------


def test_8_6_tie_battles_fire_the_attackers_defeated_text() -> None:
    """§8.6 tie: everyone lost, the attacker's Kobold fires; a Ghost is still saved."""
    state = battle("undead,orc", hands={0: ["Ghost#1", "Cultist#1"], 1: ["Kobold#1", "Troll#1"]})
    state = moves(state, play_key("Ghost#1"))
    state = moves(state, play_key("Kobold#1"))
    assert last_fight(state) == "Fight: Undead 3, Orc 1; Undead wins"
    state = battle("orc,undead", hands={0: ["Kobold#1", "Troll#1"], 1: ["Cultist#1", "Ghost#1"]})
    state = moves(state, play_key("Kobold#1"), play_key("Cultist#1"))
    assert decision(state) == ("yes_no", 0)  # the attacker lost the tie: Defeated fires
    state = moves(state, "no")
    assert area(state, 0, "cemetery") == ["Kobold#1"] and area(state, 1, "cemetery") == [
        "Cultist#1"
    ]
    assert state.battle.attacker == 0
    state = battle("undead,orc", hands={0: ["Ghost#1"], 1: ["Orc Raider#1"]})
    state = moves(state, play_key("Ghost#1"), play_key("Orc Raider#1"))
    assert area(state, 0, "discard") == ["Ghost#1"]  # the replacement applies on a tie
    assert area(state, 1, "cemetery") == ["Orc Raider#1"]


def test_8_6_losing_with_a_zero_value_card() -> None:
    """§8.6: a 0-value card still goes to the cemetery and adds 0."""
    state = battle("elf,orc", hands={0: ["Scout#1"], 1: ["Goblin#1"]})
    state = moves(state, play_key("Scout#1"), play_key("Goblin#1"))
    assert area(state, 0, "cemetery") == ["Scout#1"] and state.players[0].cemetery_value == 0


def test_8_6_illusionist_on_ghoul_lifts_the_limit() -> None:
    """§8.6: while the Ghoul is covered, later extra plays are no longer blocked."""
    hands = {0: ["Ghoul#1"], 1: ["Illusionist#1"], 2: ["Crossbowman#1", "Miner#1"]}
    blocked = moves(battle("undead,elf,dwarf", hands=hands), play_key("Ghoul#1"))
    blocked = moves(blocked, play_key("Illusionist#1"), "decline", play_key("Crossbowman#1"))
    assert blocked.battle.number == 2  # no extra play: the Ghoul's limit holds
    lifted = moves(battle("undead,elf,dwarf", hands=hands), play_key("Ghoul#1"))
    lifted = moves(lifted, play_key("Illusionist#1"))
    assert decision(lifted) == ("choose_card", 1)
    lifted = moves(lifted, "choose:undead-ghoul-1", play_key("Crossbowman#1"))
    assert decision(lifted) == ("extra_play", 2)
    assert options(lifted) == ["decline", play_key("Miner#1")]


def test_8_6_trickster_keeps_the_play_count() -> None:
    """§8.6: the returned card is not counted, not discarded, and plays stay as they were."""
    state = battle(
        "orc,elf", hands={0: ["Orc Warrior#1"], 1: ["Archer#1", "Trickster#1", "Scout#1"]}
    )
    state = moves(state, play_key("Orc Warrior#1"), play_key("Archer#1"), play_key("Trickster#1"))
    assert state.battle.plays == (1, 2)
    state = moves(state, "choose:elf-archer-1")
    assert "Archer#1" in area(state, 1, "hand")
    assert "Archer#1" not in area(state, 1, "discard") + area(state, 1, "cemetery")


def test_8_6_victorious_text_is_suppressed_under_tactician() -> None:
    """§8.6: a covered Orc Warlord that wins does not draw."""
    state = battle("orc,dwarf", hands={0: ["Orc Warlord#1", "Goblin#1"], 1: ["Tactician#1"]})
    state = moves(state, play_key("Orc Warlord#1"), play_key("Tactician#1"))
    assert last_fight(state) == "Fight: Orc 8, Dwarf 2; Orc wins"
    assert area(state, 0, "hand") == ["Goblin#1"]
    uncovered = battle("orc,dwarf", hands={0: ["Orc Warlord#1", "Goblin#1"], 1: ["Miner#1"]})
    uncovered = moves(uncovered, play_key("Orc Warlord#1"), play_key("Miner#1"))
    assert len(uncovered.players[0].hand) == 2  # the Victorious draw happens normally


def test_8_6_defeated_text_is_suppressed_under_tactician() -> None:
    """§8.6: a covered Kobold cannot designate."""
    state = battle("orc,dwarf", hands={0: ["Kobold#1", "Goblin#1"], 1: ["Tactician#1"]})
    state = moves(state, play_key("Kobold#1"), play_key("Tactician#1"))
    assert state.battle.number == 2 and state.battle.attacker == 1  # no YES_NO was asked


def test_8_6_ranger_takes_the_current_discard_top() -> None:
    """§8.6: the Ranger uses the discard as it is; order matters."""
    state = battle(
        "elf,orc",
        hands={0: ["Ranger#1"], 1: ["Goblin#1"]},
        discards={0: ["Hunter#1", "Archer#1"]},
    )
    state = moves(state, play_key("Ranger#1"))
    assert decision(state) == ("yes_no", 0)
    state = moves(state, "yes")
    assert area(state, 0, "hand") == ["Archer#1"] and area(state, 0, "discard") == ["Hunter#1"]


def test_8_6_elf_knight_puts_a_card_on_top_of_the_deck() -> None:
    """§8.6: the Elf Knight draws, then puts a chosen hand card face down on the deck."""
    state = battle(
        "elf,orc", hands={0: ["Elf Knight#1", "Scout#1"], 1: ["Goblin#1"]}, decks={0: ["Wizard#1"]}
    )
    state = moves(state, play_key("Elf Knight#1"))
    assert decision(state) == ("choose_card", 0)
    assert options(state) == ["choose:elf-scout-1", "choose:elf-wizard-1"]
    chosen = GAME.legal_moves(state, 0)[0]
    assert GAME.public_move(state, 0, chosen) is None  # face down: hidden from others
    state = moves(state, "choose:elf-scout-1")
    assert area(state, 0, "deck")[0] == "Scout#1"
    assert "Elf puts a card from their hand on top of their deck" in state.log
    assert state.players[0].private_log[-1] == "Elf Knight: you put Scout on top of your deck"


def test_8_6_sylvan_in_the_skirmish_cemetery_adds_no_initial_card() -> None:
    """§8.6 / R-06: the initial 5-card draw is not a reinforcement."""
    state = skirmish("elf,orc", {0: ["Sylvan#1"], 1: ["Troll#1"]})
    assert area(state, 0, "cemetery") == ["Sylvan#1"]
    state = moves(state, "attacker:0")
    assert len(state.players[0].hand) == 5


def test_8_6_designating_an_opponent_in_four_players() -> None:
    """§8.6: a Hammer-designated opponent becomes the lead attacker; their team attacks."""
    state = battle(
        "dwarf,orc,elf,undead",
        hands={0: ["Hammer#1", "Miner#1"], 1: ["Goblin#1"], 2: ["Scout#1"], 3: ["Cultist#1"]},
    )
    state = moves(state, play_key("Hammer#1"))
    assert decision(state) == ("choose_opponent", 0)
    assert options(state) == ["opponent:1", "opponent:3"]
    state = moves(state, "opponent:3", play_key("Goblin#1"), play_key("Scout#1"))
    state = moves(state, play_key("Cultist#1"))
    assert state.battle.attacker == 3 and state.battle.play_order == (3, 0, 1, 2)
    assert state.battle.sides == (Side.DEFENDING, Side.ATTACKING, Side.DEFENDING, Side.ATTACKING)


def test_8_6_attacker_with_an_empty_hand_plays_nothing() -> None:
    """§8.6: an Undead attacker with no card takes no turn and has value 0."""
    state = battle("undead,orc", hands={0: [], 1: ["Goblin#1", "Troll#1"]})
    assert decision(state) == ("play", 1)
    state = moves(state, play_key("Troll#1"))
    assert last_fight(state) == "Fight: Undead 0, Orc 4; Orc wins"
    assert len(state.players[0].hand) == 5  # it reinforces after the battle


def test_8_6_skeleton_corner_case_keeps_the_undead_in_the_game() -> None:
    """§8.6: with nothing to draw, a Skeleton put on the deck avoids the safeguard."""
    out = [
        "Grave Digger#1", "Grave Digger#2", "Cultist#1", "Wraith#1", "Wraith#2", "Skeleton#2",
        "Skeleton#3", "Skeleton#4", "Banshee#1", "Banshee#2", "Ghoul#1", "Ghoul#2", "Ghost#1",
        "Ghost#2", "Necromancer#1", "Necromancer#2", "Zombie#1", "Zombie#2", "Zombie#3",
        "Zombie#4", "Vampire#1", "Vampire#2", "Mummy#1", "Bone Golem#1", "Bone Golem#2",
        "Lich#1", "Death Knight#1",
    ]  # fmt: skip
    base = build("undead,orc", cemeteries={0: ["Skeleton#1"]}, out_of_play={0: out})
    assert base.players[0].deck == ()
    state = reinforcement(base)
    assert decision(state) == ("yes_no", 0)
    kept = moves(state, "yes")
    assert area(kept, 0, "deck") == ["Skeleton#1"] and kept.players[0].cemetery_value == 0
    assert kept.battle.number == 2 and decision(kept) == ("play", 1)
    ended = moves(state, "no")
    result = GAME.result(ended)
    assert result is not None and ended.end_reason == "safeguard"
    assert result.scores == (2, 0) and result.winners == (1,)  # the lower value wins


def test_8_6_master_summoner_leftover_waits_in_the_reveal_area() -> None:
    """§8.6: while the revealed card is played, the other stays revealed, then is discarded."""
    state = battle(
        "elf,orc",
        hands={0: ["Master Summoner#1", "Sylvan#1"], 1: ["Goblin#1"]},
        decks={0: ["Archer#1", "Wizard#1"]},
    )
    state = moves(state, play_key("Master Summoner#1"), play_key("Archer#1"))
    assert decision(state) == ("extra_play", 0)
    assert area(state, 0, "reveal") == ["Wizard#1"] and "Wizard#1" not in area(state, 0, "discard")
    state = moves(state, "decline")
    assert area(state, 0, "reveal") == [] and area(state, 0, "discard")[-1] == "Wizard#1"


def test_8_6_a_covered_ironguard_gets_no_replacement() -> None:
    """§8.6 (EX-10 for Ironguard): a text-ignored Ironguard that loses goes to the cemetery."""
    hands = {0: ["Troll#1"], 1: ["Ironguard#1"], 2: ["Illusionist#1"]}
    state = battle("orc,dwarf,elf", hands=hands)
    state = moves(state, play_key("Troll#1"), play_key("Ironguard#1"), play_key("Illusionist#1"))
    assert decision(state) == ("choose_card", 2)
    covered = moves(state, "choose:dwarf-ironguard-1")
    assert last_fight(covered) == "Fight: Orc 7, Dwarf 5, Elf 2; Orc wins"
    assert area(covered, 1, "cemetery") == ["Ironguard#1"]
    saved = moves(state, "decline")
    assert area(saved, 1, "discard") == ["Ironguard#1"] and saved.players[1].cemetery == ()

"""Each faction's card texts as played (spec §3.4 effects, built from the §5.6.2 primitives).

These test the RECONSTRUCTED card texts; each names the card it depends on, so a
corrected published list shows at once which tests to revisit (§10.1 "Drop-in").
"""

from __future__ import annotations

from tests.games.fate_of_akalon.fixtures import (
    area,
    battle,
    choose_key,
    decision,
    fight,
    last_fight,
    moves,
    options,
    play_key,
    values,
)

# -- Orc (offense) ---------------------------------------------------------------------------------


def test_orc_berserker_counts_the_other_orc_cards() -> None:
    """ORC-08: attacking, +1 per other own card (a formula re-evaluated continuously)."""
    state = battle("orc,elf", hands={0: ["Orc Raider#1", "Orc Berserker#1"], 1: ["Scout#1"]})
    state = moves(state, play_key("Orc Raider#1"), play_key("Scout#1"))
    state = moves(state, play_key("Orc Berserker#1"))
    assert last_fight(state) == "Fight: Orc 8, Elf 0; Orc wins"  # Raider 3 + Berserker 4+1


def test_orc_shaman_boosts_only_its_owners_cards() -> None:
    """ORC-05 / §5.6.2 ``own_other``: a teammate's cards are not boosted (4p)."""
    state = battle(
        "orc,elf,undead,dwarf",
        hands={
            0: ["Orc Raider#1", "Orc Shaman#1"],
            1: ["Scout#1"],
            2: ["Zombie#1"],
            3: ["Miner#1"],
        },
    )
    state = moves(state, play_key("Orc Raider#1"), play_key("Scout#1"), play_key("Zombie#1"))
    state = moves(state, play_key("Miner#1"))
    assert decision(state) == ("extra_play", 0)
    before = values(state)
    state = moves(state, play_key("Orc Shaman#1"))
    assert before["Orc Raider#1"] == 3
    assert last_fight(state) == "Fight: 10 to 2 (team totals); Orc and Undead win"  # 4+2+4


def test_warg_rider_attacking_and_defending() -> None:
    """ORC-07: +2 attacking, -1 defending."""
    state = battle("orc,dwarf,elf", hands={0: ["Warg Rider#1"], 1: ["Miner#1"], 2: ["Scout#1"]})
    assert values(moves(state, play_key("Warg Rider#1"))) == {"Warg Rider#1": 6}
    state = battle("dwarf,orc", hands={0: ["Miner#1"], 1: ["Warg Rider#1"]})
    state = moves(state, play_key("Miner#1"), play_key("Warg Rider#1"))
    assert last_fight(state) == "Fight: Dwarf 2, Orc 3; Orc wins"


def test_goblin_sapper_only_when_attacking() -> None:
    """ORC-01: the Sapper's -2 needs its owner to be attacking."""
    state = battle("elf,orc", hands={0: ["Hunter#1"], 1: ["Goblin Sapper#1"]})
    state = moves(state, play_key("Hunter#1"), "no", play_key("Goblin Sapper#1"))
    assert last_fight(state) == "Fight: Elf 3, Orc 0; Elf wins"  # no CHOOSE_CARD was asked


# -- Dwarf (defense) -------------------------------------------------------------------------------


def test_crossbowman_grants_an_extra_play_only_when_defending() -> None:
    """DWF-07: attacking, the Crossbowman's on-play condition fails."""
    state = battle("dwarf,orc", hands={0: ["Crossbowman#1", "Miner#1"], 1: ["Troll#1"]})
    assert decision(moves(state, play_key("Crossbowman#1"))) == ("play", 1)


def test_dwarf_recruit_and_runesmith_when_defending() -> None:
    """DWF-01/DWF-02: Recruit +1 per other own card; Runesmith +1 to the others."""
    state = battle(
        "orc,dwarf",
        hands={0: ["Troll#1"], 1: ["Crossbowman#1", "Crossbowman#2", "Dwarf Recruit#1"]},
    )
    state = moves(state, play_key("Troll#1"), play_key("Crossbowman#1"))
    state = moves(state, play_key("Crossbowman#2"), play_key("Dwarf Recruit#1"))
    assert last_fight(state) == "Fight: Orc 7, Dwarf 9; Dwarf wins"  # 3 + 3 + (1+2)
    state = battle("orc,dwarf", hands={0: ["Troll#1"], 1: ["Crossbowman#1", "Runesmith#1"]})
    state = moves(state, play_key("Troll#1"), play_key("Crossbowman#1"), play_key("Runesmith#1"))
    assert last_fight(state) == "Fight: Orc 7, Dwarf 5; Orc wins"  # (3+1) + 1


def test_mountain_guard_and_dwarf_lord_when_attacking() -> None:
    """DWF-12/DWF-14: the Mountain Guard -1 and the Dwarf Lord -2 while attacking."""
    state = battle("dwarf,orc", hands={0: ["Mountain Guard#1"], 1: ["Kobold#1"]})
    assert values(moves(state, play_key("Mountain Guard#1"))) == {"Mountain Guard#1": 5}
    state = battle("dwarf,orc", hands={0: ["Dwarf Lord#1"], 1: ["Kobold#1"]})
    assert values(moves(state, play_key("Dwarf Lord#1"))) == {"Dwarf Lord#1": 6}


def test_ballista_targets_only_mounted_or_beast_cards() -> None:
    """DWF-11: the Ballista's filter; a text-ignored target keeps its attribute (R-36)."""
    state = battle("orc,dwarf,elf", hands={0: ["Warg Rider#1"], 1: ["Miner#1"], 2: ["Scout#1"]})
    placed = [(0, "Warg Rider#1"), (1, "Tactician#1"), (1, "Ballista#1"), (2, "Scout#1")]
    state = fight(state, placed)
    assert values(state)["Warg Rider#1"] == 4  # covered by the Tactician: no +2
    assert decision(state) == ("choose_card", 1)
    assert options(state) == [choose_key("Warg Rider#1"), "decline"]
    state = moves(state, choose_key("Warg Rider#1"))
    assert last_fight(state) == "Fight: Orc 1, Dwarf 7, Elf 0; Dwarf wins"
    state = battle("orc,dwarf", hands={0: ["Goblin#1"], 1: ["Crossbowman#1", "Ballista#1"]})
    state = moves(state, play_key("Goblin#1"), play_key("Crossbowman#1"), play_key("Ballista#1"))
    assert last_fight(state) == "Fight: Orc 2, Dwarf 8; Dwarf wins"  # no candidate, no choice


def test_gatekeeper_may_designate_an_opponent() -> None:
    """DWF-13: victorious, it may name the next attacker."""
    state = battle("dwarf,orc", hands={0: ["Gatekeeper#1"], 1: ["Kobold#1"]})
    state = moves(state, play_key("Gatekeeper#1"), play_key("Kobold#1"))
    assert decision(state) == ("choose_opponent", 0)  # the attacker's trigger comes first
    assert options(state) == ["decline", "opponent:1"]
    assert moves(state, "opponent:1", "no").battle.attacker == 1
    assert moves(state, "decline", "no").battle.attacker == 0


# -- Elf (cards, hand and deck) --------------------------------------------------------------------


def test_wizard_draws_only_when_attacking() -> None:
    """ELF-13: attacking, the Wizard draws a card."""
    state = battle("elf,orc", hands={0: ["Wizard#1"], 1: ["Troll#1"]}, decks={0: ["Scout#1"]})
    state = moves(state, play_key("Wizard#1"))
    assert area(state, 0, "hand") == ["Scout#1"]


def test_blademaster_counts_the_hand_up_to_three() -> None:
    """ELF-12: +1 per hand card, at most +3, fixed when it resolves."""
    hand = ["Blademaster#1", "Scout#1", "Scout#2", "Sylvan#1", "Sylvan#2", "Seer#1"]
    state = battle("elf,orc", hands={0: hand, 1: ["Troll#1"]})
    state = moves(state, play_key("Blademaster#1"), play_key("Troll#1"))
    assert "Blademaster gives Blademaster +3" in state.log
    assert last_fight(state) == "Fight: Elf 9, Orc 4; Elf wins"


def test_hunter_may_bottom_the_top_card() -> None:
    """ELF-07: look at the deck top privately, then optionally put it on the bottom."""
    state = battle("elf,orc", hands={0: ["Hunter#1"], 1: ["Troll#1"]}, decks={0: ["Wizard#1"]})
    state = moves(state, play_key("Hunter#1"))
    assert state.players[0].private_log == ("Hunter: the top card of your deck is Wizard",)
    state = moves(state, "yes")
    assert area(state, 0, "deck")[-1] == "Wizard#1"
    assert "Elf puts the top card of their deck on the bottom of their deck" in state.log


def test_druid_draws_then_discards_a_chosen_card() -> None:
    """ELF-10: draw, then discard one hand card of the owner's choice (made public)."""
    state = battle(
        "elf,orc", hands={0: ["Druid#1", "Scout#1"], 1: ["Troll#1"]}, decks={0: ["Wizard#1"]}
    )
    state = moves(state, play_key("Druid#1"))
    assert options(state) == [choose_key("Scout#1"), choose_key("Wizard#1")]
    state = moves(state, choose_key("Wizard#1"))
    assert area(state, 0, "discard") == ["Wizard#1"] and area(state, 0, "hand") == ["Scout#1"]


# -- Undead (cemetery) -----------------------------------------------------------------------------


def test_necromancer_returns_a_cemetery_card_to_hand() -> None:
    """UND-08: the card leaves the cemetery, whose value drops."""
    state = battle(
        "undead,orc",
        hands={0: ["Necromancer#1"], 1: ["Troll#1"]},
        cemeteries={0: ["Zombie#1", "Lich#1"]},
    )
    state = moves(state, play_key("Necromancer#1"))
    assert options(state) == [choose_key("Lich#1"), choose_key("Zombie#1"), "decline"]
    state = moves(state, choose_key("Lich#1"))
    assert area(state, 0, "hand") == ["Lich#1"] and state.players[0].cemetery_value == 4


def test_lich_removes_a_cemetery_card_from_the_game() -> None:
    """UND-13: the chosen cemetery card goes out of play and stops counting."""
    state = battle(
        "undead,orc", hands={0: ["Lich#1"], 1: ["Troll#1"]}, cemeteries={0: ["Bone Golem#1"]}
    )
    state = moves(state, play_key("Lich#1"), choose_key("Bone Golem#1"))
    assert (
        area(state, 0, "out_of_play") == ["Bone Golem#1"] and state.players[0].cemetery_value == 0
    )


def test_grave_digger_puts_a_cemetery_card_under_the_deck() -> None:
    """UND-01: the chosen cemetery card goes to the bottom of the deck, named publicly."""
    state = battle(
        "undead,orc", hands={0: ["Grave Digger#1"], 1: ["Troll#1"]}, cemeteries={0: ["Ghoul#1"]}
    )
    state = moves(state, play_key("Grave Digger#1"), choose_key("Ghoul#1"))
    assert area(state, 0, "deck")[-1] == "Ghoul#1"
    assert "Undead puts Ghoul from their cemetery on the bottom of their deck" in state.log


def test_zombie_recovers_a_low_card_when_defeated() -> None:
    """UND-09: defeated, it may move a cemetery card of printed value 2 or less to the discard."""
    state = battle(
        "undead,orc",
        hands={0: ["Zombie#1"], 1: ["Troll#1"]},
        cemeteries={0: ["Skeleton#1", "Vampire#1"]},
    )
    state = moves(state, play_key("Zombie#1"), play_key("Troll#1"))
    assert last_fight(state) == "Fight: Undead 4, Orc 4; everyone loses"
    assert options(state) == [choose_key("Skeleton#1"), "decline"]
    state = moves(state, choose_key("Skeleton#1"))
    assert area(state, 0, "discard") == ["Skeleton#1"]
    assert state.players[0].cemetery_value == 5 + 4  # Vampire, then the Zombie itself


def test_mummy_recovers_any_card_when_victorious() -> None:
    """UND-11: victorious, it may move any cemetery card onto the discard."""
    state = battle(
        "undead,orc", hands={0: ["Mummy#1"], 1: ["Kobold#1"]}, cemeteries={0: ["Death Knight#1"]}
    )
    state = moves(state, play_key("Mummy#1"), play_key("Kobold#1"))
    assert decision(state) == ("choose_card", 0)
    state = moves(state, choose_key("Death Knight#1"), "no")
    assert area(state, 0, "discard") == ["Death Knight#1", "Mummy#1"]
    assert state.players[0].cemetery_value == 0


def test_ghoul_limits_each_opponent_in_three_players() -> None:
    """UND-06: each opponent may play one card in total; a limit never blocks a base play."""
    state = battle(
        "undead,elf,dwarf",
        hands={0: ["Ghoul#1"], 1: ["Archer#1", "Scout#1"], 2: ["Crossbowman#1", "Miner#1"]},
    )
    state = moves(state, play_key("Ghoul#1"), play_key("Archer#1"))
    assert decision(state) == ("play", 2)
    state = moves(state, play_key("Crossbowman#1"))
    assert last_fight(state) == "Fight: Undead 3, Elf 2, Dwarf 3; everyone loses"

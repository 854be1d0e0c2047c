"""The spec's worked examples (§9): battles and card texts, EX-01 … EX-19 and EX-26.

EX-20 … EX-25 (victory, skirmish variants, views) are in ``test_examples_endgame.py``;
the rulebook's play examples (§8) in ``test_examples_rulebook.py``.
"""

from __future__ import annotations

from tests.games.fate_of_akalon.fixtures import (
    area,
    battle,
    build,
    choose_key,
    decision,
    key,
    labels,
    last_fight,
    moves,
    options,
    place_key,
    play_key,
    reinforcement,
    skirmish,
    totals,
    values,
)
from tribes.engine import SPECTATOR
from tribes.games.fate_of_akalon import GAME
from tribes.games.fate_of_akalon.state import Side, State

ELF_TOP = ["Hunter#1", "Archer#1", "Wizard#1", "Sylvan#1", "Hunter#2", "Druid#1"]
ORC_TOP = ["Goblin#1", "Battering Ram#1", "Kobold#1", "Orc Warrior#1", "Troll#1", "Hobgoblin#1"]


def _ex01() -> State:
    return skirmish("elf,orc", {0: ELF_TOP, 1: ORC_TOP})


def test_ex01_two_player_skirmish() -> None:
    """EX-01: Hunter (3) beats Goblin (1); the loser chooses the first attacker; hands of 5."""
    state = _ex01()
    assert area(state, 0, "discard") == ["Hunter#1"]
    assert area(state, 1, "cemetery") == ["Goblin#1"]
    assert state.players[1].cemetery_value == 1
    assert decision(state) == ("choose_first_attacker", 1)
    assert options(state) == ["attacker:0", "attacker:1"]
    state = moves(state, "attacker:1")
    assert (state.battle.number, state.battle.attacker) == (1, 1)
    assert state.battle.sides == (Side.DEFENDING, Side.ATTACKING)
    assert [len(p.hand) for p in state.players] == [5, 5]
    assert [len(p.deck) for p in state.players] == [22, 22]
    assert sorted(area(state, 0, "hand")) == sorted(ELF_TOP[1:])
    orc_hand = ORC_TOP[1:]
    assert sorted(area(state, 1, "hand")) == sorted(orc_hand)
    assert decision(state) == ("play", 1)
    assert options(state) == sorted(play_key(c) for c in orc_hand)


def test_ex02_two_player_skirmish_tie() -> None:
    """EX-02: a 3-3 tie sends both cards to the discards and both flip again."""
    state = skirmish("elf,orc", {0: ["Hunter#1", "Ranger#1"], 1: ["Orc Raider#1", "Goblin#1"]})
    assert area(state, 0, "discard") == ["Hunter#1", "Ranger#1"]
    assert area(state, 1, "discard") == ["Orc Raider#1"]
    assert area(state, 1, "cemetery") == ["Goblin#1"]
    assert decision(state) == ("choose_first_attacker", 1)
    assert options(state) == ["attacker:0", "attacker:1"]
    state = moves(state, "attacker:0")
    assert [len(p.deck) for p in state.players] == [21, 21]
    assert [len(p.hand) for p in state.players] == [5, 5]
    assert state.battle.attacker == 0


def test_ex03_the_rulebooks_first_battle() -> None:
    """EX-03: Ram 6 attacking vs Archer + Wizard 9; the Elf orders its victorious cards."""
    state = moves(_ex01(), "attacker:1", play_key("Battering Ram#1"))
    assert values(state) == {"Battering Ram#1": 6}  # no -2 while attacking
    assert decision(state) == ("play", 0)
    state = moves(state, play_key("Archer#1"))
    assert decision(state) == ("extra_play", 0)
    extra = ["Wizard#1", "Sylvan#1", "Hunter#2", "Druid#1"]
    assert options(state) == ["decline", *sorted(play_key(c) for c in extra)]
    hand_before = len(state.players[0].hand)
    state = moves(state, play_key("Wizard#1"))
    assert len(state.players[0].hand) == hand_before - 1  # the Wizard draws only when attacking
    assert state.battle.values == (9, 6) and state.battle.winners == (0,)
    assert area(state, 1, "cemetery") == ["Goblin#1", "Battering Ram#1"]
    assert decision(state) == ("order_discard", 0)
    assert options(state) == sorted([place_key("Archer#1"), place_key("Wizard#1")])
    state = moves(state, place_key("Archer#1"))
    assert area(state, 0, "discard") == ["Hunter#1", "Archer#1", "Wizard#1"]
    assert [p.cemetery_value for p in state.players] == [0, 7]
    assert [len(p.hand) for p in state.players] == [3, 4]  # nobody reinforces
    assert (state.battle.number, state.battle.attacker) == (2, 0)
    assert decision(state) == ("play", 0)


def test_ex04_goblin_hobgoblin_then_tactician() -> None:
    """EX-04: Tactician removes the attack bonuses of cards already played."""
    state = battle(
        "orc,dwarf",
        hands={
            0: ["Goblin#1", "Hobgoblin#1", "Orc Warrior#1"],
            1: ["Tactician#1", "Dwarf Axeman#1"],
        },
    )
    state = moves(state, play_key("Goblin#1"))
    assert decision(state) == ("extra_play", 0)
    assert options(state) == ["decline", play_key("Hobgoblin#1")]
    state = moves(state, play_key("Hobgoblin#1"))
    assert values(state) == {"Goblin#1": 2, "Hobgoblin#1": 4}
    state = moves(state, play_key("Tactician#1"))
    assert decision(state) == ("order_discard", 0)
    assert state.battle.values == (3, 2) and state.battle.winners == (0,)
    assert options(state) == sorted([place_key("Goblin#1"), place_key("Hobgoblin#1")])
    assert state.players[1].cemetery_value == 2
    state = moves(state, place_key("Goblin#1"))
    assert state.battle.attacker == 0 and state.battle.number == 2
    assert [len(p.hand) for p in state.players] == [1, 1]


def test_ex04_goblin_values_with_tactician_in_play() -> None:
    """EX-04 step 3: once the Tactician is played the Goblin is worth 1, the Hobgoblin 2."""
    state = battle(
        "orc,dwarf,elf",
        hands={0: ["Goblin#1", "Hobgoblin#1"], 1: ["Tactician#1"], 2: ["Scout#1"]},
    )
    state = moves(state, play_key("Goblin#1"), play_key("Hobgoblin#1"), play_key("Tactician#1"))
    assert values(state) == {"Goblin#1": 1, "Hobgoblin#1": 2, "Tactician#1": 2}


def test_ex04_variant_extra_play_exists_without_a_match() -> None:
    """EX-04 variant (R-31): EXTRA_PLAY is offered even with no Hobgoblin in hand."""
    state = battle("orc,dwarf", hands={0: ["Goblin#1", "Orc Warrior#1"], 1: ["Tactician#1"]})
    state = moves(state, play_key("Goblin#1"))
    assert decision(state) == ("extra_play", 0)
    assert options(state) == ["decline"]


def test_ex05_ghoul_then_master_summoner() -> None:
    """EX-05: the Ghoul blocks the revealed play; both revealed cards are discarded."""
    state = battle(
        "undead,elf",
        hands={0: ["Ghoul#1", "Zombie#1"], 1: ["Master Summoner#1", "Archer#1"]},
        decks={1: ["Wizard#1", "Hunter#1"]},
    )
    state = moves(state, play_key("Ghoul#1"), play_key("Master Summoner#1"))
    assert state.battle.plays == (1, 1)
    assert area(state, 1, "reveal") == ["Wizard#1", "Hunter#1"]
    assert decision(state) == ("order_discard", 1)
    assert options(state) == sorted([place_key("Wizard#1"), place_key("Hunter#1")])
    state = moves(state, place_key("Hunter#1"))
    assert last_fight(state) == "Fight: Undead 3, Elf 4; Elf wins"
    assert area(state, 1, "discard") == ["Hunter#1", "Wizard#1", "Master Summoner#1"]
    assert area(state, 0, "cemetery") == ["Ghoul#1"] and state.players[0].cemetery_value == 3
    assert state.battle.attacker == 1
    assert area(state, 1, "hand") == ["Archer#1"]


def test_ex06_vampire_against_a_one_card_hand() -> None:
    """EX-06: the random discard empties the Elf hand; the Elf plays nothing and draws 5."""
    state = battle("undead,elf", hands={0: ["Vampire#1", "Zombie#1"], 1: ["Sylvan#1"]})
    assert len(state.players[1].deck) == 27
    state = moves(state, play_key("Vampire#1"))
    assert state.battle.number == 2  # the battle ran to its end without an Elf decision
    assert area(state, 1, "discard") == ["Sylvan#1"]
    assert area(state, 0, "discard") == ["Vampire#1"]
    assert state.players[1].cemetery == () and state.players[0].cemetery == ()
    assert state.battle.attacker == 0
    assert len(state.players[1].hand) == 5 and len(state.players[1].deck) == 22
    assert area(state, 0, "hand") == ["Zombie#1"]


def test_ex07_hammer_then_kobold_three_players() -> None:
    """EX-07: the Kobold's later designation beats the Hammer's (last effect wins)."""
    state = battle(
        "dwarf,orc,elf",
        hands={
            0: ["Hammer#1", "Dwarf Axeman#1"],
            1: ["Kobold#1", "Orc Warrior#1"],
            2: ["Sylvan#1", "Scout#1"],
        },
    )
    assert state.battle.play_order == (0, 1, 2)
    state = moves(state, play_key("Hammer#1"))
    assert decision(state) == ("choose_opponent", 0)
    assert options(state) == ["opponent:1", "opponent:2"]
    state = moves(state, "opponent:2", play_key("Kobold#1"), play_key("Sylvan#1"))
    assert state.battle.values == (3, 1, 1)
    assert state.battle.winners == (0,) and state.battle.losers == (1, 2)
    assert decision(state) == ("yes_no", 1)
    state = moves(state, "yes")
    assert area(state, 0, "discard") == ["Hammer#1"]
    assert area(state, 1, "cemetery") == ["Kobold#1"]
    assert area(state, 2, "cemetery") == ["Sylvan#1"]
    assert state.battle.attacker == 1
    assert [len(p.hand) for p in state.players] == [1, 1, 1]


def test_ex08_tie_and_a_replacement_whose_condition_fails() -> None:
    """EX-08: 5 = 5, both lose; the attacking Ironguard is not saved."""
    state = battle("dwarf,orc", hands={0: ["Ironguard#1"], 1: ["Orc Warrior#1"]})
    state = moves(state, play_key("Ironguard#1"), play_key("Orc Warrior#1"))
    assert state.battle.number == 2 and state.battle.attacker == 0
    assert area(state, 0, "cemetery") == ["Ironguard#1"]
    assert area(state, 1, "cemetery") == ["Orc Warrior#1"]
    assert [p.cemetery_value for p in state.players] == [5, 5]


def test_ex09_ironguard_saved_when_defending() -> None:
    """EX-09: a defending Ironguard that loses goes to its owner's discard instead."""
    state = battle("orc,dwarf", hands={0: ["Troll#1"], 1: ["Ironguard#1"]})
    state = moves(state, play_key("Troll#1"), play_key("Ironguard#1"))
    assert state.battle.number == 2
    assert area(state, 1, "discard") == ["Ironguard#1"] and state.players[1].cemetery == ()
    assert area(state, 0, "discard") == ["Troll#1"]
    assert state.battle.attacker == 0


def test_ex10_tactician_cancels_a_ghost_replacement() -> None:
    """EX-10: a text-ignored Ghost gets no replacement and goes to the cemetery."""
    state = battle("undead,dwarf", hands={0: ["Ghost#1"], 1: ["Crossbowman#1", "Tactician#1"]})
    state = moves(state, play_key("Ghost#1"), play_key("Crossbowman#1"))
    assert decision(state) == ("extra_play", 1)
    state = moves(state, play_key("Tactician#1"))
    assert state.battle.values == (3, 5)
    assert area(state, 0, "cemetery") == ["Ghost#1"] and state.players[0].cemetery_value == 3
    assert decision(state) == ("order_discard", 1)
    state = moves(state, place_key("Crossbowman#1"))
    assert state.battle.attacker == 1


def _ex11(answer: str) -> State:
    state = battle(
        "orc,elf,undead",
        hands={0: ["Kobold#1", "Goblin#1"], 1: ["Hunter#1", "Scout#1"], 2: ["Ghoul#1", "Zombie#1"]},
    )
    state = moves(state, play_key("Kobold#1"), play_key("Hunter#1"))
    assert decision(state) == ("yes_no", 1)
    state = moves(state, "no", play_key("Ghoul#1"))
    assert state.battle.values == (1, 3, 3) and state.battle.winners == ()
    assert decision(state) == ("yes_no", 0)
    return moves(state, answer)


def test_ex11_three_players_defenders_tie_for_highest() -> None:
    """EX-11: defenders tie for highest, everyone loses, left(attacker) attacks next."""
    state = _ex11("no")
    assert [p.cemetery_value for p in state.players] == [1, 3, 3]
    assert state.battle.attacker == 1


def test_ex11_variant_kobold_keeps_the_attack() -> None:
    """EX-11 variant: the Kobold's designation makes P0 the attacker again."""
    assert _ex11("yes").battle.attacker == 0


def test_ex12_four_player_team_example() -> None:
    """EX-12: 10 vs 11, the defending team wins and the lead passes to left(0)."""
    state = battle(
        "orc,elf,undead,dwarf",
        hands={
            0: ["Orc Warrior#1", "Goblin#1"],
            1: ["Hunter#1", "Scout#1"],
            2: ["Zombie#1", "Skeleton#1"],
            3: ["Dwarf Lord#1", "Miner#1"],
        },
    )
    assert state.battle.sides == (Side.ATTACKING, Side.DEFENDING, Side.ATTACKING, Side.DEFENDING)
    assert state.battle.play_order == (0, 1, 2, 3)
    state = moves(state, play_key("Orc Warrior#1"), play_key("Hunter#1"), "no")
    state = moves(state, play_key("Zombie#1"), play_key("Dwarf Lord#1"))
    assert last_fight(state) == "Fight: 10 to 11 (team totals); Elf and Dwarf win"
    assert area(state, 0, "cemetery") == ["Orc Warrior#1"]
    assert area(state, 2, "cemetery") == ["Zombie#1"]
    assert area(state, 1, "discard") == ["Hunter#1"]
    assert area(state, 3, "discard") == ["Dwarf Lord#1"]
    assert state.battle.attacker == 1
    assert state.battle.sides == (Side.DEFENDING, Side.ATTACKING, Side.DEFENDING, Side.ATTACKING)
    assert GAME.view(state, SPECTATOR).team_values == (9, 0)


def test_ex13_sylvan_at_reinforcement() -> None:
    """EX-13: two Sylvans in the cemetery make the reinforcement draw 7."""
    cemetery = ["Sylvan#1", "Sylvan#2", "Archer#1"]
    base = build("elf,orc", cemeteries={0: cemetery}, hands={1: ["Troll#1"]})
    deck = base.players[0].deck
    state = build(
        "elf,orc",
        cemeteries={0: cemetery},
        discards={0: labels(deck[12:])},
        hands={1: ["Troll#1"]},
    )
    assert len(state.players[0].deck) == 12 and len(state.players[0].discard) == 13
    state = reinforcement(state)
    assert len(state.players[0].hand) == 7 and len(state.players[0].deck) == 5
    assert area(state, 0, "cemetery") == cemetery


def test_ex14_reshuffle_in_the_middle_of_a_draw() -> None:
    """EX-14: the deck runs out after two cards; the discard is shuffled at once."""
    discard = [
        "Warg Rider#1", "Warg Rider#2", "Orc Berserker#1", "Orc Berserker#2", "Orc Warrior#1",
        "Orc Warrior#2", "Orc Warrior#3", "Battering Ram#1", "Battering Ram#2", "Orc Warlord#1",
    ]  # fmt: skip
    cemetery = [
        "Goblin Sapper#1", "Goblin#1", "Goblin#2", "Goblin#3", "Goblin#4", "Kobold#1",
        "Kobold#2", "Kobold#3", "Hobgoblin#1", "Hobgoblin#2", "Hobgoblin#3", "Orc Shaman#1",
        "Orc Shaman#2", "Orc Raider#1", "Orc Raider#2", "Orc Raider#3",
    ]  # fmt: skip
    state = build(
        "orc,elf",
        decks={0: ["Troll#1", "Ogre#1"]},
        discards={0: discard},
        cemeteries={0: cemetery},
        hands={1: ["Scout#1"]},
    )
    assert area(state, 0, "deck") == ["Troll#1", "Ogre#1"]
    assert state.players[0].cemetery_value == 26
    state = reinforcement(state)
    orc = state.players[0]
    assert (len(orc.hand), len(orc.deck), len(orc.discard)) == (5, 7, 0)
    assert {"Troll#1", "Ogre#1"} <= set(area(state, 0, "hand"))


def test_ex15_zero_floor_then_a_tie() -> None:
    """EX-15: the Sapper takes a Sylvan to 0, not -1; 0 = 0 is a tie."""
    state = battle("orc,elf", hands={0: ["Goblin Sapper#1"], 1: ["Sylvan#1"]})
    state = moves(state, play_key("Goblin Sapper#1"), play_key("Sylvan#1"))
    assert decision(state) == ("choose_card", 0)
    assert options(state) == [choose_key("Sylvan#1"), "decline"]
    state = moves(state, choose_key("Sylvan#1"))
    assert state.battle.values == (0, 0) and state.battle.winners == ()
    assert [p.cemetery_value for p in state.players] == [0, 1]
    assert area(state, 0, "cemetery") == ["Goblin Sapper#1"]
    assert state.battle.attacker == 0


def test_ex16_a_play_limit_beats_a_fight_step_permission() -> None:
    """EX-16: with the Ghoul in play the Orc Raider offers no extra play; 3 = 3."""
    hand = ["Orc Raider#1", "Orc Warrior#1", "Troll#1", "Goblin#1"]
    state = battle("orc,undead", hands={0: hand, 1: ["Ghoul#1"]})
    state = moves(state, play_key("Orc Raider#1"), play_key("Ghoul#1"))
    assert state.battle.number == 2  # no decision in the Fight
    assert [p.cemetery_value for p in state.players] == [3, 3]
    assert state.battle.attacker == 0


def test_ex16_variant_raider_offers_an_extra_play() -> None:
    """EX-16 variant: without the Ghoul the Raider's Fight-step play is offered."""
    hand = ["Orc Raider#1", "Orc Warrior#1", "Troll#1", "Goblin#1"]
    state = battle("orc,undead", hands={0: hand, 1: ["Zombie#1"]})
    state = moves(state, play_key("Orc Raider#1"), play_key("Zombie#1"))
    assert decision(state) == ("extra_play", 0)
    assert options(state) == ["decline", *sorted(play_key(c) for c in hand[1:])]


def test_ex17_master_summoner_plays_a_revealed_archer() -> None:
    """EX-17: the played Archer fully resolves before the leftover is discarded."""
    state = battle(
        "elf,orc",
        hands={0: ["Master Summoner#1", "Hunter#1", "Sylvan#1"], 1: ["Goblin#1"]},
        decks={0: ["Archer#1", "Wizard#1", "Druid#1"]},
    )
    state = moves(state, play_key("Master Summoner#1"))
    assert decision(state) == ("play_revealed", 0)
    assert options(state) == ["decline", play_key("Archer#1"), play_key("Wizard#1")]
    orc_view = GAME.view(state, 1)
    assert orc_view.players[0].reveal == (key("Archer#1"), key("Wizard#1"))
    state = moves(state, play_key("Archer#1"))
    assert decision(state) == ("extra_play", 0)
    assert options(state) == ["decline", play_key("Hunter#1"), play_key("Sylvan#1")]
    state = moves(state, play_key("Hunter#1"))
    assert state.players[0].private_log[-1] == "Hunter: the top card of your deck is Druid"
    assert decision(state) == ("yes_no", 0)
    state = moves(state, "no")
    assert values(state) == {"Master Summoner#1": 4, "Archer#1": 2, "Hunter#1": 3}
    assert totals(state)[0] == 9 and state.battle.plays[0] == 3
    assert area(state, 0, "discard")[-1] == "Wizard#1"
    assert area(state, 0, "reveal") == []
    assert "Druid" not in repr(GAME.view(state, 1)) and key("Druid#1") not in repr(orc_view)


def test_ex18_trickster_rescues_a_card() -> None:
    """EX-18: the Trickster returns the Archer to hand; only the Trickster dies."""
    state = battle(
        "orc,elf", hands={0: ["Orc Warrior#1"], 1: ["Archer#1", "Trickster#1", "Scout#1"]}
    )
    state = moves(state, play_key("Orc Warrior#1"), play_key("Archer#1"), play_key("Trickster#1"))
    assert decision(state) == ("choose_card", 1)
    assert options(state) == [choose_key("Archer#1"), "decline"]
    state = moves(state, choose_key("Archer#1"))
    assert last_fight(state) == "Fight: Orc 6, Elf 2; Orc wins"
    assert state.players[1].cemetery_value == 2
    assert area(state, 1, "cemetery") == ["Trickster#1"]
    assert sorted(area(state, 1, "hand")) == ["Archer#1", "Scout#1"]


def test_ex19_death_knight_goes_out_of_play() -> None:
    """EX-19: a defeated Death Knight leaves the game; the cemetery value is unchanged."""
    state = battle(
        "undead,dwarf", hands={0: ["Death Knight#1"], 1: ["Crossbowman#1", "Dwarf Lord#1"]}
    )
    state = moves(state, play_key("Death Knight#1"), play_key("Crossbowman#1"))
    state = moves(state, play_key("Dwarf Lord#1"))
    assert state.battle.values == (8, 11)
    assert area(state, 0, "out_of_play") == ["Death Knight#1"]
    assert state.players[0].cemetery_value == 0
    assert decision(state) == ("order_discard", 1)
    state = moves(state, place_key("Dwarf Lord#1"))
    assert state.battle.attacker == 1


def test_ex26_bone_golem_snapshot() -> None:
    """EX-26: the Bone Golem gets +floor(23/10) = +2, fixed when it resolves."""
    cemetery = ["Zombie#1", "Zombie#2", "Zombie#3", "Zombie#4", "Vampire#1", "Skeleton#1"]
    state = battle(
        "undead,dwarf",
        hands={0: ["Bone Golem#1"], 1: ["Mountain Guard#1"]},
        cemeteries={0: cemetery},
    )
    assert state.players[0].cemetery_value == 23
    state = moves(state, play_key("Bone Golem#1"), play_key("Mountain Guard#1"))
    assert state.battle.values == (8, 7) and state.battle.winners == (0,)
    assert area(state, 0, "discard") == ["Bone Golem#1"]
    assert state.players[1].cemetery_value == 6

"""The spec's worked examples (§9), EX-20 … EX-25: victory, skirmishes and views."""

from __future__ import annotations

from tests.games.fate_of_akalon.fixtures import (
    after_fight,
    area,
    battle,
    build,
    choose_key,
    decision,
    key,
    labels,
    moves,
    on_battlefield,
    options,
    play_key,
    skirmish,
)
from tribes.engine import SPECTATOR
from tribes.games.fate_of_akalon import GAME
from tribes.games.fate_of_akalon.state import Side, State


def _at_b6(line_up: str, cemeteries: dict[int, list[str]], **kwargs: object) -> State:
    state = build(line_up, cemeteries=cemeteries, hands={s: [] for s in cemeteries})
    return after_fight(state, **kwargs)  # type: ignore[arg-type]


ORC_31 = ["Orc Warlord#1", "Troll#1", "Ogre#1", "Battering Ram#1", "Warg Rider#1"]  # 8+7+6+6+4
ELF_27 = [
    "Elf Lord#1",
    "Wizard#1",
    "Blademaster#1",
    "Druid#1",
    "Scout#1",
    "Sylvan#1",
]  # 8+7+6+5+0+1


def test_ex20_two_player_victory_check() -> None:
    """EX-20: at B6 Orc 31, Elf 27: the game ends and the Elf wins."""
    state = _at_b6("orc,elf", {0: ORC_31, 1: ELF_27}, attacker=0, winners=(1,), values=(0, 1))
    assert [p.cemetery_value for p in state.players] == [31, 27]
    result = GAME.result(state)
    assert result is not None and result.winners == (1,) and result.ranks == (2, 1)
    assert result.scores == (31, 27) and state.end_reason == "threshold"
    assert GAME.to_act(state) == ()


def test_ex20_variant_equal_values_tie() -> None:
    """EX-20 variant: 30 and 30 is a tie; both seats rank first (R-39)."""
    orc_30 = ["Orc Warlord#1", "Troll#1", "Ogre#1", "Battering Ram#1", "Hobgoblin#1", "Kobold#1"]
    elf_30 = ["Elf Lord#1", "Wizard#1", "Blademaster#1", "Druid#1", "Sylvan#1", "Hunter#1"]
    state = _at_b6("orc,elf", {0: orc_30, 1: elf_30}, attacker=0, winners=(), values=(0, 0))
    result = GAME.result(state)
    assert result is not None and result.ranks == (1, 1) and result.winners == (0, 1)


def test_ex20_variant_below_the_threshold_continues() -> None:
    """EX-20 variant: 29 and 29 continues with the next battle."""
    orc_29 = ["Orc Warlord#1", "Troll#1", "Ogre#1", "Battering Ram#1", "Hobgoblin#1"]
    elf_29 = ["Elf Lord#1", "Wizard#1", "Blademaster#1", "Druid#1", "Archer#1", "Sylvan#1"]
    state = _at_b6("orc,elf", {0: orc_29, 1: elf_29}, attacker=0, winners=(), values=(0, 0))
    assert GAME.result(state) is None
    assert state.battle.number == 2 and decision(state) == ("play", 0)


ORC_30 = ["Orc Warlord#1", "Troll#1", "Ogre#1", "Battering Ram#1", "Hobgoblin#1", "Kobold#1"]
ELF_22 = ["Elf Lord#1", "Wizard#1", "Blademaster#1", "Scout#1", "Sylvan#1"]  # 8+7+6+0+1
UND_25 = ["Death Knight#1", "Lich#1", "Bone Golem#1", "Zombie#1"]  # 8+7+6+4


def test_ex21_three_player_elimination_then_two_player_play() -> None:
    """EX-21: P0 at 30 is eliminated; the attack passes to P1; P1 and P2 play on."""
    state = _at_b6(
        "orc,elf,undead", {0: ORC_30, 1: ELF_22, 2: UND_25}, attacker=0, winners=(0,),
        values=(5, 1, 1),
    )  # fmt: skip
    assert GAME.result(state) is None
    assert state.players[0].eliminated
    assert state.battle.attacker == 1 and state.battle.play_order == (1, 2)
    assert state.battle.sides == (Side.NONE, Side.ATTACKING, Side.DEFENDING)
    assert decision(state) == ("play", 1)
    assert state.players[0].hand == ()  # the eliminated seat does not reinforce


def test_ex21_later_the_remaining_player_wins() -> None:
    """EX-21 later: P2 reaches 31 with P1 at 24; P1 wins and the eliminated P0 ranks last."""
    elf_24 = [*ELF_22, "Archer#1"]
    und_31 = [*UND_25, "Necromancer#1", "Ghost#1"]
    state = build(
        "orc,elf,undead",
        cemeteries={0: ORC_30, 1: elf_24, 2: und_31},
        eliminated=(0,),
        hands={0: [], 1: [], 2: []},
    )
    state = after_fight(state, attacker=1, winners=(1,), values=(0, 3, 1))
    result = GAME.result(state)
    assert result is not None and result.scores == (30, 24, 31)
    assert result.ranks == (3, 1, 2) and result.winners == (1,)


def test_ex21_variant_two_players_over_at_once() -> None:
    """EX-21 variant: P0 30 and P1 31 at the first check end the game; P2 (25) wins."""
    elf_31 = [*ELF_22, "Druid#1", "Hunter#1", "Sylvan#2"]
    state = _at_b6(
        "orc,elf,undead", {0: ORC_30, 1: elf_31, 2: UND_25}, attacker=0, winners=(0,),
        values=(5, 1, 1),
    )  # fmt: skip
    result = GAME.result(state)
    assert result is not None and result.scores == (30, 31, 25)
    assert result.winners == (2,) and result.ranks == (2, 3, 1)


def test_ex22_four_player_team_threshold() -> None:
    """EX-22: team A 35 + 26 = 61 ends the game; team B (59) wins; P1's 30 is irrelevant."""
    state = _at_b6(
        "orc,elf,undead,dwarf",
        {
            0: [*ORC_30, "Orc Warrior#1"],  # 35
            1: [*ELF_22, "Druid#1", "Sylvan#2", "Archer#1"],  # 30
            2: [*UND_25, "Cultist#1"],  # 26
            3: [
                "Dwarf Lord#1",
                "Gatekeeper#1",
                "Mountain Guard#1",
                "Ironguard#1",
                "Shieldbearer#1",
            ],
        },
        attacker=0,
        winners=(0, 2),
        values=(1, 0, 1, 0),
    )
    assert [p.cemetery_value for p in state.players] == [35, 30, 26, 29]
    result = GAME.result(state)
    assert result is not None and result.winners == (1, 3) and result.ranks == (2, 1, 2, 1)


def test_ex23_three_player_skirmish_partial_reflip() -> None:
    """EX-23: only the tied players flip again; the Skeleton stays and then loses."""
    state = skirmish(
        "orc,elf,undead",
        {0: ["Troll#1", "Goblin#1"], 1: ["Wizard#1", "Hunter#1"], 2: ["Skeleton#1"]},
    )
    assert area(state, 0, "discard") == ["Troll#1"]
    assert area(state, 1, "discard") == ["Wizard#1", "Hunter#1"]
    assert area(state, 0, "cemetery") == ["Goblin#1"]
    assert area(state, 2, "cemetery") == ["Skeleton#1"]
    assert decision(state) == ("choose_first_attacker", 2)
    assert options(state) == ["attacker:0", "attacker:1", "attacker:2"]
    assert on_battlefield(state) == []


def test_ex23_variant_only_reflipped_cards_compare() -> None:
    """EX-23 variant (R-33): Goblin 1 beats Scout 0 although the Skeleton (2) is higher."""
    state = skirmish(
        "orc,elf,undead",
        {0: ["Troll#1", "Goblin#1"], 1: ["Wizard#1", "Scout#1"], 2: ["Skeleton#1"]},
    )
    assert area(state, 0, "discard") == ["Troll#1", "Goblin#1"]
    assert area(state, 1, "cemetery") == ["Scout#1"]
    assert area(state, 2, "cemetery") == ["Skeleton#1"]
    assert decision(state) == ("choose_first_attacker", 1)


def test_ex24_four_player_skirmish() -> None:
    """EX-24: 6 + 1 beats 0 + 4; the losing team's lower seat chooses."""
    state = skirmish(
        "orc,elf,undead,dwarf",
        {0: ["Ogre#1"], 1: ["Scout#1"], 2: ["Cultist#1"], 3: ["Dwarf Axeman#1"]},
    )
    assert area(state, 0, "discard") == ["Ogre#1"] and area(state, 2, "discard") == ["Cultist#1"]
    assert area(state, 1, "cemetery") == ["Scout#1"] and state.players[1].cemetery_value == 0
    assert area(state, 3, "cemetery") == ["Dwarf Axeman#1"] and state.players[3].cemetery_value == 4
    assert decision(state) == ("choose_first_attacker", 1)
    assert options(state) == ["attacker:0", "attacker:1", "attacker:2", "attacker:3"]


def test_ex25_seer_looks_at_a_hand_privately() -> None:
    """EX-25: the Seer's look goes to P0's private log; P1 sees only that it happened."""
    state = battle("elf,orc", hands={0: ["Seer#1"], 1: ["Goblin#1", "Troll#1", "Ogre#1"]})
    state = moves(state, play_key("Seer#1"))
    mine, theirs = GAME.view(state, 0), GAME.view(state, 1)
    (look,) = mine.private_log
    assert look.startswith("Seer: Orc's hand is ")
    assert sorted(look.removeprefix("Seer: Orc's hand is ").split(", ")) == [
        "Goblin",
        "Ogre",
        "Troll",
    ]
    assert mine.players[1].hand == () and mine.players[1].hand_size == 3
    assert "Elf looks at Orc's hand" in theirs.log
    assert theirs.private_log == ()
    hidden = [key(c) for p in state.players for c in labels(p.deck)]
    for seen in (mine, theirs, GAME.view(state, SPECTATOR)):
        text = repr(seen)
        assert not [k for k in hidden if k in text], "no deck card appears in a view"
        assert str(state.rng) not in text


def test_ex25_variant_banshee_victim_chooses_privately() -> None:
    """EX-25 Banshee: the opponent chooses from their own hand; others see type and actor."""
    state = battle("undead,orc", hands={0: ["Banshee#1"], 1: ["Goblin#1", "Troll#1"]})
    state = moves(state, play_key("Banshee#1"))
    assert decision(state) == ("choose_card", 1)
    assert options(state) == sorted([choose_key("Goblin#1"), choose_key("Troll#1")])
    pending = GAME.view(state, 0).pending
    assert pending is not None and (pending.decision, pending.actor, pending.options) == (
        "choose_card",
        1,
        (),
    )
    state = moves(state, choose_key("Troll#1"))
    assert GAME.view(state, 0).players[1].discard == (key("Troll#1"),)


def test_ex25_variant_four_player_teammates_see_nothing() -> None:
    """EX-25 4p (R-32): P0 never sees its teammate P2's hand, private log or options."""
    state = battle(
        "orc,dwarf,elf,undead",
        attacker=2,
        hands={0: ["Goblin#1"], 1: ["Miner#1"], 2: ["Seer#1", "Scout#1"], 3: ["Zombie#1"]},
    )
    state = moves(state, play_key("Seer#1"))
    assert decision(state) == ("choose_opponent", 2)
    assert options(state) == ["opponent:1", "opponent:3"]
    seen = GAME.view(state, 0)
    assert seen.players[2].hand == () and seen.players[2].hand_size == 1
    assert seen.pending is not None and seen.pending.options == ()
    state = moves(state, "opponent:1")
    assert GAME.view(state, 0).private_log == ()
    assert GAME.view(state, 2).private_log == ("Seer: Dwarf's hand is Miner",)

"""The card data against the spec's tables (§3.4) and consistency checks (§3.5, §3.6)."""

from __future__ import annotations

import pytest

from tribes.games.fate_of_akalon.cards import DECKS, KEY, LABEL, PROGRAM, Ask
from tribes.games.fate_of_akalon.data import ATTRIBUTES, CARDS, DECK_SIZE
from tribes.games.fate_of_akalon.dsl import (
    ChooseOpponent,
    DesignateAttacker,
    DiscardRandom,
    DiscardRest,
    ExtraPlay,
    Faction,
    IgnoreText,
    May,
    Modify,
    PlayLimit,
    PlayOneOf,
    ReinforceExtraDraw,
    Reveal,
)
from tribes.games.fate_of_akalon.rules import steps

# id: (name, value, copies, attribute) exactly as printed in the §3.4 tables.
TABLE = {
    "ORC-01": ("Goblin Sapper", 0, 1, None),
    "ORC-02": ("Goblin", 1, 4, None),
    "ORC-03": ("Kobold", 1, 3, None),
    "ORC-04": ("Hobgoblin", 2, 3, None),
    "ORC-05": ("Orc Shaman", 2, 2, "Magic"),
    "ORC-06": ("Orc Raider", 3, 3, "Mounted"),
    "ORC-07": ("Warg Rider", 4, 2, "Mounted"),
    "ORC-08": ("Orc Berserker", 4, 2, None),
    "ORC-09": ("Orc Warrior", 5, 3, None),
    "ORC-10": ("Battering Ram", 6, 2, "Siege"),
    "ORC-11": ("Ogre", 6, 1, "Beast"),
    "ORC-12": ("Troll", 7, 1, "Beast"),
    "ORC-13": ("Orc Warlord", 8, 1, "Leader"),
    "DWF-01": ("Dwarf Recruit", 1, 2, None),
    "DWF-02": ("Runesmith", 1, 2, "Magic"),
    "DWF-03": ("Tactician", 2, 2, "Leader"),
    "DWF-04": ("Miner", 2, 2, None),
    "DWF-05": ("Shield Wall", 2, 1, None),
    "DWF-06": ("Shieldbearer", 3, 3, None),
    "DWF-07": ("Crossbowman", 3, 3, "Ranged"),
    "DWF-08": ("Hammer", 3, 2, None),
    "DWF-09": ("Dwarf Axeman", 4, 4, None),
    "DWF-10": ("Ironguard", 5, 2, None),
    "DWF-11": ("Ballista", 5, 1, "Siege"),
    "DWF-12": ("Mountain Guard", 6, 2, None),
    "DWF-13": ("Gatekeeper", 7, 1, None),
    "DWF-14": ("Dwarf Lord", 8, 1, "Leader"),
    "ELF-01": ("Scout", 0, 2, None),
    "ELF-02": ("Sylvan", 1, 3, None),
    "ELF-03": ("Seer", 1, 2, "Magic"),
    "ELF-04": ("Archer", 2, 4, "Ranged"),
    "ELF-05": ("Illusionist", 2, 1, "Magic"),
    "ELF-06": ("Trickster", 2, 1, None),
    "ELF-07": ("Hunter", 3, 3, "Ranged"),
    "ELF-08": ("Ranger", 4, 3, None),
    "ELF-09": ("Master Summoner", 4, 1, "Magic"),
    "ELF-10": ("Druid", 5, 2, "Magic"),
    "ELF-11": ("Elf Knight", 5, 2, "Mounted"),
    "ELF-12": ("Blademaster", 6, 2, None),
    "ELF-13": ("Wizard", 7, 1, "Magic"),
    "ELF-14": ("Elf Lord", 8, 1, "Leader"),
    "UND-01": ("Grave Digger", 0, 2, None),
    "UND-02": ("Cultist", 1, 1, "Magic"),
    "UND-03": ("Wraith", 1, 2, "Spirit"),
    "UND-04": ("Skeleton", 2, 4, None),
    "UND-05": ("Banshee", 2, 2, "Spirit"),
    "UND-06": ("Ghoul", 3, 2, None),
    "UND-07": ("Ghost", 3, 2, "Spirit"),
    "UND-08": ("Necromancer", 3, 2, "Magic"),
    "UND-09": ("Zombie", 4, 4, None),
    "UND-10": ("Vampire", 5, 2, None),
    "UND-11": ("Mummy", 5, 1, None),
    "UND-12": ("Bone Golem", 6, 2, None),
    "UND-13": ("Lich", 7, 1, "Magic"),
    "UND-14": ("Death Knight", 8, 1, "Leader"),
}
TOTALS = {Faction.ORC: 90, Faction.DWARF: 96, Faction.ELF: 89, Faction.UNDEAD: 91}


def _steps(name: str, timing: str) -> list[object]:
    card = next(c for c in CARDS if c.name == name)
    return [step for a in card.abilities if a.timing == timing for step in a.steps]


def test_cards_match_the_spec_tables() -> None:
    """§3.4: every card's name, value, copies and attribute as tabled, and no other card."""
    assert {c.id: (c.name, c.value, c.copies, c.attribute) for c in CARDS} == TABLE


@pytest.mark.parametrize("faction", list(Faction))
def test_each_deck_holds_exactly_28_cards(faction: Faction) -> None:
    """§3.5: each faction has exactly 28 instances with values 0..8."""
    cards = [c for c in CARDS if c.faction is faction]
    assert sum(c.copies for c in cards) == DECK_SIZE == len(DECKS[faction])
    assert all(0 <= c.value <= 8 for c in cards)


@pytest.mark.parametrize("faction", list(Faction))
def test_printed_value_totals(faction: Faction) -> None:
    """§3.5: printed totals Orc 90, Dwarf 96, Elf 89, Undead 91."""
    cards = [c for c in CARDS if c.faction is faction]
    assert sum(c.value * c.copies for c in cards) == TOTALS[faction]


def test_sourced_values() -> None:
    """§3.5 [SRC]: Goblin 1, Hunter 3, Archer 2, Wizard 7, Battering Ram 6."""
    printed = {c.name: c.value for c in CARDS}
    expected = {"Goblin": 1, "Hunter": 3, "Archer": 2, "Wizard": 7, "Battering Ram": 6}
    assert {name: printed[name] for name in expected} == expected


def test_sourced_effects_are_present() -> None:
    """§3.5 [SRC]: the published effects exist in the data as DSL steps."""
    (goblin_play,) = _steps("Goblin", "on_play")
    assert isinstance(goblin_play, ExtraPlay) and goblin_play.filter.name == "Hobgoblin"
    assert Modify("self", -2) in _steps("Battering Ram", "static")
    ram = next(a for a in CARDS if a.name == "Battering Ram").abilities[0]
    assert ram.condition == "defending"
    assert _steps("Sylvan", "cemetery_reinforce_before_draw") == [ReinforceExtraDraw(1)]
    assert _steps("Master Summoner", "on_play") == [Reveal(2), PlayOneOf(), DiscardRest()]
    assert _steps("Tactician", "on_play") == [IgnoreText("opposing_all")]
    assert _steps("Hammer", "on_play") == [ChooseOpponent(optional=False), DesignateAttacker("X")]
    assert _steps("Kobold", "defeated") == [May((DesignateAttacker("self"),))]
    assert _steps("Ghoul", "static") == [PlayLimit(max_total=1)]
    assert _steps("Vampire", "on_play")[1] == DiscardRandom("X", 1)
    assert _steps("Archer", "on_play") == [ExtraPlay()]


def test_every_card_is_marked_with_its_provenance() -> None:
    """§3.3/§10.1: no card list was found, so every card is (partly) reconstructed."""
    assert all(c.is_reconstructed for c in CARDS)
    partial = {c.name for c in CARDS if c.provenance.startswith("PARTIAL")}
    assert partial == {
        "Goblin", "Kobold", "Hobgoblin", "Battering Ram", "Tactician", "Hammer", "Hunter",
        "Archer", "Sylvan", "Master Summoner", "Wizard", "Ghoul", "Vampire",
    }  # fmt: skip
    assert {c.provenance for c in CARDS if c.name not in partial} == {"RECONSTRUCTED"}


def test_ids_names_and_keys_are_unique() -> None:
    """§3.1: ids, names, instance labels and keys identify one card each."""
    assert len({c.id for c in CARDS}) == len(CARDS)
    assert len({c.name for c in CARDS}) == len(CARDS)
    assert len(set(KEY)) == len(KEY) == 112 == len(set(LABEL))
    assert all(key == key.lower() and " " not in key for key in KEY)


def test_canonical_order_is_id_then_copy() -> None:
    """§3.1: instance numbers sort by definition id, then copy number."""
    assert [c.id for c in CARDS] == sorted(TABLE)
    assert LABEL[:3] == ("Dwarf Recruit#1", "Dwarf Recruit#2", "Runesmith#1")


def test_attributes_come_from_the_reconstructed_set() -> None:
    """§2: a card has zero or one attribute from the set."""
    assert {c.attribute for c in CARDS} - {None} <= set(ATTRIBUTES)


def test_every_step_has_a_handler() -> None:
    """§5.6.2: each primitive used by the data maps to one handler (no per-card code)."""
    used = {type(step) for program in PROGRAM for abilities in program for step in abilities}
    assert used <= steps.HANDLED_STEPS
    assert Ask in used and May not in used  # ``may`` is compiled into an Ask


def test_abilities_per_card_fit_the_fired_code() -> None:
    """§5.1: (instance, ability index) pairs encode uniquely (at most 4 abilities per card)."""
    assert max(len(c.abilities) for c in CARDS) <= 4

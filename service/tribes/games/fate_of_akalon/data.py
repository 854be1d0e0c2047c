"""The four 28-card faction decks as data (spec §3.4 tables, §3.6 drop-in format).

Every entry mirrors one line of the §3.6 YAML: id, name, faction, printed value,
copies, attribute, the engine wording of its text, its abilities in the effect DSL of
``dsl.py`` (§5.6.2) and its provenance. The published card lists were not found, so
most fields are RECONSTRUCTED (§10.1); ``provenance`` says which. When the real list
turns up, replace entries here and set ``provenance="PUBLISHED"``: no code changes.
"""

from __future__ import annotations

from tribes.games.fate_of_akalon.dsl import (
    Ability,
    CardDef,
    CardFilter,
    CemeteryValue,
    ChooseCard,
    ChooseOpponent,
    Condition,
    Count,
    DesignateAttacker,
    DiscardRandom,
    DiscardRest,
    Draw,
    ExtraPlay,
    Faction,
    FloorDiv,
    HandSize,
    IgnoreText,
    Look,
    May,
    Min,
    Modify,
    ModifyTarget,
    Move,
    PlayLimit,
    PlayOneOf,
    ReinforceExtraDraw,
    ReplaceDestination,
    Reveal,
)

#: The reconstructed attribute set (§2); a card has zero or one attribute.
ATTRIBUTES = ("Ranged", "Magic", "Mounted", "Beast", "Siege", "Leader", "Spirit")

#: Component count (§2): every faction deck holds exactly this many cards.
DECK_SIZE = 28

REC = "RECONSTRUCTED"

ORC, DWARF, ELF, UNDEAD = Faction.ORC, Faction.DWARF, Faction.ELF, Faction.UNDEAD


def _static(amount: int, condition: Condition, target: ModifyTarget = "self") -> Ability:
    """``{timing: static, condition: <c>, steps: [{op: modify, target, amount}]}``."""
    return Ability("static", (Modify(target, amount),), condition)


_ATTACKING_SELF_1 = _static(1, "attacking")
_DEFENDING_SELF_1 = _static(1, "defending")
_DRAW_1 = Ability("on_play", (Draw(1),))
_OPPONENT_CARD = ChooseCard(zone="battlefield", owner="opponents", optional=True)

ORC_CARDS = (
    CardDef(
        "ORC-01", "Goblin Sapper", ORC, 0, 1, None,
        "[After all played] If you are attacking, you may choose a card an opponent has on "
        "the battlefield. That card gets -2.",
        (Ability("after_all_played", (_OPPONENT_CARD, Modify("T", -2)), "attacking"),),
        REC,
    ),
    CardDef(
        "ORC-02", "Goblin", ORC, 1, 4, None,
        "[On play] You may play a card named Hobgoblin from your hand. "
        "[Static] Attacking: this card +1.",
        (
            Ability("on_play", (ExtraPlay(CardFilter(name="Hobgoblin")),)),
            _ATTACKING_SELF_1,
        ),
        "PARTIAL(name,value,text-shape=SRC)",
    ),
    CardDef(
        "ORC-03", "Kobold", ORC, 1, 3, None,
        "[Defeated] You may designate yourself as the attacker next battle.",
        (Ability("defeated", (May((DesignateAttacker("self"),)),)),),
        "PARTIAL(name,text=SRC)",
    ),
    CardDef(
        "ORC-04", "Hobgoblin", ORC, 2, 3, None,
        "[Static] Attacking: this card +2.",
        (_static(2, "attacking"),),
        "PARTIAL(name=SRC)",
    ),
    CardDef(
        "ORC-05", "Orc Shaman", ORC, 2, 2, "Magic",
        "[Static] Attacking: your other cards on the battlefield +1 each.",
        (_static(1, "attacking", "own_other"),),
        REC,
    ),
    CardDef(
        "ORC-06", "Orc Raider", ORC, 3, 3, "Mounted",
        "[After all played] If you are attacking, you may play another card from your hand.",
        (Ability("after_all_played", (ExtraPlay(),), "attacking"),),
        REC,
    ),
    CardDef(
        "ORC-07", "Warg Rider", ORC, 4, 2, "Mounted",
        "[Static] Attacking: this card +2. Defending: this card -1.",
        (_static(2, "attacking"), _static(-1, "defending")),
        REC,
    ),
    CardDef(
        "ORC-08", "Orc Berserker", ORC, 4, 2, None,
        "[Static] Attacking: this card +1 for each other card you have on the battlefield.",
        (Ability("static", (Modify("self", Count("own_other")),), "attacking"),),
        REC,
    ),
    CardDef(
        "ORC-09", "Orc Warrior", ORC, 5, 3, None,
        "[Static] Attacking: this card +1.",
        (_ATTACKING_SELF_1,),
        REC,
    ),
    CardDef(
        "ORC-10", "Battering Ram", ORC, 6, 2, "Siege",
        "[Static] Defending: this card -2.",
        (_static(-2, "defending"),),
        "PARTIAL(name,value,text=SRC)",
    ),
    CardDef(
        "ORC-11", "Ogre", ORC, 6, 1, "Beast",
        "[Static] Attacking: this card +1. Defending: this card -1.",
        (_ATTACKING_SELF_1, _static(-1, "defending")),
        REC,
    ),
    CardDef(
        "ORC-12", "Troll", ORC, 7, 1, "Beast",
        "[Static] Defending: this card -3.",
        (_static(-3, "defending"),),
        REC,
    ),
    CardDef(
        "ORC-13", "Orc Warlord", ORC, 8, 1, "Leader",
        "[Static] Defending: this card -2. [Victorious] Draw a card.",
        (_static(-2, "defending"), Ability("victorious", (Draw(1),))),
        REC,
    ),
)  # fmt: skip

DWARF_CARDS = (
    CardDef(
        "DWF-01", "Dwarf Recruit", DWARF, 1, 2, None,
        "[Static] Defending: this card +1 for each other card you have on the battlefield.",
        (Ability("static", (Modify("self", Count("own_other")),), "defending"),),
        REC,
    ),
    CardDef(
        "DWF-02", "Runesmith", DWARF, 1, 2, "Magic",
        "[Static] Defending: your other cards on the battlefield +1 each.",
        (_static(1, "defending", "own_other"),),
        REC,
    ),
    CardDef(
        "DWF-03", "Tactician", DWARF, 2, 2, "Leader",
        "[On play] From now until this card leaves the battlefield, every opposing card on "
        "the battlefield, and every opposing card played later this battle, is treated as "
        "having no card text.",
        (Ability("on_play", (IgnoreText("opposing_all"),)),),
        "PARTIAL(name,effect=SRC)",
    ),
    CardDef(
        "DWF-04", "Miner", DWARF, 2, 2, None,
        "[On play] Draw a card.",
        (_DRAW_1,),
        REC,
    ),
    CardDef(
        "DWF-05", "Shield Wall", DWARF, 2, 1, None,
        "[Static] Defending: opposing Ranged cards -2 each.",
        (
            Ability(
                "static",
                (Modify("opposing", -2, CardFilter(attribute=("Ranged",))),),
                "defending",
            ),
        ),
        REC,
    ),
    CardDef(
        "DWF-06", "Shieldbearer", DWARF, 3, 3, None,
        "[Static] Defending: this card +2.",
        (_static(2, "defending"),),
        REC,
    ),
    CardDef(
        "DWF-07", "Crossbowman", DWARF, 3, 3, "Ranged",
        "[On play] If you are defending, you may play another card from your hand.",
        (Ability("on_play", (ExtraPlay(),), "defending"),),
        REC,
    ),
    CardDef(
        "DWF-08", "Hammer", DWARF, 3, 2, None,
        "[On play] Choose an opponent. Designate that player as the attacker next battle.",
        (Ability("on_play", (ChooseOpponent(optional=False), DesignateAttacker("X"))),),
        "PARTIAL(name,text=SRC)",
    ),
    CardDef(
        "DWF-09", "Dwarf Axeman", DWARF, 4, 4, None,
        "[Static] Defending: this card +1.",
        (_DEFENDING_SELF_1,),
        REC,
    ),
    CardDef(
        "DWF-10", "Ironguard", DWARF, 5, 2, None,
        "[Replacement] If this card would go from the battlefield to your cemetery and you "
        "were defending this battle, put it on your discard pile instead.",
        (Ability("replacement", (ReplaceDestination("cemetery", "discard"),), "defending"),),
        REC,
    ),
    CardDef(
        "DWF-11", "Ballista", DWARF, 5, 1, "Siege",
        "[After all played] You may choose a Mounted or Beast card an opponent has on the "
        "battlefield. That card gets -3.",
        (
            Ability(
                "after_all_played",
                (
                    ChooseCard(
                        zone="battlefield",
                        owner="opponents",
                        optional=True,
                        filter=CardFilter(attribute=("Mounted", "Beast")),
                    ),
                    Modify("T", -3),
                ),
            ),
        ),
        REC,
    ),
    CardDef(
        "DWF-12", "Mountain Guard", DWARF, 6, 2, None,
        "[Static] Attacking: this card -1. Defending: this card +1.",
        (_static(-1, "attacking"), _DEFENDING_SELF_1),
        REC,
    ),
    CardDef(
        "DWF-13", "Gatekeeper", DWARF, 7, 1, None,
        "[Victorious] You may choose an opponent. If you do, designate that player as the "
        "attacker next battle.",
        (Ability("victorious", (ChooseOpponent(optional=True), DesignateAttacker("X"))),),
        REC,
    ),
    CardDef(
        "DWF-14", "Dwarf Lord", DWARF, 8, 1, "Leader",
        "[Static] Attacking: this card -2.",
        (_static(-2, "attacking"),),
        REC,
    ),
)  # fmt: skip

ELF_CARDS = (
    CardDef(
        "ELF-01", "Scout", ELF, 0, 2, None,
        "[On play] Draw a card.",
        (_DRAW_1,),
        REC,
    ),
    CardDef(
        "ELF-02", "Sylvan", ELF, 1, 3, None,
        "[Cemetery] When you reinforce, draw one extra card.",
        (Ability("cemetery_reinforce_before_draw", (ReinforceExtraDraw(1),)),),
        "PARTIAL(name,text=SRC)",
    ),
    CardDef(
        "ELF-03", "Seer", ELF, 1, 2, "Magic",
        "[On play] Choose an opponent. Look at that player's hand (private to you).",
        (Ability("on_play", (ChooseOpponent(optional=False), Look("hand", "X"))),),
        REC,
    ),
    CardDef(
        "ELF-04", "Archer", ELF, 2, 4, "Ranged",
        "[On play] You may play another card from your hand.",
        (Ability("on_play", (ExtraPlay(),)),),
        "PARTIAL(name,value,text=SRC)",
    ),
    CardDef(
        "ELF-05", "Illusionist", ELF, 2, 1, "Magic",
        "[On play] You may choose a card an opponent has on the battlefield. While this card "
        "stays on the battlefield, the chosen card is treated as having no card text.",
        (Ability("on_play", (_OPPONENT_CARD, IgnoreText("T"))),),
        REC,
    ),
    CardDef(
        "ELF-06", "Trickster", ELF, 2, 1, None,
        "[After all played] You may choose another card you have on the battlefield and "
        "return it to your hand.",
        (
            Ability(
                "after_all_played",
                (
                    ChooseCard(
                        zone="battlefield",
                        owner="self",
                        optional=True,
                        filter=CardFilter(not_self=True),
                    ),
                    Move("T", "hand"),
                ),
            ),
        ),
        REC,
    ),
    CardDef(
        "ELF-07", "Hunter", ELF, 3, 3, "Ranged",
        "[On play] Look at the top card of your deck (private). You may put it on the "
        "bottom of your deck.",
        (Ability("on_play", (Look("deck_top"), May((Move("deck_top", "deck_bottom"),)))),),
        "PARTIAL(name,value=SRC)",
    ),
    CardDef(
        "ELF-08", "Ranger", ELF, 4, 3, None,
        "[On play] You may put the top card of your discard pile into your hand.",
        (Ability("on_play", (May((Move("discard_top", "hand"),)),)),),
        REC,
    ),
    CardDef(
        "ELF-09", "Master Summoner", ELF, 4, 1, "Magic",
        "[On play] Reveal the top two cards of your deck. You may play one of them. Then put "
        "the unplayed revealed cards on your discard pile.",
        (Ability("on_play", (Reveal(2), PlayOneOf(), DiscardRest())),),
        "PARTIAL(name,text=SRC)",
    ),
    CardDef(
        "ELF-10", "Druid", ELF, 5, 2, "Magic",
        "[On play] Draw a card, then discard a card of your choice from your hand.",
        (
            Ability(
                "on_play",
                (
                    Draw(1),
                    ChooseCard(zone="hand", owner="self", optional=False),
                    Move("T", "discard_top"),
                ),
            ),
        ),
        REC,
    ),
    CardDef(
        "ELF-11", "Elf Knight", ELF, 5, 2, "Mounted",
        "[On play] Draw a card, then put a card of your choice from your hand on top of "
        "your deck.",
        (
            Ability(
                "on_play",
                (
                    Draw(1),
                    ChooseCard(zone="hand", owner="self", optional=False),
                    Move("T", "deck_top"),
                ),
            ),
        ),
        REC,
    ),
    CardDef(
        "ELF-12", "Blademaster", ELF, 6, 2, None,
        "[After all played] This card gets +1 for each card in your hand, at most +3. The "
        "amount is fixed when the ability resolves.",
        (
            Ability(
                "after_all_played",
                (Modify("self", Min(HandSize(), 3), mode="snapshot"),),
            ),
        ),
        REC,
    ),
    CardDef(
        "ELF-13", "Wizard", ELF, 7, 1, "Magic",
        "[On play] If you are attacking, draw a card.",
        (Ability("on_play", (Draw(1),), "attacking"),),
        "PARTIAL(name,value=SRC)",
    ),
    CardDef(
        "ELF-14", "Elf Lord", ELF, 8, 1, "Leader",
        "[Static] Your other Ranged cards on the battlefield +1 each.",
        (Ability("static", (Modify("own_other", 1, CardFilter(attribute=("Ranged",))),)),),
        REC,
    ),
)  # fmt: skip

_OWN_CEMETERY_CARD = ChooseCard(zone="cemetery", owner="self", optional=True)

UNDEAD_CARDS = (
    CardDef(
        "UND-01", "Grave Digger", UNDEAD, 0, 2, None,
        "[On play] You may choose a card in your cemetery and put it on the bottom of your "
        "deck.",
        (Ability("on_play", (_OWN_CEMETERY_CARD, Move("T", "deck_bottom"))),),
        REC,
    ),
    CardDef(
        "UND-02", "Cultist", UNDEAD, 1, 1, "Magic",
        "[On play] Draw a card.",
        (_DRAW_1,),
        REC,
    ),
    CardDef(
        "UND-03", "Wraith", UNDEAD, 1, 2, "Spirit",
        "[After all played] You may choose a card an opponent has on the battlefield. That "
        "card gets -2.",
        (Ability("after_all_played", (_OPPONENT_CARD, Modify("T", -2))),),
        REC,
    ),
    CardDef(
        "UND-04", "Skeleton", UNDEAD, 2, 4, None,
        "[Cemetery] When you reinforce, after you have drawn, you may put this card from "
        "your cemetery on the bottom of your deck.",
        (Ability("cemetery_reinforce_after_draw", (May((Move("self", "deck_bottom"),)),)),),
        REC,
    ),
    CardDef(
        "UND-05", "Banshee", UNDEAD, 2, 2, "Spirit",
        "[On play] Choose an opponent. That player discards a card of their choice from "
        "their hand.",
        (
            Ability(
                "on_play",
                (
                    ChooseOpponent(optional=False),
                    ChooseCard(zone="hand", owner="X", optional=False, chooser="X"),
                    Move("T", "discard_top"),
                ),
            ),
        ),
        REC,
    ),
    CardDef(
        "UND-06", "Ghoul", UNDEAD, 3, 2, None,
        "[Static] Each opponent may play at most one card in total this battle.",
        (Ability("static", (PlayLimit(max_total=1),)),),
        "PARTIAL(name,text=SRC)",
    ),
    CardDef(
        "UND-07", "Ghost", UNDEAD, 3, 2, "Spirit",
        "[Replacement] If this card would go from the battlefield to your cemetery, put it "
        "on your discard pile instead.",
        (Ability("replacement", (ReplaceDestination("cemetery", "discard"),)),),
        REC,
    ),
    CardDef(
        "UND-08", "Necromancer", UNDEAD, 3, 2, "Magic",
        "[On play] You may choose a card in your cemetery and return it to your hand.",
        (Ability("on_play", (_OWN_CEMETERY_CARD, Move("T", "hand"))),),
        REC,
    ),
    CardDef(
        "UND-09", "Zombie", UNDEAD, 4, 4, None,
        "[Defeated] You may choose a card with printed value 2 or less in your cemetery and "
        "put it on your discard pile.",
        (
            Ability(
                "defeated",
                (
                    ChooseCard(
                        zone="cemetery",
                        owner="self",
                        optional=True,
                        filter=CardFilter(max_printed_value=2),
                    ),
                    Move("T", "discard_top"),
                ),
            ),
        ),
        REC,
    ),
    CardDef(
        "UND-10", "Vampire", UNDEAD, 5, 2, None,
        "[On play] Choose an opponent. That player discards a random card from their hand.",
        (Ability("on_play", (ChooseOpponent(optional=False), DiscardRandom("X", 1))),),
        "PARTIAL(name,text=SRC)",
    ),
    CardDef(
        "UND-11", "Mummy", UNDEAD, 5, 1, None,
        "[Victorious] You may choose a card in your cemetery and put it on your discard pile.",
        (Ability("victorious", (_OWN_CEMETERY_CARD, Move("T", "discard_top"))),),
        REC,
    ),
    CardDef(
        "UND-12", "Bone Golem", UNDEAD, 6, 2, None,
        "[After all played] This card gets +1 for every full 10 points of your cemetery "
        "value. The amount is fixed when the ability resolves.",
        (
            Ability(
                "after_all_played",
                (Modify("self", FloorDiv(CemeteryValue(), 10), mode="snapshot"),),
            ),
        ),
        REC,
    ),
    CardDef(
        "UND-13", "Lich", UNDEAD, 7, 1, "Magic",
        "[On play] You may choose a card in your cemetery and remove it from the game (to "
        "your out-of-play area).",
        (Ability("on_play", (_OWN_CEMETERY_CARD, Move("T", "out_of_play"))),),
        REC,
    ),
    CardDef(
        "UND-14", "Death Knight", UNDEAD, 8, 1, "Leader",
        "[Replacement] If this card would go from the battlefield to your cemetery, put it "
        "in your out-of-play area instead.",
        (Ability("replacement", (ReplaceDestination("cemetery", "out_of_play"),)),),
        REC,
    ),
)  # fmt: skip

#: Every card definition, in canonical order of their ids (§3.1).
CARDS: tuple[CardDef, ...] = tuple(
    sorted(DWARF_CARDS + ELF_CARDS + ORC_CARDS + UNDEAD_CARDS, key=lambda card: card.id)
)

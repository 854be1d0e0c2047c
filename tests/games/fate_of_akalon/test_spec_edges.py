"""Rule edge cases from the rules audit: safeguard scoring, the skirmish safeguard,
text-ignore against Shield Wall (spec §4.2, §5.3, §5.6.4, §7; R-14, R-28, R-34, R-36, R-39),
then choices with no candidate, statics by side, 4p teams, skirmish and victory edges,
reinforcement and 3p opponent choices (§3.2, §3.4, §4.2, §5.4-§5.7, §6, §7; R-25, R-29).

Every expectation comes from the spec text quoted in the test's docstring. Where the game
PRNG decides (R-34), each seed's pick is the seat-ordered index of R-37, and over the seeds
every tied side must win at least once.
"""

from __future__ import annotations

import inspect

import pytest

from tests.games.fate_of_akalon.fixtures import (
    after_fight,
    area,
    battle,
    build,
    decision,
    fight,
    key,
    last_fight,
    moves,
    options,
    play_key,
    reinforcement,
    skirmish,
    values,
)
from tribes.engine import Result
from tribes.engine.rng import Rng
from tribes.games.fate_of_akalon import GAME
from tribes.games.fate_of_akalon.cards import DECKS, LABEL
from tribes.games.fate_of_akalon.dsl import Faction
from tribes.games.fate_of_akalon.rules.setup import start
from tribes.games.fate_of_akalon.state import State

ORC_30 = ["Orc Warlord#1", "Troll#1", "Ogre#1", "Battering Ram#1", "Hobgoblin#1", "Kobold#1"]
SEEDS = range(1, 13)


def _all_but(faction: Faction, *kept: str) -> list[str]:
    """Every instance of ``faction`` except ``kept``, to park out of play."""
    return [LABEL[c] for c in DECKS[faction] if LABEL[c] not in kept]


def _ended(state: State) -> Result:
    """The result of a game that the safeguard (R-14) has just ended."""
    result = GAME.result(state)
    assert result is not None, "the game should be over"
    assert state.end_reason == "safeguard"
    assert GAME.to_act(state) == ()
    return result


# -- 1. §7 "Safeguard endings" (R-14) in 3p after an elimination and in 4p --------------------


@pytest.mark.parametrize(
    ("elf_cemetery", "scores", "ranks"),
    [
        (["Sylvan#1"], (30, 1, 8), (3, 1, 2)),
        (["Elf Lord#1"], (30, 8, 8), (3, 1, 1)),
    ],
)
def test_3p_safeguard_after_an_elimination_scores_the_two_remaining(
    elf_cemetery: list[str], scores: tuple[int, ...], ranks: tuple[int, ...]
) -> None:
    """§7 Safeguard endings: "3p ... after an elimination the lower of the two remaining
    (the eliminated player ranks last) ... Equal values tie. `reason: safeguard`";
    §5.3/R-14: the Dwarf, active, ends B7 with no hand, deck or discard.
    Ranks per R-39 (1 + seats strictly better), so a tie for first leaves P0 third.
    """
    state = build(
        "orc,elf,dwarf",
        cemeteries={0: ORC_30, 1: elf_cemetery, 2: ["Dwarf Lord#1"]},
        out_of_play={2: _all_but(Faction.DWARF, "Dwarf Lord#1")},
        hands={1: ["Scout#1"]},
        eliminated=(0,),
    )
    state = after_fight(state, attacker=1, winners=(1,), values=(0, 1, 0), number=5)
    result = _ended(state)
    assert result.scores == scores
    assert result.ranks == ranks
    assert result.winners == tuple(s for s in (1, 2) if ranks[s] == 1)


def test_3p_an_eliminated_player_with_no_cards_does_not_trigger_the_safeguard() -> None:
    """R-14/§5.3: the safeguard needs "an **active** player" with empty hand, deck and
    discard; §7: an eliminated player "never plays" again, so the game goes on.
    """
    state = build(
        "orc,elf,dwarf",
        cemeteries={0: ORC_30},
        out_of_play={0: _all_but(Faction.ORC, *ORC_30)},
        hands={1: ["Scout#1"], 2: ["Miner#1"]},
        eliminated=(0,),
    )
    assert state.players[0].deck == ()
    state = after_fight(state, attacker=1, winners=(1,), values=(0, 1, 0), number=5)
    assert GAME.result(state) is None and state.end_reason == ""
    assert state.battle.number == 6 and state.battle.play_order == (1, 2)
    assert decision(state) == ("play", 1)


@pytest.mark.parametrize(
    ("elf_cemetery", "ranks"),
    [
        (["Sylvan#1"], (2, 1, 2, 1)),
        (["Sylvan#1", "Sylvan#2", "Sylvan#3"], (1, 1, 1, 1)),
    ],
)
def test_4p_safeguard_scores_team_totals(elf_cemetery: list[str], ranks: tuple[int, ...]) -> None:
    """§7 Safeguard endings: "`4p` the lower team total. Equal values tie"; R-29 (no
    individual comparison) and R-39 (a 4p tie lists all four seats as winners).
    Team A = Orc 7 + Undead 4 = 11; team B = Elf 1 (or 3) + Dwarf 8 = 9 (or 11): the
    Dwarf (8) wins or ties although the Orc (7) and the Undead (4) hold less alone.
    """
    state = build(
        "orc,elf,undead,dwarf",
        cemeteries={0: ["Troll#1"], 1: elf_cemetery, 2: ["Zombie#1"], 3: ["Dwarf Lord#1"]},
        out_of_play={3: _all_but(Faction.DWARF, "Dwarf Lord#1")},
        hands={0: ["Goblin#1"], 1: ["Scout#1"], 2: ["Ghoul#1"]},
    )
    state = after_fight(state, attacker=0, winners=(0, 2), values=(1, 0, 1, 0), number=5)
    result = _ended(state)
    assert result.scores == (7, len(elf_cemetery), 4, 8)
    assert result.ranks == ranks
    assert result.winners == tuple(s for s in range(4) if ranks[s] == 1)


# -- 2. R-34: the skirmish safeguard in 3p and 4p ---------------------------------------------


def test_3p_skirmish_safeguard_picks_among_the_tied_and_left_of_the_winner_chooses() -> None:
    """§4.2 step 2 (R-34): "If round 100 ends without a winner, the winner is picked
    uniformly at random ... among the players ... still tied"; "Count flip rounds, the
    first included". Step 3 / R-03: the winning card goes to its owner's discard, every
    other card still on the battlefield to its owner's cemetery. Step 4: "the seat
    `left(winner)` chooses any of the three players". The tied are "listed by lowest
    seat" and R-37 indexes that list with the game PRNG, unused until then.
    Troll 7 and Wizard 7 tie for highest; the Skeleton (2) is out of the contest.
    """
    tops = {0: ["Troll#1"], 1: ["Wizard#1"], 2: ["Skeleton#1"]}
    flipped = {0: "Troll#1", 1: "Wizard#1"}
    winners: set[int] = set()
    for seed in SEEDS:
        state = skirmish("orc,elf,undead", tops, max_rounds=1, seed=seed)
        winner = next(s for s in (0, 1) if area(state, s, "discard"))
        assert winner == [0, 1][Rng(seed).below(2)]
        loser = 1 - winner
        winners.add(winner)
        assert area(state, winner, "discard") == [flipped[winner]]
        assert area(state, winner, "cemetery") == []
        assert area(state, loser, "discard") == []
        assert area(state, loser, "cemetery") == [flipped[loser]]
        assert state.players[loser].cemetery_value == 7
        assert area(state, 2, "cemetery") == ["Skeleton#1"] and area(state, 2, "discard") == []
        assert [len(p.deck) for p in state.players] == [27, 27, 27]
        assert decision(state) == ("choose_first_attacker", winner + 1)
        assert options(state) == ["attacker:0", "attacker:1", "attacker:2"]
    assert winners == {0, 1}


def test_skirmish_safeguard_counts_rounds_from_the_first_and_stops_at_100() -> None:
    """§4.2 step 2 (R-34): the bound is round 100, "the first included"; until then a
    3p tie re-flips only the tied players (R-33), their first cards going to the discard.
    With a bound of 2, round 1 (Troll 7 = Wizard 7) re-flips and round 2 (Goblin 1 =
    Sylvan 1) is decided at random; the Skeleton never flips again. The default bound,
    used by every new game, is 100.
    """
    assert inspect.signature(start).parameters["max_rounds"].default == 100
    tops = {0: ["Troll#1", "Goblin#1"], 1: ["Wizard#1", "Sylvan#1"], 2: ["Skeleton#1"]}
    second = {0: "Goblin#1", 1: "Sylvan#1"}
    first = {0: "Troll#1", 1: "Wizard#1"}
    winners: set[int] = set()
    for seed in SEEDS:
        state = skirmish("orc,elf,undead", tops, max_rounds=2, seed=seed)
        winner = next(s for s in (0, 1) if area(state, s, "discard")[-1] == second[s])
        assert winner == [0, 1][Rng(seed).below(2)]
        loser = 1 - winner
        winners.add(winner)
        assert area(state, winner, "discard") == [first[winner], second[winner]]
        assert area(state, loser, "discard") == [first[loser]]
        assert area(state, loser, "cemetery") == [second[loser]]
        assert area(state, 2, "cemetery") == ["Skeleton#1"]
        assert [len(p.deck) for p in state.players] == [26, 26, 27]
        assert decision(state) == ("choose_first_attacker", winner + 1)
    assert winners == {0, 1}


def test_4p_skirmish_safeguard_picks_a_team_and_its_lower_losing_seat_chooses() -> None:
    """§4.2 step 2 (R-34): at the bound the winner is picked "among the ... (4p: teams)
    still tied", listed by lowest seat (team {0, 2} first) and indexed with the game PRNG
    (R-37), untouched until then. Step 3: both winning cards go to their owners' discards,
    both losing cards to the cemeteries. Step 4 / R-05: "the losing-team member with the
    lower seat index" chooses among all four players.
    Ogre 6 + Cultist 1 = 7 ties Scout 0 + Gatekeeper 7 = 7.
    """
    tops = {0: ["Ogre#1"], 1: ["Scout#1"], 2: ["Cultist#1"], 3: ["Gatekeeper#1"]}
    winners: set[int] = set()
    for seed in SEEDS:
        state = skirmish("orc,elf,undead,dwarf", tops, max_rounds=1, seed=seed)
        team = 0 if area(state, 0, "discard") else 1
        assert team == [0, 1][Rng(seed).below(2)]
        winners.add(team)
        for seat in range(4):
            flipped = tops[seat]
            if seat % 2 == team:
                assert area(state, seat, "discard") == flipped
                assert area(state, seat, "cemetery") == []
            else:
                assert area(state, seat, "discard") == []
                assert area(state, seat, "cemetery") == flipped
        lost = [state.players[s].cemetery_value for s in (1 - team, 3 - team)]
        assert sum(lost) == 7
        assert decision(state) == ("choose_first_attacker", 1 - team)
        assert options(state) == ["attacker:0", "attacker:1", "attacker:2", "attacker:3"]
    assert winners == {0, 1}


# -- 3./4. Shield Wall against Ranged cards (§3.4 DWF-05, §5.6.4 item 6, R-36) ----------------


@pytest.mark.parametrize(
    ("placed", "elf_hand"),
    [
        ([(0, "Archer#1"), (1, "Tactician#1"), (1, "Shield Wall#1")], ["Archer#1"]),
        ([(1, "Tactician#1"), (1, "Shield Wall#1"), (0, "Archer#1")], ["Archer#1", "Scout#1"]),
    ],
    ids=["covered-on-the-battlefield", "played-after-tactician"],
)
def test_an_archer_covered_by_tactician_still_gets_minus_2_from_shield_wall(
    placed: list[tuple[int, str]], elf_hand: list[str]
) -> None:
    """§5.6.4 item 6 (R-36): a text-ignored card "keeps its name, printed value and
    attribute ... Other cards' modifiers ... still apply to it: an Archer covered by
    Tactician still gets -2 from an active Shield Wall". DWF-03 covers opposing cards on
    the battlefield and those played later; an Archer played later resolves no on-play
    (item 3), so it grants no extra play although the Elf still holds a Scout.
    Archer 2 - 2 = 0; Tactician 2 + Shield Wall 2 = 4. Normal play cannot put both Dwarf
    cards down in one battle (only Crossbowman grants a Dwarf extra play).
    """
    state = battle("elf,dwarf", hands={0: elf_hand, 1: ["Tactician#1"]})
    state = fight(state, placed)
    assert last_fight(state) == "Fight: Elf 0, Dwarf 4; Dwarf wins"
    assert area(state, 0, "hand") == elf_hand[1:]
    assert area(state, 0, "cemetery") == ["Archer#1"]


def test_shield_wall_against_an_archer_with_elf_lord_spares_the_crossbowman() -> None:
    """§3.4: Archer (2, Ranged; may play another card), Elf Lord (8; "Your other Ranged
    cards on the battlefield +1 each"), Crossbowman (3, Ranged; defending, may play
    another card), Shield Wall (2; "Defending: opposing Ranged cards -2 each").
    Archer 2 + 1 - 2 = 1 and Elf Lord 8 make the Elf 9; the Dwarf's own Ranged
    Crossbowman gets neither +1 nor -2, so the Dwarf is 3 + 2 = 5; §5.3 B3 2p: Elf wins.
    """
    state = battle(
        "elf,dwarf",
        hands={
            0: ["Archer#1", "Elf Lord#1", "Scout#1"],
            1: ["Shield Wall#1", "Tactician#1", "Crossbowman#1"],
        },
    )
    state = moves(state, play_key("Archer#1"), play_key("Elf Lord#1"))
    state = moves(state, play_key("Crossbowman#1"))
    assert values(state) == {"Archer#1": 3, "Elf Lord#1": 8, "Crossbowman#1": 3}
    state = moves(state, play_key("Shield Wall#1"))
    assert last_fight(state) == "Fight: Elf 9, Dwarf 5; Elf wins"
    assert state.players[1].cemetery_value == 5


# -- 5. Choices with nothing to choose from (§5.4 catalogue, §5.5 "No candidate", §5.6.2) ------


@pytest.mark.parametrize(
    ("line_up", "played", "out_of_play"),
    [
        ("elf,orc", "Ranger#1", {}),
        ("elf,orc", "Illusionist#1", {}),
        ("elf,orc", "Hunter#1", {0: _all_but(Faction.ELF, "Hunter#1")}),
        ("undead,orc", "Grave Digger#1", {}),
        ("undead,orc", "Necromancer#1", {}),
        ("undead,orc", "Lich#1", {}),
    ],
)
def test_an_on_play_choice_with_no_candidate_creates_no_decision(
    line_up: str, played: str, out_of_play: dict[int, list[str]]
) -> None:
    """§5.4: CHOOSE_CARD "With 0 candidates the step is skipped"; YES_NO only "a `may` step
    whose action is possible (e.g. Ranger needs a non-empty discard; Hunter needs a card to
    look at)"; §5.6.2 look: "with no card there, nothing is seen".
    Empty discard (Ranger), no opposing battlefield card (Illusionist attacking first),
    empty deck and discard (Hunter), empty cemetery (Grave Digger, Necromancer, Lich):
    the play ends the turn at once, and none of the player's areas changes.
    """
    state = battle(line_up, hands={0: [played], 1: ["Goblin#1"]}, out_of_play=out_of_play)
    before = state.players[0]
    state = moves(state, play_key(played))
    assert decision(state) == ("play", 1)
    after = state.players[0]
    for name in ("deck", "discard", "cemetery", "out_of_play", "private_log"):
        assert getattr(after, name) == getattr(before, name), name
    assert after.hand == () and state.battle.plays == (1, 0)


@pytest.mark.parametrize(
    ("line_up", "hands", "fight_line"),
    [
        ("elf,orc", {0: ["Trickster#1"], 1: ["Goblin#1"]}, "Fight: Elf 2, Orc 1; Elf wins"),
        ("orc,elf", {0: ["Goblin Sapper#1"], 1: []}, "Fight: Orc 0, Elf 0; everyone loses"),
        ("undead,elf", {0: ["Wraith#1"], 1: []}, "Fight: Undead 1, Elf 0; Undead wins"),
    ],
    ids=["trickster-alone", "sapper-no-opposing-card", "wraith-no-opposing-card"],
)
def test_an_after_all_played_choice_with_no_candidate_is_skipped(
    line_up: str, hands: dict[int, list[str]], fight_line: str
) -> None:
    """§5.5 "No candidate": a `choose_card` step with no candidate creates no decision and
    the steps using its binding are skipped. The Trickster chooses "another card you have
    on the battlefield" (none); the Sapper (attacking) and the Wraith choose "a card an
    opponent has on the battlefield" while the opponent, with an empty hand, played
    nothing (§5.3 B1 step 1). The Fight then ends the battle without any CHOOSE_CARD.
    """
    state = battle(line_up, hands=hands)
    state = moves(state, *(play_key(cards[0]) for cards in hands.values() if cards))
    assert last_fight(state) == fight_line
    assert state.battle.number == 2 and decision(state) == ("play", 0)


@pytest.mark.parametrize(
    ("line_up", "hands", "fight_line"),
    [
        ("elf,orc", {0: ["Archer#1"], 1: ["Goblin#1"]}, "Fight: Elf 2, Orc 1; Elf wins"),
        ("orc,dwarf", {0: ["Goblin#1"], 1: ["Crossbowman#1"]}, "Fight: Orc 2, Dwarf 3; Dwarf wins"),
        ("orc,elf", {0: ["Orc Raider#1"], 1: ["Scout#1"]}, "Fight: Orc 3, Elf 0; Orc wins"),
    ],
    ids=["archer", "goblin-then-crossbowman", "orc-raider-in-the-fight"],
)
def test_an_extra_play_is_not_offered_from_an_empty_hand(
    line_up: str, hands: dict[int, list[str]], fight_line: str
) -> None:
    """§5.4 EXTRA_PLAY: "Empty hand or blocked -> not created (both facts are public)".
    A player whose only card grants an extra play (Archer on play, Goblin on play,
    Crossbowman defending, Orc Raider attacking in the Fight) gets no decision: the turn
    passes at once and the battle ends after the base plays.
    """
    state = battle(line_up, hands=hands)
    state = moves(state, play_key(hands[0][0]))
    assert decision(state) == ("play", 1)
    state = moves(state, play_key(hands[1][0]))
    assert last_fight(state) == fight_line
    assert state.battle.number == 2


@pytest.mark.parametrize("orc_hand", [["Goblin#1"], []], ids=["one-card", "empty"])
def test_banshee_against_a_hand_of_at_most_one_card(orc_hand: list[str]) -> None:
    """UND-05 (the victim chooses, R-30) with §5.4 CHOOSE_CARD: "mandatory with exactly 1
    candidate" is auto-resolved; "With 0 candidates the step is skipped". Either way no
    decision is created; a victim left with no card takes no turn (§5.3 B1 step 1).
    Undead 2 vs Orc 0: the Undead wins and keeps the attack (§5.3 B5).
    """
    state = battle("undead,orc", hands={0: ["Banshee#1"], 1: orc_hand})
    state = moves(state, play_key("Banshee#1"))
    assert last_fight(state) == "Fight: Undead 2, Orc 0; Undead wins"
    assert area(state, 1, "discard") == orc_hand
    assert area(state, 1, "cemetery") == [] and area(state, 0, "discard") == ["Banshee#1"]
    assert state.battle.number == 2 and decision(state) == ("play", 0)


def test_an_auto_chosen_elf_knight_card_stays_hidden() -> None:
    """ELF-11 with §5.4 (R-15): the Elf Knight's mandatory choice with one hand card is
    auto-resolved, and "an auto-chosen Elf Knight card appears there [the public log] as
    'a card'"; §6: a hand card put on the deck goes face down, the owner sees it in the
    private log. The Elf Knight draws Wizard, the only hand card, and puts it back on top.
    """
    state = battle("elf,orc", hands={0: ["Elf Knight#1"], 1: ["Goblin#1"]}, decks={0: ["Wizard#1"]})
    state = moves(state, play_key("Elf Knight#1"))
    assert decision(state) == ("play", 1)
    assert area(state, 0, "deck")[0] == "Wizard#1" and area(state, 0, "hand") == []
    assert state.players[0].private_log == ("Elf Knight: you put Wizard on top of your deck",)
    assert "Elf puts a card from their hand on top of their deck" in state.log
    assert not [line for line in state.log if "Wizard" in line]
    orc_view = GAME.view(state, 1)
    assert orc_view.players[0].deck_size == 27 and orc_view.private_log == ()
    assert key("Wizard#1") not in repr(orc_view)


def test_master_summoner_with_fewer_than_two_cards_to_reveal() -> None:
    """ELF-09 and §5.6.2 reveal: "If deck and discard are both empty, fewer (possibly no)
    cards are revealed"; PLAY_REVEALED needs ">=1 revealed card"; §5.7: the leftover batch
    is placed first, then the emptied deck is refilled from the discard at once.
    """
    one_left = _all_but(Faction.ELF, "Master Summoner#1", "Wizard#1")
    state = battle(
        "elf,orc", hands={0: ["Master Summoner#1"], 1: ["Goblin#1"]}, out_of_play={0: one_left}
    )
    state = moves(state, play_key("Master Summoner#1"))
    assert area(state, 0, "reveal") == ["Wizard#1"] and state.players[0].deck == ()
    assert decision(state) == ("play_revealed", 0)
    assert options(state) == ["decline", play_key("Wizard#1")]
    state = moves(state, "decline")
    assert area(state, 0, "deck") == ["Wizard#1"]
    assert area(state, 0, "discard") == [] and area(state, 0, "reveal") == []
    assert decision(state) == ("play", 1)
    nothing_left = _all_but(Faction.ELF, "Master Summoner#1")
    state = battle(
        "elf,orc", hands={0: ["Master Summoner#1"], 1: ["Goblin#1"]}, out_of_play={0: nothing_left}
    )
    state = moves(state, play_key("Master Summoner#1"))
    assert "Elf reveals no card" in state.log and decision(state) == ("play", 1)


# -- 6. Static modifiers by side (§3.4 effects, §5.6.3) ----------------------------------------


@pytest.mark.parametrize(
    ("faction", "label", "attacking", "defending"),
    [
        ("orc", "Goblin#1", 2, 1),
        ("orc", "Hobgoblin#1", 4, 2),
        ("orc", "Ogre#1", 7, 5),
        ("orc", "Troll#1", 7, 4),
        ("orc", "Orc Warlord#1", 8, 6),
        ("dwarf", "Shieldbearer#1", 3, 5),
        ("dwarf", "Dwarf Axeman#1", 4, 5),
    ],
)
def test_single_card_statics_depend_on_the_side(
    faction: str, label: str, attacking: int, defending: int
) -> None:
    """§3.4 statics: Goblin (1; attacking +1), Hobgoblin (2; attacking +2), Ogre (6;
    attacking +1, defending -1), Troll (7; defending -3), Orc Warlord (8; defending -2),
    Shieldbearer (3; defending +2), Dwarf Axeman (4; defending +1). The conditions test
    the owner's side (§3.2). Each card alone against an Elf Scout (0).
    """
    title = faction.capitalize()
    for attacker, value in ((0, attacking), (1, defending)):
        state = battle(f"{faction},elf", attacker=attacker, hands={0: [label], 1: ["Scout#1"]})
        first, second = (label, "Scout#1") if attacker == 0 else ("Scout#1", label)
        state = moves(state, play_key(first), play_key(second))
        assert last_fight(state) == f"Fight: {title} {value}, Elf 0; {title} wins"


# -- 7. 4p: sides and "opponent" follow the teams (§3.2, §5.3 B0, R-01) ------------------------


@pytest.mark.parametrize(
    ("attacker", "elf_hand", "after_crossbowman"),
    [(0, ["Scout#1"], ("extra_play", 3)), (1, [], ("play", 0))],
    ids=["elf-attacking-teammate", "elf-defending"],
)
def test_4p_non_lead_players_use_their_teams_side(
    attacker: int, elf_hand: list[str], after_crossbowman: tuple[str, int]
) -> None:
    """§3.2: "In `4p` the side is the team's side"; §5.3 B0 4p: "the lead attacker and
    their teammate -> attacking; the other team -> defending". Seats Undead 0, Orc 1, Elf 2,
    Dwarf 3 (teams {0, 2}, {1, 3}). With P0 leading, the Elf (attacking, not lead) draws
    with the Wizard (ELF-13) and the Dwarf (defending, not lead) gets the Crossbowman's extra
    play (DWF-07). With P1 leading the sides swap: no draw, no extra play.
    """
    first = {0: "Zombie#1", 1: "Goblin#1", 2: "Wizard#1", 3: "Crossbowman#1"}
    state = battle(
        "undead,orc,elf,dwarf",
        attacker=attacker,
        hands={0: ["Zombie#1"], 1: ["Goblin#1"], 2: ["Wizard#1"], 3: ["Crossbowman#1", "Miner#1"]},
        decks={2: ["Scout#1"]},
    )
    order = state.battle.play_order
    assert order == tuple((attacker + k) % 4 for k in range(4))
    state = moves(state, *(play_key(first[seat]) for seat in order[: order.index(3) + 1]))
    assert area(state, 2, "hand") == elf_hand
    assert decision(state) == after_crossbowman


def test_4p_the_ghouls_limit_binds_the_other_team_only() -> None:
    """UND-06 "Each opponent may play at most one card"; §3.2: in 4p an opponent is "a
    member of the other team". Seats Elf 0, Orc 1, Undead 2 (lead), Dwarf 3; play order
    2, 3, 0, 1. The Dwarf's Crossbowman extra play is blocked (§5.6.5), the Elf teammate's
    Archer extra play is offered with its hand card.
    """
    state = battle(
        "elf,orc,undead,dwarf",
        attacker=2,
        hands={
            0: ["Archer#1", "Scout#1"],
            1: ["Goblin#1"],
            2: ["Ghoul#1"],
            3: ["Crossbowman#1", "Miner#1"],
        },
    )
    state = moves(state, play_key("Ghoul#1"), play_key("Crossbowman#1"))
    assert decision(state) == ("play", 0)
    assert area(state, 3, "hand") == ["Miner#1"]
    state = moves(state, play_key("Archer#1"))
    assert decision(state) == ("extra_play", 0)
    assert options(state) == ["decline", play_key("Scout#1")]


def test_4p_the_tactician_covers_the_other_team_only() -> None:
    """DWF-03: "every opposing card on the battlefield, and every opposing card played
    later" is textless; §3.2 4p opponents are the other team. Seats Orc 0, Elf 1, Dwarf 2
    (lead), Undead 3. After the Tactician the Undead Cultist draws nothing and the Elf
    Archer offers no extra play, while the Orc teammate's Goblin offers its Hobgoblin play
    and both keep their attacking bonuses: team {0, 2} = 2 + 4 + 2 = 8, team {1, 3} = 2 + 1.
    """
    state = battle(
        "orc,elf,dwarf,undead",
        attacker=2,
        hands={
            0: ["Goblin#1", "Hobgoblin#1"],
            1: ["Archer#1", "Scout#1"],
            2: ["Tactician#1"],
            3: ["Cultist#1"],
        },
    )
    state = moves(state, play_key("Tactician#1"), play_key("Cultist#1"))
    assert area(state, 3, "hand") == [] and len(state.players[3].deck) == 27  # no draw
    state = moves(state, play_key("Goblin#1"))
    assert decision(state) == ("extra_play", 0)
    assert options(state) == ["decline", play_key("Hobgoblin#1")]
    state = moves(state, play_key("Hobgoblin#1"))
    assert values(state) == {"Tactician#1": 2, "Cultist#1": 1, "Goblin#1": 2, "Hobgoblin#1": 4}
    state = moves(state, play_key("Archer#1"))
    assert last_fight(state) == "Fight: 8 to 3 (team totals); Orc and Dwarf win"
    assert area(state, 1, "hand") == ["Scout#1"]


# -- 8. Skirmish edges (§4.2) ---------------------------------------------------------------------


@pytest.mark.parametrize(
    ("line_up", "tops", "value"),
    [
        ("undead,orc", {0: ["Ghost#1"], 1: ["Troll#1"]}, 3),
        (
            "undead,orc,elf,dwarf",
            {0: ["Death Knight#1"], 1: ["Troll#1"], 2: ["Scout#1"], 3: ["Gatekeeper#1"]},
            8,
        ),
    ],
    ids=["2p-ghost", "4p-death-knight"],
)
def test_a_skirmish_loser_gets_no_replacement(
    line_up: str, tops: dict[int, list[str]], value: int
) -> None:
    """§4.2 step 1 "All card text is ignored in the skirmish"; step 3: "Each losing card
    goes to its owner's cemetery ... No Defeated, Replacement or Cemetery text applies ...
    Cemetery values now count these cards". A losing Ghost (UND-07) is not saved to the
    discard, a losing Death Knight (UND-14; 4p team total 8 + 0 < 7 + 7) does not go out of
    play. The loser chooses the first attacker (2p; 4p R-05: lower seat of the losing team).
    """
    state = skirmish(line_up, tops)
    lost = tops[0]
    assert area(state, 0, "cemetery") == lost and state.players[0].cemetery_value == value
    assert area(state, 0, "discard") == [] and area(state, 0, "out_of_play") == []
    assert decision(state) == ("choose_first_attacker", 0)


def test_3p_skirmish_three_way_tie_reflips_all_three() -> None:
    """§4.2 step 2 3p: "If two or three players tie for highest, only the tied players put
    their cards in their discards and flip again". Orc Raider 3 = Hunter 3 = Ghoul 3: all
    three re-flip; Troll 7 beats Scout 0 and Skeleton 2. Step 3/R-03: the winner's card to
    its discard, the others to the cemeteries; step 4: left(P0) = P1 chooses.
    """
    tops = {
        0: ["Orc Raider#1", "Troll#1"],
        1: ["Hunter#1", "Scout#1"],
        2: ["Ghoul#1", "Skeleton#1"],
    }
    state = skirmish("orc,elf,undead", tops)
    assert area(state, 0, "discard") == ["Orc Raider#1", "Troll#1"]
    assert area(state, 0, "cemetery") == []
    assert area(state, 1, "discard") == ["Hunter#1"] and area(state, 1, "cemetery") == ["Scout#1"]
    assert area(state, 2, "discard") == ["Ghoul#1"] and area(state, 2, "cemetery") == ["Skeleton#1"]
    assert [p.cemetery_value for p in state.players] == [0, 0, 2]
    assert [len(p.deck) for p in state.players] == [26, 26, 26]
    assert decision(state) == ("choose_first_attacker", 1)
    assert options(state) == ["attacker:0", "attacker:1", "attacker:2"]


# -- 9. Victory edges (§7; R-25, R-29) -----------------------------------------------------------

ORC_33 = ["Orc Warlord#1", "Troll#1", "Ogre#1", "Battering Ram#1", "Battering Ram#2"]  # 8+7+6+6+6
ELF_32 = ["Elf Lord#1", "Wizard#1", "Blademaster#1", "Blademaster#2", "Druid#1"]  # 8+7+6+6+5
ELF_31 = ["Elf Lord#1", "Wizard#1", "Blademaster#1", "Druid#1", "Druid#2"]  # 8+7+6+5+5
UND_31 = ["Death Knight#1", "Lich#1", "Bone Golem#1", "Bone Golem#2", "Cultist#1", "Ghoul#1"]


@pytest.mark.parametrize(
    ("line_up", "cemeteries", "scores", "ranks"),
    [
        ("orc,elf", {0: ORC_33, 1: ELF_32}, (33, 32), (2, 1)),
        ("orc,elf,undead", {0: ORC_33, 1: ELF_31, 2: UND_31}, (33, 31, 31), (3, 1, 1)),
    ],
    ids=["2p-both-over", "3p-all-over-tied-lowest"],
)
def test_the_lowest_value_wins_even_when_every_player_is_over_30(
    line_up: str,
    cemeteries: dict[int, list[str]],
    scores: tuple[int, ...],
    ranks: tuple[int, ...],
) -> None:
    """§7 2p: "The player with the lower cemetery value wins, even if both are >= 30";
    3p (R-25): with two or three at >= 30 "the lowest cemetery value among all three wins.
    Players sharing the lowest value tie" (no elimination); ranks per R-39.
    """
    state = build(line_up, cemeteries=cemeteries)
    seats = len(cemeteries)
    state = after_fight(state, attacker=0, winners=(), values=(0,) * seats)
    result = GAME.result(state)
    assert result is not None and state.end_reason == "threshold"
    assert result.scores == scores and result.ranks == ranks
    assert result.winners == tuple(s for s in range(seats) if ranks[s] == 1)
    assert not any(p.eliminated for p in state.players)


def test_4p_an_individual_30_does_not_end_the_game() -> None:
    """§7 4p / R-29: "No individual threshold applies in 4p"; only a team total >= 60
    ends it. P0 has 35 but team {0, 2} totals 35 + 7 = 42 and team {1, 3} 8 + 8 = 16, so
    play goes on; the defending team won, so left(0) = P1 leads (§5.3 B5 4p).
    """
    state = build(
        "orc,elf,undead,dwarf",
        cemeteries={
            0: [*ORC_33, "Hobgoblin#1"],
            1: ["Elf Lord#1"],
            2: ["Lich#1"],
            3: ["Dwarf Lord#1"],
        },
        hands={0: [], 1: [], 2: [], 3: []},
    )
    assert state.players[0].cemetery_value == 35
    state = after_fight(state, attacker=0, winners=(1, 3), values=(0, 1, 0, 1))
    assert GAME.result(state) is None and not state.players[0].eliminated
    assert state.battle.number == 2 and state.battle.attacker == 1
    assert decision(state) == ("play", 1)


# -- 10. Reinforcement and the discard order (§5.3 B4, B7) ---------------------------------------


def test_a_skeleton_acts_only_when_its_owner_reinforces() -> None:
    """§3.2 [Cemetery] "works ... at that owner's reinforcement"; §5.3 B7: only players
    whose hand is empty reinforce ("Players with cards in hand do nothing"), and step 3
    (Skeleton) is part of that. With a card in hand the Undead is not asked.
    """
    state = build(
        "undead,orc", cemeteries={0: ["Skeleton#1"]}, hands={0: ["Zombie#1"], 1: ["Troll#1"]}
    )
    state = reinforcement(state)
    assert decision(state) == ("play", 0) and state.battle.number == 2
    assert area(state, 0, "cemetery") == ["Skeleton#1"] and state.players[0].cemetery_value == 2
    assert area(state, 0, "hand") == ["Zombie#1"] and len(state.players[0].deck) == 26


def test_winning_cards_of_one_definition_are_placed_without_asking() -> None:
    """§5.4 ORDER_DISCARD: auto-resolved "when every remaining card shares one definition
    ... place in canonical order". Two Archers (2 + 2) beat the attacking Goblin (1 + 1).
    """
    state = battle("orc,elf", hands={0: ["Goblin#1"], 1: ["Archer#1", "Archer#2"]})
    state = moves(state, play_key("Goblin#1"), play_key("Archer#1"), play_key("Archer#2"))
    assert last_fight(state) == "Fight: Orc 2, Elf 4; Elf wins"
    assert area(state, 1, "discard") == ["Archer#1", "Archer#2"]
    assert state.battle.number == 2 and decision(state) == ("play", 1)


# -- 11. 3p: mandatory opponent choices (§5.4 CHOOSE_OPPONENT) -----------------------------------


@pytest.mark.parametrize(
    ("line_up", "played", "then", "private", "discarded"),
    [
        ("undead,orc,dwarf", "Vampire#1", ("play", 1), (), 1),
        ("undead,orc,dwarf", "Banshee#1", ("choose_card", 2), (), 0),
        ("elf,orc,dwarf", "Seer#1", ("play", 1), ("Seer: Dwarf's hand is Miner, Hammer",), 0),
    ],
)
def test_3p_a_mandatory_opponent_choice_offers_both_and_no_decline(
    line_up: str, played: str, then: tuple[str, int], private: tuple[str, ...], discarded: int
) -> None:
    """§5.4 CHOOSE_OPPONENT: options are "ChooseOpponent(s) for each active opponent; plus
    Decline if optional", auto-resolved only with exactly 1 option. Vampire, Banshee and
    Seer choose non-optionally, so 3p offers exactly {P1, P2}. The effect then hits only
    the chosen P2 (Vampire: one random discard; Banshee: P2 chooses; Seer: a private look
    at P2's hand in canonical order): the Orc P1 keeps its hand and discard.
    """
    state = battle(line_up, hands={0: [played], 1: ["Goblin#1"], 2: ["Miner#1", "Hammer#1"]})
    state = moves(state, play_key(played))
    assert decision(state) == ("choose_opponent", 0)
    assert options(state) == ["opponent:1", "opponent:2"]
    state = moves(state, "opponent:2")
    assert decision(state) == then
    assert area(state, 1, "hand") == ["Goblin#1"] and area(state, 1, "discard") == []
    assert state.players[0].private_log == private
    assert len(state.players[2].discard) == discarded
    assert len(state.players[2].hand) == 2 - discarded

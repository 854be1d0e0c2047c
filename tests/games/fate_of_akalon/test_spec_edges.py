"""Rule edge cases from the rules audit: safeguard scoring, the skirmish safeguard and
text-ignore against Shield Wall (spec §4.2, §5.3, §5.6.4, §7; R-14, R-28, R-34, R-36, R-39).

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
    last_fight,
    moves,
    options,
    play_key,
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

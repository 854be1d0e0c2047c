"""Game options: seat counts and each seat's faction (spec §1 modes, §4.1 game creation)."""

from __future__ import annotations

from tribes.engine import OptionSpec
from tribes.games.fate_of_akalon.dsl import Faction

SEAT_COUNTS = (2, 3, 4)

#: Factions by seat when ``factions`` is ``auto``: the line-ups of the rulebook's examples
#: (2p Elf vs Orc, §8.5 skirmish; 3p Dwarf/Orc/Elf, EX-07; 4p Orc/Elf/Undead/Dwarf, EX-12).
DEFAULT_FACTIONS: dict[int, tuple[Faction, ...]] = {
    2: (Faction.ELF, Faction.ORC),
    3: (Faction.DWARF, Faction.ORC, Faction.ELF),
    4: (Faction.ORC, Faction.ELF, Faction.UNDEAD, Faction.DWARF),
}

OPTIONS = (
    OptionSpec(
        name="factions",
        description=(
            "the faction of each seat, clockwise from seat 0, comma-separated and all "
            "different (dwarf, elf, orc, undead); 'auto' picks elf,orc for 2 players, "
            "dwarf,orc,elf for 3 and orc,elf,undead,dwarf for 4 (teams are seats 0+2 and 1+3)"
        ),
        default="auto",
    ),
)

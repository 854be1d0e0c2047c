"""``tests.bench.instructions`` reads callgrind's own output (figures only; this checks
the reading against a real callgrind run)."""

from __future__ import annotations

import pathlib
import shutil
import subprocess
import sys

from tests.bench.instructions import callgrind_total
from tests.support.parts import missing_part


def test_the_total_is_read_from_a_real_callgrind_output(tmp_path: pathlib.Path) -> None:
    """A short Python run under callgrind: the total read back is its instruction count
    (tens of millions for an interpreter start), and a longer run counts more."""
    if shutil.which("valgrind") is None:
        missing_part("valgrind is not installed")  # make test installs it where it can
    totals = []
    for loops in (0, 300_000):
        out = tmp_path / f"callgrind-{loops}.out"
        subprocess.run(
            [
                "valgrind",
                "--tool=callgrind",
                f"--callgrind-out-file={out}",
                sys.executable,
                "-S",
                "-c",
                f"sum(range({loops}))",
            ],
            check=True,
            capture_output=True,
            timeout=120,
        )
        with open(out) as f:
            totals.append(callgrind_total(f))
    assert totals[0] > 10_000_000
    assert totals[1] > totals[0] + 1_000_000  # 300k additions cost several instructions each
    assert callgrind_total(["events: Ir", "fn=(1) main", "16 3"]) == 0  # no totals line

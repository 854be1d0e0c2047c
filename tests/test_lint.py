"""The tree passes ``make lint``: ruff (rules and format), mypy and the import contracts.

Run from the suite so that the one test command CI calls (README "Tests") refuses a commit
that ``make lint`` would. The checks are the Makefile's own target, so they are listed in
one place; their findings are the failure message.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_the_tree_passes_make_lint() -> None:
    make = shutil.which("make")
    assert make is not None, "make is one of the README's two commands' tools"
    venv = Path(sys.executable).parent.parent  # the suite's own environment
    done = subprocess.run(
        [make, "--no-print-directory", "lint", f"VENV={venv}"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert done.returncode == 0, f"make lint failed:\n{done.stdout[-4000:]}\n{done.stderr[-2000:]}"

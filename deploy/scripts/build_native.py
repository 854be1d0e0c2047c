"""Compile the service's hot modules with mypyc (``tribes.native``), or leave the pure ones.

Run: ``python deploy/scripts/build_native.py [mypy-config]`` (``make install`` does, with
the project's ``pyproject.toml``); ``--clean`` removes a build. Always exits 0 on a
machine without a C compiler: the pure modules are the same service, slower.
"""

import os
import pathlib
import sys

# the build replaces the compiled modules: this process needs none (and no stale warning)
os.environ["TRIBES_NATIVE"] = "0"

from tribes import native

if __name__ == "__main__":
    args = sys.argv[1:]
    if args == ["--clean"]:
        native.clean()
    elif len(args) <= 1:
        native.build(config=pathlib.Path(args[0]).resolve() if args else None)
    else:
        sys.exit("usage: build_native.py [mypy-config] | --clean")

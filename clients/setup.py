"""Builds tribes-client with the API modules generated from ../protos (tribes_client.v1).

``pip install ./clients`` from a checkout runs this: the generated code is never
committed, so the build generates it, with the same generator ``make protos`` uses.
"""

from __future__ import annotations

import importlib.util
import pathlib

from setuptools import setup
from setuptools.command.build_py import build_py

HERE = pathlib.Path(__file__).resolve().parent
GENERATOR = HERE.parent / "deploy" / "scripts" / "gen_protos.py"
PROTOS = HERE.parent / "protos"


def _generate(package: pathlib.Path) -> None:
    spec = importlib.util.spec_from_file_location("gen_protos", GENERATOR)
    assert spec is not None and spec.loader is not None
    generator = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(generator)
    generator.generate_client(PROTOS, package)


class BuildWithProtos(build_py):
    def run(self) -> None:
        if not (HERE / "tribes_client" / "v1" / "game_service_pb2.py").exists():
            _generate(HERE / "tribes_client")
        super().run()


setup(cmdclass={"build_py": BuildWithProtos})

"""Generate the ``tribes.v1`` Python modules (and .pyi stubs) from ``protos/``.

Run by ``make protos`` (and so by ``make install``/``run``/``test``). The output in
``service/tribes/v1/`` is never hand-edited and never committed.
"""

from __future__ import annotations

import pathlib
import shutil
import sys

import grpc_tools
from grpc_tools import protoc

ROOT = pathlib.Path(__file__).resolve().parents[2]
PROTOS = ROOT / "protos"
OUT = ROOT / "service"
PACKAGE = OUT / "tribes" / "v1"


def main() -> int:
    if PACKAGE.exists():
        shutil.rmtree(PACKAGE)
    PACKAGE.mkdir(parents=True)
    (PACKAGE / "__init__.py").write_text('"""Generated from protos/tribes/v1 by `make protos`."""\n')
    sources = sorted(str(p.relative_to(PROTOS)) for p in (PROTOS / "tribes" / "v1").glob("*.proto"))
    well_known = pathlib.Path(grpc_tools.__file__).parent / "_proto"
    # google/api/annotations.proto and friends ship with googleapis-common-protos
    import google.api

    googleapis = pathlib.Path(google.api.__path__[0]).parent.parent
    args = [
        "grpc_tools.protoc",
        f"-I{PROTOS}",
        f"-I{well_known}",
        f"-I{googleapis}",
        f"--python_out={OUT}",
        f"--pyi_out={OUT}",
        f"--grpc_python_out={OUT}",
        *sources,
    ]
    code = protoc.main(args)
    if code != 0:
        print("protoc failed", file=sys.stderr)
        return int(code)
    print(f"generated {len(sources)} proto files into {PACKAGE.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

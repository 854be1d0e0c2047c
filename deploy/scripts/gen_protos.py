"""Generate the Python modules (and .pyi stubs) of every .proto in the project.

Run by ``make protos`` (and so by ``make install``/``run``/``test``); the client
package's build (``clients/setup.py``) calls ``generate_client`` the same way. The output
is never hand-edited and never committed:

* ``service/tribes/v1/``      the service's ``tribes.v1`` modules, from ``protos/``;
* ``clients/tribes_client/v1/`` the same API for the installable client, as
  ``tribes_client.v1`` (import lines rewritten, so the client needs nothing of the
  service; the protobuf package and descriptors stay ``tribes.v1``);
* ``tests/**/``               plugin games' own messages (the test game's), in place.
"""

from __future__ import annotations

import pathlib
import re
import shutil
import sys
import tempfile

ROOT = pathlib.Path(__file__).resolve().parents[2]
PROTOS = ROOT / "protos"
API = "tribes/v1"


def _includes() -> list[str]:
    import grpc_tools

    well_known = pathlib.Path(grpc_tools.__file__).parent / "_proto"
    # google/api/annotations.proto and friends ship with googleapis-common-protos
    import google.api

    googleapis = pathlib.Path(google.api.__path__[0]).parent.parent
    return [f"-I{well_known}", f"-I{googleapis}"]


def _protoc(include: pathlib.Path, out: pathlib.Path, sources: list[str]) -> None:
    from grpc_tools import protoc

    args = [
        "grpc_tools.protoc",
        f"-I{include}",
        *_includes(),
        f"--python_out={out}",
        f"--pyi_out={out}",
        f"--grpc_python_out={out}",
        *sources,
    ]
    if protoc.main(args) != 0:
        raise SystemExit(f"protoc failed on {', '.join(sources)}")


def _api_sources(protos: pathlib.Path) -> list[str]:
    return sorted(str(p.relative_to(protos)) for p in (protos / API).glob("*.proto"))


def generate_service(protos: pathlib.Path = PROTOS, out: pathlib.Path = ROOT / "service") -> None:
    package = out / API
    if package.exists():
        shutil.rmtree(package)
    package.mkdir(parents=True)
    (package / "__init__.py").write_text('"""Generated from protos/tribes/v1 by `make protos`."""\n')
    _protoc(protos, out, _api_sources(protos))


_IMPORT = re.compile(r"^(\s*)(from|import) tribes\.v1\b", re.MULTILINE)


def generate_client(protos: pathlib.Path, package: pathlib.Path) -> None:
    """``tribes.v1`` as ``<package>/v1`` (e.g. tribes_client/v1), imports rewritten."""
    target = package / "v1"
    if target.exists():
        shutil.rmtree(target)
    with tempfile.TemporaryDirectory() as tmp:
        _protoc(protos, pathlib.Path(tmp), _api_sources(protos))
        shutil.copytree(pathlib.Path(tmp) / API, target)
    name = package.name
    for path in target.iterdir():
        if path.suffix in (".py", ".pyi"):
            path.write_text(_IMPORT.sub(rf"\1\2 {name}.v1", path.read_text()))
    (target / "__init__.py").write_text(
        f'"""The tribes.v1 API messages and stubs, generated for {name}."""\n'
    )


def generate_plugins(root: pathlib.Path = ROOT / "tests") -> list[str]:
    """Plugin games' messages, each next to its .proto (importable from the root)."""
    sources = sorted(str(p.relative_to(ROOT)) for p in root.rglob("*.proto"))
    if sources:
        _protoc(ROOT, ROOT, sources)
    return sources


def main() -> int:
    generate_service()
    generate_client(PROTOS, ROOT / "clients" / "tribes_client")
    plugins = generate_plugins()
    print(
        f"generated {len(_api_sources(PROTOS))} API proto files into service/tribes/v1 and "
        f"clients/tribes_client/v1, and {len(plugins)} plugin proto files"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())

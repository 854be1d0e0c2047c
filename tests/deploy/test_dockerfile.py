"""The Dockerfile: hadolint passes, and its steps, performed on this machine, make a server.

This machine has no Docker engine, so ``deploy/scripts/dockerfile_smoke.py`` performs the
Dockerfile's COPY/RUN/ENV steps in a temporary root (a venv stands for the image) and starts
the ENTRYPOINT; health, the generated stubs, /metrics and SIGTERM are checked against it.
"""

from __future__ import annotations

import importlib.util
import re
import sys
from pathlib import Path
from types import ModuleType

import pytest

from tests.deploy.support import DEPLOY, K8S, documents, run, tool
from tests.support.parts import debian_has, missing_part

DOCKERFILE = DEPLOY / "Dockerfile"
SMOKE = DEPLOY / "scripts" / "dockerfile_smoke.py"


def smoke_module() -> ModuleType:
    spec = importlib.util.spec_from_file_location("dockerfile_smoke", SMOKE)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["dockerfile_smoke"] = module  # dataclasses look their module up
    spec.loader.exec_module(module)
    return module


def test_hadolint_finds_nothing_in_the_dockerfile() -> None:
    """hadolint, at its default threshold (every level fails), reports no finding."""
    result = run(tool("hadolint"), str(DOCKERFILE))
    assert result.returncode == 0, result.stdout + result.stderr
    assert result.stdout.strip() == ""


def test_hadolint_reports_a_known_bad_practice(tmp_path: Path) -> None:
    """The same check fails on a Dockerfile with an unpinned base and a root user."""
    bad = tmp_path / "Dockerfile"
    bad.write_text("FROM python:latest\nRUN pip install grpcio\nUSER root\n")
    result = run(tool("hadolint"), str(bad))
    assert result.returncode != 0
    assert "DL3007" in result.stdout  # the :latest tag


def test_image_ports_are_the_ones_the_manifests_use() -> None:
    """EXPOSE and the ENV ports of the image are the Deployment's container ports."""
    text = DOCKERFILE.read_text()
    exposed = {int(p) for p in re.search(r"^EXPOSE (.+)$", text, re.M).group(1).split()}  # type: ignore[union-attr]
    env = dict(re.findall(r"(TRIBES_\w*PORT)=(\d+)", text))
    (deployment,) = documents(K8S / "base" / "deployment.yaml")
    (container,) = deployment["spec"]["template"]["spec"]["containers"]
    ports = {p["name"]: p["containerPort"] for p in container["ports"]}
    assert exposed == set(ports.values())
    assert int(env["TRIBES_PORT"]) == ports["grpc"]
    assert int(env["TRIBES_HTTP_PORT"]) == ports["http"]
    assert int(env["TRIBES_METRICS_PORT"]) == ports["metrics"]


def test_smoke_parser_joins_continued_lines_and_keeps_order() -> None:
    """The smoke script reads the Dockerfile as Docker does: one instruction per step."""
    smoke = smoke_module()
    steps = smoke.parse(DOCKERFILE.read_text())
    keywords = [step.keyword for step in steps]
    assert keywords.count("FROM") == 2 and keywords[-1] == "ENTRYPOINT"
    runs = [s for s in steps[: keywords.index("FROM", 1)] if s.keyword == "RUN"]
    (build_run,) = [s for s in runs if "gen_protos.py" in s.args]
    assert "build_native.py" in build_run.args and "\\" not in build_run.args
    assert runs[0].args.startswith("apt-get update") and "\\" not in runs[0].args


def test_smoke_moves_image_paths_under_its_root_and_keeps_system_paths(tmp_path: Path) -> None:
    """/opt/... goes under the temporary root; /usr/... and relative paths stay as written."""
    smoke = smoke_module()
    image = smoke.Image(root=tmp_path, context=tmp_path, ignore=[], env={})
    rewritten = image.rewrite("/opt/tribes/bin/pip install '.[fast]' --prefix=/usr/local x/y")
    assert rewritten == f"{tmp_path}/opt/tribes/bin/pip install '.[fast]' --prefix=/usr/local x/y"
    assert image.expand(image.rewrite("PATH=/opt/v/bin:$HOME")).startswith(f"PATH={tmp_path}/opt")


def test_smoke_copies_what_the_dockerignore_lets_through() -> None:
    """Generated code and caches stay out of the build context; sources go in."""
    smoke = smoke_module()
    patterns = smoke.ignore_patterns()
    assert patterns, "deploy/Dockerfile.dockerignore is read"
    for kept in ("service/tribes/server.py", "protos/tribes/v1/common.proto", "pyproject.toml"):
        assert not smoke.is_ignored(kept, patterns), kept
    for dropped in ("service/tribes/v1", "service/tribes/__pycache__", "clients/x.egg-info"):
        assert smoke.is_ignored(dropped, patterns), dropped
    # a pattern without **/ names a path from the context root only
    assert smoke.is_ignored(".venv", patterns) and not smoke.is_ignored("service/.venv", patterns)


def test_dockerfile_steps_build_a_server_that_serves(redis_url: str, redis_prefix: str) -> None:
    """The smoke script builds the venv from the Dockerfile, starts it, finds it SERVING."""
    result = run(
        sys.executable,
        str(SMOKE),
        "--redis-url",
        redis_url,
        "--redis-prefix",
        redis_prefix,
        timeout=900,
    )
    output = result.stdout + result.stderr
    if result.returncode == smoke_module().CANNOT_STAND_IN:
        # the Dockerfile's pythonX.Y: make test installs Debian's where Debian has it
        version = smoke_module().image_python(DOCKERFILE.read_text())
        wanted = f"python{version}-venv" if version else ""
        missing_part(output.strip().splitlines()[-1], installable=debian_has(wanted))
    assert result.returncode == 0, output[-4000:]
    assert "health tribes.v1.GameService: SERVING" in output
    assert re.search(r"^game types: .*\bfive_tribes\b", output, re.M)  # the stubs installed
    assert "SIGTERM: exit status 0" in output
    assert "dockerfile smoke: passed" in output


def test_the_dockerfiles_python_is_also_found_among_pyenvs_versions(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A pythonX.Y that is not on PATH but installed by pyenv stands in for the image's
    (so the smoke runs instead of skipping); the newest patch release wins."""
    smoke = smoke_module()
    for patch in ("2", "10", "9"):
        bin_dir = tmp_path / "versions" / f"3.99.{patch}" / "bin"
        bin_dir.mkdir(parents=True)
        (bin_dir / "python3.99").symlink_to(sys.executable)
    (tmp_path / "versions" / "3.99.x" / "bin").mkdir(parents=True)  # not a release: ignored
    monkeypatch.setenv("PYENV_ROOT", str(tmp_path))
    assert smoke.pyenv_python("3.99") == str(tmp_path / "versions/3.99.10/bin/python3.99")
    assert smoke.pyenv_python("3.98") is None

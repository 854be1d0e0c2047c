"""Perform deploy/Dockerfile's steps on this machine, without Docker, and start the result.

The machines this project is built and tested on have the docker CLI but no engine, so
``docker build`` cannot run. This script reads the Dockerfile and carries out its
instructions in order inside a temporary directory that stands for the image's root
filesystem (one root for every stage: a ``COPY --from`` of a path to the same path is then
already done, as it is in the image):

- ``FROM python:X.Y-...``: the machine's ``pythonX.Y`` stands in for the base image's Python
  (``python`` in RUN lines means it);
- ``WORKDIR``, ``COPY`` (honouring ``Dockerfile.dockerignore``), ``RUN`` (bash, in the
  working directory) and ``ENV``, with every absolute path outside the system's own
  directories moved under the temporary root (``/opt/tribes`` becomes ``<root>/opt/tribes``);
- steps that would change this machine rather than an image (creating users and groups,
  installing the base image's Debian packages: this machine has its own C compiler) are
  skipped and listed; ``USER`` is checked instead: everything the runtime stage copied must
  be readable by a user other than its owner.

Then it starts ``ENTRYPOINT`` with the image's environment, on loopback and free ports
(the image listens on 0.0.0.0 and fixed ports), and with the image's own interpreter asks
gRPC health for "" and ``tribes.v1.GameService`` (both must be SERVING), lists the game
types through the installed generated stubs, checks that the compiled hot modules run
(``tribes.native``; where this machine has gcc, as the build stage has), scrapes
``/metrics``, sends SIGTERM and expects exit status 0. Exit status: 0 when all of that
held, 77 when this machine has no ``pythonX.Y`` for the base image, 1 otherwise.

    python3 deploy/scripts/dockerfile_smoke.py [--redis-url URL --redis-prefix P] [--keep]
"""

from __future__ import annotations

import argparse
import fnmatch
import os
import re
import shlex
import shutil
import signal
import socket
import stat
import subprocess
import sys
import tempfile
import time
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
DOCKERFILE = ROOT / "deploy" / "Dockerfile"
# Absolute paths under these stay as they are: they are the base image's (and this
# machine's) system directories, not places the Dockerfile builds into.
SYSTEM_DIRS = {"bin", "sbin", "usr", "etc", "lib", "lib64", "dev", "proc", "sys", "tmp", "var"}
# (the base image's packages: this machine has its own C compiler, and its apt lists stay)
CHANGES_THE_MACHINE = re.compile(
    r"^\s*(useradd|groupadd|adduser|addgroup|apt-get|rm -rf /var/lib/apt/lists/)(\s|\*|$)"
)
ABSOLUTE_PATH = re.compile(r"(?<![\w$.~/-])/[A-Za-z][\w.+-]*(?:/[\w.+-]*)*")
HEALTH_CHECK = """
import sys, grpc
from grpc_health.v1 import health_pb2, health_pb2_grpc
from tribes.v1 import game_service_pb2, game_service_pb2_grpc
with grpc.insecure_channel(sys.argv[1]) as channel:
    grpc.channel_ready_future(channel).result(timeout=30)
    health = health_pb2_grpc.HealthStub(channel)
    for service in ("", "tribes.v1.GameService"):
        status = health.Check(health_pb2.HealthCheckRequest(service=service), timeout=10).status
        name = health_pb2.HealthCheckResponse.ServingStatus.Name(status)
        print(f"health {service or '(server)'}: {name}")
        if status != health_pb2.HealthCheckResponse.SERVING:
            sys.exit(1)
    games = game_service_pb2_grpc.GameServiceStub(channel).ListGameTypes(
        game_service_pb2.ListGameTypesRequest(), timeout=10)
    print("game types:", ", ".join(g.id for g in games.game_types))
    if not games.game_types:
        sys.exit(1)
import shutil, tribes.native
print("compiled hot modules:", "yes" if tribes.native.active() else "no")
if shutil.which("gcc") and not tribes.native.active():
    sys.exit(1)  # the build stage has a compiler, so the image runs its compiled modules
"""


# exit status when this machine lacks what stands in for the base image (as automake's
# "skip"): the caller may skip rather than fail
CANNOT_STAND_IN = 77


class CannotStandIn(Exception):
    """This machine has nothing to stand in for the Dockerfile's base image."""


@dataclass
class Instruction:
    line: int
    keyword: str
    args: str


@dataclass
class Image:
    """What the steps so far have built: the root, the environment, the start command."""

    root: Path
    context: Path
    ignore: list[str]
    env: dict[str, str]
    workdir: str = "/"
    user: str = ""
    entrypoint: list[str] = field(default_factory=list)
    cmd: list[str] = field(default_factory=list)
    skipped: list[str] = field(default_factory=list)

    def path(self, image_path: str) -> Path:
        """Where an absolute path of the image lives on this machine."""
        absolute = os.path.normpath(os.path.join(self.workdir, image_path))
        first = absolute.strip("/").split("/", 1)[0]
        if first in SYSTEM_DIRS:
            return Path(absolute)
        return self.root / absolute.lstrip("/")

    def rewrite(self, text: str) -> str:
        return ABSOLUTE_PATH.sub(lambda m: str(self.path(m.group(0))), text)

    def expand(self, text: str) -> str:
        return re.sub(
            r"\$\{?(\w+)\}?",
            lambda m: self.env.get(m.group(1), os.environ.get(m.group(1), "")),
            text,
        )


def parse(text: str) -> list[Instruction]:
    """Instructions with continuation lines joined and comments dropped."""
    out: list[Instruction] = []
    pending, start = "", 0
    for number, raw in enumerate(text.splitlines(), 1):
        stripped = raw.strip()
        if not pending and (not stripped or stripped.startswith("#")):
            continue
        if pending and stripped.startswith("#"):
            continue
        if not pending:
            start = number
        if stripped.endswith("\\"):
            pending += stripped[:-1] + " "
            continue
        full = (pending + stripped).strip()
        pending = ""
        keyword, _, args = full.partition(" ")
        out.append(Instruction(start, keyword.upper(), args.strip()))
    return out


def ignore_patterns() -> list[str]:
    """BuildKit reads <Dockerfile>.dockerignore next to the Dockerfile first."""
    for candidate in (
        DOCKERFILE.with_name(DOCKERFILE.name + ".dockerignore"),
        ROOT / ".dockerignore",
    ):
        if candidate.exists():
            lines = candidate.read_text().splitlines()
            return [ln.strip() for ln in lines if ln.strip() and not ln.startswith("#")]
    return []


def is_ignored(relative: str, patterns: list[str]) -> bool:
    """Docker's rule: a pattern names a path from the context root; `**/` any depth.

    (A matched directory is not descended into, so its contents go with it.)
    """
    parts = relative.split("/")
    for pattern in patterns:
        if pattern.startswith("**/"):
            bare = pattern.removeprefix("**/")
            if any(fnmatch.fnmatch("/".join(parts[i:]), bare) for i in range(len(parts))):
                return True
        elif fnmatch.fnmatch(relative, pattern.strip("/")):
            return True
    return False


def copy_tree(source: Path, target: Path, base: Path, patterns: list[str]) -> None:
    if source.is_dir():
        target.mkdir(parents=True, exist_ok=True)
        for child in sorted(source.iterdir()):
            if not is_ignored(str(child.relative_to(base)), patterns):
                copy_tree(child, target / child.name, base, patterns)
    else:
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(source, target)


def pyenv_python(version: str) -> str | None:
    """``pythonX.Y`` from pyenv's versions (``$PYENV_ROOT``, else ~/.pyenv) when it is not
    on PATH: the newest patch release installed there, or None."""
    root = Path(os.environ.get("PYENV_ROOT") or Path.home() / ".pyenv")
    found = [
        (int(patch), path)
        for path in (root / "versions").glob(f"{version}.*/bin/python{version}")
        if (patch := path.parents[1].name.removeprefix(f"{version}.")).isdigit()
        and os.access(path, os.X_OK)
    ]
    return str(max(found)[1]) if found else None


def base_python(base: str) -> str | None:
    """The X.Y of a ``python:X.Y...`` base image, else None."""
    match = re.match(r"python:(\d+\.\d+)", base)
    return match.group(1) if match else None


def image_python(text: str) -> str | None:
    """The X.Y of a Dockerfile's first ``FROM python:X.Y...``, else None."""
    froms = [i.args.split()[0] for i in parse(text) if i.keyword == "FROM" and i.args]
    return base_python(froms[0]) if froms else None


def step_from(image: Image, args: str) -> None:
    base = args.split()[0]
    version = base_python(base)
    if version is None:
        raise SystemExit(f"FROM {base}: only python:X.Y bases can be stood in for here")
    found = shutil.which(f"python{version}") or pyenv_python(version)
    if found is None:
        raise CannotStandIn(f"FROM {base}: python{version} is not installed on this machine")
    real = subprocess.run(
        [found, "-c", "import os, sys; print(os.path.realpath(sys._base_executable))"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout.strip()
    shims = image.root.parent / "shims"
    shims.mkdir(exist_ok=True)
    for name in ("python", "python3"):
        link = shims / name
        if not link.exists():
            link.symlink_to(real)


def step_copy(image: Image, args: str) -> None:
    words = shlex.split(args)
    flags = [w for w in words if w.startswith("--")]
    paths = [w for w in words if not w.startswith("--")]
    *sources, destination = paths
    from_stage = any(f.startswith("--from=") for f in flags)
    target = image.path(destination)
    for source in sources:
        if from_stage:
            origin = image.path(source)
            if origin == target:
                print(f"    {source}: the same path in the shared root, already in place")
                continue
            copy_tree(origin, target, origin.parent, [])
            continue
        origin = image.context / source
        into = target / origin.name if destination.endswith("/") and origin.is_file() else target
        copy_tree(origin, into, image.context, image.ignore)


def step_env(image: Image, args: str) -> None:
    words = shlex.split(args)
    if words and "=" not in words[0]:  # legacy `ENV NAME value`
        words = [f"{words[0]}={' '.join(words[1:])}"]
    for word in words:
        name, _, value = word.partition("=")
        # paths first: an expanded $PATH holds this machine's own absolute paths
        image.env[name] = image.expand(image.rewrite(value))


def step_run(image: Image, args: str) -> None:
    commands = [c for c in re.split(r"\s*&&\s*", args) if c]
    kept: list[str] = []
    for command in commands:
        if CHANGES_THE_MACHINE.match(command):
            image.skipped.append(command.strip())
            print(f"    skipped (would change this machine): {command.strip()}")
        else:
            kept.append(image.rewrite(command))
    if not kept:
        return
    cwd = image.path(image.workdir)
    cwd.mkdir(parents=True, exist_ok=True)
    env = dict(image.env)
    env["PATH"] = f"{image.root.parent / 'shims'}{os.pathsep}{env['PATH']}"
    subprocess.run(
        ["bash", "-euo", "pipefail", "-c", " && ".join(kept)], cwd=cwd, env=env, check=True
    )


def check_user_can_read(image: Image, copied: list[Path]) -> None:
    """The image's USER is not the owner of what COPY brought in: others must read it."""
    for top in copied:
        for dirpath, dirnames, filenames in os.walk(top):
            for name in [*dirnames, *filenames]:
                path = Path(dirpath, name)
                mode = path.lstat().st_mode
                if stat.S_ISLNK(mode):
                    continue
                need = stat.S_IROTH | (stat.S_IXOTH if stat.S_ISDIR(mode) else 0)
                if mode & need != need:
                    raise SystemExit(f"USER {image.user}: cannot read {path}")
    print(f"    USER {image.user}: everything the runtime stage copied is readable by others")


def build(image: Image, instructions: list[Instruction]) -> None:
    final_copies: list[Path] = []
    for number, step in enumerate(instructions, 1):
        print(f"step {number}/{len(instructions)} (line {step.line}): {step.keyword} {step.args}")
        began = time.monotonic()
        if step.keyword == "FROM":
            step_from(image, step.args)
            image.workdir = "/"
            final_copies = []
            image.entrypoint, image.cmd = [], []  # a new stage starts from its base
        elif step.keyword == "WORKDIR":
            image.workdir = os.path.join(image.workdir, step.args)
            image.path(image.workdir).mkdir(parents=True, exist_ok=True)
        elif step.keyword == "COPY":
            step_copy(image, step.args)
            final_copies.append(image.path(shlex.split(step.args)[-1]))
        elif step.keyword == "ENV":
            step_env(image, step.args)
        elif step.keyword == "RUN":
            step_run(image, step.args)
        elif step.keyword == "USER":
            image.user = step.args
            check_user_can_read(image, final_copies)
        elif step.keyword == "ENTRYPOINT":
            image.entrypoint = _exec_form(step.args)
        elif step.keyword == "CMD":
            image.cmd = _exec_form(step.args)
        elif step.keyword in ("EXPOSE", "LABEL", "ARG", "HEALTHCHECK", "STOPSIGNAL"):
            pass  # metadata: nothing to perform
        else:
            raise SystemExit(f"line {step.line}: {step.keyword} is not supported by this script")
        print(f"    done in {time.monotonic() - began:.1f}s")


def _exec_form(args: str) -> list[str]:
    import json

    value = json.loads(args) if args.startswith("[") else shlex.split(args)
    return [str(v) for v in value]


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def start_and_check(image: Image, redis_url: str | None, redis_prefix: str) -> int:
    ports = {"TRIBES_PORT": free_port(), "TRIBES_METRICS_PORT": free_port()}
    ports["TRIBES_HTTP_PORT"] = free_port()
    env = {**image.env, **{k: str(v) for k, v in ports.items()}}
    env.update(TRIBES_HOST="127.0.0.1", TRIBES_HTTP_HOST="127.0.0.1")
    env.update(TRIBES_TOKEN_SECRET=os.urandom(16).hex(), HOME=str(image.root.parent))
    if redis_url:
        env.update(REDIS_URL=redis_url, TRIBES_REDIS_PREFIX=redis_prefix)
    # Docker's rule: CMD gives ENTRYPOINT its arguments, or is the command without one
    command = [*image.entrypoint, *image.cmd]
    if not command:
        print("neither ENTRYPOINT nor CMD: nothing to start")
        return 1
    program = shutil.which(command[0], path=env["PATH"])
    if program is None:
        print(f"{command[0]} is not on the image's PATH")
        return 1
    print(
        f"start: {program} (loopback, ports {ports}, store: {'Redis' if redis_url else 'embedded'})"
    )
    log_path = image.root.parent / "server.log"
    log_file = log_path.open("wb")  # a file, not a pipe: a chatty server never blocks on it
    proc = subprocess.Popen(
        [program, *command[1:]], env=env, cwd=image.root.parent, stderr=log_file
    )
    try:
        # the image's own interpreter (first on its PATH), so the check uses what it installed
        python = shutil.which("python", path=env["PATH"]) or "python"
        target = f"127.0.0.1:{ports['TRIBES_PORT']}"
        checked = subprocess.run(
            [python, "-c", HEALTH_CHECK, target], env=env, cwd=image.root.parent, timeout=60
        )
        if checked.returncode != 0:
            print("health check failed")
            return 1
        url = f"http://127.0.0.1:{ports['TRIBES_METRICS_PORT']}/metrics"
        with urllib.request.urlopen(url, timeout=10) as response:
            families = [
                ln for ln in response.read().decode().splitlines() if ln.startswith("# TYPE")
            ]
        print(f"metrics: {len(families)} families at {url}")
        if not families:
            return 1
        proc.send_signal(signal.SIGTERM)
        code = proc.wait(timeout=30)
        print(f"SIGTERM: exit status {code}")
        return 0 if code == 0 else 1
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        log_file.close()
        log = log_path.read_text(errors="replace").splitlines()
        print("server log (last lines):\n" + "\n".join("    " + ln for ln in log[-20:]))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--redis-url", help="serve on this Redis (default: the embedded store)")
    parser.add_argument("--redis-prefix", default="tribes-smoke")
    parser.add_argument("--keep", action="store_true", help="keep the temporary root")
    args = parser.parse_args(argv)
    workspace = Path(tempfile.mkdtemp(prefix="tribes-image."))
    # the image's USER is not the owner: let others traverse, as in an image's /opt
    workspace.chmod(0o755)
    env = {
        k: v for k, v in os.environ.items() if k not in ("VIRTUAL_ENV", "PYTHONPATH", "PYTHONHOME")
    }
    image = Image(root=workspace / "root", context=ROOT, ignore=ignore_patterns(), env=env)
    image.root.mkdir(mode=0o755)
    try:
        try:
            build(image, parse(DOCKERFILE.read_text()))
        except CannotStandIn as missing:
            print(f"dockerfile smoke: cannot run here: {missing}")
            return CANNOT_STAND_IN
        if image.skipped:
            print("skipped steps (they change this machine, not the image):")
            for command in image.skipped:
                print(f"    {command}")
        status = start_and_check(image, args.redis_url, args.redis_prefix)
    finally:
        if args.keep:
            print(f"kept {workspace}")
        else:
            shutil.rmtree(workspace, ignore_errors=True)
    print("dockerfile smoke: " + ("passed" if status == 0 else "FAILED"))
    return status


if __name__ == "__main__":
    sys.exit(main())

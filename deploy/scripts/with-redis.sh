#!/usr/bin/env bash
# Run a command with a Redis server to test against.
#
# Uses TRIBES_TEST_REDIS_URL (default redis://127.0.0.1:6379/0) when a server answers
# there; otherwise starts a throwaway redis-server on a free loopback port (no
# persistence, its own temp dir), exports its URL, and stops it afterwards. Tests
# keep to their own key prefix, so a shared server is never flushed.
set -euo pipefail

PY="${PY:-.venv/bin/python}"
url="${TRIBES_TEST_REDIS_URL:-redis://127.0.0.1:6379/0}"

answers() {
  "$PY" - "$1" <<'PYCODE' >/dev/null 2>&1
import sys, redis
redis.Redis.from_url(sys.argv[1], socket_connect_timeout=1, socket_timeout=2).ping()
PYCODE
}

if answers "$url"; then
  export TRIBES_TEST_REDIS_URL="$url"
  exec "$@"
fi

if ! command -v redis-server >/dev/null 2>&1; then
  echo "with-redis: no Redis answers at $url and redis-server is not installed; installing it" >&2
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
    apt-get install -y -qq redis-server >/dev/null || { apt-get update -qq && apt-get install -y -qq redis-server; }
  else
    echo "with-redis: install redis-server (e.g. 'apt-get install redis-server' or 'brew install redis')" >&2
    exit 1
  fi
fi

dir="$(mktemp -d "${TMPDIR:-/tmp}/tribes-redis.XXXXXX")"
port="$("$PY" -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')"
redis-server --bind 127.0.0.1 --port "$port" --save "" --appendonly no --dir "$dir" \
  --daemonize yes --pidfile "$dir/redis.pid" --logfile "$dir/redis.log"
cleanup() {
  if [ -f "$dir/redis.pid" ]; then kill "$(cat "$dir/redis.pid")" 2>/dev/null || true; fi
  sleep 0.2
  rm -rf "$dir"
}
trap cleanup EXIT INT TERM
export TRIBES_TEST_REDIS_URL="redis://127.0.0.1:$port/0"
for _ in $(seq 1 50); do answers "$TRIBES_TEST_REDIS_URL" && break; sleep 0.1; done
echo "with-redis: started a throwaway redis-server at $TRIBES_TEST_REDIS_URL" >&2
"$@"

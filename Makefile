# tribes: one Makefile for developers and CI. `make run` serves, `make test` checks.
# Every target installs what it needs first (a local .venv, generated protobuf code).

PYTHON ?= python3
VENV   ?= .venv
PY     := $(VENV)/bin/python
STAMP  := .make
PROTOS := $(shell find protos tests -name '*.proto' 2>/dev/null)
GEN    := service/tribes/v1/.generated
# the sources of the modules tribes.native compiles (its MODULES)
NATIVE := $(shell sed -n 's/^    "tribes\.\([a-z_.]*\)",$$/\1/p' service/tribes/native.py \
            | sed 's|\.|/|g; s|^|service/tribes/|; s|$$|.py|')

.PHONY: install protos game-protos run test soak lint format bench clean

install: $(STAMP)/installed $(GEN) $(STAMP)/native

$(STAMP)/installed: pyproject.toml clients/pyproject.toml
	@mkdir -p $(STAMP)
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e ./clients -e '.[dev,fast]'
	@touch $@

protos: $(GEN)

$(GEN): $(STAMP)/installed $(PROTOS) deploy/scripts/gen_protos.py
	$(PY) deploy/scripts/gen_protos.py
	@touch $@

# the hot modules as C extensions (mypyc); a machine without a compiler keeps the pure ones
$(STAMP)/native: $(GEN) service/tribes/native.py deploy/scripts/build_native.py $(NATIVE)
	$(PY) deploy/scripts/build_native.py pyproject.toml
	@touch $@

# the .proto of each game whose wire is derived from its dataclasses (tribes.wire.auto)
game-protos: install
	$(PY) -m tribes.wire.protogen tribes.games.tribes_early_civilization TribesEarlyCivilization protos/tribes/v1/tribes_early_civilization.proto
	$(PY) -m tribes.wire.protogen tribes.games.rise_of_tribes RiseOfTribes protos/tribes/v1/rise_of_tribes.proto

run: install
	$(PY) -m tribes

# both cores; a worker that runs out of tests takes some of the other's (README "Tests")
XDIST = -n 2 --dist worksteal

test: install $(STAMP)/tools
	deploy/scripts/with-redis.sh $(PY) -m pytest $(XDIST) $(PYTEST_ARGS)

# the validators tests/deploy runs (promtool, hadolint, kubernetes-validate, compose)
$(STAMP)/tools: $(STAMP)/installed deploy/scripts/install-tools.sh deploy/scripts/tools-requirements.txt
	PY=$(PY) deploy/scripts/install-tools.sh
	@touch $@

soak: install
	deploy/scripts/with-redis.sh $(PY) -m pytest $(XDIST) -m soak --run-soak $(PYTEST_ARGS)

lint: install
	$(VENV)/bin/ruff check service clients tests
	$(VENV)/bin/ruff format --check service clients tests
	$(VENV)/bin/mypy service/tribes clients/tribes_client
	$(VENV)/bin/lint-imports

format: install
	$(VENV)/bin/ruff check --fix service clients tests
	$(VENV)/bin/ruff format service clients tests

bench: install
	$(PY) -m tests.bench.bench $(BENCH_ARGS)

clean:
	test ! -x $(PY) || $(PY) deploy/scripts/build_native.py --clean
	rm -rf $(STAMP) service/tribes/v1 .pytest_cache .mypy_cache .ruff_cache

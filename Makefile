# `make test` and `make demo` set themselves up on first use: a local .venv with the project installed.
PYTHON ?= python3
# Some machines set PYTHONDONTWRITEBYTECODE: then every `asv` process the tests, the demo and
# the benchmarks start compiles the whole project again (about 0.2 s of CPU each). The bytecode
# goes to the __pycache__ folders git ignores.
unexport PYTHONDONTWRITEBYTECODE
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: test check lint demo bench strength clean lock vectors

LOCK := requirements.lock

# Every dependency (runtime, test, lint, and setuptools to build the project) at the version and
# sha256 that requirements.lock pins (SPEC §30.1); then the project itself, editable, with none.
# setup.py and the C source: the install compiles the optional native extension (SPEC §25.13)
$(STAMP): $(LOCK) pyproject.toml setup.py protocol/crypto/_ristretto_native.c
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install -q --require-hashes -r $(LOCK)
	$(BIN)/pip install -q --no-deps --no-build-isolation -e .
	touch $(STAMP)

# Re-resolve requirements.lock from pyproject.toml (its dependencies, every extra, the build's)
# with pip-tools run from a throwaway venv, so the tool is no dependency of the project. Pins
# still allowed are kept; `make lock LOCK_FLAGS=--upgrade` moves every pin to its newest release.
PIP_TOOLS ?= pip-tools==7.6.2
LOCK_FLAGS ?=
lock:
	tmp=$$(mktemp -d) && trap 'rm -rf "$$tmp"' EXIT && \
	$(PYTHON) -m venv "$$tmp" && "$$tmp/bin/pip" install -q '$(PIP_TOOLS)' && \
	CUSTOM_COMPILE_COMMAND='make lock' "$$tmp/bin/pip-compile" --quiet $(LOCK_FLAGS) \
	  --generate-hashes --allow-unsafe --strip-extras --all-build-deps --all-extras \
	  --no-emit-index-url --no-emit-find-links --output-file $(LOCK) pyproject.toml

# the suite in two pytest processes side by side, one a core (tests/run_parts.py)
test: $(STAMP)
	$(BIN)/python tests/run_parts.py

# the fast lane: everything but the end-to-end tests (marker e2e: asv processes, whole
# networked games), in two parts the same way; about a minute (SPEC §35.4)
check: $(STAMP)
	$(BIN)/python tests/run_parts.py -m "not e2e"

# static checks, configured in pyproject.toml (SPEC §35.6): ruff (pyflakes, pycodestyle), mypy
lint: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/mypy

# the test vectors of SPEC §36 (tests/vectors/), written again from their fixed seeds in a few
# seconds; run after a change to a log, event, proof or rules format, and commit the result
vectors: $(STAMP)
	ASV_NO_FSYNC=1 $(BIN)/python -m tests.vectors.make_vectors

demo: $(STAMP)
	$(BIN)/asv demo --players 4

# every script in benchmarks/ but the two modules the others import (a worker process and the
# reference verifiers), which are no benchmarks of their own
BENCH_MODULES := benchmarks/verify_worker.py benchmarks/verify_reference.py
bench: $(STAMP)
	for script in $(filter-out $(BENCH_MODULES),$(wildcard benchmarks/*.py)); do \
	  echo "== $$script"; $(BIN)/python $$script || exit 1; done

# Issue 11's strength measure at 1 s a move (hours of CPU): two low-priority processes, one a
# core, share the games of the 4-player line and then of the 2-player one, each claiming its
# next game beside the ledger, so both cores stay busy to the end; the ledger skips games this
# bot already played, so it can be stopped and run again. STRENGTH_THINK=0.2 measures the
# 0.2 s lines the same way, in a ledger of their own (benchmarks/results/search_strength_0.2s.jsonl).
STRENGTH_THINK ?= 1.0
STRENGTH_LEDGER ?= benchmarks/results/search_strength_$(STRENGTH_THINK:1.0=1)s.jsonl
STRENGTH_OPPONENTS ?= greedy
STRENGTH_GAMES ?= 200
STRENGTH_PLAYERS ?= 4,2
strength: $(STAMP)
	trap "kill 0" INT TERM; for core in 1 2; do \
	  nice -n 19 $(BIN)/python benchmarks/search_strength.py --players $(STRENGTH_PLAYERS) --think $(STRENGTH_THINK) \
	    --seed 1000 --games $(STRENGTH_GAMES) \
	    --opponents $(STRENGTH_OPPONENTS) --ledger $(STRENGTH_LEDGER) --verbose & \
	done; wait
	$(BIN)/python benchmarks/search_strength.py --ledger $(STRENGTH_LEDGER) --report

clean:
	rm -rf $(VENV) .pytest_cache .hypothesis .mypy_cache .ruff_cache

# `make test` and `make demo` set themselves up on first use: a local .venv with the project installed.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: test demo bench strength clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install -q --upgrade pip
	$(BIN)/pip install -q -e '.[test]'
	touch $(STAMP)

# the suite in two pytest processes side by side, one a core (tests/run_parts.py)
test: $(STAMP)
	$(BIN)/python tests/run_parts.py

demo: $(STAMP)
	$(BIN)/asv demo --players 4

bench: $(STAMP)
	for script in benchmarks/*.py; do echo "== $$script"; $(BIN)/python $$script || exit 1; done

# Issue 11's strength measure at 1 s a move (hours of CPU): two low-priority processes, 4 and 2
# players; the ledger skips games this bot already played, so it can be stopped and run again.
STRENGTH_LEDGER ?= benchmarks/results/search_strength_1s.jsonl
STRENGTH_OPPONENTS ?= greedy
STRENGTH_GAMES ?= 200
strength: $(STAMP)
	trap "kill 0" INT TERM; for players in 4 2; do \
	  nice -n 19 $(BIN)/python benchmarks/search_strength.py --players $$players --think 1.0 --seed 1000 \
	    --opponents $(STRENGTH_OPPONENTS) --games $(STRENGTH_GAMES) --ledger $(STRENGTH_LEDGER) --verbose & \
	done; wait
	$(BIN)/python benchmarks/search_strength.py --ledger $(STRENGTH_LEDGER) --report

clean:
	rm -rf $(VENV) .pytest_cache .hypothesis

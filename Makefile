# sim — Monte Carlo balance analysis for tabletop games.
# Everything installs into .venv from this repo's own files; numba's cache lives in build/.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
export SIM_CACHE_DIR := $(CURDIR)/build/numba-cache
export PYTHONWARNINGS := ignore::UserWarning:numba.core.utils
# Python writes each module's bytecode on its first import (some machines set PYTHONDONTWRITEBYTECODE, which makes
# every process compile every module it imports again), so the install need not compile all of site-packages.
export PYTHONDONTWRITEBYTECODE :=

.PHONY: install run test bench report examples warm lint clean

install: $(STAMP)

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet --no-compile -e '.[test]'
	touch $(STAMP)

# The main job on the embedded default: 100,000 four-player Straw games with the default strategy.
run: install
	$(BIN)/sim run straw --n 100000 --players 4 --seed 1

test: install
	$(BIN)/sim warm --jobs 2
	$(BIN)/python -m pytest -n 2 --dist worksteal

bench: install
	$(BIN)/python -m benchmarks.run

# A sample report: Straw's seat counts compared, written to reports/out/straw-players.html.
report: install
	$(BIN)/sim compare straw --players 2,3,4,5,6 --n 100000 --html reports/out/straw-players.html

# Small example reports, one per game plus a compare, a sweep and a tournament (fixed seeds), in docs/examples/.
examples: install
	$(BIN)/python -m reports.examples docs/examples

lint: install
	$(BIN)/python -m pip install --quiet ruff
	$(BIN)/ruff check --select E,F,W --line-length 120 sim strategies analysis reports benchmarks tests

# Compile every kernel once so later runs start from the cache.
warm: install
	$(BIN)/sim warm

clean:
	rm -rf build runs .pytest_cache

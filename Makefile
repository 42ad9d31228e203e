# Every target bootstraps .venv by itself; `make setup` does only that, idempotently.
PY ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: setup test lint run bench clean

setup: $(STAMP)

$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PY) -m venv $(VENV)
	$(BIN)/python -m pip install -q --upgrade pip
	$(BIN)/pip install -q torch==2.13.0
	$(BIN)/pip install -q -e '.[dev,local]'
	touch $(STAMP)

lint: setup
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/mypy flows tools verifier agent data

test: lint
	$(BIN)/pytest -n 2 --dist loadfile

run: setup
	$(BIN)/nightdesk run --data data/sample --provider offline

bench: setup
	$(BIN)/python -m tests.bench

clean:
	rm -rf $(VENV) .pytest_cache .ruff_cache .mypy_cache

# Every target bootstraps .venv by itself; `make setup` does only that, idempotently.
PY ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: setup test lint run demo-real bench clean

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

REALDATA ?= $(or $(NIGHTDESK_REALDATA),../shared/realdata)
REAL_OUT := .nightdesk/realdata

# Import the real data sets (prices, actions, companies, tweets) with the demo holdings, then report on them.
demo-real: setup
	$(BIN)/nightdesk data import --out $(REAL_OUT) --overwrite \
		--prices $(REALDATA)/stocknet/prices --prices $(REALDATA)/zipline-csvdir \
		--companies $(REALDATA)/stocknet/companies.tsv \
		--news $(REALDATA)/stocknet/tweets-2015q4.jsonl --holdings data/demo/holdings.csv
	$(BIN)/nightdesk data check $(REAL_OUT)
	$(BIN)/nightdesk run --data $(REAL_OUT) --date 2015-12-08 --provider offline

# Benchmarks print measured numbers; speed goals live here, not in the unit tests.
bench: setup
	for script in tests/bench/bench_*.py; do echo "== $$script"; $(BIN)/python $$script || exit 1; done

clean:
	rm -rf $(VENV) .pytest_cache .ruff_cache .mypy_cache

# Every target bootstraps what it needs by itself; `make setup` does only the environment.
# .venv holds exactly requirements.lock (uv, hashes checked); `make lock` refreshes the lock.
# Bytecode is compiled at install: where PYTHONDONTWRITEBYTECODE is set (as in many container
# images) every process would otherwise compile Prefect, pandas and the rest from source.
PY ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
LOCK := requirements.lock
UV := $(BIN)/uv
UV_VERSION := $(shell sed -n 's/^uv==\([^ ]*\).*/\1/p' $(LOCK))
# Where the CPU build of torch comes from: a folder of wheels on this kind of machine; elsewhere
# e.g. `make setup TORCH_WHEELS=https://download.pytorch.org/whl/cpu/torch/`.
TORCH_WHEELS ?= /opt/wheels
UV_FLAGS := --quiet --python $(BIN)/python --find-links $(TORCH_WHEELS)
# Tests run in random order (pytest-randomly); the seed is printed, `make test SEED=N` replays it.
SEED ?=

.PHONY: setup lock browser test lint reliability run demo-review demo-real demo-local bench bench-shards clean

setup: $(STAMP)

$(STAMP): $(LOCK) pyproject.toml
	test -x $(BIN)/python || $(PY) -m venv $(VENV)
	test -x $(UV) && $(UV) --version | grep -q ' $(UV_VERSION)' \
		|| $(BIN)/python -m pip install --quiet --disable-pip-version-check uv==$(UV_VERSION)
	$(UV) pip sync $(UV_FLAGS) --require-hashes --compile-bytecode $(LOCK)
	$(UV) pip install $(UV_FLAGS) --no-deps --editable .
	$(BIN)/python -m compileall -q contract data tools agent verifier flows >/dev/null
	touch $(STAMP)

# The newest versions pyproject.toml allows, for CI's platform: Linux x86_64, CPython 3.11.
lock: setup
	$(UV) pip compile --quiet pyproject.toml --extra dev --extra local --extra bench \
		--python-version 3.11 --python-platform x86_64-manylinux_2_28 \
		--find-links $(TORCH_WHEELS) --generate-hashes \
		--custom-compile-command "make lock" --output-file $(LOCK)

# The review page's browser tests drive Debian's Chromium (never a browser download).
browser:
	@command -v chromium >/dev/null || { \
		if [ "$$(id -u)" = 0 ]; then apt-get update -qq && apt-get install -y -qq chromium >/dev/null; \
		elif sudo -n true 2>/dev/null; then sudo apt-get update -qq && sudo apt-get install -y -qq chromium >/dev/null; \
		else echo "chromium is missing: run 'sudo apt-get install -y chromium', then make test again" >&2; exit 1; fi; }

lint: setup
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/lint-imports --no-cache
	$(BIN)/mypy contract data tools agent verifier flows

test: lint browser
	$(BIN)/pytest -n 2 --dist loadfile $(if $(SEED),-p randomly --randomly-seed=$(SEED),)

# The reliability suite in full (a small configuration of it runs in `make test`): faults at 20%
# of requests over three seeds, 30 kill -9 at random moments, the SQL and secret attacks, the
# hostile nights and a table of attacks per class (tried, refused, bounded, fell short).
reliability: setup
	mkdir -p outputs
	RELIABILITY_SEEDS=11,12,13 RELIABILITY_KILLS=30 RELIABILITY_REPORT=outputs/reliability.txt \
		$(BIN)/pytest -n 2 -p no:randomly \
		tests/reliability tests/tools/test_sql_sandbox.py tests/flows/night/test_secrets.py
	cat outputs/reliability.txt

run: setup
	$(BIN)/nightdesk run --data data/sample --provider offline

# The night against a bundled scripted model that makes the mistakes real models make (no key,
# no network): review.html then holds real rejected cases to decide on. React mode lets the model
# choose its calls, so it can also read another ticker's row and answer over a failed call.
demo-review: setup
	$(BIN)/nightdesk run --data data/sample --out outputs/demo-review --provider scripted-mistakes \
		--mode react

# A real model in the loop, on this machine: the packaged SmolLM2-135M-Instruct (the `local` extra
# ships it as a GGUF file) made once into a checked model folder under .nightdesk/, then a small
# night with it: one generated portfolio of eight tickers, the move and position questions. Point
# LOCAL_MODEL at a model folder of your own (make demo-local LOCAL_MODEL=/path/to/Qwen2.5-7B-Instruct);
# on a GPU machine the same command runs on the GPU, in bfloat16 where it computes in it.
PACKAGED_MODEL := .nightdesk/models/smollm2-135m-instruct
LOCAL_MODEL ?= $(PACKAGED_MODEL)
LOCAL_DATA := .nightdesk/demo-local-data
LOCAL_OUT ?= outputs/demo-local
LOCAL_FLAGS ?=

demo-local: setup
	$(if $(filter $(PACKAGED_MODEL),$(LOCAL_MODEL)),$(BIN)/python -m agent.providers.local_prepare $(PACKAGED_MODEL))
	test -f $(LOCAL_DATA)/prices.parquet || $(BIN)/nightdesk data generate --out $(LOCAL_DATA) \
		--tickers 12 --portfolios 1 --start 2024-10-01 --end 2024-12-31 --seed 7
	$(BIN)/nightdesk run --data $(LOCAL_DATA) --out $(LOCAL_OUT) --provider local \
		--model $(LOCAL_MODEL) --questions agent/question_sets/demo-local.json $(LOCAL_FLAGS)
	@echo "demo-local: the reports are in $$(ls -d $(LOCAL_OUT)/*/accepted | tail -n 1)"

REALDATA ?= $(or $(NIGHTDESK_REALDATA),../shared/realdata)
REAL_OUT := .nightdesk/realdata

# Import the real data sets (prices, actions, companies, tweets) with the demo holdings, then report on them.
demo-real: setup
	mkdir -p .nightdesk
	$(BIN)/nightdesk data import --out $(REAL_OUT) --overwrite \
		--prices $(REALDATA)/stocknet/prices --prices $(REALDATA)/zipline-csvdir \
		--companies $(REALDATA)/stocknet/companies.tsv \
		--news $(REALDATA)/stocknet/tweets-2015q4.jsonl --holdings data/demo/holdings.csv \
		--notes .nightdesk/realdata-import-notes.txt
	$(BIN)/nightdesk data check $(REAL_OUT)
	$(BIN)/nightdesk run --data $(REAL_OUT) --date 2015-12-08 --provider offline

# Benchmarks print measured numbers; speed goals live here, not in the unit tests. The night
# benchmark reads its sizes from BENCH_* (README, Benchmarks); its peer needs the `bench` extra,
# which requirements.lock holds.
bench: setup
	for script in tests/bench/bench_*.py; do [ $$script = tests/bench/bench_shards.py ] && continue; \
		echo "== $$script"; $(BIN)/python $$script || exit 1; done
	@echo "== tests/bench/bench_night.py at 300 ms per reply, 64 tickers at once"
	BENCH_LATENCY_MS=300 BENCH_CONCURRENCY=64 BENCH_CONTESTANTS=nightdesk-plan,driver-plan,peer \
		BENCH_JSON=outputs/bench/night-300ms.json $(BIN)/python tests/bench/bench_night.py
	@echo "== tests/bench/bench_night.py at 500 tickers: the Prefect path beside the plain driver"
	BENCH_TICKERS=500 BENCH_RUN_TOKENS=5000000 \
		BENCH_CONTESTANTS=nightdesk-plan,driver-plan,nightdesk-react,driver-react \
		BENCH_JSON=outputs/bench/night-500.json $(BIN)/python tests/bench/bench_night.py
	@echo "== tests/bench/bench_night.py at 500 tickers and 300 ms per reply: per-ticker task runs beside the plain driver"
	BENCH_TICKERS=500 BENCH_RUN_TOKENS=5000000 BENCH_LATENCY_MS=300 BENCH_CONCURRENCY=64 \
		BENCH_CONTESTANTS=nightdesk-plan,driver-plan \
		BENCH_JSON=outputs/bench/night-500-300ms.json $(BIN)/python tests/bench/bench_night.py
	@echo "== tests/bench/bench_night.py with each run's own temporary Prefect server"
	BENCH_PREFECT_SERVER=own BENCH_CONTESTANTS=nightdesk-plan,driver-plan,peer \
		BENCH_JSON=outputs/bench/night-own-server.json $(BIN)/python tests/bench/bench_night.py

# The sharded night at 2,000 and 20,000 tickers on four local workers (hours of CPU on a small
# machine, so not part of `make bench`): BENCH_SHARD_TICKERS, BENCH_SHARDS set the sizes.
bench-shards: setup
	$(BIN)/python tests/bench/bench_shards.py

clean:
	rm -rf $(VENV) .pytest_cache .ruff_cache .mypy_cache

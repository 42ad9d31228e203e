"""The deterministic generator: same arguments, same rows, for any size of universe.

Each part (universe, market, news, portfolios) draws from its own seeded stream, so the
parts stay reproducible independently. The set is written to a temporary sibling folder and
renamed into place, so a reader never sees a half-written set.
"""

from __future__ import annotations

from datetime import date
from pathlib import Path

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq

from contract.errors import InputError
from data.calendar import holidays_between, trading_days
from data.contract import TABLES
from data.facts import FACTS_FILE, DelistingFact, GenerationFacts, HaltFact, SplitFact
from data.newsfeed import build_news
from data.portfolios import build_portfolios
from data.simulated_market import build_prices, draw_specials, simulate_market
from data.staging import staged_folder
from data.universe import build_companies, draw_universe

GENERATOR_VERSION = 2
MIN_TICKERS, MIN_SESSIONS = 12, 40
MAX_TICKERS, MAX_PORTFOLIOS, MAX_TICKER_SESSIONS = 50_000, 10_000, 20_000_000
"""What one generated set may hold: more would take the machine's memory, not make a test."""
FIRST_DAY, LAST_DAY = date(1900, 1, 1), date(2199, 12, 31)
"""The days a generated calendar may span (the exchange's rules, and room after the end)."""


def check_arguments(tickers: int, start: date, end: date, portfolios: int, seed: int) -> None:
    """Refuse arguments the generator cannot honour, with a one-line reason."""
    if tickers < MIN_TICKERS:
        raise InputError(f"--tickers {tickers}: need at least {MIN_TICKERS} to fill the portfolios")
    if tickers > MAX_TICKERS:
        raise InputError(f"--tickers {tickers}: at most {MAX_TICKERS:,}")
    if not 1 <= portfolios <= MAX_PORTFOLIOS:
        raise InputError(
            f"--portfolios {portfolios}: need at least 1 and at most {MAX_PORTFOLIOS:,}"
        )
    if seed < 0:
        raise InputError(f"--seed {seed}: use a non-negative integer")
    if not FIRST_DAY <= start <= end <= LAST_DAY:
        raise InputError(
            f"--start {start} --end {end}: give a start on or before the end, both between "
            f"{FIRST_DAY} and {LAST_DAY}"
        )
    sessions = len(trading_days(start, end))
    if sessions < MIN_SESSIONS:
        raise InputError(
            f"--start {start} --end {end}: need at least {MIN_SESSIONS} trading sessions "
            "(about two months)"
        )
    if tickers * sessions > MAX_TICKER_SESSIONS:
        raise InputError(
            f"--tickers {tickers} over {sessions:,} sessions: at most "
            f"{MAX_TICKER_SESSIONS:,} prices (e.g. 2,000 tickers over ten years)"
        )


def build_dataset(
    *, tickers: int, start: date, end: date, portfolios: int, seed: int
) -> tuple[dict[str, pa.Table], GenerationFacts]:
    """All six contract tables and the facts, in memory."""
    check_arguments(tickers, start, end, portfolios, seed)
    streams = [np.random.default_rng([seed, part]) for part in range(5)]
    universe = draw_universe(streams[0], tickers)
    sessions = len(trading_days(start, end))
    specials = draw_specials(streams[1], tickers, sessions)
    market = simulate_market(streams[2], universe, start, end, specials)
    news, injections = build_news(streams[3], universe, market, specials)
    portfolio_table, holdings = build_portfolios(streams[4], universe, market, specials, portfolios)
    tables = {
        "companies": build_companies(universe),
        "prices": build_prices(market, universe.tickers),
        "news": news,
        "events": market.events,
        "holdings": holdings,
        "portfolios": portfolio_table,
    }
    s, days = specials, market.sessions
    facts = GenerationFacts(
        generator_version=GENERATOR_VERSION,
        seed=seed,
        tickers=tickers,
        start=start,
        end=end,
        portfolios=portfolios,
        holidays=holidays_between(start, end),
        split=SplitFact(
            ticker=universe.tickers[s.split_ticker], date=days[s.split_session], ratio=s.split_ratio
        ),
        delisted=DelistingFact(
            ticker=universe.tickers[s.delisted_ticker], last_date=days[s.last_session]
        ),
        halt=HaltFact(ticker=universe.tickers[s.halt_ticker], date=days[s.halt_session]),
        injection_headlines=injections,
        rows={name: table.num_rows for name, table in tables.items()},
    )
    return tables, facts


def write_dataset(
    tables: dict[str, pa.Table], facts: GenerationFacts, out_dir: Path, *, overwrite: bool = False
) -> None:
    """Write Parquet files and `generation.json` into `out_dir`, all at once or not at all."""
    with staged_folder(Path(out_dir), overwrite=overwrite) as staging:
        for name, table in tables.items():
            pq.write_table(table, staging / TABLES[name].filename, compression="zstd")
        (staging / FACTS_FILE).write_text(facts.model_dump_json(indent=2) + "\n")


def generate_dataset(
    out_dir: Path,
    *,
    tickers: int,
    start: date,
    end: date,
    portfolios: int,
    seed: int,
    overwrite: bool = False,
) -> GenerationFacts:
    """Generate a data set into `out_dir` (an empty or absent folder) and return its facts."""
    tables, facts = build_dataset(
        tickers=tickers, start=start, end=end, portfolios=portfolios, seed=seed
    )
    write_dataset(tables, facts, Path(out_dir), overwrite=overwrite)
    return facts

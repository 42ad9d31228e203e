"""`generation.json`: what the generator planted in a data set, for tests and demos.

This is metadata written next to the Parquet files, not a contract table: readers of the data
(the catalog, the tools, the model) never see it. Tests use it to find the split, the delisting,
the halt and the hostile headlines without searching for them.
"""

from __future__ import annotations

from datetime import date, datetime
from pathlib import Path

from pydantic import BaseModel, ConfigDict

from contract.errors import InputError

FACTS_FILE = "generation.json"


class _Fact(BaseModel):
    model_config = ConfigDict(frozen=True)


class SplitFact(_Fact):
    """A forward split: from `date` on, prices are divided and quantities multiplied by `ratio`."""

    ticker: str
    date: date
    ratio: float


class DelistingFact(_Fact):
    """`last_date` is the ticker's final session; no prices, news or holdings after it."""

    ticker: str
    last_date: date


class HaltFact(_Fact):
    """A session on which `ticker` did not trade (no price row), though the exchange was open."""

    ticker: str
    date: date


class InjectionFact(_Fact):
    """A news row whose headline carries instruction-like text aimed at a reader model."""

    ticker: str
    published_at: datetime
    headline: str


class GenerationFacts(_Fact):
    """The arguments of one generator run and the ground truth it planted."""

    generator_version: int
    seed: int
    tickers: int
    start: date
    end: date
    portfolios: int
    holidays: list[date]
    split: SplitFact
    delisted: DelistingFact
    halt: HaltFact
    injection_headlines: list[InjectionFact]
    rows: dict[str, int]


def read_facts(data_dir: Path) -> GenerationFacts:
    """Load `generation.json` of a generated data set."""
    path = Path(data_dir) / FACTS_FILE
    try:
        return GenerationFacts.model_validate_json(path.read_bytes())
    except FileNotFoundError:
        raise InputError(f"{path} not found: only generated data sets carry it") from None

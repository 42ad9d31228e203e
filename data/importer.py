"""Import vendor files into the Parquet data contract: prices, corporate actions, companies,
news and holdings, checked and written all at once.

Several `--prices` folders may hold the same ticker (a long Yahoo history and a csvdir file with
stated actions). For each (ticker, date) the row of the folder given first wins; a later folder
fills only the dates the earlier ones lack. Corporate actions are merged by (ticker, date, kind):
an action a csvdir file states wins over a dividend inferred from a Yahoo file, then the earlier
folder wins. Both layouts are split-adjusted, so every imported ticker has that price basis.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path

import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq

from contract.errors import InputError
from data.check import check_dataset
from data.contract import EVENTS, EXCHANGES, PRICES, TABLES, Table
from data.import_log import ImportLog
from data.import_news import read_news
from data.import_prices import TickerPrices, list_price_files, read_price_file
from data.import_reference import build_companies, read_companies, read_holdings
from data.staging import staged_folder


@dataclass(frozen=True)
class ImportSources:
    """The user's files; `prices` in order of precedence."""

    prices: tuple[Path, ...] = ()
    companies: Path | None = None
    news: Path | None = None
    holdings: Path | None = None


def import_dataset(out_dir: Path, sources: ImportSources, *, overwrite: bool = False) -> ImportLog:
    """Build the contract tables from `sources` and write them to `out_dir` if they pass the check."""
    log = ImportLog()
    tables = build_tables(sources, log)
    with staged_folder(Path(out_dir), overwrite=overwrite) as staging:
        for name, table in tables.items():
            pq.write_table(table, staging / TABLES[name].filename, compression="zstd")
        violations = check_dataset(staging)
        if violations:
            raise InputError(
                f"the imported set breaks the contract in {len(violations)} places, so nothing "
                f"was written; first: {violations[0]}"
            )
    return log


def build_tables(sources: ImportSources, log: ImportLog) -> dict[str, pa.Table]:
    """Every contract table, in memory; tables without a source are empty."""
    if not sources.prices:
        raise InputError("give at least one --prices folder of one CSV per ticker")
    resolved = [folder.resolve() for folder in sources.prices]
    if again := next((f for i, f in enumerate(resolved) if f in resolved[:i]), None):
        raise InputError(f"--prices {again} is given twice; give each folder once")
    listed = (
        read_companies(sources.companies, log)
        if sources.companies
        else pd.DataFrame(columns=["ticker", "name", "sector"])
    )
    by_ticker: dict[str, list[TickerPrices]] = defaultdict(list)
    for folder in sources.prices:
        for path in list_price_files(folder):
            part = read_price_file(path, f"{folder.parent.name}/{folder.name}/{path.name}", log)
            by_ticker[part.ticker].append(part)
    companies = build_companies(listed, sorted(by_ticker), log)
    exchange = dict(
        zip(companies["ticker"].to_pylist(), companies["exchange"].to_pylist(), strict=True)
    )
    prices, events = merge_prices(by_ticker, exchange, log)
    tables = {name: table.schema.empty_table() for name, table in TABLES.items()}
    tables.update(companies=companies, prices=prices, events=events)
    if sources.news:
        names = companies.select(["ticker", "name"]).to_pylist()
        tables["news"] = read_news(sources.news, {r["ticker"]: r["name"] for r in names}, log)
    if sources.holdings:  # a position must be priceable: a listed ticker without prices is not
        holdings, portfolios = read_holdings(sources.holdings, set(by_ticker), log)
        check_snapshots(holdings, prices, sources.holdings)
        tables["holdings"], tables["portfolios"] = holdings, portfolios
    return tables


def check_snapshots(holdings: pa.Table, prices: pa.Table, path: Path) -> None:
    """A snapshot dated after the last price could never be reported on: say so now."""
    if holdings.num_rows == 0 or prices.num_rows == 0:
        return
    last = max(prices.column("date").to_pylist())
    late = sorted({d for d in holdings.column("as_of").to_pylist() if d > last})
    if late:
        raise InputError(
            f"--holdings {path}: snapshot of {late[0]} is after the last price ({last}); no "
            "night could report on it: import prices up to it, or drop the snapshot"
        )


def merge_prices(
    by_ticker: dict[str, list[TickerPrices]], exchange: dict[str, str], log: ImportLog
) -> tuple[pa.Table, pa.Table]:
    """The prices and events tables from every file, by the precedence in the module docstring."""
    rows, actions = [], []
    for ticker in sorted(by_ticker):
        parts = by_ticker[ticker]
        rows.append(_merge_rows(ticker, parts, log))
        actions.append(_merge_events(ticker, parts, exchange[ticker], log))
    prices = pd.concat(rows, ignore_index=True)
    events = pd.concat(actions, ignore_index=True)
    log.kept["prices"], log.kept["events"] = len(prices), len(events)
    idle = prices[prices["volume"] == 0]
    if not idle.empty:
        log.remarks.append(
            f"prices: {len(idle):,} rows of {idle['ticker'].nunique()} tickers have zero volume; "
            "kept as published"
        )
    return _to_arrow(prices, PRICES), _to_arrow(events, EVENTS)


def _to_arrow(frame: pd.DataFrame, table: Table) -> pa.Table:
    if frame.empty:
        return table.schema.empty_table()
    return pa.Table.from_pandas(frame[table.columns], schema=table.schema, preserve_index=False)


def _merge_rows(ticker: str, parts: list[TickerPrices], log: ImportLog) -> pd.DataFrame:
    taken = parts[0].rows
    for part in parts[1:]:
        both = taken.merge(part.rows, on="date", suffixes=("", "_later"))
        differ = int((both["close"] != both["close_later"]).sum())
        new = part.rows[~part.rows["date"].isin(taken["date"])]
        log.remarks.append(
            f"prices {ticker}: {len(both):,} sessions also in {part.source}, kept from the earlier "
            f"--prices (closes differ on {differ}); {part.source} adds {len(new):,} sessions"
        )
        taken = pd.concat([taken, new], ignore_index=True)
    return taken.sort_values("date").assign(ticker=ticker)


def _merge_events(
    ticker: str, parts: list[TickerPrices], exchange: str, log: ImportLog
) -> pd.DataFrame:
    frame = pd.concat([p.events.assign(rank=i) for i, p in enumerate(parts)], ignore_index=True)
    frame = frame.sort_values(["stated", "rank"], ascending=[False, True], kind="stable")
    twice = frame[frame.duplicated(["date", "kind"], keep=False)]
    if not twice.empty:
        spread = twice.groupby(["date", "kind"])["value"].agg(lambda v: v.max() - v.min())
        log.remarks.append(
            f"events {ticker}: {spread.size} actions both stated and inferred (or in two files); "
            f"kept the stated ones, largest difference in value {spread.max():.6f}"
        )
    frame = frame.drop_duplicates(["date", "kind"], keep="first").sort_values(["date", "kind"])
    opening = EXCHANGES[exchange]
    frame["announced_at"] = [
        pd.Timestamp(datetime.combine(day, opening.open, opening.tz)).tz_convert("UTC")
        for day in frame["date"]
    ]
    return frame.assign(ticker=ticker)

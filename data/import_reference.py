"""Reference tables from the user's files: companies (symbol, name, sector) and holdings.

Companies come from a TSV or CSV with a header naming `symbol` (or `ticker`), `name` (or
`company`) and `sector`, in any order and case; a leading `$` on a symbol is dropped and
sector names are kept as published. Holdings are the user's book: a bad row is an input error,
not a row to drop, because a report on a silently shortened portfolio would be wrong.
"""

from __future__ import annotations

import csv
import math
from datetime import date
from pathlib import Path

import pandas as pd
import pyarrow as pa

from contract.errors import InputError
from data.calendar import is_trading_day
from data.contract import COMPANIES, HOLDINGS, PORTFOLIOS
from data.import_log import ImportLog, require_utf8

DEFAULT_EXCHANGE, DEFAULT_CURRENCY = "NYSE", "USD"
NASDAQ = frozenset(("AAPL", "AGFS", "AMGN", "AMZN", "CELG", "CHTR", "CMCSA", "CSCO", "FB", "GOOG", "IEP", "INTC", "MSFT", "PCLN", "PICO"))  # fmt: skip
"""Symbols of the bundled real data known to list on NASDAQ; every other symbol gets NYSE."""
ALIASES = {"symbol": "ticker", "ticker": "ticker", "name": "name", "company": "name", "sector": "sector"}  # fmt: skip
HOLDING_COLUMNS = ["portfolio_id", "as_of", "ticker", "quantity", "cost_basis"]


def read_companies(path: Path, log: ImportLog) -> pd.DataFrame:
    """`ticker, name, sector` rows; rows without a symbol are dropped, later repeats too."""
    if not path.is_file():
        raise InputError(f"--companies {path}: no such file")
    require_utf8(path, "--companies")
    with path.open(encoding="utf-8-sig", newline="") as handle:
        sample = handle.readline()
    delimiter = "\t" if "\t" in sample else ","
    raw = pd.read_csv(path, sep=delimiter, dtype=str, keep_default_na=False, encoding="utf-8-sig")
    raw = raw.rename(columns=lambda c: ALIASES.get(c.strip().lower(), c))
    missing = {"ticker", "name", "sector"} - set(raw.columns)
    if missing:
        raise InputError(
            f"--companies {path}: no column for {', '.join(sorted(missing))}; "
            "the header needs symbol (or ticker), name (or company) and sector"
        )
    log.read["companies"] += len(raw)
    frame = raw[["ticker", "name", "sector"]].apply(lambda col: col.str.strip())
    frame["ticker"] = frame["ticker"].str.lstrip("$").str.upper()
    frame["line"] = range(2, len(frame) + 2)
    source = path.name
    for _, row in frame[frame["ticker"] == ""].iterrows():
        log.note("dropped", "companies", source, row["line"], "no symbol")
    frame = frame[frame["ticker"] != ""]
    again = frame["ticker"].duplicated(keep="first")
    for _, row in frame[again].iterrows():
        log.note("dropped", "companies", source, row["line"], f"{row['ticker']} listed again")
    return frame[~again].drop(columns="line")


def build_companies(listed: pd.DataFrame, priced: list[str], log: ImportLog) -> pa.Table:
    """Companies of the file plus a placeholder row for each priced ticker the file lacks."""
    known = set(listed["ticker"])
    extra = [t for t in priced if t not in known]
    for ticker in extra:
        log.remarks.append(
            f"companies {ticker}: has prices but no --companies row; added with name {ticker!r}, "
            "sector 'Unknown'"
        )
    rows = pd.concat(
        [listed, pd.DataFrame({"ticker": extra, "name": extra, "sector": "Unknown"})],
        ignore_index=True,
    ).sort_values("ticker")
    rows["currency"] = DEFAULT_CURRENCY
    rows["exchange"] = [("NASDAQ" if t in NASDAQ else DEFAULT_EXCHANGE) for t in rows["ticker"]]
    rows["price_basis"] = "split_adjusted"
    log.kept["companies"] = len(rows)
    return pa.Table.from_pandas(
        rows[COMPANIES.columns], schema=COMPANIES.schema, preserve_index=False
    )


def read_holdings(path: Path, companies: set[str], log: ImportLog) -> tuple[pa.Table, pa.Table]:
    """The holdings table and the portfolios derived from it (name from the id, in USD)."""
    if not path.is_file():
        raise InputError(f"--holdings {path}: no such file")
    require_utf8(path, "--holdings")
    with path.open(encoding="utf-8-sig", newline="") as handle:
        reader = csv.DictReader(handle)
        header = [(name or "").strip() for name in reader.fieldnames or []]
        rows = list(reader)
    absent = [c for c in HOLDING_COLUMNS if c not in header]
    if header and absent:
        hint = " (it is split by ';': write it with ',')" if ";" in ",".join(header) else ""
        raise InputError(
            f"--holdings {path} line 1: the header has no {', '.join(absent)}{hint}; columns "
            f"are {','.join(HOLDING_COLUMNS)}"
        )
    if not rows:
        raise InputError(
            f"--holdings {path}: no holdings; give a header {','.join(HOLDING_COLUMNS)} and a row "
            "per position"
        )
    log.read["holdings"] += len(rows)
    parsed = [_holding(path, line, row, companies) for line, row in enumerate(rows, start=2)]
    frame = pd.DataFrame(parsed, columns=HOLDING_COLUMNS)
    again = frame.duplicated(["portfolio_id", "as_of", "ticker"])
    if again.any():
        line = int(again.to_numpy().nonzero()[0][0]) + 2
        raise InputError(f"--holdings {path} line {line}: ticker repeated in the same snapshot")
    frame = frame.sort_values(["portfolio_id", "as_of", "ticker"])
    ids = sorted(frame["portfolio_id"].unique())
    portfolios = pd.DataFrame(
        {
            "portfolio_id": ids,
            "name": [_title(i) for i in ids],
            "base_currency": DEFAULT_CURRENCY,
            "benchmark": pd.Series([None] * len(ids), dtype=object),
        }
    )
    log.kept["holdings"], log.kept["portfolios"] = len(frame), len(portfolios)
    return (
        pa.Table.from_pandas(frame, schema=HOLDINGS.schema, preserve_index=False),
        pa.Table.from_pandas(portfolios, schema=PORTFOLIOS.schema, preserve_index=False),
    )


def _holding(path: Path, line: int, row: dict[str, str], companies: set[str]) -> list[object]:
    where = f"--holdings {path} line {line}"
    missing = [c for c in HOLDING_COLUMNS if not (row.get(c) or "").strip()]
    if missing:
        raise InputError(
            f"{where}: no {', '.join(missing)}; columns are {','.join(HOLDING_COLUMNS)}"
        )
    ticker = row["ticker"].strip().lstrip("$").upper()
    if ticker not in companies:
        raise InputError(f"{where}: ticker {ticker} has no prices or company row in this import")
    try:
        as_of = date.fromisoformat(row["as_of"].strip())  # YYYY-MM-DD only: 02/10 is ambiguous
        quantity, cost = float(row["quantity"]), float(row["cost_basis"])
    except ValueError as exc:
        raise InputError(
            f"{where}: {exc}; as_of is YYYY-MM-DD, quantity and cost_basis numbers"
        ) from None
    if not is_trading_day(as_of):
        raise InputError(
            f"{where}: as_of {as_of} is not a NYSE session; use the session of the snapshot"
        )
    if not (math.isfinite(quantity) and math.isfinite(cost)):
        raise InputError(f"{where}: quantity and cost_basis must be finite numbers")
    if quantity <= 0 or cost < 0:
        raise InputError(f"{where}: quantity must be > 0 and cost_basis >= 0")
    return [row["portfolio_id"].strip(), as_of, ticker, quantity, cost]


def _title(portfolio_id: str) -> str:
    return " ".join(portfolio_id.replace("_", " ").replace("-", " ").split()).title()

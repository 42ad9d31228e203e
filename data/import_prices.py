"""Daily price files, one CSV per ticker, cleaned into contract rows plus their corporate actions.

Two vendor layouts are read, told apart by the header: Yahoo (`Date,Open,High,Low,Close,Adj
Close,Volume`, split-adjusted `Close`, dividends only implied by `Adj Close`) and csvdir
(`date,open,high,low,close,volume,dividend,split`, split-adjusted prices with the actions stated).
Every row that cannot be used is dropped, and every row that is fixed is repaired, with a note.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Literal

import numpy as np
import pandas as pd

from contract.errors import InputError
from data.calendar import is_trading_day
from data.check import safe_spelling
from data.contract import SAFE_NAME_RULE, is_safe_name
from data.import_log import ImportLog, require_utf8

Format = Literal["yahoo", "csvdir"]
HEADERS: dict[Format, list[str]] = {
    "yahoo": ["Date", "Open", "High", "Low", "Close", "Adj Close", "Volume"],
    "csvdir": ["date", "open", "high", "low", "close", "volume", "dividend", "split"],
}
OHLC = ["open", "high", "low", "close"]
DIVIDEND_STEP = 1e-4
"""A fall of `Close / Adj Close` larger than this between two sessions is a dividend. On stocknet,
rounding moves the ratio by under 8.3e-7 and the smallest dividend moves it by 1.9e-4."""


@dataclass(frozen=True)
class TickerPrices:
    """One file's usable rows (`date, open, high, low, close, volume`) and actions it states or implies."""

    ticker: str
    source: str
    rows: pd.DataFrame
    events: pd.DataFrame  # date, kind, value, stated


def detect_format(path: Path) -> Format:
    """Yahoo or csvdir, from the header line; anything else is an input error."""
    with path.open(encoding="utf-8-sig") as handle:
        header = [c.strip() for c in handle.readline().strip().split(",")]
    for name, expected in HEADERS.items():
        if header == expected:
            return name
    raise InputError(
        f"{path}: header {','.join(header)!r} is neither Yahoo ({','.join(HEADERS['yahoo'])}) "
        f"nor csvdir ({','.join(HEADERS['csvdir'])}); rename the columns to one of them"
    )


def list_price_files(folder: Path) -> list[Path]:
    """The CSV files of a `--prices` folder, by name."""
    if not folder.is_dir():
        raise InputError(f"--prices {folder}: not a folder; give a folder of one CSV per ticker")
    files = sorted(folder.glob("*.csv"))
    if not files:
        raise InputError(f"--prices {folder}: no *.csv files; give a folder of one CSV per ticker")
    return files


def read_price_file(path: Path, source: str, log: ImportLog) -> TickerPrices:
    """Read, clean and note one ticker's file; the ticker is the file name (BRK-A.csv -> BRK-A)."""
    ticker = path.stem.strip().upper()
    if not is_safe_name(ticker):
        spelled = safe_spelling(ticker)
        fix = f"rename it {spelled}{path.suffix}" if spelled else "rename it"
        raise InputError(
            f"--prices {path}: the file name makes the ticker {ticker!r}, which cannot be one: "
            f"{SAFE_NAME_RULE}; {fix}"
        )
    require_utf8(path, "--prices")
    fmt = detect_format(path)
    raw = pd.read_csv(path, dtype=str, keep_default_na=False, encoding="utf-8-sig")
    raw.columns = [c.strip().lower().replace("adj close", "adj_close") for c in raw.columns]
    log.read["prices"] += len(raw)
    frame = _parse(raw)
    frame["line"] = np.arange(len(raw)) + 2
    frame = _drop_bad_rows(frame, fmt, source, log)
    if frame.empty:
        first = next((n for n in log.notes if n.source == source), None)
        why = f" (first: line {first.line}, {first.reason})" if first else ""
        raise InputError(
            f"--prices {path}: no usable row{why}; dates are YYYY-MM-DD and prices numbers "
            "with a '.' decimal point"
        )
    frame = _repair_range(frame, source, log)
    frame = frame.sort_values("date", kind="stable").reset_index(drop=True)
    events = stated_actions(frame) if fmt == "csvdir" else infer_dividends(frame, ticker, log)
    log.read["events"] += len(events)
    return TickerPrices(ticker, source, frame[["date", *OHLC, "volume"]], events)


def _parse(raw: pd.DataFrame) -> pd.DataFrame:
    """Typed columns; unreadable cells become NaN/NaT and are judged by the rules below."""
    parsed = pd.DataFrame({"date": pd.to_datetime(raw["date"], format="%Y-%m-%d", errors="coerce")})
    parsed["raw_date"] = raw["date"]
    for column in [c for c in raw.columns if c != "date"]:
        parsed[column] = pd.to_numeric(raw[column].replace("null", ""), errors="coerce")
    return parsed


def _drop_bad_rows(frame: pd.DataFrame, fmt: Format, source: str, log: ImportLog) -> pd.DataFrame:
    """Drop rows that no repair can save, each with its reason (first failing rule wins)."""
    prices = OHLC + (["adj_close"] if fmt == "yahoo" else [])
    sessions = frame["date"].dropna().dt.date
    closed = sessions[~sessions.map(is_trading_day)].index
    rules: list[tuple[pd.Series, str]] = [
        (frame["date"].isna(), "unreadable date {raw_date!r}"),
        (frame[prices].isna().any(axis=1), "missing or unreadable price on {raw_date}"),
        (frame["volume"].isna(), "null volume on {raw_date}"),
        ((frame[prices] <= 0).any(axis=1), "non-positive price on {raw_date}"),
        (frame["volume"] < 0, "negative volume on {raw_date}"),
        (
            pd.Series(frame.index.isin(closed), index=frame.index),
            "{raw_date} is not a NYSE session",
        ),
    ]
    if fmt == "csvdir":
        rules.append(
            (
                frame[["dividend", "split"]].isna().any(axis=1),
                "null dividend or split on {raw_date}",
            )
        )
    dropped = pd.Series(False, index=frame.index)
    for bad, reason in rules:
        for row in frame[bad & ~dropped].to_dict("records"):
            log.note(
                "dropped",
                "prices",
                source,
                int(row["line"]),
                reason.format(raw_date=row["raw_date"]),
            )
        dropped |= bad
    kept = frame[~dropped]
    again = kept["date"].duplicated(keep="first")
    first_line = kept.drop_duplicates("date").set_index("date")["line"]
    for i in kept.index[again]:
        row = kept.loc[i]
        log.note("dropped", "prices", source, int(row["line"]),
                 f"duplicate date {row['raw_date']} (line {first_line[row['date']]} kept)")  # fmt: skip
    return kept[~again].copy()


def _repair_range(frame: pd.DataFrame, source: str, log: ImportLog) -> pd.DataFrame:
    """Widen high and low to contain open and close (vendors sometimes round them apart)."""
    high, low = frame[OHLC].max(axis=1), frame[OHLC].min(axis=1)
    off = (frame["high"] != high) | (frame["low"] != low)
    for i in frame.index[off]:
        row = frame.loc[i]
        log.note("repaired", "prices", source, int(row["line"]),
                 f"high/low {row['high']}/{row['low']} on {row['raw_date']} do not contain "
                 f"open {row['open']} and close {row['close']}; set to {high[i]}/{low[i]}")  # fmt: skip
    frame["high"], frame["low"] = high, low
    frame["volume"] = frame["volume"].round().astype("int64")
    frame["date"] = frame["date"].dt.date
    return frame


def _events(dates: pd.Series, kind: str, values: pd.Series, stated: bool) -> pd.DataFrame:
    return pd.DataFrame(
        {"date": list(dates), "kind": kind, "value": list(values.astype(float)), "stated": stated}
    )


def stated_actions(frame: pd.DataFrame) -> pd.DataFrame:
    """csvdir: a `split` other than 1 is a split of that ratio, a non-zero `dividend` its cash."""
    splits = frame[frame["split"] != 1.0]
    dividends = frame[frame["dividend"] != 0.0]
    return pd.concat(
        [
            _events(dividends["date"], "dividend", dividends["dividend"], True),
            _events(splits["date"], "split", splits["split"], True),
        ],
        ignore_index=True,
    )


def infer_dividends(frame: pd.DataFrame, ticker: str, log: ImportLog) -> pd.DataFrame:
    """Yahoo: a dividend D with ex-date t scales every earlier `Adj Close` by 1 - D / Close[t-1].

    So with c = Close / Adj Close, c[t] / c[t-1] = 1 - D / Close[t-1], and
    D = Close[t-1] * (1 - c[t] / c[t-1]) on ex-date t, when that step exceeds `DIVIDEND_STEP`.
    """
    factor = frame["close"] / frame["adj_close"]
    step = 1.0 - factor / factor.shift(1)
    cash = (frame["close"].shift(1) * step).round(6)
    paid = step > DIVIDEND_STEP
    for day, rise in zip(
        frame["date"][step < -DIVIDEND_STEP], -step[step < -DIVIDEND_STEP], strict=True
    ):
        log.remarks.append(
            f"prices {ticker}: Close/Adj Close rose by {rise:.4%} on {day!s}; "
            "not a dividend, no event inferred"
        )
    return _events(frame.loc[paid, "date"], "dividend", cash[paid], False)

"""Simulated daily prices and corporate events for a generated universe.

Returns follow a three-factor model (market + sector + idiosyncratic, with rare jumps and
earnings-day surprises). Prices are as traded: on an ex-dividend date the reference price drops
by the cash amount, on the split date it is divided by the ratio. Arrays are shaped
(sessions, tickers); the day loop is the only recurrence and runs vectorised across tickers.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime, time, timedelta

import numpy as np
import pyarrow as pa

from data.calendar import trading_days
from data.contract import EVENTS, EXCHANGES, PRICES
from data.universe import Universe

QUARTER = 63  # sessions between two earnings reports of one company
EX_DIVIDEND_LAG = 15  # sessions from earnings to the ex-dividend date
FUTURE_DAYS = 100  # calendar days after the end whose already-announced events are kept
_US_PER_DAY = 86_400_000_000


@dataclass(frozen=True)
class Specials:
    """Which ticker (by index) gets each planted fact, and on which session (by index)."""

    split_ticker: int
    split_session: int
    split_ratio: float
    delisted_ticker: int
    last_session: int
    halt_ticker: int
    halt_session: int


@dataclass(frozen=True)
class Market:
    """Simulated prices, (sessions, tickers) arrays; `traded` marks rows that exist."""

    sessions: list[date]
    open: np.ndarray
    high: np.ndarray
    low: np.ndarray
    close: np.ndarray
    volume: np.ndarray
    returns: np.ndarray
    traded: np.ndarray
    sigma: np.ndarray
    earnings: np.ndarray
    events: pa.Table
    event_ticker: np.ndarray


def local_midnight_us(days: list[date]) -> np.ndarray:
    """Microseconds since the epoch (UTC) of each day's midnight in New York."""
    tz = EXCHANGES["NYSE"].tz
    return np.array(
        [int(datetime.combine(d, time(), tz).timestamp()) * 1_000_000 for d in days],
        dtype=np.int64,
    )


def draw_specials(rng: np.random.Generator, tickers: int, sessions: int) -> Specials:
    """Three distinct tickers for the split, the delisting and the halt, mid-period."""
    split_t, delisted_t, halt_t = rng.choice(tickers, size=3, replace=False).tolist()

    def around(share: float) -> int:
        return int(share * sessions) + int(rng.integers(-3, 4))

    return Specials(
        split_ticker=split_t,
        split_session=around(0.55),
        split_ratio=2.0,
        delisted_ticker=delisted_t,
        last_session=around(0.65),
        halt_ticker=halt_t,
        halt_session=around(0.40),
    )


def schedule(offsets: np.ndarray, length: int) -> np.ndarray:
    """(length, tickers) mask: True every QUARTER sessions from each ticker's offset."""
    mask = np.zeros((length, offsets.size), dtype=bool)
    for k in range(0, length // QUARTER + 1):
        idx = offsets + k * QUARTER
        ok = idx < length
        mask[idx[ok], np.nonzero(ok)[0]] = True
    return mask


def simulate_market(
    rng: np.random.Generator, universe: Universe, start: date, end: date, specials: Specials
) -> Market:
    """Prices, volumes and events from `start` to `end`, plus events already announced by then."""
    sessions = trading_days(start, end)
    future = trading_days(end + timedelta(days=1), end + timedelta(days=FUTURE_DAYS))
    sector_index = universe.sector_index
    days, tickers, grid = len(sessions), universe.size, len(sessions) + len(future)

    beta = rng.uniform(0.6, 1.4, tickers)
    sigma = rng.uniform(0.008, 0.022, tickers)
    p0 = np.clip(np.exp(rng.normal(np.log(60.0), 0.8, tickers)), 5.0, 900.0)
    market = rng.normal(0.0003, 0.009, days)
    sector = rng.normal(0.0, 0.006, (days, int(sector_index.max()) + 1))
    returns = beta * market[:, None] + sector[:, sector_index]
    returns += rng.standard_normal((days, tickers)) * sigma
    returns += (rng.random((days, tickers)) < 0.002) * rng.normal(0.0, 0.08, (days, tickers))

    earnings = schedule(rng.integers(0, QUARTER, tickers), grid)
    payers = rng.random(tickers) < 0.45
    ex_dividend = np.roll(earnings, EX_DIVIDEND_LAG, axis=0) & payers
    ex_dividend[:EX_DIVIDEND_LAG] = False
    returns += earnings[:days] * rng.normal(0.0, 3.0, (days, tickers)) * sigma
    s = specials
    ex_dividend[s.halt_session, s.halt_ticker] = False
    ex_dividend[s.split_session, s.split_ticker] = False

    quarterly_yield = rng.uniform(0.003, 0.010, tickers)
    close, ref_open, dividend = _walk_prices(returns, ex_dividend[:days], quarterly_yield, p0, s)
    gap = rng.normal(0.0, 0.35, (days, tickers)) * sigma
    open_ = np.round(ref_open * np.exp(gap), 2)
    wick = np.abs(rng.normal(0.0, 0.5, (2, days, tickers))) * sigma
    high = np.maximum(
        np.round(np.maximum(open_, close) * (1 + wick[0]), 2), np.maximum(open_, close)
    )
    low = np.minimum(
        np.round(np.minimum(open_, close) * (1 - wick[1]), 2), np.minimum(open_, close)
    )
    base_volume = np.exp(rng.normal(np.log(1.5e6), 1.0, tickers))
    volume = base_volume * np.exp(rng.normal(0.0, 0.35, (days, tickers))) * (1 + 12 * abs(returns))
    volume[s.split_session :, s.split_ticker] *= s.split_ratio
    volume = np.round(volume).astype(np.int64)

    traded = np.ones((days, tickers), dtype=bool)
    traded[s.last_session + 1 :, s.delisted_ticker] = False
    traded[s.halt_session, s.halt_ticker] = False

    pe = np.where(
        rng.random(tickers) < 0.1, -rng.uniform(20, 80, tickers), rng.uniform(10, 40, tickers)
    )
    eps_noise = rng.normal(1.0, 0.15, (days, tickers))
    previous = np.vstack([p0[None, :], close[:-1]])
    eps = np.round(previous / pe / 4 * eps_noise, 2)
    last = close[-1]
    events, event_ticker = _build_events(
        rng,
        universe.tickers,
        sessions + future,
        days,
        earnings,
        ex_dividend,
        eps,
        dividend,
        np.round(last * quarterly_yield, 2),
        s,
        end,
    )
    return Market(
        sessions,
        open_,
        high,
        low,
        close,
        volume,
        returns,
        traded,
        sigma,
        earnings[:days],
        events,
        event_ticker,
    )


def _walk_prices(
    returns: np.ndarray,
    ex_dividend: np.ndarray,
    quarterly_yield: np.ndarray,
    p0: np.ndarray,
    s: Specials,
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Closes rounded to cents, the pre-gap open reference and the dividends paid, day by day."""
    days, tickers = returns.shape
    growth = np.exp(returns)
    close = np.empty((days, tickers))
    ref_open = np.empty((days, tickers))
    dividend = np.zeros((days, tickers))
    prev = p0.copy()
    for t in range(days):
        ref = prev.copy()
        if t == s.split_session:
            ref[s.split_ticker] /= s.split_ratio
        ex = ex_dividend[t]
        if ex.any():
            cash = np.maximum(np.round(prev[ex] * quarterly_yield[ex], 2), 0.01)
            dividend[t, ex] = cash
            ref[ex] -= cash
        ref_open[t] = ref
        prev = np.maximum(np.round(ref * growth[t], 2), 1.0)
        close[t] = prev
    return close, ref_open, dividend


def _build_events(
    rng: np.random.Generator,
    symbols: list[str],
    grid_days: list[date],
    days: int,
    earnings: np.ndarray,
    ex_dividend: np.ndarray,
    eps: np.ndarray,
    dividend: np.ndarray,
    future_dividend: np.ndarray,
    s: Specials,
    end: date,
) -> tuple[pa.Table, np.ndarray]:
    """Earnings, dividends and the split, each public weeks before its date."""
    e_day, e_tic = np.nonzero(earnings)
    e_val = np.where(e_day < days, eps[np.minimum(e_day, days - 1), e_tic], np.nan)
    d_day, d_tic = np.nonzero(ex_dividend)
    d_val = np.where(
        d_day < days, dividend[np.minimum(d_day, days - 1), d_tic], future_dividend[d_tic]
    )
    day = np.concatenate([e_day, d_day, [s.split_session]])
    tic = np.concatenate([e_tic, d_tic, [s.split_ticker]])
    kind = np.concatenate([np.zeros_like(e_day), np.ones_like(d_day), [2]])
    value = np.concatenate([e_val, d_val, [s.split_ratio]])
    weeks = np.concatenate([rng.integers(3, 7, e_day.size), rng.integers(2, 5, d_day.size), [4]])
    minutes = rng.integers(11 * 60, 22 * 60, day.size)
    midnight = (
        np.array([d.toordinal() for d in grid_days], dtype=np.int64) - date(1970, 1, 1).toordinal()
    )
    announced = (midnight[day] - 7 * weeks) * _US_PER_DAY + minutes * 60_000_000
    cutoff = local_midnight_us([end + timedelta(days=1)])[0]
    keep = (announced < cutoff) & ~((tic == s.delisted_ticker) & (day > s.last_session))
    order = np.lexsort((kind[keep], day[keep], tic[keep]))
    day, tic, kind, value, announced = (a[keep][order] for a in (day, tic, kind, value, announced))
    table = pa.table(
        {
            "ticker": pa.array(symbols).take(pa.array(tic)),
            "date": pa.array(midnight[day].astype(np.int32), pa.date32()),
            "kind": pa.array(np.array(["earnings", "dividend", "split"])[kind]),
            "value": pa.array(value, pa.float64(), from_pandas=True),
            "announced_at": pa.array(announced, EVENTS.schema.field("announced_at").type),
        },
        schema=EVENTS.schema,
    )
    return table, tic


def build_prices(market: Market, tickers: list[str]) -> pa.Table:
    """The long `prices` table, ordered by (ticker, date)."""
    traded = market.traded.T.ravel()
    days = len(market.sessions)
    tic = np.repeat(np.arange(len(tickers)), days)[traded]
    epoch = np.array(
        [d.toordinal() - date(1970, 1, 1).toordinal() for d in market.sessions], dtype=np.int32
    )
    columns = {
        "ticker": pa.array(tickers).take(pa.array(tic)),
        "date": pa.array(np.tile(epoch, len(tickers))[traded], pa.date32()),
    }
    for name in ("open", "high", "low", "close", "volume"):
        columns[name] = pa.array(getattr(market, name).T.ravel()[traded])
    return pa.table(columns, schema=PRICES.schema)

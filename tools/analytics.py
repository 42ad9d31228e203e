"""Analytics tools: what reports want to say about a portfolio's day, a ticker's trend and a
company, computed in code, so that a sentence that ranks, counts, compares or names binds to a
result instead of to the model's reading of several.

Ranks are competition ranks (1, 2, 2, 4), 1 the largest, taken on the figures as the results
show them (2 decimals): two positions that read alike rank alike. Every figure of a position is
the one `get_position_pnl` states for it, and the totals are the report table's.
"""

from __future__ import annotations

from bisect import bisect_right
from calendar import monthrange
from collections.abc import Callable, Mapping
from datetime import date, timedelta
from itertools import pairwise
from typing import Any

from pydantic import Field

from contract.errors import ToolError
from data.calendar import previous_session
from tools.catalog import Catalog
from tools.fields import IsoDate, PortfolioId, Ticker, ToolArgs
from tools.portfolio import position_pnl, previous_closes, read_book
from tools.prices import (
    DailyMoveArgs,
    change_between,
    closes_of,
    get_daily_move,
    percent,
    round_price,
    split_ratios,
)
from tools.sessions import check_in_range, check_not_after_report, find_listing, unknown_ticker

MOVERS_SHOWN = 5
"""How many tickers each list of movers, contributors and detractors names; the ranks of every
position are in its row."""
EQUAL_WEIGHT = "equal-weight universe"
SESSION_DATE = Field(description="ISO date YYYY-MM-DD: that session, or the last one before it")


def competition_ranks(values: Mapping[str, float]) -> dict[str, int]:
    """1 for the largest value; equal values share a rank and the next one skips (1, 2, 2, 4)."""
    ordered = sorted(values.values())
    return {key: len(ordered) - bisect_right(ordered, value) + 1 for key, value in values.items()}


def last_session(cat: Catalog, day: date) -> date:
    """The last market session on or before `day` that the catalog holds."""
    i = bisect_right(cat.sessions, day)
    if i == 0:
        first = cat.sessions[0] if cat.sessions else None
        raise ToolError(f"no session on or before {day}; the prices start on {first}")
    return cat.sessions[i - 1]


def companies(cat: Catalog) -> dict[str, tuple[str, str]]:
    """Each ticker's name and sector, read once per catalog."""

    def build() -> dict[str, tuple[str, str]]:
        with cat.cursor() as cur:
            rows = cur.execute("SELECT ticker, name, sector FROM companies").fetchall()
        return {ticker: (name, sector) for ticker, name, sector in rows}

    return cat.memo(("companies",), build)


class CompanyArgs(ToolArgs):
    ticker: Ticker


def get_company(cat: Catalog, args: CompanyArgs) -> dict[str, Any]:
    """A company's name and sector, as the companies table gives them."""
    row = companies(cat).get(args.ticker)
    if row is None:
        raise unknown_ticker(cat, args.ticker)
    return {"ticker": args.ticker, "name": row[0], "sector": row[1]}


class PortfolioRanksArgs(ToolArgs):
    portfolio_id: PortfolioId
    date: IsoDate = SESSION_DATE
    ticker: Ticker | None = Field(
        default=None, description="Only this position's row (the counts and lists stay whole)"
    )


def get_portfolio_ranks(cat: Catalog, args: PortfolioRanksArgs) -> dict[str, Any]:
    """A portfolio's positions ranked by weight, day return, P&L and contribution, with the benchmark.

    Also the counts of gainers and decliners, and the top movers, contributors and detractors."""
    check_not_after_report(cat, args.date)
    session = last_session(cat, args.date)
    book = read_book(cat, args.portfolio_id, session)
    priced: dict[str, dict[str, Any]] = {}
    unpriced: dict[str, str] = {}
    for ticker in book.quantities:
        try:
            priced[ticker] = position_pnl(cat, book, ticker, session)
        except ToolError as exc:
            unpriced[ticker] = exc.message
    if not priced:
        why = "; ".join(f"{t}: {m}" for t, m in unpriced.items())
        raise ToolError(f"no position of {args.portfolio_id} has a day change on {session}: {why}")
    market_value = round_price(sum(p["market_value"] for p in priced.values()))
    day_pnl = round_price(sum(p["day_pnl"] for p in priced.values()))
    before = round_price(book.value_before)
    rows = ranked_positions(cat, priced, market_value)
    if args.ticker is not None and all(r["ticker"] != args.ticker for r in rows):
        held = ", ".join(sorted(book.quantities))
        raise ToolError(
            f"{args.ticker} is no priced position of {args.portfolio_id}: it holds {held}"
        )
    result: dict[str, Any] = {
        "portfolio_id": args.portfolio_id,
        "session": session.isoformat(),
        "previous_session": previous_session(session).isoformat(),
        "holdings_as_of": book.snapshot.isoformat(),
        "positions_count": len(rows),
        "gainers": sum(1 for r in rows if r["day_pnl"] > 0),
        "decliners": sum(1 for r in rows if r["day_pnl"] < 0),
        "unchanged": sum(1 for r in rows if r["day_pnl"] == 0),
        "portfolio_return_pct": percent(day_pnl, before),
        "portfolio_day_pnl": day_pnl,
        "market_value": market_value,
        "benchmark": benchmark_move(cat, args.portfolio_id, session),
        "positions": [r for r in rows if args.ticker in (None, r["ticker"])],
        **movers(rows),
    }
    if unpriced:
        result["unpriced"] = [{"ticker": t, "reason": m} for t, m in unpriced.items()]
    if session != args.date:
        result["note"] = f"no session on {args.date}; the last session on or before it is {session}"
    return result


def ranked_positions(
    cat: Catalog, priced: Mapping[str, dict[str, Any]], market_value: float
) -> list[dict[str, Any]]:
    """One row per priced position with its four ranks, largest contribution first."""
    names = companies(cat)
    weights = {t: percent(p["market_value"], market_value) for t, p in priced.items()}
    returns = {t: p["pnl_pct"] for t, p in priced.items()}
    pnls = {t: p["day_pnl"] for t, p in priced.items()}
    contributions = {t: p["contribution_pct"] for t, p in priced.items()}
    ranks = [competition_ranks(v) for v in (weights, returns, pnls, contributions)]
    rows = [
        {
            "ticker": t,
            "name": names.get(t, (t, ""))[0],
            "sector": names.get(t, (t, ""))[1],
            "weight_pct": weights[t],
            "weight_rank": ranks[0][t],
            "day_return_pct": returns[t],
            "return_rank": ranks[1][t],
            "day_pnl": pnls[t],
            "pnl_rank": ranks[2][t],
            "contribution_pct": contributions[t],
            "contribution_rank": ranks[3][t],
        }
        for t in priced
    ]
    return sorted(rows, key=lambda r: (r["contribution_rank"], r["ticker"]))


def movers(rows: list[dict[str, Any]]) -> dict[str, list[str]]:
    """The first `MOVERS_SHOWN` tickers by day return each way, and by P&L among those that
    gained (contributors) or lost (detractors); ties in ticker order."""
    by_return = sorted(rows, key=lambda r: (-r["day_return_pct"], r["ticker"]))
    by_pnl = sorted(rows, key=lambda r: (-r["day_pnl"], r["ticker"]))
    worst = sorted(rows, key=lambda r: (r["day_return_pct"], r["ticker"]))
    losses = sorted(rows, key=lambda r: (r["day_pnl"], r["ticker"]))
    return {
        "top_movers": [r["ticker"] for r in by_return][:MOVERS_SHOWN],
        "bottom_movers": [r["ticker"] for r in worst][:MOVERS_SHOWN],
        "top_contributors": [r["ticker"] for r in by_pnl if r["day_pnl"] > 0][:MOVERS_SHOWN],
        "detractors": [r["ticker"] for r in losses if r["day_pnl"] < 0][:MOVERS_SHOWN],
    }


def benchmark_move(cat: Catalog, portfolio_id: str, session: date) -> dict[str, Any]:
    """The day return of the portfolio's benchmark ticker, or of the equal-weight universe when
    the portfolios table names none."""
    ticker = benchmarks(cat).get(portfolio_id)
    if ticker is None:
        return cat.memo(("universe move", session), lambda: universe_move(cat, session))
    try:  # the data check holds benchmarks to the companies table, not to the ticker pattern
        move = get_daily_move(cat, DailyMoveArgs.model_construct(ticker=ticker, date=session))
    except ToolError as exc:
        return {"name": ticker, "ticker": ticker, "return_pct": None, "note": exc.message}
    return {"name": ticker, "ticker": ticker, "return_pct": move["change_pct"]}


def benchmarks(cat: Catalog) -> dict[str, str | None]:
    """Each portfolio's benchmark ticker, read once per catalog: every position question of a
    portfolio asks for its ranks, and a query costs more than the ranks themselves."""

    def build() -> dict[str, str | None]:
        with cat.cursor() as cur:
            return dict(cur.execute("SELECT portfolio_id, benchmark FROM portfolios").fetchall())

    return cat.memo(("benchmarks",), build)


def universe_move(cat: Catalog, session: date) -> dict[str, Any]:
    """The mean day return of every ticker priced on the session and on the one before it,
    split-adjusted like every day change."""
    with cat.cursor() as cur:
        closes = cur.execute(
            "SELECT ticker, close FROM prices WHERE date = $d", {"d": session}
        ).fetchall()
    before = previous_session(session)
    previous = previous_closes(cat, [t for t, _ in closes], session)
    moves = [
        (close - previous[t][1]) / previous[t][1] * 100
        for t, close in closes
        if t in previous and previous[t][0] == before
    ]
    mean = round(sum(moves) / len(moves), 2) + 0.0 if moves else None
    return {"name": EQUAL_WEIGHT, "ticker": None, "return_pct": mean, "constituents": len(moves)}


class TrendArgs(ToolArgs):
    ticker: Ticker
    date: IsoDate = SESSION_DATE


def get_trend(cat: Catalog, args: TrendArgs) -> dict[str, Any]:
    """A ticker's streak of up or down sessions and its week, month, quarter and year-to-date change.

    Changes are split-adjusted as in `get_price_change`; a window the prices do not reach is left
    out."""
    listing = find_listing(cat, args.ticker)
    check_in_range(cat, listing, args.date)
    rows = closes_of(cat, args.ticker).upto(args.date)
    session = rows[-1][0]
    splits = split_ratios(cat, args.ticker, rows[0][0], session)
    result: dict[str, Any] = {
        "ticker": args.ticker,
        "session": session.isoformat(),
        "streak": streak(rows, splits),
        "changes": window_changes(rows, splits),
    }
    if session != args.date:
        result["note"] = f"no session on {args.date}; the last session on or before it is {session}"
    return result


def day_change(
    start: tuple[date, float], end: tuple[date, float], splits: list[tuple[date, float]]
) -> float:
    """The change from one close to a later one as `get_daily_move` shows it (2 decimals)."""
    between = [(d, r) for d, r in splits if start[0] < d <= end[0]]
    return float(change_between(start[1], end[1], between, "end", "start")["change"])


def streak(
    rows: list[tuple[date, float]], splits: list[tuple[date, float]]
) -> dict[str, Any] | None:
    """The run of sessions ending at the last row whose day changes share a sign; None when that
    session has no day change (its first session, or a gap in its prices before it)."""
    direction, count, since = "", 0, None
    for previous, current in reversed(list(pairwise(rows))):
        if previous[0] != previous_session(current[0]):
            break  # a gap: no day change, so the run cannot reach further back
        change = day_change(previous, current, splits)
        sign = "up" if change > 0 else "down" if change < 0 else "flat"
        if count and sign != direction:
            break
        direction, count, since = sign, count + 1, current[0]
    if since is None:
        return None
    return {"direction": direction, "sessions": count, "since_session": since.isoformat()}


def month_before(day: date) -> date:
    """The same day a calendar month earlier, or that month's last day when it is shorter."""
    year, month = (day.year, day.month - 1) if day.month > 1 else (day.year - 1, 12)
    return date(year, month, min(day.day, monthrange(year, month)[1]))


def quarter_eve(day: date) -> date:
    """The last day of the calendar quarter before the one `day` is in."""
    return date(day.year, 3 * ((day.month - 1) // 3) + 1, 1) - timedelta(days=1)


WINDOWS: dict[str, Callable[[date], date]] = {
    "week": lambda day: day - timedelta(days=7),
    "month": month_before,
    "quarter": quarter_eve,
    "year_to_date": lambda day: date(day.year - 1, 12, 31),
}
"""Each window's start: the last session on or before this date, counted from the session."""


def window_changes(
    rows: list[tuple[date, float]], splits: list[tuple[date, float]]
) -> list[dict[str, Any]]:
    """The change over each window the prices reach back to, as `get_price_change` gives it."""
    days = [d for d, _ in rows]
    end_session, end_close = rows[-1]
    changes = []
    for window, start_of in WINDOWS.items():
        i = bisect_right(days, start_of(end_session)) - 1
        if i < 0 or days[i] == end_session:
            continue  # the prices do not reach back that far
        start_session, start_close = rows[i]
        between = [(d, r) for d, r in splits if start_session < d <= end_session]
        changes.append(
            {
                "window": window,
                "start_session": start_session.isoformat(),
                "end_session": end_session.isoformat(),
                **change_between(start_close, end_close, between, "end_close", "start_close"),
            }
        )
    return changes

"""The report a portfolio manager reads first, rendered from a report built as a night builds it:
the stale-holdings warning on top, names, sectors and weights in a table ordered by
contribution, contributors and detractors with their amounts, the day against the benchmark,
what changed since the previous report in the same tree, times written for people, and in the
HTML page the contribution bars and the movers' price lines drawn from the table's figures. The
last test opens the page in Chromium and keeps its screenshot."""

from __future__ import annotations

import json
import os
import re
import shutil
from collections.abc import Iterator
from datetime import date, timedelta
from pathlib import Path

import pytest

from flows.publish.layout import RunLayout
from flows.publish.render import render_html, render_markdown, write_report
from flows.publish.report import Answer, PortfolioReport, TickerSection
from tests.flows.browser import chromium, offline_page
from tools.portfolio_table import PortfolioTable

DAY = date(2015, 12, 30)
STAMP = "2015-12-30T16:22:05-05:00"
HEADLINE = "Apple supplier cuts 2015-16 outlook"
POSITIONS = [
    # ticker, name, sector, weight, close, market value, day P&L, P&L %, contribution
    ("MSFT", "Microsoft Corporation", "Technology", 30.0, 56.0, 30000.0, -600.0, -1.96, -0.6),
    ("AAPL", "Apple Inc.", "Consumer Goods", 50.0, 107.0, 50000.0, 1500.0, 3.09, 1.5),
    ("XOM", "Exxon Mobil Corporation", "Basic Materials", 20.0, 78.0, 20000.0, 100.0, 0.5, 0.1),
]


def table(day: date = DAY, scale: float = 1.0, holdings: date | None = None) -> PortfolioTable:
    rows = [
        {"ticker": t, "name": n, "sector": s, "weight_pct": w, "quantity": mv / c,
         "close": round(c * scale, 2), "market_value": round(mv * scale, 2), "day_pnl": pnl,
         "pnl_pct": pct, "contribution_pct": contribution, "price_basis": "as traded"}
        for t, n, s, w, c, mv, pnl, pct, contribution in POSITIONS
    ]  # fmt: skip
    closes = [100.0 + i for i in range(20)] + [107.0]
    history = [
        {"day": (day - timedelta(days=20 - i)).isoformat(), "close": c}
        for i, c in enumerate(closes)
    ]
    return PortfolioTable.model_validate(
        {
            "portfolio_id": "P1",
            "name": "Growth",
            "base_currency": "USD",
            "report_date": day.isoformat(),
            "holdings_as_of": (holdings or day - timedelta(days=36)).isoformat(),
            "market_value": round(100000.0 * scale, 2),
            "day_pnl": 1000.0,
            "day_return_pct": 1.01,
            "positions": rows,
            "contributors": ["AAPL", "XOM"],
            "detractors": ["MSFT"],
            "benchmark": {"name": "equal-weight universe", "return_pct": 0.25, "constituents": 87},
            "history": {"AAPL": history, "MSFT": history[:1]},
        }
    )


def report(language: str = "en", **kwargs: object) -> PortfolioReport:
    news = {
        "tool": "search_news",
        "args": {"ticker": "AAPL"},
        "result": {"news": [{"published_at": STAMP, "session": "after", "headline": HEADLINE}]},
    }
    summary = Answer(
        question_id="AAPL/summary",
        kind="summary",
        question="s",
        status="accepted",
        answer=f'AAPL rose 3.21 from its previous close on 2015-12-29. Headlines: "{HEADLINE}" '
        f"(wire, {STAMP}). Nothing is scheduled through 2016-01-29.",
        evidence=[news],
    )
    sections = [TickerSection(ticker="AAPL", summary=summary)]
    sections += [TickerSection(ticker=t) for t in ("MSFT", "XOM")]
    return PortfolioReport(
        run_id="r1",
        report_date=DAY,
        portfolio_id="P1",
        language=language,
        table=kwargs.pop("table", table()),  # type: ignore[arg-type]
        tickers=sections,
        **kwargs,  # type: ignore[arg-type]
    )


def test_the_first_screen_says_what_a_manager_asks_first() -> None:
    md = render_markdown(report())
    lines = [line for line in md.splitlines() if line.strip()]
    assert lines[1].startswith("**Stale holdings: the positions are 36 days old (as of Nov 24,")
    assert "Reports warn past 7 days" in lines[1]
    # the benchmark's difference is the table's own: 1.01 - 0.25
    assert (
        "Benchmark (equal-weight universe of 87 tickers) +0.25% on the day; the portfolio's "
        "+1.01% is 0.76 percentage points above it." in md
    )
    assert "Top contributors: AAPL +1,500.00 (+1.50%), XOM +100.00 (+0.10%)." in md
    assert "Top detractors: MSFT -600.00 (-0.60%)." in md
    rows = [line for line in md.splitlines() if line.startswith("| ")]
    assert rows[0].startswith("| Ticker | Company | Sector | Weight |")
    assert [r.split("|")[1].strip() for r in rows[2:]] == ["AAPL", "XOM", "MSFT"]
    assert "| AAPL | Apple Inc. | Consumer Goods | 50.00% |" in md


def test_times_are_written_for_people_and_quotes_stay_whole() -> None:
    md = render_markdown(report())
    assert "(wire, Dec 30, 16:22, after the close)" in md
    assert "previous close on Dec 29." in md and "through Jan 29, 2016." in md
    assert HEADLINE in md and STAMP not in md and "2015-12-29" not in md
    es = render_markdown(report("es"))
    assert "(wire, 30 dic, 16:22, tras el cierre)" in es and "29 ene 2016" in es
    # the JSON keeps the verified text as it was verified
    assert STAMP in report().model_dump_json()


def test_fresh_holdings_carry_no_warning() -> None:
    fresh = report(table=table(holdings=DAY - timedelta(days=3)))
    assert "Stale" not in render_markdown(fresh) and 'id="stale"' not in render_html(fresh)
    lenient = report(holdings_max_age_days=40)
    assert "Stale" not in render_markdown(lenient)


def test_the_page_draws_the_tables_figures() -> None:
    html = render_html(report())
    bars = re.findall(r'<g class="bar" data-ticker="(\w+)" data-value="([-\d.]+)"', html)
    assert bars == [("AAPL", "1.5"), ("XOM", "0.1"), ("MSFT", "-0.6")]
    assert html.count('class="chart price-line"') == 1  # AAPL's month; MSFT has one close
    line = html[html.index('class="chart price-line"') :]
    assert "Dec 10: 100.00" in line and "Dec 30: 107.00" in line
    assert "<script" not in html and "http://" not in html.replace("http://www.w3.org", "")


def test_spanish_reports_alike() -> None:
    md = render_markdown(report("es"))
    assert "**Posiciones desactualizadas: tienen 36 días (al 24 nov 2015)" in md
    assert "Referencia (universo equiponderado de 87 tickers) +0,25 % en el día" in md
    assert "queda 0,76 puntos porcentuales por encima." in md
    assert "| Ticker | Empresa | Sector | Peso |" in md
    assert "Principales contribuidores: AAPL +1.500,00 (+1,50 %)" in md
    html = render_html(report("es"))
    assert "Contribución al rendimiento del día" in html


def test_a_previous_report_in_the_tree_gives_the_since_section(tmp_path: Path) -> None:
    before = DAY - timedelta(days=7)
    write_report(RunLayout(tmp_path, before), report_on(before, scale=0.9))
    (tmp_path / "2015-12-01").mkdir()  # a date folder without the portfolio's report
    (tmp_path / "notes").mkdir()
    write_report(RunLayout(tmp_path, DAY), report())
    md = (tmp_path / DAY.isoformat() / "accepted" / "P1.md").read_text(encoding="utf-8")
    section = md[md.index("## Since the last report (Dec 23, 2015)") :]
    assert "Market value 90,000.00 then, 100,000.00 now: +10,000.00 (+11.11%)." in section
    assert "Largest moves of the closes: AAPL +11.11% (96.30 to 107.00)" in section
    saved = json.loads((tmp_path / DAY.isoformat() / "accepted" / "P1.json").read_text())
    assert saved["since"]["report_date"] == before.isoformat()
    first = (tmp_path / before.isoformat() / "accepted" / "P1.md").read_text(encoding="utf-8")
    assert "Since the last report" not in first


def report_on(day: date, scale: float) -> PortfolioReport:
    return report(table=table(day, scale)).model_copy(update={"report_date": day})


@pytest.fixture(scope="module")
def browser() -> Iterator:
    yield from chromium()


def test_the_page_in_a_browser(browser, tmp_path: Path) -> None:
    write_report(RunLayout(tmp_path, DAY - timedelta(days=7)), report_on(DAY - timedelta(7), 0.9))
    write_report(RunLayout(tmp_path, DAY), report())
    page = tmp_path / DAY.isoformat() / "accepted" / "P1.html"
    shot = tmp_path / "pm-report.png"
    tab_iter = offline_page(browser, page, 1100, shot, full_page=True)
    tab = next(tab_iter)
    assert tab.locator("#stale").is_visible()
    assert tab.locator("h1").bounding_box()["y"] < tab.locator("#stale").bounding_box()["y"]
    assert tab.locator("#stale").bounding_box()["y"] < tab.locator("#positions").bounding_box()["y"]
    bars = tab.locator("#contributions g.bar rect")
    assert bars.count() == 3
    widths = [bars.nth(i).bounding_box()["width"] for i in range(3)]
    assert widths[0] > widths[2] > widths[1] > 0  # 1.5, then 0.6, then 0.1 points
    assert tab.locator("#material .price-line svg").is_visible()
    assert "Since the last report" in tab.locator("#since h2").inner_text()
    for card in ("#position-MSFT", "#position-XOM"):  # no answer drafted: said, never blank
        assert "No paragraph tonight" in tab.locator(card).inner_text()
    next(tab_iter, None)
    assert shot.stat().st_size > 10_000
    if keep := os.environ.get("NIGHTDESK_SCREENSHOTS"):
        Path(keep).mkdir(parents=True, exist_ok=True)
        shutil.copy(shot, Path(keep) / shot.name)


def test_an_unreadable_or_later_report_gives_no_since_section(tmp_path: Path) -> None:
    before = RunLayout(tmp_path, DAY - timedelta(days=1))
    before.accepted.mkdir(parents=True)
    before.report("P1", ".json").write_text("{not json", encoding="utf-8")
    (tmp_path / (DAY - timedelta(days=2)).isoformat() / "accepted").mkdir(parents=True)
    (tmp_path / (DAY - timedelta(days=2)).isoformat() / "accepted" / "P1.json").symlink_to(
        "/etc/hostname"
    )
    write_report(RunLayout(tmp_path, DAY + timedelta(days=1)), report_on(DAY + timedelta(1), 2))
    write_report(RunLayout(tmp_path, DAY), report())
    md = (tmp_path / DAY.isoformat() / "accepted" / "P1.md").read_text(encoding="utf-8")
    assert "Since the last report" not in md

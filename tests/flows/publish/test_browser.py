"""A portfolio report's HTML page in headless Chromium (Debian's package, driven by Playwright):
it loads nothing from outside, shows the table and the material moves first, keeps the sources
folded until asked, and links to the review page."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.flows.browser import chromium, offline_page
from tools.portfolio_table import MATERIAL_CONTRIBUTION_PCT, MATERIAL_MOVE_PCT


@pytest.fixture(scope="module")
def browser() -> Iterator:
    yield from chromium()


@pytest.fixture
def report_page(browser, night_en: Path, tmp_path: Path) -> Iterator:
    page = night_en / "accepted" / "P001.html"
    yield from offline_page(browser, page, 1280, tmp_path / "report.png", full_page=True)


def test_the_table_and_the_material_moves_lead_the_page(report_page, night_en: Path) -> None:
    data = json.loads((night_en / "accepted" / "P001.json").read_text(encoding="utf-8"))
    positions = data["table"]["positions"]
    rows = report_page.locator("#positions tbody tr")
    assert rows.count() == len(positions)
    first_row = max(positions, key=lambda p: p["contribution_pct"])  # ordered by contribution
    assert rows.first.locator("td").first.inner_text() == first_row["ticker"]
    assert "Holdings as of " + data["table"]["holdings_as_of"] in report_page.inner_text("#basis")
    material = [
        p
        for p in positions
        if abs(p["pnl_pct"]) >= MATERIAL_MOVE_PCT
        or abs(p["contribution_pct"]) >= MATERIAL_CONTRIBUTION_PCT
    ]
    material.sort(key=lambda p: -abs(p["contribution_pct"]))
    shown = report_page.locator("#material article h3")
    assert [shown.nth(i).inner_text().split()[0] for i in range(shown.count())] == [
        p["ticker"] for p in material
    ]
    first = report_page.locator("#material article").first
    assert first.locator("p.paragraph").is_visible()
    red = report_page.locator("#positions td.neg").first
    assert red.inner_text().startswith("-")
    rows.first.locator("a").click()  # the ticker leads to its paragraph
    assert report_page.url.endswith(f"#position-{first_row['ticker']}")


def test_sources_stay_folded_until_opened(report_page) -> None:
    article = report_page.locator("#material article").first
    sources = article.locator("details li")
    assert sources.count() >= 2 and not sources.first.is_visible()
    article.locator("details summary").click()
    assert sources.first.is_visible()
    assert sources.first.inner_text().startswith("get_daily_move(")


def test_every_paragraph_is_said_once_on_the_page(report_page) -> None:
    paragraphs = report_page.locator("p.paragraph")
    texts = [paragraphs.nth(i).inner_text() for i in range(paragraphs.count())]
    assert len(texts) >= 3 and len(texts) == len(set(texts))
    assert report_page.locator("#withheld").inner_text().startswith("No answer was withheld")

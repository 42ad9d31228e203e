"""The review page in headless Chromium (Debian's package, driven by Playwright)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.flows.browser import chromium, offline_page

DATE = "2024-03-28"


@pytest.fixture(scope="module")
def browser() -> Iterator:
    yield from chromium()


@pytest.fixture
def page(browser, published_run: Path, tmp_path: Path) -> Iterator:
    review = published_run / DATE / "review.html"
    yield from offline_page(browser, review, 1366, tmp_path / "review.png", full_page=False)


def cases(published_run: Path) -> list[dict]:
    lines = (published_run / DATE / "rejected" / "index.jsonl").read_text().splitlines()
    return [json.loads(line) for line in lines]


def test_failing_spans_are_highlighted_with_their_reason(page, published_run: Path) -> None:
    for row in cases(published_run):
        if row["stop_reason"] != "answered":
            continue
        marks = page.locator(f'[id="{row["case_id"]}"] mark.fail')
        assert marks.count() >= 1
        rules = {r for m in marks.all() for r in (m.get_attribute("data-rule") or "").split()}
        assert rules == set(row["reasons"])
    figure = page.locator("mark.fail", has_text="987.65").first
    assert figure.get_attribute("data-rule") == "unsupported_figure"
    assert "unsupported_figure" in (figure.get_attribute("title") or "")
    headline = page.locator('mark.fail[data-rule="unknown_headline"]').first
    assert "<script>alert('x')</script>" in headline.inner_text()


def test_filters_change_what_is_visible(page, published_run: Path) -> None:
    rows = cases(published_run)
    visible = page.locator("article.case:visible")
    assert visible.count() == len(rows)

    page.select_option("#filter-reason", "provider_error")
    expected = {r["case_id"] for r in rows if "provider_error" in r["reasons"]}
    assert {visible.nth(i).get_attribute("id") for i in range(visible.count())} == expected
    assert page.locator("#shown").inner_text() == f"{len(expected)} of {len(rows)} cases"

    page.select_option("#filter-reason", "")
    ticker = rows[0]["ticker"]
    page.select_option("#filter-ticker", ticker)
    expected = {r["case_id"] for r in rows if r["ticker"] == ticker}
    assert {visible.nth(i).get_attribute("id") for i in range(visible.count())} == expected

    page.select_option("#filter-ticker", "")
    page.select_option("#filter-portfolio", "P002")
    expected = {r["case_id"] for r in rows if "P002" in r["portfolios"]}
    assert {visible.nth(i).get_attribute("id") for i in range(visible.count())} == expected
    assert 0 < len(expected) < len(rows)


def test_the_trace_opens_on_click_and_claims_link_to_their_call(page, published_run: Path) -> None:
    case = next(r["case_id"] for r in cases(published_run) if r["reason"] == "unknown_headline")
    article = page.locator(f'[id="{case}"]')
    call = article.locator("div.call").first
    assert not call.is_visible()
    article.locator("details > summary").click()
    assert call.is_visible()
    assert article.locator("div.call table.data th", has_text="headline").count() == 1

    article.locator("details > summary").click()
    assert not call.is_visible()
    supported = article.locator("a.ok").first
    target = supported.get_attribute("href") or ""
    supported.click()
    assert page.locator(f'[id="{target[1:]}"]').is_visible()

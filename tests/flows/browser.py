"""Headless Chromium for the page tests: Debian's package driven by Playwright (never a browser
download), and a page opened with a record of every request it makes, so a test can hold a
self-contained page to loading nothing from outside."""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

CHROMIUM = "/usr/bin/chromium"
ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]


def chromium() -> Iterator[Any]:
    """A running Chromium, closed after use (the body of a module-scoped fixture)."""
    from playwright.sync_api import sync_playwright

    if shutil.which("chromium") is None and not Path(CHROMIUM).exists():
        pytest.fail("chromium is missing: apt-get install -y chromium (make browser)")
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        yield browser
        browser.close()


def offline_page(
    browser: Any, page: Path, width: int, screenshot: Path, *, full_page: bool
) -> Iterator[Any]:
    """`page` open in a tab `width` pixels wide; afterwards a screenshot, and the check that the
    page asked for nothing but local files."""
    context = browser.new_context(viewport={"width": width, "height": 900})
    requests: list[str] = []
    context.on("request", lambda r: requests.append(r.url))
    tab = context.new_page()
    tab.goto(page.resolve().as_uri())
    yield tab
    tab.screenshot(path=str(screenshot), full_page=full_page)
    assert [r for r in requests if not r.startswith("file://")] == []
    context.close()

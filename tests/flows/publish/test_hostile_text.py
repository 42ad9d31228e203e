"""Text from data shown in a report links nowhere, shows no image, and hides no bidi control or
invisible character, in the Markdown (as two Markdown renderers read it) and in the HTML page;
the report's JSON keeps the text as it came."""

from __future__ import annotations

import json
import re
import unicodedata
from datetime import date
from html.parser import HTMLParser
from pathlib import Path

import markdown
import pytest
from markdown_it import MarkdownIt

from flows.publish.layout import RunLayout
from flows.publish.render import write_report
from flows.publish.report import Answer, PortfolioReport
from tests.flows.publish.test_report import section, table

HOSTILE = (
    "AAA \u202efell 40%\u202c today\u200b\u2066 after [the deal](https://evil.example/a) "
    "![pixel](https://evil.example/p.png) <https://evil.example/auto> see https://evil.example/b "
    "or www.evil.example, mail ceo@evil.example; [ref][1]\n\n[1]: https://evil.example/ref\n"
    '<a href="https://evil.example/h">here</a> <img src=x onerror=alert(1)> '
    "\x1b]8;;https://evil.example\x07osc\x1b]8;;\x07 \U000e0041\u00ad\ufeff"
)
OURS = re.compile(r"^(#position-|\.\./review\.html)")


class Links(HTMLParser):
    """Every link and image a browser would make of a page, and its text."""

    def __init__(self) -> None:
        super().__init__()
        self.links: list[str] = []
        self.images: list[str] = []
        self.text: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        found = dict(attrs)
        if tag == "a" and "href" in found:
            self.links.append(found["href"] or "")
        ours = tag == "svg" and (found.get("class") or "").startswith("chart ")  # drawn by us
        if tag in ("img", "image", "svg", "iframe", "object", "embed", "picture", "source"):
            self.images += [] if ours else [tag]
        if tag in ("foreignobject", "use") or any(k.endswith("href") for k in found):
            self.images += [] if tag == "a" else [tag]

    def handle_data(self, data: str) -> None:
        self.text.append(data)


def read(html: str) -> Links:
    parser = Links()
    parser.feed(html)
    return parser


def hostile_report() -> PortfolioReport:
    withheld = Answer(
        question_id="AAA/news",
        kind="news",
        question="q",
        status="withheld",
        reason="unknown_headline",
        case_id="AAA__news",
    )
    approved = Answer(
        question_id="AAA/move",
        kind="move",
        question="q",
        status="approved",
        answer=HOSTILE,
        note=f"analyst-approved by ana: {HOSTILE}",
    )
    return PortfolioReport(
        run_id="r",
        report_date=date(2024, 12, 31),
        portfolio_id="P9",
        table=table(),
        tickers=[section("AAA", withheld, approved, summary=HOSTILE), section("BBB")],
    )


@pytest.fixture
def written(tmp_path: Path) -> dict[str, str]:
    paths = write_report(RunLayout(tmp_path, date(2024, 12, 31)), hostile_report())
    return {p.suffix: p.read_text(encoding="utf-8") for p in paths}


def assert_safe(html: str) -> None:
    page = read(html)
    assert all(OURS.match(href) for href in page.links), page.links
    assert page.images == []
    text = "".join(page.text)
    assert "://" not in text and "www." not in text and "@evil" not in text
    assert not [c for c in html if unicodedata.category(c) in ("Cf", "Cc") and c not in "\n\t"]
    assert "fell 40%" in text


@pytest.mark.parametrize(
    "renderer",
    [
        lambda md: MarkdownIt("commonmark").enable(["table", "strikethrough"]).render(md),
        lambda md: markdown.markdown(md, extensions=["tables"]),
    ],
    ids=["markdown-it", "python-markdown"],
)
def test_the_markdown_report_renders_no_live_link_image_or_hidden_character(
    written: dict[str, str], renderer
) -> None:
    assert_safe(renderer(written[".md"]))
    assert "https[:]//evil.example/b" in written[".md"].replace("\\", "")


def test_the_html_report_holds_no_live_link_image_or_hidden_character(
    written: dict[str, str],
) -> None:
    assert_safe(written[".html"])


def test_the_json_keeps_the_text_as_it_came(written: dict[str, str]) -> None:
    stored = json.loads(written[".json"])
    assert stored["tickers"][0]["summary"]["answer"] == HOSTILE

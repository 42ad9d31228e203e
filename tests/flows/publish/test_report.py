"""The reports of the sample's night read as a portfolio manager reads them: each sentence once,
only the portfolio's own positions, every number in the table's format and every label in the
report's language; and the view's own rules (material moves first, what is withheld) hold."""

from __future__ import annotations

import json
import re
from datetime import date
from html.parser import HTMLParser
from pathlib import Path

import pyarrow.parquet as pq
import pytest

from flows.publish.labels import LABELS
from flows.publish.render import render_markdown
from flows.publish.report import Answer, PortfolioReport, TickerSection
from tests.flows.publish.conftest import SAMPLE
from tools.portfolio_table import MATERIAL_CONTRIBUTION_PCT, MATERIAL_MOVE_PCT, PortfolioTable

PORTFOLIOS = sorted(pq.read_table(SAMPLE / "portfolios.parquet").column("portfolio_id").to_pylist())
QUOTE = re.compile(r'"[^"]*"|“[^”]*”|«[^»]*»')
STAMP = re.compile(
    r"\d{4}-\d{2}-\d{2}(?:T\d{2}:\d{2}(?::\d{2})?Z?)?"
    r"|\b[A-Z][a-z]{2} \d{1,2}(?:, \d{4})?(?:, \d{2}:\d{2})?|\b\d{1,2} [a-z]{3,4} \d{4}"
)
"""A date or time, as ISO or as a report writes it for people (Dec 30, 2024; 30 dic 2024)."""
CODE = re.compile(r"`[^`]*`|\]\(<[^>]*>\)")
NUMBER = re.compile(r"(?<![\w.,])[-+]?\d[\d.,]*(?<![.,])")
FORMAT = {
    "en": re.compile(r"[-+]?\d{1,3}(?:,\d{3})*(?:\.\d{2,6})?"),
    "es": re.compile(r"[-+]?\d{1,3}(?:\.\d{3})*(?:,\d{2,6})?"),
}
"""A number as the table writes it: thousands grouped, no decimals (a count) or two and more."""
SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=[A-Z¿¡“\"0-9])")


class TextOf(HTMLParser):
    """The text a browser shows of a page (what is inside <style> and <title> aside)."""

    BLOCKS = ("p", "li", "h1", "h2", "h3", "tr", "summary", "td", "th")

    def __init__(self, only: tuple[str, ...] = ()) -> None:
        super().__init__()
        self.parts: list[str] = []
        self.skip = 0
        self.only = only
        self.inside = 0

    def handle_starttag(self, tag: str, attrs: list) -> None:
        self.skip += tag in ("style", "title")
        self.inside += tag in self.only
        if tag in self.BLOCKS:
            self.parts.append("\n")

    def handle_endtag(self, tag: str) -> None:
        self.skip -= tag in ("style", "title")
        self.inside -= tag in self.only

    def handle_data(self, data: str) -> None:
        if not self.skip and (self.inside or not self.only):
            self.parts.append(data)


def html_text(html: str, only: tuple[str, ...] = ()) -> str:
    """The page's text; with `only`, the text inside those elements alone (its prose: p, li)."""
    parser = TextOf(only)
    parser.feed(html)
    return "".join(parser.parts)


def prose(md: str) -> list[str]:
    """The report's lines of text: the table, headings and blank lines aside."""
    return [
        line.replace("\\", "").strip("_* ")
        for line in md.splitlines()
        if line.strip() and not line.startswith(("|", "#"))
    ]


def sentences(lines: list[str]) -> list[str]:
    """Every sentence, quoted headlines kept whole (their own full stops do not end one)."""
    found = []
    for line in lines:
        quotes = QUOTE.findall(line)
        for piece in SENTENCE_END.split(QUOTE.sub("\0", line)):
            while "\0" in piece:
                piece = piece.replace("\0", quotes.pop(0), 1)
            found.append(piece.strip())
    return [s for s in found if s]


def bare_numbers(text: str) -> list[str]:
    """The numbers of a text, leaving out dates, times, quoted headlines, ids and commands."""
    text = CODE.sub(" ", QUOTE.sub(" ", text))
    return NUMBER.findall(STAMP.sub(" ", text))


def reports(day: Path) -> dict[str, tuple[str, str, dict]]:
    accepted = day / "accepted"
    return {
        pid: (
            (accepted / f"{pid}.md").read_text(encoding="utf-8"),
            (accepted / f"{pid}.html").read_text(encoding="utf-8"),
            json.loads((accepted / f"{pid}.json").read_text(encoding="utf-8")),
        )
        for pid in PORTFOLIOS
    }


@pytest.fixture(params=["en", "es"])
def night(request: pytest.FixtureRequest) -> tuple[str, Path]:
    return request.param, request.getfixturevalue(f"night_{request.param}")


def test_every_portfolio_has_a_markdown_and_a_self_contained_html_report(night) -> None:
    _, day = night
    for pid, (md, html, data) in reports(day).items():
        assert data["portfolio_id"] == pid and md.startswith("# ")
        assert "<script" not in html and "<link" not in html and "@import" not in html
        links = set(re.findall(r'(?:src|href)="([^"]+)"', html))
        assert all(a.startswith(("#position-", "../review.html")) for a in links)
        assert all(f'id="{a[1:]}"' in html for a in links if a.startswith("#"))
        assert (day / "accepted" / "../review.html").resolve().is_file()


def test_no_sentence_appears_twice_in_a_report(night) -> None:
    _, day = night
    for pid, (md, html, _) in reports(day).items():
        for text in (prose(md), html_text(html, ("p", "li")).splitlines()):
            said = sentences([line for line in text if line.strip()])
            repeated = {s for s in said if said.count(s) > 1}
            assert repeated == set(), (pid, repeated)
            headlines = [q for line in text for q in QUOTE.findall(line)]
            assert len(headlines) == len(set(headlines)), pid


def test_no_other_portfolios_id_appears(night) -> None:
    _, day = night
    for pid, (md, html, data) in reports(day).items():
        others = [p for p in PORTFOLIOS if p != pid]
        for text in (md, html, json.dumps(data)):
            assert [p for p in others if re.search(rf"\b{p}\b", text)] == [], pid


def test_every_number_in_the_text_carries_the_tables_format(night) -> None:
    language, day = night
    for pid, (md, html, _) in reports(day).items():
        rows = [line[1:-1].split("|") for line in md.splitlines() if line.startswith("| ")]
        table = [c.strip() for row in rows for c in row]
        cells = [
            c.removesuffix("%").strip()
            for c in table
            if c and c[0] in "+-0123456789" and not re.fullmatch(r"-+:?", c)
        ]
        numbers = [n for line in prose(md) for n in bare_numbers(line)]
        numbers += bare_numbers(html_text(html))
        assert len(numbers) > 20 and len(cells) > 20
        wrong = {n for n in [*cells, *numbers] if not FORMAT[language].fullmatch(n)}
        assert wrong == set(), (pid, wrong)
    # the very figures of the issue, as the table writes them in each language
    md = reports(day)["P001"][0]
    assert {"en": "224,256.34", "es": "224.256,34"}[language] in md
    assert "| 781 |" in md and "781.0" not in md


def test_the_header_names_the_holdings_date_the_basis_and_what_was_withheld(night) -> None:
    language, day = night
    words = LABELS[language]
    for _, (md, html, data) in reports(day).items():
        table = data["table"]
        assert data["language"] == language
        assert table["holdings_as_of"] in md and table["holdings_as_of"] in html
        basis = {"en": "prices as traded", "es": "precios tal como cotizaron"}[language]
        assert basis in md and basis in html
        assert words["withheld_none"] in md  # the offline night withholds nothing


def test_every_label_is_in_the_reports_language(night_es: Path) -> None:
    english = [
        "Market value", "Top contributors", "Top detractors", "Quantity", "Close |",
        "Day P&L", "Contribution", "Material moves", "Holdings as of", "No answer",
        "rose ", "fell ", "Headlines", "scheduled", "Each verified",
    ]  # fmt: skip
    for pid, (md, html, _) in reports(night_es).items():
        for text in (md, html_text(html)):
            assert [w for w in english if w in text] == [], pid
        assert "Valor de mercado" in md and "| Cantidad | Cierre |" in md


def test_material_moves_lead_by_contribution_and_quiet_positions_are_named_once(night_en) -> None:
    for pid, (md, _, data) in reports(night_en).items():
        rows = {p["ticker"]: p for p in data["table"]["positions"]}
        headings = re.findall(r"^### (\S+)(?: \(.*\))?$", md, re.M)
        assert len(headings) == len(set(headings))
        material = [
            t
            for t, p in rows.items()
            if abs(p["pnl_pct"]) >= MATERIAL_MOVE_PCT
            or abs(p["contribution_pct"]) >= MATERIAL_CONTRIBUTION_PCT
        ]
        assert material, pid
        lead = headings[: len(material)]
        assert set(lead) == set(material)
        weights = [abs(rows[t]["contribution_pct"]) for t in lead]
        assert weights == sorted(weights, reverse=True)
        quiet = re.search(r"^No material move, headline or scheduled event: (.+)\.$", md, re.M)
        named = quiet.group(1).split(", ") if quiet else []
        assert sorted([*headings, *named]) == sorted(rows), pid


def table() -> PortfolioTable:
    return PortfolioTable.model_validate(
        {
            "portfolio_id": "P9",
            "report_date": "2024-12-31",
            "holdings_as_of": "2024-12-05",
            "positions": [
                {"ticker": "AAA", "quantity": 10.0, "pnl_pct": 0.5, "contribution_pct": 0.05},
                {"ticker": "BBB", "quantity": 20.0, "pnl_pct": -3.0, "contribution_pct": -0.1},
                {"ticker": "CCC", "quantity": 5.0, "pnl_pct": 0.2, "contribution_pct": 0.3},
            ],
        }
    )


def section(ticker: str, *answers: Answer, summary: str | None = "fine.") -> TickerSection:
    paragraph = Answer(
        question_id=f"{ticker}/summary",
        kind="summary",
        question="s",
        status="accepted",
        answer=summary,
    )
    return TickerSection(ticker=ticker, summary=paragraph, answers=list(answers))


def test_withheld_and_approved_answers_are_named_under_their_position_and_counted() -> None:
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
        answer="AAA rose 1.00 from 99.00.",
        note="analyst-approved by ana: checked",
    )
    verified = Answer(
        question_id="CCC/move", kind="move", question="q", status="accepted", answer="CCC said."
    )
    report = PortfolioReport(
        run_id="r",
        report_date=date(2024, 12, 31),
        portfolio_id="P9",
        table=table(),
        tickers=[
            section("AAA", withheld, approved),
            section("BBB"),
            section("CCC", verified),
        ],
    )
    md = render_markdown(report).replace("\\_", "_")
    assert md.index("### CCC") < md.index("### BBB") < md.index("### AAA")  # material first
    case = "[AAA__news](<../review.html#AAA__news>)"
    assert f"Withheld: the news answer (unknown_headline; case {case})." in md
    assert "Analyst-approved move answer: AAA rose 1.00 from 99.00. (analyst-approved by ana" in md
    assert "CCC said." not in md  # a verified answer lives in the paragraph and the JSON
    assert report.withheld == 1 and "1 answer withheld (1 rejected by the verifier)" in md


def test_withheld_answers_and_paragraphs_are_counted_apart_in_the_reports_language() -> None:
    withheld = Answer(
        question_id="AAA/move",
        kind="move",
        question="q",
        status="withheld",
        reason="unsupported_figure",
        case_id="AAA__move",
    )
    paragraph = withheld.model_copy(
        update={"question_id": "AAA/summary", "kind": "summary", "case_id": "AAA__summary"}
    )
    report = PortfolioReport(
        run_id="r",
        report_date=date(2024, 12, 31),
        portfolio_id="P9",
        language="es",
        table=table(),
        tickers=[TickerSection(ticker="AAA", summary=paragraph, answers=[withheld])],
    )
    md = render_markdown(report).replace("\\_", "_")
    assert (
        "Retenidos: 1 respuesta y 1 párrafo (2 rechazados por el verificador); ver la página de "
        "revisión" in md
    )
    assert (
        "Párrafo retenido (unsupported_figure; caso [AAA__summary](<../review.html#AAA__summary>))"
        in md
    )
    assert "Retenida: la respuesta de movimiento (unsupported_figure; caso [AAA__move]" in md
    english = report.model_copy(update={"language": "en"})
    assert "1 answer and 1 paragraph withheld (2 rejected by the verifier)" in render_markdown(
        english
    )


@pytest.mark.parametrize(
    ("language", "line"),
    [
        (
            "en",
            "3 answers withheld (1 rejected by the verifier, 1 cut by the budget, 1 lost to "
            "provider errors): see the review page",
        ),
        (
            "es",
            "Retenidos: 3 respuestas (1 rechazados por el verificador, 1 cortados por el "
            "presupuesto, 1 perdidos por errores del proveedor); ver la página de revisión",
        ),
    ],
)
def test_budget_cuts_and_provider_errors_are_not_called_rejections(
    language: str, line: str
) -> None:
    answers = [
        Answer(
            question_id=f"AAA/{kind}",
            kind=kind,
            question="q",
            status="withheld",
            reason=reason,
            case_id=f"AAA__{kind}",
        )
        for kind, reason in (
            ("move", "unsupported_figure"),
            ("news", "budget_exhausted"),
            ("events", "provider_error"),
        )
    ]
    report = PortfolioReport(
        run_id="r",
        report_date=date(2024, 12, 31),
        portfolio_id="P9",
        language=language,
        table=table(),
        tickers=[TickerSection(ticker="AAA", answers=answers)],
    )
    assert report.withheld_by_cause == {"verifier": 1, "budget": 1, "error": 1}
    assert line in render_markdown(report)

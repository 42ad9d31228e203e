"""A portfolio report as people read it: Markdown, and a self-contained HTML page beside it (inline
CSS, no script, no external asset), both laid out from one `ReportView`; and the writing of the
report's three files.

Every text that comes from data, a model or an analyst is first made safe to show
(`contract.text.display_text`: nothing invisible, no bidi control, nothing a renderer would link)
and then escaped: in Markdown by `md_text`, so it reads as written and can never make a heading,
table row, link, image or HTML; in HTML by Jinja's autoescaping, with `shown` as the
environment's `finalize`, so every value any template prints passes `display_text` first.
"""

from __future__ import annotations

import re
from functools import cache
from pathlib import Path

from jinja2 import Environment, FileSystemLoader, StrictUndefined, Template
from markupsafe import Markup

from contract.text import display_text
from flows.publish.cases import review_page_path
from flows.publish.layout import RunLayout, write_atomic, write_json
from flows.publish.report import PortfolioReport
from flows.publish.since import find_since
from flows.publish.view import Inline, Links, PositionView, ReportView, build_view

TEMPLATES = Path(__file__).parent / "templates"


def write_report(layout: RunLayout, report: PortfolioReport) -> list[Path]:
    """Write a portfolio report as Markdown, HTML and JSON, each atomically."""
    json_path = layout.report(report.portfolio_id, ".json")
    md_path = layout.report(report.portfolio_id, ".md")
    html_path = layout.report(report.portfolio_id, ".html")
    if report.since is None:
        report = report.model_copy(update={"since": find_since(layout, report.table)})
    view = build_view(report, links_of(layout, json_path))
    write_json(json_path, report)
    write_atomic(md_path, markdown_of(view))
    write_atomic(html_path, html_of(view))
    return [md_path, html_path, json_path]


def links_of(layout: RunLayout, json_path: Path) -> Links:
    page = review_page_path(layout)
    href = Path("..", page.relative_to(layout.day)).as_posix()
    return Links(review_href=href, cli_args=layout.cli_args, json_name=json_path.name)


def render_markdown(report: PortfolioReport, links: Links | None = None) -> str:
    return markdown_of(build_view(report, links or Links()))


def render_html(report: PortfolioReport, links: Links | None = None) -> str:
    return html_of(build_view(report, links or Links()))


def markdown_of(view: ReportView) -> str:
    lines = [f"# {md_text(view.title)}", ""]
    if view.stale:
        lines += [f"**{md_text(view.stale)}**", ""]
    if view.table_error:
        lines += [md_text(view.table_error), ""]
    else:
        lines += [md_text(view.basis or ""), ""]
        lines += [md_text(view.totals or "")]
        if view.benchmark:
            lines += [md_text(view.benchmark)]
        lines += [md_text(view.leaders or ""), ""]
        if view.incomplete:
            lines += [f"**{md_text(view.incomplete)}**", ""]
    lines += [md_inline(view.withheld), ""]
    if view.rows:
        lines.append("| " + " | ".join(md_cell(c) for c in view.columns) + " |")
        lines.append(
            "|"
            + "".join(" --- |" if i == 0 or i in view.wrapped else " ---: |"
                      for i in range(len(view.columns)))
        )  # fmt: skip
        for row in view.rows:
            cells = [*row, *[""] * (len(view.columns) - len(row))]
            lines.append("| " + " | ".join(md_cell(c) for c in cells) + " |")
        lines.append("")
    if view.since:
        lines += [f"## {md_text(view.since_title)}", ""]
        lines += [md_text(line) for line in view.since] + [""]
    if view.material:
        lines += [f"## {md_text(view.material_title)}", "", f"_{md_text(view.material_rule)}_", ""]
        lines += [line for p in view.material for line in md_position(p)]
    if view.other:
        lines += [f"## {md_text(view.other_title)}", ""]
        lines += [line for p in view.other for line in md_position(p)]
    if view.quiet:
        lines += [md_text(view.quiet), ""]
    lines += [md_text(view.answers_where), ""]
    return "\n".join(lines)


def md_position(position: PositionView) -> list[str]:
    company = f" ({md_text(position.company)})" if position.company else ""
    lines = [f"### {md_text(position.ticker)}{company}", ""]
    if position.paragraph:
        note = f" _({md_text(position.paragraph_note)})_" if position.paragraph_note else ""
        lines += [md_text(position.paragraph) + note, ""]
    if position.withheld:
        lines += [f"_{md_inline(position.withheld)}_", ""]
    if position.notes:
        lines += [f"- {md_inline(n)}" for n in position.notes] + [""]
    return lines


def md_inline(pieces: list[Inline]) -> str:
    """A line of pieces: text escaped as `md_text` does (its edge spaces kept), a link, code."""
    out = []
    for piece in pieces:
        text = display_text(piece.text)
        if piece.kind == "link":
            out.append(f"[{md_text(text)}](<{piece.href}>)")
        elif piece.kind == "code":
            out.append(f"`{' '.join(text.replace('`', '').split())}`")
        else:
            flat = re.sub(r"\s+", " ", text)
            out.append(_MD_SPECIAL.sub(lambda m: "\\" + m.group(), flat))
    return _MD_LINE_START.sub(r"\1\\\2", "".join(out))


_MD_SPECIAL = re.compile(r"[\\`*\[\]<>|~]|(?<![^\W_])_|_(?![^\W_])|&(?=#?\w+;)")
"""An underscore between letters or digits (`provider_error`) cannot open or close emphasis."""
_MD_LINE_START = re.compile(r"^(\d*)([#>+-]|(?<=\d)[.)](?!\S))")


def md_text(text: str) -> str:
    """`text` as one line of Markdown that renders as the text itself: whitespace runs (line
    breaks too) become one space, and every character that could start emphasis, code, a link,
    a table cell, HTML or an entity is escaped, as is a list or heading marker at its start."""
    flat = " ".join(display_text(text).split())
    return _MD_LINE_START.sub(r"\1\\\2", _MD_SPECIAL.sub(lambda m: "\\" + m.group(), flat))


def md_cell(text: str) -> str:
    """`text` as a table cell: escaped as `md_text` does, but a cell starts no line, so a sign
    (`-2.30%`) stays as written."""
    return _MD_SPECIAL.sub(lambda m: "\\" + m.group(), " ".join(display_text(text).split()))


STAMP = re.compile(r"\d{4}-\d{2}-\d{2}(?:T\d{2}:\d{2}(?::\d{2})?(?:Z|[+-]\d{2}:?\d{2})?)?")


def date_pieces(text: str) -> list[tuple[str, bool]]:
    """`text` cut into (piece, is a date or time): the page keeps each date whole on its line,
    where a browser would break it at its hyphens."""
    pieces, last = [], 0
    for m in STAMP.finditer(text):
        pieces += [(text[last : m.start()], False), (m.group(), True)]
        last = m.end()
    return [*pieces, (text[last:], False)]


def shown(value: object) -> object:
    """What a page prints of `value` (every template's `finalize`): text through `display_text`
    before it is escaped; markup a macro or filter made (already escaped) likewise, still markup."""
    if isinstance(value, Markup):
        return Markup(display_text(str(value)))
    return display_text(value) if isinstance(value, str) else value


@cache
def _environment() -> Environment:
    env = Environment(
        loader=FileSystemLoader(TEMPLATES),
        autoescape=True,
        finalize=shown,
        undefined=StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
    )
    env.filters["date_pieces"] = date_pieces
    return env


def report_template() -> Template:
    """The report's HTML template, compiled once per process (and again when its file changes)."""
    return _environment().get_template("report.html.jinja")


def html_of(view: ReportView) -> str:
    return report_template().render(view=view)

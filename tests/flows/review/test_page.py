"""The review page as HTML: built by publishing, self-contained, escaped, every case anchored."""

from __future__ import annotations

import json
import re
from pathlib import Path

from flows.review.page import ReasonLine, mark_draft
from verifier.verdict import ClaimOut

DATE = "2024-03-28"


def page(out: Path) -> str:
    return (out / DATE / "review.html").read_text(encoding="utf-8")


def test_publishing_writes_the_page_with_an_anchor_per_case(published_run: Path) -> None:
    html = page(published_run)
    rows = [
        json.loads(x)
        for x in (published_run / DATE / "rejected" / "index.jsonl").read_text().splitlines()
    ]
    assert len({r["reason"] for r in rows}) >= 3
    for row in rows:
        assert f'<article class="case" id="{row["case_id"]}"' in html


def test_the_page_is_self_contained(published_run: Path) -> None:
    html = page(published_run)
    assert not re.search(r"""(src|href)\s*=\s*["']?(https?:)?//""", html)
    assert "@import" not in html
    assert "default-src 'none'" in html


def test_hostile_text_is_escaped(published_run: Path) -> None:
    html = page(published_run)
    assert "<script>alert" not in html
    assert (
        "&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt; Shares &lt;b&gt;soar&lt;/b&gt; &amp; crash"
        in html
    )
    assert html.count("<script>") == 1


def test_an_invented_figure_is_marked_with_its_rule(published_run: Path) -> None:
    html = page(published_run)
    assert re.search(
        r'<mark class="fail" data-rule="unsupported_figure" title="1\. unsupported_figure: [^"]*">987\.65<sup>1</sup></mark>',
        html,
    )


def test_marks_follow_spans_and_supported_claims_name_their_call() -> None:
    draft = "AAA closed at 12.5, up 3.1% on 2024-03-28."
    reasons = [ReasonLine(rule="unsupported_figure", message="not found", span=(23, 27))]
    claims = [
        ClaimOut(text="12.5", span=(14, 18), kind="number", supported_by=["move-1"]),
        ClaimOut(text="3.1%", span=(23, 27), kind="percentage"),
        ClaimOut(text="2024-03-28", span=(31, 41), kind="date", supported_by=["move-1", "x"]),
    ]
    segments = mark_draft(draft, reasons, claims)
    assert "".join(s.text for s in segments) == draft
    marked = {s.text: (s.rules, s.support) for s in segments if s.rules or s.support}
    assert marked == {
        "12.5": ([], ["move-1"]),
        "3.1%": (["unsupported_figure"], []),
        "2024-03-28": ([], ["move-1", "x"]),
    }


def test_a_damaged_log_is_named_on_the_page_not_ignored(run_out: Path) -> None:
    from datetime import date

    from flows.publish.layout import RunLayout
    from flows.review.page import write_review_page

    (run_out / DATE / "decisions.jsonl").write_text("not json\n")
    write_review_page(RunLayout(run_out, date(2024, 3, 28)))
    assert 'role="alert">Decision log unreadable:' in page(run_out)
    assert "decisions.jsonl line 1 is not a decision" in page(run_out)


def test_after_a_resumed_night_the_page_counts_every_attempts_tokens(run_out: Path) -> None:
    from datetime import date

    from flows.publish.layout import RunLayout
    from flows.review.page import write_review_page

    manifest_path = run_out / DATE / "manifest.json"
    manifest = json.loads(manifest_path.read_text())
    manifest["budget"]["used"] = {"input_tokens": 0, "cached_tokens": 0, "output_tokens": 0}
    night = {"input_tokens": 123_000, "cached_tokens": 0, "output_tokens": 4_567, "total": 127_567}
    manifest["budget"]["night"] = {"attempts": [], "used": night}  # the crashed attempt spent it
    manifest_path.write_text(json.dumps(manifest))
    write_review_page(RunLayout(run_out, date.fromisoformat(DATE)))
    html = page(run_out)
    assert '<td class="num">123,000</td>' in html
    assert '<td>all attempts (1)</td><td class="num">127,567</td>' in html

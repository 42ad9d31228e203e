"""The review page shows hostile drafts, headlines, tool results and messages as plain text: no
link but the page's own anchors, no image, no bidi control or invisible character; the case's
JSON keeps them as they came."""

from __future__ import annotations

import json
import unicodedata
from datetime import date
from pathlib import Path

from flows.publish.layout import RunLayout
from flows.review.page import write_review_page
from tests.flows.publish.test_hostile_text import HOSTILE, read

DATE = "2024-03-28"


def test_hostile_text_in_a_case_is_shown_as_plain_text(run_out: Path) -> None:
    path = sorted((run_out / DATE / "rejected").glob("*.json"))[0]
    case = json.loads(path.read_text())
    case["draft"] = HOSTILE
    case["question"] = HOSTILE
    case["reasons"] = [{"code": "unknown_headline", "message": HOSTILE}]
    case["verdict"] = {
        "accepted": False,
        "reasons": [{"rule": "unknown_headline", "message": HOSTILE, "span": [0, 9]}],
    }
    trace = case["trace"]
    trace["events"] = [
        {"id": "c1\u202e", "tool": "search_news", "args": {"q": HOSTILE},
         "result": {"items": [{"headline": HOSTILE}]}, "step": 1},
        {"id": "c2", "tool": "get_price", "args": {}, "error": HOSTILE, "step": 1},
    ]  # fmt: skip
    trace["turns"] = [{"step": 1, "text": HOSTILE, "finish_reason": "stop", "tool_calls": []}]
    path.write_text(json.dumps(case))

    write_review_page(RunLayout(run_out, date.fromisoformat(DATE)))
    html = (run_out / DATE / "review.html").read_text(encoding="utf-8")
    page = read(html)
    assert all(href.startswith("#") for href in page.links), page.links
    assert page.images == []
    text = "".join(page.text)
    assert "://evil" not in text and "www.evil" not in text and "ceo@evil" not in text
    assert "evil.example/a" in text and "fell 40%" in text
    assert not [c for c in html if unicodedata.category(c) in ("Cf", "Cc") and c not in "\n\t"]
    assert json.loads(path.read_text())["draft"] == HOSTILE


def test_review_show_prints_hostile_messages_as_plain_text(run_out: Path, cli) -> None:
    path = sorted((run_out / DATE / "rejected").glob("*.json"))[0]
    case = json.loads(path.read_text())
    message = "[link=https://evil.example]click[/link] \u202efell 40%\u202c \x1b[2J"
    case.update(verdict=None, trace=None, reasons=[{"code": "provider_error", "message": message}])
    path.write_text(json.dumps(case))

    code, out, _ = cli("review", "show", case["case_id"], "--date", DATE, "--out", str(run_out))
    assert code == 0
    assert "provider_error: [link=https[:]//evil.example]click[/link] fell 40% [2J" in out
    assert "\x1b" not in out and "\u202e" not in out

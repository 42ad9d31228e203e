"""What the terminal shows of data is plain text: rich markup in a draft or a tool result makes
no link or style, and no escape sequence, control, bidi control or invisible character from data
reaches the terminal; JSON a command prints keeps its values."""

from __future__ import annotations

import io
import json
import unicodedata

from rich.console import Console

from contract.reasons import ReasonCode
from contract.text import escape_hidden
from contract.trace import ToolEvent, Trace
from flows.cli.terminal import render_trace, render_verdict
from verifier.verdict import ClaimOut, Reason, Verdict

HOSTILE = (
    "AAA \u202efell 40%\u202c [link=https://evil.example]click[/link] [bold red]x[/] "
    "\x1b[2J\x1b]8;;https://evil.example\x07osc\x1b]8;;\x07 \x9b31m\u200b www.evil.example"
)


def terminal(renderable) -> str:
    out = io.StringIO()
    Console(file=out, force_terminal=True, color_system="truecolor", width=400).print(renderable)
    return out.getvalue()


def assert_plain(out: str) -> None:
    assert "\x1b]8;" not in out  # no hyperlink
    assert "\x1b[2J" not in out and "\x9b" not in out and "\x07" not in out
    assert not [c for c in out if unicodedata.category(c) == "Cf"]
    assert "[link=https[:]//evil.example]click[/link]" in out and "[bold red]x[/]" in out
    assert "www[.]evil.example" in out


def test_a_hostile_draft_and_its_reasons_are_plain_text() -> None:
    verdict = Verdict(
        accepted=False,
        reasons=[Reason(rule=ReasonCode.UNKNOWN_HEADLINE, message=HOSTILE, span=(4, 14))],
        claims=[ClaimOut(text="40%", span=(10, 13), kind="percentage", supported_by=["c1"])],
    )
    out = terminal(render_verdict(HOSTILE, verdict))
    assert_plain(out)
    assert "fell 40%" in out


def test_a_hostile_trace_is_plain_text() -> None:
    trace = Trace(
        question_id="AAA/news",
        question=HOSTILE,
        draft=HOSTILE,
        stop_reason=ReasonCode.ANSWERED,
        events=[
            ToolEvent(id="c1", tool="search_news", args={"q": HOSTILE}, result={"h": HOSTILE}),
            ToolEvent(id="[link=https://evil.example]c2[/link]", tool="get_price", error=HOSTILE),
        ],
    )
    assert_plain(terminal(render_trace(trace)))


def test_json_for_the_terminal_keeps_its_values_and_escapes_the_rest() -> None:
    value = {"headline": HOSTILE, "tag": "\U000e0041", "ok": "Caña 10,50 €"}
    text = escape_hidden(json.dumps(value, ensure_ascii=False, indent=2))
    assert json.loads(text) == value
    assert not [c for c in text if unicodedata.category(c) in ("Cf", "Cc") and c != "\n"]
    assert "Caña 10,50 €" in text

"""`nightdesk ask` as a user runs it: offline with no keys, and openai against a local
OpenAI-compatible server (a scripted HTTP server on 127.0.0.1)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest

from tests.agent.scripted import Call, Turn, openai_body
from tools.registry import TOOLS

ROOT = Path(__file__).resolve().parents[2]


def nightdesk(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    clean = {k: v for k, v in os.environ.items() if not k.startswith(("OPENAI_", "ANTHROPIC_"))}
    clean.update({"NO_PROXY": "127.0.0.1,localhost", "COLUMNS": "240", **(env or {})})
    return subprocess.run(
        [sys.executable, "-c", "from flows.cli.main import main; main()", "ask", *args],
        cwd=ROOT,
        env=clean,
        capture_output=True,
        text=True,
        timeout=120,
    )


class ScriptedServer(ThreadingHTTPServer):
    def __init__(self, turns: list[Turn]) -> None:
        super().__init__(("127.0.0.1", 0), ChatHandler)
        self.turns = list(turns)
        self.bodies: list[dict] = []

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.server_address[1]}/v1"


class ChatHandler(BaseHTTPRequestHandler):
    server: ScriptedServer

    def do_POST(self) -> None:
        body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
        self.server.bodies.append({"path": self.path, **body})
        turn = self.server.turns.pop(0) if self.server.turns else Turn(text="script exhausted")
        payload = json.dumps(openai_body(turn)).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(payload)))
        self.end_headers()
        self.wfile.write(payload)

    def log_message(self, *args: object) -> None:
        pass


@pytest.fixture
def serve() -> Iterator:
    servers: list[ScriptedServer] = []

    def start(turns: list[Turn]) -> ScriptedServer:
        server = ScriptedServer(turns)
        threading.Thread(target=server.serve_forever, daemon=True).start()
        servers.append(server)
        return server

    yield start
    for server in servers:
        server.shutdown()
        server.server_close()


def test_offline_prints_draft_and_trace(small_data, holding, report_date):
    portfolio, ticker = holding
    done = nightdesk(
        "--date",
        str(report_date),
        "--ticker",
        ticker.lower(),
        "--data",
        str(small_data),
        "--portfolio",
        portfolio,
        "What did the position contribute?",
    )

    assert done.returncode == 0, done.stderr
    assert f"{ticker}/position/{portfolio}" in done.stdout
    assert "get_position_pnl" in done.stdout and "contribution of" in done.stdout


def test_offline_json_is_the_trace(small_data, holding, report_date):
    done = nightdesk(
        "--date",
        str(report_date),
        "--ticker",
        holding[1],
        "--data",
        str(small_data),
        "--json",
        "--language",
        "es",
        "news",
    )

    trace = json.loads(done.stdout)
    assert done.returncode == 0
    assert trace["stop_reason"] == "answered" and trace["language"] == "es"
    assert [e["tool"] for e in trace["events"]] == ["get_daily_move", "search_news"]
    assert {"question", "draft", "requires", "events"} <= trace.keys()


def test_bad_input_is_one_line(small_data, report_date):
    done = nightdesk(
        "--date", str(report_date), "--ticker", "NOPE", "--data", str(small_data), "move"
    )

    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.startswith("nightdesk: error: unknown ticker 'NOPE'")
    assert done.stderr.count("\n") == 1


def true_move(data: Path, ticker: str, day) -> dict:
    """The day's move as the real tool computes it, for drafts that a server sends back."""
    from tools.catalog import open_catalog
    from tools.registry import call_tool

    with open_catalog(data, day) as catalog:
        return call_tool(catalog, "get_daily_move", {"ticker": ticker, "date": str(day)})


def test_openai_compatible_server_in_plan_mode(serve, small_data, holding, report_date):
    move = true_move(small_data, holding[1], report_date)
    draft = f"{holding[1]} closed at {move['close']:.2f} ({move['change_pct']:+.2f}%)."
    server = serve([Turn(text=draft)])
    done = nightdesk(
        "--date",
        str(report_date),
        "--ticker",
        holding[1],
        "--data",
        str(small_data),
        "--provider",
        "openai",
        "--model",
        "local-llm",
        "--json",
        "move",
        env={"OPENAI_BASE_URL": server.base_url},
    )

    assert done.returncode == 0, done.stderr
    trace = json.loads(done.stdout)
    assert trace["draft"] == draft and trace["model"] == "local-llm"
    (sent,) = server.bodies
    assert sent["path"] == "/v1/chat/completions" and sent["model"] == "local-llm"
    assert "tools" not in sent and "TOOL RESULTS" in sent["messages"][1]["content"]


def test_openai_compatible_server_in_react_mode(serve, small_data, holding, report_date):
    ticker = holding[1]
    server = serve(
        [
            Turn(
                calls=(Call.of("call_1", "get_daily_move", ticker=ticker, date=str(report_date)),)
            ),
            Turn(
                text=f"{ticker} moved {true_move(small_data, ticker, report_date)['change_pct']}%."
            ),
        ]
    )
    done = nightdesk(
        "--date",
        str(report_date),
        "--ticker",
        ticker,
        "--data",
        str(small_data),
        "--provider",
        "openai",
        "--mode",
        "react",
        "--json",
        "Why did it move?",
        env={"OPENAI_BASE_URL": server.base_url, "OPENAI_API_KEY": "sk-local"},
    )

    assert done.returncode == 0, done.stderr
    trace = json.loads(done.stdout)
    assert trace["stop_reason"] == "answered" and trace["events"][0]["result"]["ticker"] == ticker
    first, second = server.bodies
    assert [t["function"]["name"] for t in first["tools"]] == list(TOOLS)  # free-form: every tool
    assert (
        second["messages"][-1]["role"] == "tool"
        and second["messages"][-1]["tool_call_id"] == "call_1"
    )


def test_an_invented_figure_is_rejected_with_its_reason(serve, small_data, holding, report_date):
    server = serve([Turn(text=f"{holding[1]} closed at 99999.99 (+12.34%).")])
    done = nightdesk(
        *("--date", str(report_date), "--ticker", holding[1], "--data", str(small_data)),
        *("--provider", "openai", "--model", "local-llm", "move"),
        env={"OPENAI_BASE_URL": server.base_url},
    )

    assert done.returncode == 1, done.stderr
    assert "REJECTED" in done.stdout
    assert "unsupported_figure «99999.99»" in done.stdout


@pytest.mark.parametrize(
    ("day", "extra", "expected"),
    [
        ("2024-12-21", (), "2024-12-21 is not a trading session"),
        ("2025-06-02", (), "has no prices after 2024-12-31 up to 2025-06-02"),
        (None, ("--portfolio", "P999"), "unknown portfolio P999: the data has"),
    ],
)
def test_bad_date_or_portfolio_is_refused_before_the_model(
    serve, small_data, holding, report_date, day, extra, expected
):
    server = serve([Turn(text="never asked")])
    done = nightdesk(
        *("--date", day or str(report_date), "--ticker", holding[1], "--data", str(small_data)),
        *("--provider", "openai", "--model", "local-llm", *extra, "move"),
        env={"OPENAI_BASE_URL": server.base_url},
    )

    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.startswith("nightdesk: error: ") and expected in done.stderr
    assert done.stderr.count("\n") == 1
    assert server.bodies == []


def test_unknown_ticker_names_close_matches(small_data, holding, report_date):
    near = holding[1][:-1] + ("Q" if holding[1][-1] != "Q" else "Z")
    done = nightdesk(
        "--date", str(report_date), "--ticker", near.lower(), "--data", str(small_data), "move"
    )

    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.startswith(f"nightdesk: error: unknown ticker {near!r}")
    assert "did you mean" in done.stderr and holding[1] in done.stderr
    assert done.stderr.count("\n") == 1


def test_bad_question_set_is_refused_before_the_model(
    serve, tmp_path, small_data, holding, report_date
):
    spec = {"id": "odd", "text": {"en": "a", "es": "b"}, "plan": [{"tool": "nosuch", "args": {}}]}
    path = tmp_path / "odd.json"
    path.write_text(json.dumps({"name": "odd", "questions": [spec]}), encoding="utf-8")
    server = serve([Turn(text="never asked")])
    done = nightdesk(
        *("--date", str(report_date), "--ticker", holding[1], "--data", str(small_data)),
        *("--provider", "openai", "--model", "local-llm", "--questions", str(path), "odd"),
        env={"OPENAI_BASE_URL": server.base_url},
    )

    assert done.returncode == 2 and done.stdout == ""
    assert "question 'odd' plan step 1: unknown tool 'nosuch'" in done.stderr
    assert done.stderr.count("\n") == 1
    assert server.bodies == []


@pytest.mark.parametrize(
    "question", ["What is the weather in Paris?", "What moved it and what is the outlook?"]
)
def test_offline_refuses_a_question_no_template_fits_in_one_line(
    small_data, holding, report_date, question
):
    done = nightdesk(
        "--date", str(report_date), "--ticker", holding[1], "--data", str(small_data), question
    )

    assert done.returncode == 2 and done.stdout == ""
    (line,) = done.stderr.splitlines()
    assert line.startswith("nightdesk: error: no question of the set (move, news, events")
    assert "pass --provider one of openai, anthropic, local" in line


def test_a_question_no_template_fits_goes_to_react_mode(serve, small_data, holding, report_date):
    ticker = holding[1]
    move = true_move(small_data, ticker, report_date)
    server = serve(
        [
            Turn(calls=(Call.of("c1", "get_daily_move", ticker=ticker, date=str(report_date)),)),
            Turn(text=f"{ticker} moved {move['change_pct']}% on {report_date}."),
        ]
    )
    done = nightdesk(
        "--date", str(report_date), "--ticker", ticker, "--data", str(small_data),
        "--provider", "openai", "--json", "What moved it and what is the outlook?",
        env={"OPENAI_BASE_URL": server.base_url, "OPENAI_API_KEY": "sk-local"},
    )  # fmt: skip

    assert done.returncode == 0, done.stdout[-1500:]
    shown = json.loads(done.stdout)
    assert shown["mode"] == "react" and shown["question_id"] == f"{ticker}/ask"
    assert shown["verdict"]["accepted"] is True and shown["verdict"]["reasons"] == []
    assert "tools" in server.bodies[0]


def test_json_carries_the_verdict_of_a_rejected_draft(serve, small_data, holding, report_date):
    server = serve([Turn(text=f"{holding[1]} closed at 987.65 (+1.00%).")])
    done = nightdesk(
        "--date", str(report_date), "--ticker", holding[1], "--data", str(small_data),
        "--provider", "openai", "--json", "move",
        env={"OPENAI_BASE_URL": server.base_url, "OPENAI_API_KEY": "sk-local"},
    )  # fmt: skip

    assert done.returncode == 1
    verdict = json.loads(done.stdout)["verdict"]
    assert verdict["accepted"] is False
    assert "unsupported_figure" in {r["rule"] for r in verdict["reasons"]}

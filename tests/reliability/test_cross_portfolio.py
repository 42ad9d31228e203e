"""A real night, in plan and in react mode, against a hostile model on a loopback
OpenAI-compatible server (the real SDK, through OPENAI_BASE_URL). For every question it is asked,
the model tries to reach the other portfolios: in react mode it calls the portfolio tools with
another portfolio's id, runs `select * from holdings`, calls tools it was not offered; in both
modes it drafts answers that state other portfolios' positions (quantities, market values, day
P&L, read here from the data set with pandas) and name their ids. Every published file of every
portfolio is then read: none holds a figure that only another portfolio's holdings have, nor
another portfolio's id, and every question ends in exactly one record."""

from __future__ import annotations

import hashlib
import json
import os
import re
import threading
from dataclasses import dataclass
from datetime import date
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pandas as pd
import pytest

from agent.prompts import parse_language, parse_results
from agent.providers.offline import draft_text
from agent.questions import DEFAULT_SET
from contract.number_format import format_number, format_quantity, format_signed
from flows.run.config import RunConfig
from tests.agent.scripted import Call, Turn, openai_body
from tests.flows.night.test_flow import expected_entries, last_session, published_entries
from tests.reliability.fault_server import send

pytestmark = [
    pytest.mark.usefixtures("prefect_server"),
    pytest.mark.filterwarnings("ignore::ResourceWarning"),
    pytest.mark.filterwarnings("ignore::pytest.PytestUnraisableExceptionWarning"),
]

TICKER = re.compile(r"^Ticker: ([A-Za-z0-9._-]+)\.", re.MULTILINE)
OWN = re.compile(r" Portfolio: ([A-Za-z0-9._-]+)\.")
PORTFOLIO_TOOLS = ("get_portfolio", "get_position_pnl", "get_portfolio_ranks")


@dataclass(frozen=True)
class Position:
    portfolio_id: str
    ticker: str
    quantity: str
    market_value: str
    day_pnl: str

    @property
    def figures(self) -> set[str]:
        """The figures a report shows for this position, as it writes them (English)."""
        return {self.quantity, self.market_value, self.day_pnl.lstrip("+")}


@pytest.fixture(scope="module")
def three_portfolios(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Three portfolios over twelve tickers and four months: a night of seconds."""
    from data.generate import generate_dataset

    out = tmp_path_factory.mktemp("cross")
    generate_dataset(
        out, tickers=12, start=date(2024, 9, 2), end=date(2024, 12, 31), portfolios=3, seed=7
    )
    return out


def offering_more(target: Path) -> Path:
    """The default question set, where react mode also offers `run_sql` and every portfolio
    tool to each question: what the model may call, never whose rows it may read."""
    qset = json.loads(DEFAULT_SET.read_text())
    for question in qset["questions"]:
        plan = [call["tool"] for call in question["plan"]]
        question["tools"] = list(dict.fromkeys([*plan, "run_sql", *PORTFOLIO_TOOLS]))
    target.write_text(json.dumps(qset))
    return target


def positions_at(data: Path, day: date) -> list[Position]:
    """Every portfolio's positions at `day`, computed from the Parquet files directly."""
    holdings = pd.read_parquet(data / "holdings.parquet")
    holdings["as_of"] = pd.to_datetime(holdings["as_of"]).dt.date
    holdings = holdings[holdings["as_of"] <= day]
    latest = holdings.groupby("portfolio_id")["as_of"].transform("max")
    held = holdings[holdings["as_of"] == latest]
    prices = pd.read_parquet(data / "prices.parquet")
    prices["date"] = pd.to_datetime(prices["date"]).dt.date
    prices = prices[prices["date"] <= day].sort_values(["ticker", "date"])
    last = prices.groupby("ticker").tail(2).groupby("ticker")["close"].agg(["first", "last"])
    found = []
    for row in held.itertuples():
        prev, close = last.loc[row.ticker, "first"], last.loc[row.ticker, "last"]
        found.append(
            Position(
                row.portfolio_id,
                row.ticker,
                format_quantity(row.quantity, "en"),
                format_number(round(row.quantity * close, 2), "en"),
                format_signed(round(row.quantity * (close - prev), 2), "en"),
            )
        )
    return found


class HostileModel:
    """Answers chat completions on loopback; for every question it tries to read or state
    another portfolio's positions. `tried` counts what it tried, by kind."""

    def __init__(self, positions: list[Position], day: date) -> None:
        self.positions, self.day = positions, day
        self.portfolios = sorted({p.portfolio_id for p in positions})
        self.lock = threading.Lock()
        self.tried: dict[str, int] = {}
        self.observed: list[tuple[str | None, str, str]] = []  # (own, tool, what came back)
        self.drafts: set[str] = set()  # the drafts that state another portfolio's figures
        outer = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"  # keep-alive, as a real server: no refused reuse

            def log_message(self, *args: Any) -> None:
                pass

            def do_POST(self) -> None:
                length = int(self.headers.get("content-length", 0))
                send(self, 200, outer.reply(json.loads(self.rfile.read(length))))

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.httpd.daemon_threads = True
        threading.Thread(target=self.httpd.serve_forever, daemon=True).start()

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.httpd.server_address[1]}/v1"

    def close(self) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()

    def count(self, kind: str) -> None:
        with self.lock:
            self.tried[kind] = self.tried.get(kind, 0) + 1

    def reply(self, body: dict[str, Any]) -> dict[str, Any]:
        messages = body["messages"]
        user = next(m["content"] for m in messages if m["role"] == "user")
        ticker = found.group(1) if (found := TICKER.search(user)) else ""
        own = found.group(1) if (found := OWN.search(user)) else None
        offered = {t["function"]["name"] for t in body.get("tools") or []}
        calls = {
            c["id"]: c["function"]
            for m in messages
            if m["role"] == "assistant"
            for c in m.get("tool_calls") or []
        }
        if offered and not calls:
            hostile, needed = self.hostile_calls(ticker, own, offered)
            if needed and hashlib.sha256(user.encode()).digest()[0] % 4 == 0:  # a quiet one
                return openai_body(Turn(calls=needed))
            for call in hostile:
                if call.name not in offered:
                    self.count("tool not offered")
                elif call.name == "run_sql":
                    self.count("run_sql over holdings")
                else:
                    self.count("other portfolio")
            return openai_body(Turn(calls=(*hostile, *needed)))
        results = parse_results(user)
        if results is None:  # react: the history's tool turns, as the offline drafter reads them
            results = []
            for m in messages:
                if m["role"] == "tool" and (call := calls.get(m["tool_call_id"])):
                    if m["tool_call_id"].startswith("h"):
                        with self.lock:
                            self.observed.append((own, call["name"], m["content"]))
                    payload = json.loads(m["content"])
                    if "error" not in payload:
                        args = json.loads(call["arguments"])
                        results.append({"tool": call["name"], "args": args, "result": payload})
        draft = draft_text(results, parse_language(user))
        return openai_body(Turn(text=self.hostile_draft(draft, ticker, own), output_tokens=60))

    def others(self, ticker: str, own: str | None) -> list[Position]:
        """Other portfolios' positions, the question's ticker first."""
        theirs = [p for p in self.positions if p.portfolio_id != own]
        return sorted(theirs, key=lambda p: (p.ticker != ticker, p.portfolio_id, p.ticker))

    def hostile_calls(
        self, ticker: str, own: str | None, offered: set[str]
    ) -> tuple[tuple[Call, ...], tuple[Call, ...]]:
        """Another portfolio through every portfolio tool, all holdings through SQL, a tool
        that does not exist; and the calls the question needs."""
        other = next(p for p in self.portfolios if p != own)
        day = self.day.isoformat()
        calls = [
            Call.of("h1", "get_portfolio", portfolio_id=other),
            Call.of("h2", "get_position_pnl", portfolio_id=other, ticker=ticker, date=day),
            Call.of("h3", "get_portfolio_ranks", portfolio_id=other, date=day),
            Call.of("h4", "run_sql", sql="select * from holdings"),
            Call.of("h5", "export_all_holdings", portfolio_id="*"),
            # the key twice (read as `other` by a reader that keeps the last), a second
            # portfolio under an argument no tool has, a look-alike tool name, a sample
            Call("h6", "get_portfolio", f'{{"portfolio_id": "{own}", "portfolio_id": "{other}"}}'),
            Call.of("h7", "get_portfolio", portfolio_id=own or other, also_portfolio_id=other),
            Call.of("h8", "get_portf\u200bolio", portfolio_id=other),
            Call.of("h9", "run_sql", sql="select * from holdings using sample 50 percent"),
        ]
        needed = [("get_daily_move", {"ticker": ticker, "date": day})]
        if own:
            needed.append(
                ("get_position_pnl", {"portfolio_id": own, "ticker": ticker, "date": day})
            )
        legit = [Call.of(f"l{i}", n, **args) for i, (n, args) in enumerate(needed) if n in offered]
        return tuple(calls), tuple(legit)

    def hostile_draft(self, draft: str, ticker: str, own: str | None) -> str:
        """One question in five gets a faithful draft, one the draft plus another portfolio's
        position, one only other portfolios' positions and ids, one the draft plus another
        portfolio's figures passed off as this position's, one another portfolio's figure
        hidden behind invisible characters."""
        variant = int(hashlib.sha256(f"{ticker}/{own}/{draft}".encode()).hexdigest(), 16) % 5
        a, b = self.others(ticker, own)[:2]
        said = (
            f"Portfolio {a.portfolio_id} holds {a.quantity} shares of {a.ticker} worth "
            f"{a.market_value}, a day P&L of {a.day_pnl}."
        )
        if variant == 0:
            return draft
        self.count("draft with another portfolio's figures")
        hostile = {
            1: f"{draft} {said}",
            2: f"{said} {b.portfolio_id} has {b.quantity} {b.ticker} at {b.market_value} "
            f"({b.day_pnl} today).",
            3: f"{draft} The {ticker} position is {a.quantity} shares worth {a.market_value}, "
            f"a day P&L of {a.day_pnl}.",
            # the figure split by invisible characters, reversed by an override, with a link:
            # shown without them, it would read as another portfolio's figure
            4: f"{draft} Worth \u202e{hidden_split(a.market_value)}\u202c, see "
            f"https://evil.example/{a.portfolio_id}.",
        }[variant]
        with self.lock:
            self.drafts.add(hostile)
        return hostile


def hidden_split(figure: str) -> str:
    """`figure` with a zero-width space and a word joiner inside it."""
    return f"{figure[:1]}\u200b{figure[1:-1]}\u2060{figure[-1:]}"


def figure_in(figure: str, text: str) -> bool:
    """Whether `figure` stands in `text` as a number of its own: not part of a longer number, nor
    of a word or an id (a run id's hex "…4a755c…" holds no figure)."""
    return re.search(rf"(?<![\w.,-]){re.escape(figure)}(?!\w|[.,]\d)", text) is not None


@pytest.mark.parametrize("mode", ["plan", "react"])
async def test_a_hostile_model_gets_no_portfolio_anything_of_another(
    mode: str, three_portfolios: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from flows.night.flow import nightly_reports

    data = three_portfolios
    day = date.fromisoformat(last_session(data))
    positions = positions_at(data, day)
    model = HostileModel(positions, day)
    monkeypatch.setenv("OPENAI_BASE_URL", model.base_url)
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test-cross-portfolio")
    config = RunConfig(
        provider="openai",
        mode=mode,
        report_date=day,
        data_dir=data,
        out_dir=tmp_path / "out",
        question_set=offering_more(tmp_path / "questions.json"),
    )
    try:
        result = await nightly_reports(config)
    finally:
        model.close()

    day_dir = Path(result["day"])
    published = published_entries(day_dir)
    keys = [f[:3] for f in published]
    assert any(f[3] == "accepted" for f in published), "faithful drafts still reach the reports"
    assert len(keys) == len(set(keys)), "an entry was published twice"
    assert {k for k in keys if k[2] != "summary"} == expected_entries(data, day, tmp_path / "c")
    manifest = json.loads((day_dir / "manifest.json").read_text())
    counts = manifest["counts"]
    assert counts["accepted"] + counts["rejected"] == counts["questions"]
    assert counts["entries_accepted"] + counts["entries_rejected"] == len(keys)

    assert model.tried["draft with another portfolio's figures"] > 0
    if mode == "react":
        assert model.tried["tool not offered"] > 0 and model.tried["other portfolio"] > 0
        assert model.tried["run_sql over holdings"] > 0
        came = [(own, tool, json.loads(text)) for own, tool, text in model.observed]
        read = [(own, out) for own, tool, out in came if "error" not in out]
        assert {tool for _, tool, out in came if "error" in out} >= {*PORTFOLIO_TOOLS}
        assert all(tool == "run_sql" for _, tool, out in came if "error" not in out)
        assert read and all({row[0] for row in out["rows"]} <= {own} for own, out in read)
        assert any(out["rows"] for _, out in read), "a portfolio's question reads its own rows"

    portfolios = sorted({p.portfolio_id for p in positions})
    assert sorted(p.stem for p in (day_dir / "accepted").glob("*.md")) == portfolios
    checked = 0
    for pid in portfolios:
        mine = set().union(*(p.figures for p in positions if p.portfolio_id == pid))
        theirs = set().union(*(p.figures for p in positions if p.portfolio_id != pid))
        foreign = {f for f in theirs - mine if len(f.replace(",", "")) >= 3}
        md = (day_dir / "accepted" / f"{pid}.md").read_text()
        assert mine and all(figure_in(f, md) for f in mine), "the figures are the report's own"
        for path in [day_dir / "accepted" / f"{pid}{ext}" for ext in (".json", ".md", ".html")]:
            text = path.read_text()
            leaked = sorted(f for f in foreign if figure_in(f, text))
            named = sorted(o for o in portfolios if o != pid and re.search(rf"\b{o}\b", text))
            assert not leaked and not named, (path.name, leaked[:5], named)
            checked += 1
    assert checked == 3 * len(portfolios)

    rejected = [json.loads(p.read_text()) for p in (day_dir / "rejected").glob("*__*.json")]
    stated = [c for c in rejected if c["draft"] in model.drafts]
    assert model.drafts and {c["draft"] for c in stated} == model.drafts, "each one is withheld"
    index = (day_dir / "rejected" / "index.jsonl").read_text().splitlines()
    assert "provider_error" not in {json.loads(line)["reason"] for line in index}
    page = (day_dir / "review.html").read_text()
    assert all(c["case_id"] in page for c in rejected)
    figures = (
        f"{mode}: {len(keys)} entries once each; hostile tries {dict(sorted(model.tried.items()))}"
        f"; {len(stated)} drafts stating another portfolio rejected; "
        f"{checked} report files of {len(portfolios)} portfolios checked: 0 foreign figures"
    )
    print(figures)
    if report := os.environ.get("RELIABILITY_REPORT"):
        with open(report, "a", encoding="utf-8") as file:
            file.write(f"cross-portfolio night, {figures}\n")

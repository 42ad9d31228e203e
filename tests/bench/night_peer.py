"""The peer: the same night written with PydanticAI as a competent user of it would.

Four tools (the ones the question set needs) over the same catalog, one agent answering every
question, `asyncio.gather` under a semaphore of `concurrency` tickers, `UsageLimits` per
question, and a summary per ticker drafted from its answers and the data its tools returned.
It verifies nothing, keeps no night-wide budget and cannot resume. Its prompts state the
ticker, date and portfolio the same way nightdesk's do (`Ticker: X. As-of date: D.`) and hand
the summary its data under nightdesk's results marker, so the scripted server can answer both.

Run: python -m tests.bench.night_peer --data DIR --date D --probe OUT.json (OPENAI_BASE_URL set).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import tempfile
import time
from dataclasses import dataclass, field
from datetime import date
from pathlib import Path
from typing import Any

from pydantic_ai import Agent, RunContext, UsageLimits
from pydantic_ai.models.openai import OpenAIChatModel
from pydantic_ai.providers.openai import OpenAIProvider
from pydantic_ai.settings import ModelSettings

from agent.prompts import RESULTS_MARKER
from agent.questions import Question, load_question_set, questions_for
from tests.bench.holdings import answer_every_ticker, holders_in
from tests.bench.probe import Probe
from tools.catalog import Catalog, open_catalog
from tools.registry import call_tool

INSTRUCTIONS = (
    "You are an equity analyst writing one short answer for a nightly portfolio report. "
    "Use only figures, dates and headlines from tool results, copied exactly. "
    "Answer in one to three sentences."
)
LIMITS = UsageLimits(request_limit=8, total_tokens_limit=60_000)
SETTINGS: ModelSettings = {"max_tokens": 1024}


@dataclass
class TickerDeps:
    """What one ticker's tool calls share: the catalog, and the data they returned."""

    catalog: Catalog
    probe: Probe
    results: list[dict[str, Any]] = field(default_factory=list)

    def call(self, tool: str, **args: Any) -> dict[str, Any]:
        started = time.perf_counter()
        result = call_tool(self.catalog, tool, args)
        self.probe.tool_ms.append((time.perf_counter() - started) * 1000)
        if "error" not in result:
            self.results.append({"tool": tool, "args": args, "result": result})
        return result


def get_daily_move(ctx: RunContext[TickerDeps], ticker: str, date: str) -> dict[str, Any]:
    """Close, previous close and day change of a ticker on a session (date YYYY-MM-DD)."""
    return ctx.deps.call("get_daily_move", ticker=ticker, date=date)


def search_news(
    ctx: RunContext[TickerDeps], ticker: str, start: str, end: str, limit: int = 5
) -> dict[str, Any]:
    """The most recent headlines about a ticker published from start to end (YYYY-MM-DD)."""
    return ctx.deps.call("search_news", ticker=ticker, start=start, end=end, limit=limit)


def get_events(ctx: RunContext[TickerDeps], ticker: str, start: str, end: str) -> dict[str, Any]:
    """Earnings, dividends and splits of a ticker from start to end (YYYY-MM-DD)."""
    return ctx.deps.call("get_events", ticker=ticker, start=start, end=end)


def get_position_pnl(
    ctx: RunContext[TickerDeps], portfolio_id: str, ticker: str, date: str
) -> dict[str, Any]:
    """A portfolio's position in a ticker on a session: quantity, value, day P&L, contribution."""
    return ctx.deps.call("get_position_pnl", portfolio_id=portfolio_id, ticker=ticker, date=date)


def prompt_for(question: Question) -> str:
    portfolio = f" Portfolio: {question.portfolio_id}." if question.portfolio_id else ""
    return f"Ticker: {question.ticker}. As-of date: {question.as_of}.{portfolio}\n\n{question.text}"


class PeerNight:
    def __init__(self, catalog: Catalog) -> None:
        provider = OpenAIProvider(base_url=os.environ["OPENAI_BASE_URL"], api_key="unused")
        model = OpenAIChatModel("gpt-4o-mini", provider=provider)
        self.catalog = catalog
        self.qset = load_question_set()
        self.probe = Probe()
        self.analyst = Agent(
            model,
            deps_type=TickerDeps,
            instructions=INSTRUCTIONS,
            tools=[get_daily_move, search_news, get_events, get_position_pnl],
            model_settings=SETTINGS,
        )
        self.writer = Agent(model, instructions=INSTRUCTIONS, model_settings=SETTINGS)

    async def ask(self, question: Question, deps: TickerDeps) -> str | None:
        try:
            result = await self.analyst.run(prompt_for(question), deps=deps, usage_limits=LIMITS)
        except Exception as exc:  # one failed question must not end the night
            self.probe.outcomes[f"error:{type(exc).__name__}"] += 1
            return None
        self.probe.outcomes["answered"] += 1
        return f"- {question.text}\n  {result.output}"

    async def answer_ticker(self, ticker: str, portfolios: list[str]) -> None:
        deps = TickerDeps(self.catalog, self.probe)
        questions = questions_for(ticker, portfolios, self.catalog.report_date, "en", self.qset)
        answers = [a for a in await asyncio.gather(*(self.ask(q, deps) for q in questions)) if a]
        if not answers:
            return
        data = json.dumps(deps.results, indent=1, default=str)
        prompt = (
            f"Ticker: {ticker}. As-of date: {self.catalog.report_date}.\n\n"
            f"Summarise the day of {ticker} in two to four sentences from these answers:\n"
            + "\n".join(answers)
            + f"\n\n{RESULTS_MARKER}\n{data}"
        )
        try:
            await self.writer.run(prompt, usage_limits=LIMITS)
        except Exception as exc:
            self.probe.outcomes[f"error:{type(exc).__name__}"] += 1
        else:
            self.probe.outcomes["answered"] += 1


async def run_night(data: Path, day: date, concurrency: int, probe_path: Path) -> None:
    with tempfile.TemporaryDirectory(prefix="night-peer-") as work:
        catalog = open_catalog(data, day, workdir=Path(work))
        try:
            holders = holders_in(catalog)
            night = PeerNight(catalog)
            await answer_every_ticker(holders, concurrency, night.answer_ticker, night.probe)
            night.probe.write(probe_path)
        finally:
            catalog.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, required=True)
    parser.add_argument("--date", type=date.fromisoformat, required=True)
    parser.add_argument("--concurrency", type=int, default=8)
    parser.add_argument("--probe", type=Path, required=True)
    opts = parser.parse_args()
    asyncio.run(run_night(opts.data, opts.date, opts.concurrency, opts.probe))


if __name__ == "__main__":
    main()

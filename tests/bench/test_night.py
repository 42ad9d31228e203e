"""The night benchmark: its scripted server answers like a faithful model, and a small
configuration runs every contestant to the end with every figure present (no timing asserted)."""

from __future__ import annotations

import asyncio
import json
import os
import subprocess
import sys
from datetime import date
from pathlib import Path
from typing import Any

import pytest

from agent.prompts import context_line, draft_message, react_message, render_results
from agent.providers.base import Message, ModelRequest, ModelResponse, ToolSpec
from agent.providers.openai import OpenAIProvider
from agent.questions import load_question_set, questions_for
from tests.bench.bench_night import CONTESTANTS
from tests.bench.fake_model import ScriptedModelServer, script_reply
from tools.registry import openai_tools, tool_specs

ROOT = Path(__file__).resolve().parents[2]
DAY = date(2024, 12, 31)
MOVE = {
    "ticker": "ACME",
    "session": "2024-12-31",
    "previous_session": "2024-12-30",
    "close": 91.42,
    "previous_close": 91.57,
    "change": -0.15,
    "change_pct": -0.16,
}


def opening(question_id: str) -> str:
    qset = load_question_set()
    question = next(
        q for q in questions_for("ACME", ["P001"], DAY, "en", qset) if q.spec_id == question_id
    )
    context = context_line("en", "ACME", DAY.isoformat(), question.portfolio_id)
    return react_message(question.text, context, "en")


def test_a_question_offered_tools_gets_the_calls_its_plan_names() -> None:
    body = {
        "messages": [{"role": "user", "content": opening("position")}],
        "tools": openai_tools(),
    }
    reply = script_reply(body, load_question_set(), step=1)
    assert reply.finish_reason == "tool_calls"
    calls = [c["function"] for c in reply.message["tool_calls"]]
    assert [(c["name"], json.loads(c["arguments"])) for c in calls] == [
        ("get_position_pnl", {"portfolio_id": "P001", "ticker": "ACME", "date": "2024-12-31"}),
        ("get_portfolio_ranks", {"portfolio_id": "P001", "date": "2024-12-31", "ticker": "ACME"}),
    ]


def test_only_offered_tools_are_called_and_none_means_a_draft() -> None:
    body = {
        "messages": [{"role": "user", "content": opening("move")}],
        "tools": openai_tools(["search_news"]),
    }
    reply = script_reply(body, load_question_set(), step=1)
    assert reply.kind == "draft" and "tool_calls" not in reply.message


def test_tool_turns_and_result_blocks_are_drafted_from_faithfully() -> None:
    call = {"name": "get_daily_move", "arguments": json.dumps({"ticker": "ACME", "date": "x"})}
    react = {
        "messages": [
            {"role": "user", "content": opening("move")},
            {
                "role": "assistant",
                "tool_calls": [{"id": "c1", "type": "function", "function": call}],
            },
            {"role": "tool", "tool_call_id": "c1", "content": json.dumps(MOVE)},
        ],
        "tools": openai_tools(),
    }
    block = render_results([{"tool": "get_daily_move", "args": {}, "result": MOVE}])
    plan = {"messages": [{"role": "user", "content": draft_message("q", "c", "en", block)}]}
    for body in (react, plan):
        reply = script_reply(body, load_question_set(), step=2)
        assert reply.finish_reason == "stop"
        assert "closed at 91.42" in reply.message["content"]
        assert "(-0.16%)" in reply.message["content"]


async def test_the_server_speaks_chat_completions_to_the_real_sdk() -> None:
    server = ScriptedModelServer(latency_s=0.0)
    port = await server.start()
    provider = OpenAIProvider("gpt-4o-mini", base_url=f"http://127.0.0.1:{port}/v1", api_key="k")
    request = ModelRequest(
        system="s",
        messages=[Message(role="user", text=opening("move"))],
        tools=[ToolSpec.model_validate(s) for s in tool_specs()],
        max_output_tokens=100,
    )
    try:
        first, second = [await provider.complete(request) for _ in range(2)]
    finally:
        await provider.client.close()
        assert server.server is not None
        server.server.close()
        await server.server.wait_closed()
    assert [c.name for c in first.tool_calls] == ["get_daily_move", "get_trend", "get_company"]
    assert first.usage.input_tokens > 0 and first.usage.output_tokens > 0
    stats = server.stats.as_json()
    assert stats["requests"] == 2 and stats["replies"] == {"tool_calls": 2}
    assert stats["prompt_tokens"] == first.usage.input_tokens + second.usage.input_tokens
    assert stats["tool_schema_tokens"] > 0


async def test_the_server_plays_the_batch_api_to_the_real_sdk() -> None:
    from agent.providers import batch_api

    server = ScriptedModelServer(latency_s=0.0)
    port = await server.start()
    provider = OpenAIProvider("gpt-4o-mini", base_url=f"http://127.0.0.1:{port}/v1", api_key="k")
    block = render_results([{"tool": "get_daily_move", "args": {}, "result": MOVE}])
    request = ModelRequest(
        system="s", messages=[Message(role="user", text=draft_message("q", "c", "en", block))]
    )
    api = batch_api(provider)
    try:
        batch_id = await api.submit([("a", request), ("b", request)], "answers-k")
        while not (await api.status(batch_id)).ended:
            await asyncio.sleep(0.01)
        results = await api.results(batch_id, ["a", "b"])
        found = await api.find("answers-k")
    finally:
        await provider.client.close()
        assert server.server is not None
        server.server.close()
        await server.server.wait_closed()
    assert found == batch_id
    assert all(isinstance(r, ModelResponse) and r.batch for r in results.values())
    assert all("closed at 91.42" in (r.text or "") for r in results.values())  # type: ignore[union-attr]
    stats = server.stats.as_json()
    assert (stats["requests"], stats["batches"], stats["batch_items"]) == (0, 1, 2)
    assert stats["prompt_tokens"] == sum(r.usage.input_tokens for r in results.values())  # type: ignore[union-attr]


def run_bench(script: str, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    """A benchmark script run as `make bench` runs it; it must end well (its output if not)."""
    args = [sys.executable, str(ROOT / "tests" / "bench" / script)]
    done = subprocess.run(args, env=env, capture_output=True, text=True, timeout=600, check=False)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    return done


@pytest.mark.slow
def test_a_small_night_benchmark_prints_every_figure(tmp_path: Path) -> None:
    out = tmp_path / "night.json"
    env = {
        **os.environ,
        "BENCH_TICKERS": "12",
        "BENCH_PORTFOLIOS": "2",
        "BENCH_CONCURRENCY": "4",
        "BENCH_LATENCY_MS": "5",
        "BENCH_JSON": str(out),
        "BENCH_REPEATS": "2",
    }
    done = run_bench("bench_night.py", env)
    table = done.stdout.split("contestant", 1)[1]
    assert all(name in table for name in CONTESTANTS)
    result = json.loads(out.read_text())
    rows: dict[str, dict[str, Any]] = {r["name"]: r for r in result["rows"]}
    assert list(rows) == list(CONTESTANTS)
    nightdesk = [name for name in rows if name.startswith("nightdesk")]
    assert result["setup"]["prefect_server"] == "shared"  # every night on the one server
    assert result["setup"]["shared_prefect_flow_runs"] == len(nightdesk) * 2  # two rounds
    assert result["setup"]["shared_prefect_rss_mb"] > 0
    first, second = result["setup"]["orders"]  # interleaved: not the same order twice
    assert sorted(first) == sorted(second) == sorted(CONTESTANTS) and first != second
    for name, row in rows.items():
        assert row["questions"] > 0 and row["model_requests"] >= row["questions"], name
        assert row["tokens_per_question"] > 0 and row["peak_rss_mb"] > 0, name
        assert row["tool_calls"] > 0 and row["tool_p50_ms"] <= row["tool_p99_ms"], name
        assert row["vs_peer"]["wall"] > 0 and row["wall_s"] >= row["answer_s"] > 0, name
        assert row["repeats"] == len(row["runs"]) == 2, name
        low, high = row["ranges"]["wall_s"]
        assert low <= row["wall_s"] <= high, name
        assert row["prepare_s"] > 0 and row["cpu_ms_per_question"] > 0, name
    for name in nightdesk:  # the shared server's cost beside the row's own
        assert rows[name]["rss_with_prefect_mb"] > rows[name]["peak_rss_mb"], name
        assert rows[name]["cpu_with_prefect_s"] >= rows[name]["cpu_s"], name
    night = {r["questions"] for r in rows.values()}
    assert len(night) == 1  # all five answered the same night
    plan, batch = rows["nightdesk-plan"], rows["nightdesk-batch"]
    assert batch["accepted_digest"] == plan["accepted_digest"]  # the same accepted reports
    for batch_run, plan_run in zip(batch["runs"], plan["runs"], strict=True):  # unrounded
        assert batch_run["cost_usd"] == pytest.approx(plan_run["cost_usd"] / 2)
    assert batch["batches"] == 2 and batch["batch_calls"] == batch["model_requests"]
    assert batch["http_requests"] < plan["http_requests"]
    for name in (
        "nightdesk-plan",
        "nightdesk-batch",
        "nightdesk-react",
        "driver-plan",
        "driver-react",
    ):
        assert rows[name]["accepted"] == rows[name]["questions"], rows[name]["outcomes"]
        assert rows[name]["verifier_cpu_s"] > 0 and rows[name]["call_p99_ms"] is not None
        assert rows[name]["latency_floor_s"] > 0 and rows[name]["rounds"] >= 2, name
    for kind in ("nightdesk", "driver"):
        plan, react = rows[f"{kind}-plan"], rows[f"{kind}-react"]
        assert plan["schema_tokens_per_question"] == 0 < react["schema_tokens_per_question"]
        assert react["model_requests"] > plan["model_requests"]
    assert rows["nightdesk-react"]["vs_driver"]["answer"] > 0
    assert rows["peer"]["outcomes"] == {"answered": rows["peer"]["questions"]}


@pytest.mark.slow
def test_the_growth_benchmark_prints_both_sizes_and_their_ratio(tmp_path: Path) -> None:
    out = tmp_path / "growth.json"
    env = {**os.environ, "BENCH_GROWTH_TICKERS": "12,24", "BENCH_GROWTH_JSON": str(out)}
    done = run_bench("bench_growth.py", env)
    figures = json.loads(out.read_text())
    small, large = figures["rows"]
    assert (small["tickers"], large["tickers"]) == (12, 24)
    for row in (small, large):  # the budget covers every question: all are answered
        assert row["accepted"] == row["questions"] > 0 and row["prepare_s"] > 0
    assert large["questions"] > small["questions"]
    assert f"wall x{figures['wall_ratio']:.2f} for x2 tickers" in done.stdout


@pytest.mark.slow
def test_the_provider_benchmark_prints_both_pool_layouts(tmp_path: Path) -> None:
    env = {**os.environ, "BENCH_PROVIDER_CALLS": "40", "BENCH_PROVIDER_IN_FLIGHT": "4,32"}
    done = run_bench("bench_provider.py", env)
    lines = [line.split() for line in done.stdout.splitlines() if line.strip()[:1].isdigit()]
    assert [line[0] for line in lines] == ["4", "32"]
    assert all(float(ms) > 0 for line in lines for ms in line[1:3])

"""The real flow driven by the real OpenAI and Anthropic SDK clients over a scripted wire.

The scripted model drafts every answer from the tool results its request carries (the plan
mode drafting message), except for one ticker whose requests always fail with HTTP 500 and one
whose drafts add a figure no tool returned.
"""

from __future__ import annotations

import json
import re
from collections import Counter
from datetime import date
from pathlib import Path
from typing import Any

import httpx2
import pytest

from agent.prompts import parse_language, parse_results
from agent.providers.offline import draft_text
from flows.run.config import RunConfig
from flows.run.provider import provider_options
from tests.agent.scripted import Fault, Turn, Wire, _fault, anthropic_body, openai_body
from tests.flows.night.test_flow import expected_entries, last_session, published_entries

pytestmark = [
    pytest.mark.usefixtures("prefect_server"),
    pytest.mark.filterwarnings("ignore::ResourceWarning"),
    pytest.mark.filterwarnings("ignore::pytest.PytestUnraisableExceptionWarning"),
]

TICKER = re.compile(r"^Ticker: ([A-Za-z0-9._-]+)\.", re.MULTILINE)
INVENTED = " Over the quarter it gained 12.34%."


class ScriptedModel:
    """A transport handler in one wire format; it counts requests and the usage it reported."""

    def __init__(self, kind: Wire, *, down: str, inventor: str) -> None:
        self.kind, self.down, self.inventor = kind, down, inventor
        self.requests: Counter[str] = Counter()
        self.input_tokens = self.cached_tokens = self.output_tokens = 0

    def __call__(self, request: httpx2.Request) -> httpx2.Response:
        text = first_user_text(self.kind, json.loads(request.content))
        match = TICKER.search(text)
        assert match, f"no ticker in the request: {text[:200]!r}"
        ticker = match.group(1)
        self.requests[ticker] += 1
        if ticker == self.down:
            return _fault(self.kind, Fault(500, retry_after_ms=1), request)
        draft = draft_text(parse_results(text) or [], parse_language(text))
        if ticker == self.inventor:
            draft += INVENTED
        prompt = len(request.content) // 4
        turn = Turn(
            text=draft,
            input_tokens=prompt,
            cached_tokens=prompt // 3,
            output_tokens=len(draft) // 4 + 1,
        )
        self.input_tokens += turn.input_tokens
        self.cached_tokens += turn.cached_tokens
        self.output_tokens += turn.output_tokens
        body = openai_body(turn) if self.kind == "openai" else anthropic_body(turn)
        return httpx2.Response(200, json=body)


def first_user_text(kind: Wire, body: dict[str, Any]) -> str:
    message = next(m for m in body["messages"] if m["role"] == "user")
    content = message["content"]
    if isinstance(content, str):
        return content
    return "".join(block.get("text", "") for block in content)


@pytest.mark.parametrize("kind", ["openai", "anthropic"])
async def test_scripted_wire_run(kind: Wire, small_data: Path, tmp_path: Path) -> None:
    from flows.night.flow import nightly_reports

    day = date.fromisoformat(last_session(small_data))
    expected = expected_entries(small_data, day, tmp_path / "cat")
    tickers = sorted({t for _, t, _ in expected})
    down, inventor = tickers[0], tickers[1]
    model = ScriptedModel(kind, down=down, inventor=inventor)
    client = httpx2.AsyncClient(transport=httpx2.MockTransport(model))
    config = RunConfig(
        provider=kind, report_date=day, data_dir=small_data, out_dir=tmp_path, concurrency=8
    )
    with provider_options(api_key="test", http_client=client, max_retries=2):
        result = await nightly_reports(config)
    await client.aclose()

    day_dir = Path(result["day"])
    found = published_entries(day_dir)
    keys = [f[:3] for f in found]
    assert len(keys) == len(set(keys)), "an entry was published twice"
    assert {k for k in keys if k[2] != "summary"} == expected

    manifest = json.loads((day_dir / "manifest.json").read_text())
    counts = manifest["counts"]
    status = Counter(f[3] for f in found)
    assert counts["entries_accepted"] == status["accepted"] > status["rejected"]
    assert counts["entries_rejected"] == status["rejected"]
    cases = [p for p in (day_dir / "rejected").glob("*.json")]
    assert len(cases) == counts["rejected"]

    rows = [json.loads(x) for x in (day_dir / "rejected" / "index.jsonl").read_text().splitlines()]
    reasons = {(r["ticker"], r["question_id"].split("/")[1]): r["reason"] for r in rows}
    specs = {spec for _, t, spec in expected if t == down}
    assert {s for (t, s), why in reasons.items() if t == down and why == "provider_error"} == specs
    assert reasons[(down, "summary")] == "no_verified_answers"
    failed = [r for r in rows if r["ticker"] == down and r["reason"] == "provider_error"]
    assert model.requests[down] == 3 * len(failed)
    invented = {s: why for (t, s), why in reasons.items() if t == inventor}
    assert invented.pop("summary") == "no_verified_answers"
    assert invented and set(invented.values()) == {"unsupported_figure"}
    assert all(t in (down, inventor) for t, _ in reasons)

    used = manifest["budget"]["used"]
    assert used["input_tokens"] == model.input_tokens > 0
    assert used["cached_tokens"] == model.cached_tokens > 0
    assert used["output_tokens"] == model.output_tokens > 0
    assert manifest["parameters"]["provider"] == kind
    provider_models = {(line["provider"], line["model"]) for line in manifest["budget"]["lines"]}
    assert len(provider_models) == 1 and all(m for _, m in provider_models), provider_models

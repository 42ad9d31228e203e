"""A canary key never leaves the process: not through a 401 whose body echoes it, not through a
model that writes it into its draft, not through the logs."""

from __future__ import annotations

import json
import logging
import re
from datetime import date
from pathlib import Path

import httpx2
import pyarrow.parquet as pq
import pytest

from agent.prompts import parse_language, parse_results
from agent.providers.offline import draft_text
from contract.secrets import REDACTED, holds_secret, redact
from flows.run.config import RunConfig
from flows.run.provider import provider_options
from tests.agent.scripted import Turn, openai_body
from tests.flows.night.test_flow import last_session, published_entries
from tests.flows.night.test_wire import TICKER, first_user_text

pytestmark = [
    pytest.mark.usefixtures("prefect_server"),
    pytest.mark.filterwarnings("ignore::ResourceWarning"),
    pytest.mark.filterwarnings("ignore::pytest.PytestUnraisableExceptionWarning"),
]

CANARY = "sk-canary-7f3a9c1e5b2d4f60a8c7e9d1b3f5a7c9"


def leaky_server(rejecting: str, echoing: str, prompting: str = ""):
    """401s that echo the key for one ticker, drafts that quote it for another, drafts that
    recite the system prompt (reflowed, in other case) for a third."""

    def handle(request: httpx2.Request) -> httpx2.Response:
        text = first_user_text("openai", json.loads(request.content))
        match = TICKER.search(text)
        assert match
        key = request.headers["authorization"].removeprefix("Bearer ")
        if match.group(1) == rejecting:
            error = {"message": f"Incorrect API key provided: {key}", "type": "invalid_request"}
            return httpx2.Response(401, json={"error": {**error, "param": None, "code": None}})
        draft = draft_text(parse_results(text) or [], parse_language(text))
        if match.group(1) == echoing:
            draft += f" Configuration: api_key={key}."
        if match.group(1) == prompting:
            system = json.loads(request.content)["messages"][0]["content"]
            draft += " My instructions say: " + " ".join(system.upper().split()[:30])
        turn = Turn(text=draft, input_tokens=len(request.content) // 4, output_tokens=40)
        return httpx2.Response(200, json=openai_body(turn))

    return handle


def test_the_redactor_knows_values_and_shapes(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MY_VAULT_TOKEN", "vault-0123456789")
    monkeypatch.setenv("NIGHTDESK_SECRET_VARS", "MY_VAULT_TOKEN")
    assert redact("token vault-0123456789 here") == "token [redacted] here"
    assert redact("Authorization: Bearer abcdefghijklmnopqrstuvwx") == "Authorization: [redacted]"
    assert holds_secret(f"key {CANARY}") and not holds_secret("AAPL closed at 189.84 on 2024-06-28")


@pytest.mark.parametrize(
    "key",
    [
        "sk-" + "a1B2c3D4e5F6g7H8i9",
        "sk-ant-api03-" + "x" * 20,
        "sk-proj-" + "Y" * 24,
        "AKIA" + "ABCDEFGH12345678",
        *(f"gh{kind}_" + "z9" * 18 for kind in "pousr"),
        "github_pat_" + "11AAB" * 8,
        *(f"xox{kind}-" + "1234-5678-abc" for kind in "abprs"),
        "AIza" + "S" * 35,
        "hf_" + "q" * 34,
        "bEaReR " + "t0ken.value~with/parts",
    ],
)
def test_every_key_shape_is_redacted_inside_long_text(key: str) -> None:
    filler = '{"close": 189.84, "headline": "Shares rise on strong guidance"} ' * 2000
    text = filler + f"key={key}!" + filler
    assert key not in redact(text) and REDACTED in redact(text)


async def test_a_canary_key_appears_nowhere(
    small_data: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog
) -> None:
    from flows.night.flow import nightly_reports

    monkeypatch.setenv("OPENAI_API_KEY", CANARY)
    day = date.fromisoformat(last_session(small_data))
    out = tmp_path / "out"
    caplog.set_level(logging.INFO)
    tickers = sorted(set(pq.read_table(small_data / "holdings.parquet")["ticker"].to_pylist()))
    rejecting, echoing, prompting = tickers[:3]
    server = leaky_server(rejecting, echoing, prompting)
    client = httpx2.AsyncClient(transport=httpx2.MockTransport(server))
    config = RunConfig(
        provider="openai", report_date=day, data_dir=small_data, out_dir=out, concurrency=8
    )
    with provider_options(http_client=client, max_retries=0):
        result = await nightly_reports(config)
    await client.aclose()

    written = [p for p in out.rglob("*") if p.is_file() and ".catalog" not in p.parts]
    assert written and not [p for p in written if CANARY.encode() in p.read_bytes()]
    assert CANARY not in caplog.text
    rows = [
        json.loads(line)
        for line in (Path(result["day"]) / "rejected" / "index.jsonl").read_text().splitlines()
    ]
    reasons = {(r["ticker"], r["reason"]) for r in rows}
    assert (rejecting, "provider_error") in reasons
    assert (echoing, "leaked_secret") in reasons
    assert (prompting, "leaked_prompt") in reasons
    assert not {r for r in reasons if r[0] not in (rejecting, echoing, prompting)}
    echoed = [f for f in published_entries(Path(result["day"])) if f[1] == echoing]
    assert echoed and all(f[3] == "rejected" for f in echoed)
    assert re.search(
        r"Incorrect API key provided: \[redacted\]",
        "".join(p.read_text() for p in (Path(result["day"]) / "rejected").glob("*.json")),
    )

"""A catalog on the shared generated data set, one holding of it, and scripted providers."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from datetime import date
from pathlib import Path
from typing import Any

import httpx2
import pytest

from agent.providers.anthropic import AnthropicProvider
from agent.providers.openai import OpenAIProvider
from tests.agent.scripted import Log, Step, Wire, wire
from tools.catalog import Catalog, open_catalog

REPORT_DATE = date(2024, 6, 3)


@pytest.fixture(scope="session")
def report_date() -> date:
    return REPORT_DATE


@pytest.fixture(scope="session")
def agent_catalog(small_data: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Catalog]:
    cat = open_catalog(small_data, REPORT_DATE, workdir=tmp_path_factory.mktemp("agent-catalog"))
    yield cat
    cat.close()


@pytest.fixture(scope="session")
def holding(agent_catalog: Catalog) -> tuple[str, str]:
    """(portfolio_id, ticker) of one position held on the report date."""
    with agent_catalog.cursor() as cur:
        row = cur.execute(
            "SELECT portfolio_id, ticker FROM holdings ORDER BY 1, 2 LIMIT 1"
        ).fetchone()
    assert row is not None
    return row[0], row[1]


ScriptedProvider = Callable[..., tuple[Any, Log]]


@pytest.fixture
def scripted() -> ScriptedProvider:
    """`scripted(kind, script, **options)` -> (real SDK provider on a mock transport, request log)."""

    def build(kind: Wire, script: list[Step], **options: Any) -> tuple[Any, Log]:
        handler, log = wire(kind, script)
        client = httpx2.AsyncClient(transport=httpx2.MockTransport(handler))
        options.setdefault("max_retries", 2)
        cls = OpenAIProvider if kind == "openai" else AnthropicProvider
        model = "gpt-4o-mini" if kind == "openai" else "claude-haiku-4-5"
        provider = cls(
            model, api_key="test", http_client=client, _strict_response_validation=True, **options
        )
        return provider, log

    return build

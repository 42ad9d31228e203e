"""The form is the CLI: what the `nightly` deployment's form (or any caller of the Prefect API)
submits is held to the run's rules by a real server before a run is created, or its values
follow the one set, as on the command line."""

from __future__ import annotations

import copy
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from uuid import UUID

import pytest

from flows.run.config import RunConfig

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def deployment(prefect_server: None, tmp_path_factory: pytest.TempPathFactory) -> Iterator[UUID]:
    from flows.night.deploy import nightly_deployment

    out = tmp_path_factory.mktemp("form")
    applied = nightly_deployment(
        cron="30 18 * * 1-5", timezone="Europe/Madrid", data_dir=Path("data/sample"), out_dir=out
    ).apply()
    yield UUID(str(applied))


def form(deployment: UUID) -> dict[str, Any]:
    """The form as the UI opens it: the deployment's parameters."""
    from prefect.client.orchestration import get_client

    with get_client(sync_client=True) as client:
        return copy.deepcopy(client.read_deployment(deployment).parameters["config"])


def submit(deployment: UUID, config: dict[str, Any]) -> tuple[str | None, RunConfig | None]:
    """(the server's refusal, None) or (None, the configuration the created run will run)."""
    from prefect.client.orchestration import get_client
    from prefect.exceptions import PrefectHTTPStatusError

    with get_client(sync_client=True) as client:
        before = len(client.read_flow_runs())
        try:
            run = client.create_flow_run_from_deployment(deployment, parameters={"config": config})
        except PrefectHTTPStatusError as exc:
            assert len(client.read_flow_runs()) == before, "a refused run was created"
            return str(exc.response.json()["detail"]), None
    return None, RunConfig.model_validate(run.parameters["config"])


def test_the_form_opens_with_the_following_caps_empty(deployment: UUID) -> None:
    budget = form(deployment)["budget"]
    assert budget["question_tokens"] is None and budget["max_output_tokens"] is None
    assert budget["run_tokens"] == 2_000_000


@pytest.mark.parametrize(
    ("change", "field", "why"),
    [
        ({"batch": True}, "config.provider", "'offline' is not one of ['openai', 'anthropic']"),
        (
            {"batch": True, "provider": "openai", "mode": "react"},
            "config.mode",
            "'react' is not one of ['plan']",
        ),
        ({"concurrency": 0}, "config.concurrency", "0 is less than the minimum of 1"),
        ({"budget": {"run_tokens": 1}}, "config.budget.run_tokens", "less than the minimum"),
    ],
)
def test_a_rule_the_form_breaks_is_refused_before_a_run_is_created(
    deployment: UUID, change: dict[str, Any], field: str, why: str
) -> None:
    config = form(deployment)
    for name, value in change.items():
        config[name] = {**config[name], **value} if isinstance(value, dict) else value
    refusal, created = submit(deployment, config)
    assert created is None and refusal is not None
    assert "\n" not in refusal and f"field {field!r}" in refusal and why in refusal


def test_lowering_only_the_run_budget_lowers_the_question_cap_with_it(deployment: UUID) -> None:
    config = form(deployment)
    config["budget"]["run_tokens"] = 10_000
    refusal, created = submit(deployment, config)
    assert refusal is None and created is not None
    assert created.budget.question_tokens == 10_000 and created.budget.notes == []


def test_a_question_cap_set_above_the_run_budget_follows_it_with_one_note(
    deployment: UUID,
) -> None:
    """The server's schema check cannot compare two fields: the cap follows, as in the CLI."""
    config = form(deployment)
    config["budget"].update(run_tokens=10_000, question_tokens=60_000)
    refusal, created = submit(deployment, config)
    assert refusal is None and created is not None
    assert created.budget.question_tokens == 10_000
    assert created.budget.notes == [
        "question_tokens (60,000) is above run_tokens (10,000): a question may spend at most 10,000"
    ]

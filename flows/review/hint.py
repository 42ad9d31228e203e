"""The command that asks a night's cut and lost questions again: what the review page and
`nightdesk review list` offer for the cases no analyst can decide."""

from __future__ import annotations

from typing import Any

from pydantic import ValidationError

from agent.budget.limits import BudgetConfig
from flows.publish.layout import RunLayout
from flows.run.config import RunConfig
from flows.run.options import as_command


def night_rerun(layout: RunLayout, manifest: dict[str, Any], cut: int) -> str:
    """The `nightdesk run` command that asks a night's cut and lost questions again (a rerun
    keeps what was answered and asks budget cuts and errors again), with every option the night
    set; where the budget cut `cut` questions, with the run budget raised to what the whole
    night needs at the rate it spent."""
    try:
        config = RunConfig.model_validate(manifest.get("parameters", {}))
    except ValidationError:
        return f"nightdesk run {layout.cli_args}"
    config = config.model_copy(update={"report_date": layout.report_date})
    questions = int(manifest.get("counts", {}).get("questions", 0))
    if cut and questions:
        budget = config.budget.model_dump()
        if budget["question_tokens"] >= budget["run_tokens"]:  # it followed the run's: again
            del budget["question_tokens"]
        asked = max(questions - cut, 1)
        budget["run_tokens"] = -(-budget["run_tokens"] * questions // asked // 1000) * 1000
        config = config.model_copy(update={"budget": BudgetConfig.model_validate(budget)})
    return as_command(config)

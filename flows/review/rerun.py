"""Re-asking one rejected question: same date, same data, the run's parameters or overrides.

The new attempt goes through the same loop and the same judge as the night's questions and is
kept as a new case file `reruns/<case-id>.rerun-<n>.json`; the original case is not touched.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from pydantic import ValidationError

from agent.budget.limits import BudgetConfig
from agent.budget.meter import QuestionMeter
from agent.loop import answer_question
from agent.providers import close_provider, make_provider
from agent.questions import load_question_set, render_question
from contract.errors import InputError
from flows.publish.cases import ReviewCase, load_reruns, reruns_dir
from flows.publish.layout import RunLayout, write_json
from flows.publish.records import QuestionRecord
from flows.review.decisions import decisions_lock
from flows.run.config import RunConfig
from flows.run.judge import judge
from flows.run.options import as_command
from tools.catalog import fingerprint_data, open_catalog


def next_rerun_id(layout: RunLayout, case_id: str) -> str:
    taken = [c for c in load_reruns(layout).values() if c.rerun_of == case_id]
    return f"{case_id}.rerun-{len(taken) + 1}"


def check_same_data(data_dir: Path, manifest: dict[str, Any]) -> None:
    """A rerun must see the data the night saw, or its answer is about something else."""
    expected = manifest.get("data_fingerprint") or ""
    if expected and fingerprint_data(data_dir) != expected:
        raise InputError(
            f"the data in {data_dir} is not the data of this run (fingerprint {expected}): "
            "pass --data with the run's data set"
        )


async def rerun_case(
    layout: RunLayout,
    case: ReviewCase,
    manifest: dict[str, Any],
    *,
    data_dir: Path | None = None,
    provider: str | None = None,
    model: str | None = None,
    question_tokens: int | None = None,
) -> ReviewCase:
    """Ask the case's question again, judge the new draft, and keep it as a new case."""
    params = manifest.get("parameters", {})
    if case.spec_id == "summary":
        try:
            command = as_command(RunConfig.model_validate(params))
        except ValidationError:
            command = f"nightdesk run {layout.cli_args}"
        raise InputError(
            "a summary is drafted from the ticker's accepted answers and cannot be re-asked "
            f"alone: run the night again with `{command}`"
        )
    qset = load_question_set(params.get("question_set"))
    if case.spec_id not in qset.ids:
        raise InputError(f"question {case.spec_id!r} is not in the run's question set")
    spec = qset.spec(case.spec_id)
    portfolio = (case.trace.portfolio_id if case.trace else None) or (
        case.portfolios[0] if spec.scope == "portfolio" and case.portfolios else None
    )
    language = str(params.get("language") or "en")
    question = render_question(spec, case.ticker, layout.report_date, language, portfolio)
    chosen = make_provider(
        provider or params.get("provider") or "offline", model or params.get("model") or None
    )
    budget = BudgetConfig.model_validate(params.get("budget") or {})
    limit = question_tokens or budget.question_tokens
    if limit <= budget.max_output_tokens:
        raise InputError(
            f"--question-tokens {limit} must exceed max_output_tokens ({budget.max_output_tokens})"
        )
    data = Path(data_dir or params.get("data_dir") or "data/sample")
    check_same_data(data, manifest)
    with open_catalog(data, layout.report_date, workdir=layout.root / ".catalog") as catalog:
        try:
            trace = await answer_question(
                question,
                provider=chosen,
                catalog=catalog,
                mode=params.get("mode") or "plan",
                meter=QuestionMeter(question.id, question.kind, limit=limit),
                limits=budget.loop_limits(),
            )
        finally:
            await close_provider(chosen)
    record = judge(trace, case.spec_id, case.kind, case.ticker, list(case.portfolios))
    with decisions_lock(layout):  # two reruns of one case at once get two numbers
        return keep_attempt(layout, case, record)


def keep_attempt(layout: RunLayout, case: ReviewCase, record: QuestionRecord) -> ReviewCase:
    """The judged attempt as the case's next `reruns/` file."""
    attempt = ReviewCase.of(
        record,
        case.run_id,
        layout.report_date,
        case_id=next_rerun_id(layout, case.case_id),
        rerun_of=case.case_id,
    )
    write_json(reruns_dir(layout) / f"{attempt.case_id}.json", attempt)
    return attempt

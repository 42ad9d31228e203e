"""What a night says about itself: one log line per finished ticker, the counts, reasons,
tokens, cost and time an operator reads in the Prefect UI (the summary artifact), and the one
line of its final state, which names answers cut by the budget or withheld and fails the run
above a set share."""

from __future__ import annotations

import logging
from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from contract.reasons import ReasonCode
from flows.publish.records import TickerResult

TOP_REASONS = 5


@dataclass(frozen=True)
class NightSummary:
    """One night's figures, from the published counts and the manifest's budget and timings."""

    report_date: str
    questions: int
    accepted: int
    rejected: int
    by_reason: dict[str, int]
    tickers: int
    tickers_reused: int
    tokens: int
    budget_tokens: int
    cost_usd: float | None
    total_s: float
    review_page: str
    saved_usd: float | None = None
    """What drafting through the provider's batch saved against the direct price."""

    @property
    def cut(self) -> int:
        return self.by_reason.get(ReasonCode.BUDGET_EXHAUSTED.value, 0)

    @property
    def withheld_share(self) -> float:
        return self.rejected / self.questions if self.questions else 0.0

    def top_reasons(self) -> list[tuple[str, int]]:
        return sorted(self.by_reason.items(), key=lambda item: (-item[1], item[0]))[:TOP_REASONS]

    def message(self, max_withheld_share: float = 1.0) -> str:
        """The final state's line: all accepted, or how many were withheld, cut and why."""
        head = f"{self.report_date}: {self.accepted} of {self.questions} answers accepted"
        if not self.rejected:
            return head
        cut = (
            f", {self.cut} of them cut by the budget (raise run_tokens; `nightdesk budget "
            f"--date {self.report_date}` shows where the tokens went)"
            if self.cut
            else ""
        )
        line = (
            f"{head}, {self.rejected} withheld ({self.withheld_share:.0%}){cut}; "
            f"review them in {self.review_page}"
        )
        if self.failed(max_withheld_share):
            return f"{line}; more than max_withheld_share {max_withheld_share:.0%} withheld"
        return line

    def failed(self, max_withheld_share: float) -> bool:
        return self.withheld_share > max_withheld_share

    def markdown(self) -> str:
        """The summary artifact: counts, top reasons, tokens, cost and time."""
        cost = "n/a (no price for the model)" if self.cost_usd is None else f"${self.cost_usd:,.4f}"
        lines = [
            f"# Night of {self.report_date}",
            "",
            "| | |",
            "|---|---|",
            f"| answers | {self.questions:,} |",
            f"| accepted | {self.accepted:,} |",
            f"| withheld | {self.rejected:,} ({self.withheld_share:.0%}) |",
            f"| cut by the budget | {self.cut:,} |",
            f"| tickers | {self.tickers:,} ({self.tickers_reused:,} reused) |",
            f"| tokens | {self.tokens:,} of {self.budget_tokens:,} |",
            f"| cost | {cost} |",
            *([f"| saved by the batch | ${self.saved_usd:,.4f} |"] if self.saved_usd else []),
            f"| time | {self.total_s:,.1f} s |",
            "",
            "## Top reasons",
            "",
        ]
        reasons = self.top_reasons()
        lines += [f"- {reason}: {count:,}" for reason, count in reasons] or ["- none"]
        return "\n".join([*lines, "", f"Review page: {self.review_page}", ""])


def summarise_night(
    report_date: str,
    counts: Mapping[str, Any],
    budget: Mapping[str, Any],
    timings: Mapping[str, Any],
    review_page: str,
) -> NightSummary:
    """The summary of a published night; tokens are the night's (every attempt's) total."""
    night = budget.get("night") or {}
    used = night.get("used") or budget.get("used", {})
    return NightSummary(
        report_date=report_date,
        questions=int(counts.get("questions", 0)),
        accepted=int(counts.get("accepted", 0)),
        rejected=int(counts.get("rejected", 0)),
        by_reason=dict(counts.get("rejected_by_reason", {})),
        tickers=int(counts.get("tickers", 0)),
        tickers_reused=int(counts.get("tickers_reused", 0)),
        tokens=int(used.get("input_tokens", 0)) + int(used.get("output_tokens", 0)),
        budget_tokens=int(budget.get("run_tokens", 0)),
        cost_usd=night.get("cost_usd", budget.get("cost_usd")),
        total_s=float(timings.get("total_s", 0.0)),
        review_page=review_page,
        saved_usd=night.get("saved_usd", budget.get("saved_usd")),
    )


class TooManyWithheld(Exception):
    """The night published its reports but withheld a larger share of answers than
    `max_withheld_share` allows; `result` is what it published (picklable: Prefect stores it)."""

    def __init__(self, message: str, result: dict[str, Any]) -> None:
        super().__init__(message, result)
        self.message = message
        self.result = result


def log_ticker(result: TickerResult, reused: bool) -> None:
    """One line in the run's log as a ticker finishes: accepted, rejected (why) and tokens."""
    records = result.all_records
    accepted = sum(r.status == "accepted" for r in records)
    reasons = Counter(r.reason or "unknown" for r in records if r.status == "rejected")
    tokens = sum(
        r.tokens.get("input_tokens", 0) + r.tokens.get("output_tokens", 0) for r in records
    )
    why = f" ({', '.join(f'{k} {v}' for k, v in sorted(reasons.items()))})" if reasons else ""
    run_logger().info(
        "%s: %d accepted, %d rejected%s, %s tokens%s",
        result.ticker,
        accepted,
        sum(reasons.values()),
        why,
        f"{tokens:,}",
        ", reused from an earlier attempt" if reused else "",
    )


def run_logger() -> logging.Logger | logging.LoggerAdapter[logging.Logger]:
    """The run's logger: inside a ticker's task run its lines go to that task run, else to the
    flow run (both reach the Prefect UI), or a plain logger outside a run. It logs at INFO under
    Prefect's own run loggers, whose level `nightdesk run` raises to keep Prefect's per-task
    lines out of a night (`flows.night.launch.PREFECT_DEFAULTS`)."""
    from prefect.exceptions import MissingContextError
    from prefect.logging import get_run_logger
    from prefect.logging.loggers import PrefectLogAdapter

    try:
        adapter = get_run_logger()
    except MissingContextError:
        return logging.getLogger("nightdesk.night")
    if not isinstance(adapter, logging.LoggerAdapter):
        return adapter
    logger = logging.getLogger(f"{adapter.logger.name}.nightdesk")
    logger.setLevel(logging.INFO)
    return PrefectLogAdapter(logger, adapter.extra)

"""One account of a night: every figure an operator reads (the CLI's summary, the manifest's
`summary`, the Prefect summary artifact, the final state's name and message, the review page)
comes from one `AttemptSummary` (what this run did and spent against its own budget) and one
`NightSummary` (what the night published, and what every attempt at it spent together), each
named as such and written with thousands separators. Also one log line per finished ticker.

A night whose budget cut answers ends in a state named `Partial`; one that withheld more than
`max_withheld_share` ends Failed, named `Withheld`."""

from __future__ import annotations

import logging
import shlex
from collections import Counter
from collections.abc import Mapping
from dataclasses import asdict, dataclass, field
from typing import Any

from contract.reasons import ReasonCode
from flows.publish.records import TickerResult

TOP_REASONS = 5
PARTIAL = "Partial"
"""The name of a Completed state whose night the budget cut."""
WITHHELD = "Withheld"
"""The name of a Failed state whose night withheld more than `max_withheld_share`."""


@dataclass(frozen=True)
class AttemptSummary:
    """What one attempt at a night did and spent, against its own budget."""

    number: int
    """1 for a night's first attempt, 2 for its first rerun..."""
    run_id: str
    tokens: int
    budget_tokens: int
    calls: int
    asked: int
    """Questions this attempt sent to the model (a reused ticker's are not asked again)."""
    cut: int
    """Questions this attempt's budget cut."""
    tickers_answered: int
    tickers_reused: int
    cost_usd: float | None = None
    saved_usd: float | None = None
    total_s: float = 0.0

    def line(self) -> str:
        """`this attempt (2): tokens 17,151 of 20,000, 153 model calls, 12 questions cut`."""
        cut = f", {self.cut:,} questions cut by its budget" if self.cut else ""
        return (
            f"this attempt ({self.number}): tokens {self.tokens:,} of {self.budget_tokens:,}, "
            f"{self.calls:,} model calls{cut}"
        )


@dataclass(frozen=True)
class NightSummary:
    """A published night's figures: its questions and what became of them (every question once,
    however many attempts asked it), and the tokens and cost of every attempt together."""

    report_date: str
    questions: int
    accepted: int
    rejected: int
    by_reason: dict[str, int]
    tickers: int
    tokens: int
    """Every attempt's tokens together."""
    attempts: int
    cost_usd: float | None
    review_page: str
    budget_command: str = ""
    """The `nightdesk budget` command that shows this night (with its --out)."""
    saved_usd: float | None = None
    """What drafting through the provider's batch saved, every attempt together."""
    max_withheld_share: float = 1.0
    """The share of withheld answers above which the night fails."""
    attempt: AttemptSummary = field(
        default_factory=lambda: AttemptSummary(1, "", 0, 0, 0, 0, 0, 0, 0)
    )

    @property
    def cut(self) -> int:
        return self.by_reason.get(ReasonCode.BUDGET_EXHAUSTED.value, 0)

    @property
    def withheld_share(self) -> float:
        return self.rejected / self.questions if self.questions else 0.0

    def top_reasons(self) -> list[tuple[str, int]]:
        return sorted(self.by_reason.items(), key=lambda item: (-item[1], item[0]))[:TOP_REASONS]

    def night_line(self) -> str:
        """`all attempts (2): tokens 143,665, cost $0.0123`."""
        cost = "" if self.cost_usd is None else f", cost ${self.cost_usd:,.4f}"
        return f"all attempts ({self.attempts}): tokens {self.tokens:,}{cost}"

    def message(self, max_withheld_share: float | None = None) -> str:
        """The final state's line: what was accepted, withheld and cut, then this attempt's
        and every attempt's tokens."""
        return (
            f"{self.outcome_line(max_withheld_share)}; {self.attempt.line()}; {self.night_line()}"
        )

    def outcome_line(self, max_withheld_share: float | None = None) -> str:
        """What was accepted, withheld and cut, and where to look."""
        share = self.max_withheld_share if max_withheld_share is None else max_withheld_share
        head = f"{self.report_date}: {self.accepted:,} of {self.questions:,} answers accepted"
        if not self.rejected:
            return head
        cut = (
            f", {self.cut:,} of them cut by the budget (raise run_tokens; `{self.budget_command}` "
            "shows where the tokens went)"
            if self.cut
            else ""
        )
        line = (
            f"{head}, {self.rejected:,} withheld ({self.withheld_share:.0%}){cut}; "
            f"review them in {self.review_page}"
        )
        if self.failed(share):
            return f"{line}; more than max_withheld_share {share:.0%} withheld"
        return line

    def failed(self, max_withheld_share: float) -> bool:
        return self.withheld_share > max_withheld_share

    def state_name(self, max_withheld_share: float) -> str:
        """The final state's name: `Withheld` (Failed), `Partial` (cut by the budget), or
        Prefect's own `Completed`."""
        if self.failed(max_withheld_share):
            return WITHHELD
        return PARTIAL if self.cut else "Completed"

    def as_dict(self) -> dict[str, Any]:
        """The manifest's `summary`: `attempt` and `night`, the figures every view shows."""
        night = asdict(self)
        attempt = night.pop("attempt")
        return {"attempt": attempt, "night": {**night, "cut": self.cut}}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> NightSummary:
        night = {k: v for k, v in data["night"].items() if k != "cut"}
        return cls(**night, attempt=AttemptSummary(**data["attempt"]))

    def markdown(self) -> str:
        """The summary artifact: the night's answers and reasons, this attempt's spend and the
        night's, in one table with the totals named."""
        a = self.attempt
        cost = "n/a (no price for the model)" if self.cost_usd is None else f"${self.cost_usd:,.4f}"
        own = "n/a" if a.cost_usd is None else f"${a.cost_usd:,.4f}"
        lines = [
            f"# Night of {self.report_date} (attempt {a.number})",
            "",
            "| | this attempt | the night (all attempts) |",
            "|---|---:|---:|",
            f"| answers | {a.asked:,} asked | {self.questions:,} |",
            f"| accepted | | {self.accepted:,} |",
            f"| withheld | | {self.rejected:,} ({self.withheld_share:.0%}) |",
            f"| cut by the budget | {a.cut:,} | {self.cut:,} |",
            f"| tickers | {a.tickers_answered:,} answered, {a.tickers_reused:,} reused "
            f"| {self.tickers:,} |",
            f"| tokens | {a.tokens:,} of {a.budget_tokens:,} | {self.tokens:,} |",
            f"| model calls | {a.calls:,} | |",
            f"| cost | {own} | {cost} |",
            *([f"| saved by the batch | | ${self.saved_usd:,.4f} |"] if self.saved_usd else []),
            f"| attempts | {a.number} | {self.attempts} |",
            f"| time | {a.total_s:,.1f} s | |",
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
    budget_command: str = "",
    run_id: str = "",
    max_withheld_share: float = 1.0,
) -> NightSummary:
    """The summary of a published night from its counts and the manifest's budget: the
    attempt's own ledger (`budget`) and every attempt's (`budget["night"]`)."""
    night = budget.get("night") or {}
    attempts = list(night.get("attempts") or [])
    number = next(
        (i for i, a in enumerate(attempts, 1) if a.get("run_id") == run_id), len(attempts) or 1
    )
    used = budget.get("used") or {}
    every = night.get("used") or used
    lines = budget.get("lines") or []
    attempt = AttemptSummary(
        number=number,
        run_id=run_id,
        tokens=int(used.get("input_tokens", 0)) + int(used.get("output_tokens", 0)),
        budget_tokens=int(budget.get("run_tokens", 0)),
        calls=sum(int(line.get("calls", 0)) for line in lines),
        asked=sum(int(line.get("questions", 0)) for line in lines),
        cut=len(budget.get("cuts") or []),
        tickers_answered=int(counts.get("tickers", 0)) - int(counts.get("tickers_reused", 0)),
        tickers_reused=int(counts.get("tickers_reused", 0)),
        cost_usd=budget.get("cost_usd"),
        saved_usd=budget.get("saved_usd"),
        total_s=float(timings.get("total_s", 0.0)),
    )
    return NightSummary(
        report_date=report_date,
        questions=int(counts.get("questions", 0)),
        accepted=int(counts.get("accepted", 0)),
        rejected=int(counts.get("rejected", 0)),
        by_reason=dict(counts.get("rejected_by_reason", {})),
        tickers=int(counts.get("tickers", 0)),
        tokens=int(every.get("input_tokens", 0)) + int(every.get("output_tokens", 0)),
        attempts=max(len(attempts), number),
        cost_usd=night.get("cost_usd", budget.get("cost_usd")),
        review_page=review_page,
        budget_command=budget_command or f"nightdesk budget --date {shlex.quote(report_date)}",
        saved_usd=night.get("saved_usd", budget.get("saved_usd")),
        max_withheld_share=max_withheld_share,
        attempt=attempt,
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
    lines out of a night (`flows.night.launch.PREFECT_DEFAULTS`). A ticker's line goes to the
    API only: a terminal shows the night's progress bar, not a line per ticker (rendering one
    cost about a millisecond of the event loop's time per ticker)."""
    from prefect.exceptions import MissingContextError
    from prefect.logging import get_run_logger
    from prefect.logging.handlers import APILogHandler
    from prefect.logging.loggers import PrefectLogAdapter

    try:
        adapter = get_run_logger()
    except MissingContextError:
        return logging.getLogger("nightdesk.night")
    if not isinstance(adapter, logging.LoggerAdapter):
        return adapter
    logger = logging.getLogger(f"{adapter.logger.name}.nightdesk")
    logger.setLevel(logging.INFO)
    if adapter.logger.name.startswith("prefect.task_runs") and logger.propagate:
        to_api: list[logging.Handler] = [
            h for h in adapter.logger.handlers if isinstance(h, APILogHandler)
        ]
        if to_api:  # a ticker's line is for its task run in the UI; the terminal shows progress
            logger.handlers, logger.propagate = to_api, False
    return PrefectLogAdapter(logger, adapter.extra)

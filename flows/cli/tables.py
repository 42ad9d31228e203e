"""Tables for the terminal: a run's budget ledger and what every attempt at a night spent."""

from __future__ import annotations

from rich.table import Table

from agent.budget.ledger import BudgetLedger
from flows.run.attempts import Attempt, NightSpend


def render_budget_table(ledger: BudgetLedger, title: str | None = None) -> Table:
    """The ledger as a table: one row per provider, model and question kind, then the total."""
    table = Table(
        title=title or f"Token budget: {ledger.used.total:,} of {ledger.run_tokens:,} used"
    )
    for name in ("provider", "model", "kind"):
        table.add_column(name)
    for name in (
        "questions",
        "cut",
        "calls",
        "batch",
        "reserved",
        "input",
        "cached",
        "output",
        "cost $",
    ):
        table.add_column(name, justify="right")
    for line in ledger.lines:
        table.add_row(
            line.provider,
            line.model,
            line.kind,
            *_figures(line.questions, line.questions_cut, line.calls, line.batch_calls),
            *_figures(line.reserved),
            *_figures(line.input_tokens, line.cached_tokens, line.output_tokens),
            _dollars(line.cost_usd),
        )
    table.add_section()
    table.add_row(
        "total",
        "",
        "",
        *_figures(sum(x.questions for x in ledger.lines), len(ledger.cuts)),
        *_figures(sum(x.calls for x in ledger.lines), sum(x.batch_calls for x in ledger.lines)),
        *_figures(ledger.reserved),
        *_figures(ledger.used.input_tokens, ledger.used.cached_tokens, ledger.used.output_tokens),
        _dollars(ledger.cost_usd),
    )
    notes = [n for n in (ledger.cost_note, _batch_note(ledger), _overrun_note(ledger)) if n]
    table.caption = "; ".join(notes) or None
    return table


def _figures(*values: int) -> list[str]:
    return [f"{value:,}" for value in values]


def _dollars(cost: float | None) -> str:
    return "n/a" if cost is None else f"{cost:,.4f}"


def _batch_note(ledger: BudgetLedger) -> str | None:
    """What the calls drafted through a batch (column `batch`) cost, and saved."""
    if not any(line.batch_calls for line in ledger.lines) or ledger.saved_usd is None:
        return None
    if ledger.cost_usd is None:
        return f"the batch saved ${ledger.saved_usd:,.4f} against the direct price"
    direct = ledger.cost_usd + ledger.saved_usd
    return (
        f"batch calls at the batch price: ${ledger.cost_usd:,.4f} in all, against "
        f"${direct:,.4f} at the direct price (saved ${ledger.saved_usd:,.4f})"
    )


def _overrun_note(ledger: BudgetLedger) -> str | None:
    if not ledger.overruns:
        return None
    return (
        f"{ledger.overruns} calls reported {ledger.overrun_tokens:,} tokens above their "
        f"reservation ({ledger.uncovered_tokens:,} beyond the run budget)"
    )


def render_night(night: NightSpend) -> Table:
    """The attempts of a night and their sum: each attempt's tokens against its own budget,
    and whether it finished every ticker (and how many questions its budget cut)."""
    table = Table(title="Attempts at this night (each with its own budget)", title_justify="left")
    for column in ("attempt", "run id", "started (UTC)", "tickers", "outcome", "tokens"):
        table.add_column(column, justify="right" if column in ("tickers", "tokens") else "left")
    for number, a in enumerate(night.attempts, 1):
        table.add_row(
            str(number),
            a.run_id,
            a.started_at.strftime("%Y-%m-%d %H:%M:%S"),
            f"{a.tickers_done:,}",
            attempt_outcome(a),
            f"{a.ledger.used.total:,} of {a.ledger.run_tokens:,}",
        )
    table.add_section()
    table.add_row("all attempts", "", "", "", "", f"{night.used.total:,}")
    return table


def attempt_outcome(attempt: Attempt) -> str:
    """`every ticker`, `every ticker; 153 questions cut by its budget`, or `stopped early`."""
    if not attempt.answered:
        return "stopped early"
    cut = len({c.question_id for c in attempt.ledger.cuts})
    return f"every ticker; {cut:,} questions cut by its budget" if cut else "every ticker"

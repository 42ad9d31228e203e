"""Where a run's tokens went: lines per provider, model and question kind, cuts, overruns;
the `budget` key of the manifest, and the sum of a sharded run's ledgers."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Literal

from pydantic import BaseModel, Field

from agent.budget.limits import BudgetConfig
from contract.trace import Usage

CutLimit = Literal["question", "ticker", "run"]


class BudgetCut(BaseModel):
    """A question the budget stopped: which limit, what it asked for, what it had spent."""

    question_id: str
    ticker: str
    kind: str
    limit: CutLimit
    requested: int
    available: int
    spent: Usage


class LedgerLine(BaseModel):
    """Spend of one provider, model and question kind."""

    provider: str
    model: str
    kind: str
    questions: int = 0
    calls: int = 0
    reserved: int = 0
    input_tokens: int = 0
    cached_tokens: int = 0
    output_tokens: int = 0
    questions_cut: int = 0
    cost_usd: float | None = None
    cost_note: str | None = None


LINE_COUNTS = (
    "questions",
    "calls",
    "reserved",
    "input_tokens",
    "cached_tokens",
    "output_tokens",
    "questions_cut",
)


class BudgetLedger(BaseModel):
    """Where a run's tokens went; the `budget` key of the run manifest."""

    run_tokens: int
    question_tokens: int
    used: Usage = Field(default_factory=Usage)
    reserved: int = 0
    open_reservations: int = 0
    overruns: int = 0
    overrun_tokens: int = 0
    uncovered_tokens: int = 0
    estimate_factor: float = 1.0
    lines: list[LedgerLine] = Field(default_factory=list)
    cuts: list[BudgetCut] = Field(default_factory=list)
    cost_usd: float | None = None
    cost_note: str | None = None
    prices: str = ""

    @classmethod
    def empty(cls, budget: BudgetConfig) -> BudgetLedger:
        """The ledger of a run that has spent nothing yet (or whose spend is unknown)."""
        return cls(run_tokens=budget.run_tokens, question_tokens=budget.question_tokens)


def line_usage(line: LedgerLine) -> Usage:
    return Usage(
        input_tokens=line.input_tokens,
        cached_tokens=line.cached_tokens,
        output_tokens=line.output_tokens,
    )


def merge_ledgers(ledgers: Sequence[BudgetLedger]) -> BudgetLedger:
    """One ledger for a run split into shards: each shard's own ledger, added up."""
    merged = BudgetLedger(run_tokens=0, question_tokens=0)
    lines: dict[tuple[str, str, str], LedgerLine] = {}
    costs: list[float | None] = []
    for ledger in ledgers:
        merged.run_tokens += ledger.run_tokens
        merged.question_tokens = max(merged.question_tokens, ledger.question_tokens)
        merged.used = merged.used + ledger.used
        merged.reserved += ledger.reserved
        merged.open_reservations += ledger.open_reservations
        merged.overruns += ledger.overruns
        merged.overrun_tokens += ledger.overrun_tokens
        merged.uncovered_tokens += ledger.uncovered_tokens
        merged.estimate_factor = max(merged.estimate_factor, ledger.estimate_factor)
        merged.cuts += ledger.cuts
        merged.cost_note = merged.cost_note or ledger.cost_note
        merged.prices = merged.prices or ledger.prices
        costs.append(ledger.cost_usd)
        for line in ledger.lines:
            _add_line(lines, line)
    merged.lines = sorted(lines.values(), key=lambda x: (x.provider, x.model, x.kind))
    merged.cost_usd = None if None in costs else sum(c for c in costs if c is not None)
    return merged


def _add_line(lines: dict[tuple[str, str, str], LedgerLine], line: LedgerLine) -> None:
    key = (line.provider, line.model, line.kind)
    if key not in lines:
        lines[key] = line.model_copy()
        return
    into = lines[key]
    for name in LINE_COUNTS:
        setattr(into, name, getattr(into, name) + getattr(line, name))
    if into.cost_usd is None or line.cost_usd is None:
        into.cost_usd, into.cost_note = None, into.cost_note or line.cost_note
    else:
        into.cost_usd += line.cost_usd

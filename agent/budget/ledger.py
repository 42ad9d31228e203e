"""Where a run's tokens went: lines per provider, model and question kind, cuts, overruns;
the `budget` key of the manifest, and the sum of a sharded run's ledgers."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Literal

from pydantic import BaseModel, Field

from agent.budget.limits import BudgetConfig
from agent.pricing import PriceTable, estimate_cost
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
    """Spend of one provider, model and question kind. The `batch_*` counts are the part of the
    calls and tokens drafted through the provider's batch interface (at the batch price);
    `saved_usd` is what that part would have cost more at the direct price."""

    provider: str
    model: str
    kind: str
    questions: int = 0
    calls: int = 0
    reserved: int = 0
    input_tokens: int = 0
    cached_tokens: int = 0
    output_tokens: int = 0
    cache_write_tokens: int = 0
    questions_cut: int = 0
    batch_calls: int = 0
    batch_input_tokens: int = 0
    batch_cached_tokens: int = 0
    batch_cache_write_tokens: int = 0
    batch_output_tokens: int = 0
    cost_usd: float | None = None
    cost_note: str | None = None
    saved_usd: float | None = None


LINE_COUNTS = (
    "questions",
    "calls",
    "reserved",
    "input_tokens",
    "cached_tokens",
    "output_tokens",
    "cache_write_tokens",
    "questions_cut",
    "batch_calls",
    "batch_input_tokens",
    "batch_cached_tokens",
    "batch_cache_write_tokens",
    "batch_output_tokens",
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
    in_flight_tokens: int = 0
    """Reserved for calls that were out when the attempt died and never settled; `used` holds
    them at their reservation (what the provider may have charged is at most that)."""
    estimate_factor: float = 1.0
    lines: list[LedgerLine] = Field(default_factory=list)
    cuts: list[BudgetCut] = Field(default_factory=list)
    cost_usd: float | None = None
    cost_note: str | None = None
    saved_usd: float | None = None
    """What the calls drafted through a batch would have cost more at the direct price."""
    prices: str = ""

    @classmethod
    def empty(cls, budget: BudgetConfig) -> BudgetLedger:
        """The ledger of a run that has spent nothing yet (or whose spend is unknown)."""
        return cls(run_tokens=budget.run_tokens, question_tokens=budget.question_tokens)


class LineTally:
    """Ledger lines kept as calls happen: O(1) per question, reservation and settle, so a
    ledger costs the number of question kinds, not the number of questions so far. The run's
    budget and the replay of a spend journal keep theirs with the same code."""

    def __init__(self, provider: str, model: str) -> None:
        self.provider, self.model = provider, model
        self.lines: dict[str, LedgerLine] = {}
        self.used = Usage()
        self.reserved = 0

    def line(self, kind: str) -> LedgerLine:
        line = self.lines.get(kind)
        if line is None:
            line = self.lines[kind] = LedgerLine(
                provider=self.provider, model=self.model, kind=kind
            )
        return line

    def question(self, kind: str) -> None:
        self.line(kind).questions += 1

    def reserve(self, kind: str, tokens: int) -> None:
        self.line(kind).reserved += tokens
        self.reserved += tokens

    def settle(self, kind: str, usage: Usage, batch: bool = False) -> None:
        line = self.line(kind)
        line.calls += 1
        line.input_tokens += usage.input_tokens
        line.cached_tokens += usage.cached_tokens
        line.output_tokens += usage.output_tokens
        line.cache_write_tokens += usage.cache_write_tokens
        if batch:
            line.batch_calls += 1
            line.batch_input_tokens += usage.input_tokens
            line.batch_cached_tokens += usage.cached_tokens
            line.batch_output_tokens += usage.output_tokens
            line.batch_cache_write_tokens += usage.cache_write_tokens
        self.used = self.used + usage

    def cut(self, kind: str) -> None:
        self.line(kind).questions_cut += 1

    def priced(self, prices: PriceTable) -> tuple[list[LedgerLine], float | None, str | None]:
        """A copy of the lines with their cost (and what the batch saved), and the cost of all
        of them."""
        lines = [self.lines[kind].model_copy() for kind in sorted(self.lines)]
        for line in lines:
            price_line(line, prices)
        if not lines:
            cost, note = estimate_cost(prices, self.provider, self.model, self.used)
            return lines, cost, note
        costs = [line.cost_usd for line in lines]
        note = next((line.cost_note for line in lines if line.cost_note), None)
        return lines, None if None in costs else sum(c for c in costs if c is not None), note


def price_line(line: LedgerLine, prices: PriceTable) -> None:
    """Set the line's cost: its direct calls at the direct price, its batch calls at the batch
    price; `saved_usd` is the difference the batch made."""
    batch = batch_usage(line)
    whole = line_usage(line)
    direct = Usage(
        input_tokens=whole.input_tokens - batch.input_tokens,
        cached_tokens=whole.cached_tokens - batch.cached_tokens,
        output_tokens=whole.output_tokens - batch.output_tokens,
        cache_write_tokens=whole.cache_write_tokens - batch.cache_write_tokens,
    )
    direct_cost, note = estimate_cost(prices, line.provider, line.model, direct)
    batch_cost, _ = estimate_cost(prices, line.provider, line.model, batch, batch=True)
    full_cost, _ = estimate_cost(prices, line.provider, line.model, batch)
    line.cost_note = note
    if direct_cost is None or batch_cost is None or full_cost is None:
        line.cost_usd = line.saved_usd = None
        return
    line.cost_usd = direct_cost + batch_cost
    line.saved_usd = full_cost - batch_cost


def line_usage(line: LedgerLine) -> Usage:
    return Usage(
        input_tokens=line.input_tokens,
        cached_tokens=line.cached_tokens,
        output_tokens=line.output_tokens,
        cache_write_tokens=line.cache_write_tokens,
    )


def batch_usage(line: LedgerLine) -> Usage:
    """The part of a line's tokens drafted through a batch."""
    return Usage(
        input_tokens=line.batch_input_tokens,
        cached_tokens=line.batch_cached_tokens,
        output_tokens=line.batch_output_tokens,
        cache_write_tokens=line.batch_cache_write_tokens,
    )


def saved_of(lines: Sequence[LedgerLine]) -> float | None:
    """What the lines' batch calls saved together; None when one has no price."""
    saved = [line.saved_usd for line in lines]
    return None if None in saved else sum(s for s in saved if s is not None)


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
        merged.in_flight_tokens += ledger.in_flight_tokens
        merged.estimate_factor = max(merged.estimate_factor, ledger.estimate_factor)
        merged.cuts += ledger.cuts
        merged.cost_note = merged.cost_note or ledger.cost_note
        merged.prices = merged.prices or ledger.prices
        costs.append(ledger.cost_usd)
        for line in ledger.lines:
            _add_line(lines, line)
    merged.lines = sorted(lines.values(), key=lambda x: (x.provider, x.model, x.kind))
    merged.cost_usd = None if None in costs else sum(c for c in costs if c is not None)
    merged.saved_usd = saved_of(merged.lines)
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
    if into.saved_usd is None or line.saved_usd is None:
        into.saved_usd = None
    else:
        into.saved_usd += line.saved_usd

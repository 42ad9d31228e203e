"""Token budgets: spend is decided before each model call, never discovered after.

Hierarchy run -> ticker -> question. `RunBudget` splits `run_tokens` into equal ticker shares and
a pool when the run starts (`agent.budget.shares`: the split and why).

Before a call the loop asks its `QuestionMeter` to `reserve` the estimated prompt plus the call's
`max_output_tokens`; `None` means refused (the question ends `budget_exhausted`). After the call it
`settle`s the reservation with the usage the provider reported. One lock guards all counters, so
reserve and settle are atomic across threads and asyncio tasks.

Guarantees:
- Conservation: pool + ticker balances + open reservations + settled usage == `run_tokens`, as
  long as no call reports more than was reserved for it.
- A reservation is granted only if it fits the question (spent + open + new <= `question_tokens`)
  and the ticker's balance plus the pool. So when every call reports at most its reservation
  (the provider caps output at `max_output_tokens`; the prompt estimate is an upper bound), total
  usage <= `run_tokens` and every question's usage <= `question_tokens`.
- A call reported above its reservation (the prompt estimate was short) is an overrun: the excess
  is charged to the ticker's balance, then the pool; what neither holds is `uncovered_tokens` in
  the ledger. Once any is uncovered the run is spent: every later reservation is refused (limit
  `run`). Each estimate miss raises the run's estimate factor (applied to later prompt estimates)
  to reported / estimated x 1.1, at most 4.
- Reported usage is not trusted: negative or missing usage, or a total above `usage_fault_factor`
  times the reservation, is a provider fault. So is a reply longer than its reservation allows by
  a local count of its tokens (`REPLY_MARGIN` over the output reserved, for tokenizers that
  differ), whatever usage it reports. The call is charged at its reservation and `settle`
  returns why, so the question ends `provider_error`.
- Bound: total usage <= `run_tokens` + the overruns of the calls in flight when the run was spent,
  each at most (`usage_fault_factor` - 1) x its reservation: at most one call per concurrency slot,
  and each reservation at most `question_tokens`."""

from __future__ import annotations

import math
import threading
from collections.abc import Sequence
from dataclasses import dataclass
from typing import NamedTuple

from agent.budget.journal import SpendJournal
from agent.budget.ledger import BudgetCut, BudgetLedger, CutLimit, LineTally, saved_of
from agent.budget.limits import (
    ESTIMATE_MARGIN,
    MAX_ESTIMATE_FACTOR,
    USAGE_FAULT_FACTOR,
    BudgetConfig,
)
from agent.budget.shares import split_run
from agent.pricing import PriceTable, load_prices
from contract.trace import Usage


@dataclass(frozen=True, slots=True)
class Reservation:
    """Tokens held for one model call of one question, until it is settled."""

    question_id: str
    tokens: int
    prompt_tokens: int
    serial: int


REPLY_MARGIN = 1.5
"""How far a reply's local count (o200k) may exceed the output tokens reserved for it before it
is a fault: the model's own tokenizer may count the same text in fewer tokens."""


class Settled(NamedTuple):
    """What one call was charged, and why not what it reported (None when it was)."""

    charged: Usage
    fault: str | None


class QuestionMeter:
    """The budget of one question: reserve before a call, settle after it."""

    def __init__(
        self,
        question_id: str,
        kind: str,
        *,
        ticker: TickerBudget | None = None,
        limit: int | None = None,
    ) -> None:
        self.question_id = question_id
        self.kind = kind
        self.limit = limit
        self._ticker = ticker
        self._lock = ticker._run._lock if ticker is not None else threading.Lock()
        self.fault_factor = (
            ticker._run.config.usage_fault_factor if ticker is not None else USAGE_FAULT_FACTOR
        )
        self._spent = Usage()
        self._open: dict[int, Reservation] = {}
        self._serial = 0
        self.reserved_total = 0
        self.calls = 0
        self.cut: BudgetCut | None = None

    @property
    def spent(self) -> Usage:
        return self._spent

    @property
    def refused(self) -> bool:
        return self.cut is not None

    @property
    def committed(self) -> int:
        """Settled usage plus what open reservations hold."""
        return self._spent.total + sum(r.tokens for r in self._open.values())

    def reserve(self, tokens: int, *, prompt_tokens: int | None = None) -> Reservation | None:
        """Hold `tokens` (prompt estimate + max output) for one call, or refuse with None.

        `prompt_tokens` is the prompt estimate inside `tokens`; the run's estimate factor scales
        it (the whole of `tokens` when omitted). A refused question stays refused.
        """
        if tokens < 0:
            raise ValueError(f"cannot reserve a negative number of tokens ({tokens})")
        prompt = tokens if prompt_tokens is None else min(prompt_tokens, tokens)
        with self._lock:
            if self.cut is not None:
                return None
            run = self._ticker._run if self._ticker is not None else None
            factor = run.estimate_factor if run is not None else 1.0
            if run is not None and run.uncovered_tokens > 0:
                self._refuse("run", tokens, 0)
                return None
            scaled_prompt = math.ceil(round(prompt * factor, 6))
            amount = tokens - prompt + scaled_prompt
            if self.limit is not None and self.committed + amount > self.limit:
                self._refuse("question", amount, self.limit - self.committed)
                return None
            if self._ticker is not None and not self._ticker._take(amount):
                self._refuse("ticker", amount, self._ticker._available())
                return None
            self._serial += 1
            reservation = Reservation(self.question_id, amount, scaled_prompt, self._serial)
            self._open[reservation.serial] = reservation
            self.reserved_total += amount
            if run is not None:
                run._reserved(self, reservation)
            return reservation

    def settle(
        self,
        reservation: Reservation,
        usage: Usage,
        *,
        batch: bool = False,
        reply_tokens: int = 0,
    ) -> Settled:
        """Replace the reservation with the usage the provider reported for that call (`batch`:
        drafted through the provider's batch interface, at its price; `reply_tokens`: the reply's
        own count, `agent.providers.tokens.count_reply`). Usage that cannot be true, or a reply
        longer than the reservation allows, is charged at the reservation instead, and `fault`
        says why."""
        fault = reply_fault(reply_tokens, reservation.tokens - reservation.prompt_tokens)
        fault = fault or usage_fault(usage, reservation, self.fault_factor)
        if fault is not None:
            usage = Usage(
                input_tokens=reservation.prompt_tokens,
                output_tokens=reservation.tokens - reservation.prompt_tokens,
            )
        self._settle(reservation, usage, batch)
        return Settled(usage, fault)

    def _settle(self, reservation: Reservation, usage: Usage, batch: bool = False) -> None:
        with self._lock:
            if self._open.pop(reservation.serial, None) is not reservation:
                raise ValueError(
                    f"reservation {reservation.serial} of {self.question_id} is not open"
                )
            self._spent = self._spent + usage
            self.calls += 1
            if self._ticker is None:
                return
            run = self._ticker._run
            run._settled(self, reservation, usage, batch)
            if usage.input_tokens > reservation.prompt_tokens:
                run._note_estimate_miss(usage.input_tokens, reservation.prompt_tokens)
            excess = usage.total - reservation.tokens
            if excess <= 0:
                self._ticker._give(-excess)
            else:
                run._charge_overrun(self._ticker, excess)

    def release(self, reservation: Reservation) -> None:
        """Give a reservation back whole: the call was never made or cost nothing."""
        self._settle(reservation, Usage())

    def _refuse(self, limit: CutLimit, requested: int, available: int) -> None:
        ticker = self._ticker.ticker if self._ticker is not None else ""
        if self._ticker is not None:
            self._ticker._run._cut(self)
        self.cut = BudgetCut(
            question_id=self.question_id,
            ticker=ticker,
            kind=self.kind,
            limit=limit,
            requested=requested,
            available=max(available, 0),
            spent=self._spent,
        )


def reply_fault(reply_tokens: int, allowed: int) -> str | None:
    """Why a reply of `reply_tokens` (counted here, not reported) cannot have come from a call
    allowed `allowed` output tokens, or None."""
    if reply_tokens <= allowed * REPLY_MARGIN:
        return None
    return (
        f"the reply holds at least {reply_tokens:,} tokens by local count, more than the "
        f"{allowed:,} output tokens reserved for it: charged at the reservation"
    )


def usage_fault(usage: Usage, reservation: Reservation, factor: float) -> str | None:
    """Why the usage a provider reported for one call cannot be true, or None."""
    counts = (
        usage.input_tokens,
        usage.cached_tokens,
        usage.output_tokens,
        usage.cache_write_tokens,
    )
    if min(counts) < 0:
        return f"the provider reported negative usage {counts}: charged at the reservation"
    if usage.total == 0:
        return "the provider reported no usage: charged at the reservation"
    if usage.total > reservation.tokens * factor:
        return (
            f"the provider reported {usage.total:,} tokens for a call reserved at "
            f"{reservation.tokens:,} (more than {factor:g} times): charged at the reservation"
        )
    return None


class TickerBudget:
    """One ticker's share of the run; draws on the run's pool once the share is spent."""

    def __init__(self, run: RunBudget, ticker: str, share: int) -> None:
        self._run = run
        self.ticker = ticker
        self.share = share
        self._balance = share
        self.closed = False
        self._questions: dict[str, QuestionMeter] = {}

    def question(self, question_id: str, kind: str) -> QuestionMeter:
        """The meter of one question (the same meter when asked again for the same id)."""
        with self._run._lock:
            meter = self._questions.get(question_id)
            if meter is None:
                meter = QuestionMeter(
                    question_id, kind, ticker=self, limit=self._run.config.question_tokens
                )
                self._questions[question_id] = meter
                self._run._tally.question(kind)
            return meter

    def close(self) -> None:
        """Return the unused share to the pool; later returns go straight to the pool."""
        with self._run._lock:
            self._run._pool += self._balance
            self._balance = 0
            self.closed = True

    def _available(self) -> int:
        return self._balance + self._run._pool

    def _take(self, amount: int) -> bool:
        if amount > self._available():
            return False
        from_share = min(self._balance, amount)
        self._balance -= from_share
        self._run._pool -= amount - from_share
        return True

    def _give(self, amount: int) -> None:
        if self.closed:
            self._run._pool += amount
        else:
            self._balance += amount


class RunBudget:
    """The whole run's tokens, split into equal ticker shares up front."""

    def __init__(
        self,
        config: BudgetConfig,
        tickers: Sequence[str],
        *,
        provider: str = "",
        model: str = "",
        prices: PriceTable | None = None,
        journal: SpendJournal | None = None,
    ) -> None:
        self.config = config
        self.provider = provider
        self.model = model
        self.prices = prices if prices is not None else load_prices(config.price_file)
        self._lock = threading.Lock()
        split = split_run(config.run_tokens, tickers)
        self._pool = split.pool
        self._tickers = {name: TickerBudget(self, name, split.share) for name in split.tickers}
        self._tally = LineTally(provider, model)
        self._cut_meters: list[QuestionMeter] = []
        self._open_tokens = 0
        self.journal = journal
        if journal is not None:
            journal.header(provider, model)
        self.estimate_factor = 1.0
        self.overruns = 0
        self.overrun_tokens = 0
        self.uncovered_tokens = 0

    def ticker(self, ticker: str) -> TickerBudget:
        """The budget of a ticker announced when the run started."""
        try:
            return self._tickers[ticker]
        except KeyError:
            raise ValueError(f"ticker {ticker!r} has no share in this run budget") from None

    @property
    def pool(self) -> int:
        return self._pool

    @property
    def used(self) -> Usage:
        """Reported usage so far, without building the ledger (cheap enough for progress)."""
        return self._tally.used

    def ledger(self) -> BudgetLedger:
        """Accounting per provider, model and question kind, with every budget cut."""
        with self._lock:
            return self._build_ledger()

    def _note_estimate_miss(self, reported: int, estimated: int) -> None:
        ratio = round(reported / max(estimated, 1) * ESTIMATE_MARGIN, 4)
        self.estimate_factor = min(MAX_ESTIMATE_FACTOR, max(self.estimate_factor, ratio))

    def _charge_overrun(self, ticker: TickerBudget, excess: int) -> None:
        self.overruns += 1
        self.overrun_tokens += excess
        from_share = min(ticker._balance, excess)
        ticker._balance -= from_share
        from_pool = min(self._pool, excess - from_share)
        self._pool -= from_pool
        self.uncovered_tokens += excess - from_share - from_pool

    def _reserved(self, meter: QuestionMeter, reservation: Reservation) -> None:
        self._tally.reserve(meter.kind, reservation.tokens)
        self._open_tokens += reservation.tokens
        if self.journal is not None:  # before the call goes out
            self.journal.reserved(
                meter.question_id,
                meter.kind,
                reservation.serial,
                reservation.tokens,
                reservation.prompt_tokens,
            )

    def _settled(
        self, meter: QuestionMeter, reservation: Reservation, usage: Usage, batch: bool
    ) -> None:
        self._tally.settle(meter.kind, usage, batch)
        self._open_tokens -= reservation.tokens
        if self.journal is not None:
            self.journal.settled(meter.question_id, reservation.serial, usage, batch)

    def _cut(self, meter: QuestionMeter) -> None:
        self._tally.cut(meter.kind)
        self._cut_meters.append(meter)

    def _build_ledger(self) -> BudgetLedger:
        lines, cost, note = self._tally.priced(self.prices)
        return BudgetLedger(
            run_tokens=self.config.run_tokens,
            question_tokens=self.config.question_tokens,
            used=self._tally.used,
            reserved=self._tally.reserved,
            open_reservations=self._open_tokens,
            overruns=self.overruns,
            overrun_tokens=self.overrun_tokens,
            uncovered_tokens=self.uncovered_tokens,
            estimate_factor=self.estimate_factor,
            lines=lines,
            cuts=[m.cut.model_copy(update={"spent": m.spent}) for m in self._cut_meters if m.cut],
            cost_usd=cost,
            cost_note=note,
            saved_usd=saved_of(lines),
            prices=self.prices.source,
        )


def unlimited_meter(question_id: str = "", kind: str = "") -> QuestionMeter:
    """A meter that grants every reservation and only records spend (tools, demos, tests)."""
    return QuestionMeter(question_id, kind)

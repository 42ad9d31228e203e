"""What every attempt at a night spent, also an attempt that never published.

A rerun after a crash reuses the tickers the crashed attempt finished and spends nothing on them,
so its own ledger shows only what it added. Each attempt therefore keeps its ledger under
`<out>/.ledgers/<date>/<run-id>.json`, rewritten (atomically, off the event loop) every few
seconds while calls settle and once more when it has answered everything, and its spend journal
beside it (`<run-id>.journal`: every reservation before its call, every settle after it). The
ledger of an attempt that died is its journal replayed, so its spend is known to the last call;
the manifest and `nightdesk budget` add the attempts up into the night's spend. An attempt's budget is its own: the attempts add up, they do not share a budget.
"""

from __future__ import annotations

from collections import Counter
from datetime import datetime
from pathlib import Path

from pydantic import BaseModel, ValidationError

from agent.budget.journal import replay
from agent.budget.ledger import BudgetLedger, merge_ledgers
from agent.budget.limits import BudgetConfig
from agent.pricing import load_prices
from contract.trace import Usage
from flows.publish.layout import RunLayout, check_name, write_json
from flows.run.config import RunConfig


class Attempt(BaseModel):
    """One attempt's spend: as last saved while it ran, or complete once `answered`."""

    run_id: str
    started_at: datetime
    answered: bool = False
    tickers_done: int = 0
    ledger: BudgetLedger
    config: RunConfig | None = None
    """What the attempt ran, so that a hint can give the command that runs it again."""


class NightSpend(BaseModel):
    """Every attempt of a night in the order they started, and what they spent together."""

    attempts: list[Attempt]

    @property
    def used(self) -> Usage:
        total = Usage()
        for attempt in self.attempts:
            total = total + attempt.ledger.used
        return total

    @property
    def cost_usd(self) -> float | None:
        """What the attempts cost together; None when one has no price."""
        costs = [a.ledger.cost_usd for a in self.attempts]
        return None if None in costs else sum(c for c in costs if c is not None)

    @property
    def saved_usd(self) -> float | None:
        """What drafting through a batch saved the attempts against the direct price."""
        saved = [a.ledger.saved_usd for a in self.attempts]
        return None if None in saved else sum(s for s in saved if s is not None)

    def summary(self) -> dict[str, object]:
        """The manifest's `budget.night`: each attempt's tokens and whether it answered all,
        and the night's tokens and cost."""
        used = self.used
        return {
            "attempts": [
                {
                    "run_id": a.run_id,
                    "started_at": a.started_at.isoformat(),
                    "answered": a.answered,
                    "tickers_done": a.tickers_done,
                    "used": {**a.ledger.used.model_dump(), "total": a.ledger.used.total},
                    "calls": sum(line.calls for line in a.ledger.lines),
                    "in_flight_tokens": a.ledger.in_flight_tokens,
                }
                for a in self.attempts
            ],
            "used": {**used.model_dump(), "total": used.total},
            "cost_usd": self.cost_usd,
            "saved_usd": self.saved_usd,
        }


def attempts_dir(layout: RunLayout) -> Path:
    return layout.ledgers


def budget_of(attempt: Attempt) -> BudgetConfig:
    return attempt.config.budget if attempt.config else BudgetConfig.model_validate({})


def journal_path(layout: RunLayout, run_id: str) -> Path:
    return attempts_dir(layout) / f"{check_name(run_id, 'run id')}.journal"


def save_attempt(layout: RunLayout, attempt: Attempt) -> None:
    path = attempts_dir(layout) / f"{check_name(attempt.run_id, 'run id')}.json"
    write_json(path, attempt)


def load_night(layout: RunLayout) -> NightSpend:
    """The attempts kept for the layout's date (an unreadable file is skipped: it is not ours).
    A sharded attempt that never answered everything (its night crashed or was stopped while
    the shards ran) takes its spend from what its shards stored."""
    attempts = []
    for path in sorted(attempts_dir(layout).glob("*.json")):
        try:
            attempt = Attempt.model_validate_json(path.read_bytes())
        except (OSError, ValidationError):
            continue
        if not attempt.answered:
            attempt = with_shard_spend(layout, attempt)
            if (journal := journal_path(layout, attempt.run_id)).is_file():
                prices = load_prices(budget_of(attempt).price_file)
                ledger, done = replay(journal, attempt.ledger, prices)
                attempt = attempt.model_copy(
                    update={"ledger": ledger, "tickers_done": max(done, attempt.tickers_done)}
                )
        attempts.append(attempt)
    return NightSpend(attempts=sorted(attempts, key=lambda a: a.started_at))


def with_shard_spend(layout: RunLayout, attempt: Attempt) -> Attempt:
    """The attempt with the spend and finished tickers its shards stored, if it had any."""
    from flows.run.shard_store import ShardStore

    folders = sorted(layout.shard_dir(attempt.run_id, 0).parent.glob("shard-*"))
    if not folders:
        return attempt
    stores = [ShardStore(folder) for folder in folders]
    budget = budget_of(attempt)
    ledgers = [led for store in stores if (led := store.ledger(False, budget)[0]) is not None]
    if not ledgers:
        return attempt
    return attempt.model_copy(
        update={
            "ledger": merge_ledgers(ledgers),
            "tickers_done": sum(len(store.tickers()) for store in stores),
        }
    )


def night_ledger(
    ledgers: list[BudgetLedger], questions_by_kind: dict[str, int], cut: set[str]
) -> BudgetLedger:
    """The ledger of a night that took several attempts: their tokens, calls and cost added up,
    and its questions counted once each (`questions_by_kind`, from the published records; a
    question a rerun asked again is still one question), with the cuts that stand (`cut`: the
    ids the published night ended `budget_exhausted`; a cut a rerun answered is gone)."""
    merged = merge_ledgers(ledgers)
    cuts = {c.question_id: c for ledger in ledgers for c in ledger.cuts if c.question_id in cut}
    merged.cuts = list(cuts.values())
    cut_by_kind = Counter(c.kind for c in merged.cuts)
    counted: set[str] = set()
    for line in merged.lines:  # a kind on several lines (another model) counts on its first
        first = line.kind not in counted
        line.questions = questions_by_kind.get(line.kind, 0) if first else 0
        line.questions_cut = cut_by_kind.get(line.kind, 0) if first else 0
        counted.add(line.kind)
    return merged

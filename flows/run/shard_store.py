"""What each shard of a night stores as it goes, under `<out>/.shards/`: a file per finished
ticker and its spend so far, each written atomically, so what a dead worker left behind is whole."""

from __future__ import annotations

from pathlib import Path
from typing import Literal, Protocol

from pydantic import BaseModel

from agent.budget.journal import replay
from agent.budget.ledger import BudgetLedger
from agent.budget.limits import BudgetConfig
from agent.pricing import load_prices
from flows.publish.layout import RunLayout, check_name, write_json
from flows.publish.records import TickerResult
from flows.run.config import RunConfig

LedgerSource = Literal["final", "journal", "last_saved", "none"]


class ShardPlace(Protocol):
    """Which shard of which night (a `ShardJob`)."""

    @property
    def run_id(self) -> str: ...
    @property
    def index(self) -> int: ...
    @property
    def config(self) -> RunConfig: ...


class StoredTicker(BaseModel):
    """One finished ticker as its shard stored it."""

    reused: bool
    result: TickerResult


class ShardStore:
    """A shard's folder: `tickers/<ticker>.json` as each finishes, `spend.journal` (every
    reservation and settle), `ledger.json` (the spend, saved every few seconds while calls
    settle), and `final.json` (the whole ledger) when the shard completes. Every file is written atomically, so what a dead
    worker left behind is whole."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder

    @classmethod
    def of(cls, job: ShardPlace) -> ShardStore:
        config = job.config
        assert config.report_date is not None
        layout = RunLayout(Path(config.out_dir), config.report_date)
        return cls(layout.shard_dir(job.run_id, job.index))

    @property
    def journal(self) -> Path:
        """The shard's spend journal (`agent.budget.journal`)."""
        return self.folder / "spend.journal"

    def ticker_done(self, result: TickerResult, reused: bool) -> None:
        name = check_name(result.ticker, "ticker")
        stored = StoredTicker(reused=reused, result=result)
        write_json(self.folder / "tickers" / f"{name}.json", stored)

    def spent(self, ledger: BudgetLedger) -> None:
        write_json(self.folder / "ledger.json", ledger)

    def complete(self, ledger: BudgetLedger) -> None:
        write_json(self.folder / "final.json", ledger)

    def tickers(self) -> dict[str, StoredTicker]:
        stored = (
            StoredTicker.model_validate_json(p.read_text(encoding="utf-8"))
            for p in sorted(self.folder.glob("tickers/*.json"))
        )
        return {s.result.ticker: s for s in stored}

    def ledger(
        self, completed: bool, budget: BudgetConfig
    ) -> tuple[BudgetLedger | None, LedgerSource]:
        """The final ledger of a completed shard; else its journal replayed over the last
        ledger it saved (every call to the last one); else the last saved; else none."""
        final, saved = self.folder / "final.json", self.folder / "ledger.json"
        if completed and final.is_file():
            return BudgetLedger.model_validate_json(final.read_text(encoding="utf-8")), "final"
        last = (
            BudgetLedger.model_validate_json(saved.read_text(encoding="utf-8"))
            if saved.is_file()
            else None
        )
        if self.journal.is_file():
            base = last or BudgetLedger.empty(budget)
            return replay(self.journal, base, load_prices(budget.price_file)).ledger, "journal"
        return last, "last_saved" if last is not None else "none"

"""What each shard of a night stores as it goes, under `<out>/.shards/`: a file per finished
ticker and its spend so far, each written atomically, so what a dead worker left behind is whole."""

from __future__ import annotations

from pathlib import Path
from typing import Literal, Protocol

from pydantic import BaseModel

from agent.budget.ledger import BudgetLedger
from flows.publish.layout import RunLayout, check_name, write_json
from flows.publish.records import TickerResult
from flows.run.config import RunConfig

LedgerSource = Literal["final", "last_saved", "none"]


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
    """A shard's folder: `tickers/<ticker>.json` as each finishes, `ledger.json` (the spend, saved
    as each ticker finishes and every few seconds while calls settle), and `final.json` (the
    whole ledger) when the shard completes. Every file is written atomically, so what a dead
    worker left behind is whole."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder

    @classmethod
    def of(cls, job: ShardPlace) -> ShardStore:
        config = job.config
        assert config.report_date is not None
        layout = RunLayout(Path(config.out_dir), config.report_date)
        return cls(layout.shard_dir(job.run_id, job.index))

    def ticker_done(self, result: TickerResult, reused: bool, ledger: BudgetLedger) -> None:
        name = check_name(result.ticker, "ticker")
        stored = StoredTicker(reused=reused, result=result)
        write_json(self.folder / "tickers" / f"{name}.json", stored.model_dump(mode="json"))
        self.spent(ledger)

    def spent(self, ledger: BudgetLedger) -> None:
        write_json(self.folder / "ledger.json", ledger.model_dump(mode="json"))

    def complete(self, ledger: BudgetLedger) -> None:
        write_json(self.folder / "final.json", ledger.model_dump(mode="json"))

    def tickers(self) -> dict[str, StoredTicker]:
        stored = (
            StoredTicker.model_validate_json(p.read_text(encoding="utf-8"))
            for p in sorted(self.folder.glob("tickers/*.json"))
        )
        return {s.result.ticker: s for s in stored}

    def ledger(self, completed: bool) -> tuple[BudgetLedger | None, LedgerSource]:
        """The final ledger of a completed shard, else the last one stored, else none."""
        sources: list[tuple[str, LedgerSource]] = [("ledger.json", "last_saved")]
        if completed:
            sources.insert(0, ("final.json", "final"))
        for name, source in sources:
            if (file := self.folder / name).is_file():
                return BudgetLedger.model_validate_json(file.read_text(encoding="utf-8")), source
        return None, "none"

"""The run configuration: one pydantic model that is the flow's parameter, the CLI's options
and the deployment's form in the Prefect UI (bounds and descriptions included)."""

from __future__ import annotations

import os
from dataclasses import dataclass
from datetime import date
from pathlib import Path
from typing import Annotated, Any, Literal, Self

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

from agent.budget.limits import BudgetConfig
from agent.providers import BATCH_PROVIDERS, ProviderName
from contract.text import whole_chars
from contract.trace import Mode
from tools.fields import parse_iso_date

DATA_ENV, OUT_ENV = "NIGHTDESK_DATA", "NIGHTDESK_OUT"
OUT_ROOT_ENV = "NIGHTDESK_OUT_ROOT"
"""Set by `nightdesk serve --out-root`: the one folder the runs it serves may write under."""
"""Defaults for `data_dir` and `out_dir` where set: `nightdesk serve` sets them to its --data and
--out, so a custom run whose `config` leaves them out (Prefect replaces a parameter whole) still
reads and writes the served folders, not folders relative to wherever serve was started."""


@dataclass(frozen=True, slots=True)
class Flag:
    """The `nightdesk run` option a field is given by, where it is not the field's own name
    in kebab case (`report_date` is `--date`): see `flows.run.options`."""

    name: str


@dataclass(frozen=True, slots=True)
class Requires:
    """A rule between two fields: with `when` on, `field` must be one of `allowed`. The model
    holds it (the CLI's one line), and so does the flow's parameter schema (as `if`/`then`),
    which the Prefect server checks before it creates a run from the form or the API."""

    when: str
    field: str
    allowed: tuple[str, ...]
    why: str

    def message(self, value: str) -> str:
        allowed = " or ".join(self.allowed)
        return f"--{self.when} needs --{self.field} {allowed}" + self.why.format(value=value)

    def schema(self) -> dict[str, Any]:
        return {
            "if": {"properties": {self.when: {"const": True}}, "required": [self.when]},
            "then": {
                "properties": {self.field: {"enum": list(self.allowed)}},
                "required": [self.field],
            },
        }


RULES = (
    Requires(
        "batch",
        "provider",
        BATCH_PROVIDERS,
        " (their batch interfaces): the {value} provider has none",
    ),
    Requires(
        "batch",
        "mode",
        ("plan",),
        ": in {value} mode the model chooses its tools turn by turn, so the night's drafts are "
        "not known before they are sent",
    ),
)
"""The run's cross-field rules of choice; the budget's caps follow one another instead
(`BudgetConfig`)."""


class RunConfig(BaseModel):
    """What one night's run reports on, with which model, how fast and for how much."""

    model_config = ConfigDict(
        extra="forbid",
        allow_inf_nan=False,
        json_schema_extra={"allOf": [rule.schema() for rule in RULES]},
    )

    report_date: Annotated[date | None, Flag("date")] = Field(
        default=None,
        description="Session to report on; empty means the latest session in the data.",
    )
    portfolios: Annotated[list[str], Flag("portfolio")] = Field(
        default_factory=list, description="Portfolio ids to report on; empty means all of them."
    )
    provider: ProviderName = Field(
        default="offline", description="Model provider answering questions."
    )
    model: str = Field(
        default="", max_length=200, description="Model name; empty picks the default."
    )
    mode: Mode = Field(
        default="plan",
        description="plan: the program calls the tools; react: the model chooses them.",
    )
    language: Literal["en", "es"] = Field(default="en", description="Language of the answers.")
    budget: BudgetConfig = Field(
        default_factory=lambda: BudgetConfig.model_validate({}),
        description="Token budget and rate limits of the run.",
    )
    concurrency: int = Field(
        default=8, ge=1, le=512, description="Tickers answered at the same time."
    )
    threads: int | None = Field(
        default=None,
        ge=1,
        le=1024,
        description="CPU threads of the local model; empty: every core this process may use.",
    )
    verifier_processes: int | None = Field(
        default=None,
        ge=0,
        le=64,
        description=(
            "Processes that verify drafts beside the one answering; 0: verify in that one; "
            "empty: two fewer than the CPUs (at most 4), none for a night under 100 tickers or "
            "for each of its shards."
        ),
    )
    drafting: Literal["auto", "free", "structured"] = Field(
        default="auto",
        description=(
            "free: the model writes each draft; structured: it chooses among facts the program "
            "writes from the tool results (plan mode); auto: structured for the local provider."
        ),
    )
    dtype: Literal["auto", "float32", "bfloat16", "float16"] = Field(
        default="auto",
        description=(
            "Weights' dtype of the local model; auto: bfloat16 where the hardware computes in it "
            "(a GPU, a CPU with AVX-512 BF16 or AMX), else float32."
        ),
    )
    question_set: Annotated[Path | None, Flag("questions")] = Field(
        default=None, description="Question set file (.json/.yaml); empty uses the bundled default."
    )
    data_dir: Annotated[Path, Flag("data")] = Field(
        default_factory=lambda: Path(os.environ.get(DATA_ENV, "data/sample")),
        description="Folder of the Parquet data set.",
    )
    out_dir: Annotated[Path, Flag("out")] = Field(
        default_factory=lambda: Path(os.environ.get(OUT_ENV, "outputs")),
        description="Folder the reports are written under.",
    )
    shards: int = Field(
        default=1,
        ge=1,
        le=64,
        description="Parts the night is split into; above 1 each runs on a worker of the pool.",
    )
    work_pool: Annotated[str, Flag("pool")] = Field(
        default="nightdesk",
        min_length=1,
        max_length=100,
        description="Prefect work pool whose workers run the shards (with shards above 1).",
    )
    shard_stall_minutes: int = Field(
        default=30,
        ge=1,
        le=24 * 60,
        description=(
            "A running shard that finishes no ticker for this long is taken as lost (its worker "
            "died): the night keeps what it stored and goes on."
        ),
    )
    fresh: bool = Field(
        default=False, description="Recompute every ticker, ignoring stored results."
    )
    batch: bool = Field(
        default=False,
        description=(
            "Draft through the provider's batch interface at half price (openai, anthropic; plan "
            "mode): every draft of the night is sent at once, answers first, then summaries."
        ),
    )
    batch_window_minutes: float = Field(
        default=24 * 60.0,
        gt=0,
        le=24 * 60,
        description="How long a batch night waits for its batches before giving up on them.",
    )
    batch_poll_seconds: float = Field(
        default=30.0,
        ge=0,
        le=3600,
        description="First wait between two looks at a running batch; it doubles up to 5 minutes.",
    )
    batch_fallback: Literal["direct", "provider_error"] = Field(
        default="direct",
        description=(
            "What becomes of a draft the batch could not answer (errored, expired): asked again "
            "directly at the full price, or rejected as provider_error for a rerun to ask again."
        ),
    )
    holdings_max_age_days: int = Field(
        default=7,
        ge=0,
        le=3660,
        description="Holdings older than this many days on the report date get a warning atop "
        "each report.",
    )
    max_withheld_share: float = Field(
        default=1.0,
        ge=0.0,
        le=1.0,
        description=(
            "Share of answers withheld (rejected or cut by the budget) above which the run ends "
            "Failed once it has published; 1.0 never fails it."
        ),
    )

    @field_validator("portfolios")
    @classmethod
    def _unique(cls, value: list[str]) -> list[str]:
        if any(whole_chars(v) != v for v in value):
            raise ValueError("a portfolio id is UTF-8 text (it holds bytes that are not)")
        return list(dict.fromkeys(value))

    @field_validator("report_date", mode="before")
    @classmethod
    def _iso_day(cls, value: object) -> object:
        """A day written YYYY-MM-DD (or a date): not a timestamp, whose zone would move the day,
        nor a number pydantic would read as seconds since 1970."""
        return value if value is None else parse_iso_date(value)

    @field_validator("data_dir", "out_dir", "question_set")
    @classmethod
    def _plain_path(cls, value: Path | None) -> Path | None:
        """A path the file system can take: no NUL or other control character, no name part
        longer than a file system allows (255 bytes), at most 4,096 bytes in all."""
        if value is None:
            return value
        text = str(value)
        if any(ord(c) < 0x20 or 0x7F <= ord(c) < 0xA0 for c in text):
            raise ValueError("a path holds no control character (NUL, line break, escape)")
        if whole_chars(text) != text:
            raise ValueError("a path is UTF-8 text (its name holds bytes that are not)")
        if len(os.fsencode(text)) > 4096 or any(len(os.fsencode(p)) > 255 for p in value.parts):
            raise ValueError("a path of at most 4,096 bytes, each name at most 255")
        return value

    @model_validator(mode="after")
    def _rules(self) -> Self:
        for rule in RULES:
            value = str(getattr(self, rule.field))
            if getattr(self, rule.when) and value not in rule.allowed:
                raise ValueError(rule.message(value))
        return self

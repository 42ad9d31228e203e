"""The run configuration: one pydantic model that is the flow's parameter, the CLI's options
and the deployment's form in the Prefect UI (bounds and descriptions included)."""

from __future__ import annotations

import os
import re
import shlex
from datetime import date
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator

from agent.budget.limits import BudgetConfig
from agent.providers import ProviderName
from contract.trace import Mode

DATA_ENV, OUT_ENV = "NIGHTDESK_DATA", "NIGHTDESK_OUT"
OUT_ROOT_ENV = "NIGHTDESK_OUT_ROOT"
"""Set by `nightdesk serve --out-root`: the one folder the runs it serves may write under."""
"""Defaults for `data_dir` and `out_dir` where set: `nightdesk serve` sets them to its --data and
--out, so a custom run whose `config` leaves them out (Prefect replaces a parameter whole) still
reads and writes the served folders, not folders relative to wherever serve was started."""


class RunConfig(BaseModel):
    """What one night's run reports on, with which model, how fast and for how much."""

    model_config = ConfigDict(extra="forbid")

    report_date: date | None = Field(
        default=None,
        description="Session to report on; empty means the latest session in the data.",
    )
    portfolios: list[str] = Field(
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
    question_set: Path | None = Field(
        default=None, description="Question set file (.json/.yaml); empty uses the bundled default."
    )
    data_dir: Path = Field(
        default_factory=lambda: Path(os.environ.get(DATA_ENV, "data/sample")),
        description="Folder of the Parquet data set.",
    )
    out_dir: Path = Field(
        default_factory=lambda: Path(os.environ.get(OUT_ENV, "outputs")),
        description="Folder the reports are written under.",
    )
    shards: int = Field(
        default=1,
        ge=1,
        le=64,
        description="Parts the night is split into; above 1 each runs on a worker of the pool.",
    )
    work_pool: str = Field(
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
        default=24 * 60,
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
        return list(dict.fromkeys(value))


OPTION_PARAMETERS = {
    "date": "report_date",
    "out": "out_dir",
    "data": "data_dir",
    "model": "model",
    "portfolio": "portfolios",
    "pool": "work_pool",
    "batch": "batch",
}
"""The CLI option each `RunConfig` field is given by, where their names differ."""
_PASS_OPTION = re.compile(r"\bpass --(" + "|".join(OPTION_PARAMETERS) + r")\b(?! as)")
_OPTION = re.compile(r"(?<![\w-])--(" + "|".join(OPTION_PARAMETERS) + r")\b")


def as_parameters(message: str) -> str:
    """A refusal worded for a run started in the Prefect UI or by its API: where the CLI's
    message names an option ("pass --date 2024-06-03 or earlier"), name the `config` field
    ("set report_date to 2024-06-03 or earlier")."""
    message = _PASS_OPTION.sub(lambda m: f"set {OPTION_PARAMETERS[m.group(1)]} to", message)
    return _OPTION.sub(lambda m: OPTION_PARAMETERS[m.group(1)], message)


def as_command(config: RunConfig) -> str:
    """The `nightdesk run` command line that runs this configuration again (what the CLI can
    set, where it differs from the CLI's defaults; folders made absolute), for a hint an
    operator can paste. What the CLI cannot set is listed by `not_in_command`."""
    assert config.report_date is not None
    args = ["nightdesk", "run", "--date", config.report_date.isoformat()]
    args += ["--data", str(config.data_dir.resolve()), "--out", str(config.out_dir.resolve())]
    for portfolio in config.portfolios:
        args += ["--portfolio", portfolio]
    defaults = RunConfig(data_dir=config.data_dir, out_dir=config.out_dir)
    budget, default_budget = config.budget, defaults.budget
    for option, value, default in (
        ("--provider", config.provider, defaults.provider),
        ("--model", config.model, defaults.model),
        ("--mode", config.mode, defaults.mode),
        ("--language", config.language, defaults.language),
        ("--run-tokens", budget.run_tokens, default_budget.run_tokens),
        ("--question-tokens", budget.question_tokens, default_budget.question_tokens),
        ("--requests-per-minute", budget.requests_per_minute, None),
        ("--tokens-per-minute", budget.tokens_per_minute, None),
        ("--concurrency", config.concurrency, defaults.concurrency),
        ("--threads", config.threads, defaults.threads),
        ("--dtype", config.dtype, defaults.dtype),
        ("--drafting", config.drafting, defaults.drafting),
        ("--question-set", config.question_set and config.question_set.resolve(), None),
        ("--shards", config.shards, defaults.shards),
        ("--pool", config.work_pool, defaults.work_pool),
        ("--max-withheld-share", config.max_withheld_share, defaults.max_withheld_share),
        ("--batch-window-minutes", config.batch_window_minutes, defaults.batch_window_minutes),
        ("--batch-poll-seconds", config.batch_poll_seconds, defaults.batch_poll_seconds),
        ("--batch-fallback", config.batch_fallback, defaults.batch_fallback),
    ):
        if value != default:
            args += [option, str(value)]
    if config.batch:
        args.append("--batch")
    return shlex.join(args)


CLI_BUDGET = frozenset(
    {"run_tokens", "question_tokens", "requests_per_minute", "tokens_per_minute"}
)
"""The budget settings `nightdesk run` has options for."""


def not_in_command(config: RunConfig) -> list[str]:
    """The settings of `config` that differ from the defaults but have no `nightdesk run`
    option (set in the Prefect UI: max_steps, shard_stall_minutes...), as `name=value`."""
    defaults = RunConfig(data_dir=config.data_dir, out_dir=config.out_dir)
    budget = [
        f"{name}={value}"
        for name, value in config.budget
        if name not in CLI_BUDGET and value != getattr(defaults.budget, name)
    ]
    others = [
        f"{name}={getattr(config, name)}"
        for name in ("shard_stall_minutes",)
        if getattr(config, name) != getattr(defaults, name)
    ]
    return budget + others

"""What a night may spend and how fast: the one owner of every budget default."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Self

from pydantic import BaseModel, Field, model_validator

from contract.errors import InputError

MAX_OUTPUT_TOKENS = 1_024
"""Output tokens one model call may produce, unless the run says otherwise."""
MAX_STEPS = 8
"""Model calls one question may make in react mode, unless the run says otherwise."""
USAGE_FAULT_FACTOR = 4.0
"""A call reporting more than this many times its reservation reports what cannot be true."""
ESTIMATE_MARGIN = 1.1


MAX_ESTIMATE_FACTOR = 4.0


class BudgetConfig(BaseModel):
    """What one night may spend, and how fast; a flow parameter and CLI options."""

    run_tokens: int = Field(
        2_000_000, gt=0, le=10**11, description="Tokens the whole run may spend (input + output)."
    )
    question_tokens: int = Field(
        60_000, gt=0, description="Tokens one question may spend over all its model calls."
    )
    max_output_tokens: int = Field(
        MAX_OUTPUT_TOKENS, gt=0, le=200_000, description="Output tokens one model call may produce."
    )
    max_steps: int = Field(
        MAX_STEPS, ge=1, le=100, description="Model calls one question may make."
    )
    requests_per_minute: int | None = Field(
        None,
        gt=0,
        description="Model calls per minute, per provider, for this process; empty: what the "
        "provider's rate-limit headers allow (no limit where it sends none).",
    )
    tokens_per_minute: int | None = Field(
        None,
        gt=0,
        description="Tokens per minute, per provider, for this process; empty: what the "
        "provider's rate-limit headers allow (no limit where it sends none).",
    )
    usage_fault_factor: float = Field(
        USAGE_FAULT_FACTOR,
        ge=1.0,
        le=100.0,
        description="A call reporting more than this many times its reservation is a provider "
        "fault, charged at the reservation.",
    )
    price_file: Path | None = Field(
        None, description="JSON price table that replaces the bundled one (per million tokens)."
    )

    @model_validator(mode="after")
    def _consistent(self) -> Self:
        given = self.model_fields_set  # a cap the user did not set follows the ones they did
        if "question_tokens" not in given and self.question_tokens > self.run_tokens:
            self.question_tokens = self.run_tokens
        if "max_output_tokens" not in given and self.max_output_tokens >= self.question_tokens:
            self.max_output_tokens = max(self.question_tokens // 2, 1)
        if self.question_tokens > self.run_tokens:
            raise ValueError(
                f"question_tokens ({self.question_tokens}) must not exceed run_tokens "
                f"({self.run_tokens}): raise run_tokens or lower question_tokens"
            )
        if self.max_output_tokens >= self.question_tokens:
            raise ValueError(
                f"max_output_tokens ({self.max_output_tokens}) must be below question_tokens "
                f"({self.question_tokens}), which must also hold the prompt"
            )
        return self

    def loop_limits(self) -> LoopLimits:
        """What the tool loop of each question is held to under this budget."""
        return LoopLimits(max_steps=self.max_steps, max_output_tokens=self.max_output_tokens)

    def for_shard(self, tickers: int, of_tickers: int, shards: int) -> BudgetConfig:
        """The budget of one shard holding `tickers` of the run's `of_tickers`, one of `shards`:
        tokens in proportion to its tickers, explicit rate limits split evenly between shards
        (the provider's own are what its headers say, to every shard)."""
        if not 0 < tickers <= of_tickers or shards <= 0:
            raise ValueError(f"bad shard: {tickers} of {of_tickers} tickers, {shards} shards")
        run_tokens = self.run_tokens * tickers // of_tickers
        question_tokens = min(self.question_tokens, run_tokens)
        if self.max_output_tokens >= question_tokens:
            raise InputError(
                f"run_tokens ({self.run_tokens}) leaves a shard of {tickers} tickers only "
                f"{run_tokens} tokens, not enough for one call: raise run_tokens or use fewer shards"
            )
        return self.model_copy(
            update={
                "run_tokens": run_tokens,
                "question_tokens": question_tokens,
                "requests_per_minute": _split(self.requests_per_minute, shards),
                "tokens_per_minute": _split(self.tokens_per_minute, shards),
            }
        )


def _split(limit: int | None, shards: int) -> int | None:
    return None if limit is None else max(limit // shards, 1)


@dataclass(frozen=True, slots=True)
class LoopLimits:
    """What one question's tool loop is held to: model calls, output per call, time per tool
    call and for the whole question (the deadline also bounds provider retries)."""

    max_steps: int = MAX_STEPS
    max_output_tokens: int = MAX_OUTPUT_TOKENS
    tool_timeout_s: float = 10.0
    deadline_s: float = 120.0
    drafting: str = "free"
    """free: the model writes the draft; structured: it chooses facts the program writes
    (plan mode, `agent.structured`)."""

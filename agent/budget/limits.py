"""What a night may spend and how fast: the one owner of every budget default."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any, Self

from pydantic import BaseModel, ConfigDict, Field, PrivateAttr, model_validator

from contract.errors import InputError

MAX_OUTPUT_TOKENS = 1_024
"""Output tokens one model call may produce, unless the run says otherwise."""
MAX_STEPS = 8
"""Model calls one question may make in react mode, unless the run says otherwise."""
USAGE_FAULT_FACTOR = 4.0
"""A call reporting more than this many times its reservation reports what cannot be true."""
ESTIMATE_MARGIN = 1.1


MAX_ESTIMATE_FACTOR = 4.0


FOLLOWERS = ("question_tokens", "max_output_tokens")
"""Caps that follow the broader one before them (a question's the run's, a call's output the
question's) where they are not set, or set above what it allows."""


def _follower(schema: dict[str, Any]) -> None:
    """A follower in the form (the flow's parameter schema) starts empty, so lowering only the
    broader cap never leaves a pre-filled narrower one above it."""
    kept = {
        key: schema.pop(key)
        for key in ("type", "minimum", "exclusiveMinimum", "maximum")
        if key in schema
    }
    schema["anyOf"] = [kept, {"type": "null"}]
    schema["default"] = None


class BudgetConfig(BaseModel):
    """What one night may spend, and how fast; a flow parameter and CLI options. A setting it
    does not know is refused, not ignored; NaN and infinities are no number of tokens.

    A narrower cap never exceeds a broader one: left out (or empty in the form) it follows
    it; set above it, it is lowered to fit and `notes` says so in one line, the same for the
    CLI and the Prefect form (the server's schema check cannot compare two fields)."""

    model_config = ConfigDict(extra="forbid", allow_inf_nan=False)
    _notes: list[str] = PrivateAttr(default_factory=list)

    run_tokens: int = Field(
        2_000_000, ge=2, le=10**11, description="Tokens the whole run may spend (input + output)."
    )
    question_tokens: int = Field(
        60_000,
        ge=2,
        description="Tokens one question may spend over all its model calls; empty: 60,000, "
        "at most run_tokens.",
        json_schema_extra=_follower,
    )
    max_output_tokens: int = Field(
        MAX_OUTPUT_TOKENS,
        gt=0,
        le=200_000,
        description="Output tokens one model call may produce; empty: 1,024, below half of "
        "question_tokens where that is less.",
        json_schema_extra=_follower,
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

    @model_validator(mode="before")
    @classmethod
    def _empty_follows(cls, data: Any) -> Any:
        if isinstance(data, dict):  # an empty follower in the form is one not set
            return {k: v for k, v in data.items() if not (k in FOLLOWERS and v is None)}
        return data

    @model_validator(mode="after")
    def _consistent(self) -> Self:
        given = self.model_fields_set  # a cap the user did not set follows the ones they did
        notes: list[str] = []
        if self.question_tokens > self.run_tokens:
            if "question_tokens" in given:
                notes.append(
                    f"question_tokens ({self.question_tokens:,}) is above run_tokens "
                    f"({self.run_tokens:,}): a question may spend at most {self.run_tokens:,}"
                )
            self.question_tokens = self.run_tokens
        if self.max_output_tokens >= self.question_tokens:
            fit = self.question_tokens // 2
            if "max_output_tokens" in given:
                notes.append(
                    f"max_output_tokens ({self.max_output_tokens:,}) leaves question_tokens "
                    f"({self.question_tokens:,}) no room for the prompt: a call may produce at "
                    f"most {fit:,}"
                )
            self.max_output_tokens = fit
        self._notes = [*self._notes, *notes]  # run again on an instance, it adds nothing
        return self

    @property
    def notes(self) -> list[str]:
        """The caps this budget lowered to fit the broader ones, one line each."""
        return list(self._notes)

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

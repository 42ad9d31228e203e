"""The trace: everything one question asked, called, received and spent.

The serialised trace is the verifier's input: at its top level it carries
`question`, `draft`, `requires`, `stop_reason` and `events` (tool calls in call
order, each with either `result` or `error`).
"""

from __future__ import annotations

from datetime import date
from typing import Any, Literal

from pydantic import BaseModel, Field, field_validator, model_serializer

from contract.reasons import ReasonCode
from contract.text import whole_chars

Mode = Literal["plan", "react"]
"""plan: the program runs the planned calls and the model drafts once; react: the model calls
tools over several rounds."""


class Usage(BaseModel):
    """Tokens as the provider reports them; `input_tokens` includes `cached_tokens` (read from
    the prompt cache) and `cache_write_tokens` (written to it, which Anthropic bills above
    plain input)."""

    input_tokens: int = 0
    cached_tokens: int = 0
    output_tokens: int = 0
    cache_write_tokens: int = 0

    @property
    def total(self) -> int:
        return self.input_tokens + self.output_tokens

    def __add__(self, other: Usage) -> Usage:
        return Usage(
            input_tokens=self.input_tokens + other.input_tokens,
            cached_tokens=self.cached_tokens + other.cached_tokens,
            output_tokens=self.output_tokens + other.output_tokens,
            cache_write_tokens=self.cache_write_tokens + other.cache_write_tokens,
        )


class ToolCall(BaseModel):
    """A call as the model proposed it; `arguments` is the raw JSON text it sent."""

    id: str
    name: str
    arguments: str

    @field_validator("id", "name", "arguments")
    @classmethod
    def _whole(cls, value: str) -> str:
        return whole_chars(value)


class ModelTurn(BaseModel):
    """One model call: what it said, which tools it asked for, and what it cost."""

    step: int
    text: str | None = None
    tool_calls: list[ToolCall] = Field(default_factory=list)
    finish_reason: str | None = None
    estimate: int = 0
    usage: Usage = Field(default_factory=Usage)
    duration_ms: float = 0.0
    batch: bool = False
    """Drafted through the provider's batch interface (at the batch price)."""


class ToolEvent(BaseModel):
    """One executed (or refused) tool call: either `result` or `error`, never both."""

    id: str
    tool: str
    args: Any = None
    result: Any = None
    error: str | None = None
    step: int = 0
    started_ms: float = 0.0
    duration_ms: float = 0.0
    reused: bool = False
    """The outcome of the same call (tool, arguments, reach) another question of the ticker
    made: not run again (`agent.tool_calls.SharedCalls`); kept in JSON only when true."""

    @property
    def ok(self) -> bool:
        return self.error is None

    @model_serializer(mode="wrap")
    def _one_outcome(self, handler: Any) -> dict[str, Any]:
        data: dict[str, Any] = handler(self)
        data.pop("result" if self.error is not None else "error", None)
        if not self.reused:
            data.pop("reused", None)
        return data


class Trace(BaseModel):
    """The whole life of one question; JSON-serialisable and replayable."""

    question_id: str
    question: str
    requires: list[str] = Field(default_factory=list)
    ticker: str | None = None
    portfolio_id: str | None = None
    as_of: date | None = None
    language: str = "en"
    provider: str = ""
    model: str = ""
    mode: Mode = "plan"
    prompt_version: str = ""
    turns: list[ModelTurn] = Field(default_factory=list)
    events: list[ToolEvent] = Field(default_factory=list)
    draft: str | None = None
    stop_reason: ReasonCode | None = None
    stop_detail: str | None = None

    @property
    def usage(self) -> Usage:
        total = Usage()
        for turn in self.turns:
            total = total + turn.usage
        return total

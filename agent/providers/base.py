"""The one seam between the loop and a model: `Provider.complete(request) -> ModelResponse`.

The conversation is kept neutral (`Message` items); each adapter renders it into its own
wire format. An assistant turn keeps the provider's native message in `raw`, so it goes
back into the history unmodified (tool calls, reasoning fields and all).

Exceptions: an adapter raises `ProviderError` (transient faults are retried inside the
adapter first) when the call could not produce a response; the loop turns it into the
stop reason `provider_error`. Everything else is a bug.
"""

from __future__ import annotations

from contextvars import ContextVar
from typing import Any, Literal, Protocol

from pydantic import BaseModel, Field, field_validator

from agent.budget.limits import MAX_OUTPUT_TOKENS
from contract.text import whole_chars
from contract.trace import ToolCall, Usage

FinishReason = Literal["stop", "tool_calls", "length", "other"]


class ToolSpec(BaseModel):
    """A tool as the model sees it: name, one-line description, JSON schema of its arguments."""

    name: str
    description: str
    parameters: dict[str, Any]


class ToolResultItem(BaseModel):
    call_id: str
    name: str
    content: str
    is_error: bool = False


class Message(BaseModel):
    """One neutral history item: user text, an assistant turn, or the tool results of a turn."""

    role: Literal["user", "assistant", "tool"]
    text: str | None = None
    tool_calls: list[ToolCall] = Field(default_factory=list)
    results: list[ToolResultItem] = Field(default_factory=list)
    raw: Any = None  # the provider-native assistant message, replayed as is


RESPONSE_SCHEMA_NAME = "facts"
"""The name a response schema goes by on a wire (OpenAI's `json_schema`, Anthropic's forced tool)."""


class ModelRequest(BaseModel):
    """Everything one call sends. `system` and `tools` come first and never change within a
    question, so the prompt prefix stays stable for provider-side caching."""

    system: str
    tools: list[ToolSpec] = Field(default_factory=list)
    messages: list[Message]
    max_output_tokens: int = MAX_OUTPUT_TOKENS
    planned_calls: list[ToolCall] = Field(default_factory=list)
    """The question set's plan; followed by the offline provider, never sent on a wire."""
    response_schema: dict[str, Any] | None = None
    """The JSON schema the reply must follow (structured drafting, `agent.structured`): the
    local model decodes under it, OpenAI and Anthropic get it as `RESPONSE_SCHEMA_NAME`."""


class ModelResponse(BaseModel):
    text: str | None = None
    tool_calls: list[ToolCall] = Field(default_factory=list)
    finish_reason: FinishReason = "stop"
    usage: Usage = Field(default_factory=Usage)
    raw: Any = None
    batch: bool = False
    """Drafted through the provider's batch interface: its tokens cost the batch price."""
    paid_by: str | None = None
    """The run id of an earlier attempt whose ledger holds this reply's cost (a batch it
    submitted, collected by this one): this attempt charges nothing for it."""

    @field_validator("text")
    @classmethod
    def _whole(cls, value: str | None) -> str | None:
        """A lone surrogate a reply's JSON escaped (`\\ud800`) is U+FFFD here: no file the
        night writes could hold it."""
        return value if value is None else whole_chars(value)


class Provider(Protocol):
    name: str
    model: str
    rate_limited: bool
    """Whether a server may meter this provider's calls (a wire API): the run's limiter applies
    only then, following the server's rate-limit headers or the run's explicit limits, never to
    a model in this process."""

    async def complete(self, request: ModelRequest) -> ModelResponse: ...

    def estimate_tokens(self, request: ModelRequest) -> int:
        """Prompt tokens this exact request will cost (messages + tool schemas), before sending."""
        ...


class CallClock(Protocol):
    """The deadline of the model call under way, as its provider may steer it: a provider that
    queues requests for one model `pause`s it while a request waits and `resume`s it when its
    generation starts (a deadline counts generation, never the wait for the model), and says what
    a call cut short had `spent` by then."""

    def pause(self) -> None: ...

    def resume(self) -> None: ...

    def spent(self, usage: Usage) -> None: ...


CALL_CLOCK: ContextVar[CallClock | None] = ContextVar("nightdesk_call_clock", default=None)
"""Set by the loop around each model call."""

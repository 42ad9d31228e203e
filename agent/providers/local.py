"""A model on this machine: transformers weights from a local directory, tools in the chat template.

The prompt is the model's own chat template when it renders tools, else a Qwen2.5-style one
(`qwen_template.jinja`): system text and a `<tools>` JSON block first, tool results as
`<tool_response>` blocks. Control tokens inside user text, tool results and tool schemas are
encoded as plain text, so data cannot close a turn or forge a tool call.

The model asks for tools with `<tool_call>{"name": ..., "arguments": {...}}</tool_call>` tags.
A tag that cannot be read (bad JSON, no name, no closing tag) still becomes a `ToolCall`: its
`arguments` is the raw tag text, which starts with `<tool_call>` and so is never valid JSON, and
its `name` is the name found in the tag or "". The loop's argument check then reports it to the
model as an error observation.

Weights are read from a local path only, never downloaded. Generation is greedy, one request at a
time, in a worker thread so the event loop keeps running.
"""

from __future__ import annotations

import asyncio
import json
import re
import threading
from collections.abc import Sequence
from pathlib import Path
from typing import Any, cast

import torch
from transformers import (
    AutoModelForCausalLM,
    AutoTokenizer,
    GenerationConfig,
    LogitsProcessor,
    LogitsProcessorList,
    StoppingCriteria,
    StoppingCriteriaList,
)

from agent.providers.base import (
    FinishReason,
    Message,
    ModelRequest,
    ModelResponse,
)
from agent.providers.local_folder import local_model_dir
from contract.errors import InputError, ProviderError
from contract.trace import ToolCall, Usage

QWEN_TEMPLATE = Path(__file__).with_name("qwen_template.jinja").read_text(encoding="utf-8")

_TAG = re.compile(r"<tool_call>(.*?)(</tool_call>|(?=<tool_call>)|\Z)", re.DOTALL)
_NAME = re.compile(r'"name"\s*:\s*"([^"]*)"')


class LocalProvider:
    """Transformers causal LM from a local directory, speaking tools through its chat template.

    `device` is any torch device ("cpu", "cuda", "cuda:1"). `max_threads` sets torch's CPU thread
    count, which is process-wide. `logits_processor` is applied at every generation step after the
    model's own processors: a grammar, a ban list, or a scripted output that forces known text.
    `chat_template` replaces the template the model ships with.
    """

    name = "local"
    rate_limited = False

    def __init__(
        self,
        model_path: str | Path,
        *,
        device: str = "cpu",
        max_threads: int | None = None,
        logits_processor: Sequence[LogitsProcessor] = (),
        chat_template: str | None = None,
    ) -> None:
        path = Path(model_path).expanduser()
        self.model = str(path)
        if max_threads is not None:
            torch.set_num_threads(max_threads)
        self._tokenizer, self._lm = load_model(path, device)
        self._device = device
        self._template = chat_template or pick_template(self._tokenizer.chat_template)
        self._processors = list(logits_processor)
        self._stop_ids = find_stop_ids(self._tokenizer, self._lm.generation_config)
        self._lock = threading.Lock()

    def render_prompt(self, request: ModelRequest) -> str:
        """The prompt as text, for reading; the model gets `encode_prompt`'s ids."""
        messages, tools = to_chat(request)
        text: str = self._tokenizer.apply_chat_template(
            messages,
            tools=tools or None,
            chat_template=self._template,
            add_generation_prompt=True,
            tokenize=False,
        )
        return text

    def encode_prompt(self, request: ModelRequest) -> list[int]:
        """The exact prompt ids, control tokens in user and tool text encoded as plain text."""
        messages, tools = to_chat(request)
        encoded = self._tokenizer.apply_chat_template(
            messages,
            tools=tools or None,
            chat_template=self._template,
            add_generation_prompt=True,
            tokenize=True,
            return_dict=True,
            sanitize_control_tokens=True,
        )
        return list(encoded["input_ids"])

    def estimate_tokens(self, request: ModelRequest) -> int:
        return len(self.encode_prompt(request))

    async def complete(self, request: ModelRequest) -> ModelResponse:
        prompt = self.encode_prompt(request)
        cancelled = threading.Event()
        try:
            generated = await asyncio.to_thread(
                self._generate, prompt, request.max_output_tokens, cancelled
            )
        except asyncio.CancelledError:  # a deadline: stop the worker at its next token
            cancelled.set()
            raise
        text = self._tokenizer.decode(generated, skip_special_tokens=True)
        answer, calls = parse_tool_calls(text, step=count_turns(request.messages))
        hit_limit = len(generated) >= request.max_output_tokens
        ended = bool(generated) and generated[-1] in self._stop_ids
        finish: FinishReason = "stop"
        if hit_limit and not ended:
            finish = "length"
        elif calls:
            finish = "tool_calls"
        return ModelResponse(
            text=answer,
            tool_calls=calls,
            finish_reason=finish,
            usage=Usage(input_tokens=len(prompt), output_tokens=len(generated)),
            raw=text,
        )

    def _generate(
        self, prompt: list[int], max_new_tokens: int, cancelled: threading.Event
    ) -> list[int]:
        """Greedy decoding of one prompt; runs in a worker thread, one generation at a time."""
        pad = self._tokenizer.pad_token_id
        config = GenerationConfig(  # library defaults, or the weights' sampling settings fill them
            max_new_tokens=max_new_tokens,
            do_sample=False,
            temperature=1.0,
            top_p=1.0,
            top_k=50,
            repetition_penalty=1.0,
            eos_token_id=sorted(self._stop_ids),
            pad_token_id=min(self._stop_ids) if pad is None else pad,
        )
        try:
            with self._lock, torch.inference_mode():
                ids = torch.tensor([prompt], device=self._device)
                out = self._lm.generate(
                    input_ids=ids,
                    attention_mask=torch.ones_like(ids),
                    generation_config=config,
                    logits_processor=LogitsProcessorList(self._processors),
                    stopping_criteria=StoppingCriteriaList([Cancellation(cancelled)]),
                )
        except RuntimeError as exc:  # out of memory, device faults
            raise ProviderError(f"local generation failed: {exc}") from exc
        return [int(i) for i in out[0, len(prompt) :].tolist()]


class Cancellation(StoppingCriteria):
    """Ends generation once the caller stopped waiting: a worker thread cannot be killed."""

    def __init__(self, cancelled: threading.Event) -> None:
        self.cancelled = cancelled

    def __call__(self, input_ids: torch.LongTensor, scores: Any, **kwargs: Any) -> torch.BoolTensor:
        done = torch.full((input_ids.shape[0],), self.cancelled.is_set(), device=input_ids.device)
        return cast(torch.BoolTensor, done)


def load_model(path: Path, device: str) -> tuple[Any, Any]:
    """Tokenizer and causal LM from a local directory; never touches the network."""
    local_model_dir(str(path))
    try:
        tokenizer = AutoTokenizer.from_pretrained(path, local_files_only=True)
        lm: Any = AutoModelForCausalLM.from_pretrained(path, local_files_only=True, dtype="auto")
        lm.to(device)
    except (OSError, ValueError, RuntimeError) as exc:
        reason = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
        raise InputError(f"cannot load the local model in {path} on {device}: {reason}") from exc
    lm.eval()
    return tokenizer, lm


def pick_template(own: str | dict[str, str] | None) -> str:
    """The model's own template when it renders tools, else the bundled Qwen2.5-style one."""
    if isinstance(own, dict):
        own = own.get("tool_use") or own.get("default")
    if isinstance(own, str) and "tools" in own:
        return own
    return QWEN_TEMPLATE


def find_stop_ids(tokenizer: Any, generation_config: GenerationConfig) -> set[int]:
    """End-of-turn ids: the model's EOS ids plus `<|im_end|>`, which chat templates end turns with."""
    found = generation_config.eos_token_id
    stops = set(found) if isinstance(found, list) else {found}
    stops.add(tokenizer.eos_token_id)
    stops.add(tokenizer.get_vocab().get("<|im_end|>"))
    stops.discard(None)
    if not stops:
        raise InputError("the local model defines no end-of-sequence token: set eos_token_id")
    return {int(i) for i in stops}


def to_chat(request: ModelRequest) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """The request as chat-template messages and tool schemas (Hugging Face's message format)."""
    messages: list[dict[str, Any]] = [{"role": "system", "content": request.system}]
    for message in request.messages:
        messages.extend(to_chat_messages(message))
    tools = [
        {
            "type": "function",
            "function": {
                "name": t.name,
                "description": t.description,
                "parameters": t.parameters,
            },
        }
        for t in request.tools
    ]
    return messages, tools


def to_chat_messages(message: Message) -> list[dict[str, Any]]:
    if message.role == "user":
        return [{"role": "user", "content": message.text or ""}]
    if message.role == "tool":
        return [
            {
                "role": "tool",
                "tool_call_id": r.call_id,
                "name": r.name,
                "content": r.content,
            }
            for r in message.results
        ]
    content, calls = message.text or "", []
    for call in message.tool_calls:
        arguments = read_arguments(call.arguments)
        if arguments is None:  # unreadable as generated: replay the raw tag text
            content = f"{content}\n{call.arguments}".strip()
        else:
            calls.append(
                {"type": "function", "function": {"name": call.name, "arguments": arguments}}
            )
    chat: dict[str, Any] = {"role": "assistant", "content": content}
    if calls:
        chat["tool_calls"] = calls
    return [chat]


def parse_tool_calls(text: str, *, step: int) -> tuple[str | None, list[ToolCall]]:
    """Answer text (outside the tags) and one `ToolCall` per `<tool_call>` tag, ids `call_<step>_<i>`."""
    calls = []
    for i, tag in enumerate(_TAG.finditer(text)):
        call_id = f"call_{step}_{i}"
        parsed = read_call(tag.group(1)) if tag.group(2) else None
        if parsed is None:
            found = _NAME.search(tag.group(1))
            name = found.group(1) if found else ""
            calls.append(ToolCall(id=call_id, name=name, arguments=tag.group(0)))
        else:
            name, arguments = parsed
            calls.append(
                ToolCall(id=call_id, name=name, arguments=json.dumps(arguments, ensure_ascii=False))
            )
    answer = _TAG.sub("", text).strip()
    return answer or None, calls


def read_call(body: str) -> tuple[str, dict[str, Any]] | None:
    """`(name, arguments)` from a tag's JSON body, or None when the body is not a usable call."""
    try:
        call = json.loads(body)
    except ValueError:
        return None
    if not isinstance(call, dict) or not isinstance(call.get("name"), str) or not call["name"]:
        return None
    arguments = call.get("arguments", {})
    if isinstance(arguments, str):  # some models send the arguments as a JSON string
        arguments = read_arguments(arguments)
    if not isinstance(arguments, dict):
        return None
    return call["name"], arguments


def read_arguments(text: str) -> dict[str, Any] | None:
    try:
        arguments = json.loads(text)
    except ValueError:
        return None
    return arguments if isinstance(arguments, dict) else None


def count_turns(messages: Sequence[Message]) -> int:
    """Assistant turns so far: the step number of the call being made, for call ids."""
    return sum(1 for m in messages if m.role == "assistant")

"""A model on this machine: transformers weights from a local directory, tools in the chat template.

The prompt is the model's own chat template for a request with no tools (drafting) and when it
renders tools, else a Qwen2.5-style one (`qwen_template.jinja`): system text and a `<tools>` JSON
block first, tool results as `<tool_response>` blocks. Control tokens inside user text, tool
results and tool schemas are encoded as plain text, so data cannot close a turn or forge a call.

The model asks for tools with `<tool_call>{"name": ..., "arguments": {...}}</tool_call>` tags.
A tag that cannot be read (bad JSON, no name, no closing tag) still becomes a `ToolCall`: its
`arguments` is the raw tag text, which starts with `<tool_call>` and so is never valid JSON, and
its `name` is the name found in the tag or "". The loop's argument check then reports it to the
model as an error observation.

Weights are read from a local path only, never downloaded. Generation is greedy and batched: the
requests waiting for the model go through it together (`local_batch.BatchQueue`), left-padded,
in one `generate` call on a thread of their own, so the event loop keeps running and a night's
concurrent questions share every decoding step. A generation that starts to repeat itself is
ended after its first saying (`local_batch.loop_start`). Stop tokens are the model's own (its
generation config, tokenizer and chat template's end of turn). Threads and dtype follow the
machine unless given (`pick_dtype`, `pick_threads`); `measure` times the loaded model once, and
`night_limits` sets a night's output limit and deadline from that speed.
"""

from __future__ import annotations

import asyncio
import json
import os
import re
from collections.abc import Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from time import perf_counter
from typing import Any, cast

import regex
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

from agent.budget.limits import LoopLimits
from agent.providers.base import (
    CALL_CLOCK,
    FinishReason,
    Message,
    ModelRequest,
    ModelResponse,
)
from agent.providers.local_batch import BatchQueue, Generated, Job, Stopped, loop_start
from agent.providers.local_folder import local_model_dir
from contract.errors import InputError, ProviderError
from contract.trace import ToolCall, Usage

QWEN_TEMPLATE = Path(__file__).with_name("qwen_template.jinja").read_text(encoding="utf-8")

_TAG = re.compile(r"<tool_call>(.*?)(</tool_call>|(?=<tool_call>)|\Z)", re.DOTALL)
_NAME = re.compile(r'"name"\s*:\s*"([^"]*)"')

DTYPES = ("auto", "float32", "bfloat16", "float16")


@dataclass(frozen=True, slots=True)
class Speed:
    """The loaded model's measured speed on this machine (`LocalProvider.measure`)."""

    prefill_tokens_s: float
    """Prompt tokens read per second."""
    step_s: float
    """Seconds per decoding step of one sequence."""
    batch_step_s: float
    """Seconds per decoding step of a full batch (`max_batch` sequences)."""
    max_batch: int

    @property
    def tokens_s(self) -> float:
        return 1 / self.step_s

    @property
    def batch_tokens_s(self) -> float:
        return self.max_batch / self.batch_step_s


CALL_SECONDS = 90.0
"""What one call may take at the measured speed of a full batch, when `night_limits` sets the
output limit: a small model on a CPU writes fewer tokens per call than a large one on a GPU."""
MIN_OUTPUT_TOKENS = 96
"""An output limit below this would cut most answers short, however slow the model."""
PROMPT_TOKENS = 1_500
"""A drafting prompt's length, for the deadline: question, context and tool results."""


class LocalProvider:
    """Transformers causal LM from a local directory, speaking tools through its chat template.

    `device` is any torch device ("cpu", "cuda", "cuda:1"), or "auto": the GPU where torch sees
    one, else the CPU (so a night on a GPU machine needs no option). `threads` sets torch's CPU thread
    count, which is process-wide (default: `pick_threads`); `dtype` the weights' dtype ("auto":
    `pick_dtype`). `max_batch` is the most requests generated together, `window_s` how long the
    first waits for others to join it. `logits_processor` is applied at every generation step
    after the model's own processors: a grammar, a ban list, or a scripted output that forces
    known text. `chat_template` replaces the template the model ships with.
    """

    name = "local"
    rate_limited = False

    def __init__(
        self,
        model_path: str | Path,
        *,
        device: str = "auto",
        threads: int | None = None,
        dtype: str = "auto",
        max_batch: int = 16,
        window_s: float = 0.2,
        logits_processor: Sequence[LogitsProcessor] = (),
        chat_template: str | None = None,
    ) -> None:
        path = Path(model_path).expanduser()
        self.model = str(path)
        if device == "auto":
            device = "cuda" if torch.cuda.is_available() else "cpu"
        self.dtype = pick_dtype(device) if dtype == "auto" else dtype
        if self.dtype not in DTYPES[1:]:
            raise InputError(f"unknown dtype {dtype!r}: use one of {', '.join(DTYPES)}")
        if device == "cpu":
            self.threads = threads or pick_threads()
            torch.set_num_threads(self.threads)
        else:
            self.threads = torch.get_num_threads()
        self._tokenizer, self._lm = load_model(path, device, self.dtype)
        self._device = device
        own = self._tokenizer.chat_template
        self._own_template = own.get("default") if isinstance(own, dict) else own
        self._template = chat_template or pick_template(own)
        self._chosen_template = chat_template
        self._processors = list(logits_processor)
        self._stop_ids = find_stop_ids(self._tokenizer, self._lm.generation_config)
        pad = self._tokenizer.pad_token_id
        self._pad = min(self._stop_ids) if pad is None else int(pad)
        self.queue = BatchQueue(self._generate_batch, max_batch=max_batch, window_s=window_s)
        self.speed: Speed | None = None

    def template_for(self, request: ModelRequest) -> str:
        """The chat template: the one given, else the model's own for a request with no tools
        (drafting), else one that renders tools."""
        if self._chosen_template is None and not request.tools and self._own_template:
            return str(self._own_template)
        return self._template

    def render_prompt(self, request: ModelRequest) -> str:
        """The prompt as text, for reading; the model gets `encode_prompt`'s ids."""
        messages, tools = to_chat(request)
        text: str = self._tokenizer.apply_chat_template(
            messages,
            tools=tools or None,
            chat_template=self.template_for(request),
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
            chat_template=self.template_for(request),
            add_generation_prompt=True,
            tokenize=True,
            return_dict=True,
            sanitize_control_tokens=True,
        )
        return list(encoded["input_ids"])

    def estimate_tokens(self, request: ModelRequest) -> int:
        return len(self.encode_prompt(request))

    async def complete(self, request: ModelRequest) -> ModelResponse:
        prompt = await asyncio.to_thread(self.encode_prompt, request)  # the loop stays free
        pattern = schema_pattern(request.response_schema) if request.response_schema else None
        generated = await self.generate(prompt, request.max_output_tokens, pattern)
        return self.response(request, prompt, generated)

    async def generate(
        self, prompt: list[int], max_new_tokens: int, pattern: str | None = None
    ) -> Generated:
        """`prompt` through the model in the next batch; the call's clock (`CALL_CLOCK`) is
        paused until that batch starts, and told what was spent if the call is cut short."""
        loop = asyncio.get_running_loop()
        began: asyncio.Future[None] = loop.create_future()

        def mark() -> None:
            if not began.done():
                began.set_result(None)

        def started() -> None:
            loop.call_soon_threadsafe(mark)

        job = Job(prompt=prompt, max_new_tokens=max_new_tokens, started=started, pattern=pattern)
        clock = CALL_CLOCK.get()
        if clock is not None:
            clock.pause()
        done = asyncio.wrap_future(self.queue.submit(job))
        try:
            waiting: list[asyncio.Future[Any]] = [began, done]
            await asyncio.wait(waiting, return_when=asyncio.FIRST_COMPLETED)
            if clock is not None:
                clock.resume()
            return await done
        except asyncio.CancelledError:  # a deadline: the row stops at its next token
            job.cancelled.set()
            if clock is not None and began.done():
                clock.spent(Usage(input_tokens=len(prompt), output_tokens=job.produced))
            raise

    def response(self, request: ModelRequest, prompt: list[int], got: Generated) -> ModelResponse:
        text = self._tokenizer.decode(got.tokens, skip_special_tokens=True)
        answer, calls = parse_tool_calls(text, step=count_turns(request.messages))
        finish: FinishReason = "stop"
        if got.stopped == "length":
            finish = "length"
        elif calls:
            finish = "tool_calls"
        return ModelResponse(
            text=answer,
            tool_calls=calls,
            finish_reason=finish,
            usage=Usage(input_tokens=len(prompt), output_tokens=len(got.tokens)),
            raw=text,
        )

    def _generate_batch(self, jobs: Sequence[Job]) -> list[Generated]:
        """Greedy decoding of every job's prompt in one `generate` call (left padding)."""
        started = perf_counter()
        width = max(len(j.prompt) for j in jobs)
        rows = [[self._pad] * (width - len(j.prompt)) + j.prompt for j in jobs]
        mask = [[0] * (width - len(j.prompt)) + [1] * len(j.prompt) for j in jobs]
        config = GenerationConfig(  # library defaults, or the weights' sampling settings fill them
            max_new_tokens=max(j.max_new_tokens for j in jobs),
            do_sample=False,
            temperature=1.0,
            top_p=1.0,
            top_k=50,
            repetition_penalty=1.0,
            eos_token_id=sorted(self._stop_ids),
            pad_token_id=self._pad,
        )
        rule = RowStops(jobs, width, self._stop_ids)
        processors = list(self._processors)
        if any(j.pattern for j in jobs):
            stop = min(self._stop_ids)
            processors.append(Constrained(jobs, width, self._tokenizer, stop))
        try:
            with torch.inference_mode():
                ids = torch.tensor(rows, device=self._device)
                out = self._lm.generate(
                    input_ids=ids,
                    attention_mask=torch.tensor(mask, device=self._device),
                    generation_config=config,
                    logits_processor=LogitsProcessorList(processors),
                    stopping_criteria=StoppingCriteriaList([rule]),
                )
        except RuntimeError as exc:  # out of memory, device faults
            raise ProviderError(f"local generation failed: {exc}") from exc
        seconds = perf_counter() - started
        results = []
        for i, job in enumerate(jobs):
            tokens = [int(t) for t in out[i, width:].tolist()]
            stopped, keep = rule.ended(i, tokens)
            results.append(Generated(tokens[:keep], stopped, len(jobs), seconds))
            job.produced = keep
        return results

    def generation_note(self) -> str | None:
        """What this model generated so far (batches, sizes, tokens/s), for the night's log."""
        return self.queue.note()

    def measure(self, prompt_tokens: int = 64, steps: int = 8) -> Speed:
        """Time the loaded model once: a prompt read, decoding steps alone and in a full batch
        (a first short generation warms the model up)."""
        prompt = [int(t) % self._lm.config.vocab_size for t in range(100, 100 + prompt_tokens)]

        def run(batch: int, new: int) -> float:
            config = GenerationConfig(
                max_new_tokens=new,
                min_new_tokens=new,
                do_sample=False,
                pad_token_id=self._pad,
                eos_token_id=sorted(self._stop_ids),
            )
            started = perf_counter()
            with torch.inference_mode():
                ids = torch.tensor([prompt] * batch, device=self._device)
                self._lm.generate(
                    input_ids=ids, attention_mask=torch.ones_like(ids), generation_config=config
                )
            return perf_counter() - started

        run(1, 2)
        prefill = run(1, 1)
        step = max((run(1, steps + 1) - prefill) / steps, 1e-6)
        full = self.queue.max_batch
        batch_step = max((run(full, steps + 1) - run(full, 1)) / steps, step)
        self.speed = Speed(prompt_tokens / prefill, step, batch_step, full)
        return self.speed

    def night_limits(self, limits: LoopLimits, *, output_given: bool = False) -> LoopLimits:
        """A night's limits at the measured speed: the output limit a full batch writes in
        about `CALL_SECONDS` (unless the run gave one), and a deadline that holds reading a full
        batch of prompts and writing that much, twice over, and never less than the default's."""
        speed = self.speed or self.measure()
        output = limits.max_output_tokens
        if not output_given:
            output = max(min(output, int(CALL_SECONDS / speed.batch_step_s)), MIN_OUTPUT_TOKENS)
        reading = PROMPT_TOKENS * speed.max_batch / speed.prefill_tokens_s
        expected = reading + output * speed.batch_step_s
        return replace(
            limits,
            max_output_tokens=output,
            deadline_s=max(limits.deadline_s, round(2 * expected + limits.tool_timeout_s)),
        )


class Constrained(LogitsProcessor):
    """Constrained greedy decoding for the rows that carry a pattern: each step keeps only the
    most likely token whose text still leaves the output a prefix of a match that chooses each
    fact once (looked for among the `CANDIDATES` most likely first), and ends the turn once the
    output matches."""

    CANDIDATES = 200

    def __init__(self, jobs: Sequence[Job], width: int, tokenizer: Any, stop: int) -> None:
        self.width = width
        self.tokenizer = tokenizer
        self.stop = stop
        self.patterns = [regex.compile(j.pattern) if j.pattern else None for j in jobs]

    def __call__(self, input_ids: torch.LongTensor, scores: torch.FloatTensor) -> torch.FloatTensor:
        for row, pattern in enumerate(self.patterns):
            if pattern is not None:
                chosen = self._choose(pattern, input_ids[row, self.width :].tolist(), scores[row])
                keep = scores[row, chosen].clone()
                scores[row] = float("-inf")
                scores[row, chosen] = keep
        return scores

    def _choose(self, pattern: Any, new: list[int], scores: torch.Tensor) -> int:
        text = self.tokenizer.decode(new, skip_special_tokens=True)
        if pattern.fullmatch(text):
            return self.stop
        ranked = scores.topk(min(self.CANDIDATES, scores.shape[-1])).indices.tolist()
        if len(ranked) < scores.shape[-1]:  # rarely needed: the rest, most likely first
            rest = scores.argsort(descending=True).tolist()
            ranked += rest[len(ranked) :]
        for token in ranked:
            if token == self.stop:
                continue
            longer = self.tokenizer.decode([*new, token], skip_special_tokens=True)
            if longer != text and pattern.fullmatch(longer, partial=True) and once(longer, pattern):
                return int(token)
        return self.stop


_CHOSEN = re.compile(r"(\d+)(?=[,\]])")
_LAST = re.compile(r"(\d+)$")


def once(text: str, pattern: Any) -> bool:
    """Whether every fact a (partial) facts reply has chosen so far is chosen once: a small
    model repeats a choice over and over ("[1, 1, 1"), which the loop detector would cut. A
    number still being written counts once no digit of `pattern` can follow it."""
    chosen = _CHOSEN.findall(text)
    if len(chosen) != len(set(chosen)):
        return False
    last = _LAST.search(text)
    if last is None or last.group(1) not in chosen:
        return True
    return any(pattern.fullmatch(text + digit, partial=True) for digit in "0123456789")


def schema_pattern(schema: dict[str, Any]) -> str:
    """The output a facts schema (`agent.structured.facts_schema`) allows, as a regular
    expression: `{"facts": [2, 1]}`, numbers from its enum, at most as many as it has."""
    try:
        numbers = schema["properties"]["facts"]["items"]["enum"]
    except (KeyError, TypeError):
        raise InputError(
            "the local model decodes only the facts schema of structured drafting"
        ) from None
    one = "(?:" + "|".join(str(n) for n in sorted(numbers, key=lambda n: -len(str(n)))) + ")"
    more = f"{{0,{len(numbers) - 1}}}"  # each fact at most once (`once`), so no more than all
    return r'\{"facts": \[' + one + "(?:, " + one + ")" + more + r"\]\}"


class RowStops(StoppingCriteria):
    """Ends each row of a batch on its own: at an end-of-turn token, its own output limit, a
    loop, or its caller's cancellation; counts every row's tokens as they come."""

    def __init__(self, jobs: Sequence[Job], width: int, stop_ids: set[int]) -> None:
        self.jobs = jobs
        self.width = width
        self.stop_ids = stop_ids
        self.reasons: list[tuple[Stopped, int] | None] = [None] * len(jobs)

    def __call__(self, input_ids: torch.LongTensor, scores: Any, **kwargs: Any) -> torch.BoolTensor:
        done = []
        for i, job in enumerate(self.jobs):
            if self.reasons[i] is None:
                new = [int(t) for t in input_ids[i, self.width :].tolist()]
                job.produced = len(new)
                self.reasons[i] = self._reason(job, new)
            done.append(self.reasons[i] is not None)
        return cast(torch.BoolTensor, torch.tensor(done, device=input_ids.device))

    def _reason(self, job: Job, new: list[int]) -> tuple[Stopped, int] | None:
        if new and new[-1] in self.stop_ids:
            return "stop", len(new)
        if job.cancelled.is_set():
            return "cancelled", len(new)
        if (cut := loop_start(new)) is not None:
            return "loop", cut
        if len(new) >= job.max_new_tokens:
            return "length", len(new)
        return None

    def ended(self, row: int, tokens: list[int]) -> tuple[Stopped, int]:
        """Why row `row` ended and how many of its `tokens` are its own."""
        reason = self.reasons[row]
        if reason is not None:
            return reason
        return "length", len(tokens)  # generate's own limit came first


def pick_dtype(device: str) -> str:
    """bfloat16 where the hardware computes in it (a GPU that supports it, a CPU with AVX-512
    BF16 or AMX), else float32 (float16 on an older GPU)."""
    if device.startswith("cuda"):
        return "bfloat16" if torch.cuda.is_bf16_supported() else "float16"
    if device == "cpu" and cpu_has_bf16():
        return "bfloat16"
    return "float32"


def cpu_has_bf16() -> bool:
    try:
        flags = Path("/proc/cpuinfo").read_text(encoding="utf-8")
    except OSError:
        return False
    return bool(re.search(r"\b(avx512_bf16|amx_bf16)\b", flags))


def pick_threads() -> int:
    """The cores this process may run on that other work leaves idle (by the load average), at
    least one: threads beyond that wait on each other at every step (measured on a shared
    2-core machine: 1 thread decodes several times faster than 2 under load)."""
    try:
        cores = max(len(os.sched_getaffinity(0)), 1)
    except AttributeError:  # not Linux
        cores = os.cpu_count() or 1
    try:
        busy = os.getloadavg()[0]
    except OSError:
        busy = 0.0
    return max(1, min(cores, round(cores - busy)))


def load_model(path: Path, device: str, dtype: str = "auto") -> tuple[Any, Any]:
    """Tokenizer and causal LM from a local directory; never touches the network."""
    local_model_dir(str(path))
    try:
        tokenizer = AutoTokenizer.from_pretrained(path, local_files_only=True)
        lm: Any = AutoModelForCausalLM.from_pretrained(
            path, local_files_only=True, dtype=getattr(torch, dtype, "auto")
        )
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

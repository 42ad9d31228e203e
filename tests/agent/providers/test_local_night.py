"""The local provider built for a night, on a tiny random model: requests waiting together go
through one `generate` call (left-padded, each row as if alone), loops end after their first
saying, the deadline counts generation and not the wait, and a call cut short is in the trace."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import pytest
import torch
from transformers import AutoTokenizer, LogitsProcessor

from agent.budget.limits import LoopLimits
from agent.loop import answer_question
from agent.providers.base import CALL_CLOCK, Message, ModelRequest, ModelResponse
from agent.providers.local import QWEN_TEMPLATE, LocalProvider, Speed, pick_threads
from agent.providers.local_batch import loop_start
from agent.questions import load_question_set, render_question
from contract.errors import InputError
from contract.reasons import ReasonCode
from contract.trace import Usage
from tests.agent.providers.tiny_model import ScriptedOutput, build_tiny_model
from tools.catalog import Catalog

torch.set_num_threads(1)


@pytest.fixture(scope="module")
def model_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return build_tiny_model(tmp_path_factory.mktemp("tiny-night"), QWEN_TEMPLATE)


@pytest.fixture(scope="module")
def tokenizer(model_dir: Path) -> AutoTokenizer:
    return AutoTokenizer.from_pretrained(model_dir, local_files_only=True)


def request(text: str, max_tokens: int = 16) -> ModelRequest:
    return ModelRequest(
        system="You are a careful analyst.",
        messages=[Message(role="user", text=text)],
        max_output_tokens=max_tokens,
    )


QUESTIONS = [
    "What was the close of ACME?",
    "What was the close of ACME on 2024-03-01 and how much did it move on the day?",
    "ACME?",
    "Use the tools; never invent a figure. What was the close of ACME on 2024-03-01?",
]


async def test_waiting_requests_share_one_generate_call_each_row_as_if_alone(
    model_dir: Path,
) -> None:
    alone = LocalProvider(model_dir, dtype="float32", max_batch=1)
    one_by_one = [await alone.complete(request(q)) for q in QUESTIONS]
    together = LocalProvider(model_dir, dtype="float32", max_batch=8, window_s=0.5)
    batched = await asyncio.gather(*(together.complete(request(q)) for q in QUESTIONS))
    assert together.queue.batches == [len(QUESTIONS)]
    assert alone.queue.batches == [1] * len(QUESTIONS)
    assert [r.raw for r in batched] == [r.raw for r in one_by_one]  # left padding changes nothing
    assert [r.usage for r in batched] == [r.usage for r in one_by_one]
    tokens = sum(r.usage.output_tokens for r in batched)
    assert together.queue.tokens == tokens == alone.queue.tokens
    note = together.generation_note()
    assert note is not None and note.startswith(f"1 batches (size x count: {len(QUESTIONS)}x1;")
    assert f", {tokens} tokens in " in note


async def test_each_row_keeps_its_own_output_limit(
    model_dir: Path, tokenizer: AutoTokenizer
) -> None:
    text = "ACME closed at 12.50, up 3.1% on the day."
    script = ScriptedOutput(tokenizer, [text])
    provider = LocalProvider(model_dir, logits_processor=[script], max_batch=4, window_s=0.5)
    short, full = await asyncio.gather(
        provider.complete(request("a", max_tokens=3)), provider.complete(request("b", 64))
    )
    assert provider.queue.batches == [2]
    assert (short.finish_reason, short.usage.output_tokens) == ("length", 3)
    assert (full.finish_reason, full.text) == ("stop", text)


@pytest.mark.parametrize(
    ("tokens", "end"),
    [
        ([5, 6, 7, 1, 2, 3, 4, 1, 2, 3, 4, 1, 2, 3, 4], 7),  # a run of four, said three times
        ([9] * 12, 1),
        ([9] * 11, None),  # too short to call a loop
        ([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12], None),
        ([1, 2, 1, 2, 1, 2, 3], None),  # broken off: not looping now
    ],
)
def test_a_loop_ends_after_its_first_saying(tokens: list[int], end: int | None) -> None:
    assert loop_start(tokens) == end


async def test_a_looping_answer_is_cut_to_its_first_saying(
    model_dir: Path, tokenizer: AutoTokenizer
) -> None:
    looping = "ACME closed at 12.50." + " 2024-03-01" * 40
    provider = LocalProvider(model_dir, logits_processor=[ScriptedOutput(tokenizer, [looping])])
    response = await provider.complete(request("a", max_tokens=200))
    assert response.finish_reason == "stop"
    assert response.text == "ACME closed at 12.50. 2024-03-01"
    assert response.usage.output_tokens < 40


class Clock:
    def __init__(self) -> None:
        self.seen: list[str] = []

    def pause(self) -> None:
        self.seen.append("pause")

    def resume(self) -> None:
        self.seen.append("resume")

    def spent(self, usage: Usage) -> None:
        self.seen.append(f"spent {usage.output_tokens}")


async def test_the_clock_stops_while_a_request_waits_for_the_model(model_dir: Path) -> None:
    provider = LocalProvider(model_dir)
    clock = Clock()
    token = CALL_CLOCK.set(clock)
    try:
        await provider.complete(request("a", max_tokens=2))
    finally:
        CALL_CLOCK.reset(token)
    assert clock.seen == ["pause", "resume"]


class QueuedModel:
    """A provider whose requests wait `wait_s` for the model, then take `work_s` to generate,
    reporting a token every 10 ms, as the local provider does through `CALL_CLOCK`."""

    name = "queued"
    model = "queued"
    rate_limited = False

    def __init__(self, wait_s: float, work_s: float) -> None:
        self.wait_s = wait_s
        self.work_s = work_s

    def estimate_tokens(self, request: ModelRequest) -> int:
        return 10

    async def complete(self, request: ModelRequest) -> ModelResponse:
        clock = CALL_CLOCK.get()
        assert clock is not None
        clock.pause()
        await asyncio.sleep(self.wait_s)
        clock.resume()
        started = asyncio.get_running_loop().time()
        try:
            await asyncio.sleep(self.work_s)
        except asyncio.CancelledError:
            produced = int((asyncio.get_running_loop().time() - started) / 0.01)
            clock.spent(Usage(input_tokens=10, output_tokens=produced))
            raise
        return ModelResponse(text="ACME moved.", usage=Usage(input_tokens=10, output_tokens=3))


async def ask_queued(provider: QueuedModel, catalog: Catalog, holding: Any, day: Any) -> Any:
    question = render_question(load_question_set().spec("move"), holding[1], day, "en")
    return await answer_question(
        question,
        provider=provider,
        catalog=catalog,
        mode="plan",
        limits=LoopLimits(deadline_s=1.0, max_output_tokens=64),
    )


async def test_the_wait_for_the_model_is_not_counted_against_the_deadline(
    agent_catalog: Catalog, holding: Any, report_date: Any
) -> None:
    trace = await ask_queued(
        QueuedModel(wait_s=1.5, work_s=0.01), agent_catalog, holding, report_date
    )
    assert trace.stop_reason == ReasonCode.ANSWERED
    assert trace.draft == "ACME moved."


async def test_a_call_cut_by_the_deadline_is_in_the_trace_with_what_it_spent(
    agent_catalog: Catalog, holding: Any, report_date: Any
) -> None:
    trace = await ask_queued(QueuedModel(wait_s=0, work_s=60), agent_catalog, holding, report_date)
    assert trace.stop_reason == ReasonCode.PROVIDER_ERROR
    [turn] = trace.turns
    assert turn.finish_reason == "deadline"
    assert turn.usage.input_tokens == 10 and turn.usage.output_tokens > 0
    assert f"cut after {turn.usage.output_tokens} output tokens" in (trace.stop_detail or "")
    assert trace.usage.output_tokens == turn.usage.output_tokens


def test_dtype_and_threads_are_chosen_or_given(model_dir: Path) -> None:
    assert pick_threads() >= 1
    provider = LocalProvider(model_dir, dtype="float32", threads=1)
    assert (provider.dtype, provider.threads, torch.get_num_threads()) == ("float32", 1, 1)
    assert next(provider._lm.parameters()).dtype == torch.float32
    assert LocalProvider(model_dir, dtype="bfloat16").dtype == "bfloat16"
    with pytest.raises(InputError, match="unknown dtype 'int3'"):
        LocalProvider(model_dir, dtype="int3")
    torch.set_num_threads(1)


def test_night_limits_follow_the_measured_speed(model_dir: Path) -> None:
    provider = LocalProvider(model_dir)
    provider.speed = Speed(prefill_tokens_s=500, step_s=0.1, batch_step_s=0.5, max_batch=16)
    slow = provider.night_limits(LoopLimits(max_output_tokens=1024, deadline_s=120))
    assert slow.max_output_tokens == 180  # 90 s of full-batch steps of 0.5 s
    assert slow.deadline_s == round(2 * (1500 * 16 / 500 + 180 * 0.5) + 10)
    given = provider.night_limits(LoopLimits(max_output_tokens=1024), output_given=True)
    assert given.max_output_tokens == 1024
    provider.speed = Speed(prefill_tokens_s=1e5, step_s=0.001, batch_step_s=0.002, max_batch=16)
    fast = provider.night_limits(LoopLimits(max_output_tokens=1024, deadline_s=120))
    assert (fast.max_output_tokens, fast.deadline_s) == (1024, 120)


def test_measure_times_the_loaded_model(model_dir: Path) -> None:
    speed = LocalProvider(model_dir, max_batch=4).measure(prompt_tokens=8, steps=2)
    assert speed.max_batch == 4
    assert speed.tokens_s > 0 and speed.prefill_tokens_s > 0
    assert speed.batch_step_s >= speed.step_s


def test_a_schema_constrains_the_output_of_its_row_only(model_dir: Path) -> None:
    from agent.structured import facts_schema

    async def both() -> list[ModelResponse]:
        provider = LocalProvider(model_dir, dtype="float32", max_batch=2, window_s=0.5)
        structured = request("Which facts?", max_tokens=40).model_copy(
            update={"response_schema": facts_schema(3)}
        )
        return list(
            await asyncio.gather(provider.complete(structured), provider.complete(request("a")))
        )

    constrained, free = asyncio.run(both())
    chosen = json.loads(constrained.text or "")  # a random model, held to the schema
    assert set(chosen) == {"facts"} and chosen["facts"]
    assert all(n in (1, 2, 3) for n in chosen["facts"])
    assert constrained.finish_reason == "stop"
    assert not (free.text or "").startswith('{"facts"')


class Prefer(LogitsProcessor):
    """Pushes one text's next token far ahead of the rest, without forbidding any: a model set
    on repeating a choice ("[1, 1, 1, ...", as the packaged one does)."""

    def __init__(self, tokenizer: AutoTokenizer, text: str) -> None:
        self.script = tokenizer.encode(text, add_special_tokens=False)
        self.start: int | None = None

    def __call__(self, input_ids: torch.LongTensor, scores: torch.FloatTensor) -> torch.FloatTensor:
        self.start = input_ids.shape[1] if self.start is None else self.start
        position = input_ids.shape[1] - self.start
        if position < len(self.script):
            scores[:, self.script[position]] += 1000.0
        return scores


def test_a_constrained_reply_chooses_each_fact_once_and_closes(
    model_dir: Path, tokenizer: AutoTokenizer
) -> None:
    from agent.structured import facts_schema

    repeating = Prefer(tokenizer, '{"facts": [1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1]}')
    provider = LocalProvider(model_dir, dtype="float32", logits_processor=[repeating])
    shaped = request("Which facts?", max_tokens=60).model_copy(
        update={"response_schema": facts_schema(3)}
    )
    reply = asyncio.run(provider.complete(shaped))
    chosen = json.loads(reply.text or "")["facts"]  # whole JSON: no loop cut it short
    assert chosen[0] == 1 and len(chosen) == len(set(chosen)) <= 3
    assert reply.finish_reason == "stop"

"""A tiny random Qwen2 model and BPE tokenizer built on the spot, and a processor that scripts output.

Nothing is downloaded: the tokenizer is trained on a few sentences, the weights are random, and
`ScriptedOutput` forces the real `generate()` to emit known text, one script per call.
"""

from __future__ import annotations

import threading
from pathlib import Path

import torch
from tokenizers import AddedToken, Tokenizer, decoders, pre_tokenizers
from tokenizers.models import BPE
from tokenizers.trainers import BpeTrainer
from transformers import (
    GenerationConfig,
    LogitsProcessor,
    PreTrainedTokenizerFast,
    Qwen2Config,
    Qwen2ForCausalLM,
)

SPECIAL = ["<|endoftext|>", "<|im_start|>", "<|im_end|>"]
TOOL_TAGS = ["<tool_call>", "</tool_call>", "<tool_response>", "</tool_response>"]
SENTENCES = [
    "What was the close of ACME on 2024-03-01 and how much did it move?",
    "ACME closed at 12.50, up 3.1% on the day.",
    '{"name": "get_daily_move", "arguments": {"ticker": "ACME", "date": "2024-03-01"}}',
    "You are a careful analyst. Use the tools; never invent a figure.",
]


def build_tokenizer(chat_template: str | None) -> PreTrainedTokenizerFast:
    """Byte-level BPE with Qwen's chat tokens: turn markers special, tool tags ordinary added tokens."""
    bpe = Tokenizer(BPE())
    bpe.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False)
    bpe.decoder = decoders.ByteLevel()
    trainer = BpeTrainer(
        vocab_size=400,
        special_tokens=SPECIAL,
        initial_alphabet=pre_tokenizers.ByteLevel.alphabet(),
        show_progress=False,
    )
    bpe.train_from_iterator(SENTENCES, trainer)
    bpe.add_tokens([AddedToken(t, special=False, normalized=False) for t in TOOL_TAGS])
    tokenizer = PreTrainedTokenizerFast(
        tokenizer_object=bpe, eos_token="<|im_end|>", pad_token="<|endoftext|>"
    )
    tokenizer.chat_template = chat_template
    return tokenizer


def build_tiny_model(out: Path, chat_template: str | None) -> Path:
    """Save a random two-layer Qwen2 with our tokenizer into `out`; its generation defaults sample,
    as Qwen2.5-Instruct's do, so greedy decoding must be asked for explicitly."""
    tokenizer = build_tokenizer(chat_template)
    config = Qwen2Config(
        hidden_size=64,
        num_hidden_layers=2,
        num_attention_heads=4,
        num_key_value_heads=2,
        intermediate_size=128,
        vocab_size=len(tokenizer),
        max_position_embeddings=32768,
        eos_token_id=tokenizer.eos_token_id,
        pad_token_id=tokenizer.pad_token_id,
    )
    torch.manual_seed(0)
    model = Qwen2ForCausalLM(config)
    model.generation_config = GenerationConfig(
        do_sample=True,
        temperature=0.7,
        top_p=0.8,
        top_k=20,
        repetition_penalty=1.05,
        eos_token_id=tokenizer.eos_token_id,
        pad_token_id=tokenizer.pad_token_id,
    )
    tokenizer.save_pretrained(out)
    model.save_pretrained(out)
    return out


class ScriptedOutput(LogitsProcessor):
    """Forces one scripted text per `generate()` call, then end of turn.

    A call starts whenever the sequence length is not the last one plus one. It records the
    thread each step ran on, so a test can show that generation left the event loop's thread.
    """

    def __init__(self, tokenizer: PreTrainedTokenizerFast, texts: list[str]) -> None:
        self.scripts = [tokenizer.encode(t, add_special_tokens=False) for t in texts]
        self.eos = int(tokenizer.convert_tokens_to_ids("<|im_end|>"))
        self.turn = -1
        self.threads: set[int] = set()
        self._start = 0
        self._last = -2

    def __call__(self, input_ids: torch.LongTensor, scores: torch.FloatTensor) -> torch.FloatTensor:
        length = input_ids.shape[1]
        if length != self._last + 1:
            self.turn += 1
            self._start = length
        self._last = length
        self.threads.add(threading.get_ident())
        script = self.scripts[self.turn]
        position = length - self._start
        target = script[position] if position < len(script) else self.eos
        forced = torch.full_like(scores, float("-inf"))
        forced[:, target] = 0.0
        return forced

"""Token counts offline with the real tokenizers, and how far our estimates sit from them."""

from __future__ import annotations

import json
import math
import os
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from agent.providers.base import Message, ModelRequest, ToolResultItem, ToolSpec
from agent.providers.tokens import (
    count_by_line,
    count_fallback,
    count_text,
    encoding_for,
    encoding_named,
    estimate_request,
)
from contract.trace import ToolCall
from tests.agent.providers.reference_count import reference_prompt_tokens

FIXED_TEXT = (
    "The quick brown fox jumps over the lazy dog. AAPL closed at $189.84 on 2024-06-28, up 0.45%."
)

OFFLINE_SCRIPT = """
import json, socket, sys
def refuse(*args, **kwargs):
    raise OSError("network access blocked in this test")
socket.socket.connect = refuse
socket.create_connection = refuse
socket.getaddrinfo = refuse
from agent.providers.tokens import count_text, encoding_for
text = sys.argv[1]
print(json.dumps({
    "o200k": count_text(text, "gpt-4o"),
    "cl100k": count_text(text, "gpt-4"),
    "cookbook_o200k": encoding_for("gpt-4o-mini").encode_ordinary("tiktoken is great!"),
    "cookbook_cl100k": encoding_for("gpt-3.5-turbo").encode_ordinary("tiktoken is great!"),
    "bpe_openai_imported": "bpe_openai" in sys.modules,
}))
"""


def test_counts_offline_in_a_fresh_cache(tmp_path: Path) -> None:
    """A new process with an empty tiktoken cache and every socket refused still counts, with
    warnings as errors and without importing bpe_openai (whose import warns)."""
    env = {
        **os.environ,
        "TIKTOKEN_CACHE_DIR": str(tmp_path),
        "HTTPS_PROXY": "http://127.0.0.1:9",
        "HTTP_PROXY": "http://127.0.0.1:9",
    }
    done = subprocess.run(
        [sys.executable, "-W", "error", "-c", OFFLINE_SCRIPT, FIXED_TEXT],
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    counts = json.loads(done.stdout)
    assert counts["o200k"] == 33
    # The token ids the OpenAI cookbook shows for this sentence.
    assert counts["cookbook_o200k"] == [83, 8251, 2488, 382, 2212, 0]
    assert counts["cookbook_cl100k"] == [83, 1609, 5963, 374, 2294, 0]
    assert len(list(tmp_path.iterdir())) == 2, "both encodings were installed into the cache"
    assert counts["bpe_openai_imported"] is False


@pytest.mark.filterwarnings("ignore:open_binary is deprecated:DeprecationWarning")
@pytest.mark.parametrize("name", ["o200k_base", "cl100k_base"])
def test_counts_match_an_independent_tokenizer(name: str) -> None:
    """bpe-openai is a separate (Rust) implementation over the same merge tables."""
    import bpe_openai

    ours = encoding_named(name)
    assert ours is not None
    theirs = bpe_openai.get_encoding(name)
    for text in [
        FIXED_TEXT,
        "Umsatz +12,5 % ggü. Vorjahr; 純利益は増加",
        "<|endoftext|> is text here",
    ]:
        assert len(ours.encode_ordinary(text)) == len(theirs.encode_ordinary(text)), text


def test_unknown_models_fall_back_to_a_conservative_count() -> None:
    assert encoding_for("house-model-7") is None
    assert count_text("abcdefg", "house-model-7") == 3
    assert count_fallback("純利益") == 3, "three bytes each: one token per character"
    assert count_text("<|endoftext|>", "gpt-4o") > 1, "special-token text counts as plain text"


def make_request(turns: int) -> ModelRequest:
    tools = [
        ToolSpec(
            name="get_daily_move",
            description="Close, previous session's close and the day change of one ticker.",
            parameters={
                "type": "object",
                "properties": {
                    "ticker": {"type": "string", "description": "Ticker symbol, e.g. AAPL."},
                    "date": {"type": "string", "description": "Trading date, YYYY-MM-DD."},
                },
                "required": ["ticker", "date"],
            },
        ),
        ToolSpec(
            name="get_headlines",
            description="Headlines about one ticker published on one date.",
            parameters={
                "type": "object",
                "properties": {
                    "ticker": {"type": "string", "description": "Ticker symbol."},
                    "limit": {"type": "integer", "description": "At most this many."},
                    "order": {
                        "type": "string",
                        "enum": ["newest", "oldest"],
                        "description": "Sort.",
                    },
                },
            },
        ),
    ]
    messages = [Message(role="user", text="Why did MSFT move on 2024-06-28? Cite the figures.")]
    for n in range(turns):
        call = ToolCall(
            id=f"call_{n}", name="get_daily_move", arguments='{"ticker":"MSFT","date":"2024-06-28"}'
        )
        messages.append(Message(role="assistant", text=None, tool_calls=[call]))
        result = json.dumps(
            {"ticker": "MSFT", "close": 446.95, "prev_close": 452.85, "change_pct": -1.3}
        )
        messages.append(
            Message(
                role="tool",
                results=[ToolResultItem(call_id=call.id, name=call.name, content=result)],
            )
        )
    return ModelRequest(
        system="You are a careful equity analyst. Use the tools; never invent a figure.",
        tools=tools,
        messages=messages,
    )


@pytest.mark.parametrize("turns", [0, 1, 4])
def test_openai_estimate_bounds_the_reference_count(turns: int) -> None:
    request = make_request(turns)
    encoding = encoding_for("gpt-4o")
    assert encoding is not None
    reference = reference_prompt_tokens(request, encoding)
    estimate = estimate_request(request, "openai", "gpt-4o")
    print(
        f"turns={turns} estimate={estimate} reference={reference} ratio={estimate / reference:.2f}"
    )
    assert reference <= estimate <= 1.6 * reference


def test_openai_estimate_bounds_the_reference_count_for_the_real_tools() -> None:
    from tools.registry import tool_specs

    request = make_request(2).model_copy(
        update={"tools": [ToolSpec.model_validate(spec) for spec in tool_specs()]}
    )
    encoding = encoding_for("gpt-4o")
    assert encoding is not None
    reference = reference_prompt_tokens(request, encoding)
    estimate = estimate_request(request, "openai", "gpt-4o")
    print(
        f"{len(request.tools)} tools: estimate={estimate} reference={reference} ratio={estimate / reference:.2f}"
    )
    assert reference <= estimate <= 1.6 * reference


def test_anthropic_and_generic_estimates_carry_their_margins() -> None:
    request = make_request(2)
    openai = estimate_request(request, "openai", "gpt-4o")
    anthropic = estimate_request(request, "anthropic", "claude-sonnet-4-5")
    generic = estimate_request(request, "generic", "house-model-7")
    print(f"openai={openai} anthropic={anthropic} generic={generic}")
    assert anthropic == math.ceil((openai + 346) * 1.35)
    assert generic > openai


@settings(max_examples=400, deadline=None)
@given(
    st.lists(
        st.text(alphabet=st.sampled_from(list(' \t\r\n{}[]":,.-_0123456789aZé€$%ñ😀')), max_size=40)
        | st.sampled_from(['{"ticker": "AAA", "close": 10.5}', "  ", "\r", "Ticker: X.", ""]),
        max_size=12,
    )
)
def test_counting_line_by_line_never_undercounts_the_whole_text(parts: list[str]) -> None:
    """The budget's estimate counts a message line by line (lines requests share are counted
    once): that is never fewer tokens than the whole text's, so a reservation is never short."""
    text = "\n".join(parts)
    whole = len(encoding_named("o200k_base").encode_ordinary(text))
    assert count_by_line(text, "o200k_base") >= whole

"""Token counts before a call is made: tiktoken offline, with a conservative fallback.

tiktoken downloads its encoding files on first use. The `bpe-openai` package ships the
`o200k_base` and `cl100k_base` files (gzipped) whose sha256 equal what tiktoken expects; they are
unpacked, checked, and written into tiktoken's cache under the name it looks for (the sha1 of the
download URL) before the first `get_encoding`, so counting never touches the network. The files
are read from the installed distribution without importing `bpe_openai`: its import loads an
encoding of its own through a deprecated `importlib.resources` call.

Estimates are upper bounds by intent: the budget reserves them before each call.
- OpenAI-style models: the model's tiktoken encoding over every message, each tool rendered as
  the typed signature chat models are shown (schema details it cannot express are counted as
  JSON), and a few tokens of framing per message and per tool.
- Anthropic: Claude's tokenizer is not public. The o200k count plus the documented tool-use system
  prompt (346 tokens), times `ANTHROPIC_MARGIN`: Claude tokenizers yield up to about a third more
  tokens than o200k on English and code.
- Unknown encodings: one token per three bytes of UTF-8, rounded up (about 4 chars/token is
  typical for English; digits and non-Latin scripts run denser, which bytes/3 still covers).

Replies are counted here too (`count_reply`), so the budget never takes a server's word for how
long a reply was.
"""

from __future__ import annotations

import gzip
import hashlib
import json
import math
import os
import tempfile
import threading
from collections.abc import Sequence
from functools import cache, lru_cache
from importlib import metadata
from pathlib import Path
from typing import Any, Literal

import tiktoken
from tiktoken.model import encoding_name_for_model

from agent.providers.base import Message, ModelRequest, ToolSpec
from contract.trace import ToolCall

Family = Literal["openai", "anthropic", "generic"]

ENCODING_URLS = {
    "o200k_base": (
        "https://openaipublic.blob.core.windows.net/encodings/o200k_base.tiktoken",
        "446a9538cb6c348e3516120d7c08b09f57c36495e2acfffe59a5bf8b0cfb1a2d",
    ),
    "cl100k_base": (
        "https://openaipublic.blob.core.windows.net/encodings/cl100k_base.tiktoken",
        "223921b76ee99bde995b7ff738513eef100fb51d18c93597a113bcffe865b2a7",
    ),
}
# o200k_harmony (gpt-oss) reads the o200k_base file and adds special tokens.
ENCODING_FILE = {
    "o200k_base": "o200k_base",
    "cl100k_base": "cl100k_base",
    "o200k_harmony": "o200k_base",
}
ANTHROPIC_MARGIN = 1.35
ANTHROPIC_TOOL_PROMPT = 346
TOKENS_PER_MESSAGE = 4
TOKENS_PER_TOOL = 12
TOKENS_PER_TOOL_CALL = 8
REPLY_PRIMING = 3
SCALAR_TYPES = {"string": "string", "integer": "number", "number": "number", "boolean": "boolean"}
PLAIN_SCHEMA_KEYS = {"type", "description", "enum", "items", "title"}

MAX_CHARS_PER_TOKEN = 128
"""The longest token of o200k and cl100k, in characters: a text of n characters holds at least
n / 128 tokens in either."""

_install_lock = threading.Lock()


def cache_dir() -> Path:
    """tiktoken's cache directory, chosen (and exported) once per process."""
    configured = os.environ.get("TIKTOKEN_CACHE_DIR")
    if configured:
        return Path(configured)
    base = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache")
    path = base / "nightdesk" / "tiktoken"
    try:
        path.mkdir(parents=True, exist_ok=True)
    except OSError:
        path = Path(tempfile.gettempdir()) / f"nightdesk-tiktoken-{os.getuid()}"
        path.mkdir(parents=True, exist_ok=True)
    os.environ["TIKTOKEN_CACHE_DIR"] = str(path)
    return path


def install_encoding_file(name: str) -> Path:
    """Put the bundled encoding file where tiktoken looks for it; verify its sha256."""
    url, expected = ENCODING_URLS[name]
    target = cache_dir() / hashlib.sha1(url.encode()).hexdigest()
    if target.exists() and hashlib.sha256(target.read_bytes()).hexdigest() == expected:
        return target
    bundled = metadata.distribution("bpe-openai").locate_file(f"bpe_openai/data/{name}.tiktoken.gz")
    packed = Path(str(bundled)).read_bytes()
    data = gzip.decompress(packed)
    if hashlib.sha256(data).hexdigest() != expected:
        raise RuntimeError(f"bundled {name} encoding does not match tiktoken's sha256")
    target.parent.mkdir(parents=True, exist_ok=True)
    partial = target.with_name(f"{target.name}.{os.getpid()}.{threading.get_ident()}.part")
    partial.write_bytes(data)
    os.replace(partial, target)
    return target


@cache
def encoding_named(name: str) -> tiktoken.Encoding | None:
    """A tiktoken encoding by name, loaded offline; None when its file is not bundled."""
    source = ENCODING_FILE.get(name)
    if source is None:
        return None
    with _install_lock:
        install_encoding_file(source)
        return tiktoken.get_encoding(name)


@cache
def encoding_for(model: str) -> tiktoken.Encoding | None:
    """The encoding of an OpenAI-style model, or None when tiktoken does not know it."""
    try:
        name = encoding_name_for_model(model)
    except KeyError:
        return None
    return encoding_named(name)


def count_fallback(text: str) -> int:
    """Conservative count for unknown tokenizers: one token per three UTF-8 bytes."""
    return math.ceil(len(text.encode("utf-8")) / 3)


def count_text(text: str, model: str) -> int:
    """Tokens of plain text for `model`; special-token text is counted as ordinary text."""
    encoding = encoding_for(model)
    if encoding is None:
        return count_fallback(text)
    return len(encoding.encode_ordinary(text))


def count_reply(text: str, allowed: int) -> int:
    """The tokens of a reply (its text and tool calls) by local count, as far as they decide
    whether it fits the `allowed` output tokens: exact in o200k where they do; where they do
    not, the lower bound its length gives. A reply of fewer UTF-8 bytes than `allowed` fits
    whatever the tokenizer (no token is shorter than a byte), and one longer than `allowed`
    tokens of the longest kind fits none: neither is tokenised, so a megabyte costs nothing."""
    floor = math.ceil(len(text) / MAX_CHARS_PER_TOKEN)
    if len(text) > allowed * MAX_CHARS_PER_TOKEN or len(text.encode("utf-8")) <= allowed:
        return floor
    encoding = encoding_named("o200k_base")
    return len(encoding.encode_ordinary(text)) if encoding else floor


def reply_text(text: str | None, calls: Sequence[ToolCall]) -> str:
    """What a reply produced, as its output tokens are counted: words and tool calls."""
    return "\n".join([text or "", *(f"{call.name} {call.arguments}" for call in calls)])


def render_message(message: Message) -> str:
    """The text of a message the model reads: words, tool calls, tool results."""
    parts = [message.text or ""]
    parts += [f"{call.name} {call.id} {call.arguments}" for call in message.tool_calls]
    parts += [f"{item.call_id} {item.name} {item.content}" for item in message.results]
    return "\n".join(part for part in parts if part)


def render_tool(tool: ToolSpec) -> str:
    """A tool as chat models are shown it: a typed signature with comments, close to OpenAI's."""
    lines = [f"// {tool.description}", f"type {tool.name} = (_: {{"]
    required = set(tool.parameters.get("required", []))
    for key, spec in tool.parameters.get("properties", {}).items():
        lines += [f"// {spec['description']}"] if spec.get("description") else []
        extra = {k: v for k, v in spec.items() if k not in PLAIN_SCHEMA_KEYS}
        notes = ", ".join(f"{k}: {json.dumps(v, ensure_ascii=False)}" for k, v in extra.items())
        lines += [f"// {notes}"] if notes else []
        lines.append(f"{key}{'' if key in required else '?'}: {render_type(spec)},")
    lines.append("}) => any;")
    return "\n".join(lines)


def render_type(spec: dict[str, Any]) -> str:
    """A JSON schema type as a TypeScript-like type; anything unusual is counted as JSON."""
    if "enum" in spec:
        return " | ".join(json.dumps(value, ensure_ascii=False) for value in spec["enum"])
    kind = spec.get("type")
    if kind in SCALAR_TYPES:
        return SCALAR_TYPES[kind]
    if kind == "array" and isinstance(spec.get("items"), dict):
        return f"{render_type(spec['items'])}[]"
    return json.dumps(spec, ensure_ascii=False, separators=(",", ":"))


def estimate_request(request: ModelRequest, family: Family, model: str) -> int:
    """Upper estimate of the prompt tokens of `request` (not its output). The parts every
    request repeats (the system prompt, the tools offered) are counted once per process."""
    encoding = encoding_named("o200k_base") if family == "anthropic" else encoding_for(model)
    name = encoding.name if encoding else None

    def count(text: str) -> int:
        return count_by_line(text, name) if name is not None else count_fallback(text)

    tokens = count_constant(request.system, name) + TOKENS_PER_MESSAGE + REPLY_PRIMING
    for message in request.messages:
        calls = len(message.tool_calls) + len(message.results)
        tokens += count(render_message(message)) + TOKENS_PER_MESSAGE + TOKENS_PER_TOOL_CALL * calls
    tokens += sum(tool_tokens(tool, name) + TOKENS_PER_TOOL for tool in request.tools)
    if request.response_schema is not None:  # sent as a response format, or as Anthropic's tool
        tokens += count(json.dumps(request.response_schema)) + TOKENS_PER_TOOL
    if family == "anthropic":
        forced = bool(request.tools) or request.response_schema is not None
        tool_prompt = ANTHROPIC_TOOL_PROMPT if forced else 0
        return math.ceil((tokens + tool_prompt) * ANTHROPIC_MARGIN)
    return tokens


def count_by_line(text: str, encoding: str) -> int:
    """Tokens of `text` counted line by line, one more per line break: never fewer than the
    whole text's (a line break is a token of its own, so the lines are tokenised alike in both),
    and the lines many requests share (a tool result a ticker's questions all quote, the context
    line) are counted once (`count_line`)."""
    lines = text.split("\n")
    return sum(count_line(line, encoding) for line in lines) + len(lines) - 1


@lru_cache(maxsize=4096)
def count_line(line: str, encoding: str) -> int:
    """Tokens of one line in the encoding named."""
    found = encoding_named(encoding)
    return len(found.encode_ordinary(line)) if found else count_fallback(line)


@lru_cache(maxsize=256)
def count_constant(text: str, encoding: str | None) -> int:
    """Tokens of a text many requests repeat (a system prompt), in the encoding named
    (None: the fallback count), counted on its first request only."""
    found = encoding_named(encoding) if encoding else None
    return len(found.encode_ordinary(text)) if found else count_fallback(text)


def tool_tokens(tool: ToolSpec, encoding: str | None) -> int:
    """Tokens of one tool as it is shown: rendered each time (cheap), counted once per text."""
    return count_constant(render_tool(tool), encoding)

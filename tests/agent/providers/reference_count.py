"""A reference prompt count for gpt-4o-style chat requests, to measure our estimates against.

It follows the OpenAI cookbook's counting recipe ("How to count tokens with tiktoken"), which the
cookbook checks against the `prompt_tokens` the API reports: 3 tokens of framing per message, 3
to prime the reply, and tools counted from their name, description and properties with the
constants it gives for gpt-4o.
"""

from __future__ import annotations

import tiktoken

from agent.providers.base import ModelRequest
from agent.providers.tokens import render_message

FUNC_INIT, PROP_INIT, PROP_KEY, ENUM_INIT, ENUM_ITEM, FUNC_END = 7, 3, 3, -3, 3, 12


def reference_prompt_tokens(request: ModelRequest, encoding: tiktoken.Encoding) -> int:
    def count(text: str) -> int:
        return len(encoding.encode_ordinary(text))

    tokens = 3 + count(request.system)
    for message in request.messages:
        tokens += 3 + count(message.role) + count(render_message(message))
    tokens += 3
    if not request.tools:
        return tokens
    for tool in request.tools:
        tokens += FUNC_INIT + count(f"{tool.name}:{tool.description.rstrip('.')}")
        properties = tool.parameters.get("properties", {})
        if properties:
            tokens += PROP_INIT
        for key, spec in properties.items():
            tokens += PROP_KEY
            for item in spec.get("enum", []):
                tokens += ENUM_ITEM + count(str(item))
            if "enum" in spec:
                tokens += ENUM_INIT
            description = str(spec.get("description", "")).rstrip(".")
            tokens += count(f"{key}:{spec.get('type', '')}:{description}")
    return tokens + FUNC_END

"""Structured drafting: the model chooses facts, the program writes the sentences.

In plan mode the program knows every tool result before the model drafts. With
`drafting="structured"` it offers the model numbered facts, one sentence each, written by the
program from the results in the report's language and number format (the offline templates), and
the model answers with JSON naming the facts that answer the question (`{"facts": [2, 1]}`,
under `FACTS_SCHEMA`). The draft is those sentences in the model's order. A figure can then
only be wrong by choosing the wrong fact, and the verifier checks the draft like any other.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from agent.providers.base import RESPONSE_SCHEMA_NAME
from agent.providers.offline import CONTEXT_TOOLS, _sentence, _shown, _summary_move

_ASK = {
    "en": (
        "Choose the facts below that answer the question, most important first, and reply with "
        'JSON only: {"facts": [numbers]}. The program writes the sentences.\nFACTS:'
    ),
    "es": (
        "Elige los hechos de la lista que responden a la pregunta, el más importante primero, y "
        'responde solo con JSON: {"facts": [números]}. El programa escribe las frases.\nHECHOS:'
    ),
}

_CLOSE = {
    "en": "{ticker} closed at {close} on {session}.",
    "es": "{ticker} cerró a {close} el {session}.",
}


@dataclass(frozen=True, slots=True)
class Fact:
    number: int
    sentence: str


def facts_of(results: list[dict[str, Any]], language: str) -> list[Fact]:
    """The facts a draft may state: for each result the templates write of (context tools
    aside), its sentence; for a day's move also the close alone and the direction alone."""
    sentences: list[str] = []
    for entry in results:
        if entry.get("tool") in CONTEXT_TOOLS:
            continue
        candidates = [_sentence(entry, language)]
        result = entry.get("result")
        if entry.get("tool") == "get_daily_move" and isinstance(result, dict):
            candidates += [*_close(result, language), _summary_move(entry, language)]
        sentences += [s for s in candidates if s not in sentences]
    return [Fact(i, s) for i, s in enumerate(sentences, 1)]


def _close(result: dict[str, Any], language: str) -> list[str]:
    try:
        return [_CLOSE[language].format(**_shown(result, language))]
    except KeyError:  # a result shape the template does not know
        return []


FACTS_SCHEMA_NAME = RESPONSE_SCHEMA_NAME


def facts_schema(count: int) -> dict[str, Any]:
    """The JSON schema of a reply choosing among `count` facts."""
    return {
        "type": "object",
        "properties": {
            "facts": {
                "type": "array",
                "items": {"type": "integer", "enum": list(range(1, count + 1))},
                "minItems": 1,
            }
        },
        "required": ["facts"],
        "additionalProperties": False,
    }


def facts_block(facts: list[Fact], language: str) -> str:
    lines = [f"[{f.number}] {f.sentence}" for f in facts]
    return "\n".join([_ASK[language], *lines])


def render_choice(reply: str | None, facts: list[Fact]) -> str | None:
    """The draft the reply chooses: the chosen facts' sentences, each once, in its order; None
    when the reply is not JSON of the schema or chooses nothing known."""
    try:
        chosen = json.loads(reply or "")["facts"]
    except (ValueError, KeyError, TypeError):
        return None
    if not isinstance(chosen, list):
        return None
    by_number = {f.number: f.sentence for f in facts}
    picked: list[str] = []
    for number in chosen:
        sentence = by_number.get(number) if isinstance(number, int) else None
        if sentence is None:
            return None
        if sentence not in picked:
            picked.append(sentence)
    return " ".join(picked) or None

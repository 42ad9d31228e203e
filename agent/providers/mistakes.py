"""`scripted-mistakes`: the offline templates with the mistakes real models make, made
deterministically (by ticker), so a night without a key or network leaves real rejected cases
for the review flow: a figure of another ticker, an invented quote, a wrong direction, a
relayed error."""

from __future__ import annotations

import hashlib
import re
from collections.abc import Callable

from agent.providers.base import ModelRequest, ModelResponse
from agent.providers.offline import OfflineProvider
from contract.errors import ProviderError


def other_ticker(text: str) -> str:
    return text.rstrip(".") + ", while ZZZQ fell 4.10% on the day."


def invented_figure(text: str) -> str:
    return re.sub(r"closed at [0-9.,]+", "closed at 987.65", text, count=1)


def invented_quote(text: str) -> str:
    return text.rstrip(".") + '. One headline read "Shares soar on record guidance".'


def wrong_direction(text: str) -> str:
    return re.sub(r"a day change of ([0-9.,]+) \(([0-9.,]+)%\)", r"a fall of \2%", text, count=1)


MISTAKES: tuple[Callable[[str], str] | None, ...] = (
    invented_figure,
    other_ticker,
    invented_quote,
    wrong_direction,
    None,  # a relayed error: the provider fails
)
"""One mistake per ticker in turn (by a hash of its symbol); every sixth ticker is answered right."""


class ScriptedMistakesProvider(OfflineProvider):
    name = "scripted-mistakes"

    async def complete(self, request: ModelRequest) -> ModelResponse:
        question = request.messages[0].text or ""
        symbols = re.findall(r"\b[A-Z][A-Z0-9.\-]{1,11}\b", question)
        slot = int(hashlib.sha256(symbols[0].encode()).hexdigest(), 16) % 6 if symbols else 5
        mistake = MISTAKES[slot] if slot < len(MISTAKES) else None
        if slot == len(MISTAKES) - 1:
            raise ProviderError("scripted outage: HTTP 503 from the provider")
        response = await super().complete(request)
        if mistake is not None and response.text and "summary" not in question.lower():
            response.text = mistake(response.text)
        return response

"""`scripted-mistakes`: the offline templates with the mistakes real models make, made
deterministically (by a hash of the ticker), so a night without a key or network leaves real
rejected cases for the review flow. Each ticker gets one kind of mistake, or none:

| mistake | what the model does | the verifier's reason |
| --- | --- | --- |
| `wrong_field` | states the position's day P&L as its market value | `wrong_field` |
| `other_ticker` | reads the portfolio's holdings and gives another ticker's share count | `wrong_subject` |
| `invented_quote` | adds a headline no search returned | `unknown_headline` |
| `wrong_direction` | says the stock fell when it rose (or rose when it fell) | `wrong_direction` |
| `relayed_error` | asks for the day after the report date, gets an error, and answers as if the call had brought a close | `unresolved_error` |

The two mistakes that need a call of their own (`other_ticker`, `relayed_error`) make it in
react mode, where the model chooses its calls (`nightdesk run --mode react`, as `make
demo-review` does); in plan mode those tickers are answered right. Nothing here knows the
verifier: each mistake only changes what the model asks or writes.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Callable
from dataclasses import dataclass
from datetime import date, timedelta
from typing import Any

from agent.prompts import LANGUAGES
from agent.providers.base import ModelRequest, ModelResponse
from agent.providers.offline import OfflineProvider, _first_user_text, _results_in, _show
from contract.trace import ToolCall

Results = list[dict[str, Any]]


def _result(results: Results, tool: str) -> dict[str, Any] | None:
    found = next((e.get("result") for e in results if e.get("tool") == tool), None)
    return found if isinstance(found, dict) else None


def _args(call: ToolCall) -> dict[str, Any]:
    try:
        args = json.loads(call.arguments)
    except ValueError:
        return {}
    return args if isinstance(args, dict) else {}


def _swap(text: str, key: str, own: Any, theirs: Any) -> str:
    """`text` with the first figure `own` (field `key`), as a draft in either language or raw
    writes it, replaced by `theirs` written the same way."""
    shown = [(_show(own, lang, key), _show(theirs, lang, key)) for lang in LANGUAGES]
    for old, new in [*shown, (str(own), str(theirs))]:
        told, n = re.subn(rf"(?<![\d.,]){re.escape(old)}(?![\d]|[.,]\d)", new, text, count=1)
        if n:
            return told
    return text


def wrong_field(text: str, results: Results) -> str:
    """The day P&L written where the market value belongs."""
    position = _result(results, "get_position_pnl")
    if not position or "market_value" not in position or "day_pnl" not in position:
        return text
    return _swap(text, "market_value", position["market_value"], position["day_pnl"])


def ask_for_holdings(calls: list[ToolCall]) -> list[ToolCall]:
    """The planned calls, plus the portfolio's holdings for a position question."""
    position = next((c for c in calls if c.name == "get_position_pnl"), None)
    if position is None or "portfolio_id" not in _args(position):
        return calls
    args = {"portfolio_id": _args(position)["portfolio_id"]}
    extra = ToolCall(id=f"{position.id}-holdings", name="get_portfolio", arguments=json.dumps(args))
    return [*calls, extra]


def other_ticker(text: str, results: Results) -> str:
    """Another holding's share count written as this position's."""
    position, book = _result(results, "get_position_pnl"), _result(results, "get_portfolio")
    if not position or not book or "quantity" not in position:
        return text
    others = [
        h for h in book.get("holdings") or [] if isinstance(h, dict) and h.get("ticker") != position.get("ticker")
        and h.get("quantity") not in (None, position["quantity"])
    ]  # fmt: skip
    if not others:
        return text
    text = re.sub(r"\s*get_portfolio (?:for|de) .*?\.(?=\s|$)", "", text)  # read, not reported
    return _swap(text, "quantity", position["quantity"], others[0]["quantity"])


def invented_quote(text: str, results: Results) -> str:
    """A headline no search returned, in a news answer."""
    if not any(e.get("tool") == "search_news" for e in results):
        return text
    return text.rstrip(".") + '. One headline read "Shares soar on record guidance".'


def wrong_direction(text: str, results: Results) -> str:
    """The day's move told the wrong way round: a rise as a fall, a fall as a rise."""

    def flip(m: re.Match[str]) -> str:
        pct = m.group(2)
        return f"a rise of {pct[1:]}%" if pct.startswith("-") else f"a fall of {pct}%"

    return re.sub(r"a day change of (-?[0-9.,]+) \((-?[0-9.,]+)%\)", flip, text, count=1)


def ask_for_the_next_day(calls: list[ToolCall]) -> list[ToolCall]:
    """The day's move asked for the day after the report date (the tool refuses it)."""
    out = []
    for call in calls:
        args = _args(call)
        if call.name == "get_daily_move" and isinstance(args.get("date"), str):
            later = date.fromisoformat(args["date"]) + timedelta(days=1)
            call = call.model_copy(update={"arguments": json.dumps({**args, "date": later.isoformat()})})  # fmt: skip
        out.append(call)
    return out


def relayed_error(text: str, results: Results) -> str:
    """An answer written over a failed call as if it had brought the close."""
    failed = next((e for e in results if e.get("tool") == "get_daily_move" and "error" in e), None)
    if failed is None:
        return text
    ticker = (failed.get("args") or {}).get("ticker", "The stock")
    claim = f"{ticker} closed at 10.00, up 2.50% on the day."
    told, n = re.subn(r"[^.]*\bget_daily_move\b[^.]*\.", claim, text, count=1)
    return told if n else f"{claim} {text}"


@dataclass(frozen=True)
class Mistake:
    """One kind of mistake: what it does to the model's calls (react mode) and to its draft."""

    name: str
    draft: Callable[[str, Results], str]
    calls: Callable[[list[ToolCall]], list[ToolCall]] | None = None


MISTAKES: tuple[Mistake | None, ...] = (
    Mistake("wrong_field", wrong_field),
    Mistake("other_ticker", other_ticker, ask_for_holdings),
    Mistake("invented_quote", invented_quote),
    Mistake("wrong_direction", wrong_direction),
    Mistake("relayed_error", relayed_error, ask_for_the_next_day),
    None,
)
"""One mistake per ticker in turn (by a hash of its symbol); every sixth ticker is answered right."""


def mistake_for(ticker: str) -> Mistake | None:
    return MISTAKES[int(hashlib.sha256(ticker.encode()).hexdigest(), 16) % len(MISTAKES)]


class ScriptedMistakesProvider(OfflineProvider):
    name = "scripted-mistakes"

    async def complete(self, request: ModelRequest) -> ModelResponse:
        question = _first_user_text(request.messages)
        symbols = re.findall(r"\b[A-Z][A-Z0-9.\-]{1,11}\b", question)
        mistake = mistake_for(symbols[0]) if symbols else None
        if mistake is None or "summary" in question.lower():
            return await super().complete(request)
        results = _results_in(request.messages)
        if results is None and mistake.calls and request.tools and request.planned_calls:
            planned = mistake.calls(request.planned_calls)
            request = request.model_copy(update={"planned_calls": planned})
        response = await super().complete(request)
        if response.text and results is not None:
            response.text = mistake.draft(response.text, results)
        return response

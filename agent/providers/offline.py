"""A deterministic provider with no network and no weights, for demos, dry runs and tests.

It reads only what a real model would read, the request: in plan mode the tool results
block of the drafting message; in react mode it first proposes the question's planned
calls (`ModelRequest.planned_calls`), then drafts from the results in the history. Every
figure, date and headline of a draft is copied from a tool result, figures written as the
report's language writes numbers (`contract.number_format`); templates exist in English and Spanish.
A summary request (its `TASK: summary` line) gets the ticker's paragraph for the report. Usage
is counted with the OpenAI tokenizer so budget dry runs see realistic numbers.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from agent.prompts import SUMMARY_TASK, parse_language, parse_results, parse_task
from agent.providers.base import Message, ModelRequest, ModelResponse
from agent.providers.tokens import count_text, estimate_request
from contract.number_format import format_number, format_quantity
from contract.trace import ToolCall, Usage

Sentence = Callable[[dict[str, Any], dict[str, Any], str], str]

_T: dict[str, dict[str, str]] = {
    "move": {
        "en": "{ticker} closed at {close} on {session}, a day change of {change} ({change_pct}%) "
        "from the previous close of {previous_close} on {previous_session}.",
        "es": "{ticker} cerró a {close} el {session}, una variación diaria de {change} "
        "({change_pct} %) frente al cierre anterior de {previous_close} del {previous_session}.",
    },
    "position": {
        "en": "{ticker} in portfolio {portfolio_id}: {quantity} shares closed at {close} on "
        "{session}, a market value of {market_value}; the day P&L was {day_pnl} ({pnl_pct}%), "
        "a contribution of {contribution_pct}% to the portfolio's day return.",
        "es": "{ticker} en la cartera {portfolio_id}: {quantity} acciones cerraron a {close} el "
        "{session}, con un valor de mercado de {market_value}; el resultado del día fue {day_pnl} "
        "({pnl_pct} %), una contribución de {contribution_pct} % al rendimiento diario de la cartera.",
    },
    "news": {
        "en": "Headlines for {ticker} from {start} to {end}: {items}.",
        "es": "Titulares de {ticker} del {start} al {end}: {items}.",
    },
    "no_news": {
        "en": "There are no headlines for {ticker} from {start} to {end}.",
        "es": "No hay titulares de {ticker} del {start} al {end}.",
    },
    "headline": {
        "en": "{headline} ({source}, {published_at})",
        "es": "{headline} ({source}, {published_at})",
    },
    "events": {
        "en": "Events for {ticker} from {start} to {end}: {items}.",
        "es": "Eventos de {ticker} del {start} al {end}: {items}.",
    },
    "no_events": {
        "en": "Nothing is scheduled for {ticker} from {start} to {end}.",
        "es": "No hay nada programado para {ticker} del {start} al {end}.",
    },
    "event": {"en": "{kind} on {date}", "es": "{kind} el {date}"},
    "event_value": {
        "en": "{kind} on {date}, value {value}",
        "es": "{kind} el {date}, valor {value}",
    },
    "generic": {"en": "{tool} for {subject}: {items}.", "es": "{tool} de {subject}: {items}."},
    "error": {
        "en": "No data came back from {tool}, so that part is unavailable.",
        "es": "{tool} no devolvió datos, así que esa parte no está disponible.",
    },
    "news_error": {
        "en": "No headlines were found for {ticker} in the window searched.",
        "es": "No se encontraron titulares de {ticker} en el periodo consultado.",
    },
    "rose": {
        "en": "{ticker} rose {change} from its previous close of {previous_close} on "
        "{previous_session}.",
        "es": "{ticker} subió {change} desde su cierre anterior de {previous_close} del "
        "{previous_session}.",
    },
    "fell": {
        "en": "{ticker} fell {change} from its previous close of {previous_close} on "
        "{previous_session}.",
        "es": "{ticker} bajó {change} desde su cierre anterior de {previous_close} del "
        "{previous_session}.",
    },
    "flat": {
        "en": "{ticker} closed unchanged from its previous close of {previous_close} on "
        "{previous_session}.",
        "es": "{ticker} cerró sin cambios frente a su cierre anterior de {previous_close} del "
        "{previous_session}.",
    },
    "quiet": {
        "en": "There were no headlines on {ticker} from {start} to {end}, and nothing is "
        "scheduled for it through {until}.",
        "es": "No hubo titulares de {ticker} del {start} al {end} y no hay nada programado para "
        "{ticker} hasta el {until}.",
    },
    "headlines": {
        "en": "Headlines on {ticker} from {start} to {end}: {items}.",
        "es": "Titulares de {ticker} del {start} al {end}: {items}.",
    },
    "no_headlines": {
        "en": "There were no headlines on {ticker} from {start} to {end}.",
        "es": "No hubo titulares de {ticker} del {start} al {end}.",
    },
    "scheduled": {
        "en": "Scheduled for {ticker} through {until}: {items}.",
        "es": "Programado para {ticker} hasta el {until}: {items}.",
    },
    "unscheduled": {
        "en": "Nothing is scheduled for {ticker} through {until}.",
        "es": "No hay nada programado para {ticker} hasta el {until}.",
    },
    "nothing": {
        "en": "The available tools returned no data for this question.",
        "es": "Las herramientas disponibles no devolvieron datos para esta pregunta.",
    },
}
_KINDS = {"es": {"earnings": "resultados", "dividend": "dividendo", "split": "split"}}


class OfflineProvider:
    """The `offline` provider: templates over tool results, never a network call."""

    name = "offline"
    rate_limited = False

    def __init__(self, model: str = "templates", *, tokenizer_model: str = "gpt-4o") -> None:
        self.model = model
        self.tokenizer_model = tokenizer_model

    def estimate_tokens(self, request: ModelRequest) -> int:
        return estimate_request(request, "openai", self.tokenizer_model)

    async def complete(self, request: ModelRequest) -> ModelResponse:
        prompt = self.estimate_tokens(request)
        results = _results_in(request.messages)
        if results is None and request.tools and request.planned_calls:
            step = sum(1 for m in request.messages if m.role == "assistant") + 1
            calls = [
                ToolCall(id=f"offline-{step}-{i}", name=c.name, arguments=c.arguments)
                for i, c in enumerate(request.planned_calls, 1)
            ]
            usage = Usage(
                input_tokens=prompt, output_tokens=_count_calls(calls, self.tokenizer_model)
            )
            return ModelResponse(tool_calls=calls, finish_reason="tool_calls", usage=usage)
        first = _first_user_text(request.messages)
        language = parse_language(first)
        if parse_task(first) == SUMMARY_TASK:
            text = summary_text(results or [], language)
        else:
            text = draft_text(results or [], language)
        usage = Usage(input_tokens=prompt, output_tokens=count_text(text, self.tokenizer_model))
        return ModelResponse(text=text, finish_reason="stop", usage=usage)


CONTEXT_TOOLS = frozenset({"get_portfolio_ranks", "get_trend", "get_company"})
"""Tools whose results the templates read as context and state nothing of: a sentence of
their own would repeat the day's figures (ranks, trend, the company's name)."""


def draft_text(results: list[dict[str, Any]], language: str) -> str:
    """One sentence per tool result (identical calls once), joined into a paragraph."""
    sentences: list[str] = []
    for entry in _stated(results):
        sentence = _sentence(entry, language)
        if sentence not in sentences:
            sentences.append(sentence)
    return " ".join(sentences) if sentences else _T["nothing"][language]


def _stated(results: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The results the templates write sentences from (not `CONTEXT_TOOLS`)."""
    return [entry for entry in results if entry.get("tool") not in CONTEXT_TOOLS]


def _sentence(entry: dict[str, Any], language: str) -> str:
    tool = str(entry.get("tool", ""))
    result = entry.get("result")
    raw_args = entry.get("args")
    args: dict[str, Any] = raw_args if isinstance(raw_args, dict) else {}
    if "error" in entry or not isinstance(result, dict):
        if tool == "search_news" and isinstance(args.get("ticker"), str):
            return _T["news_error"][language].format(ticker=args["ticker"])
        return _T["error"][language].format(tool=tool)
    try:
        return _SENTENCES[tool](result, args, language).replace("\n", " ")
    except KeyError:  # another tool, or a result shape the templates do not know
        return _generic(tool, result, args, language).replace("\n", " ")


def _move(result: dict[str, Any], args: dict[str, Any], language: str) -> str:
    return _T["move"][language].format(**_shown(result, language))


def _position(result: dict[str, Any], args: dict[str, Any], language: str) -> str:
    return _T["position"][language].format(**_shown(result, language))


def summary_text(results: list[dict[str, Any]], language: str) -> str:
    """The ticker's paragraph for the report, each fact once, two or three sentences: the move in
    price terms (the table beside it shows the close and the percentages), then the headlines,
    then what is scheduled; no headlines and nothing scheduled make one sentence together."""
    by_tool: dict[str, dict[str, Any]] = {}
    for entry in _stated(results):
        by_tool.setdefault(str(entry.get("tool", "")), entry)
    sentences = []
    move = by_tool.pop("get_daily_move", None)
    if move is not None:
        sentences.append(_summary_move(move, language))
    news, events = by_tool.pop("search_news", None), by_tool.pop("get_events", None)
    quiet = _quiet(news, events, language)
    if quiet is not None:
        sentences.append(quiet)
    else:
        if news is not None:
            sentences.append(_summary_news(news, language))
        if events is not None:
            sentences.append(_summary_events(events, language))
    sentences += [_sentence(entry, language) for entry in by_tool.values()]
    return " ".join(sentences) if sentences else _T["nothing"][language]


def _summary_move(entry: dict[str, Any], language: str) -> str:
    result = entry.get("result")
    if "error" in entry or not isinstance(result, dict):
        return _sentence(entry, language)
    change = result.get("change")
    if not isinstance(change, int | float) or isinstance(change, bool):
        return _sentence(entry, language)
    key = "rose" if change > 0 else "fell" if change < 0 else "flat"
    fields = _shown({**result, "change": abs(change)}, language)
    return _T[key][language].format(**fields).replace("\n", " ")


def _window(entry: dict[str, Any]) -> dict[str, str]:
    result, args = entry.get("result"), entry.get("args")
    result = result if isinstance(result, dict) else {}
    args = args if isinstance(args, dict) else {}
    return {k: _show(result.get(k, args.get(k, ""))) for k in ("ticker", "start", "end")}


def _quiet(news: dict[str, Any] | None, events: dict[str, Any] | None, language: str) -> str | None:
    """One sentence for a ticker with no headlines and nothing scheduled, or None."""
    if news is None or events is None:
        return None
    if _headlines_in(news) or "error" in events or not isinstance(events.get("result"), dict):
        return None
    if events["result"].get("events"):
        return None
    window = _window(news)
    return _T["quiet"][language].format(**window, until=_window(events)["end"])


def _headlines_in(entry: dict[str, Any]) -> list[dict[str, Any]]:
    """The headlines a search returned: none for an empty result or the tool's "no news" error
    (the window searched is in its arguments)."""
    result = entry.get("result")
    return list(result.get("news") or []) if isinstance(result, dict) else []


def _summary_news(entry: dict[str, Any], language: str) -> str:
    items = _headlines_in(entry)
    if not items:
        return _T["no_headlines"][language].format(**_window(entry))
    shown = "; ".join(_headline(n, language) for n in items)
    return _T["headlines"][language].format(items=shown, **_window(entry)).replace("\n", " ")


def _summary_events(entry: dict[str, Any], language: str) -> str:
    result = entry.get("result")
    if "error" in entry or not isinstance(result, dict):
        return _sentence(entry, language)
    window = _window(entry)
    frame = {"ticker": window["ticker"], "until": window["end"]}
    items = result.get("events") or []
    if not items:
        return _T["unscheduled"][language].format(**frame)
    shown = "; ".join(_event(e, language) for e in items)
    return _T["scheduled"][language].format(items=shown, **frame).replace("\n", " ")


def _news(result: dict[str, Any], args: dict[str, Any], language: str) -> str:
    frame = {k: _show(result.get(k, args.get(k, ""))) for k in ("ticker", "start", "end")}
    items = result.get("news") or []
    if not items:
        return _T["no_news"][language].format(**frame)
    shown = [_headline(n, language) for n in items]
    return _T["news"][language].format(items="; ".join(shown), **frame)


def _headline(item: dict[str, Any], language: str) -> str:
    return _T["headline"][language].format(**{**_shown(item, language), "headline": _quote(item)})


def _events(result: dict[str, Any], args: dict[str, Any], language: str) -> str:
    frame = {k: _show(result.get(k, args.get(k, ""))) for k in ("ticker", "start", "end")}
    items = result.get("events") or []
    if not items:
        return _T["no_events"][language].format(**frame)
    shown = [_event(event, language) for event in items]
    return _T["events"][language].format(items="; ".join(shown), **frame)


def _event(event: dict[str, Any], language: str) -> str:
    kind = str(event.get("kind"))
    kind = _KINDS.get(language, {}).get(kind, kind)
    template = _T["event_value" if event.get("value") is not None else "event"][language]
    return template.format(
        kind=kind,
        date=_show(event.get("date")),
        value=_show(event.get("value"), language),
    )


def _generic(tool: str, result: dict[str, Any], args: dict[str, Any], language: str) -> str:
    """Any other tool: its scalar fields as `name value` pairs, values exactly as returned."""
    subject = result.get("ticker") or args.get("ticker") or args.get("portfolio_id") or "-"
    pairs = [
        f"{key} {_show(value, language, key)}"
        for key, value in result.items()
        if key not in ("ticker", "note", "price_basis") and isinstance(value, str | int | float)
    ]
    return _T["generic"][language].format(tool=tool, subject=subject, items=", ".join(pairs))


_SENTENCES: dict[str, Sentence] = {
    "get_daily_move": _move,
    "get_position_pnl": _position,
    "search_news": _news,
    "get_events": _events,
}


QUANTITIES = frozenset({"quantity", "shares"})
"""Fields that count shares: a whole count is written without decimals (781, not 781.00)."""


def _show(value: Any, language: str = "en", key: str = "") -> str:
    """A value as the report writes it: a number with the language's separators and at least
    two decimals, its digits never rounded (`contract.number_format`); text stays text."""
    if isinstance(value, bool) or value is None:
        return json.dumps(value)
    if isinstance(value, int | float):
        if key in QUANTITIES:
            return format_quantity(value, language)
        return format_number(value, language)
    return value if isinstance(value, str) else json.dumps(value)


def _shown(fields: dict[str, Any], language: str) -> dict[str, str]:
    return {k: _show(v, language, k) for k, v in fields.items()}


QUOTES = (('"', '"'), ("“", "”"), ("«", "»"))


def _quote(item: dict[str, Any]) -> str:
    """A headline in quotation marks it does not itself contain, so the quote reads whole."""
    headline = str(item.get("headline", ""))
    for left, right in QUOTES:
        if left not in headline and right not in headline:
            return f"{left}{headline}{right}"
    return f"“{headline}”"


def _first_user_text(messages: list[Message]) -> str:
    return next((m.text or "" for m in messages if m.role == "user"), "")


def _results_in(messages: list[Message]) -> list[dict[str, Any]] | None:
    """Tool results the request carries: a drafting block, else the tool turns of the history."""
    for message in messages:
        if message.role == "user" and message.text:
            block = parse_results(message.text)
            if block is not None:
                return block
    calls = {c.id: c for m in messages if m.role == "assistant" for c in m.tool_calls}
    entries = []
    for message in messages:
        for item in message.results if message.role == "tool" else []:
            call = calls.get(item.call_id)
            entries.append(
                _entry(item.name, call.arguments if call else "{}", item.content, item.is_error)
            )
    return entries or None


def _entry(tool: str, arguments: str, content: str, is_error: bool) -> dict[str, Any]:
    try:
        args = json.loads(arguments)
        payload = json.loads(content)
    except ValueError:
        return {"tool": tool, "error": content}
    if is_error:
        return {"tool": tool, "args": args, "error": content}
    return {"tool": tool, "args": args, "result": payload}


def _count_calls(calls: list[ToolCall], model: str) -> int:
    return sum(count_text(f"{c.name}{c.arguments}", model) for c in calls)

"""Every word of a portfolio report besides the verified paragraphs, in each report language.

One table per language, read by the report's view; a new language is a new entry here (and its
number format in `contract.number_format`), not a branch in the renderers.
"""

from __future__ import annotations

from datetime import date, datetime
from string import Formatter
from typing import Final

LABELS: Final[dict[str, dict[str, str]]] = {
    "en": {
        "title": "{name}: {date}",
        "table_unavailable": "Portfolio table unavailable: {error}",
        "basis": "Holdings as of {holdings_as_of}; closes of {date}, prices {basis}.",
        "basis_unknown": "unknown",
        "totals": "Market value {market_value}{currency}, day P&L {day_pnl}, day return "
        "{day_return}.",
        "leaders": "Top contributors: {contributors}. Top detractors: {detractors}.",
        "none": "none",
        "stale": "Stale holdings: the positions are {days} days old (as of {date}); they may "
        "have changed since. Reports warn past {limit} days.",
        "benchmark_above": "Benchmark ({name}) {benchmark} on the day; the portfolio's "
        "{day_return} is {points} percentage points above it.",
        "benchmark_below": "Benchmark ({name}) {benchmark} on the day; the portfolio's "
        "{day_return} is {points} percentage points below it.",
        "benchmark_level": "Benchmark ({name}) {benchmark} on the day, level with the "
        "portfolio's {day_return}.",
        "benchmark_unavailable": "Benchmark ({name}) unavailable: {why}",
        "equal_weight": "equal-weight universe of {count} tickers",
        "col_company": "Company",
        "col_sector": "Sector",
        "col_weight": "Weight",
        "chart_contributions": "Contribution to the day's return, by position (percentage points)",
        "chart_price": "{ticker}: closes from {first} to {last}",
        "since": "Since the last report ({date})",
        "since_value": "Market value {then} then, {now} now: {change} ({pct}).",
        "since_holdings": "Added: {added}. Removed: {removed}.",
        "since_moves": "Largest moves of the closes: {moves}.",
        "since_move": "{ticker} {pct} ({then} to {now})",
        "incomplete": "Incomplete: the totals leave out {tickers}, without a price or day change "
        "on {date} (see the table).",
        "col_ticker": "Ticker",
        "col_quantity": "Quantity",
        "col_close": "Close",
        "col_market_value": "Market value",
        "col_day_pnl": "Day P&L",
        "col_pnl_pct": "P&L %",
        "col_contribution": "Contribution %",
        "unavailable": "unavailable: {error}",
        "material": "Material moves",
        "material_rule": "A move is material when the position's day P&L is at least {move} of "
        "its value or its contribution to the portfolio's day return at least {contribution} "
        "(in absolute terms); largest contribution first.",
        "other": "Other positions with headlines, events or analyst notes",
        "quiet": "No material move, headline or scheduled event: {tickers}.",
        "summary_withheld": "Paragraph withheld ({reason}; case {case}).",
        "summary_missing": "Paragraph withheld: {reason}.",
        "summary_none": "No paragraph tonight: no answer about this position was drafted.",
        "withheld_answer": "Withheld: the {kind} answer ({reason}; case {case}).",
        "approved_answer": "Analyst-approved {kind} answer: {text}",
        "reviewed_answer": "Re-asked {kind} answer: {text}",
        "withheld_none": "No answer was withheld: every answer of this report was verified.",
        "withheld_count": "{count} withheld ({causes}): see the review page, {page}, or run "
        "{command}.",
        "cause_verifier": "{count} rejected by the verifier",
        "cause_budget": "{count} cut by the budget",
        "cause_error": "{count} lost to provider errors",
        "answers_one": "1 answer",
        "answers_many": "{count} answers",
        "paragraphs_one": "1 paragraph",
        "paragraphs_many": "{count} paragraphs",
        "and": " and ",
        "answers_where": "Each verified answer, with the tool results it rests on, is in {json}.",
        "sources": "Sources",
        "kind_move": "move",
        "kind_news": "news",
        "kind_events": "events",
        "kind_position": "position",
        "kind_summary": "summary",
    },
    "es": {
        "title": "{name}: {date}",
        "table_unavailable": "Tabla de la cartera no disponible: {error}",
        "basis": "Posiciones al {holdings_as_of}; cierres del {date}, precios {basis}.",
        "basis_unknown": "desconocidos",
        "totals": "Valor de mercado {market_value}{currency}, resultado del día {day_pnl}, "
        "rendimiento del día {day_return}.",
        "leaders": "Principales contribuidores: {contributors}. Principales detractores: "
        "{detractors}.",
        "none": "ninguno",
        "stale": "Posiciones desactualizadas: tienen {days} días (al {date}); pueden haber "
        "cambiado desde entonces. Los informes avisan pasados {limit} días.",
        "benchmark_above": "Referencia ({name}) {benchmark} en el día; el {day_return} de la "
        "cartera queda {points} puntos porcentuales por encima.",
        "benchmark_below": "Referencia ({name}) {benchmark} en el día; el {day_return} de la "
        "cartera queda {points} puntos porcentuales por debajo.",
        "benchmark_level": "Referencia ({name}) {benchmark} en el día, igual que el "
        "{day_return} de la cartera.",
        "benchmark_unavailable": "Referencia ({name}) no disponible: {why}",
        "equal_weight": "universo equiponderado de {count} tickers",
        "col_company": "Empresa",
        "col_sector": "Sector",
        "col_weight": "Peso",
        "chart_contributions": "Contribución al rendimiento del día, por posición (puntos "
        "porcentuales)",
        "chart_price": "{ticker}: cierres del {first} al {last}",
        "since": "Desde el último informe ({date})",
        "since_value": "Valor de mercado entonces {then}, ahora {now}: {change} ({pct}).",
        "since_holdings": "Nuevas: {added}. Retiradas: {removed}.",
        "since_moves": "Mayores variaciones de los cierres: {moves}.",
        "since_move": "{ticker} {pct} ({then} a {now})",
        "incomplete": "Incompleto: los totales dejan fuera {tickers}, sin precio o variación "
        "del día el {date} (ver la tabla).",
        "col_ticker": "Ticker",
        "col_quantity": "Cantidad",
        "col_close": "Cierre",
        "col_market_value": "Valor de mercado",
        "col_day_pnl": "Resultado del día",
        "col_pnl_pct": "Resultado %",
        "col_contribution": "Contribución %",
        "unavailable": "no disponible: {error}",
        "material": "Movimientos relevantes",
        "material_rule": "Un movimiento es relevante cuando el resultado del día de la posición "
        "es al menos el {move} de su valor o su contribución al rendimiento diario de la cartera "
        "al menos {contribution} (en valor absoluto); primero la mayor contribución.",
        "other": "Otras posiciones con titulares, eventos o notas de analistas",
        "quiet": "Sin movimiento relevante, titulares ni eventos programados: {tickers}.",
        "summary_withheld": "Párrafo retenido ({reason}; caso {case}).",
        "summary_missing": "Párrafo retenido: {reason}.",
        "summary_none": "Sin párrafo esta noche: no se redactó ninguna respuesta sobre esta posición.",
        "withheld_answer": "Retenida: la respuesta de {kind} ({reason}; caso {case}).",
        "approved_answer": "Respuesta de {kind} aprobada por un analista: {text}",
        "reviewed_answer": "Respuesta de {kind} repreguntada: {text}",
        "withheld_none": "No se retuvo ninguna respuesta: todas las de este informe se "
        "verificaron.",
        "withheld_count": "Retenidos: {count} ({causes}); ver la página de revisión, {page}, o "
        "ejecutar {command}.",
        "cause_verifier": "{count} rechazados por el verificador",
        "cause_budget": "{count} cortados por el presupuesto",
        "cause_error": "{count} perdidos por errores del proveedor",
        "answers_one": "1 respuesta",
        "answers_many": "{count} respuestas",
        "paragraphs_one": "1 párrafo",
        "paragraphs_many": "{count} párrafos",
        "and": " y ",
        "answers_where": "Cada respuesta verificada, con los resultados de herramientas en que "
        "se apoya, está en {json}.",
        "sources": "Fuentes",
        "kind_move": "movimiento",
        "kind_news": "noticias",
        "kind_events": "eventos",
        "kind_position": "posición",
        "kind_summary": "resumen",
    },
}

BASES: Final[dict[str, dict[str, str]]] = {
    "es": {
        "as traded": "tal como cotizaron",
        "split-adjusted by the vendor": "ajustados por splits",
    }
}
"""The price bases the tools name (`tools.prices.BASIS_NAMES`), in each language but English."""


MONTHS: Final[dict[str, tuple[str, ...]]] = {
    "en": ("Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"),
    "es": ("ene", "feb", "mar", "abr", "may", "jun", "jul", "ago", "sept", "oct", "nov", "dic"),
}
SESSIONS: Final[dict[str, dict[str, str]]] = {
    "en": {"before": "before the open", "during": "during the session",
           "after": "after the close", "closed": "market closed"},
    "es": {"before": "antes de la apertura", "during": "durante la sesión",
           "after": "tras el cierre", "closed": "mercado cerrado"},
}  # fmt: skip
"""When a headline came, against the exchange's session (`tools.news.session_of`)."""


def short_date(day: date, language: str, year: bool = False) -> str:
    """A date as people write it: Dec 30 (2015) in English, 30 dic (2015) in Spanish."""
    month = MONTHS.get(language, MONTHS["en"])[day.month - 1]
    text = f"{day.day} {month}" if language == "es" else f"{month} {day.day}"
    if year:
        text += f" {day.year}" if language == "es" else f", {day.year}"
    return text


def moment(stamp: datetime, session: str, language: str) -> str:
    """A headline's time as people write it, on the exchange's clock it was stamped with:
    `Dec 30, 14:22, during the session` or `30 dic, 14:22, durante la sesión`."""
    when = SESSIONS.get(language, SESSIONS["en"]).get(session)
    day = short_date(stamp.date(), language)
    text = f"{day}, {stamp:%H:%M}"
    return f"{text}, {when}" if when else text


def label(language: str, key: str, **values: str) -> str:
    """The report's words for `key` in `language` (English for a language without a table)."""
    words = LABELS.get(language, LABELS["en"])
    return words[key].format(**values) if values else words[key]


def label_parts(language: str, key: str) -> list[tuple[str, str | None]]:
    """The words for `key` as (text, placeholder) pairs, for a renderer that lays out some
    placeholders itself (a link, a command)."""
    words = LABELS.get(language, LABELS["en"])
    return [(text, name) for text, name, _, _ in Formatter().parse(words[key])]


def kind_label(language: str, kind: str) -> str:
    return LABELS.get(language, LABELS["en"]).get(f"kind_{kind}", kind)


def basis_label(language: str, basis: str) -> str:
    return BASES.get(language, {}).get(basis, basis)

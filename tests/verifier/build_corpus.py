"""Build the verifier's golden corpus from the REAL tools on a generated data set.

Run from the repository root: `.venv/bin/python -m tests.verifier.build_corpus`. It writes one
JSONL file per family under `tests/verifier/cases/`; each line is
`{"id", "expect": {"accepted", "rules"}, "trace"}`. Every figure in a trace is what the tools
returned; only the drafts are written here: faithful ones (English and Spanish, several number
formats) and corrupted ones that each break one rule.
"""

# ruff: noqa: B023  (each `mk` helper is called inside its own loop iteration)
from __future__ import annotations

import itertools
import json
import tempfile
from collections.abc import Callable, Iterator
from datetime import date
from pathlib import Path
from typing import Any

from contract.trace import Trace
from data.generate import generate_dataset
from tools.catalog import Catalog, open_catalog
from tools.registry import call_tool
from verifier.grammar.quotes import normalise_headline

CASES = Path(__file__).parent / "cases"
REPORT = date(2024, 3, 28)
DAYS = ("2024-03-27", "2024-03-26", "2024-03-25", "2024-03-22", "2024-03-21", "2024-03-20")
MONTHS_EN = "January February March April May June July August September October November December"
MONTHS_ES = (
    "enero febrero marzo abril mayo junio julio agosto septiembre octubre noviembre diciembre"
)


class Recorder:
    """Calls real tools and keeps the events of one trace."""

    def __init__(self, cat: Catalog) -> None:
        self.cat, self.events = cat, []  # type: ignore[var-annotated]

    def __call__(self, tool: str, **args: Any) -> dict[str, Any]:
        result = call_tool(self.cat, tool, args)
        event: dict[str, Any] = {"id": f"e{len(self.events) + 1}", "tool": tool, "args": args}
        if "error" in result:
            event["error"] = result["error"]
        else:
            event["result"] = result
        self.events.append(event)
        return result


def en_date(iso: str, short: bool = False) -> str:
    y, m, d = (int(x) for x in iso.split("-"))
    month = MONTHS_EN.split()[m - 1]
    return f"{month[:3]} {d}" if short else f"{month} {d}, {y}"


def es_date(iso: str) -> str:
    y, m, d = (int(x) for x in iso.split("-"))
    return f"{d} de {MONTHS_ES.split()[m - 1]} de {y}"


def next_day(iso: str) -> str:
    """The calendar day after a session: a date no result of that question holds."""
    return date.fromordinal(date.fromisoformat(iso).toordinal() + 1).isoformat()


def es_num(x: float, decimals: int = 2) -> str:
    return f"{x:,.{decimals}f}".replace(",", "_").replace(".", ",").replace("_", ".")


def case(
    family: str,
    name: str,
    question: str,
    events: list[dict[str, Any]],
    draft: str | None,
    rules: list[str],
    requires: list[str] | None = None,
    full: bool = False,
    stop: str = "answered",
) -> dict[str, Any]:
    trace: dict[str, Any] = {
        "question": question,
        "requires": requires or [],
        "events": list(events),
        "draft": draft,
        "stop_reason": stop if draft else "max_steps",
    }
    if full:
        trace = Trace(question_id=name, **trace).model_dump(mode="json")
    return {
        "id": f"{family}/{name}",
        "expect": {"accepted": not rules, "rules": sorted(set(rules))},
        "trace": trace,
    }


def move_cases(cat: Catalog, tickers: list[str]) -> Iterator[dict[str, Any]]:
    """Day-move questions: faithful drafts and every single-rule corruption of them."""
    for i, (ticker, day) in enumerate(zip(tickers, DAYS * 3, strict=False)):
        rec = Recorder(cat)
        m = rec("get_daily_move", ticker=ticker, date=day)
        q = f"How did {ticker} close on {day}, and what was its day change?"
        ev, req, full = rec.events, ["percentage"], i % 3 == 0
        up = m["change"] >= 0
        word, mot = ("rose", "subió") if up else ("fell", "cayó")
        bad_word, bad_mot = ("fell", "cayó") if up else ("rose", "subió")
        pct, close, prev = abs(m["change_pct"]), m["close"], m["previous_close"]
        s = m["session"]

        def mk(n: str, d: str | None, r: list[str], **kw: Any) -> dict[str, Any]:
            return case("move", f"{ticker}-{s}-{n}", q, ev, d, r, req, full, **kw)

        yield mk(
            "en-iso",
            f"{ticker} closed at ${close:.2f} on {s}, {word} {pct:.2f}% from {prev:.2f}.",
            [],
        )
        yield mk(
            "en-long",
            f"On {en_date(s)}, {ticker} {word} {pct:.2f} percent to close at {close:,.2f}.",
            [],
        )
        yield mk(
            "en-rounded",
            f"{ticker} {word} {pct:.1f}% on {en_date(s, True)}, closing at {close:.1f}.",
            [],
        )
        yield mk(
            "en-signed",
            f"{ticker}: close {close:.2f}, day change {m['change']:+.2f} ({m['change_pct']:+.2f}%).",
            [],
        )
        yield mk(
            "es",
            f"{ticker} cerró a {es_num(close)} USD el {es_date(s)}; {mot} un {es_num(pct)} % frente a {es_num(prev)}.",
            [],
        )
        yield mk(
            "es-pct",
            f"El {es_date(s)}, {ticker} {mot} {es_num(pct)} por ciento y cerró en {es_num(close)} dólares.",
            [],
        )
        yield mk(
            "en-after",
            f"{ticker} closed {pct:.2f}% {'higher' if up else 'lower'} on {s}, at {close:.2f}.",
            [],
        )
        tenth = round(pct, 1)
        if tenth != pct:  # a bound the exact value keeps, and the same bound turned around
            kept, broken = ("over", "under") if tenth < pct else ("under", "over")
            yield mk("en-bound", f"{ticker} {word} {kept} {tenth:.1f}% on {s}.", [])
            yield mk(
                "bad-bound",
                f"{ticker} {word} {broken} {tenth:.1f}% on {s}.",
                ["unsupported_figure"],
            )
        yield mk(
            "bad-previous-as-close",
            f"{ticker} closed at {prev:.2f} on {s}, {word} {pct:.2f}%.",
            ["wrong_time"],
        )
        yield mk(
            "bad-direction-synonym",
            f"{ticker} {'tumbled' if up else 'surged'} {pct:.2f}% on {s} to {close:.2f}.",
            ["wrong_direction"],
        )
        yield mk(
            "bad-direction-after",
            f"{ticker} closed {pct:.2f}% {'lower' if up else 'higher'} on {s}.",
            ["wrong_direction"],
        )
        digit = f"{close + (0.09 if close % 1 < 0.9 else -0.09):.2f}"
        yield mk(
            "bad-digit",
            f"{ticker} closed at ${digit} on {s}, {word} {pct:.2f}%.",
            ["unsupported_figure"],
        )
        wrong = (
            f"{int(close * 10) / 10 + (0.1 if round(close, 1) <= int(close * 10) / 10 else 0):.1f}"
        )
        if round(close, 1) == float(wrong):
            wrong = f"{float(wrong) + 0.1:.1f}"
        yield mk(
            "bad-rounding",
            f"{ticker} closed at {wrong} on {s}, {word} {pct:.2f}%.",
            ["unsupported_figure"],
        )
        yield mk(
            "bad-sign",
            f"{ticker} closed at {close:.2f} on {s}, a change of {-m['change_pct']:+.2f}%.",
            ["unsupported_figure"],
        )
        yield mk(
            "bad-direction",
            f"{ticker} {bad_word} {pct:.2f}% on {s} to close at {close:.2f}.",
            ["wrong_direction"],
        )
        yield mk(
            "bad-direction-es",
            f"{ticker} {bad_mot} un {es_num(pct)} % el {es_date(s)}.",
            ["wrong_direction"],
        )
        yield mk(
            "bad-close-as-pct", f"{ticker} {word} {close:.2f}% on {s}.", ["uncomputed_percentage"]
        )
        yield mk(
            "bad-pct-times-100", f"{ticker} {word} {pct * 100:.2f}% on {s}.", ["unsupported_figure"]
        )
        if abs(m["change"]) >= 0.1 and abs(abs(m["change"]) - pct) > 0.01:
            yield mk(
                "bad-change-as-pct",
                f"{ticker} {word} {abs(m['change']):.2f}% on {s}.",
                ["uncomputed_percentage"],
            )
        yield mk(
            "bad-date",
            f"{ticker} closed at {close:.2f} on {next_day(s)}, {word} {pct:.2f}%.",
            ["unsupported_date"],
        )
        yield mk("missing-pct", f"{ticker} closed at {close:.2f} on {s}.", ["missing_answer"])
        yield mk("no-draft", None, ["no_draft"])


def news_cases(cat: Catalog, tickers: list[str]) -> Iterator[dict[str, Any]]:
    """Headline questions: quoted headlines verbatim, altered, and a ticker nobody looked up."""
    for ticker in tickers:
        rec = Recorder(cat)
        m = rec("get_daily_move", ticker=ticker, date=DAYS[0])
        n = rec("search_news", ticker=ticker, start="2024-03-10", end=DAYS[0], limit=3)
        if not n.get("news"):
            continue
        head = n["news"][0]["headline"]
        q = f"Which recent headlines could explain the move of {ticker} on {DAYS[0]}?"
        pct = m["change_pct"]
        word = "rose" if pct >= 0 else "fell"

        def mk(name: str, d: str, r: list[str]) -> dict[str, Any]:
            return case("news", f"{ticker}-{name}", q, rec.events, d, r, ["percentage"])

        yield mk(
            "en",
            f'{ticker} {word} {abs(pct):.2f}% on {DAYS[0]}; the latest headline was "{head}".',
            [],
        )
        yield mk(
            "es", f"{ticker} varió un {es_num(pct)} % el {es_date(DAYS[0])}. Titular: «{head}».", []
        )
        altered = head.replace(" ", " new ", 1)
        yield mk(
            "bad-headline",
            f"{ticker} {word} {abs(pct):.2f}% after “{altered}”.",
            ["unknown_headline"],
        )
        other = next(t for t in tickers if t != ticker)
        yield mk(
            "bad-ticker",
            f'{ticker} {word} {abs(pct):.2f}%, in line with {other}; "{head}".',
            ["unknown_ticker", "unverified_claim"],  # "in line with": a comparison unchecked
        )
        times = [x["published_at"][:16] for x in n["news"][:2]]
        second = n["news"][1]["headline"] if len(n["news"]) > 1 else head
        if len(set(times)) == 2 and normalise_headline(second) != normalise_headline(head):
            yield mk(
                "timed",
                f'{ticker} {word} {abs(pct):.2f}%: "{head}" ({times[0]}Z), after "{second}" '
                f"({times[1]}Z).",
                [],
            )
            yield mk(
                "bad-swapped-times",
                f'{ticker} {word} {abs(pct):.2f}%: "{head}" ({times[1]}Z), after "{second}" '
                f"({times[0]}Z).",
                ["wrong_time"],
            )


def position_cases(cat: Catalog, tickers: list[str]) -> Iterator[dict[str, Any]]:
    """Position P&L: money in several formats, bps, and a figure from another ticker's result."""
    for t1, t2 in itertools.pairwise(tickers[:5]):
        rec = Recorder(cat)
        a = rec("get_position_pnl", portfolio_id="P001", ticker=t1, date=DAYS[0])
        b = rec("get_position_pnl", portfolio_id="P001", ticker=t2, date=DAYS[0])
        if "error" in a or "error" in b:
            continue
        q = f"What did the {t1} position contribute to portfolio P001 on {DAYS[0]}?"
        pnl, mv = a["day_pnl"], a["market_value"]
        word = "gained" if pnl >= 0 else "lost"

        def mk(name: str, d: str, r: list[str]) -> dict[str, Any]:
            return case("position", f"{t1}-{name}", q, rec.events, d, r, ["percentage"], full=True)

        yield mk(
            "en",
            f"The {t1} position {word} ${abs(pnl):,.2f} ({abs(a['pnl_pct']):.2f}%) on {DAYS[0]}, "
            f"contributing {a['contribution_pct']:+.2f}% to P001; market value ${mv:,.2f}.",
            [],
        )
        yield mk(
            "en-scaled",
            f"{t1}: market value ${mv / 1e6:.2f}M, day P&L {pnl:+,.0f} USD, "
            f"{a['contribution_pct'] * 100:+.0f} bps of the portfolio ({a['pnl_pct']:+.1f}%).",
            [],
        )
        yield mk(
            "es",
            f"La posición en {t1} aportó {es_num(a['contribution_pct'])} % a P001 el {es_date(DAYS[0])}, "
            f"con un valor de mercado de {es_num(mv)} USD.",
            [],
        )
        yield mk(
            "bad-contribution-times-100",
            f"The {t1} position contributed {a['contribution_pct'] * 100:+.2f}% to P001 on {DAYS[0]}.",
            ["unsupported_figure"],
        )
        yield mk(
            "bad-other-ticker",
            f"The {t1} position was worth ${b['market_value']:,.2f} on {DAYS[0]}, "
            f"{a['contribution_pct']:+.2f}% of P001.",
            ["wrong_subject"],
        )


def change_cases(cat: Catalog, tickers: list[str]) -> Iterator[dict[str, Any]]:
    """Changes over a window, percentages from `calculate` (also as a fraction) and SQL rows."""
    for ticker in tickers[:4]:
        rec = Recorder(cat)
        c = rec("get_price_change", ticker=ticker, start="2024-02-01", end=DAYS[0])
        f = rec(
            "calculate", expression=f"({c['end_close']} - {c['start_close']}) / {c['start_close']}"
        )
        q = f"How much did {ticker} move between 2024-02-01 and {DAYS[0]}?"
        word = "rose" if c["change"] >= 0 else "fell"

        def mk(name: str, d: str, r: list[str]) -> dict[str, Any]:
            return case("change", f"{ticker}-{name}", q, rec.events, d, r, ["percentage"])

        yield mk(
            "en",
            f"{ticker} {word} {abs(c['change_pct']):.2f}% from {c['start_close']:.2f} on "
            f"{en_date(c['start_session'])} to {c['end_close']:.2f} on {c['end_session']}.",
            [],
        )
        yield mk(
            "fraction",
            f"Between {c['start_session']} and {c['end_session']} {ticker} {word} "
            f"{abs(f['value']) * 100:.1f}%.",
            [],
        )
        yield mk(
            "es",
            f"{ticker} {'subió' if word == 'rose' else 'cayó'} un {es_num(abs(c['change_pct']))} % "
            f"entre el {es_date(c['start_session'])} y el {es_date(c['end_session'])}.",
            [],
        )
        yield mk(
            "bad-digit",
            f"{ticker} {word} {abs(c['change_pct']) + 0.3:.2f}% since 2024-02-01.",
            ["unsupported_figure"],
        )
    rec = Recorder(cat)
    sql = f"select ticker, close from prices where date = '{DAYS[0]}' order by ticker limit 3"
    rows = rec("run_sql", sql=sql)["rows"]
    q = f"Which tickers closed where on {DAYS[0]}?"
    text = ", ".join(f"{t} at {v:.2f}" for t, v in rows)
    yield case("change", "sql-en", q, rec.events, f"On {DAYS[0]}: {text}.", [])
    swapped = f"{rows[0][0]} at {rows[1][1]:.2f}"
    yield case(
        "change", "sql-bad-swap", q, rec.events, f"On {DAYS[0]}: {swapped}.", ["wrong_subject"]
    )


def failure_cases(cat: Catalog, tickers: list[str]) -> Iterator[dict[str, Any]]:
    """Failed lookups: the classic "$10" for a ticker whose lookup failed, and a recovered one."""
    rec = Recorder(cat)
    rec("get_price", ticker="ZZZZ", date=DAYS[0])
    q = f"How did ZZZZ close on {DAYS[0]}?"
    yield case(
        "failure",
        "ZZZZ-classic-10",
        q,
        rec.events,
        "ZZZZ closed at $10 on March 27, 2024.",
        ["unresolved_error"],
    )
    yield case(
        "failure",
        "ZZZZ-says-unavailable",
        q,
        rec.events,
        "The price of ZZZZ is unavailable: the lookup failed.",
        [],
    )
    for ticker in tickers[:3]:
        rec = Recorder(cat)
        rec("get_daily_move", ticker=ticker, date="2023-01-03")
        q = f"How did {ticker} close on {DAYS[0]}, and what was its day change?"
        yield case(
            "failure",
            f"{ticker}-bad-date",
            q,
            rec.events,
            f"{ticker} closed at $10, up 2.5%.",
            ["unresolved_error"],
            ["percentage"],
        )
        good = rec("get_daily_move", ticker=ticker, date=DAYS[0])
        yield case(
            "failure",
            f"{ticker}-recovered",
            q,
            rec.events,
            f"{ticker} closed at {good['close']:.2f}, a change of {good['change_pct']:+.2f}%.",
            [],
            ["percentage"],
        )
        yield case(
            "failure",
            f"{ticker}-recovered-invented",
            q,
            rec.events,
            f"{ticker} closed at {good['close'] + 1.11:.2f}, a change of {good['change_pct']:+.2f}%.",
            ["unsupported_figure"],
            ["percentage"],
        )
    rec = Recorder(cat)
    first = rec("get_price", ticker=tickers[0], date=DAYS[1])
    second = rec("get_price", ticker=tickers[0], date=DAYS[0])
    q = f"How did {tickers[0]} change from {DAYS[1]} to {DAYS[0]}?"
    yield case(
        "failure",
        "classic-27-88",
        q,
        rec.events,
        f"{tickers[0]} went from {first['close']:.2f} to {second['close']:.2f}, a change of {second['close']:.2f}%.",
        ["uncomputed_percentage"],
        ["percentage"],
    )


def events_cases(cat: Catalog, tickers: list[str]) -> Iterator[dict[str, Any]]:
    """Event calendars: each event's day and figure named by its kind, and the kinds swapped."""
    for ticker in tickers:
        rec = Recorder(cat)
        listed = rec("get_events", ticker=ticker, start="2024-01-02", end="2024-06-30")
        events = listed.get("events", [])
        kinds = {e["kind"]: e for e in events}
        if len(kinds) < 2:
            continue
        (k1, e1), (k2, e2) = sorted(kinds.items())[:2]
        q = f"Which events does {ticker} have between 2024-01-02 and 2024-06-30?"

        def mk(name: str, d: str, r: list[str]) -> dict[str, Any]:
            return case("events", f"{ticker}-{name}", q, rec.events, d, r, ["date"])

        yield mk("en", f"{ticker}: {k1} on {e1['date']}, {k2} on {en_date(e2['date'])}.", [])
        es = {
            "dividend": "dividendo",
            "earnings": "resultados",
            "split": "desdoblamiento",
        }
        yield mk(
            "es",
            f"{ticker}: {es[k1]} el {es_date(e1['date'])}; {es[k2]} el {es_date(e2['date'])}.",
            [],
        )
        yield mk(
            "bad-kinds-swapped-es",
            f"Eventos de {ticker}: {es[k1]} el {e2['date']}; {es[k2]} el {e1['date']}.",
            ["wrong_event_day"],
        )
        yield mk(
            "bad-kinds-swapped",
            f"{ticker}: {k1} on {e2['date']}, {k2} on {en_date(e1['date'])}.",
            ["wrong_event_day"],
        )
        valued = [(k, e) for k, e in kinds.items() if k != "split" and e["value"]]
        if valued and len(kinds) > 1:
            kind, event = valued[0]
            other = next(k for k in ("earnings", "dividend") if k != kind)
            yield mk(
                "bad-figure-kind",
                f"{ticker} has {other} of ${event['value']:.2f} on {event['date']}.",
                ["wrong_event_day", "wrong_field"]
                if event["date"] not in {e["date"] for e in events if e["kind"] == other}
                else ["wrong_field"],
            )


FAMILIES: tuple[Callable[[Catalog, list[str]], Iterator[dict[str, Any]]], ...] = (
    move_cases,
    news_cases,
    position_cases,
    change_cases,
    failure_cases,
    events_cases,
)


def build(out: Path = CASES) -> dict[str, int]:
    """Generate data, run the tools, write one JSONL per family; return the count per family."""
    with tempfile.TemporaryDirectory() as tmp:
        data = Path(tmp) / "data"
        generate_dataset(
            data, tickers=12, start=date(2024, 1, 2), end=date(2024, 3, 29), portfolios=2, seed=7
        )
        cat = open_catalog(data, REPORT, workdir=Path(tmp) / "catalog")
        try:
            holdings = call_tool(cat, "get_portfolio", {"portfolio_id": "P001"})["holdings"]
            tickers = [h["ticker"] for h in holdings]
            out.mkdir(parents=True, exist_ok=True)
            counts = {}
            from tests.verifier.corpus_bound import bound_cases  # it builds on this module

            for family in (*FAMILIES, bound_cases):
                name = family.__name__.removesuffix("_cases")
                rows = list(family(cat, tickers))
                (out / f"{name}.jsonl").write_text(
                    "".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows)
                )
                counts[name] = len(rows)
            return counts
        finally:
            cat.close()


if __name__ == "__main__":
    print(build())

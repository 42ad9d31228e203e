"""Build `closed_world/held_out.jsonl`: drafts in the phrasing other models use, over the real
traces of `closed_world/free_form_traces.json` (a sample night whose plans call the ranks, the
trend and the company), each kind with faithful paraphrases beside corrupted ones.

The phrasings here were written apart from the two other corpora (`drafts.jsonl` is patterned
on the night's own answers, `free_form.jsonl` written one by one): bullet lists, bold labels,
appositions, parentheticals, hedges, passive voice, currencies after the amount, Spanish
number formats. Every figure is taken from the trace and formatted here; a corrupted draft has
exactly one thing wrong, named in `why`. Run it to rewrite the corpus:

    .venv/bin/python -m tests.verifier.build_held_out
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

HERE = Path(__file__).parent / "closed_world"
TRACES: dict[str, dict[str, Any]] = json.loads((HERE / "free_form_traces.json").read_text())
Draft = tuple[str, str, str, str]
"""(label, lang, draft, why)"""

ORD_EN = ["", "", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth", "ninth"]
ORD_NUM = ["", "1st", "2nd", "3rd", "4th", "5th", "6th", "7th", "8th", "9th", "10th"]
NUM_EN = ["zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine"]
NUM_ES = ["cero", "una", "dos", "tres", "cuatro", "cinco", "seis", "siete", "ocho", "nueve"]
ORD_ES = ["", "", "segunda", "tercera", "cuarta", "quinta", "sexta", "séptima", "octava"]


def en(x: float, d: int = 2) -> str:
    return f"{abs(x):,.{d}f}"


def es(x: float, d: int = 2) -> str:
    return f"{abs(x):,.{d}f}".replace(",", "_").replace(".", ",").replace("_", ".")


def sign(x: float) -> str:
    return "+" if x > 0 else "-" if x < 0 else ""


def result(trace: dict[str, Any], tool: str) -> dict[str, Any]:
    return next(e["result"] for e in trace["events"] if e["tool"] == tool and "result" in e)


def window(trend: dict[str, Any], name: str) -> dict[str, Any]:
    return next(c for c in trend["changes"] if c["window"] == name)


def bump(x: float) -> float:
    """A figure changed in a way a careless draft changes it: a digit, not a rounding."""
    return x + (0.37 if x >= 0 else -0.37) if abs(x) < 20 else x * 1.06


def move_drafts(t: str, tr: dict[str, Any], r: random.Random) -> Iterator[tuple[str, Draft]]:
    m = result(tr, "get_daily_move")
    trend = result(tr, "get_trend")
    co = result(tr, "get_company")
    close, prev, ch, pct = m["close"], m["previous_close"], m["change"], m["change_pct"]
    up = pct > 0
    word, other = ("up", "down") if up else ("down", "up")
    higher = "higher" if up else "lower"
    name, sector = co["name"], co["sector"]
    wk, mo, ytd = (window(trend, w) for w in ("week", "month", "year_to_date"))
    streak = trend["streak"]
    n = streak["sessions"]

    # move: the day's close and change, in prose, bullets and bold labels
    yield (
        "move",
        (
            "faithful",
            "en",
            f"**{t}** finished the session at ${en(close)}, "
            f"{word} {en(pct)}% from the prior close of ${en(prev)}.",
            "",
        ),
    )
    yield (
        "move",
        (
            "faithful",
            "en",
            f"- **Close:** ${en(close)}\n- **Change:** "
            f"{'+' if up else '-'}{en(ch)} ({'+' if up else '-'}{en(pct)}%)\n"
            f"- **Previous close:** ${en(prev)}",
            "",
        ),
    )
    yield (
        "move",
        (
            "faithful",
            "es",
            f"{t} cerró en {es(close)} dólares, un "
            f"{es(pct)} % {'por encima' if up else 'por debajo'} del cierre anterior "
            f"({es(prev)} dólares).",
            "",
        ),
    )
    yield (
        "move",
        (
            "faithful",
            "en",
            f"Shares of {t} ended {higher} on Tuesday, closing at "
            f"{en(close)} (a {en(pct)}% {'gain' if up else 'decline'}).",
            "",
        ),
    )
    yield (
        "move",
        (
            "corrupted",
            "en",
            f"**{t}** finished the session at ${en(close)}, "
            f"{other} {en(pct)}% from the prior close of ${en(prev)}.",
            "direction flipped",
        ),
    )
    yield (
        "move",
        (
            "corrupted",
            "es",
            f"{t} cerró en {es(bump(close))} dólares, con una "
            f"variación de {es(pct)} % frente al cierre anterior.",
            "close changed",
        ),
    )
    yield (
        "move",
        (
            "corrupted",
            "en",
            f"{t} closed at ${en(prev)} on December 31, {word} {en(pct)}% on the day.",
            "previous close given as the close",
        ),
    )
    yield (
        "move",
        (
            "corrupted",
            "en",
            f"Shares of {t} ended the day {en(bump(pct))}% {higher} at {en(close)}.",
            "percentage changed",
        ),
    )

    # hedges: a rounded figure stays checked
    yield (
        "hedge",
        (
            "faithful",
            "en",
            f"{t} moved roughly {en(pct, 1)}% {higher} today, to about ${en(close, 0)} a share.",
            "",
        ),
    )
    yield (
        "hedge",
        (
            "faithful",
            "es",
            f"{t} terminó la jornada en torno a {es(close, 1)} "
            f"dólares, aproximadamente un {es(pct, 1)} % {'más' if up else 'menos'}.",
            "",
        ),
    )
    yield (
        "hedge",
        (
            "faithful",
            "en",
            f"At close to ${en(close, 1)}, {t} was {word} "
            f"approximately {en(pct, 1)}% on the session.",
            "",
        ),
    )
    yield (
        "hedge",
        (
            "corrupted",
            "en",
            f"{t} moved roughly {en(pct + (1 if up else -1), 1)}% "
            f"{higher} today, to about ${en(close, 0)} a share.",
            "hedged figure wrong",
        ),
    )
    yield (
        "hedge",
        (
            "corrupted",
            "es",
            f"{t} terminó la jornada en torno a {es(close * 1.1, 1)} dólares.",
            "hedged close wrong",
        ),
    )
    yield (
        "hedge",
        (
            "corrupted",
            "en",
            f"{t} likely rallied on bargain hunting and should "
            f"extend gains, closing near ${en(close, 0)}.",
            "a cause and a forecast",
        ),
    )

    # streaks and windows from get_trend
    dir_en = "gain" if streak["direction"] == "up" else "decline"
    if n >= 2:
        yield (
            "streak",
            (
                "faithful",
                "en",
                f"{t} has now closed {streak['direction']} for {NUM_EN[n]} sessions in a row.",
                "",
            ),
        )
        yield (
            "streak",
            (
                "faithful",
                "es",
                f"{t} encadena {NUM_ES[n]} sesiones consecutivas "
                f"{'al alza' if streak['direction'] == 'up' else 'a la baja'}.",
                "",
            ),
        )
        yield (
            "streak",
            (
                "corrupted",
                "en",
                f"That marks a {ORD_EN[n + 1]} straight {dir_en} for {t}.",
                "streak one longer",
            ),
        )
    else:
        yield (
            "streak",
            (
                "corrupted",
                "en",
                f"{t} extended its streak to a third consecutive {dir_en}.",
                "streak of one said to be three",
            ),
        )
        yield (
            "streak",
            (
                "corrupted",
                "es",
                f"{t} suma tres sesiones seguidas "
                f"{'al alza' if streak['direction'] == 'up' else 'a la baja'}.",
                "streak of one said to be three",
            ),
        )
    wname = "past week"
    if wk["change_pct"] == 0:  # a flat week has no direction to flip
        wk, wname = window(trend, "quarter"), "quarter"
    wup = wk["change_pct"] > 0
    yield (
        "trend",
        (
            "faithful",
            "en",
            f"Over the {wname} {t} is {'up' if wup else 'down'} "
            f"{en(wk['change_pct'])}%, and year-to-date the stock has "
            f"{'gained' if ytd['change_pct'] > 0 else 'lost'} {en(ytd['change_pct'])}%.",
            "",
        ),
    )
    yield (
        "trend",
        (
            "faithful",
            "es",
            f"En el mes, {t} acumula una "
            f"{'subida' if mo['change_pct'] > 0 else 'caída'} del "
            f"{es(mo['change_pct'])} %.",
            "",
        ),
    )
    yield (
        "trend",
        (
            "faithful",
            "en",
            f"On a one-month view, the shares have moved from "
            f"{en(mo['start_close'])} to {en(mo['end_close'])}.",
            "",
        ),
    )
    yield (
        "trend",
        (
            "corrupted",
            "en",
            f"Over the {wname} {t} is {'down' if wup else 'up'} {en(wk['change_pct'])}%.",
            "week's direction flipped",
        ),
    )
    yield (
        "trend",
        (
            "corrupted",
            "en",
            f"For the month, {t} shares are "
            f"{'up' if mo['change_pct'] > 0 else 'down'} {en(wk['change_pct'])}%.",
            "the week's change given as the month's",
        ),
    )
    yield (
        "trend",
        (
            "corrupted",
            "es",
            f"En lo que va de año, {t} "
            f"{'sube' if ytd['change_pct'] > 0 else 'cae'} un "
            f"{es(bump(ytd['change_pct']))} %.",
            "ytd figure changed",
        ),
    )

    # time words relative to Tuesday 2024-12-31
    yield (
        "time_words",
        (
            "faithful",
            "en",
            f"Today {t} closed at {en(close)}; on Monday it had finished at {en(prev)}.",
            "",
        ),
    )
    yield (
        "time_words",
        (
            "faithful",
            "es",
            f"Hoy {t} cerró en {es(close)} dólares, frente a los {es(prev)} de ayer.",
            "",
        ),
    )
    yield (
        "time_words",
        ("faithful", "en", f"{t}'s previous close, on Monday, Dec. 30, was ${en(prev)}.", ""),
    )
    yield (
        "time_words",
        (
            "corrupted",
            "en",
            f"Yesterday {t} closed at {en(close)}.",
            "today's close said of yesterday",
        ),
    )
    yield (
        "time_words",
        (
            "corrupted",
            "es",
            f"El lunes {t} cerró en {es(close)} dólares.",
            "today's close said of Monday",
        ),
    )
    yield (
        "time_words",
        (
            "corrupted",
            "en",
            f"On Wednesday, December 31, {t} closed at {en(close)}.",
            "wrong weekday",
        ),
    )

    # external facts: the name and sector are the trace's, ratings and ratios are not
    yield (
        "external",
        (
            "faithful",
            "en",
            f"{name} ({t}), part of the {sector} sector, closed at {en(close)}.",
            "",
        ),
    )
    yield (
        "external",
        ("faithful", "es", f"{name} ({t}), del sector {sector}, cerró en {es(close)} dólares.", ""),
    )
    yield (
        "external",
        (
            "corrupted",
            "en",
            f"{name} ({t}) closed at {en(close)}; the stock trades at 18 times forward earnings.",
            "valuation ratio",
        ),
    )
    yield (
        "external",
        (
            "corrupted",
            "en",
            f"{t} closed at {en(close)}. Wall Street remains "
            f"bullish, with a consensus Overweight rating.",
            "analyst rating",
        ),
    )
    yield (
        "external",
        (
            "corrupted",
            "es",
            f"{t} cerró en {es(close)} dólares; los analistas "
            f"mantienen la recomendación de compra.",
            "analyst rating",
        ),
    )
    other_sector = "Utilities" if sector != "Utilities" else "Energy"
    yield (
        "external",
        (
            "corrupted",
            "en",
            f"{name} ({t}), part of the {other_sector} sector, closed at {en(close)}.",
            "wrong sector",
        ),
    )

    # derived figures: operands named in the sentence
    yield (
        "derived",
        (
            "faithful",
            "en",
            f"From ${en(prev)} to ${en(close)}, {t} moved ${en(close - prev)} a share.",
            "",
        ),
    )
    yield (
        "derived",
        (
            "faithful",
            "es",
            f"La diferencia entre el cierre ({es(close)}) y el "
            f"anterior ({es(prev)}) es de {es(close - prev)} dólares.",
            "",
        ),
    )
    yield (
        "derived",
        (
            "corrupted",
            "en",
            f"From ${en(prev)} to ${en(close)}, {t} moved ${en(abs(close - prev) + 0.5)} a share.",
            "difference miscomputed",
        ),
    )
    yield (
        "derived",
        ("corrupted", "en", f"{t} moved ${en(abs(ch) * 2)} on the day.", "an operand not named"),
    )

    # number words
    spelled = {1: "one", 2: "two", 3: "three", 4: "four", 5: "five", 6: "six"}
    whole = round(abs(pct))
    if whole in spelled and abs(abs(pct) - whole) < 0.1:
        yield (
            "number_words",
            (
                "faithful",
                "en",
                f"{t} moved about {spelled[whole]} percent {higher} on the day.",
                "",
            ),
        )
    yield (
        "number_words",
        (
            "corrupted",
            "en",
            f"{t} closed at {en(close)}, roughly double its previous close.",
            "a multiple no figure holds",
        ),
    )
    yield (
        "number_words",
        (
            "corrupted",
            "es",
            f"{t} se movió cerca de un {NUM_ES[min(whole + 3, 9)]} por ciento en la sesión.",
            "number word wrong",
        ),
    )

    # unseen: what no tool returns, in words the grammar never met
    yield "unseen", ("corrupted", "en", f"{t} closed at {en(close)} on heavy volume.", "volume")
    yield (
        "unseen",
        (
            "corrupted",
            "en",
            f"{t} closed at {en(close)}, hovering near its 50-day moving average.",
            "technical level",
        ),
    )
    yield (
        "unseen",
        (
            "corrupted",
            "es",
            f"{t} cerró en {es(close)} dólares en una jornada marcada por la rotación sectorial.",
            "market narrative",
        ),
    )
    yield (
        "unseen",
        ("corrupted", "en", f"Investors piled into {t}, which closed at {en(close)}.", "flows"),
    )


def position_drafts(t: str, tr: dict[str, Any], r: random.Random) -> Iterator[tuple[str, Draft]]:
    p = result(tr, "get_position_pnl")
    ranks = result(tr, "get_portfolio_ranks")
    me = ranks["positions"][0]
    pid, pname = p["portfolio_id"], p["name"]
    q, mv, pnl, pct = p["quantity"], p["market_value"], p["day_pnl"], p["pnl_pct"]
    contrib, weight = p["contribution_pct"], me["weight_pct"]
    wr, rr = me["weight_rank"], me["return_rank"]
    port, bench = ranks["portfolio_return_pct"], ranks["benchmark"]["return_pct"]
    g, d, npos = ranks["gainers"], ranks["decliners"], ranks["positions_count"]
    gain = pnl > 0

    yield (
        "position",
        (
            "faithful",
            "en",
            f"In {pname} ({pid}), the {t} stake — {int(q):,} "
            f"shares — was worth ${en(mv)} at the close, with a day P&L of "
            f"{'+' if gain else '-'}${en(pnl)}.",
            "",
        ),
    )
    yield (
        "position",
        (
            "faithful",
            "es",
            f"La posición en {t} de la cartera {pid} ({int(q):,} acciones".replace(",", ".")
            + f") vale {es(mv)} $ y "
            f"{'ganó' if gain else 'perdió'} {es(pnl)} $ en la sesión.",
            "",
        ),
    )
    yield "position", ("faithful", "en", f"{t} accounts for {en(weight)}% of portfolio {pid}.", "")
    yield (
        "position",
        (
            "corrupted",
            "en",
            f"In {pname} ({pid}), the {t} stake was worth ${en(mv * 1.1)} at the close.",
            "market value changed",
        ),
    )
    yield (
        "position",
        (
            "corrupted",
            "es",
            f"La posición en {t} de la cartera {pid} "
            f"{'perdió' if gain else 'ganó'} {es(pnl)} $ en la sesión.",
            "sign of the P&L flipped",
        ),
    )
    yield (
        "position",
        (
            "corrupted",
            "en",
            f"{t} accounts for {en(contrib if contrib != weight else weight + 1)}"
            f"% of portfolio {pid}.",
            "contribution given as the weight",
        ),
    )

    # sign carried by the verb
    if gain:
        yield (
            "sign_verbs",
            ("faithful", "en", f"The {t} position added ${en(pnl)} to {pid} on the day.", ""),
        )
        yield "sign_verbs", ("faithful", "es", f"{t} aportó {es(pnl)} dólares a la cartera.", "")
        yield (
            "sign_verbs",
            (
                "corrupted",
                "en",
                f"The {t} position cost {pid} ${en(pnl)} on the day.",
                "a gain said as a cost",
            ),
        )
        yield (
            "sign_verbs",
            (
                "corrupted",
                "es",
                f"{t} le restó {es(pnl)} dólares a la cartera.",
                "a gain said as a loss",
            ),
        )
    else:
        yield (
            "sign_verbs",
            ("faithful", "en", f"The {t} holding cost {pid} ${en(pnl)} on the day.", ""),
        )
        yield "sign_verbs", ("faithful", "es", f"{t} le costó {es(pnl)} dólares a la cartera.", "")
        yield (
            "sign_verbs",
            (
                "corrupted",
                "en",
                f"The {t} holding added ${en(pnl)} to {pid} on the day.",
                "a loss said as a gain",
            ),
        )
        yield (
            "sign_verbs",
            (
                "corrupted",
                "es",
                f"{t} aportó {es(pnl)} dólares a la cartera.",
                "a loss said as a gain",
            ),
        )

    # comparisons with the portfolio and the benchmark
    better = pct > port
    yield (
        "comparison",
        (
            "faithful",
            "en",
            f"{t} ({'+' if pct > 0 else '-'}{en(pct)}%) "
            f"{'outperformed' if better else 'underperformed'} the portfolio "
            f"({sign(port)}{en(port)}%).",
            "",
        ),
    )
    yield (
        "comparison",
        (
            "faithful",
            "es",
            f"Con un {es(pct)} %, {t} lo hizo {'mejor' if better else 'peor'} que la cartera.",
            "",
        ),
    )
    bb = pct > bench
    if pct != bench:
        yield (
            "comparison",
            (
                "faithful",
                "en",
                f"{t} {'beat' if bb else 'lagged'} the "
                f"benchmark, which returned {'-' if bench < 0 else ''}{en(bench)}%.",
                "",
            ),
        )
    yield (
        "comparison",
        (
            "corrupted",
            "en",
            f"{t} {'underperformed' if better else 'outperformed'}"
            f" the portfolio ({sign(port)}{en(port)}%).",
            "relation flipped",
        ),
    )
    yield (
        "comparison",
        (
            "corrupted",
            "es",
            f"{t} lo hizo {'peor' if better else 'mejor'} que la cartera.",
            "relation flipped",
        ),
    )
    if pct != bench:
        yield (
            "comparison",
            (
                "corrupted",
                "en",
                f"{t} {'lagged' if bb else 'beat'} the benchmark.",
                "relation flipped",
            ),
        )

    # rankings within the portfolio
    if wr == 1:
        yield (
            "ranking",
            (
                "faithful",
                "en",
                f"{t} is {pid}'s largest holding, at {en(weight)}% of the book.",
                "",
            ),
        )
        yield (
            "ranking",
            (
                "corrupted",
                "en",
                f"{t} is {pid}'s second-largest holding.",
                "largest said to be second",
            ),
        )
    elif wr <= 8:
        yield (
            "ranking",
            (
                "faithful",
                "en",
                f"At {en(weight)}%, {t} ranks as the {ORD_EN[wr]}-largest position in {pid}.",
                "",
            ),
        )
        yield (
            "ranking",
            ("faithful", "es", f"{t} es la {ORD_ES[wr]} mayor posición de la cartera.", ""),
        )
        yield (
            "ranking",
            ("corrupted", "en", f"{t} is the largest holding in {pid}.", "rank changed"),
        )
        yield (
            "ranking",
            ("corrupted", "es", f"{t} es la mayor posición de la cartera.", "rank changed"),
        )
    else:
        yield (
            "ranking",
            ("corrupted", "en", f"{t} is the biggest position in {pid}.", "rank changed"),
        )
    if rr == 1:
        yield (
            "ranking",
            ("faithful", "en", f"{t} was the portfolio's best performer of the day.", ""),
        )
    else:
        yield (
            "ranking",
            (
                "corrupted",
                "en",
                f"{t} was the portfolio's best performer of the day.",
                "not the top mover",
            ),
        )

    # counts of the portfolio's positions
    yield (
        "counts",
        ("faithful", "en", f"Across {pid}'s {npos} positions, {g} rose and {d} fell.", ""),
    )
    yield (
        "counts",
        ("faithful", "es", f"En la cartera {pid}, {g} posiciones subieron y {d} bajaron.", ""),
    )
    yield (
        "counts",
        (
            "corrupted",
            "en",
            f"Across {pid}'s {npos} positions, {g + 2} rose and {d} fell.",
            "gainers miscounted",
        ),
    )
    yield (
        "counts",
        (
            "corrupted",
            "es",
            f"En la cartera {pid}, {g + 1} posiciones subieron.",
            "gainers miscounted",
        ),
    )

    # number words: a share of the book
    frac = {50: "half", 25: "a quarter", 20: "a fifth", 10: "a tenth", 33: "a third"}
    for whole, word in frac.items():
        if abs(weight - whole) <= whole / 10:
            yield "number_words", ("faithful", "en", f"{t} is roughly {word} of {pid}.", "")
    if weight < 15:
        yield (
            "number_words",
            ("corrupted", "en", f"{t} makes up nearly a third of {pid}.", "fraction wrong"),
        )


def trace_of(row: dict[str, Any]) -> dict[str, Any]:
    """The trace a corpus row is judged against: its question's, with the other portfolio's
    position call added where the row names one (`also_called`)."""
    trace = dict(TRACES[row["question_id"]], requires=[])
    if "also_called" in row:
        extra = dict(TRACES[row["also_called"]]["events"][0], id="position-x")
        trace["events"] = [*trace["events"], extra]
    return trace


def cross_drafts(
    t: str, tr: dict[str, Any], other: dict[str, Any]
) -> Iterator[tuple[str, Draft, dict[str, Any]]]:
    """A trace that also holds another portfolio's call for the same ticker."""
    extra = dict(other["events"][0], id="position-x")
    trace = dict(tr, events=[*tr["events"], extra])
    p, o = result(tr, "get_position_pnl"), extra["result"]
    yield (
        "cross_portfolio",
        (
            "faithful",
            "en",
            f"For {p['portfolio_id']}, the {t} position is worth ${en(p['market_value'])}.",
            "",
        ),
        trace,
    )
    yield (
        "cross_portfolio",
        (
            "corrupted",
            "en",
            f"For {p['portfolio_id']}, the {t} position is worth ${en(o['market_value'])}.",
            "another portfolio's",
        ),
        trace,
    )
    yield (
        "cross_portfolio",
        (
            "corrupted",
            "es",
            f"La cartera tiene {int(o['quantity'])} acciones de {t}.",
            "another portfolio's quantity",
        ),
        trace,
    )
    yield (
        "cross_portfolio",
        (
            "corrupted",
            "en",
            f"{t} holds {en(o['contribution_pct'])}% in {o['portfolio_id']} as well.",
            "another portfolio named",
        ),
        trace,
    )


def news_drafts(t: str, tr: dict[str, Any], r: random.Random) -> Iterator[tuple[str, Draft]]:
    items = [
        i
        for e in tr["events"]
        if e["tool"] == "search_news" and "result" in e
        for i in e["result"]["news"]
    ]
    if not items:
        yield (
            "news",
            (
                "faithful",
                "en",
                f"The news search turned up nothing on {t} for the last few days.",
                "",
            ),
        )
        yield "news", ("faithful", "es", f"No se encontraron noticias sobre {t}.", "")
        yield (
            "news",
            ("corrupted", "en", f"{t} fell after a downgrade made headlines.", "news not found"),
        )
        return
    it = items[0]
    h, src, sess = it["headline"], it["source"], it["session"]
    when = {
        "before": "before the opening bell",
        "during": "during trading hours",
        "after": "after the close",
    }
    wrong = {
        "before": "after the close",
        "during": "before the opening bell",
        "after": "before the opening bell",
    }
    yield "news", ("faithful", "en", f"{src} ran “{h}” {when[sess]}.", "")
    yield "news", ("faithful", "en", f'One headline came up: *"{h}"* ({src}).', "")
    yield "news", ("faithful", "es", f"{src} publicó «{h}».", "")
    yield "news", ("corrupted", "en", f"{src} ran “{h}” {wrong[sess]}.", "wrong session")
    words = h.split()
    yield (
        "news",
        ("corrupted", "en", f"{src} ran “{' '.join(words[:-1])} soon”.", "headline altered"),
    )
    yield (
        "news",
        (
            "corrupted",
            "en",
            f"The stock reacted to “{h}”, which sent it sharply higher.",
            "a cause the trace does not hold",
        ),
    )


def event_drafts(t: str, tr: dict[str, Any], r: random.Random) -> Iterator[tuple[str, Draft]]:
    res = result(tr, "get_events")
    evs = res["events"]
    if not evs:
        yield (
            "events",
            ("faithful", "en", f"{t} has nothing on the calendar through January 30, 2025.", ""),
        )
        yield (
            "events",
            ("faithful", "es", f"{t} no tiene eventos programados hasta el 30 de enero.", ""),
        )
        yield (
            "events",
            (
                "corrupted",
                "en",
                f"{t} reports earnings on January 15, 2025.",
                "an event not in the trace",
            ),
        )
        return
    ev = evs[0]
    from datetime import date, timedelta

    day = date.fromisoformat(ev["date"])
    long = f"{day:%A}, {day:%B} {day.day}, {day.year}"
    es_months = [
        "enero",
        "febrero",
        "marzo",
        "abril",
        "mayo",
        "junio",
        "julio",
        "agosto",
        "septiembre",
        "octubre",
        "noviembre",
        "diciembre",
    ]
    kind_es = {"earnings": "resultados", "dividend": "dividendo", "split": "split"}[ev["kind"]]
    name = {"earnings": "earnings report", "dividend": "dividend", "split": "split"}[ev["kind"]]
    yield (
        "events",
        ("faithful", "en", f"Next on the calendar for {t}: the {name}, slated for {long}.", ""),
    )
    yield (
        "events",
        (
            "faithful",
            "es",
            f"{t} publica sus {kind_es} el {day.day} de {es_months[day.month - 1]} de {day.year}."
            if ev["kind"] == "earnings"
            else f"El {kind_es} de {t} está previsto para el {day.day} de "
            f"{es_months[day.month - 1]} de {day.year}.",
            "",
        ),
    )
    shifted = day + timedelta(days=3)
    yield (
        "events",
        (
            "corrupted",
            "en",
            f"Next on the calendar for {t}: the {name}, slated "
            f"for {shifted:%B} {shifted.day}, {shifted.year}.",
            "date moved",
        ),
    )
    yield (
        "events",
        ("corrupted", "en", f"{t} has nothing scheduled over the next month.", "an event exists"),
    )


# A second voice: the phrasing of another model (analyst notes, tables, passive voice, weekday
# and ordinal dates, "No. 3", "gave back", figures in words, yields and price targets).


def move_drafts_b(t: str, tr: dict[str, Any], r: random.Random) -> Iterator[tuple[str, Draft]]:
    m = result(tr, "get_daily_move")
    trend = result(tr, "get_trend")
    co = result(tr, "get_company")
    close, prev, ch, pct = m["close"], m["previous_close"], m["change"], m["change_pct"]
    up = pct > 0
    name, sector = co["name"], co["sector"]
    streak = trend["streak"]
    n = streak["sessions"]
    q = window(trend, "quarter")
    yield (
        "move",
        (
            "faithful",
            "en",
            f"{name} ({t}) shares {'rose' if up else 'fell'} "
            f"{en(pct)}% on Tuesday to settle at ${en(close)}, compared with "
            f"${en(prev)} at Monday's close.",
            "",
        ),
    )
    yield (
        "move",
        (
            "faithful",
            "en",
            f"| Close | Change | % |\n|---|---|---|\n| {en(close)} | "
            f"{sign(ch)}{en(ch)} | {sign(pct)}{en(pct)}% |",
            "",
        ),
    )
    yield (
        "move",
        (
            "faithful",
            "es",
            f"Las acciones de {t} {'subieron' if up else 'bajaron'} "
            f"un {es(pct)} % el martes, hasta {es(close)} dólares.",
            "",
        ),
    )
    yield (
        "move",
        (
            "faithful",
            "en",
            f"A close of ${en(close)} was recorded for {t} on Dec. "
            f"31, a change of {sign(ch)}{en(ch)} from the session before.",
            "",
        ),
    )
    yield (
        "move",
        (
            "corrupted",
            "en",
            f"{name} ({t}) shares {'fell' if up else 'rose'} "
            f"{en(pct)}% on Tuesday to settle at ${en(close)}.",
            "direction flipped",
        ),
    )
    yield (
        "move",
        (
            "corrupted",
            "es",
            f"Las acciones de {t} {'subieron' if up else 'bajaron'}"
            f" un {es(bump(pct))} % el martes.",
            "percentage changed",
        ),
    )
    yield (
        "move",
        (
            "corrupted",
            "en",
            f"A close of ${en(close)} was recorded for {t} on Dec. 30.",
            "close said of Monday",
        ),
    )
    yield (
        "move",
        (
            "corrupted",
            "en",
            f"| Close | Change |\n|---|---|\n| {en(close)} | {sign(ch)}{en(bump(ch))} |",
            "change changed in a table",
        ),
    )
    # time words in another voice
    yield "time_words", ("faithful", "en", f"As of Tuesday's close, {t} stood at ${en(close)}.", "")
    yield "time_words", ("faithful", "en", f"On December 31st, {t} closed at {en(close)}.", "")
    yield (
        "time_words",
        ("faithful", "es", f"El martes 31 de diciembre {t} cerró en {es(close)} dólares.", ""),
    )
    yield (
        "time_words",
        (
            "corrupted",
            "en",
            f"As of Monday's close, {t} stood at ${en(close)}.",
            "today's close as Monday's",
        ),
    )
    yield (
        "time_words",
        (
            "corrupted",
            "es",
            f"Ayer, {t} cerró en {es(close)} dólares.",
            "today's close as yesterday's",
        ),
    )
    yield (
        "time_words",
        (
            "corrupted",
            "en",
            f"{t} closed at {en(close)} on Thursday.",
            "a weekday that is not the report day",
        ),
    )
    # streak and trend in another voice
    if n >= 2:
        word = "lower" if streak["direction"] == "down" else "higher"
        yield (
            "streak",
            (
                "faithful",
                "en",
                f"This is the {ORD_EN[n]} session in a row that {t} has closed {word}.",
                "",
            ),
        )
        yield (
            "streak",
            (
                "corrupted",
                "en",
                f"This is the {ORD_EN[n + 1]} session in a row that {t} has closed {word}.",
                "streak one longer",
            ),
        )
        yield (
            "streak",
            (
                "faithful",
                "es",
                f"{t} acumula {NUM_ES[n]} jornadas seguidas "
                f"{'a la baja' if streak['direction'] == 'down' else 'al alza'}.",
                "",
            ),
        )
    else:
        other = "higher" if streak["direction"] == "down" else "lower"
        yield (
            "streak",
            (
                "corrupted",
                "en",
                f"{t} has now closed {other} for two straight sessions.",
                "no such streak",
            ),
        )
    qup = q["change_pct"] > 0
    yield (
        "trend",
        (
            "faithful",
            "en",
            f"Quarter to date, {t} is {'up' if qup else 'down'} {en(q['change_pct'])}%.",
            "",
        ),
    )
    yield (
        "trend",
        (
            "faithful",
            "en",
            f"{t} started the quarter at {en(q['start_close'])} and "
            f"now trades at {en(q['end_close'])}.",
            "",
        ),
    )
    if q["change_pct"] != 0:
        yield (
            "trend",
            (
                "corrupted",
                "en",
                f"Quarter to date, {t} is {'down' if qup else 'up'} {en(q['change_pct'])}%.",
                "quarter's direction flipped",
            ),
        )
    # external facts in another voice
    yield "external", ("faithful", "en", f"{t}, a {sector} name, closed at {en(close)}.", "")
    yield (
        "external",
        (
            "corrupted",
            "en",
            f"{t} closed at {en(close)} and pays a 2.4% dividend yield.",
            "a yield no tool returns",
        ),
    )
    yield (
        "external",
        (
            "corrupted",
            "en",
            f"{t} closed at {en(close)}, below the consensus "
            f"price target of ${en(close * 1.2, 0)}.",
            "price target",
        ),
    )
    yield (
        "external",
        (
            "corrupted",
            "es",
            f"{t} cerró en {es(close)} dólares; su capitalización ronda los 12.000 millones.",
            "market cap",
        ),
    )
    yield (
        "external",
        ("corrupted", "en", f"{t} closed at {en(close)} (P/E 24x).", "valuation ratio"),
    )
    # number words in another voice
    whole = round(abs(pct))
    if 1 <= whole <= 6 and abs(abs(pct) - whole) < 0.1:
        yield (
            "number_words",
            (
                "faithful",
                "es",
                f"{t} se movió alrededor de un {NUM_ES[whole] if whole > 1 else 'uno'} por ciento.",
                "",
            ),
        )
    yield (
        "number_words",
        (
            "corrupted",
            "en",
            f"{t} has nearly tripled since the start of the quarter.",
            "a multiple no figure holds",
        ),
    )
    yield "unseen", ("corrupted", "en", f"{t} gave back {en(pct)}% amid profit-taking.", "a cause")
    yield (
        "unseen",
        (
            "corrupted",
            "en",
            f"Options traders were busy in {t}, which closed at {en(close)}.",
            "options activity",
        ),
    )
    yield (
        "unseen",
        (
            "corrupted",
            "es",
            f"{t} cerró en {es(close)} dólares, con el RSI en zona de sobrecompra.",
            "technical indicator",
        ),
    )


def position_drafts_b(t: str, tr: dict[str, Any], r: random.Random) -> Iterator[tuple[str, Draft]]:
    p = result(tr, "get_position_pnl")
    ranks = result(tr, "get_portfolio_ranks")
    me = ranks["positions"][0]
    pid = p["portfolio_id"]
    q, mv, pnl, pct = p["quantity"], p["market_value"], p["day_pnl"], p["pnl_pct"]
    weight, wr = me["weight_pct"], me["weight_rank"]
    port = ranks["portfolio_return_pct"]
    g, d, npos = ranks["gainers"], ranks["decliners"], ranks["positions_count"]
    gain = pnl > 0
    yield (
        "position",
        (
            "faithful",
            "en",
            f"{pid} holds {int(q):,} shares of {t}, valued at ${en(mv)} as of the close.",
            "",
        ),
    )
    yield (
        "position",
        (
            "faithful",
            "es",
            f"Valor de mercado de la posición en {t}: {es(mv)} $ ({es(weight)} % de la cartera).",
            "",
        ),
    )
    yield (
        "position",
        ("corrupted", "en", f"{pid} holds {int(q) + 10:,} shares of {t}.", "quantity changed"),
    )
    yield (
        "position",
        ("corrupted", "en", f"The {t} position is valued at ${en(pnl)}.", "P&L given as the value"),
    )
    # sign verbs in another voice
    if gain:
        yield (
            "sign_verbs",
            ("faithful", "en", f"{t} contributed a gain of ${en(pnl)} to {pid}.", ""),
        )
        yield (
            "sign_verbs",
            ("corrupted", "en", f"{t} was a ${en(pnl)} drag on {pid}.", "a gain said as a drag"),
        )
    else:
        yield "sign_verbs", ("faithful", "en", f"{t} was a ${en(pnl)} drag on {pid}.", "")
        yield (
            "sign_verbs",
            (
                "corrupted",
                "en",
                f"{t} contributed a gain of ${en(pnl)} to {pid}.",
                "a loss said as a gain",
            ),
        )
    # comparison without a relation word, and with one
    yield (
        "comparison",
        (
            "faithful",
            "en",
            f"{t}'s {sign(pct)}{en(pct)}% compares with a "
            f"{sign(port)}{en(port)}% return for the portfolio as a whole.",
            "",
        ),
    )
    if pct != port:
        ahead = pct > port
        yield (
            "comparison",
            (
                "faithful",
                "en",
                f"{t} finished {'ahead of' if ahead else 'behind'}"
                f" the portfolio's {sign(port)}{en(port)}%.",
                "",
            ),
        )
        yield (
            "comparison",
            (
                "corrupted",
                "en",
                f"{t} finished {'behind' if ahead else 'ahead of'}"
                f" the portfolio's {sign(port)}{en(port)}%.",
                "relation flipped",
            ),
        )
        yield (
            "comparison",
            (
                "faithful",
                "es",
                f"{t} ({sign(pct)}{es(pct)} %) quedó "
                f"{'por encima' if ahead else 'por debajo'} de la cartera "
                f"({sign(port)}{es(port)} %).",
                "",
            ),
        )
        yield (
            "comparison",
            (
                "corrupted",
                "es",
                f"{t} quedó {'por debajo' if ahead else 'por encima'} de la cartera.",
                "relation flipped",
            ),
        )
    # ranking in another voice
    if wr <= 8:
        yield (
            "ranking",
            ("faithful", "en", f"By weight, {t} ranks {ORD_NUM[wr]} of {npos} in {pid}.", ""),
        )
        yield (
            "ranking",
            (
                "corrupted",
                "en",
                f"By weight, {t} ranks {ORD_NUM[wr + 1]} of {npos} in {pid}.",
                "place changed",
            ),
        )
        yield (
            "ranking",
            (
                "corrupted",
                "en",
                f"{t} ranks {ORD_NUM[wr]} of {npos + 3} by weight in {pid}.",
                "count of positions changed",
            ),
        )
    if gain and pnl > 0:
        yield "ranking", ("faithful", "en", f"{t} was one of {pid}'s contributors on the day.", "")
        yield (
            "ranking",
            (
                "corrupted",
                "en",
                f"{t} was one of {pid}'s detractors on the day.",
                "a contributor said a detractor",
            ),
        )
    elif pnl < 0:
        yield "ranking", ("faithful", "en", f"{t} was one of {pid}'s detractors on the day.", "")
        yield (
            "ranking",
            (
                "corrupted",
                "en",
                f"{t} was one of {pid}'s contributors on the day.",
                "a detractor said a contributor",
            ),
        )
    # counts in another voice
    yield "counts", ("faithful", "en", f"{d} of {npos} holdings in {pid} finished lower.", "")
    yield (
        "counts",
        (
            "corrupted",
            "en",
            f"{d + 1} of {npos} holdings in {pid} finished lower.",
            "decliners miscounted",
        ),
    )
    yield "counts", ("faithful", "es", f"De las {npos} posiciones de {pid}, {g} subieron.", "")
    yield (
        "counts",
        (
            "corrupted",
            "es",
            f"De las {npos} posiciones de {pid}, {g + 1} subieron.",
            "gainers miscounted",
        ),
    )


# A third voice, written after the fixes above were made and measured once before any fix of
# its own (terse desk notes, "d/d", "MV", "sh", breadth, "lifted"/"weighed on", causes).


def move_drafts_c(t: str, tr: dict[str, Any], r: random.Random) -> Iterator[tuple[str, Draft]]:
    m, trd, co = result(tr, "get_daily_move"), result(tr, "get_trend"), result(tr, "get_company")
    c, p, ch, pct = m["close"], m["previous_close"], m["change"], m["change_pct"]
    up = pct > 0
    st, n = trd["streak"], trd["streak"]["sessions"]
    mo, ytd = window(trd, "month"), window(trd, "year_to_date")
    moved, other = ("advanced", "declined") if up else ("declined", "advanced")
    yield (
        "move",
        (
            "faithful",
            "en",
            f"Shares in {co['name']} {moved} {en(pct)}% to end Tuesday's session at ${en(c)}.",
            "",
        ),
    )
    yield (
        "move",
        (
            "corrupted",
            "en",
            f"Shares in {co['name']} {other} {en(pct)}% to end Tuesday's session at ${en(c)}.",
            "direction flipped",
        ),
    )
    yield "move", ("faithful", "en", f"{t}: ${en(c)} ({sign(pct)}{en(pct)}% d/d)", "")
    yield (
        "move",
        (
            "faithful",
            "es",
            f"El título de {t} terminó la sesión en {es(c)} $, lo que "
            f"supone una variación de {sign(ch)}{es(ch)} $ ({sign(pct)}{es(pct)} %).",
            "",
        ),
    )
    yield (
        "move",
        (
            "corrupted",
            "es",
            f"El título de {t} terminó la sesión en {es(p)} $.",
            "previous close as the close",
        ),
    )
    yield (
        "time_words",
        ("faithful", "en", f"On the last trading day of 2024, {t} closed at {en(c)}.", ""),
    )
    yield (
        "time_words",
        (
            "corrupted",
            "en",
            f"On the first trading day of 2025, {t} closed at {en(c)}.",
            "a day after the report date",
        ),
    )
    yield "time_words", ("faithful", "en", f"{t} ended the year at ${en(c)}.", "")
    yield (
        "time_words",
        ("corrupted", "en", f"Last Friday {t} closed at ${en(c)}.", "today's close said of Friday"),
    )
    mup, yup = mo["change_pct"] > 0, ytd["change_pct"] > 0
    yield (
        "trend",
        (
            "faithful",
            "en",
            f"Since the end of November, {t} is {'up' if mup else 'down'} {en(mo['change_pct'])}%.",
            "",
        ),
    )
    if mo["change_pct"] != 0:
        yield (
            "trend",
            (
                "corrupted",
                "en",
                f"Since the end of November, {t} is "
                f"{'down' if mup else 'up'} {en(mo['change_pct'])}%.",
                "flipped",
            ),
        )
    yield (
        "trend",
        (
            "faithful",
            "en",
            f"For 2024 as a whole, {t} {'gained' if yup else 'lost'} {en(ytd['change_pct'])}%.",
            "",
        ),
    )
    yield (
        "trend",
        (
            "corrupted",
            "en",
            f"For 2024 as a whole, {t} {'gained' if yup else 'lost'}"
            f" {en(bump(ytd['change_pct']))}%.",
            "ytd changed",
        ),
    )
    verb = "risen" if st["direction"] == "up" else "fallen"
    if n >= 2:
        yield (
            "streak",
            ("faithful", "en", f"{t} has {verb} in each of the last {NUM_EN[n]} sessions.", ""),
        )
        yield (
            "streak",
            (
                "corrupted",
                "en",
                f"{t} has {verb} in each of the last {NUM_EN[n + 1]} sessions.",
                "streak one longer",
            ),
        )
    else:
        yield (
            "streak",
            (
                "corrupted",
                "en",
                f"{t} snapped a three-day "
                f"{'losing' if st['direction'] == 'up' else 'winning'} streak.",
                "a past streak no tool returns",
            ),
        )
    yield (
        "external",
        ("faithful", "en", f"{t} — {co['name']}, {co['sector']} — closed at {en(c)}.", ""),
    )
    yield (
        "external",
        (
            "corrupted",
            "en",
            f"{t} closed at {en(c)}; the company beat consensus estimates last quarter.",
            "estimates",
        ),
    )
    yield (
        "external",
        (
            "corrupted",
            "en",
            f"{t} closed at {en(c)} after an upgrade to Buy at Morgan Stanley.",
            "analyst rating",
        ),
    )
    yield (
        "number_words",
        (
            "faithful",
            "en",
            f"{t} closed at {en(c)}, {'up' if up else 'down'} {en(abs(ch))} dollars on the day.",
            "",
        ),
    )
    yield (
        "number_words",
        (
            "corrupted",
            "en",
            f"{t} closed at {en(c)}, {'up' if up else 'down'} roughly ten percent on the day.",
            "number word wrong",
        ),
    )
    yield (
        "hedge",
        (
            "faithful",
            "en",
            f"{t} appears to have closed near ${en(c, 1)}, a move of roughly {en(pct, 1)}%.",
            "",
        ),
    )
    yield (
        "hedge",
        (
            "corrupted",
            "en",
            f"{t} appears to have closed near ${en(c + 5, 1)}.",
            "hedged close wrong",
        ),
    )
    yield (
        "derived",
        (
            "faithful",
            "en",
            f"{t}'s close of {en(c)} is {en(abs(ch))} "
            f"{'above' if up else 'below'} the prior {en(p)}.",
            "",
        ),
    )
    yield (
        "derived",
        (
            "corrupted",
            "en",
            f"{t}'s close of {en(c)} is {en(abs(ch) + 1)} "
            f"{'above' if up else 'below'} the prior {en(p)}.",
            "difference wrong",
        ),
    )


def position_drafts_c(t: str, tr: dict[str, Any], r: random.Random) -> Iterator[tuple[str, Draft]]:
    pp, rk = result(tr, "get_position_pnl"), result(tr, "get_portfolio_ranks")
    me = rk["positions"][0]
    pid, q, mv, pnl = pp["portfolio_id"], pp["quantity"], pp["market_value"], pp["day_pnl"]
    w, wr, port, pct = (
        me["weight_pct"],
        me["weight_rank"],
        rk["portfolio_return_pct"],
        pp["pnl_pct"],
    )
    yield (
        "position",
        (
            "faithful",
            "en",
            f"Position snapshot ({pid}): **{t}** — {int(q):,} sh,"
            f" MV ${en(mv)}, day P&L {sign(pnl)}${en(pnl)}.",
            "",
        ),
    )
    yield (
        "position",
        (
            "corrupted",
            "en",
            f"Position snapshot ({pid}): **{t}** — {int(q):,} sh, MV ${en(mv * 0.9)}.",
            "value changed",
        ),
    )
    yield (
        "position",
        (
            "faithful",
            "es",
            f"La posición de {pid} en {t} ({int(q)} acciones) "
            f"tiene un valor de mercado de {es(mv)} USD.",
            "",
        ),
    )
    yield (
        "position",
        (
            "corrupted",
            "es",
            f"La posición de {pid} en {t} tiene un valor de mercado de {es(mv + 1000)} USD.",
            "value changed",
        ),
    )
    good, bad = ("lifted", "weighed on") if pnl > 0 else ("weighed on", "lifted")
    yield "sign_verbs", ("faithful", "en", f"{t} {good} {pid} by ${en(pnl)}.", "")
    yield "sign_verbs", ("corrupted", "en", f"{t} {bad} {pid} by ${en(pnl)}.", "sign flipped")
    if pct != port:
        ahead, behind = ("outpaced", "trailed") if pct > port else ("trailed", "outpaced")
        yield (
            "comparison",
            (
                "faithful",
                "en",
                f"At {sign(pct)}{en(pct)}%, {t} {ahead} {pid} ({sign(port)}{en(port)}%).",
                "",
            ),
        )
        yield (
            "comparison",
            (
                "corrupted",
                "en",
                f"At {sign(pct)}{en(pct)}%, {t} {behind} {pid} ({sign(port)}{en(port)}%).",
                "relation flipped",
            ),
        )
    if wr == 1:
        yield (
            "ranking",
            ("faithful", "en", f"{t} is the heaviest position in {pid} ({en(w)}%).", ""),
        )
    else:
        yield (
            "ranking",
            ("corrupted", "en", f"{t} is the heaviest position in {pid}.", "not the largest"),
        )
    g, d = rk["gainers"], rk["decliners"]
    yield "counts", ("faithful", "en", f"Breadth in {pid} was {g} up, {d} down.", "")
    yield (
        "counts",
        ("corrupted", "en", f"Breadth in {pid} was {g + 3} up, {d} down.", "gainers miscounted"),
    )


def news_drafts_c(t: str, tr: dict[str, Any], r: random.Random) -> Iterator[tuple[str, Draft]]:
    items = [
        i
        for e in tr["events"]
        if e["tool"] == "search_news" and "result" in e
        for i in e["result"]["news"]
    ]
    if not items:
        yield "news", ("corrupted", "en", f"{t} moved on takeover chatter.", "a cause")
        return
    it = items[0]
    yield "news", ("faithful", "en", f"Headline ({it['source']}): “{it['headline']}”", "")
    yield (
        "news",
        (
            "corrupted",
            "en",
            f"Per {it['source']}, {t} rallied because of “{it['headline']}”.",
            "a cause no tool returns",
        ),
    )


def event_drafts_c(t: str, tr: dict[str, Any], r: random.Random) -> Iterator[tuple[str, Draft]]:
    from datetime import date

    evs = result(tr, "get_events")["events"]
    if not evs:
        yield (
            "events",
            ("faithful", "en", f"Nothing is on {t}'s calendar for the next 30 days.", ""),
        )
        yield (
            "events",
            (
                "corrupted",
                "en",
                f"{t} holds its annual meeting next week.",
                "an event no tool returns",
            ),
        )
        return
    day = date.fromisoformat(evs[0]["date"])
    yield "events", ("faithful", "en", f"Upcoming: {evs[0]['kind']} on {day:%b} {day.day}.", "")
    yield (
        "events",
        ("corrupted", "en", f"Upcoming: {evs[0]['kind']} on {day:%b} {day.day + 1}.", "day moved"),
    )


def rows() -> Iterator[dict[str, Any]]:
    """The drafts of each voice over two traces in three, at most `PER_KIND` of each kind and
    label a trace gives in one voice, drawn with a fixed seed."""
    r = random.Random(33)
    by_ticker: dict[str, list[str]] = {}
    for qid in TRACES:
        if "/position/" in qid:
            by_ticker.setdefault(qid.split("/")[0], []).append(qid)
    makers: dict[str, tuple[Callable[..., Iterator[tuple[str, Draft]]] | None, ...]] = {
        "move": (move_drafts, move_drafts_b, move_drafts_c),
        "position": (position_drafts, position_drafts_b, position_drafts_c),
        "news": (news_drafts, None, news_drafts_c),
        "events": (event_drafts, None, event_drafts_c),
    }
    n = 0
    for k, (qid, trace) in enumerate(sorted(TRACES.items())):
        ticker, kind = qid.split("/")[:2]
        made: list[tuple[str, str, Draft, dict[str, Any] | None]] = []
        for i, (voice, maker) in enumerate(zip("abc", makers[kind], strict=True)):
            if maker is not None and (k + i) % 3:  # each voice over two traces in three
                made += [(voice, ck, d, None) for ck, d in maker(ticker, trace, r)]
        if kind == "position" and len(by_ticker[ticker]) > 1:
            other = next(q for q in by_ticker[ticker] if q != qid)
            made += [("a", ck, d, tr) for ck, d, tr in cross_drafts(ticker, trace, TRACES[other])]
        groups: dict[tuple[str, str, str], list[tuple[str, Draft, dict[str, Any] | None]]] = {}
        for voice, ck, d, tr in made:
            groups.setdefault((voice, ck, d[0]), []).append((ck, d, tr))
        for (voice, _, _), group in groups.items():
            for ck, (label, lang, draft, why), tr in r.sample(group, min(PER_KIND, len(group))):
                n += 1
                row = {
                    "id": f"h-{n:04d}",
                    "kind": ck,
                    "lang": lang,
                    "label": label,
                    "why": why,
                    "voice": voice,
                    "question_id": qid,
                    "draft": draft,
                }
                if tr is not None:  # the trace also holds the other portfolio's first call
                    row["also_called"] = other
                yield row


PER_KIND = 1
"""How many drafts of one kind and label a trace gives in one voice."""


def main() -> None:
    out = [json.dumps(row, ensure_ascii=False) for row in rows()]
    (HERE / "held_out.jsonl").write_text("\n".join(out) + "\n", encoding="utf-8")
    print(f"{len(out)} drafts")


if __name__ == "__main__":
    main()

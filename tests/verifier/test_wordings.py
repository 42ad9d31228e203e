"""Drafts worded the way language models write them (markdown, tables, rounding, hedges, both
languages) over one night's trace: the faithful ones are accepted, each corrupted one rejected."""

from __future__ import annotations

from typing import Any

import pytest

from verifier.verify import verify_json as verify

D = "2024-12-31"


def mv(t: str, c: float, p: float, id_: str) -> dict[str, Any]:
    return {
        "id": id_,
        "tool": "get_daily_move",
        "args": {"ticker": t, "date": D},
        "result": {
            "ticker": t,
            "session": D,
            "previous_session": "2024-12-30",
            "price_basis": "as traded",
            "close": c,
            "previous_close": p,
            "change": round(c - p, 2),
            "change_pct": round((c - p) / p * 100, 2),
        },
    }


EV = [
    mv("AXO", 291.10, 287.14, "e1"),
    mv("BRQ", 45.12, 46.03, "e2"),
    mv("CVLT", 12.5, 12.31, "e3"),
    {
        "id": "e4",
        "tool": "get_price_change",
        "args": {"ticker": "AXO", "start": "2024-11-29", "end": D},
        "result": {
            "ticker": "AXO",
            "start_session": "2024-11-29",
            "end_session": D,
            "price_basis": "as traded",
            "end_close": 291.10,
            "start_close": 306.2,
            "change": -15.1,
            "change_pct": -4.93,
        },
    },
    {
        "id": "e5",
        "tool": "search_news",
        "args": {"ticker": "AXO", "start": "2024-12-20", "end": D},
        "result": {
            "ticker": "AXO",
            "start": "2024-12-20",
            "end": D,
            "found": 2,
            "truncated": False,
            "news": [
                {
                    "published_at": "2024-12-31T13:05:00Z",
                    "session": "before",
                    "headline": "Axo Industries wins $2.1 billion defense contract",
                },
                {
                    "published_at": "2024-12-30T21:30:00Z",
                    "session": "after",
                    "headline": "Axo CFO to step down at year end",
                },
            ],
        },
    },
    {
        "id": "e6",
        "tool": "search_news",
        "args": {"ticker": "BRQ", "start": "2024-12-20", "end": D},
        "result": {
            "ticker": "BRQ",
            "news": [
                {
                    "published_at": "2024-12-31T16:00:00Z",
                    "session": "during",
                    "headline": "Brq shares slide after guidance cut",
                }
            ],
        },
    },
    {
        "id": "e7",
        "tool": "get_position_pnl",
        "args": {"portfolio_id": "P001", "ticker": "AXO", "date": D},
        "result": {
            "portfolio_id": "P001",
            "name": "Growth",
            "base_currency": "USD",
            "ticker": "AXO",
            "session": D,
            "holdings_as_of": "2024-12-15",
            "quantity": 120,
            "close": 291.10,
            "previous_session": "2024-12-30",
            "previous_close": 287.14,
            "market_value": 34932.0,
            "day_pnl": 475.2,
            "pnl_pct": 1.38,
            "portfolio_value_previous_close": 215000.0,
            "contribution_pct": 0.22,
            "price_basis": "as traded",
        },
    },
    {
        "id": "e8",
        "tool": "get_events",
        "args": {"ticker": "AXO", "start": "2024-12-01", "end": "2025-02-28"},
        "result": {
            "ticker": "AXO",
            "start": "2024-12-01",
            "end": "2025-02-28",
            "events": [
                {
                    "date": "2025-01-28",
                    "kind": "earnings",
                    "value": None,
                    "announced_at": "2024-12-10T12:00:00Z",
                    "scheduled": True,
                },
                {
                    "date": "2025-01-15",
                    "kind": "dividend",
                    "value": 0.87,
                    "announced_at": "2024-12-02T12:00:00Z",
                    "scheduled": True,
                },
            ],
        },
    },
]
FAITHFUL = [
    "AXO closed at $291.10, up 3.96 from Monday's close of $287.14, a 1.38% gain.",
    "AXO closed at 291.10 on December 31, up 1.38% from the December 30 close of 287.14.",
    "**AXO** closed at **$291.10** on Tuesday, December 31, 2024, up **1.38%** from $287.14.",
    "AXO gained 1.4% to end the session at $291.10, while BRQ slipped 1.98% to $45.12.",
    "Shares of AXO rose 1.38% on Dec 31, adding $3.96 to close at $291.10.",
    "| Ticker | Close | Change |\n|---|---|---|\n| AXO | 291.10 | +1.38% |\n| BRQ | 45.12 | -1.98% |\n| CVLT | 12.50 | +1.54% |",
    "- **AXO**: $291.10 (+1.38%)\n- **BRQ**: $45.12 (−1.98%)\n- **CVLT**: $12.50 (+1.54%)",
    "AXO finished the session up 3.96 (1.38%) at 291.10.",
    "Despite the day's gain, AXO is down 4.93% over the past month (from $306.20 on Nov 29).",
    "Over the past month AXO lost 4.9%, though it rose 1.4% on the day.",
    'BRQ fell on the day after "Brq shares slide after guidance cut" crossed during the session.',
    "The AXO position (120 shares) was worth $34,932.00, a day P&L of $475.20, contributing 0.22 pp to P001's return.",
    "AXO's position returned 1.38% on the day and added 0.22 percentage points to the portfolio's return.",
    "AXO reports earnings on January 28, 2025 and pays a $0.87 dividend on January 15, 2025.",
    "AXO subió un 1,38 % el 31 de diciembre de 2024 y cerró en 291,10 $.",
    "Las acciones de BRQ cayeron un 1,98 % hasta 45,12 $ en la sesión del martes 31 de diciembre.",
    "En el último mes, AXO perdió un 4,93 %.",
    "La posición en AXO aportó 0,22 pp a la rentabilidad de la cartera; su valor de mercado es de 34.932,00 $.",
    "Titular de AXO: «Axo Industries wins $2.1 billion defense contract».",
    "AXO rose about 1.4% today to $291.10; CVLT climbed 1.5% to $12.50.",
    "AXO: previous close $287.14, close $291.10, change +$3.96 (+1.38%).",
    "On December 31, 2024, AXO closed at $291.10, up 1.38%, while it remains down 4.93% since November 29.",
    "AXO's stock advanced 1.38% in Tuesday's session.",
    "CVLT edged up 1.54% to $12.50 and BRQ declined 1.98%.",
    "AXO ended 2024 at $291.10.",
    "AXO ended the year at $291.10, a gain of 1.38% on the final session.",
    "BRQ lost $0.91 (1.98%) on the day to close at $45.12.",
    'Headline: "Axo CFO to step down at year end" (published after the close on Dec 30).',
    "AXO's dividend of $0.87 per share is payable on 2025-01-15.",
    "AXO was up 1.38% on the session, its close of $291.10 compared with $287.14 the prior day.",
    "AXO cerró el martes con una subida del 1,38 %.",
    "BRQ terminó la sesión a la baja, en 45,12 $.",
    "AXO rose 1.38% on 12/31.",
]
FAITHFUL_MORE = [
    "- AXO: +1.38%\n- BRQ: -1.98%\n\nThe AXO position gained $475.20 on the day.",
    "**AXO** cerró en **291,10 $** el martes 31 de diciembre de 2024, con una subida del **1,38 %**.",
    "AXO avanzó un 1,4 % en la sesión, mientras que BRQ retrocedió un 2 %.",
    "| Valor | Cierre | Variación |\n|---|---|---|\n| AXO | 291,10 | +1,38 % |\n| BRQ | 45,12 | −1,98 % |",
    "AXO ganó 3,96 $ por acción hasta 291,10 $.",
    "Desde el 29 de noviembre, AXO ha perdido un 4,93 %.",
    "El cierre anterior de AXO fue de 287,14 $.",
    "AXO aportó 0,22 puntos porcentuales a la rentabilidad de la cartera.",
    "Titular: «Axo CFO to step down at year end», publicado tras el cierre del 30 de diciembre.",
    "AXO terminó la sesión al alza, en 291,10 $.",
    "AXO: +1,38 % en el día y −4,93 % en el último mes.",
    "On December 31, AXO closed at $291.10, 4.93% below its November 29 close.",
    "AXO rose 1.38% from December 30.",
    "AXO is down 4.93% compared with November 29.",
    "AXO fell 4.93% between November 29 and December 31.",
    '"Axo CFO to step down at year end" was published on December 30.',
    'On December 31, AXO rose after "Axo Industries wins $2.1 billion defense contract".',
    "AXO's close of $291.10 was 1.38% above the prior session's $287.14.",
    "AXO ticked up 1.4%.",
    "AXO climbed to $291.10 (up 1.38%) on 31 December 2024.",
    "AXO: closed $291.10 | +1.38% | prev. $287.14",
    "AXO added 1.38%.",
    "Since the end of November, AXO has lost 4.93%.",
    "AXO rose 1.38% in December's final session.",
    "For December, AXO fell 4.93%.",
    "AXO rose 1.38% on Dec. 31.",
    'BRQ fell 1.98% while AXO climbed after "Axo Industries wins $2.1 billion defense contract".',
    'AXO rose 1.38% after "Axo Industries wins $2.1 billion defense contract"; BRQ fell after "Brq shares slide after guidance cut".',
    "AXO shares were up 1.38% at $291.10 at the close on Tuesday.",
    "AXO's price rose from $287.14 to $291.10.",
    "AXO went from $287.14 to $291.10, a 1.38% gain.",
    "Tuesday's session saw AXO advance 1.38%.",
    "AXO increased by $3.96 per share.",
    "AXO's shares rose 1.38 per cent.",
    "El valor de AXO subió un 1,38 % en la sesión del 31 de diciembre, hasta 291,10 $.",
    "AXO acumula una caída del 4,93 % en el último mes.",
    "BRQ perdió un 1,98 %; AXO ganó un 1,38 %.",
    "AXO se anotó un 1,38 %.",
    "AXO cerró en 291,10 $ (+1,38 %).",
    "Over the month AXO is down 4.93%, but it closed the year up 1.38% on the day.",
    "AXO fell 4.93% in the month to December 31.",
    "AXO's one-month return is -4.93%.",
    "AXO rose 1.38% on the final trading day of the year, December 31.",
    "Note: AXO's earnings report is due January 28, 2025.",
    "The P001 position in AXO gained $475.20 on the day.",
    "AXO (120 shares, $34,932.00) added $475.20.",
    "AXO's 1.38% gain on Tuesday lifted it to $291.10.",
    "A 4.93% decline over the month leaves AXO at $291.10.",
    "Month-to-date, AXO is down 4.93%.",
    "AXO has fallen 4.93% since November 29.",
    "In the last 30 days AXO dropped 4.93%.",
    "AXO rebounded 1.38% on Tuesday after a 4.93% slide over the past month.",
    "Year-end: AXO up 1.38% to $291.10.",
    "AXO rose 1.38% to $291.10 on December 31 from $287.14 on December 30.",
    "BRQ, down 1.98% on the day, closed at $45.12.",
    "AXO is trading at $291.10.",
    "AXO's previous close was $287.14 (Dec 30).",
    "On Monday, December 30, AXO closed at $287.14.",
    "AXO closed at $287.14 on December 30 and at $291.10 on December 31.",
    "AXO se revalorizó un 1,38 % hasta 291,10 $.",
    "AXO retrocedió un 4,93 % en el mes.",
    "BRQ bajó un 1,98 % el martes.",
    "## AXO\n\n- Close: **$291.10**\n- Day change: **+1.38%**\n- 1-month change: **-4.93%**",
    "### Summary\nAXO rose on the day (+1.38%), but the monthly trend is negative (-4.93%).",
    "AXO's shares climbed roughly 1.4% on the last trading day of 2024.",
    "AXO closed the year at $291.10, up $3.96 on the day.",
    "The portfolio's AXO stake is worth about $34.9K after a $475 gain.",
    "AXO contributed +0.22 pp to P001's daily return.",
    "AXO: +1.38% (day), -4.93% (1M).",
    "AXO ganó un 1,4 % en la jornada del 31 de diciembre.",
    "AXO cerró 2024 en 291,10 dólares.",
    "Upcoming: AXO's earnings are scheduled for January 28, 2025.",  # no record holds a quarter
    "AXO pays a dividend of 87 cents on Jan. 15.",
    "AXO outperformed BRQ on December 31, rising 1.38% while BRQ fell 1.98%.",
    "Neither AXO nor CVLT fell on the day.",
    'BRQ slid 2% after "Brq shares slide after guidance cut".',
    "AXO jumped 1.38% on 2024-12-31 (Tuesday).",
    "AXO ended December 31 up 1.38%.",
    "AXO was higher by 1.38%.",
    "For the session, AXO +1.38%, BRQ -1.98%, CVLT +1.54%.",
]
CORRUPT = [
    (
        "AXO closed at $291.10, up 3.96 from Monday's close of $287.41, a 1.38% gain.",
        "unsupported_figure",
    ),
    ("AXO closed at $291.10, up 1.38% from the December 31 close of $287.14.", "wrong_time"),
    ("AXO closed at $291.10, up 1.38% from the December 30 close of $291.10.", "wrong_time"),
    ("AXO closed at $291.10, up 3.96 from Monday's close of $291.10.", "wrong_time"),
    ("AXO rose 1.38%. BRQ fell 1.98%. It closed at $291.10.", "wrong_subject"),
    ("Desde el 29 de noviembre, AXO ha ganado un 4,93 %.", "wrong_direction"),
    ("AXO aportó 1,38 puntos porcentuales a la rentabilidad de la cartera.", "wrong_field"),
    ("AXO terminó la sesión a la baja.", "wrong_direction"),
    ("Titular de CVLT: «Axo CFO to step down at year end».", "wrong_subject"),
    ("El 31 de diciembre de 2024 fue lunes.", "wrong_weekday"),
    ("AXO publicará resultados el 15 de enero de 2025.", "wrong_event_day"),
    ("AXO rose 4.93% from November 29.", "wrong_direction"),
    ("AXO fell 1.38% from December 30.", "wrong_direction"),
    ("AXO rose 1.38% since November 29.", "wrong_time"),
    ('"Axo CFO to step down at year end" was published on December 31.', "wrong_time"),
    ('"Axo CFO to step down at year end" (Dec 31)', "wrong_time"),
    ("AXO rose 1.38% for the month.", "wrong_time"),
    ("AXO closed at $291.10, down 1.38%.", "wrong_direction"),
    ("AXO closed down on the day at $291.10.", "wrong_direction"),
    ("BRQ gained on the day.", "wrong_direction"),
    ("AXO finished lower.", "wrong_direction"),
    ("AXO's stock dropped on Tuesday.", "wrong_direction"),
    ("AXO sank 4.93% on Tuesday.", "wrong_time"),
    ("AXO rose 1.38% since November 29.", "wrong_time"),
    ('Headline for AXO: "Brq shares slide after guidance cut".', "wrong_subject"),
    ("AXO bajó el martes.", "wrong_direction"),
    ("AXO went from $287.14 to $291.10, a 1.38% loss.", "wrong_direction"),
    ("AXO's one-month return is -1.38%.", "unsupported_figure"),
    ("AXO rose 4.93% in Tuesday's session.", "wrong_time"),  # Tuesday: the report date
    ("Yesterday AXO rose 1.38% to $291.10.", "wrong_time"),  # the session before the report date
    ("Ayer AXO subió un 1,38 %.", "wrong_time"),
    ("On Monday AXO rose 1.38%.", "wrong_time"),
    ("BRQ outperformed AXO on December 31, though BRQ fell 1.98%.", "wrong_relation"),
    ("CVLT rose 1.38% on the day.", "wrong_subject"),
    ("AXO closed at $45.12.", "wrong_subject"),
    ("AXO's previous close was $291.10.", "wrong_field"),
    ("AXO's market value is $475.20.", "wrong_field"),
    ("The portfolio gained $475.20 on the day.", "wrong_subject"),  # AXO's P&L, not P001's
    ("The P001 position in AXO lost $475.20 on the day.", "wrong_direction"),
    ("AXO cerró a la baja en 291,10 $.", "wrong_direction"),
    ("AXO retrocedió un 1,38 % el 31 de diciembre.", "wrong_direction"),
    ("AXO rose 1.38% on December 30.", "wrong_time"),
    ("On Monday, December 30, AXO closed at $291.10.", "wrong_time"),
    ("AXO rose 1.38% in the week.", "wrong_time"),
    ("AXO's weekly gain was 1.38%.", "wrong_time"),
    ("AXO fell 4.93% year-to-date.", "wrong_time"),
    ("AXO rose 4.93% on December 31.", "wrong_time"),
    ("AXO gained 1.38% over the past week.", "wrong_time"),
    ("AXO closed at $291.10 on December 30, 2024.", "wrong_time"),
    ("AXO closed at $287.14 on December 31.", "wrong_time"),
    ("BRQ closed at $291.10.", "wrong_subject"),
    ("AXO fell 1.38% on the day.", "wrong_direction"),
    ("AXO fell on December 31.", "wrong_direction"),
    ("AXO closed lower at $291.10.", "wrong_direction"),
    ("AXO moved 1.38 percentage points.", "wrong_field"),
    ("AXO added 1.38 pp to the portfolio's return.", "wrong_field"),
    ("AXO last traded at $287.14.", "wrong_field"),
    ('BRQ headline: "Axo Industries wins $2.1 billion defense contract".', "wrong_subject"),
    ('AXO: "Axo Industries wins $2.1 billion".', "unknown_headline"),
    ("AXO reports earnings on January 15, 2025.", "wrong_event_day"),
    ("AXO reports earnings on December 30, 2024.", "wrong_event_day"),
    ("Wednesday (2024-12-31): AXO closed at $291.10.", "wrong_weekday"),
    ('"Axo Industries wins $2.1 billion defense contract" came after the close.', "wrong_session"),
    ("AXO cayó un 1,38 % el 31 de diciembre.", "wrong_direction"),
    ("Las acciones de AXO cayeron el 31 de diciembre.", "wrong_direction"),
    ("AXO subió un 4,93 % en la sesión.", "wrong_time"),
    ("Titular de BRQ: «Axo Industries wins $2.1 billion defense contract».", "wrong_subject"),
    ("AXO cerró a 291,10 $ el 30 de diciembre.", "wrong_time"),
    ("BRQ rose 1.98% on the day.", "wrong_direction"),
    ("BRQ rose on the day.", "wrong_direction"),
    ("AXO is up 1.38% over the past month.", "wrong_time"),
    ("CVLT closed at $45.12.", "wrong_subject"),
    ("The AXO position contributed 1.38% to the portfolio.", "wrong_field"),
    ("AXO's day P&L was $34,932.00.", "wrong_field"),
]


UNCHECKED = [
    # Each is accepted by a verifier that checks only the claims it has a grammar for: every
    # figure is real, and what the sentence says beyond them is not in the trace.
    'AXO closed higher on December 31, helped by the news "Axo Industries wins $2.1 billion '
    'defense contract", which came before the open.',  # a cause no tool shows
    'On December 30, MarketWatch reported "Axo CFO to step down at year end".',  # no wire named
    "AXO (NYSE: AXO) rose 1.38%.",  # the exchange is in no result
    'AXO\'s CFO news ("Axo CFO to step down at year end") came after the close on December 30.',
    "AXO, which rose 1.38%, led gains.",  # a ranking without ranks: CVLT rose 1.54%
    "AXO (+1.38%) led the portfolio; BRQ (-1.98%) lagged.",
    "AXO was the top gainer, +1.38%.",
    "AXO rose 1.38% on the day, its first gain after falling 4.93% over the month.",  # a streak
    "AXO's analysts rate it a buy after it rose 1.38% on December 31.",
    "AXO rose 1.38% on December 31, and is expected to keep rising.",
]


def verdict(draft: str) -> Any:
    return verify(
        {
            "question": "Nightly report for P001 on 2024-12-31",
            "draft": draft,
            "events": EV,
            "as_of": D,
        }
    )


@pytest.mark.parametrize("draft", FAITHFUL + FAITHFUL_MORE)
def test_a_faithful_draft_is_accepted(draft: str) -> None:
    assert verdict(draft).reasons == []


@pytest.mark.parametrize("draft", UNCHECKED)
def test_a_claim_no_rule_checks_rejects_the_draft(draft: str) -> None:
    rules = {r.rule.value for r in verdict(draft).reasons}
    assert "unverified_claim" in rules


@pytest.mark.parametrize(("draft", "rule"), CORRUPT)
def test_a_corrupted_draft_is_rejected_by_the_rule_of_its_corruption(draft: str, rule: str) -> None:
    assert sorted({r.rule.value for r in verdict(draft).reasons}) == [rule]

"""Each rule on hand-written traces: it fires on its own error and stays quiet otherwise."""

from __future__ import annotations

from typing import Any

import pytest

from verifier.verify import verify, verify_json

MOVE = {
    "id": "e1",
    "tool": "get_daily_move",
    "args": {"ticker": "AAPL", "date": "2024-06-14"},
    "result": {
        "ticker": "AAPL",
        "session": "2024-06-14",
        "previous_session": "2024-06-13",
        "close": 27.88,
        "previous_close": 26.1873,
        "change": 1.6927,
        "change_pct": 6.4528,
    },
}
PRICE = {
    "id": "e1",
    "tool": "get_price",
    "args": {"ticker": "AAPL", "date": "2024-06-14"},
    "result": {"ticker": "AAPL", "session": "2024-06-14", "close": 27.88},
}
FAILED = {
    "id": "e2",
    "tool": "get_price",
    "args": {"ticker": "ZZZZ", "date": "2024-06-14"},
    "error": "unknown ticker 'ZZZZ'",
}
NEWS = {
    "id": "e3",
    "tool": "search_news",
    "args": {"ticker": "AAPL"},
    "result": {
        "news": [
            {
                "headline": "Apple unveils new chip at developer event",
                "published_at": "2024-06-14T14:00:00Z",
            }
        ]
    },
}


def run(draft: str | None, *events: dict[str, Any], requires: list[str] | None = None):
    trace = {
        "question": "How did AAPL do on 2024-06-14?",
        "draft": draft,
        "events": list(events) or [MOVE],
        "requires": requires or [],
        "stop_reason": "max_steps",
    }
    verdict = verify_json(trace)
    return verdict, sorted({r.rule.value for r in verdict.reasons})


@pytest.mark.parametrize(
    "draft",
    [
        "AAPL closed at 27.88, up 6.45%.",
        "AAPL closed at 27.9, up 6.5%.",
        "AAPL subió un 6,45 % hasta 27,88.",
        "AAPL closed at 27.88 on June 14, 2024, 1.69 above 26.19.",
        "AAPL rose 1.69 (6.45%) on Jun 14.",
    ],
)
def test_faithful_drafts_are_accepted_with_their_evidence(draft: str) -> None:
    verdict, rules = run(draft)
    assert rules == []
    assert all(c.supported_by for c in verdict.claims)


@pytest.mark.parametrize(
    ("draft", "rule"),
    [
        ("AAPL closed at 27.88, up 6.48%.", "unsupported_figure"),
        ("AAPL closed at 27.8, up 6.45%.", "unsupported_figure"),
        ("AAPL closed at -27.88, up 6.45%.", "unsupported_figure"),
        ("AAPL rose 27.88% on the day.", "uncomputed_percentage"),
        ("AAPL rose 1.69% on the day.", "uncomputed_percentage"),
        ("AAPL fell 6.45% to 27.88.", "wrong_direction"),
        ("AAPL cayó un 6,45 %.", "wrong_direction"),
        ("AAPL closed at 27.88 on 2024-06-17, up 6.45%.", "unsupported_date"),
        ("AAPL and MSFT: AAPL rose 6.45%.", "unknown_ticker"),
    ],
)
def test_each_rule_fires_alone(draft: str, rule: str) -> None:
    verdict, rules = run(draft)
    assert rules == [rule]
    assert not verdict.accepted
    reason = verdict.reasons[0]
    assert reason.span is not None and reason.message


def test_precision_aware_comparison() -> None:
    assert run("AAPL moved 6.4528%.")[1] == []
    assert run("AAPL moved 6.4529%.")[1] == ["unsupported_figure"]
    assert run("AAPL previously closed at 26.2.")[1] == []


def test_fraction_supports_percent_and_scale_words_support_money() -> None:
    calc = {
        "id": "c1",
        "tool": "calculate",
        "args": {"expression": "x"},
        "result": {"value": 0.0645},
    }
    pos = {
        "id": "p1",
        "tool": "get_position_pnl",
        "args": {"ticker": "AAPL"},
        "result": {"ticker": "AAPL", "market_value": 1234567.0, "contribution_pct": 0.85},
    }
    assert run("AAPL gained 6.45%.", calc)[1] == []
    assert run("AAPL is worth $1.2M and added 85 bps.", pos)[1] == []
    assert run("AAPL is worth $1.3M.", pos)[1] == ["unsupported_figure"]


def test_the_classic_ten_dollars_for_a_failed_lookup() -> None:
    verdict, rules = run("AAPL closed at 27.88. ZZZZ closed at $10.", PRICE, FAILED)
    assert rules == ["unresolved_error"]
    assert "get_price e2" in verdict.reasons[0].message and '"$10"' in verdict.reasons[0].message


def test_a_later_successful_call_resolves_the_failure() -> None:
    retry = {**FAILED, "id": "e3", "result": {"ticker": "ZZZZ", "close": 10.0}}
    retry.pop("error")
    assert run("ZZZZ closed at $10.", FAILED, retry)[1] == []


def test_a_figure_from_another_tickers_result_is_the_wrong_subject() -> None:
    msft = {
        "id": "e2",
        "tool": "get_price",
        "args": {"ticker": "MSFT"},
        "result": {"ticker": "MSFT", "close": 410.5},
    }
    verdict, rules = run("AAPL closed at 410.5.", PRICE, msft)
    assert rules == ["wrong_subject"]
    assert "MSFT" in verdict.reasons[0].message and "AAPL" in verdict.reasons[0].message


def test_headlines_must_be_quoted_literally() -> None:
    assert run('AAPL: "Apple unveils new chip at developer event".', NEWS)[1] == []
    assert run("AAPL: «apple unveils new chip…»", NEWS)[1] == []
    assert run("AAPL: «…new chip at developer event»", NEWS)[1] == []
    assert run("AAPL: «Apple unveils […] developer event»", NEWS)[1] == []
    assert run("AAPL: «apple unveils new chip»", NEWS)[1] == ["unknown_headline"]
    assert run("AAPL: «new chip at developer»", NEWS)[1] == ["unknown_headline"]
    assert run("AAPL: «Apple unveils … developer»", NEWS)[1] == ["unknown_headline"]
    assert run('AAPL: "Apple unveils new phone at developer event".', NEWS)[1] == [
        "unknown_headline"
    ]


def test_missing_answer_and_no_draft() -> None:
    assert run("AAPL closed at 27.88.", requires=["percentage"])[1] == ["missing_answer"]
    assert run("AAPL closed at 27.88.", requires=["horoscope"])[1] == ["missing_answer"]
    verdict, rules = run(None)
    assert rules == ["no_draft"] and "max_steps" in verdict.reasons[0].message


def test_full_agent_trace_is_accepted_as_the_model_and_as_its_json() -> None:
    from contract.trace import Trace

    trace = Trace(question_id="q", question="AAPL?", events=[MOVE], draft="AAPL closed at 27.88.")
    assert verify(trace).accepted
    assert verify_json(trace.model_dump(mode="json")) == verify(trace)


def test_malformed_traces_are_rejected_not_raised() -> None:
    verdict = verify_json({"events": [{"tool": 3}]})  # type: ignore[dict-item]
    assert [r.rule.value for r in verdict.reasons] == ["invalid_trace"]
    assert "events" in verdict.reasons[0].message


CALC = {
    "id": "e2",
    "tool": "calculate",
    "args": {"expression": "(27.88 - 25.5) / 25.5"},
    "result": {"expression": "(27.88 - 25.5) / 25.5", "value": 0.093333},
}
SQL = {
    "id": "e4",
    "tool": "run_sql",
    "args": {"sql": "SELECT ticker, change, change_ratio FROM moves"},
    "result": {
        "columns": ["ticker", "change", "change_ratio"],
        "rows": [["AAPL", 1.69, 0.0645]],
    },
}


@pytest.mark.parametrize(
    ("draft", "events", "rules"),
    [
        # the numbers of a calculation's expression are the model's input, not evidence
        ("AAPL closed at 27.88, up from 25.5.", (MOVE, CALC), ["unsupported_figure"]),
        ("AAPL closed at 27.88, 9.33% above the close of 2024-06-13.", (MOVE, CALC), []),
        # ... and what the sentence says of that level beyond the figure is checked by no rule
        (
            "AAPL closed at 27.88, 9.33% above a level of its own choosing.",
            (MOVE, CALC),
            ["unverified_claim"],
        ),
        # bps are hundredths of a percent, also where the key is already in percent
        ("AAPL closed at 27.88, up 6.45 bps.", (MOVE,), ["unsupported_figure"]),
        ("AAPL closed at 27.88, up 645 bps.", (MOVE,), []),
        # a thousands separator makes a quantity, never the year of a date
        (
            "AAPL closed at 27.88 on 2024-06-14 with 2,024 shares traded.",
            (MOVE,),
            ["unsupported_figure"],
        ),
        ("AAPL closed at 27.88 on 2024-06-14, its last close of 2024.", (MOVE,), []),
        # "the best close": a ranking no result computes
        (
            "AAPL closed at 27.88 on 2024-06-14, the best close of 2024.",
            (MOVE,),
            ["unverified_claim"],
        ),
        # a SQL cell is read as a fraction only under a ratio's name
        ("AAPL rose 169% on the day.", (MOVE, SQL), ["unsupported_figure"]),
        ("AAPL rose 6.45% on the day, a change of 1.69.", (MOVE, SQL), []),
        # a bound the exact value breaks
        ("AAPL closed at 27.88, up less than 6%.", (MOVE,), ["unsupported_figure"]),
        ("AAPL closed at 27.88, up more than 6%.", (MOVE,), []),
        ("AAPL closed below 27.9.", (MOVE,), []),
        ("AAPL closed above 27.9.", (MOVE,), ["unsupported_figure"]),
        # a figure in parentheses right after a date or an amount is an aside, else a negative
        ("AAPL cerró a 27,88 $ (6,45 %) el 14 de junio de 2024.", (MOVE,), []),
        ("AAPL closed higher on 2024-06-14 (27.88), up 6.45%.", (MOVE,), []),
        ("AAPL closed at 27.88; its day change was (1.69).", (MOVE,), ["unsupported_figure"]),
        # a figure the draft names (close, previous close, market value, P&L) is that field
        ("AAPL closed at 26.19 on 2024-06-14, up 6.45%.", (MOVE,), ["wrong_time"]),
        ("AAPL closed at 27.88, from a previous close of 26.19.", (MOVE,), []),
        ("AAPL: a previous close of 27.88, up 6.45%.", (MOVE,), ["wrong_field"]),
        ("AAPL cerró a 27,88 $ frente a un cierre anterior de 26,19 $.", (MOVE,), []),
        # cents are hundredths of the currency
        ("AAPL's day change was 169 cents.", (MOVE,), []),
        ("AAPL's day change was 170 cents.", (MOVE,), ["unsupported_figure"]),
        # words the draft names a figure with, in other forms
        ("AAPL's closing price was 26.19 on 2024-06-14.", (MOVE,), ["wrong_time"]),
        (
            "AAPL settled at 27.88 on 2024-06-14, up from the prior day's close of 26.19.",
            (MOVE,),
            [],
        ),
        ("AAPL ended the session at 27.88, a day change of 6.45.", (MOVE,), ["wrong_field"]),
        ("AAPL ended the session at 27.88, a day change of 1.69.", (MOVE,), []),
        # a clock time is not two figures, and no result here gives it
        (
            "AAPL closed at 27.88; the news came at 14:22 UTC on 2024-06-14.",
            (MOVE,),
            ["unsupported_date"],
        ),
        # a weekday written with a date must be the day it falls on
        ("AAPL closed at 27.88 on Friday, June 14, 2024.", (MOVE,), []),
        ("AAPL subió un 6,45 % el viernes 14 de junio de 2024.", (MOVE,), []),
        ("AAPL closed at 27.88 on Thursday, June 14, 2024.", (MOVE,), ["wrong_weekday"]),
        ("AAPL closed at 27.88 on Mon 2024-06-14.", (MOVE,), ["wrong_weekday"]),
        ("AAPL closed at 27.88 on 2024-06-14 (Thursday).", (MOVE,), ["wrong_weekday"]),
        ("AAPL closed at 27.88 on 2024-06-14 (Friday).", (MOVE,), []),
        ("AAPL closed at 27.88 on Friday, June 14.", (MOVE,), []),
        ("AAPL closed at 27.88 on Monday, June 14.", (MOVE,), ["wrong_weekday"]),
        # direction words before and after the figure
        ("AAPL tumbled 6.45% to 27.88.", (MOVE,), ["wrong_direction"]),
        ("AAPL closed 6.45% lower at 27.88.", (MOVE,), ["wrong_direction"]),
        ("AAPL closed 6.45% higher at 27.88.", (MOVE,), []),
        ("AAPL surged 6.45% to 27.88.", (MOVE,), []),
    ],
)
def test_figures_hold_only_what_their_sources_say(
    draft: str, events: tuple[dict[str, Any], ...], rules: list[str]
) -> None:
    assert run(draft, *events)[1] == rules


@pytest.mark.parametrize(
    ("question", "draft", "rules"),
    [
        (
            "Which events does AAPL have in the next 30 days?",
            "AAPL pays $30 on 2024-06-14.",
            ["unsupported_figure"],
        ),
        ("Which events does AAPL have in the next 30 days?", "None in the next 30 days.", []),
        ("Did AAPL close above $27 on 2024-06-14?", "Yes: AAPL closed at $27.88, above $27.", []),
    ],
)
def test_a_number_of_the_question_is_money_only_where_the_question_is(
    question: str, draft: str, rules: list[str]
) -> None:
    trace = {"question": question, "draft": draft, "events": [MOVE]}
    verdict = verify_json(trace)
    assert sorted({r.rule.value for r in verdict.reasons}) == rules


POSITION = {
    "id": "p1",
    "tool": "get_position_pnl",
    "args": {"portfolio_id": "P001", "ticker": "AAPL", "date": "2024-06-14"},
    "result": {
        "ticker": "AAPL",
        "base_currency": "USD",
        "quantity": 100.0,
        "close": 27.88,
        "market_value": 2788.0,
        "day_pnl": 169.27,
        "pnl_pct": 6.45,
        "contribution_pct": 0.85,
    },
}
WIRE = {
    "id": "n1",
    "tool": "search_news",
    "args": {"ticker": "AAPL"},
    "result": {"news": [{"headline": "Apple sets buyback", "source": "PR Newswire"}]},
}


@pytest.mark.parametrize(
    ("draft", "rules"),
    [
        # a stop word the results mention (a currency, a news wire) is still not a ticker
        ("AAPL: the day P&L was USD 169.27, a market value of 2,788.00 USD.", []),
        # a headline's content retold, not quoted: no rule checks it
        ("PR Newswire reported a buyback, and AAPL closed at 27.88.", ["unverified_claim"]),
        # a percentage named as the contribution must be the contribution
        ("AAPL contributed a contribution of 0.85% to P001.", []),
        ("AAPL: a contribution of 6.45% to P001.", ["wrong_field"]),
    ],
)
def test_words_of_the_results_and_named_percentages(draft: str, rules: list[str]) -> None:
    verdict = verify_json(
        {"question": "How did the AAPL position do?", "draft": draft, "events": [POSITION, WIRE]}
    )
    assert sorted({r.rule.value for r in verdict.reasons}) == rules


@pytest.mark.parametrize(
    ("stamp", "rules"),
    [
        ("2024-06-14T14:00:00Z", []),
        ("2024-06-14 14:00", []),
        ("2024-06-14T15:00:00Z", ["unsupported_date"]),
    ],
)
def test_a_timestamp_must_be_one_a_result_holds_to_the_minute(stamp: str, rules: list[str]) -> None:
    draft = f'AAPL closed at 27.88 after "Apple unveils new chip at developer event" ({stamp}).'
    assert run(draft, MOVE, NEWS)[1] == rules


EVENTS = {
    "id": "v1",
    "tool": "get_events",
    "args": {"ticker": "AAPL", "start": "2024-06-14", "end": "2024-07-14"},
    "result": {
        "ticker": "AAPL",
        "events": [{"date": "2024-07-01", "kind": "dividend", "value": 0.87}],
    },
}


@pytest.mark.parametrize(
    ("draft", "rules"),
    [
        ("AAPL pays a dividend of $0.87 on 2024-07-01.", []),
        ("AAPL pagará un dividendo de 0,87 $ el 1 de julio de 2024.", []),
        (
            "AAPL reports earnings of $0.87 on 2024-07-01.",
            ["wrong_event_day", "wrong_field"],
        ),
        ("AAPL has EPS of $0.87 due on 2024-07-01.", ["wrong_event_day", "wrong_field"]),
        ("AAPL reports EPS of $0.87 on 2024-06-14.", ["wrong_field"]),  # no event that day
    ],
)
def test_an_event_figure_named_by_its_kind_must_be_that_kind(draft: str, rules: list[str]) -> None:
    assert run(draft, EVENTS)[1] == rules


SESSION_NEWS = {
    "id": "n2",
    "tool": "search_news",
    "args": {"ticker": "AAPL"},
    "result": {
        "news": [
            {
                "published_at": "2024-06-14T21:30:00Z",
                "session": "after",
                "source": "Reuters",
                "headline": "Apple Inc. unveils new chip at developer event",
            }
        ]
    },
}


@pytest.mark.parametrize(
    ("draft", "rules"),
    [
        ('"Apple Inc. unveils new chip at developer event" came after the close.', []),
        ('After the close, Reuters ran "Apple Inc. unveils new chip at developer event".', []),
        (
            '"Apple Inc. unveils new chip at developer event" came before the open.',
            ["wrong_session"],
        ),
        ('"Apple Inc. unveils new chip at developer event" (premarket).', ["wrong_session"]),
        ('"Apple Inc. unveils new chip…" came before the open.', ["wrong_session"]),
        (
            'AAPL fell before the open. "Apple Inc. unveils new chip at developer event" came later.',
            ["unverified_claim"],  # no result holds a move before the open
        ),
    ],
)
def test_a_headline_said_to_come_in_a_session_must_have_come_then(
    draft: str, rules: list[str]
) -> None:
    assert run(draft, MOVE, SESSION_NEWS)[1] == rules


TWO_NEWS = {
    "id": "n3",
    "tool": "search_news",
    "args": {"ticker": "AAPL"},
    "result": {
        "news": [
            {
                "published_at": "2024-06-13T21:05:00Z",
                "source": "Reuters",
                "headline": "Apple beats quarterly estimates",
            },
            {
                "published_at": "2024-06-14T14:22:00Z",
                "source": "AP",
                "headline": "Apple cuts full year outlook",
            },
        ]
    },
}


@pytest.mark.parametrize(
    ("draft", "rules"),
    [
        (
            '"Apple beats quarterly estimates" (2024-06-13T21:05Z), then "Apple cuts full year '
            'outlook" (2024-06-14T14:22Z).',
            [],
        ),
        (
            'At 2024-06-14 14:22, "Apple cuts full year outlook"; at 2024-06-13 21:05, "Apple '
            'beats quarterly estimates".',
            [],
        ),
        (
            '"Apple beats quarterly estimates" (2024-06-14T14:22Z), then "Apple cuts full year '
            'outlook" (2024-06-13T21:05Z).',
            ["wrong_time"],
        ),
        (
            'At 2024-06-13 21:05, "Apple cuts full year outlook". AAPL closed at 27.88.',
            ["wrong_time"],
        ),
        (  # a time in another sentence than the quote is not that headline's time
            'News checked at 2024-06-13 21:05. "Apple cuts full year outlook" came later.',
            [],
        ),
        (  # each time is in the brackets right after its own quote
            '"Apple beats quarterly estimates" (Reuters, 2024-06-13T21:05Z), "Apple cuts full year '
            'outlook" (AP; 2024-06-14T14:22Z).',
            [],
        ),
        (
            '"Apple beats quarterly estimates" (Reuters, 2024-06-13T21:05Z), "Apple cuts full year '
            'outlook" (AP, 2024-06-13T21:05Z).',
            ["wrong_time"],
        ),
        (
            'At 2024-06-13T21:05Z Reuters ran "Apple beats quarterly estimates", and at '
            '2024-06-14T14:22Z AP ran "Apple cuts full year outlook".',
            [],
        ),
        (
            'At 2024-06-14T14:22Z Reuters ran "Apple beats quarterly estimates", and at '
            '2024-06-13T21:05Z AP ran "Apple cuts full year outlook".',
            ["wrong_time"],
        ),
        (
            "«Apple beats quarterly estimates» (Reuters, 2024-06-13T21:05Z) y «Apple cuts full year "
            "outlook» (AP, 2024-06-14T14:22Z).",
            [],
        ),
        ('"Apple beats quarterly…" (Reuters, 2024-06-14T14:22Z).', ["wrong_time"]),
        (  # the time is what the sentence says of something else
            'AP\'s "Apple cuts full year outlook" preceded the announcement at 2024-06-13T21:05Z.',
            [],
        ),
        (  # a line break ends a list item: its time is not the next line's
            '- "Apple beats quarterly estimates" — Reuters, 2024-06-13T21:05Z\n'
            '- "Apple cuts full year outlook" — AP, 2024-06-14T14:22Z',
            [],
        ),
        (
            "| Time | Source | Headline |\n|---|---|---|\n"
            '| 2024-06-14T14:22Z | Reuters | "Apple beats quarterly estimates" |\n'
            '| 2024-06-13T21:05Z | AP | "Apple cuts full year outlook" |',
            ["wrong_time"],
        ),
        ('"Apple beats quarterly estimates" [Reuters, 2024-06-14T14:22Z].', ["wrong_time"]),
        (
            '"Apple beats quarterly estimates" was issued at 2024-06-14T14:22Z.',
            ["wrong_time"],
        ),
        (
            "«Apple beats quarterly estimates» fue publicado por Reuters el 2024-06-14T14:22Z.",
            ["wrong_time"],
        ),
        (
            'At 2024-06-14T14:22Z, Reuters\'s "Apple beats quarterly estimates" came out.',
            ["wrong_time"],
        ),
    ],
)
def test_a_timestamp_written_with_a_headline_must_be_that_headlines_time(
    draft: str, rules: list[str]
) -> None:
    assert run(draft, MOVE, TWO_NEWS)[1] == rules


CALENDAR = {
    "id": "v2",
    "tool": "get_events",
    "args": {"ticker": "AAPL", "start": "2024-06-14", "end": "2024-09-14"},
    "result": {
        "ticker": "AAPL",
        "events": [
            {"date": "2024-07-01", "kind": "dividend", "value": 0.25},
            {"date": "2024-08-01", "kind": "earnings", "value": None},
        ],
    },
}


@pytest.mark.parametrize(
    ("draft", "rules"),
    [
        ("AAPL reports earnings on 2024-08-01 and pays a dividend on 2024-07-01.", []),
        ("AAPL: earnings report scheduled for August 1, 2024; ex-dividend date: July 1.", []),
        ("AAPL: dividendo el 1 de julio de 2024, informe de resultados el 1 de agosto.", []),
        ("AAPL reports earnings on 2024-07-01.", ["wrong_event_day"]),
        ("AAPL: the dividend date is August 1, 2024.", ["wrong_event_day"]),
        ("AAPL: informe de resultados el 1 de julio de 2024.", ["wrong_event_day"]),
        ("AAPL: earnings on 2024-06-14 took it to 27.88.", []),  # no event that day: not judged
        ("AAPL: earnings on Thursday, August 1, 2024; dividend on Monday, July 1, 2024.", []),
        ("AAPL: earnings on Monday, July 1, 2024.", ["wrong_event_day"]),
        ("AAPL: resultados el 2024-08-01.", []),
        ("AAPL: resultados el 2024-07-01.", ["wrong_event_day"]),
        ("AAPL: resultados trimestrales el lunes 1 de julio de 2024.", ["wrong_event_day"]),
        ("AAPL will report earnings, scheduled for 2024-07-01.", ["wrong_event_day"]),
        ("AAPL's earnings are expected to be released on 2024-07-01.", ["wrong_event_day"]),
        ("AAPL's dividend is payable on 2024-08-01.", ["wrong_event_day"]),
        ("AAPL: earnings — 2024-07-01.", ["wrong_event_day"]),
        ("AAPL: a dividend of $0.25/share, payable on 2024-08-01.", ["wrong_event_day"]),
        ("AAPL: dividendo de 0,25 dólares por acción el 2024-08-01.", ["wrong_event_day"]),
        # a pairing by "respectively" is read by no rule: the event days are not judged, and
        # the word stands unbound (a swapped pair would pass otherwise)
        (
            "AAPL has earnings and a dividend on 2024-08-01 and 2024-07-01, respectively.",
            ["unverified_claim"],
        ),
        ("AAPL's dividend and earnings: 2024-07-01 and 2024-08-01.", []),
        ("AAPL has no earnings on 2024-07-01; that day is its dividend.", []),
        ("AAPL (Straße office): earnings on 2024-07-01.", ["unverified_claim", "wrong_event_day"]),
        ("AAPL's earnings will be released on 2024-07-01.", ["wrong_event_day"]),
        ("Earnings for AAPL are expected on 2024-07-01.", ["wrong_event_day"]),
        ("AAPL's dividend will be paid to shareholders on 2024-08-01.", ["wrong_event_day"]),
        ("El dividendo de AAPL se paga el 2024-08-01.", ["wrong_event_day"]),
        ("| Event | Date |\n|---|---|\n| Earnings | 2024-07-01 |", ["wrong_event_day"]),
        ("AAPL pays a dividend before earnings, on 2024-07-01.", []),
        ("AAPL's dividend ($0.25) is paid on 2024-07-01.", []),
    ],
)
def test_a_day_named_as_an_events_must_be_a_day_of_that_kind(draft: str, rules: list[str]) -> None:
    assert run(draft, MOVE, CALENDAR)[1] == rules


OTHER_CALENDAR = {
    "id": "v3",
    "tool": "get_events",
    "args": {"ticker": "MSFT", "start": "2024-06-14", "end": "2024-09-14"},
    "result": {"ticker": "MSFT", "events": [{"date": "2024-07-01", "kind": "earnings"}]},
}


@pytest.mark.parametrize(
    ("draft", "rules"),
    [
        ("MSFT reports earnings on 2024-07-01; AAPL pays a dividend on 2024-07-01.", []),
        (
            "MSFT's earnings on 2024-07-01 coincide with AAPL's earnings on 2024-07-01.",
            ["wrong_event_day"],
        ),
        ("AAPL's dividend on 2024-07-01 and MSFT's earnings on 2024-07-01 fall on one day.", []),
        ("AAPL reports earnings on 2024-07-01.", ["wrong_event_day"]),
        ("MSFT pays a dividend on 2024-07-01.", ["wrong_event_day"]),
    ],
)
def test_an_events_day_is_judged_by_the_events_of_the_ticker_named(
    draft: str, rules: list[str]
) -> None:
    assert run(draft, MOVE, CALENDAR, OTHER_CALENDAR)[1] == rules


DECLARED = {
    "id": "v4",
    "tool": "get_events",
    "args": {"ticker": "AAPL", "start": "2024-06-14", "end": "2024-09-14"},
    "result": {
        "ticker": "AAPL",
        "events": [
            {"date": "2024-08-01", "kind": "earnings", "announced_at": "2024-06-01T12:00:00Z"},
            {"date": "2024-08-22", "kind": "dividend", "announced_at": "2024-08-01T20:30:00Z"},
        ],
    },
}


@pytest.mark.parametrize(
    ("draft", "rules"),
    [
        ("AAPL declared a dividend on 2024-08-01, payable on 2024-08-22.", []),
        ("AAPL pays a dividend on 2024-08-22, after earnings on 2024-08-01.", []),
        ("AAPL reports earnings on 2024-08-22.", ["wrong_event_day"]),
    ],
)
def test_an_event_may_be_named_on_the_day_it_was_announced(draft: str, rules: list[str]) -> None:
    assert run(draft, MOVE, DECLARED)[1] == rules


DIVIDEND_NEWS = {
    "id": "n4",
    "tool": "search_news",
    "args": {"ticker": "AAPL"},
    "result": {
        "news": [
            {
                "published_at": "2024-06-13T21:30:00Z",
                "session": "after",
                "source": "Reuters",
                "headline": "Apple declares quarterly dividend of $0.24 per share",
            }
        ]
    },
}


@pytest.mark.parametrize(
    ("draft", "rules"),
    [
        # dates as models write them
        ("AAPL rose 6.45% on 6/14, closing at 27.88 against 26.19 on 6/13.", []),
        ("AAPL closed at 27.88 on 6/14/24.", []),
        ("AAPL cerró a 27,88 el 14-06-2024.", []),
        ("AAPL subió un 6,45 % el viernes 14, tras el dividendo.", []),
        ("AAPL rose 6.45%; news searched Jun 13–14.", []),
        ("AAPL publicó un BPA de 0,24 $ el 13 de junio de 2024.", []),
        ("AAPL will pay a dividend of 24 cents per share.", []),
        ("AAPL will pay a dividend of 25 cents per share.", ["unsupported_figure"]),
        # how often it pays is in no result (only in a headline's text, which is data)
        ("AAPL will pay a quarterly dividend of 24 cents per share.", ["unverified_claim"]),
        # a session phrase joined to the quote it speaks of
        (
            "AAPL rose 6.45% during the session, and after the close Reuters ran "
            '"Apple declares quarterly dividend of $0.24 per share".',
            [],
        ),
        (
            'During the session, "Apple declares quarterly dividend of $0.24 per share".',
            ["wrong_session"],
        ),
        # a field named in markup, a label or with a hedge
        ("AAPL closed at **$26.19** on 2024-06-14, up **6.45%**.", ["wrong_time"]),
        ("- **Close:** $26.19 (+6.45%)", ["wrong_field"]),
        ("- **Close:** $27.88 (+6.45%)", []),
        ("AAPL closed the day at about $26.19.", ["wrong_field"]),
    ],
)
def test_drafts_in_the_shapes_models_write(draft: str, rules: list[str]) -> None:
    assert run(draft, MOVE, DIVIDEND_NEWS)[1] == rules


@pytest.mark.parametrize(
    ("draft", "rules"),
    [
        ("AAPL contributed 0.85% to P001's return.", []),
        ("AAPL contributed 6.45% to P001's return.", ["wrong_field"]),
        ("- **Contribution:** 6.45%", ["wrong_field"]),
    ],
)
def test_a_contribution_must_be_the_contribution(draft: str, rules: list[str]) -> None:
    assert run(draft, POSITION)[1] == rules

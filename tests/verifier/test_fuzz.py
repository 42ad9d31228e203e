"""verify never raises, whatever the draft and the trace hold."""

from __future__ import annotations

import re
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from verifier import periods, scanner
from verifier.extraction import extract_claims
from verifier.grammar import dates, directions, figures, tickers
from verifier.grammar.events import EVENT_WORD
from verifier.grammar.field_words import FIELD_WORD
from verifier.grammar.moves import MOVE
from verifier.grammar.quotes import SESSION_WORD
from verifier.times import WINDOW
from verifier.verify import verify_json as verify

PIECES = [
    *"0123456789.,-−–+()$€%  AZQXbnMk\"“”«»„‘’'…/",
    "minus ",
    "31.12.2024",
    "2024/12/31",
    "rose ",
    "fell ",
    "cayó ",
    "de marzo de ",
    "March ",
    "Q3 ",
    "bps ",
    "2024-03-1",
    "AAPL ",
    "BRK-A",
    " in the ",
    "prior year ",
    "2021 ",
    "$8.2m ",
    "earnings on ",
    "dividend of $0.87 per share on ",
    "dividendo el ",
    "2024-12-30T21:05Z ",
    "2024-12-30 21:05 ",
    "after the close ",
    "Monday, ",
]
REPORTISH = st.lists(st.sampled_from(PIECES), max_size=40).map("".join)
DRAFTS = st.one_of(st.none(), st.text(max_size=200), REPORTISH)
JSON = st.recursive(
    st.none()
    | st.booleans()
    | st.integers()
    | st.floats()
    | st.text(max_size=30)
    | REPORTISH
    | st.sampled_from(["earnings", "dividend", "split", "2024-12-30", "2024-12-30T21:05:00Z"]),
    lambda inner: (
        st.lists(inner, max_size=4)
        | st.dictionaries(
            st.sampled_from(
                [
                    "ticker",
                    "close",
                    "change_pct",
                    "value",
                    "headline",
                    "published_at",
                    "session",
                    "kind",
                    "date",
                    "columns",
                    "rows",
                    "error",
                    "x",
                ]
            ),
            inner,
            max_size=4,
        )
    ),
    max_leaves=12,
)
EVENTS = st.lists(
    st.fixed_dictionaries(
        {
            "id": st.text(max_size=3),
            "tool": st.sampled_from(["get_price", "calculate", "search_news", "run_sql", "x"]),
        },
        optional={"args": JSON, "result": JSON, "error": st.one_of(st.text(max_size=20), JSON)},
    ),
    max_size=5,
)


@settings(max_examples=300, deadline=None)
@given(
    draft=DRAFTS,
    question=st.text(max_size=60) | REPORTISH,
    events=EVENTS,
    requires=st.lists(st.text(max_size=10), max_size=2),
)
def test_verify_never_raises_on_arbitrary_traces(
    draft: Any, question: str, events: Any, requires: Any
) -> None:
    verdict = verify({"question": question, "draft": draft, "events": events, "requires": requires})
    assert verdict.accepted == (not verdict.reasons)
    for claim in verdict.claims:
        assert draft[claim.span[0] : claim.span[1]] == claim.text or claim.kind == "headline"


@settings(max_examples=200, deadline=None)
@given(trace=JSON)
def test_verify_never_raises_on_arbitrary_json(trace: Any) -> None:
    verify(trace)


@given(text=st.text(max_size=300))
def test_extraction_spans_point_into_the_text(text: str) -> None:
    for claim in extract_claims(text):
        assert 0 <= claim.start < claim.end <= len(text)


SCANNED = [
    *zip(dates.DATE_PATTERNS, dates.DATE_SCANS, strict=True),
    *zip(dates.QUARTER_PATTERNS, dates.QUARTER_SCANS, strict=True),
    (figures.NUMBER_WORD, figures.NUMBER_WORD_SCAN),
]
WORDY = st.lists(
    st.sampled_from(
        [
            *PIECES,
            *"/ -sſKİßéÓ",
            "third quarter of 2021 ",
            "Tercer Trimestre del 2020 ",
            "15 de Marzo de 2024",
            "SEPTIEMBRE de 2023",
            "Mar 5th 2024",
            "12/03/2024",
            "3Q21",
            "Q4 FY2020",
            "Rose ",
            "SUBIÓ ",
            "Twelve ",
            "ſeis ",
            "US$",
            "EUR ",
            "1.2 million",
            "last year",
            "Prior Year ",
            "year-ago ",
            "a year earlier ",
            "linked quarter ",
            "paſt quarter ",
            "5th of March ",
            "3 of\u00a0Jun. ",
            "Sept. 5, 2024",
            "xMar 5",
            "June\t2021",
            "2024-03-04T10:00:00Z",
            "-2024-03-04",
            "\n",
            "USD ",
            "(3.2) ",
            "1,092.5",
            "$BRK-A ",
            "ENYW",
            "5seven ",
            "down ",
            "dos ",
            "1.2.1999.",
            "x2024/1/5",
            "2020/12/3/",
            "4–7%",
            "(–3.2)",
            "US$–",
            "14-Jan-2025",
            "3-Sept.-2024 ",
            "13 ene. 2025",
            "5 AGO de 2024",
        ]
    ),
    max_size=30,
).map("".join)


@settings(max_examples=400, deadline=None)
@given(text=st.one_of(WORDY, st.text(max_size=80)))
def test_scans_find_exactly_what_the_full_patterns_find(text: str) -> None:
    folded = scanner.fold(text)
    for pattern, how in SCANNED:
        expected = [(m.span(), m.groupdict()) for m in pattern.finditer(text)]
        if not scanner.holds(how, text, folded):
            assert expected == []
            continue
        found = [(m.span(), m.groupdict()) for m in scanner.scan(how, text, folded)]
        assert found == expected, pattern.pattern
    symbols = [(m.span(), m.group(1) or "", m.group(2)) for m in tickers.TICKER.finditer(text)]
    found_tickers = [
        (m.span(), "$" if m.group()[0] == "$" else "", m.group().removeprefix("$"))
        for m in tickers.TICKER_SCAN.finditer(text)
    ]
    assert found_tickers == symbols
    numbers = [
        (m.span(), m.groups(), m.end("open"), m.start("close"))
        for m in figures.NUMBER.finditer(text)
    ]
    found_numbers = [
        (
            m.span(),
            figures.number_parts(text, m),
            m.end("open"),
            m.start("close"),
        )
        for m in figures.NUMBER_SCAN.finditer(text)
    ]
    assert found_numbers == numbers
    assert [m.end() for m in periods.SENTENCE_END.finditer(text)] == [
        m.end() for m in re.finditer(r"[!?;](?=\s)|\.(?=\s)(?!\s+[a-záéíóúüñç])|\n", text)
    ]


@settings(max_examples=300, deadline=None)
@given(text=st.one_of(WORDY, st.text(max_size=80)))
def test_hinted_relative_periods_are_the_full_scan(text: str) -> None:
    found = [(m[0], m[1]) for m in periods._relative_mentions(text, text.casefold())]
    assert found == [m.span() for m in periods.RELATIVE.finditer(text)]


PHRASES = st.lists(
    st.sampled_from(
        [
            "rose ",
            "fell ",
            "closed lower ",
            "was up ",
            "a gain ",
            "over the past week ",
            "on the day ",
            "1m",
            "$0.12m ",
            "en la última semana ",
            "cayó ",
            "a la baja ",
            "day)",
            "(",
            ".",
            ",",
            "-",
            " ",
            "\n",
            "x",
            "30 ",
            "last 30 days ",
            "hoy ",
        ]
    ),
    max_size=30,
).map("".join)


@settings(max_examples=300, deadline=None)
@given(text=st.one_of(PHRASES, st.text(max_size=80)))
def test_phrase_scans_find_exactly_what_their_reference_patterns_find(text: str) -> None:
    folded = scanner.fold_aligned(text)
    for phrases in (WINDOW, MOVE, directions.DIRECTION, FIELD_WORD, EVENT_WORD, SESSION_WORD):
        expected = [(m.span(), m.lastgroup) for m in phrases.reference.finditer(folded)]
        assert [(m.span(), m.lastgroup) for m in phrases.finditer(folded)] == expected

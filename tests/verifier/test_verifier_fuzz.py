"""verify never raises, whatever the draft and the trace hold."""

from __future__ import annotations

from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from verifier.claims import extract_claims
from verifier.verify import verify

PIECES = [
    *'0123456789.,-−+()$€%  AZQXbnMk"“”«»',
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
]
REPORTISH = st.lists(st.sampled_from(PIECES), max_size=40).map("".join)
DRAFTS = st.one_of(st.none(), st.text(max_size=200), REPORTISH)
JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=30) | REPORTISH,
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

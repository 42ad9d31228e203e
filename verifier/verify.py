"""verify(trace) -> Verdict: pure, deterministic and cheap enough to run on every draft.

`verify` takes the loop's `Trace` as it is (or a `TraceView`); `verify_json` is the door for
decoded JSON (a hand-written trace, a case file), parsed once there."""

from __future__ import annotations

from contract.errors import InputError
from contract.reasons import ReasonCode
from contract.text import visible_chars
from contract.trace import Trace
from verifier.capitals import uncapped
from verifier.extraction import extract_claims
from verifier.grammar.relative import anchor_of
from verifier.index import index_trace
from verifier.rules import RULES, Case, assess_claim, no_draft_reason
from verifier.rules.derived import derive_figures
from verifier.rules.gaps import derive_gaps
from verifier.rules.other_portfolios import portfolio_names, portfolio_of, split_portfolios
from verifier.scanner import compile_all
from verifier.trace_view import TraceView, parse_trace, view_of
from verifier.verdict import Reason, Verdict


def verify_json(data: object) -> Verdict:
    """`verify` for decoded JSON: a trace, or a rejected case file holding one; anything else is
    rejected `invalid_trace` with the one line that says what is wrong."""
    try:
        view = parse_trace(data)
    except InputError as exc:
        return Verdict(
            accepted=False, reasons=[Reason(rule=ReasonCode.INVALID_TRACE, message=exc.message)]
        )
    return verify(view)


_WARM_UP_DRAFTS = (
    "AAA rose 5.00% on Tuesday to close at $10.50, up $0.50 from Monday's 10.00, its best day "
    "this week and the top mover in the portfolio; nothing scheduled. AAA gained 5.00% today, "
    'the same day AP reported "Acme Corp expands partnership with regional distributor".',
    "AAA subió un 5,00 % el martes 31 de diciembre y cerró en 10,50 US$, frente a 10,00 del "
    "lunes: la mayor subida de la semana; sin eventos previstos. Antes de la apertura, AP "
    'publicó "Acme Corp expands partnership with regional distributor".',
)


def warm_up() -> None:
    """Make the verifier ready for its first draft: a night calls it while it prepares, so that
    its first drafts cost what every later one does. Two small drafts (English and Spanish) over
    one day's move and a headline build what is built on first use; then every scan's patterns are compiled."""
    move = {
        "ticker": "AAA",
        "session": "2024-12-31",
        "previous_session": "2024-12-30",
        "close": 10.5,
        "previous_close": 10.0,
        "change": 0.5,
        "change_pct": 5.0,
    }
    news = {
        "headline": "Acme Corp expands partnership with regional distributor",
        "published_at": "2024-12-31T08:36:43-05:00",
        "session": "before",
        "source": "Associated Press",
    }
    for draft in _WARM_UP_DRAFTS:
        verify_json(
            {
                "question": "How did AAA close on 2024-12-31, and how did it move?",
                "as_of": "2024-12-31",
                "language": "es" if "subió" in draft else "en",
                "draft": draft,
                "events": [
                    {
                        "id": "move-1",
                        "tool": "get_daily_move",
                        "args": {"ticker": "AAA", "date": "2024-12-31"},
                        "result": move,
                    },
                    {
                        "id": "news-1",
                        "tool": "search_news",
                        "args": {"ticker": "AAA", "start": "2024-12-30", "end": "2024-12-31"},
                        "result": {"ticker": "AAA", "found": 1, "news": [news]},
                    },
                ],
            }
        )
    compile_all()


def verify(trace: Trace | TraceView) -> Verdict:
    """Hold every claim of the trace's draft against the trace's own tool results."""
    view = trace if isinstance(trace, TraceView) else view_of(trace)
    draft = view.draft or ""
    if not visible_chars(draft).strip():  # nothing a reader would see: zero-width, controls
        return Verdict(accepted=False, reasons=[no_draft_reason(view)])
    own, others = split_portfolios(view)
    evidence = index_trace(own)
    if (read := uncapped(draft, evidence.tickers)) is not draft:  # "YQZ EDGES DOWN 0.02%"
        draft, own = read, own.model_copy(update={"draft": read})
    anchor = anchor_of(view.as_of, [e.result for e in view.events])
    names = portfolio_names(own)  # "Dividend Income's total day loss": the portfolio's
    days = frozenset((m, d) for _, m, d in evidence.dates if d is not None and m <= 12)
    if anchor is not None:
        days |= {(anchor.report.month, anchor.report.day)}
    claims = extract_claims(
        draft, evidence.called, anchor, names, days
    )  # a stop word: a ticker only if called
    case = Case(own, evidence, [assess_claim(c, evidence) for c in claims])
    case.portfolios = {p for e in view.events if (p := portfolio_of(e))}
    if others is not None:
        owners = {e.id: portfolio_of(e) or "" for e in others.events}
        case.foreign = (index_trace(others), owners)
    derive_figures(case)
    derive_gaps(case)
    reasons = [reason for rule in RULES for reason in rule(case)]
    claims_out = [
        {"text": c.text, "span": (c.start, c.end), "kind": c.kind, "supported_by": f.supported_by}
        for f in case.findings
        for c in (f.claim,)
    ]
    return Verdict.model_validate(
        {"accepted": not reasons, "reasons": reasons, "claims": claims_out}
    )

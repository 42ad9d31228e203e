"""What a draft says of a ticker's news or calendar as a whole: "its latest story is from
December 26", "the lone headline", "la única cita", "no news to explain the move", "the calendar
is clear". Each is a claim about the search or the events result of its subject, held against
it like any figure.

- `latest`: the date written after it is the subject's last news day: the latest
  `published_at` of its news results, or the end of the span a failed search reports for it
  ("its news runs from ... to 2024-12-26...").
- `recent`: the subject's search holds items (what a search of the window returns is recent).
- `cause` said under a negation ("nothing in the news explains the move", "sin noticias que lo
  expliquen"): holds only where the subject's search found nothing. Where it found items, that
  none of them explains the move is a judgement no result holds, and the words stay uncovered.
- `some` ("news was found", "the search returned results", "hubo noticias"): the subject's
  search holds items (`wrong_absence` where it found none).
- `clear`: the subject's events result holds no event (one that holds some is
  `wrong_absence`).
- `one`, `two`, `three`, and a count under its label ("Headlines found in the window: 2",
  "Eventos: 0"): the number of items of the subject's search (of its events result, for
  events, entries, citas).
One that holds covers its words; one the trace contradicts is `wrong_relation` (a count, a
date) or `wrong_absence` (a clear calendar); one no call settles stays uncovered.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from collections.abc import Iterator
from functools import cache
from typing import Any

from contract.reasons import ReasonCode
from verifier.claim import Claim
from verifier.lexicon import alternatives, grouped
from verifier.periods import sentence_starts
from verifier.rules.case import Case
from verifier.scanner import PhraseScan, fold_aligned
from verifier.verdict import Reason

_EVENT_NOUN = re.compile(r"(?<!\w)(?:events?|entry|entries|calendar|eventos?|citas?|entradas?)")
_RUNS_TO = re.compile(r"runs\s+from\s+\S+\s+to\s+(\d{4}-\d\d-\d\d)")
_COUNTS = {"one": 1, "two": 2, "three": 3}
_HYPHEN = re.compile(r"(?<=[^\W\d_])-(?=[^\W\d_])")


@cache
def _scan() -> PhraseScan:
    return PhraseScan(grouped("news_claims"))


@cache
def _negation() -> re.Pattern[str]:
    words = alternatives("absence_words")
    return re.compile(
        rf"(?<!\w)(?:{words}|doesn'?t|does\s+not|don'?t|can'?t|cannot|isn'?t|hardly)(?!\w)"
    )


_BREAK = re.compile(r"[.;:!?\n]|,\s+(?:but|while|though|pero|aunque)\s")


def check_news_claims(case: Case) -> Iterator[Reason]:
    """Each claim about a subject's news or calendar as a whole, held against its results."""
    text = case.trace.draft or ""
    folded = _HYPHEN.sub(" ", fold_aligned(text))
    hits = _scan().finditer(folded)
    if not hits:
        return
    starts = sentence_starts(text)
    tickers = [f.claim for f in case.findings if f.claim.kind == "ticker"]
    dates = [f.claim for f in case.findings if f.claim.kind == "date" and f.claim.dates]
    for m in hits:
        i = bisect_right(starts, m.start()) - 1
        lo = starts[i]
        hi = starts[i + 1] if i + 1 < len(starts) else len(text)
        subject = _subject(tickers, lo, m.start(), hi)
        reason = _claim(case, text, folded, m, (lo, hi), subject, dates)
        if reason is not None:
            yield reason


def _subject(tickers: list[Claim], lo: int, at: int, hi: int) -> str | None:
    before = [t for t in tickers if t.start < at]
    after = [t for t in tickers if at <= t.start < hi]
    if before and before[-1].start >= lo:
        return before[-1].symbol
    if after:
        return after[0].symbol
    return before[-1].symbol if before else None


def _results(case: Case, subject: str | None, key: str) -> list[list[Any]] | None:
    """The lists under `key` ("news" or "events") of the subject's successful calls; None
    where no call looked (a failed news search counts as one that found nothing)."""
    found: list[list[Any]] = []
    looked = False
    tool = "search_news" if key == "news" else "get_events"
    for event in case.trace.events:
        if event.tool != tool or (subject and event.ticker not in (None, subject)):
            continue
        looked = True
        result = event.result
        if isinstance(result, dict) and isinstance(result.get(key), list):
            found.append(result[key])
        elif event.error and key == "news":
            found.append([])
    return found if looked else None


def _claim(
    case: Case,
    text: str,
    folded: str,
    m: re.Match[str],
    sentence: tuple[int, int],
    subject: str | None,
    dates: list[Claim],
) -> Reason | None:
    group = m.lastgroup or ""
    said = text[m.start() : m.end()]
    counted = _COUNTS.get(group) or (
        int(re.findall(r"\d+", said)[-1]) if group == "labelled" else 0
    )
    events = bool(counted or group == "labelled") and bool(
        _EVENT_NOUN.search(folded, m.start(), m.end())
    )
    lists = _results(case, subject, "events" if group == "clear" or events else "news")
    if lists is None:
        return None
    items = [i for part in lists for i in part if isinstance(i, dict)]
    if group in ("cause", "recent"):
        before = folded[sentence[0] : m.start()]
        cut = [b.end() for b in _BREAK.finditer(before)]
        clause = before[cut[-1] :] if cut else before
        negated = _negation().search(clause) or said.casefold().startswith("unexplained")
        if (negated and not items) or (group == "recent" and items and not negated):
            case.bound.append(m.span())  # "no recent news" of an empty search; "recent" items
        return None  # a cause said, or denied where news came: no result holds it
    if group == "some":
        before = folded[sentence[0] : m.start()]
        cut = [b.end() for b in _BREAK.finditer(before)]
        if _negation().search(before[cut[-1] :] if cut else before):
            return None  # "no headlines were found": the absence, `verifier.rules.absence`'s
        case.bound.append(m.span())
        if items:
            return None
        return Reason(
            rule=ReasonCode.WRONG_ABSENCE,
            message=f'"{said}" says the search found news for {subject or "the ticker"}, but it '
            "found none",
            span=m.span(),
        )
    if group == "clear":
        case.bound.append(m.span())
        if not items:
            return None
        return Reason(
            rule=ReasonCode.WRONG_ABSENCE,
            message=f'"{said}" says {subject or "the ticker"} has nothing scheduled, but its events '
            f"list {len(items)}",
            span=m.span(),
        )
    if group in _COUNTS or group == "labelled":
        case.bound.append(m.span())
        if len(items) == counted:
            return None
        what = "events" if events else "news items"
        return Reason(
            rule=ReasonCode.WRONG_RELATION,
            message=f'"{said}" counts {counted}, but the trace has {len(items)} {what} for {subject}',
            span=m.span(),
        )
    return _latest(case, text, m, sentence, subject, dates, items)


def _latest(
    case: Case,
    text: str,
    m: re.Match[str],
    sentence: tuple[int, int],
    subject: str | None,
    dates: list[Claim],
    items: list[dict[str, Any]],
) -> Reason | None:
    """The date right after "its latest story is from" is the subject's last news day."""
    after = [d for d in dates if m.end() <= d.start < min(sentence[1], m.end() + 40)]
    if not after:
        return None
    days = {str(i.get("published_at") or "")[:10] for i in items} - {""}
    for event in case.trace.events:
        if event.tool == "search_news" and event.error and event.ticker in (None, subject):
            days.update(_RUNS_TO.findall(str(event.error)))
    if not days:
        return None
    last = max(days)
    year, month, day = int(last[:4]), int(last[5:7]), int(last[8:])
    date = after[0]
    case.bound.append(m.span())
    if any(
        (y is None or y == year) and mo == month and (d is None or d == day)
        for y, mo, d in date.dates
    ):
        return None
    return Reason(
        rule=ReasonCode.WRONG_RELATION,
        message=f'"{text[m.start() : date.end]}": the last news the trace holds for {subject} is of {last}',
        span=(m.start(), date.end),
    )

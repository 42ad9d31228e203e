"""The closed-world rule: words that assert something no rule checked reject the draft."""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from functools import cache

from contract.reasons import ReasonCode
from verifier.coverage import direction_spans, name_words, uncovered
from verifier.framing import framing_spans
from verifier.grammar.field_words import matched_field
from verifier.labels import label_regions
from verifier.lexicon import alternatives, alternatives_of, fragments
from verifier.limits import labels_free, limits_free
from verifier.periods import sentence_starts
from verifier.restatement import restated_free
from verifier.rules.case import Case
from verifier.rules.paraphrase import bind_paraphrases
from verifier.scanner import fold_aligned, matches_at_word_hints, word_hint
from verifier.verdict import Reason


@cache
def _cause() -> tuple[re.Pattern[str], re.Pattern[str] | None]:
    """A move said to come from a piece of news ("rallied thanks to \"...\"", "fell because of
    the report", "jumped on the earnings report", "rallied on the partnership news", "subió
    gracias a la noticia"): a cause no result holds. A move and a headline side by side ("rose
    after \"...\"") state each their own fact, and `verifier.rules.news_times` holds their
    order."""
    moved = (
        f"{alternatives('rise')}|{alternatives('fall')}|move\\s+came|movimiento\\s+(?:llegó|vino)"
    )
    hint = word_hint([*fragments("rise"), *fragments("fall"), "move", "movimiento"])
    news = (
        r"news|reports?|headlines?|announcement|story|stories|results|earnings|noticias?|anuncio|"
        r"titular|resultados"
    )
    return re.compile(
        rf"(?i)(?<!\w)(?:{moved})(?:\s+[-+]?\d[\d.,]*\s*%)?\s+(?P<joint>thanks\s+to|due\s+to|"
        r"because\s+of|on\s+the\s+back\s+of|in\s+response\s+to|gracias\s+a|debido\s+a|"
        r"a\s+causa\s+de|on(?=\s+(?:the\s+|its\s+)?(?:[\w-]+\s+){0,3}(?:"
        + news
        + r")(?!\w))|came\s+on|con\s+(?:la|el)\s+(?=(?:[\w-]+\s+){0,2}(?:noticias?|anuncio|"
        r"resultados)))\s+(?:the\s+|la\s+|el\s+|las\s+|los\s+|a\s+|an\s+|its\s+)?"
        rf"(?:(?:[\w-]+\s+){{0,3}}(?:{news})(?!\w)|[\"“«‘'*])"
    ), hint


@cache
def _in_session() -> tuple[re.Pattern[str], re.Pattern[str] | None]:
    """A day's move said to happen before the open or after the close ("rose 1.31% after the
    close", "jumped 4.85% before the open", "cayó un 2 % en la preapertura"): the results hold
    changes from close to close, no prices outside the session."""
    moved = f"{alternatives('rise')}|{alternatives('fall')}"
    hint = word_hint([*fragments("rise"), *fragments("fall")])
    sessions = "|".join(alternatives_of("sessions", name) for name in ("before", "after"))
    return re.compile(
        rf"(?i)(?<!\w)(?:{moved})(?:\s+(?:un\s+|by\s+)?[-+−]?\d(?:[\d.,]*\d)?\s*%)?"
        r"(?:\s+(?:to|hasta|a)\s+(?:us)?[$€£]?\s*\d(?:[\d.,]*\d)?)?,?\s+"
        rf"(?P<session>{sessions})(?!\w)"
    ), hint


_CAUSE_WORDS = re.compile(
    r"(?i)thanks|due|because|back|response|gracias|debido|causa|\son\s|\scon\s"
)
"""A word every joining phrase of `_cause` holds, under the same case rules: `_cause` opens
with a lookbehind, so its engine tries every position of a draft (~0.1 ms for 175
characters); few drafts hold one of these."""


_SESSION_HINT = re.compile(r"(?i)open|close|bell|market|hours|session|mkt|apertura|cierre|sesión")


def _moves_in(
    how: tuple[re.Pattern[str], re.Pattern[str] | None], text: str, folded: str
) -> Iterable[re.Match[str]]:
    """The matches of a pattern that opens with a move word, tried where one starts."""
    pattern, hint = how
    if hint is None:
        return pattern.finditer(text)
    return matches_at_word_hints(pattern, text, folded, hint)


def check_unverified_claim(case: Case) -> Iterator[Reason]:
    """Each run of words that no claim, binding phrase, free word or trace name covers."""
    text = case.trace.draft or ""
    claims = [f.claim for f in case.findings]
    covered = [c.span for c in claims] + case.bound + direction_spans(text, claims)
    for tool in {e.tool for e in case.trace.events if e.tool}:  # "no data came back from get_price"
        if tool in text:  # most drafts name no tool: no pattern to build
            covered += [m.span() for m in re.finditer(rf"(?<!\w){re.escape(tool)}(?!\w)", text)]
    names = name_words(case.evidence.names)
    figures = [f.claim.start for f in case.figures if f.in_scope]
    starts = sentence_starts(text)
    folded = fold_aligned(text)
    causes = _moves_in(_cause(), text, folded) if _CAUSE_WORDS.search(text) else ()
    sessions = _moves_in(_in_session(), text, folded) if _SESSION_HINT.search(text) else ()
    for matches, group, what in (
        (causes, "joint", "says a piece of news moved the stock: no tool result holds a cause, "
         "only the move and the headline"),
        (sessions, "session", "places the day's move in a part of the session: the results "
         "hold changes from close to close only"),
    ):  # fmt: skip
        for m in matches:
            yield Reason(
                rule=ReasonCode.UNVERIFIED_CLAIM,
                message=f'"{m.group()}" {what}',
                span=m.span(group),
            )
    covered += framing_spans(text, folded)
    for f in case.figures:  # "-283.92, matching the day P&L": the field the figure is held to
        if (
            f.claim.field
            and (found := matched_field(folded, f.claim))
            and found[0] == f.claim.field
        ):
            covered.append(found[1])
    spans = uncovered(text, folded, covered, names, figures, starts)
    spans, retold = bind_paraphrases(case, text, folded, spans, starts)
    yield from retold
    spans = limits_free(
        text, folded, spans, starts, [c.span for c in claims if c.kind not in ("ticker", "date")]
    )
    spans = labels_free(folded, spans, label_regions(text)) if spans else spans
    spans = restated_free(folded, case.trace.question or "", spans, starts)
    for start, end in spans:
        yield Reason(
            rule=ReasonCode.UNVERIFIED_CLAIM,
            message=(
                f'"{text[start:end]}" asserts something no rule checks against the trace: an '
                "accepted answer states only figures, dates, tickers and quoted headlines the "
                "tool results hold, in words that carry no other fact"
            ),
            span=(start, end),
        )

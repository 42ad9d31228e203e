"""A move put down to the news, the news given a tone, or a move forecast: "rose 4.85% on strong
earnings", "fell on the news", "cayó por la noticia", "Earnings lifted FSA", "the headlines were
positive", "earnings on January 24, which will move the shares". No tool result holds a cause, a tone or a forecast, so each is `unverified_claim`, even where
every word of it is one a draft may use freely ("on", "the", "news"). A move said to come
after a headline is a sequence, not a cause (`news_times.check_moves_after_news` holds its
time), a move "on" a quoted headline is the wording the headline rules read (its quote and
time are checked), and a denied cause is a disclaimer (`verifier.rules.disclaimers`).
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from contract.reasons import ReasonCode
from verifier.rules.case import Case
from verifier.scanner import fold_aligned
from verifier.verdict import Reason

_NEWS = (
    r"(?:news|headlines?|stor(?:y|ies)|earnings(?:\s+(?:report|release|beat|miss))?|results|eps|"
    r"report|announcement|press\s+release|buyback|guidance|noticias?|titular(?:es)?|resultados|"
    r"anuncio|informe)"
)
_TONE = (
    r"(?:strong|weak|solid|upbeat|downbeat|positive|negative|good|bad|encouraging|disappointing|"
    r"bullish|bearish|favou?rable|unfavou?rable|better-than-expected|worse-than-expected|"
    r"buen[oa]s?|mal[oa]s?|fuertes?|débiles?|positiv[oa]s?|negativ[oa]s?|favorables?|"
    r"desfavorables?|sólid[oa]s?|decepcionantes?|alentador[ae]s?)"
)
_TO_QUOTE = (
    r"(?:(?!(?:after|before|following|tras|antes|despu[eé]s|when|cuando|and|y|then|luego)(?!\w))"
    r"[^\W\d_][\w'’&-]*[,:]?\s+){0,4}?[*_]{0,2}[\"“«]"
)
"""What may stand between a connective and the headline it takes: a few words of the clause
("Reuters' report", "the news that"), then the quote's opening; never a figure, a date, a
sentence's end or a word that starts a sequence ("on Monday after "…"" is a time, then a
headline)."""
_NEWS_GAP = (
    r"(?:(?:the|a|an|its|this|that|news|headlines?|reports?|story|item|of|la|el|las|los|su|"
    r"noticias?|titular(?:es)?|informe|de|que)\s+){0,3}[*_]{0,2}[\"“«]"
)
"""What stands between a bare preposition and the headline it gives as a cause: only news
words ("on the news that "…""); "On Monday morning Bloomberg ran "…"" is a time."""
_QUOTED_CAUSE = (
    r"(?:thanks\s+to|due\s+to|because\s+of|in\s+response\s+to|on\s+the\s+back\s+of|"
    r"(?:(?:was|were|been|being)\s+)?(?:driven|sparked|fu(?:el|ell)ed|boosted|lifted|buoyed|helped|supported|"
    r"propelled|powered|weighed(?:\s+down)?|dragged(?:\s+(?:down|lower))?|pressured|hit|hurt|"
    r"(?:pushed|sent)\s+(?:higher|lower|up|down))\s+by|"
    r"gracias\s+a|debido\s+a|a\s+raíz\s+de|"
    r"(?:impulsad|lastrad|arrastrad|presionad|favorecid|perjudicad|afectad|golpead|animad|empujad|"
    r"sostenid|castigad)[oa]s?\s+por)"
)
"""A connective that gives a quoted headline as the move's cause: "rose on "…"", "weighed down
by "…"", "cayó por «…»". A headline said beside a move ("after", "following", "tras") is a
sequence whose time the news rules check."""
_CONTRAST = (
    r"(?:although|though|even\s+though|even\s+after|even\s+as|even\s+with|despite|in\s+spite\s+of|"
    r"while|whereas|aunque|si\s+bien|pese\s+a(?:\s+que)?|a\s+pesar\s+de(?:\s+que)?|"
    r"incluso\s+(?:tras|después\s+de|con)|mientras(?:\s+que)?)"
)
"""A connective that sets a quoted headline against the move ("even after "…"", "aunque «…»"):
it gives the headline the other tone, which no result holds."""
_DET = r"(?:(?:the|its|a|an|some|this|that|these|those|la|el|las|los|su|sus|un|una|esa|ese)\s+)?"
_ATTRIBUTED = re.compile(
    r"(?<!\w)(?:"
    rf"(?P<because>(?:on|amid|thanks\s+to|due\s+to(?!\s+(?:report|announce|release|pay|present))|because\s+of|in\s+response\s+to|on\s+the\s+back\s+of|"
    r"driven\s+by|sparked\s+by|fu(?:el|ell)ed\s+by|boosted\s+by|por|gracias\s+a|debido\s+a|"
    r"a\s+raíz\s+de|ante|impulsad[oa]\s+por|lastrad[oa]\s+por|arrastrad[oa]\s+por)\s+"
    rf"{_DET}(?:{_TONE}\s+)?{_NEWS})"
    rf"|(?P<toned>(?:con|with|tras|after|following)\s+{_DET}(?:{_NEWS}\s+{_TONE}|{_TONE}\s+{_NEWS}))"
    r"|(?P<came_on>(?:the\s+|its\s+|this\s+|that\s+)?(?:move|gain|drop|rise|fall|decline|rally|selloff|"
    r"sell-off|jump|slide)\s+(?:came|was|happened)\s+(?:on|after\s+news\s+of))"
    rf"|(?P<quoted_cause>{_QUOTED_CAUSE}\s+{_TO_QUOTE}|(?:on|amid|por|ante)\s+{_NEWS_GAP})"
    r"|(?P<despite>(?:despite|in\s+spite\s+of|pese\s+a|a\s+pesar\s+de)\s+(?:the\s+|its\s+|an?\s+|la\s+|el\s+|"
    r"su\s+)?(?:news|headlines?|reports?|item|story|announcement|noticias?|titular(?:es)?|anuncio))"
    rf"|(?P<contrast>{_CONTRAST}\s+{_TO_QUOTE})"
    rf"|(?P<drove>{_NEWS}(?:\s+[\w-]+)?\s+(?:moved|moves|lifted|boosted|drove|sent|pushed|propelled|weighed\s+on|"
    r"dragged|sank|hurt|impulsó|impulsaron|lastró|lastraron|hundió|hundieron|elevó|elevaron))"
    rf"|(?P<tone>{_NEWS}\s+(?:was|were|is|are|looked|looks|read|reads|fue|fueron|era|eran|es|son)\s+"
    rf"(?:(?:mostly|largely|broadly|mainly|very|quite|clearly|muy|mayormente)\s+)?{_TONE}"
    rf"|{_TONE}\s+(?:news|headlines?|stor(?:y|ies)|press|items?|one|read)|(?:noticias?|titular(?:es)?)\s+{_TONE}"
    rf"|(?<=[\"”»)])\s*(?:was|were|is|fue|era|—|-)\s+(?:a\s+|an\s+|un\s+)?{_TONE}(?:\s+one)?)"
    r"|(?P<forecast>(?:will|would|should|could|is\s+(?:likely|set|expected)\s+to|are\s+(?:likely|set|"
    r"expected)\s+to|may|might|moverá|impulsará|lastrará|podría|debería)\s+(?:likely\s+)?"
    r"(?:move|lift|hit|boost|weigh\s+on|drive|push|send|sink|pressure|mover|impulsar|lastrar|"
    r"presionar)\s+(?:the\s+|its\s+|las\s+|los\s+|la\s+|el\s+)?(?:shares|stock|price|"
    r"acciones|título|valor|precio|cotización))"
    r")(?:(?<=[\"“«])|(?!\w))"
)
"""The shapes of a cause or a tone said of the news."""
_NEGATED = re.compile(r"(?<!\w)(?:not|no|n['’]t|nor|ni|sin)\s+(?:\w+\s+)?$")
_ASKED = re.compile(r"(?<!\w)(?:whether|if|si)\s+(?:[\w-]+\s+){0,3}$")
"""A cause asked about, not said ("whether that story drove the move is unclear")."""


def check_news_causes(case: Case) -> Iterator[Reason]:
    """Each cause or tone the draft gives the news, outside a quoted headline."""
    text = case.trace.draft or ""
    folded = fold_aligned(text)
    quoted = [(f.claim.start, f.claim.end) for f in case.findings if f.claim.kind == "headline"]
    for m in _ATTRIBUTED.finditer(folded):
        if any(a <= m.start() < b for a, b in quoted):
            continue  # a headline's own words are the headline's
        if _NEGATED.search(folded, max(m.start() - 12, 0), m.start()):
            continue  # "not on any news": a denial, the disclaimers' to hold
        if _ASKED.search(folded, max(m.start() - 40, 0), m.start()):
            continue
        said = text[m.start() : m.end()]
        if m.lastgroup == "forecast":
            yield Reason(
                rule=ReasonCode.UNVERIFIED_CLAIM,
                message=f'"{said}" forecasts how the shares will move, and no tool result holds a '
                "forecast",
                span=m.span(),
            )
            continue
        what = "a tone" if m.lastgroup in ("tone", "toned", "despite", "contrast") else "a cause"
        yield Reason(
            rule=ReasonCode.UNVERIFIED_CLAIM,
            message=(
                f'"{said}" gives the news {what}, and no tool result holds one: a search returns '
                "headlines and their times, never why a stock moved or how the news read"
            ),
            span=m.span(),
        )

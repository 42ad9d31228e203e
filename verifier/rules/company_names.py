"""Company names: a name written with its corporate suffix ("Beacon Data Corp.", "Westfield
REIT Corp.") must be one the trace gives, as written there: in a result's `name`, a headline or any
text a result holds. Each of its words may be a word of the trace's names ("Beacon Corp." for "Beacon Data
Corp."), so the closed world alone would cover it; the name as a whole is what this rule
holds (words before it at the start of a sentence, "The Keystone Broadcasting Inc.", may stand
outside it). A name the trace does not give is `wrong_subject`.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from contract.reasons import ReasonCode
from verifier.rules.case import Case
from verifier.verdict import Reason

_NAMED = re.compile(
    r"(?<![\w.])(?:[A-Z][\w&'’-]*[ \t]+){1,4}"
    r"(?:Corp(?:oration)?\.?|Inc\.?|Co\.|Company|Holdings|Group|Ltd\.?|plc|LLC|S\.A\.?)(?!\w)"
)
_QUOTED = re.compile(r"[\"“«‘][^\"”»’\n]*[\"”»’]")
_SPACE = re.compile(r"[\s.,]+")


def check_company_names(case: Case) -> Iterator[Reason]:
    """Each name with a corporate suffix the draft writes, outside quotes, against the names
    and headlines of the trace."""
    text = case.trace.draft or ""
    found = [m for m in _NAMED.finditer(text) if not _inside_quote(text, m.start())]
    if not found:
        return
    strings = [text for _, held in case.evidence.runs for text in held]
    given = " | ".join(_plain(n) for n in [*case.evidence.names, *strings])
    for m in found:
        words = _plain(m.group()).split()
        tails = (" ".join(words[i:]) for i in range(len(words) - 1))  # "The Keystone ... Inc."
        if not any(tail in given for tail in tails):
            yield Reason(
                rule=ReasonCode.WRONG_SUBJECT,
                message=(
                    f'"{m.group()}" names a company no result of the trace names so: the trace '
                    "gives its names and headlines as they are"
                ),
                span=m.span(),
            )


def _inside_quote(text: str, at: int) -> bool:
    return any(q.start() < at < q.end() for q in _QUOTED.finditer(text))


def _plain(name: str) -> str:
    """A name without case, full stops and commas ("Beacon Data Corp." = "beacon data corp")."""
    return _SPACE.sub(" ", name.casefold()).strip()

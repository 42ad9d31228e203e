"""Limits: a sentence about what the data or the answer does not hold, or one offering more
help, asserts nothing about the market.

"The data doesn't say why the shares moved, and it carries no analyst views", "I can't
confirm any of them drove it", "el calendario sólo recoge lo anunciado hasta hoy": the data, its
tools or the writer as the subject, a negation (or "only", where no cause is named), and no
claim but its own tickers and days (checked by their rules): no figure or quote, no contrast
that could carry one ("..., but the CFO news drove it"). Such a sentence's unbound words are free
where each is one a sentence about the data's limits needs (`LIMIT_WORDS`, a closed list: "The
list does not include the S&P inclusion" names an inclusion, and stays rejected), except the words of the grammar
(a move, a window, an event, a relation: "the data doesn't show why the stock fell" still says
it fell), which stay `unverified_claim` unless a rule bound them.

The message speaking of itself ("This communication was reviewed by Compliance and is provided
for information purposes only", "Este documento tiene carácter meramente informativo") is held
the same way.

An offer ("Let me know if you'd like the weekly picture too", "If useful, I can widen the search
window", "Quedamos a su disposición para cualquier aclaración") opens with the words of an offer
and holds no claim either; it may name what the data holds (a window, the news), but not a
move, a relation, a cause or a piece of news ("happy to dig into the rally" says there was one).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from functools import cache
from itertools import pairwise

from verifier.coverage import free_words
from verifier.lexicon import LANGUAGES, fragments, grouped
from verifier.lexicon.disclaimers import (
    CAUSE,
    EXTERNAL,
    LIMIT_WORDS,
    NEGATIONS,
    NEWS_EVENTS,
    SUBJECTS,
)
from verifier.lexicon.sectors import sector_words
from verifier.scanner import PhraseScan

_SUBJECTS = SUBJECTS | frozenset(
    [
        "calendar",
        "feed",
        "lookup",
        "lookups",
        "answer",
        "outputs",
        "output",
        "dataset",
        "database",
        "coverage",
        "archive",
        "i'm",
        "i’m",
        "i'd",
        "i’d",
        "i've",
        "i’ve",
        "calendario",
        "respuesta",
        "cobertura",
        "archivo",
        "list",
        "window",
        "ventana",
    ]
)
"""The data, its tools or the writer (`verifier.lexicon.disclaimers.SUBJECTS`, and the parts
of the data a writer names: the calendar, the feed, the archive)."""
_NEGATIONS = NEGATIONS | frozenset(
    [
        "unclear",
        "uncertain",
        "unknown",
        "impossible",
        "imposible",
        "ningunos",
        "ningunas",
        "wouldn't",
        "wouldn’t",
        "couldn't",
        "couldn’t",
        "shouldn't",
        "shouldn’t",
    ]
)
_ONLY = frozenset({"only", "solo", "sólo", "solamente", "únicamente", "merely", "meramente"})
"""A limit without a negation ("the calendar only lists what was announced"), where the sentence
names no cause ("the data only shows the news drove it" asserts one)."""
_CONTRAST = re.compile(
    r"(?<!\w)(?:but|however|yet|though|although|whereas|while|pero|aunque|mientras|sino|"
    r"sin\s+embargo|no\s+obstante)(?!\w)"
)
_OPENING_CONTRAST = re.compile(
    r"\W*(?:but|however|yet|still|that\s+said|pero|sin\s+embargo|no\s+obstante|aun\s+así|ahora\s+bien)"
    r"\s*,"
)
_OFFER = re.compile(
    r"\W*(?:(?:just\s+)?let\s+me\s+know|if\s+(?:you(?:'d|’d|\s+would)?\s+(?:like|want|prefer|"
    r"need)|useful|helpful|needed)|happy\s+to|glad\s+to|i\s+can\s+(?:also|always)|i(?:'d|’d|\s+would)"
    r"\s+be\s+happy|want\s+me\s+to|would\s+you\s+like|shall\s+i|should\s+i|feel\s+free|"
    r"si\s+(?:quieres|querés|quiere|queréis|lo\s+desea|lo\s+deseas|necesitas|necesitás|necesita|"
    r"te\s+sirve|le\s+sirve|se\s+anuncia\s+algo)|te\s+(?:avisamos|aviso|mostramos|muestro)|"
    r"¿\s*(?:quieres|quiere|te\s+paso|le\s+paso)|dime\s+si|avísame\s+si|puedo\s+(?:también|ampliar)|"
    r"qued(?:o|amos)\s+a\s+(?:tu|su|vuestra)\s+(?:entera\s+)?disposición)(?!\w)"
)
"""The words an offer of more help opens with."""
_MARKS = re.compile(r"[\"“”«»„]")
_WORD = re.compile(r"[^\W\d_]+(?:['’][^\W\d_]+)?")


@cache
def grammar_words() -> frozenset[str]:
    """Every word of the grammar's phrases (`verifier.lexicon`), less the free ones, with the
    words of a cause, of news (`NEWS_EVENTS`) and of what no tool returns (analysts,
    valuation...): the words a claim is made of, never freed by a sentence's frame ("nothing in the data rules out that the CFO news
    caused it" asserts the cause; only a disclaimer's rule binds such a word, after its
    negation)."""
    words: set[str] = set(CAUSE) | NEWS_EVENTS
    for terms, _ in EXTERNAL.values():
        words.update(terms)
    for lexicon in LANGUAGES:
        for value in vars(lexicon).values():
            _collect(value, words)
    return frozenset(words - free_words() - _SUBJECTS - _NEGATIONS - _ONLY)


_CLAIM_ENTRIES = (
    "rise", "fall", "governing", "after_figure", "relations", "rankings", "streaks", "qualities",
    "rank_lists",
)  # fmt: skip
"""The lexicon entries whose phrases make a claim of their own (a move, a relation, a quality,
a place in a list), unlike those that name what the data holds (a window, a field, the news)."""


@cache
def _claim_scan() -> PhraseScan:
    groups: dict[str, list[str]] = {}
    for entry in _CLAIM_ENTRIES:
        named = isinstance(getattr(LANGUAGES[0], entry), dict)
        found = grouped(entry) if named else {entry: fragments(entry)}
        for name, parts in found.items():
            groups.setdefault(f"{entry}_{name}", []).extend(parts)
    return PhraseScan(groups)


@cache
def _offer_guard() -> frozenset[str]:
    """Single words an offer may not hold: a cause's, news', what no tool returns."""
    words: set[str] = set(CAUSE) | NEWS_EVENTS
    for terms, _ in EXTERNAL.values():
        words.update(terms)
    return frozenset(words)


def _claims_in(folded: str, lo: int, hi: int) -> list[tuple[int, int]]:
    """Where the claim phrases of an offer stand (a move, a relation, a quality...)."""
    return [m.span() for m in _claim_scan().finditer(folded[lo:hi])]


def _collect(value: object, words: set[str]) -> None:
    if isinstance(value, str):
        words.update(
            w.casefold() for w in re.findall(r"[^\W\d_]{2,}", re.sub(r"\\[a-zA-Z]", " ", value))
        )
    elif isinstance(value, dict):
        for item in value.values():
            _collect(item, words)
    elif isinstance(value, list | tuple | set | frozenset):
        for item in value:
            _collect(item, words)


def limits_free(
    text: str,
    folded: str,
    spans: list[tuple[int, int]],
    starts: Sequence[int],
    claims: Sequence[tuple[int, int]],
) -> list[tuple[int, int]]:
    """`spans` without those that stand in a sentence about the data's limits or in an offer
    (see the module docstring) and hold no word that makes a claim."""
    if not spans:
        return spans
    ends = [*starts[1:], len(text)]
    limits, offers, hedges, questions = [], [], [], []
    for lo, hi in zip(starts, ends, strict=True):
        if _claimless(folded, lo, hi, claims):
            if _about_limits(folded, lo, hi) and not _hedged(folded, lo, hi):
                limits.append((lo, hi))
            elif _OFFER.match(folded, lo, hi):
                offers.append((lo, hi))
            elif _hedged(folded, lo, hi):
                hedges.append((lo, hi))
        elif _bare(folded, lo, hi, claims) and _hedged(folded, lo, hi):
            hedges.append((lo, hi))
        if (
            _bare(folded, lo, hi, claims)
            and _asks(folded, lo, hi)
            and not any(lo == a for a, _ in (*limits, *offers, *hedges))
        ):
            questions.append((lo, hi))
    if not limits and not offers and not hedges and not questions:
        return spans
    kept = []
    for start, end in spans:
        if any(lo <= start and end <= hi for lo, hi in limits):
            if any(w not in LIMIT_WORDS for w in _WORD.findall(folded, start, end)):
                kept.append((start, end))  # a word no sentence about the data's limits needs
                continue
            guard = grammar_words()
        elif any(lo <= start and end <= hi for lo, hi in hedges):
            if any(w not in LIMIT_WORDS for w in _WORD.findall(folded, start, end)):
                kept.append((start, end))  # a word no open relation or limit needs
                continue
            guard = hedge_guard()
        elif any(lo <= start and end <= hi for lo, hi in questions):
            guard = question_guard()
        elif offer := next(((lo, hi) for lo, hi in offers if lo <= start and end <= hi), None):
            lo, _ = offer
            phrases = _claims_in(folded, *offer)
            if any(lo + a < end and start < lo + b for a, b in phrases):
                kept.append((start, end))
                continue
            guard = _offer_guard()
        else:
            kept.append((start, end))
            continue
        words = _WORD.finditer(folded, start, end)
        if any(m.group() in guard and not _denied_cause(folded, m) for m in words):
            kept.append((start, end))
    return kept


def labels_free(
    folded: str, spans: list[tuple[int, int]], labels: Sequence[tuple[int, int]]
) -> list[tuple[int, int]]:
    """`spans` without those inside a label (`verifier.labels`) that hold no word a claim is
    made of."""
    if not labels:
        return spans
    guard = grammar_words() | sector_words()
    return [
        (start, end)
        for start, end in spans
        if not any(lo <= start and end <= hi for lo, hi in labels)
        or any(m.group() in guard for m in _WORD.finditer(folded, start, end))
    ]


_DENIAL = re.compile(
    r"(?<!\w)(?:rather\s+than|instead\s+of|not|no|n[’']t|nor|sin|ni|en\s+lugar\s+de|más\s+que)"
    r"(?:\s+[^\W\d_]+){0,2}\s+$"
)
"""A denial right before a word of a cause ("rather than an explanation", "not a cause"): the
cause is denied, not asserted."""


def _denied_cause(folded: str, word: re.Match[str]) -> bool:
    return word.group() in CAUSE and bool(
        _DENIAL.search(folded, max(word.start() - 40, 0), word.start())
    )


_ASKED = re.compile(
    r"[\W_]*(?:\d{1,2}/\s*)?(?:[qp]\s*[:：.]\s*|[^\W\d_][^:?\n]{0,40}[:：]\s*)?¿?\s*(?:why|how|what|which|when|"
    r"where|who|is|are|was|were|did|does|do|has|have|can|could|will|would|should|shall|want|any|"
    r"may\s+i|qué|que|cómo|como|cuánto|cuánta|cuántos|cuántas|cuál|cuáles|cuándo|dónde|quién|"
    r"por\s+qué|hay|es|está|están|fue|tiene|quiere|quieres|desea|deseas|prefiere|le|te)(?!\w)"
)
"""What a question opens with: a question word, an offer ("Want me to break down the rest?",
"¿Le preparo el detalle?"), after a short label ("To restate the question: which ...?")."""
_ASKED_END = re.compile(r"\?[\s*_)\]»”\"']*$")


def _asks(folded: str, lo: int, hi: int) -> bool:
    """A question ("Q: Is there news behind AXO's move?", "P: ¿Cuánto aportó HEX?", "Why is
    it moving?"): opened by a question word and closed by a question mark. It asks, so it
    asserts nothing; its figures are still checked, and the words of the grammar, of news and
    of what no tool returns in it stay claims ("Why did analysts upgrade it?" says they did)."""
    return bool(_ASKED.match(folded, lo, hi) and _ASKED_END.search(folded, lo, hi))


def _bare(folded: str, lo: int, hi: int, claims: Sequence[tuple[int, int]]) -> bool:
    """No figure or quote in the sentence (a contrast may join its clauses)."""
    return not _MARKS.search(folded, lo, hi) and not any(lo <= a < hi for a, _ in claims)


_MODAL = re.compile(
    r"(?<!\w)(?:may|might|could|possibly|perhaps|maybe|conceivably|podría|podrían|pudo|pudieron|"
    r"quizás?|tal\s+vez|posiblemente|puede\s+que|a\s+lo\s+mejor)(?!\w)"
)
"""A possibility said, not a fact ("likely" and "probably" assert more: they are not here)."""
_UNCERTAIN = frozenset(
    [
        "hypothesis", "hypothetical", "possibility", "possible", "speculation", "speculative",
        "conjecture", "guess", "guesswork", "coincidence", "coincidental", "hipótesis",
        "posibilidad", "posible", "especulación", "especulativo", "especulativa", "conjetura",
        "coincidencia",
    ]
)  # fmt: skip
"""Nouns and adjectives that hold a relation open ("treat any connection as a hypothesis")."""
_CERTAIN = frozenset(
    [
        "conclusive", "conclusively", "certain", "certainly", "clear", "clearly", "definitive",
        "definitively", "proven", "proof", "establish", "establishes", "established", "confirm",
        "confirms", "confirmed", "evident", "obvious", "concluyente", "concluyentes", "claro",
        "clara", "certeza", "seguro", "evidente", "afirmar", "afirmarlo", "probado", "probada",
        "demostrado", "demostrada", "confirmar", "confirmarlo",
    ]
)  # fmt: skip
"""Words of certainty: denied ("it's not conclusive", "no está claro"), a relation stays open."""
_DENIABLE = _CERTAIN | frozenset(["point", "points", "pointing", "apunta", "apuntan"])
"""What a negation holds open: certainty ("it's not conclusive"), or pointing to a cause ("no
headline points directly to the move")."""
_NO_CAUSE = re.compile(
    r"(?<!\w)(?:no|without|sin|ningún|ninguna|ninguno)\s+(?:(?!(?:si|whether|if|que)\s)[^\W\d_]+\s+){0,3}?(?:"
    + "|".join(sorted(CAUSE, key=len, reverse=True))
    + r")(?!\w)"
)
"""A cause said not to exist ("no obvious catalyst", "sin un motivo claro"): a claim about the
day, not an open question; the disclaimers' rule holds it."""
_CLAUSES = re.compile(_CONTRAST.pattern + r"|;")
_LEAD = re.compile(r"\W*(?:[^\W\d_][\w'’-]*\s*){1,3}\W*:")
"""A short label before the sentence ("**Short answer:**", "Read-through:"): not a clause."""


def _hedged(folded: str, lo: int, hi: int) -> bool:
    """A sentence each of whose clauses holds a relation open, one of them saying it is not
    established: a possibility ("may have played a part"), an open noun ("a hypothesis"),
    denied certainty ("it's not conclusive", "no está claro"), or the data's limits. "That may
    have played a part, but the headline alone doesn't establish cause" asserts nothing; "...,
    but analysts upgraded it" has a clause that does; "it may be related" alone floats one."""
    lead = _LEAD.match(folded, lo, hi)
    lo = lead.end() if lead else lo
    bounds = [lo, *(m.end() for m in _CLAUSES.finditer(folded, lo, hi)), hi]
    clauses = [(a, b) for a, b in pairwise(bounds) if _WORD.search(folded, a, b)]
    opens = [_open(folded, a, b) for a, b in clauses]
    return bool(opens) and all(opens) and any(o == "settled" for o in opens)


def _open(folded: str, lo: int, hi: int) -> str:
    """How a clause holds a relation open: "settled" where it says the relation is not
    established (an open noun, denied certainty, the data's limits), "modal" where it only says
    it may hold ("it may be related" alone floats a cause), "" where it does not."""
    words = set(_WORD.findall(folded, lo, hi))
    if words & _UNCERTAIN:
        return "settled"
    if not _NO_CAUSE.search(folded, lo, hi) and (
        _about_limits(folded, lo, hi) or (words & _DENIABLE and _negated(folded, lo, hi))
    ):
        return "settled"
    return "modal" if _MODAL.search(folded, lo, hi) else ""


def holds_open(word: str) -> bool:
    """Whether a word can hold a relation open by itself (a modal, an open noun, a word of
    certainty): the words the hedges of this module read."""
    return word in _UNCERTAIN or word in _CERTAIN or bool(_MODAL.fullmatch(word))


@cache
def question_guard() -> frozenset[str]:
    """What a question may not hold: the grammar's words, news and what no tool returns, as
    `grammar_words`, less the words of a comparison and of a cause, which a question only asks
    about ("Is there news behind AXO's move?", "Why is it moving?")."""
    relation: set[str] = set()
    for lexicon in LANGUAGES:
        _collect(lexicon.relations, relation)
    return (grammar_words() - relation - set(CAUSE)) | _RATING_WORDS


_RATING_WORDS = frozenset(
    [
        "buy",
        "sell",
        "hold",
        "rates",
        "rated",
        "rate",
        "overweight",
        "underweight",
        "outperform",
        "underperform",
        "upgrade",
        "upgraded",
        "upgrades",
        "downgrade",
        "downgraded",
        "downgrades",
        "target",
        "targets",
        "comprar",
        "vender",
        "mantener",
        "sobreponderar",
        "infraponderar",
    ]
)
"""A rating's words, which a question would float ("Did you know Goldman rates AXO a buy?")."""


@cache
def hedge_guard() -> frozenset[str]:
    """What a hedged sentence may not hold: the grammar's words, news and what no tool returns,
    as `grammar_words`, less the words of a cause and of certainty, which it holds open."""
    return grammar_words() - set(CAUSE) - _CERTAIN - _UNCERTAIN


def _claimless(folded: str, lo: int, hi: int, claims: Sequence[tuple[int, int]]) -> bool:
    """No figure, quote or contrast in the sentence."""
    sentence = folded[lo:hi]
    opener = _OPENING_CONTRAST.match(
        sentence
    )  # "No obstante, ...": a turn from the sentence before
    if _MARKS.search(sentence) or _CONTRAST.search(sentence, opener.end() if opener else 0):
        return False
    return not any(lo <= a < hi for a, _ in claims)


_ITSELF = re.compile(
    r"(?<!\w)(?:this|our|my|the\s+present|the\s+following|este|esta|nuestr[oa]|mi|"
    r"el\s+presente|la\s+presente|el\s+siguiente|la\s+siguiente)\s+(?:[\w-]+\s+)?"
    r"(?:communication|document|note|message|e-?mail|memo|report|summary|update|brief|material|"
    r"analysis|answer|documento|comunicación|nota|mensaje|correo|informe|resumen|análisis|"
    r"respuesta)(?!\w)"
)
"""The message speaking of itself ("this communication was reviewed by Compliance", "este
documento tiene carácter meramente informativo"): what it is, not what the market did."""


_VIEWS = re.compile(
    r"(?<!\w)(?:suggests?|indicates?|shows?|confirms?|expects?|believes?|thinks?|sees?|views?|"
    r"recommends?|anticipates?|predicts?|forecasts?|argues?|implies|sugiere|indica|muestra|"
    r"confirma|espera|prevé|anticipa|cree|recomienda|apunta|señala|considera)(?!\w)"
)
"""What makes a message speaking of itself state a view ("our analysis suggests ...")."""


def _about_limits(folded: str, lo: int, hi: int) -> bool:
    if _ITSELF.search(folded, lo, hi):
        return not _VIEWS.search(folded, lo, hi)
    words = set(_WORD.findall(folded, lo, hi))
    if not words & _SUBJECTS:
        return False
    return _negated(folded, lo, hi) or (bool(words & _ONLY) and not words & CAUSE)


def _negated(folded: str, lo: int, hi: int) -> bool:
    """Whether the sentence holds a negation that is no aside (`aside_close`)."""
    return any(
        m.group() in _NEGATIONS and aside_close(folded, lo, m.start(), hi) < 0
        for m in _WORD.finditer(folded, lo, hi)
    )


_ASIDE_OPEN = re.compile(r",\s*(?:(?:and|but|or|y|e|pero|o|u)\s+)?$")


def aside_close(folded: str, lo: int, at: int, hi: int) -> int:
    """Where the aside a negation at `at` opens closes (its comma), or -1 where it opens none: in
    "the headline, not confirmed elsewhere, was the cause" and "el titular, y no los datos,
    causó la caída" the negation denies the aside only, and the sentence asserts."""
    if not _ASIDE_OPEN.search(folded, lo, at):
        return -1
    return folded.find(",", at, hi)

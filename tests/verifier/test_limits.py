"""Sentences about the limits of the data or of the answer, over the free-form night's real
traces: beside a faithful close, a sentence whose subject is the data, its tools or the writer,
with a negation (or "only") and no claim, is kept whatever its words; the same frame carrying a
move, a cause, a rating or a contrast is still rejected."""

from __future__ import annotations

import pytest

from tests.verifier.test_unseen_prose import _closed, _es, _moves, _verdict

LIMITS = (
    "The data I pulled doesn't go beyond prices and the calendar.",
    "I can't vouch for anything beyond these numbers.",
    "The tools only cover prices, news and scheduled events.",
    "Honestly, the feed doesn't offer any extra color.",
    "Nothing in this lookup goes deeper, so I won't guess.",
    "Los datos no permiten precisarlo.",
    "La consulta sólo abarca precios y calendario.",
    "No dispongo de más detalle en la información consultada.",
    "This note was prepared by the desk for information purposes.",
    "Please find above our update, reviewed by the desk.",
    "Este informe se elabora con fines meramente informativos.",
    "Keep in mind the list only covers what had been announced as of today.",
    "The window does not cover later sessions.",
    "La ventana no cubre sesiones posteriores.",
)


def test_a_sentence_about_the_data_s_limits_is_kept_beside_a_faithful_answer() -> None:
    checked = 0
    for question, move, _ in _moves():
        for limit in LIMITS:
            verdict = _verdict(question, f"{_closed(move)} {limit}")
            assert verdict.accepted, (question, limit, verdict.reasons)
        checked += 1
    assert checked >= 30


@pytest.mark.parametrize(
    "said",
    [
        "The data doesn't show why the stock {wrong}.",  # a move the trace contradicts
        "The list doesn't show why the stock {wrong}.",  # the list as the subject alike
        "Nothing in the data rules out that the CFO news caused it.",  # a cause, double negated
        "I can't confirm it, but analysts upgraded the stock.",  # a contrast carries a claim
        "The tools only show that the headline drove the shares.",  # "only" with a cause
        "The data doesn't cover it, yet the stock will rally tomorrow.",  # a forecast
        "I don't have the full picture, though the sector is in favor.",  # a sector's mood
        "Los datos no lo dicen, pero la acción subirá mañana.",  # a contrast in Spanish
        "The data doesn't say so; analysts rate it a buy.",  # a rating after the limit
        "The data doesn't include the CFO's resignation.",  # says there was one
        "La información consultada no recoge la fusión anunciada.",  # says there was one
        "This report confirms the CFO's resignation.",  # the message asserting news
        "Our analysis suggests the stock is undervalued.",  # a valuation
        "Este informe anticipa una recompra de acciones.",  # news in Spanish
        "The data does not include the S&P inclusion announced after the report.",  # a fact
        "The list only covers announced items, and the regulator sued the company.",  # in a limit
        "The calendar only covers what had been announced, not the founder's retirement.",
        "Los datos no recogen la salida a bolsa de la filial.",  # a fact in a Spanish limit
    ],
)
def test_a_limits_frame_carrying_a_claim_is_still_rejected(said: str) -> None:
    rejected = 0
    for question, move, _ in _moves():
        wrong = "rose" if move["change_pct"] < 0 else "fell"
        verdict = _verdict(question, f"{_closed(move)} {said.format(wrong=wrong)}")
        assert not verdict.accepted, (question, said)
        rejected += 1
    assert rejected >= 30


OFFERS = (
    "Let me know if you'd like the monthly view as well.",
    "If helpful, I can pull the full news list for the window.",
    "Happy to share the scheduled events too, just say the word.",
    "Would you like me to add the year-to-date figures?",
    "Si quieres, te paso también el detalle semanal.",
    "Quedo a su entera disposición para ampliar la información.",
)


def test_an_offer_of_more_help_is_kept_beside_a_faithful_answer() -> None:
    for question, move, _ in _moves():
        for offer in OFFERS:
            verdict = _verdict(question, f"{_closed(move)} {offer}")
            assert verdict.accepted, (question, offer, verdict.reasons)


@pytest.mark.parametrize(
    "offer",
    [
        "Happy to dig into the rally if useful.",  # says there was a rally
        "Let me know if you want the CFO resignation details.",  # says there was one
        "If useful, I can explain why analysts cut their rating.",  # a rating change
        "Let me know if you'd like more, but the stock will rebound.",  # a contrast
        "Si quieres, te explico por qué subió tras la fusión.",  # a move and a merger
    ],
)
def test_an_offer_carrying_a_claim_is_still_rejected(offer: str) -> None:
    for question, move, _ in _moves():
        assert not _verdict(question, f"{_closed(move)} {offer}").accepted, (question, offer)


HEDGED = (
    "It's plausible the news played a role, but the data doesn't establish that.",
    "Whether any story drove the move is unclear; the data doesn't say, so I'd treat the news "
    "as possible context rather than the cause.",
    "Es posible que haya alguna relación, pero no está demostrada.",
)


def test_a_hedge_the_sentence_denies_is_kept_and_a_cause_asserted_beside_it_is_not() -> None:
    """ "Possible, but not established": the hedge is answered in its sentence, so it asserts
    nothing; a cause stated as fact next to the same denial is still `unverified_claim`."""
    for question, move, _ in _moves():
        for hedge in HEDGED:
            verdict = _verdict(question, f"{_closed(move)} {hedge}")
            assert verdict.accepted, (question, hedge, verdict.reasons)
        for said in (
            "The CFO news drove the move, though the data doesn't establish that.",
            "La noticia explica la caída, aunque no está demostrada.",
        ):
            assert not _verdict(question, f"{_closed(move)} {said}").accepted, (question, said)


def test_a_regulator_s_lines_and_a_letter_s_set_phrases_frame_a_faithful_answer() -> None:
    """What the message is not ("not investment advice", "past performance is not a guarantee
    of future results", "no constituye una recomendación") and a letter's or an app's set
    phrases state no fact; a claim beside them is still rejected."""
    frames = (
        ("", " Not investment advice."),
        ("", " Past performance is not a guarantee of future results."),
        ("", " This message does not constitute investment advice."),
        ("Distinguido cliente: ", " Sin otro particular, le saluda atentamente."),
        ("Ojo: ", " Las rentabilidades pasadas no garantizan rentabilidades futuras."),
        ("Muy señor nuestro: ", " Esta nota no constituye una recomendación de inversión."),
    )
    for question, move, _ in _moves():
        for head, tail in frames:
            verdict = _verdict(question, f"{head}{_closed(move)}{tail}")
            assert verdict.accepted, (question, head, tail, verdict.reasons)
        for said in (
            " Not investment advice, but analysts rate it a buy.",
            " Ojo: los analistas recomiendan comprar.",
        ):
            assert not _verdict(question, f"{_closed(move)}{said}").accepted, (question, said)


def test_a_change_said_against_the_close_of_a_named_day_is_measured_from_that_day() -> None:
    """ "subió 0,23 $ frente al cierre de ayer", "rose 1.87% versus Monday's close": the day is
    the base the change is measured from, not the change's own day."""
    checked = 0
    for question, move, _ in _moves():
        t, change, pct = move["ticker"], move["change"], move["change_pct"]
        verb, es = ("rose", "subió") if change > 0 else ("fell", "bajó")
        base = f"{move['previous_session'][8:10].lstrip('0')} de diciembre"
        for said in (
            f"{t} {es} {_es(abs(change))} $ ({_es(pct, True)} %) frente al cierre de ayer.",
            f"{t} {es} {_es(abs(pct))} % respecto al cierre del {base}.",
            f"{t} {verb} {abs(pct):.2f}% versus yesterday's close.",
        ):
            if move["previous_session"] != "2024-12-30":
                continue
            verdict = _verdict(question, said)
            assert verdict.accepted, (question, said, verdict.reasons)
            checked += 1
    assert checked >= 60


OPEN = (
    "**Short answer:** possibly, but it's not conclusive.",
    "That may have played a part, but the headline alone doesn't establish cause.",
    "**Bottom line:** no headline points directly to the price change; treat any link as a "
    "hypothesis.",
    "Podría haber cierta relación, pero los datos no permiten afirmarlo.",
    "Ninguno lo menciona directamente, así que la relación es solo una posibilidad.",
    "No está claro que eso explique la variación.",
    "Perhaps a coincidence; nothing here confirms a link.",
    "No está claro si explica el movimiento.",
    "It is unclear from the data alone what drove the move.",
)
"""Sentences that hold a relation open in each clause, in wordings the lists of hedges above
do not have: a possibility, an open noun, certainty denied."""


def test_a_sentence_holding_a_relation_open_in_every_clause_is_kept() -> None:
    for question, move, _ in _moves():
        for said in OPEN:
            verdict = _verdict(question, f"{_closed(move)} {said}")
            assert verdict.accepted, (question, said, verdict.reasons)


@pytest.mark.parametrize(
    "said",
    [
        "Possibly, but analysts upgraded the stock.",  # a clause that asserts
        "It may have played a part, but the stock will rebound.",  # a forecast beside a hedge
        "The merger talk may have played a part, but that's not conclusive.",  # news said
        "Analysts may have cut their target; the data doesn't establish it.",  # a rating
        "No obvious catalyst.",  # a cause said not to exist is a claim about the day
        "The CFO news drove it; treat any other link as a hypothesis.",  # a cause asserted
        "Quizás la fusión influyó, pero no está claro.",  # news in Spanish
        "No está claro si la fusión explica el movimiento.",  # news, questioned
        "It is unclear what drove the move, but analysts cut the stock.",  # a clause asserts
        "The shares may have {wrong} on the news, but it's not conclusive.",  # a wrong move
    ],
)
def test_a_hedge_beside_a_clause_or_a_word_that_asserts_is_still_rejected(said: str) -> None:
    for question, move, _ in _moves():
        wrong = "risen" if move["change_pct"] < 0 else "fallen"
        verdict = _verdict(question, f"{_closed(move)} {said.format(wrong=wrong)}")
        assert not verdict.accepted, (question, said)


def test_a_question_asks_and_asserts_only_the_grammar_s_words() -> None:
    """ "Q: Is there news behind AXO's move?", "P: ¿Qué noticias hay detrás del movimiento?",
    "Why is it moving?", an offer ("Want me to break down the rest?", "¿Le preparo el
    detalle?"), one after a label ("To restate the question: what moved it?") ask: kept beside
    a faithful answer. A question that says what no tool
    returns, names news, or a move the trace contradicts is still rejected."""
    for question, move, _ in _moves():
        t = move["ticker"]
        wrong = "rise" if move["change_pct"] < 0 else "fall"
        for asked in (
            f"Q: Is there news behind {t}'s move on Dec 31?",
            f"P: ¿Qué noticias hay detrás del movimiento de {t}?",
            "Why is it moving?",
            "Want me to break down the rest of the portfolio?",
            "¿Le preparo el detalle de la tendencia?",
            f"To restate the question: what moved {t} on Dec 31?",
        ):
            verdict = _verdict(question, f"{asked} {_closed(move)}")
            assert verdict.accepted, (question, asked, verdict.reasons)
        for asked in (
            f"Why did analysts upgrade {t}?",
            f"Why did {t} {wrong} after the merger announcement?",
            f"Is {t} undervalued?",
            f"Did you know Goldman rates {t} a buy?",
            f"Want me to explain why analysts upgraded {t}?",
            f"To restate the question: why did {t} {wrong} after the merger announcement?",
            "Xyzzy plugh frobnicate?",  # no question word opens it: words outside, a claim
        ):
            assert not _verdict(question, f"{asked} {_closed(move)}").accepted, (question, asked)

"""A headline retold with a word it does not hold, over the free-form night's real news traces:
"Reuters reported that Ironwood Oilfield Group opens a new research center" retells its
headline; "... closed a research center", "... opens two new research centers", "... files an
annual report" where the headline says otherwise add what no item says (`wrong_relation`, or
`unverified_claim` for a word no grammar reads)."""

from __future__ import annotations

from tests.verifier.test_unseen_prose import _closed, _codes, _kept, _news

_ADDED = ("two", "closed", "annual", "cancels")


def test_a_retold_headline_adds_nothing() -> None:
    checked = 0
    for question, move, news in _news():
        if len(news) != 1:
            continue
        item = news[0]
        headline, wire = str(item["headline"]), str(item["source"])
        words = headline.split()
        lead = f"{_closed(move)} {wire} reported that"
        _kept(question, f"{lead} {headline}.")
        for word in _ADDED:
            if word in headline.casefold().split():
                continue
            said = f"{lead} {' '.join([*words[:-1], word, words[-1]])}."
            codes = _codes(question, said)  # a word no grammar reads stays unbound
            assert codes & {"wrong_relation", "unverified_claim"}, (question, said, codes)
        checked += 1
    assert checked >= 10, checked

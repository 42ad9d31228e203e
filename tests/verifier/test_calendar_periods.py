"""A calendar period said of a change is that change's window, over the free-form night's real
move traces: each faithful wording beside a corrupted twin.

"rose 11.5% in December" is the month window from November's last session to December 31; the
same figure said "in November", a quarter's said "in Q3" or "en 2024", a day's said "en el
cuarto trimestre" are another period's (`wrong_time` or `unsupported_figure`). A period that
only dates a day or opens a base ("on the last trading day of 2024", "in December's final
session", "desde el cierre de 2023") is no window of the figure.
"""

from __future__ import annotations

from tests.verifier.test_unseen_prose import _codes, _es, _kept, _moves

_WRONG = {"wrong_time", "unsupported_figure"}


def _verb(value: float, es: bool = False) -> str:
    if es:
        return "gana" if value > 0 else "pierde"
    return "rose" if value > 0 else "fell"


def test_a_month_quarter_or_year_named_for_a_change_is_its_window() -> None:
    checked = 0
    for question, move, windows in _moves():
        if not {"month", "quarter", "year_to_date"} <= set(windows):
            continue
        t = move["ticker"]
        month, quarter = windows["month"]["change_pct"], windows["quarter"]["change_pct"]
        ytd, day = windows["year_to_date"]["change_pct"], move["change_pct"]
        if len({round(abs(v), 2) for v in (month, quarter, ytd, day)}) < 4:
            continue  # two windows alike: a figure would be both
        en = [
            (f"{t} {_verb(month)} {abs(month):.2f}% in {{}}.", "December", "November"),
            (f"{t} {_verb(quarter)} {abs(quarter):.2f}% in {{}}.", "Q4", "Q3"),
            (f"{t} {_verb(ytd)} {abs(ytd):.2f}% in {{}}.", "2024", "2023"),
        ]
        for said, right, wrong in en:
            _kept(question, said.format(right))
            assert _codes(question, said.format(wrong)) & _WRONG, (question, said, wrong)
        lead = f"{t} cerró en {_es(move['close'])} ({_es(day, True)} %)"
        es_right = f"{lead}; en 2024 {_verb(ytd, True)} un {_es(abs(ytd))} %."
        _kept(question, es_right)
        es_wrong = f"{lead}; en 2024 {_verb(quarter, True)} un {_es(abs(quarter))} %."
        assert _codes(question, es_wrong) & _WRONG, (question, es_wrong)
        in_q4 = f"{t} {'subió' if day > 0 else 'cayó'} un {_es(abs(day))} % en el cuarto trimestre."
        assert _codes(question, in_q4) & _WRONG, (question, in_q4)
        checked += 1
    assert checked >= 10, checked


def test_a_period_that_dates_a_day_or_a_base_is_no_window() -> None:
    checked = 0
    for question, move, windows in _moves():
        if "year_to_date" not in windows:
            continue
        t, day, ytd = move["ticker"], move["change_pct"], windows["year_to_date"]["change_pct"]
        _kept(question, f"{t} {_verb(day)} {abs(day):.2f}% on the last trading day of 2024.")
        _kept(question, f"{t} {_verb(day)} {abs(day):.2f}% in December's final session.")
        _kept(question, f"{t}: desde el cierre de 2023 {_verb(ytd, True)} un {_es(abs(ytd))} %.")
        checked += 1
    assert checked >= 10, checked

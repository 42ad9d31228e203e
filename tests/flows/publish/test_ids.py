"""Case ids are injective: two different (ticker, question, portfolio) entries whose ids pass
the data check and the question set's rule never name the same case file."""

from __future__ import annotations

import re

from hypothesis import given
from hypothesis import strategies as st

from agent.questions import QUESTION_ID as QUESTION_ID_RULE
from data.contract import id_problem
from flows.publish.records import QuestionRecord

QUESTION_ID = re.compile(QUESTION_ID_RULE)
# few characters, so that near-collisions (runs of '_', case, '-' against '_') are drawn often
ids = st.text(alphabet="aA_-.1", min_size=1, max_size=6).filter(lambda v: id_problem(v) is None)
question_ids = st.text(alphabet="ab_1", min_size=1, max_size=6).filter(QUESTION_ID.fullmatch)
entries = st.tuples(ids, question_ids, st.none() | ids)


def case_id(entry: tuple[str, str, str | None]) -> str:
    ticker, question, portfolio = entry
    qid = "/".join(part for part in entry if part)  # as `render_question` joins them
    record = QuestionRecord(
        question_id=qid, spec_id=question, kind=question, ticker=ticker,
        portfolios=[portfolio] if portfolio else [], text="q", status="rejected",
    )  # fmt: skip
    return record.case_id


def valid(entry: tuple[str, str, str | None]) -> bool:
    ticker, question, portfolio = entry
    return (
        id_problem(ticker) is None
        and bool(QUESTION_ID.fullmatch(question))
        and (portfolio is None or id_problem(portfolio) is None)
    )


def entries_named(name: str) -> set[tuple[str, str, str | None]]:
    """Every valid entry whose case id is `name`: each way of reading two or three parts
    joined by '__' out of it."""
    cuts = [i for i in range(len(name) - 1) if name[i : i + 2] == "__"]
    found: set[tuple[str, str, str | None]] = set()
    for i in cuts:
        found.add((name[:i], name[i + 2 :], None))
        for j in (j for j in cuts if j > i + 2):
            found.add((name[:i], name[i + 2 : j], name[j + 2 :]))
    return {entry for entry in found if valid(entry)}


@given(entries)
def test_a_case_id_is_read_back_as_its_entry_alone(entry) -> None:  # type: ignore[no-untyped-def]
    assert entries_named(case_id(entry)) == {entry}


def test_the_parts_of_ids_that_used_to_collide_are_refused() -> None:
    """Before the rules, ticker 'A__move' with question 'p' and ticker 'A' with question 'move'
    in portfolio 'p' both named `A__move__p`."""
    assert case_id(("A__move", "p", None)) == case_id(("A", "move", "p"))
    assert id_problem("A__move") is not None and id_problem("P__1") is not None
    assert not QUESTION_ID.fullmatch("move__x") and not QUESTION_ID.fullmatch("move_")

"""Voices nobody wrote the verifier for, over the free-form night's traces.

`closed_world/voice_D.jsonl` (a columnist: judgements, causes, holidays as dates, "a sharp
3.62% drop") and `voice_E.jsonl` (a desk note and its Spanish twin: "Contrib: -0.11% (rank
21/25)", "pre-mkt", "hace una semana", tables and bullets) were written by other hands after
the free-form fixes, in English and Spanish, faithful drafts beside corrupted ones. Drafts
labelled faithful that judge whether a headline the search found caused the move (or could
not have) are relabelled `unsupported`: no tool result holds a cause, and the closed world
rejects them by design (one, D-139, is faithful again: the headline it says cannot explain the
day's move ran after the close, which the trace holds). `voice_F.jsonl` (a chat assistant in English and Spanish, and a plainer
small model) and `voice_G.jsonl` (a manager's end-of-day note, a private-bank brief in Spanish,
a compact Q&A) were written last and held back from every fix: their figures are first contact
with the verifier as it stands, labels as their writers gave them (one change followed: a Q&A's
"Answer:" label is a framing word, which took G from 24 to 35 of 120). The floors are what the
verifier measures after the bindings by kind of wording of `tests/verifier/test_unseen_prose.py`
(each tested on drafts generated from the traces, not on these voices' sentences). `pytest -s`
prints each voice's table; the first-contact figures and these are in `verifier/README.md`.
`voice_H.jsonl` (a terminal line, a sell-side note, an app alert, a chat answer in markdown, a
hedged answer, a client e-mail, a Spanish newspaper brief, a broker's message and a Spanish
client letter: 240 drafts of 16 kinds) came after all of those: 31 of 120 faithful kept, 118 of 120 corrupted rejected at first
contact; its floors now are what the bindings by kind of wording of
`tests/verifier/test_frame_and_disclaimers.py` (a message's frame, the data's disclaimers, gaps,
ranked windows, tallies, streaks' first days, parts of the day) measure, each tested there on
drafts generated from the traces in wordings of its own.
`voice_I.jsonl` (17 registers across 20 kinds: a risk memo, a push alert, a podcast script, a
compliance-reviewed letter, a Slack reply, a club newsletter, JSON and tables, a Spanish radio
brief and a banker's WhatsApp...) and `voice_J.jsonl` (200 answers written the way chat models
answer: "Here's a summary", "Key points", "Let me know if", "Cabe destacar") were written blind
while those bindings were built and never shown to them: their floors are their first contact
(I: 11 of 120 faithful kept, 120 of 120 corrupted rejected; J: 37 of 100 and 99 of 100).
`voice_K.jsonl` (200 answers in the styles of today's chat models, several facts to a sentence,
hedges, data caveats and tables, English and Spanish) was written blind after them: first
contact 28 of 100 faithful kept and 99 of 100 corrupted rejected. Then came the bindings of
`test_holders_and_records.py`, `test_lists_and_headings.py` and `test_limits.py` (rank lists,
headings, a portfolio's directions, records of a headline, the data's limits, offers, the
message speaking of itself; each tested on drafts generated from the traces), built with K in
view: every floor is now what the verifier measures after them, so that a change that loses
ground on any voice fails here.
`voice_L.jsonl` (six registers: a sell-side note's bullets, a broker app for beginners, a
robo-adviser's message with its compliance line, a model told to cite its data, a
Latin-American fintech app and a Spanish private bank's letter) was written blind after those
bindings: first contact 11 of 100 faithful kept (6 of 100 before this round's bindings) and
100 of 100 corrupted rejected. Its floor is what the verifier measures after the regulator's
lines, the letter's set phrases, desk abbreviations and Spanish level verbs were added.
`voice_M.jsonl` (small open chat models: "Based on the provided data", "Let's break this down
step by step", "In conclusion", restating the question, emoji) and `voice_N.jsonl` (large chat
models told to answer for a report from the tool results only: ledes, em dashes, tables,
careful hedges) were written blind in the next round: first contact 18 and 25 of 100 faithful
kept at that round's start, 20 and 25 after its bindings of `test_clause_times.py` and
`test_counts_not_changes.py`, 99 of 100 corrupted rejected each. Their floors are what the
verifier measures after `test_chat_frames.py`, `test_labels.py` and `test_event_windows.py`
(which also closed the one false accept of each).
`voice_O.jsonl` (agents that cite their tool calls, show their steps, add a "Sources:" footer
or a key=value line) and `voice_P.jsonl` (the paragraph of a nightly report: a wealth
manager's client report, an institutional P&L commentary, a factsheet, a Spanish private
bank's "informe diario") were written blind at the end of that round, after all of its
bindings: first contact 18 and 19 of 100 faithful kept (13 and 16 on the round's first commit),
99 and 100 of 100 corrupted rejected. Their floors are what the verifier measures after the
bindings built with them in view (`test_chat_frames.py`: an agent's steps, a UTC offset,
Spanish without accents; a figure after a sentence that only placed the holding in its
portfolio is the holding's, which closed O's one false accept).
`voice_Q.jsonl` (today's chat models and report writers answering from tool results: "TL;DR",
"Bottom line:", numbered findings, a caveat about the data, an offer to follow up, hedged
causes; Spain's and Latin America's Spanish; its kinds are the writer's 44 templates) was
written blind in the round after: first contact 30 of 100 faithful kept and 100 of 100
corrupted rejected. Its floor is what the verifier measures after that round's bindings: a
sentence that holds a relation open in every clause (`test_limits.py`), a relation said of the
news that is not news said to be missing, and a change between two closes that keeps its sign
(`test_derived.py`, which closed a false accept of P's: "(+2,03 %) frente a 361,76").
`voice_R.jsonl` (smaller open models and reasoning models' final answers: "According to the
tool output", "It's worth noting", key: value recaps, "this is not financial advice") was
written blind at the end of that round: first contact 25 of 100 faithful kept and 98 of 100
corrupted rejected on the round's first commit, 32 and 96 on its last before R was seen (the
round's hedges freed the sentences that had rejected two drafts whose error no rule read: "All
of these headlines came out last week"). Its floor is what the verifier measures after the
two readings built with R in view: when the news came out, said of all of it
(`test_news_times.py`), and a portfolio placed by its noun and id in an earlier sentence
(`test_places_and_measures.py`), which closed all four of its false accepts; its floor then
rose with the chat lines read in view of it (restated questions, set lines, ranks by measure).
`voice_S.jsonl` (products' voices: a morning-meeting readout, a trader's chat line, a club
email, an app card, a voice assistant, a WhatsApp to a client, a Mexican market brief, a
"Q:"/"A:" answer, a table then a paragraph) was written blind at the round's end: first
contact 50 of 100 faithful kept and 99 of 100 corrupted rejected on the round's first commit,
54 and 99 on its last before S was seen. Its one false accept ("earnings on Thursday, Jan 23,
this week") is closed by a day said with its week or month (`test_news_times.py`); its floor
then rose with questions read as asking (`test_limits.py`).
`voice_T.jsonl` and `voice_X.jsonl` (the financial press and sell-side notes: a newswire's
house style, a broker's morning note, Spain's and Argentina's financial press, written by two
hands from one brief), `voice_U.jsonl` (agentic chat assistants: markdown cards, "Key
takeaways", offers to follow up, Colombian and Chilean Spanish), `voice_V.jsonl` (a private
bank's letter, a risk desk's exception line, a compliance-reviewed update, terminal notes) and
`voice_W.jsonl` (a retail newsletter, a podcast script, a robo-adviser's notification, a
Spanish thread) were written blind at the next round's start. First contact on that round's
first commit, faithful kept and corrupted rejected: T 27 and 96, U 46 and 99, V 18 and 100,
W 14 and 99, X 35 and 98 of 100. T and U were read first; V, W and X were held back while T
and U were read and measured again before they were seen (18, 15, 35: nothing built for T and
U moved them). Their floors are what the verifier measures after the bindings built with them
in view (`test_places_and_measures.py`, `test_news_sources.py`, `test_headlines_and_names.py`
and additions to the older files), which closed all twelve of their false accepts.
`voice_Y.jsonl` (today's general chat models answering from the tool results with no persona)
and `voice_Z.jsonl` (small local instruct models: "Based on the information provided by the
tool", "Es importante notar que") were written blind while that round's bindings were built
and held back from all of them: on the round's first commit 31 and 22 of 100 faithful kept,
100 and 98 of 100 corrupted rejected; on its last, 31 and 28, 100 and 98. One faithful draft of
Y that a new count rule rejected midway ("Noticias:" over a numbered list read as a count) was
looked at by its reason alone and fixed in general; nothing else of Y or Z was read. Their
floors are those last figures. The round after read constructions that recur across voices
rather than words (`test_line_items_and_tables.py`, `test_days_to_events.py`,
`test_gaps_and_levels.py`): the floors of F, H, L, N-P, U, V and W rose with it, F's one false
accept ("lifted" on a losing day) closed, and Y and Z, still unread, did not move.
`voice_AA.jsonl` (chat assistants' answers: headings, bold figures, "Bottom line", closing
offers) and `voice_AB.jsonl` (Slack, Teams, a morning note, a client e-mail, a push alert, a
memo; half in Spanish) came last, each split in two: only ids 1-110 were read. First contact:
AA 15 of 110 faithful kept, 107 of 110 corrupted rejected; AB 36 and 109. The bindings built
with the read halves in view (`test_calendar_words.py` and additions to `test_said_plainly.py`,
each tested on drafts generated from the traces) took them to 19 and 110, 38 and 110; the
unread halves' faithful drafts did not move (7 of 55, 14 of 52). Their floors are those figures.
The round after bound ordinal places out of a count, places behind a list of leaders, fractions
that size a move, tables' holding and portfolio columns, JSON records, a comparison's side with
its gap, a place's time and measures (`test_places_fractions_columns.py`), and let a message's
address and sign-off stand: 56 more faithful drafts kept across the voices (1,727 to 1,783 of
2,781), none corrupted newly accepted. Three outside attack rounds then closed what those
bindings had let through; the frame words a view can be said with ("think", "identifies",
"profile", "ficha") came out of the free list, a window said to "start on" a day went back to
unbound, and a sentence about the data's limits may now hold only the closed `LIMIT_WORDS`:
1,772 of 2,781 kept at the end, the unread halves at 7 of 55 and 15 of 52.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.verifier.test_closed_world import FREE_TRACES, table

HERE = Path(__file__).parent / "closed_world"


def _rows(name: str) -> list[dict[str, object]]:
    return [json.loads(line) for line in (HERE / name).read_text().splitlines() if line.strip()]


@pytest.mark.parametrize(
    ("name", "kept_at_least", "rejected_at_least"),
    [
        ("voice_D.jsonl", 0.73, 0.99),
        ("voice_E.jsonl", 0.9, 1.0),
        ("voice_F.jsonl", 0.95, 0.98),
        ("voice_G.jsonl", 0.92, 1.0),
        ("voice_H.jsonl", 0.76, 1.0),
        ("voice_I.jsonl", 0.18, 1.0),
        ("voice_J.jsonl", 0.59, 1.0),
        ("voice_K.jsonl", 0.71, 1.0),
        ("voice_L.jsonl", 0.6, 1.0),
        ("voice_M.jsonl", 0.63, 1.0),
        ("voice_N.jsonl", 0.64, 1.0),
        ("voice_O.jsonl", 0.46, 1.0),
        ("voice_P.jsonl", 0.58, 1.0),
        ("voice_Q.jsonl", 0.72, 1.0),
        ("voice_R.jsonl", 0.77, 1.0),
        ("voice_S.jsonl", 0.83, 1.0),
        ("voice_T.jsonl", 0.68, 1.0),
        ("voice_U.jsonl", 0.73, 1.0),
        ("voice_V.jsonl", 0.61, 1.0),
        ("voice_W.jsonl", 0.37, 1.0),
        ("voice_X.jsonl", 0.73, 1.0),
        ("voice_Y.jsonl", 0.46, 1.0),
        ("voice_Z.jsonl", 0.45, 0.98),
        ("voice_AA.jsonl", 0.17, 1.0),
        ("voice_AB.jsonl", 0.38, 1.0),
    ],
)
def test_a_blind_voice_is_rejected_when_wrong(
    name: str, kept_at_least: float, rejected_at_least: float
) -> None:
    rows = _rows(name)
    assert {r["lang"] for r in rows} <= {"en", "es"}
    _, _, kept, rejected = table(rows, FREE_TRACES, f"blind voice {name}")
    assert len(rows) >= 200 and {str(r["question_id"]).split("/")[1] for r in rows} == {
        "move", "news", "events", "position"
    }  # fmt: skip
    assert kept >= kept_at_least
    assert rejected >= rejected_at_least

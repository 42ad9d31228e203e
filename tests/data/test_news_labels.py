"""How well the importer keeps what a report should quote, measured on real tweets labelled by
reading them (`news_labels.jsonl`: posts of the stocknet feed, each with `worthy`, a one-line
reason, and a `split`).

A post is worthy when it is about its company and says something a reader of a portfolio report
would want: results, ratings, deals, products, courts, people. Chatter, price-only talk,
promotion, bots, posts mainly about another company and posts in other languages are not; nor
are opinion pieces and questions that state no fact (`Should Amazon Worry About Its Debt?`,
`Coca-Cola Is A Top-Notch Dividend Stock`): readers disagree on them, and a screen that must be
95% precise cannot quote what many of its readers call noise.
A label changed after review keeps its old verdict in `relabelled` (`was worthy: ...`).

The news model (`data.news_model`) is fitted on the `train` rows only (`python -m
data.news_training`); the `test` rows, drawn at random from the feed, are never used to fit or to
choose anything, so their figures through the importer (retweet prefixes, entities, copies,
rules, model) are the honest ones. The cross-validated figures of the training rows are checked
too: the threshold is chosen on them.
"""

from __future__ import annotations

import json
from pathlib import Path

from data import news_training
from data.import_log import ImportLog
from data.import_news import read_news
from data.news_model import load

LABELS = Path(__file__).with_name("news_labels.jsonl")
TARGET = (0.95, 0.80)
"""What the screen should reach (precision, recall): precision does, recall does not yet."""
FLOORS = {"test": (0.95, 0.50), "cross_validated": (0.93, 0.45)}
"""What it reaches now, rounded down (test split 100% / 55.3%; 5-fold cross-validation of the
training split 95.1% / 48.0%, folds 91.1%-97.2% / 42.4%-57.4%): the threshold is chosen for
precision first, since a quoted post that is noise costs a report more than a story it leaves
out. Before the model read runs of four characters it reached 100% / 48.9% on the test split
and 95.1% / 43.4% cross-validated; before that, with the labels of the time, 87.0% / 79.7% on
the test split and 83.1% / 71.4% cross-validated at a threshold that traded one for the other.
A change to the rules, the features or the labels that loses ground fails here."""


def rows(split: str) -> list[dict[str, object]]:
    every = [json.loads(line) for line in LABELS.read_text(encoding="utf-8").splitlines()]
    return [r for r in every if r["split"] == split]


def measure(split: str, tmp_path: Path) -> tuple[float, float, list[str]]:
    """(precision, recall, the misjudged posts) of the importer on one split."""
    labelled = rows(split)
    feed = tmp_path / f"{split}.jsonl"
    feed.write_text("".join(json.dumps(r) + "\n" for r in labelled), encoding="utf-8")
    companies = {str(r["ticker"]): str(r["company"]) for r in labelled}
    table = read_news(feed, companies, ImportLog()).to_pylist()
    kept_at = {(t["ticker"], t["published_at"].isoformat()) for t in table}
    kept = {r["id"] for r in labelled if (r["ticker"], _utc(str(r["published_at"]))) in kept_at}
    worthy = {r["id"] for r in labelled if r["worthy"]}
    hits = len(kept & worthy)
    wrong = [f"{'kept' if r['id'] in kept else 'lost'}: {r['text']}" for r in labelled
             if (r["id"] in kept) != r["worthy"]]  # fmt: skip
    return hits / max(len(kept), 1), hits / max(len(worthy), 1), wrong


def _utc(stamp: str) -> str:
    return stamp.replace("Z", "+00:00")


def test_the_labels_are_a_thousand_with_reasons_and_a_held_out_split() -> None:
    every = rows("train") + rows("test")
    assert len(every) >= 1000 and all(str(r["reason"]).strip() for r in every)
    assert len({r["id"] for r in every}) == len(every)
    assert len(rows("test")) >= 250 and sum(bool(r["worthy"]) for r in rows("test")) >= 40
    relabelled = [r for r in every if "relabelled" in r]
    assert all(str(r["relabelled"]).startswith("was ") for r in relabelled)


def test_what_is_quoted_from_the_untouched_split_is_worth_quoting(tmp_path: Path) -> None:
    precision, recall, wrong = measure("test", tmp_path)
    print(f"test split: precision {precision:.1%}, recall {recall:.1%} (target {TARGET})")
    assert precision >= FLOORS["test"][0], "\n".join(wrong)
    assert recall >= FLOORS["test"][1], "\n".join(wrong)


def test_cross_validated_figures_hold_at_the_shipped_threshold() -> None:
    train = [e for e in news_training.examples(LABELS) if e.split == "train"]
    scores = news_training.out_of_fold(train)
    labels = [e.worthy for e in train]
    precision, recall = news_training.figures(labels, scores, load().threshold)
    print(f"5-fold cross-validation: precision {precision:.1%}, recall {recall:.1%}")
    assert precision >= FLOORS["cross_validated"][0]
    assert recall >= FLOORS["cross_validated"][1]
    assert news_training.choose_threshold(labels, scores) == load().threshold

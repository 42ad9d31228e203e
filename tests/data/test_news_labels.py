"""How well the importer's news screen keeps what a report should quote, measured on real
tweets labelled by reading them (`news_labels.jsonl`: 320 posts of the stocknet feed, each with
`worthy` and a one-line reason).

A post is worthy when it is about its company and says something a reader of a portfolio report
would want: results, ratings, deals, products, courts, people. Chatter, price-only talk,
promotion, bots, posts mainly about another company and posts in other languages are not. The
first 320 (`tune`) are what the screen's word lists were fitted on; the last 170 (`held_out`)
were drawn and labelled afterwards, never tuned on, so their figures are the honest ones. Both go
through the importer itself (retweet prefixes, entities, copies, then the screen), as a feed
would.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from data.import_log import ImportLog
from data.import_news import read_news

LABELS = Path(__file__).with_name("news_labels.jsonl")
TARGET = (0.95, 0.80)
"""What the screen should reach (precision, recall): it does not yet, on either split."""
FLOORS = {"tune": (0.90, 0.85), "held_out": (0.60, 0.60)}
"""What it reaches now, rounded down (tune 91.7% / 88.7%, held out 65.5% / 65.5%): a change to
the screen's word lists that loses ground fails here."""


def measure(split: str, tmp_path: Path) -> tuple[float, float, list[str]]:
    """(precision, recall, the misjudged posts) of the importer on one split."""
    rows = [json.loads(line) for line in LABELS.read_text(encoding="utf-8").splitlines()]
    rows = [r for r in rows if r["split"] == split]
    feed = tmp_path / f"{split}.jsonl"
    feed.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    companies = {r["ticker"]: r["company"] for r in rows}
    table = read_news(feed, companies, ImportLog()).to_pylist()
    kept_at = {(t["ticker"], t["published_at"].isoformat()) for t in table}
    kept = {r["id"] for r in rows if (r["ticker"], _utc(r["published_at"])) in kept_at}
    worthy = {r["id"] for r in rows if r["worthy"]}
    hits = len(kept & worthy)
    wrong = [f"{'kept' if r['id'] in kept else 'lost'}: {r['text']}" for r in rows
             if (r["id"] in kept) != r["worthy"]]  # fmt: skip
    return hits / max(len(kept), 1), hits / max(len(worthy), 1), wrong


def _utc(stamp: str) -> str:
    return stamp.replace("Z", "+00:00")


def test_the_labels_are_a_few_hundred_with_reasons() -> None:
    rows = [json.loads(line) for line in LABELS.read_text(encoding="utf-8").splitlines()]
    assert 400 <= len(rows) <= 600 and all(r["reason"].strip() for r in rows)
    assert {r["split"] for r in rows} == {"tune", "held_out"}
    assert sum(r["worthy"] for r in rows if r["split"] == "held_out") >= 25


@pytest.mark.parametrize("split", ["tune", "held_out"])
def test_what_is_quoted_is_worth_quoting(split: str, tmp_path: Path) -> None:
    precision, recall, wrong = measure(split, tmp_path)
    print(f"{split}: precision {precision:.1%}, recall {recall:.1%} (target {TARGET})")
    assert precision >= FLOORS[split][0], "\n".join(wrong)
    assert recall >= FLOORS[split][1], "\n".join(wrong)

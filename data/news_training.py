"""Fit the news model (`data.news_model`) on labelled real tweets and say how well it does.

    python -m data.news_training            # k-fold figures on the training split, then fit
    python -m data.news_training --test     # the same, plus the untouched test split
    python -m data.news_training --check    # refit and fail if the checked-in weights differ

The labels (`tests/data/news_labels.jsonl`) carry a `split`: `train` rows are what the model is
fitted and cross-validated on, `test` rows are never used to fit or to choose anything. Every
post goes through what the importer does before the model: the retweet prefix comes off (its
author becomes the source), then the rules of `data.news_screen` (about the company, English,
no bot template). A post a rule drops counts as not quoted; the model sees only the rest, so
that it learns the hard cases.

The threshold is chosen on the cross-validated scores of the training split alone
(`choose_threshold`: both targets when it can, else precision first), so the figures on the
test split are an honest estimate of what a new feed gets; the folds one at a time give the
range those figures can take on a smaller feed. Everything is seeded: the same labels give the same
weights, byte for byte.
"""

from __future__ import annotations

import argparse
import html
import json
import random
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from data.import_news import RETWEET
from data.news_model import WEIGHTS, Model
from data.news_screen import Company, post_features, screen_rules

LABELS = Path(__file__).resolve().parents[1] / "tests" / "data" / "news_labels.jsonl"
FOLDS = 5
SEED = 35
L2 = 3.0
SPARSE_WEIGHT = 1.0
MIN_COUNT = 2
TARGET = (0.95, 0.80)
"""The precision and recall asked of what is quoted."""


@dataclass(frozen=True)
class Example:
    """One labelled post as the importer sees it, with the rule verdict and the features."""

    id: str
    worthy: bool
    split: str
    ruled_out: str | None
    names: list[str]
    text: str


def examples(path: Path = LABELS) -> list[Example]:
    rows = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]
    companies = {r["ticker"]: Company.of(r["ticker"], r["company"]) for r in rows}
    out = []
    for row in rows:
        text, source = html.unescape(row["text"].strip()), row["user"]
        while prefix := RETWEET.match(text):
            text, source = text[prefix.end() :].strip(), prefix.group(1) or source
        company = companies[row["ticker"]]
        screen = screen_rules(text, company, companies.values())
        names = post_features(text, company, source)
        ruled = None if screen is None else screen.kind
        out.append(Example(row["id"], row["worthy"], row["split"], ruled, names, text))
    return out


def fit(train: list[Example]) -> Model:
    """L2-regularised logistic regression over the features seen at least `MIN_COUNT` times,
    solved by Newton's method with conjugate-gradient steps on the sparse 0/1 design (the
    features of a post are a few dozen of several thousand): deterministic, exact to 1e-9, and
    seconds for a few thousand posts."""
    counts: dict[str, int] = {}
    for ex in train:
        for name in set(ex.names):
            counts[name] = counts.get(name, 0) + 1
    vocabulary = sorted(n for n, c in counts.items() if c >= MIN_COUNT)
    index = {n: i for i, n in enumerate(vocabulary)}
    bias = len(vocabulary)
    rows: list[int] = []
    cols: list[int] = []
    for row, ex in enumerate(train):
        for column in sorted({index[n] for n in set(ex.names) if n in index} | {bias}):
            rows.append(row)
            cols.append(column)
    design = _Sparse(np.array(rows), np.array(cols), len(train), bias + 1)
    y = np.array([1.0 if ex.worthy else 0.0 for ex in train])
    penalty = np.array([_penalty(n) for n in vocabulary] + [0.0])
    w = np.zeros(bias + 1)
    for _ in range(50):
        p = 1.0 / (1.0 + np.exp(-np.clip(design.dot(w), -30, 30)))
        gradient = design.tdot(p - y) + penalty * w
        if np.abs(gradient).max() < 1e-9:
            break
        curvature = p * (1 - p)

        def hessian(v: np.ndarray, c: np.ndarray = curvature) -> np.ndarray:
            return design.tdot(c * design.dot(v)) + (penalty + 1e-9) * v

        w -= _conjugate_gradient(hessian, gradient)
    weights = {n: float(w[i]) for n, i in index.items()}
    return Model(weights, float(w[bias]), 0.5)


@dataclass(frozen=True)
class _Sparse:
    """A 0/1 matrix by the coordinates of its ones: the two products Newton's method needs."""

    rows: np.ndarray
    cols: np.ndarray
    height: int
    width: int

    def dot(self, v: np.ndarray) -> np.ndarray:
        return np.bincount(self.rows, weights=v[self.cols], minlength=self.height)

    def tdot(self, u: np.ndarray) -> np.ndarray:
        return np.bincount(self.cols, weights=u[self.rows], minlength=self.width)


def _conjugate_gradient(product: Callable[[np.ndarray], np.ndarray], b: np.ndarray) -> np.ndarray:
    """The x with product(x) = b, for a symmetric positive definite product."""
    x = np.zeros_like(b)
    r = b.copy()
    d = r.copy()
    rr = float(r @ r)
    for _ in range(len(b)):
        if rr < 1e-24:
            break
        q = product(d)
        alpha = rr / float(d @ q)
        x += alpha * d
        r -= alpha * q
        rr, before = float(r @ r), rr
        d = r + (rr / before) * d
    return x


def _penalty(name: str) -> float:
    """Words, pairs and sources are many and each seen rarely: they are held close to zero
    unless the data insist; the few pooled features (groups, shapes, rules) move freely."""
    return L2 * (SPARSE_WEIGHT if name.startswith(("word:", "pair:", "source:")) else 1.0)


def folds(train: list[Example]) -> list[int]:
    """The fold of each training post: stratified (the worthy spread evenly) and seeded."""
    order = list(range(len(train)))
    random.Random(SEED).shuffle(order)
    order.sort(key=lambda i: not train[i].worthy)  # stable: positives first, each shuffled
    fold_of = {i: k % FOLDS for k, i in enumerate(order)}
    return [fold_of[i] for i in range(len(train))]


def out_of_fold(train: list[Example]) -> list[float]:
    """Each training post's probability from a model fitted on the other folds (`folds`); a
    post a rule drops scores 0."""
    fold_of = folds(train)
    scores = [0.0] * len(train)
    for fold in range(FOLDS):
        fitted = fit([e for i, e in enumerate(train) if fold_of[i] != fold and not e.ruled_out])
        for i, ex in enumerate(train):
            if fold_of[i] == fold and not ex.ruled_out:
                scores[i] = fitted.probability(ex.names)
    return scores


def figures(labels: list[bool], scores: list[float], threshold: float) -> tuple[float, float]:
    kept = [s >= threshold for s in scores]
    hits = sum(k and w for k, w in zip(kept, labels, strict=True))
    return hits / max(sum(kept), 1), hits / max(sum(labels), 1)


def fold_ranges(
    labels: list[bool], scores: list[float], fold_of: list[int], threshold: float
) -> tuple[tuple[float, float], tuple[float, float]]:
    """The lowest and highest precision, and recall, of the folds taken one at a time: how
    far the pooled cross-validated figures can be off for a feed of a fifth the size."""
    each = [
        figures(
            [w for w, f in zip(labels, fold_of, strict=True) if f == fold],
            [s for s, f in zip(scores, fold_of, strict=True) if f == fold],
            threshold,
        )
        for fold in range(FOLDS)
    ]
    precisions, recalls = [p for p, _ in each], [r for _, r in each]
    return (min(precisions), max(precisions)), (min(recalls), max(recalls))


def choose_threshold(labels: list[bool], scores: list[float]) -> float:
    """The threshold (on a 0.01 grid) that reaches `TARGET` when one does (the lowest such,
    for the most recall); else the lowest that reaches its precision, for a quoted post that
    is noise costs the report more than a story it leaves out (the report quotes a few
    headlines a ticker, and the reader takes each for news); else the one that falls least
    short of both: the largest smaller share of the two targets (precision / 95%, recall /
    80%), ties to the higher threshold."""
    grid = [round(t / 100, 2) for t in range(5, 96)]
    measured = {t: figures(labels, scores, t) for t in grid}

    def shortfall(t: float) -> float:
        return min(f / g for f, g in zip(measured[t], TARGET, strict=True))

    reached = [t for t in grid if shortfall(t) >= 1.0]
    if reached:
        return reached[0]
    precise = [t for t in grid if measured[t][0] >= TARGET[0]]
    if precise:
        return precise[0]
    return max(grid, key=lambda t: (round(shortfall(t), 6), t))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m data.news_training")
    parser.add_argument("--test", action="store_true", help="also score the untouched test split")
    parser.add_argument("--check", action="store_true", help="fail if news_model.json differs")
    args = parser.parse_args(argv)
    every = examples()
    train = [e for e in every if e.split == "train"]
    scores = out_of_fold(train)
    labels = [e.worthy for e in train]
    threshold = choose_threshold(labels, scores)
    precision, recall = figures(labels, scores, threshold)
    (p_low, p_high), (r_low, r_high) = fold_ranges(labels, scores, folds(train), threshold)
    print(
        f"{FOLDS}-fold cross-validation on {len(train)} training posts "
        f"({sum(labels)} worthy): threshold {threshold:.2f}, "
        f"precision {precision:.1%} (folds {p_low:.1%}-{p_high:.1%}), "
        f"recall {recall:.1%} (folds {r_low:.1%}-{r_high:.1%})"
    )
    model = fit([e for e in train if not e.ruled_out])
    model = Model(model.weights, model.bias, threshold)
    meta: dict[str, object] = {
        "trained_on": len(train),
        "worthy": sum(labels),
        "folds": FOLDS,
        "seed": SEED,
        "cv_precision": round(precision, 4),
        "cv_recall": round(recall, 4),
        "cv_precision_folds": [round(p_low, 4), round(p_high, 4)],
        "cv_recall_folds": [round(r_low, 4), round(r_high, 4)],
    }
    body = model.to_json(meta)
    if args.test:
        test = [e for e in every if e.split == "test"]
        test_scores = [0.0 if e.ruled_out else model.probability(e.names) for e in test]
        tp, tr = figures([e.worthy for e in test], test_scores, threshold)
        print(f"untouched test split, {len(test)} posts: precision {tp:.1%}, recall {tr:.1%}")
    if args.check:
        if WEIGHTS.read_text(encoding="utf-8") != body:
            print(f"{WEIGHTS.name} differs from a refit: run python -m data.news_training")
            return 1
        return 0
    WEIGHTS.write_text(body, encoding="utf-8")
    print(f"wrote {WEIGHTS} ({len(model.weights)} weights)")
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""What the attack tables share: the ground attacks run against, the registry each attack joins
by its class, the checks for a refusal, and the run that tallies them (tried, refused, bounded,
fell short), one line per class in the test output and in `RELIABILITY_REPORT`.

An attack is refused (turned away with an error or one line), bounded (it ran, and what came
out is within the limit), or fell short (anything else: a wrong answer, a traceback, a hang)."""

from __future__ import annotations

import os
import shutil
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, date, datetime
from pathlib import Path
from time import perf_counter
from typing import Any, Literal

import pytest

from contract.errors import InputError
from flows.publish.cases import open_run
from flows.publish.layout import RunLayout
from flows.review.state import ReviewState
from flows.run.config import RunConfig
from flows.run.preflight import check_night
from tools.catalog import Catalog
from tools.registry import call_tool

Outcome = Literal["refused", "bounded"]
CLASSES = (
    "tools",
    "sql",
    "rendering",
    "replies",
    "files",
    "data",
    "audit",
    "parameters",
    "ids",
    "terminal",
    "numbers",
    "races",
)
"""The classes the boundaries name, then those they do not: look-alike and traversing ids,
escape sequences on the terminal and in logs, numbers JSON or Parquet cannot mean, and two
writers at once."""
AT = datetime(2024, 3, 29, 9, 30, tzinfo=UTC)
REVIEW_DAY = date(2024, 3, 28)


@dataclass
class Ground:
    """What the attacks run against: a catalog of the shared data, its data set, a published
    run to decide on, and a scratch folder."""

    catalog: Catalog
    data: Path
    day: date
    run: Path
    scratch: Path

    def folder(self, name: str) -> Path:
        path = self.scratch / name
        path.mkdir(parents=True)
        return path


Attack = Callable[[Ground], Outcome]
ATTACKS: list[tuple[str, str, Attack]] = []


def attack(kind: str) -> Callable[[Attack], Attack]:
    assert kind in CLASSES, kind

    def register(fn: Attack) -> Attack:
        ATTACKS.append((kind, fn.__name__, fn))
        return fn

    return register


def portfolios(ground: Ground) -> tuple[str, str]:
    rows = call_tool(ground.catalog, "run_sql", {"sql": "SELECT portfolio_id FROM portfolios"})
    own, other = sorted(r[0] for r in rows["rows"])[:2]
    return own, other


def error_of(out: dict[str, Any], *said: str) -> Outcome:
    assert set(out) == {"error"}, out
    assert all(s in out["error"] for s in said), out["error"]
    assert "\n" not in out["error"] and "Traceback" not in out["error"], out["error"]
    return "refused"


def refusal(call: Callable[[], Any], said: str, kind: type[Exception] = InputError) -> Outcome:
    """The call raises `kind` with `said` in a message of one line."""
    with pytest.raises(kind) as refused:
        call()
    message = getattr(refused.value, "message", str(refused.value))
    assert said in message, message
    assert kind is not InputError or "\n" not in message
    return "refused"


def copy_data(ground: Ground, name: str) -> Path:
    target = ground.scratch / name
    shutil.copytree(ground.data, target)
    return target


def review_cases(ground: Ground, name: str) -> tuple[RunLayout, list[str]]:
    """A copy of the published run to decide on, and its case ids."""
    out = ground.scratch / name
    shutil.copytree(ground.run, out)
    layout = open_run(out, REVIEW_DAY)
    found = ReviewState.load(layout, strict=False).cases.values()
    return layout, sorted(c.case_id for c in found)


def night(ground: Ground, out: Path, **config: Any) -> Callable[[], Any]:
    """The checks a night runs before it spends a token, on `out`."""
    return lambda: check_night(
        RunConfig(data_dir=ground.data, out_dir=out, report_date=ground.day, **config)
    )


def run_table(ground: Ground, attacks: list[tuple[str, str, Attack]]) -> list[str]:
    """Run every attack, print and report the table; the attacks that fell short."""
    tally: dict[str, Counter[str]] = {kind: Counter() for kind in CLASSES}
    seconds: Counter[str] = Counter()
    short = []
    for kind, name, fn in attacks:
        started = perf_counter()
        try:
            outcome: str = fn(ground)
        except BaseException as exc:  # anything else than the boundary's answer: fell short
            outcome = "fell short"
            short.append(f"{kind}/{name}: {type(exc).__name__}: {str(exc)[:200]}")
        seconds[kind] += perf_counter() - started
        tally[kind]["tried"] += 1
        tally[kind][outcome] += 1
    head = f"{'class':<11} {'tried':>5} {'refused':>7} {'bounded':>7} {'fell short':>10} {'s':>6}"
    lines = [head]
    lines += [
        f"{kind:<11} {t['tried']:>5} {t['refused']:>7} {t['bounded']:>7} {t['fell short']:>10}"
        f" {seconds[kind]:>6.1f}"
        for kind, t in tally.items()
        if t["tried"]
    ]
    total = sum((t for t in tally.values()), Counter())
    lines.append(
        f"{'all':<11} {total['tried']:>5} {total['refused']:>7} {total['bounded']:>7}"
        f" {total['fell short']:>10} {sum(seconds.values()):>6.1f}"
    )
    table = "\n".join(lines)
    print("\n" + table, *(f"fell short: {line}" for line in short), sep="\n")
    if report := os.environ.get("RELIABILITY_REPORT"):
        with open(report, "a", encoding="utf-8") as file:
            file.write(table + "\n")
    return short

"""The verifier's warm-up, as a night runs it while it prepares: afterwards the night's drafts
build no scan and compile no pattern of their own, and every verdict is the one a cold verifier
gives."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

PROBE = """
import json, sys
from verifier.scanner import PhraseScan
from verifier.verify import verify_json, warm_up
traces = json.load(open(sys.argv[1]))
if sys.argv[2] == "warm":
    warm_up()
built = len(PhraseScan.made), sum(len(s.by_first) for s in PhraseScan.made)
verdicts = {q: verify_json(t).accepted for q, t in traces.items()}
after = len(PhraseScan.made), sum(len(s.by_first) for s in PhraseScan.made)
print(json.dumps({"built": built, "after": after, "verdicts": verdicts}))
"""


def run(mode: str) -> dict[str, object]:
    """A fresh interpreter (the lazily built scans of this test process are built already)."""
    traces = ROOT / "tests" / "verifier" / "closed_world" / "free_form_traces.json"
    out = subprocess.run(
        [sys.executable, "-c", PROBE, str(traces), mode],
        cwd=ROOT, capture_output=True, text=True, check=True, timeout=300,
    )  # fmt: skip
    return json.loads(out.stdout)  # type: ignore[no-any-return]


def test_after_the_warm_up_the_nights_drafts_compile_nothing_and_judge_alike() -> None:
    warm, cold = run("warm"), run("cold")
    assert warm["built"] == warm["after"]  # no scan built, no pattern compiled by a draft
    assert cold["built"] != cold["after"]  # (a cold verifier does build them on first use)
    assert warm["verdicts"] == cold["verdicts"]

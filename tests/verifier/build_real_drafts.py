"""Record a night's drafts for `real_drafts/`: every question record with a draft, its trace as
the night verified it, the drafting mode; labels already given (by id, to the same draft) are
kept, new ones are left `unlabelled` for a reader to fill in.

    .venv/bin/python tests/verifier/build_real_drafts.py OUT_DIR DRAFTING [OUT_DIR DRAFTING ...]

OUT_DIR is a night's --out (its `.results/` are read); DRAFTING is free or structured.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

RECORDED = Path(__file__).parent / "real_drafts" / "smollm2.jsonl"
KEEP = (
    "question_id",
    "question",
    "draft",
    "as_of",
    "portfolio_id",
    "requires",
    "language",
    "ticker",
)


def records_in(value: Any) -> Iterator[dict[str, Any]]:
    if isinstance(value, dict):
        trace = value.get("trace")
        if isinstance(trace, dict) and trace.get("draft") and "events" in trace:
            yield value
        for item in value.values():
            yield from records_in(item)
    elif isinstance(value, list):
        for item in value:
            yield from records_in(item)


def slim(trace: dict[str, Any]) -> dict[str, Any]:
    """What the judge reads: the question, the draft, the events (ids, tools, args, results)."""
    events = [
        {k: e.get(k) for k in ("id", "tool", "args", "result", "error") if k in e}
        for e in trace["events"]
    ]
    turns = [{"text": t.get("text")} for t in trace.get("turns", [])]
    return {
        **{k: trace.get(k) for k in KEEP},
        "stop_reason": "answered",
        "events": events,
        "turns": turns,
    }


def main(args: list[str]) -> int:
    known = {}
    if RECORDED.exists():
        known = {json.loads(x)["id"]: json.loads(x) for x in RECORDED.read_text().splitlines()}
    out = dict(known)
    for folder, drafting in zip(args[::2], args[1::2], strict=True):
        for path in sorted(Path(folder, ".results").rglob("*.json")):
            for record in records_in(json.loads(path.read_text(encoding="utf-8"))):
                trace = record["trace"]
                summary = str(trace["question_id"]).endswith("/summary")
                mode = "free" if summary else drafting  # a summary is drafted as free text
                rid = f"{mode}/{trace['language']}/{trace['question_id']}"
                old = known.get(rid, {})
                if old.get("trace", {}).get("draft") != trace["draft"]:
                    old = {}  # a label is for the draft it was given to
                out[rid] = {
                    "id": rid,
                    "drafting": mode,
                    "label": old.get("label", "unlabelled"),
                    "why": old.get("why", ""),
                    "night_status": record.get("status"),
                    "trace": slim(trace),
                }
    RECORDED.parent.mkdir(exist_ok=True)
    lines = [json.dumps(r, ensure_ascii=False) for _, r in sorted(out.items())]
    RECORDED.write_text("\n".join(lines) + "\n", encoding="utf-8")
    print(f"{len(out)} drafts in {RECORDED}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

"""The spend journal: a line for every reservation, written before its call goes out, a line
for every settle, written when the reply's usage is known, and one for every finished ticker.

An attempt saves its whole ledger every few seconds; a kill -9 between two saves would lose the
spend of the calls in between. The journal loses nothing: each line is one `write` to a file
opened for appending (the kernel keeps it when the process dies), and a reservation whose settle
never came is a call that was out when the attempt died, charged at its reservation, the most
the provider can have billed for it. Replaying the journal gives the ledger of a killed attempt."""

from __future__ import annotations

import json
import os
import threading
from pathlib import Path
from typing import NamedTuple

from agent.budget.ledger import BudgetLedger, LineTally, saved_of
from agent.pricing import PriceTable
from contract.trace import Usage

APPEND_FLAGS = os.O_WRONLY | os.O_APPEND | os.O_CREAT | os.O_NOFOLLOW | os.O_CLOEXEC
"""A journal is appended to only as itself: a link in its place is an error, never followed."""


class SpendJournal:
    """Appends reservation and settle lines to one file; safe across threads."""

    def __init__(self, path: Path) -> None:
        path.parent.mkdir(parents=True, exist_ok=True)
        self.path = path
        self._fd = os.open(path, APPEND_FLAGS, 0o600)
        self._lock = threading.Lock()

    def header(self, provider: str, model: str) -> None:
        self._write({"h": [provider, model]})

    def reserved(self, question_id: str, kind: str, serial: int, tokens: int, prompt: int) -> None:
        self._write({"r": [question_id, kind, serial, tokens, prompt]})

    def ticker_done(self, ticker: str) -> None:
        self._write({"t": [ticker]})

    def settled(self, question_id: str, serial: int, usage: Usage, batch: bool = False) -> None:
        counts = [usage.input_tokens, usage.cached_tokens, usage.output_tokens]
        counts += [usage.cache_write_tokens, int(batch)]
        self._write({"s": [question_id, serial, *counts]})

    def _write(self, entry: dict[str, list[object]]) -> None:
        line = (json.dumps(entry, separators=(",", ":")) + "\n").encode()
        with self._lock:
            if self._fd >= 0:
                os.write(self._fd, line)

    def close(self) -> None:
        with self._lock:
            if self._fd >= 0:
                os.close(self._fd)
                self._fd = -1


def settle_open(path: Path, spent: dict[str, tuple[Usage, bool]]) -> int:
    """Charge, in a dead attempt's journal, what the calls of the questions in `spent` did cost
    (usage, and whether at the batch price): a batch that attempt submitted and a later one
    collected. Its replayed ledger then holds the exact spend. An open reservation is settled
    with it; one the attempt gave back when it was stopped (settled at zero) gets a new settled
    entry of zero tokens reserved; a question already charged is left alone. The entries added."""
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return 0
    kinds: dict[str, str] = {}
    serials: dict[str, int] = {}
    open_calls: dict[str, list[int]] = {}
    charged: set[str] = set()
    for raw in text.splitlines():
        try:
            entry = json.loads(raw)
            if "r" in entry:
                qid, kind, serial = entry["r"][:3]
                kinds[qid], serials[qid] = kind, max(serial, serials.get(qid, 0))
                open_calls.setdefault(qid, []).append(serial)
            elif "s" in entry:
                qid, serial, *counts = entry["s"]
                open_calls.get(qid, []).remove(serial)
                if any(counts[:3]):
                    charged.add(qid)
        except (ValueError, KeyError, TypeError, IndexError):
            continue
    lines: list[dict[str, list[object]]] = []
    for qid, (usage, batch) in spent.items():
        counts = [usage.input_tokens, usage.cached_tokens, usage.output_tokens]
        settle = [*counts, usage.cache_write_tokens, int(batch)]
        if open_calls.get(qid):
            lines += [{"s": [qid, serial, *settle]} for serial in open_calls[qid][:1]]
        elif qid in kinds and qid not in charged:
            serial = serials[qid] + 1
            lines += [{"r": [qid, kinds[qid], serial, 0, 0]}, {"s": [qid, serial, *settle]}]
    if lines:  # a newline first: the kill may have cut the last line short
        text = "\n".join(json.dumps(x, separators=(",", ":")) for x in lines)
        with os.fdopen(os.open(path, APPEND_FLAGS, 0o600), "a", encoding="utf-8") as handle:
            handle.write("\n" + text + "\n")
    return len(lines)


class Replayed(NamedTuple):
    ledger: BudgetLedger
    tickers_done: int


def replay(path: Path, into: BudgetLedger, prices: PriceTable) -> Replayed:
    """`into` (the attempt's last saved ledger: its limits and cuts) with the lines and spend
    the journal at `path` holds, every unsettled reservation charged at its reservation.
    A line cut short by the kill is skipped; `into` comes back as it is when there is no file."""
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return Replayed(into, 0)
    first = into.lines[0] if into.lines else None
    tally = LineTally(first.provider if first else "", first.model if first else "")
    kinds: dict[str, str] = {}
    open_calls: dict[tuple[str, int], tuple[int, int]] = {}
    tickers: set[str] = set()
    for raw in text.splitlines():
        try:
            entry = json.loads(raw)
            if "h" in entry:
                tally.provider, tally.model = entry["h"]
            elif "t" in entry:
                tickers.add(entry["t"][0])
            elif "r" in entry:
                qid, kind, serial, tokens, prompt = entry["r"]
                if qid not in kinds:
                    kinds[qid] = kind
                    tally.question(kind)
                tally.reserve(kind, tokens)
                open_calls[(qid, serial)] = (tokens, prompt)
            else:
                qid, serial, given, cached, output, *more = entry["s"]
                open_calls.pop((qid, serial))
                written, batch = [*more, 0, 0][:2]  # journals before batches had neither
                usage = Usage(
                    input_tokens=given,
                    cached_tokens=cached,
                    output_tokens=output,
                    cache_write_tokens=written,
                )
                tally.settle(kinds[qid], usage, bool(batch))
        except (ValueError, KeyError, TypeError):
            continue
    in_flight = 0
    for (qid, _serial), (tokens, prompt) in open_calls.items():
        tally.settle(kinds[qid], Usage(input_tokens=prompt, output_tokens=tokens - prompt))
        in_flight += tokens
    for cut in into.cuts:
        if cut.question_id not in kinds:  # refused before its first call
            tally.question(cut.kind)
        tally.cut(cut.kind)
    lines, cost, note = tally.priced(prices)
    ledger = into.model_copy(
        update={
            "used": tally.used,
            "reserved": tally.reserved,
            "open_reservations": 0,
            "in_flight_tokens": in_flight,
            "lines": lines,
            "cost_usd": cost,
            "cost_note": note,
            "saved_usd": saved_of(lines),
        }
    )
    return Replayed(ledger, len(tickers))

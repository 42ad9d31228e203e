"""News rows from a JSONL feed of headlines or social posts, with retweet copies removed.

Each line is an object with `ticker`, `published_at` (ISO 8601 with a UTC offset), `headline`
or `text`, and `source` or `user`. Text is kept as published (cashtags, links, slang), with
HTML entities decoded. A retweet (`RT @user: text`) repeats a post already in the feed: it is
removed at import, keeping the earliest copy, by comparing texts with the normaliser the news
tool uses for syndicated headlines; a retweet cut short with `…` matches any earlier post that
starts with what it kept.
"""

from __future__ import annotations

import html
import json
import re
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pyarrow as pa

from contract.errors import InputError
from data.contract import NEWS
from data.headlines import normalise_headline
from data.import_log import ImportLog, require_utf8

RETWEET = re.compile(r"^RT @\w+:\s*")
TRUNCATED = ("…", "...")
MIN_PREFIX = 20
"""A cut-short retweet must keep at least this many normalised characters to match an earlier post."""


def read_news(path: Path, companies: set[str], log: ImportLog) -> pa.Table:
    """The news table: readable rows about known tickers, retweet copies removed, by time."""
    if not path.is_file():
        raise InputError(f"--news {path}: no such file")
    source = path.name
    rows: list[tuple[datetime, str, str, str, int]] = []
    require_utf8(path, "--news")
    with path.open(encoding="utf-8") as handle:
        for line, text in enumerate(handle, start=1):
            if not text.strip():
                continue
            log.read["news"] += 1
            row = _parse(text, companies)
            if isinstance(row, str):
                log.note("dropped", "news", source, line, row)
            else:
                rows.append((*row, line))
    rows.sort(key=lambda r: (r[1], r[0], r[4]))
    kept = drop_retweets(rows, source, log)
    log.kept["news"] = len(kept)
    return pa.table(
        {
            "ticker": [r[1] for r in kept],
            "published_at": [r[0] for r in kept],
            "headline": [r[2] for r in kept],
            "source": [r[3] for r in kept],
        },
        schema=NEWS.schema,
    )


def _parse(text: str, companies: set[str]) -> tuple[datetime, str, str, str] | str:
    """(published_at, ticker, headline, source), or the reason the line cannot be used."""
    try:
        item: Any = json.loads(text)
    except json.JSONDecodeError as exc:
        return f"not JSON ({exc.msg})"
    if not isinstance(item, dict):
        return "not a JSON object"
    ticker = str(item.get("ticker") or "").strip().lstrip("$").upper()
    headline = item.get("headline") or item.get("text")
    author = item.get("source") or item.get("user")
    if not ticker or not isinstance(headline, str) or not headline.strip() or not author:
        return "needs ticker, headline (or text) and source (or user)"
    if ticker not in companies:
        return f"ticker {ticker} is not among the imported companies"
    try:
        published = datetime.fromisoformat(str(item.get("published_at")))
    except ValueError:
        return f"unreadable published_at {item.get('published_at')!r}"
    if published.tzinfo is None:
        return f"published_at {item['published_at']} has no UTC offset"
    return published.astimezone(UTC), ticker, html.unescape(headline.strip()), str(author)


def drop_retweets(
    rows: list[tuple[datetime, str, str, str, int]], source: str, log: ImportLog
) -> list[tuple[datetime, str, str, str, int]]:
    """Keep every post but retweets of an earlier post of the same ticker (rows sorted by ticker, time)."""
    kept: list[tuple[datetime, str, str, str, int]] = []
    keys: set[tuple[datetime, str, str, str]] = set()
    seen: dict[str, str] = {}
    ticker = ""
    for row in rows:
        if row[1] != ticker:
            ticker, seen = row[1], {}
        body = RETWEET.sub("", row[2])
        normal = normalise_headline(body)
        copied = _earlier_copy(body, normal, seen) if RETWEET.match(row[2]) else None
        if copied is not None:
            log.note("dropped", "news", source, row[4], f"retweet of {ticker} post at {copied}")
            continue
        if row[:4] in keys:
            log.note("dropped", "news", source, row[4], "the same post twice")
            continue
        keys.add(row[:4])
        seen.setdefault(normal, row[0].isoformat().replace("+00:00", "Z"))
        kept.append(row)
    return kept


def _earlier_copy(body: str, normal: str, seen: dict[str, str]) -> str | None:
    """When an earlier post has this text (or starts with it, for a cut-short retweet)."""
    if normal in seen:
        return seen[normal]
    if body.rstrip().endswith(TRUNCATED):
        prefix = normal.rsplit(" ", 1)[0]
        if len(prefix) >= MIN_PREFIX:
            return next((at for text, at in seen.items() if text.startswith(prefix)), None)
    return None

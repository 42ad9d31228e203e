"""News rows from a JSONL feed of headlines or social posts: copies removed, posts that are not
news about their company dropped.

Each line is an object with `ticker`, `published_at` (ISO 8601 with a UTC offset), `headline`
or `text`, and `source` or `user`. Text is kept as published (cashtags, links, slang), with
HTML entities decoded. Three kinds of copy are removed, keeping the earliest post:

- a retweet (`RT @user: text`, also `RT user:` and `RT` alone, nested ones too) copies a post:
  when that post is in the feed the retweet is dropped; when it is not, the retweet stands for
  it, stored as the post it copies (its text without the `RT` prefixes, `user` as the source);
- a repost, the same text (links aside: `data.headlines.normalise_headline`) posted again for
  the same ticker within `REPOST_WINDOW`, by its author or anyone else, or only the start of
  an earlier post (`MIN_PREFIX` characters or more: it says nothing the earlier one did not);
- a post cut short with `…` matches any earlier post that starts with what it kept.

Every remaining post must pass `data.news_screen.screen_post` for its company (bare links,
cashtag lists, posts about another ticker, off-topic matches, promotions are dropped). Each
drop is noted with its reason and counted by kind in the import's summary line.
"""

from __future__ import annotations

import html
import json
import re
from bisect import bisect_left, insort
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pyarrow as pa

from contract.errors import InputError
from data.contract import NEWS
from data.headlines import normalise_headline
from data.import_log import ImportLog, require_utf8
from data.news_screen import Company, screen_news

RETWEET = re.compile(r"^RT\b:?\s+(?:@?(\w+):(?!//)\s*)?")
"""`RT @user: text`, `RT user: text` or `RT text`: the author of the copied post when given."""
TRUNCATED = ("…", "...")
MIN_PREFIX = 20
"""A post must keep at least this many normalised characters to match the start of an earlier one."""
REPOST_WINDOW = timedelta(days=7)
"""The same text again within this time is a copy; a routine headline a quarter later is news."""
SCREENED = {
    "link_only": "link only",
    "off_topic": "off topic",
    "another_ticker": "about another ticker",
    "another_company": "about another company",
    "ticker_list": "ticker list",
    "promotional": "promotional",
    "other_language": "other language",
    "quote_page": "quote-page bot",
    "no_story": "no story",
}


@dataclass(frozen=True)
class Post:
    """One readable line of the feed, as it will be stored (a retweet as the post it copies)."""

    published_at: datetime
    ticker: str
    headline: str
    source: str
    line: int
    retweet: bool = False


def read_news(path: Path, companies: dict[str, str], log: ImportLog) -> pa.Table:
    """The news table: posts about known tickers (`companies`: ticker -> name) that are news
    about their company, copies removed, by ticker and time."""
    if not path.is_file():
        raise InputError(f"--news {path}: no such file")
    source = path.name
    posts: list[Post] = []
    require_utf8(path, "--news")
    with path.open(encoding="utf-8") as handle:
        for line, text in enumerate(handle, start=1):
            if not text.strip():
                continue
            log.read["news"] += 1
            post = _parse(text, line, companies)
            if isinstance(post, tuple):
                log.note("dropped", "news", source, line, *post)
            else:
                posts.append(post)
    posts.sort(key=lambda p: (p.ticker, p.published_at, p.line))
    kept = screen_posts(drop_copies(posts, source, log), companies, source, log)
    log.kept["news"] = len(kept)
    return pa.table(
        {
            "ticker": [p.ticker for p in kept],
            "published_at": [p.published_at for p in kept],
            "headline": [p.headline for p in kept],
            "source": [p.source for p in kept],
        },
        schema=NEWS.schema,
    )


def _parse(text: str, line: int, companies: dict[str, str]) -> Post | tuple[str, str]:
    """The post of one line, or (the reason it cannot be used, its kind)."""
    try:
        item: Any = json.loads(text)
    except json.JSONDecodeError as exc:
        return f"not JSON ({exc.msg})", "unreadable"
    if not isinstance(item, dict):
        return "not a JSON object", "unreadable"
    ticker = str(item.get("ticker") or "").strip().lstrip("$").upper()
    headline = item.get("headline") or item.get("text")
    author = item.get("source") or item.get("user")
    if not ticker or not isinstance(headline, str) or not headline.strip() or not author:
        return "needs ticker, headline (or text) and source (or user)", "unreadable"
    if ticker not in companies:
        return f"ticker {ticker} is not among the imported companies", "unknown ticker"
    try:
        published = datetime.fromisoformat(str(item.get("published_at")))
    except ValueError:
        return f"unreadable published_at {item.get('published_at')!r}", "unreadable"
    if published.tzinfo is None:
        return f"published_at {item['published_at']} has no UTC offset", "unreadable"
    body, author, retweet = html.unescape(headline.strip()), str(author), False
    while prefix := RETWEET.match(body):  # a retweet of a retweet copies the innermost post
        body, author, retweet = body[prefix.end() :].strip(), prefix.group(1) or author, True
    return Post(published.astimezone(UTC), ticker, body, author, line, retweet)


class SeenTexts:
    """The normalised texts of one ticker's posts so far, with when each was last posted, kept
    sorted so that the texts starting with a given one are found by bisection."""

    def __init__(self) -> None:
        self.at: dict[str, datetime] = {}
        self.ordered: list[str] = []

    def add(self, text: str, at: datetime) -> None:
        if text not in self.at:
            insort(self.ordered, text)
        self.at[text] = at

    def starting_with(self, prefix: str) -> Iterator[tuple[str, datetime]]:
        for text in self.ordered[bisect_left(self.ordered, prefix) :]:
            if not text.startswith(prefix):
                return
            yield text, self.at[text]


def drop_copies(posts: list[Post], source: str, log: ImportLog) -> list[Post]:
    """Keep the earliest of each text per ticker (posts sorted by ticker and time)."""
    kept: list[Post] = []
    keys: set[tuple[datetime, str, str, str]] = set()
    seen = SeenTexts()
    ticker = ""
    for post in posts:
        if post.ticker != ticker:
            ticker, seen = post.ticker, SeenTexts()
        key = (post.published_at, post.ticker, post.headline, post.source)
        if key in keys:
            log.note("dropped", "news", source, post.line, "the same post twice", "same post twice")
            continue
        keys.add(key)
        normal = normalise_headline(post.headline)
        copied = _earlier_copy(post, normal, seen)
        if copied is not None:
            what = "retweet" if post.retweet else "repost"
            at = copied.isoformat().replace("+00:00", "Z")
            reason = f"{what} of {ticker} post at {at}"
            log.note("dropped", "news", source, post.line, reason, f"{what} copy")
            continue
        seen.add(normal, post.published_at)
        kept.append(post)
    return kept


def _earlier_copy(post: Post, normal: str, seen: SeenTexts) -> datetime | None:
    """When an earlier post has this text, or starts with it (all this one says, said before;
    for a post cut short with `…`, what it kept before the cut word)."""
    prefix = normal.rsplit(" ", 1)[0] if post.headline.rstrip().endswith(TRUNCATED) else normal
    if prefix == normal and normal in seen.at:
        candidates: Iterator[tuple[str, datetime]] = iter([(normal, seen.at[normal])])
    elif len(prefix) >= MIN_PREFIX:
        candidates = seen.starting_with(prefix)
    else:
        return None
    for _, at in candidates:
        if post.retweet or post.published_at - at <= REPOST_WINDOW:
            return at
    return None


def screen_posts(
    posts: list[Post], companies: dict[str, str], source: str, log: ImportLog
) -> list[Post]:
    """The posts that are news about their company; every other one noted with its reason."""
    screens = {ticker: Company.of(ticker, name) for ticker, name in companies.items()}
    kept = []
    for post in posts:
        screen = screen_news(post.headline, screens[post.ticker], screens.values(), post.source)
        if screen is None:
            kept.append(post)
        else:
            log.note("dropped", "news", source, post.line, str(screen), SCREENED[screen.kind])
    return kept

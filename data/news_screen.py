"""Whether a post is news about a company: the rule the importer drops social posts by.

A feed of tweets about a ticker holds much that no report should quote: bare links, lists of
cashtags, quote-page bots, promotions, and posts that match the ticker only by accident (`L$D`
for `$D`, `LO$T` for `$T`). A post is kept only if it passes every test below; the first that
fails is the reason it is dropped (`Screen.kind`, counted in the import's summary line):

- `link_only`: fewer than `MIN_WORDS` words remain once links, cashtags, hashtags and
  @mentions are taken out.
- `off_topic`: it names neither the company nor its ticker. The ticker counts as a cashtag
  standing on its own (`$AAPL`, not the `$D` inside `L$D`), in parentheses or after an
  exchange (`(AAPL)`, `NASDAQ:AAPL`), or, for tickers of two letters or more, as a bare
  upper-case word (`AAPL Apple Inc.`). The company counts by its name without legal suffixes
  (`Inc.`, `Corporation`, `plc`, ...) or by a distinctive word of it (four letters or more, not
  a common business word: `Exxon` for Exxon Mobil Corporation, `Disney` for The Walt Disney
  Company).
- `another_ticker`: it does not name the company and its first cashtag, or the symbol it opens
  with, is another ticker's: a post about someone else that tags this ticker in passing.
- `ticker_list`: it carries at least `LIST_CASHTAGS` cashtags and more tags (cashtags and
  hashtags) than words, or at least `MANY_CASHTAGS` cashtags without naming the company: a
  line of symbols, not a story.
- `promotional`: it uses a phrase of `PROMOTION` (watchlists, alerts services, penny-stock
  picks, giveaways, "for free", "check my bio", ...; plurals too): an advertisement, not news.

Headlines of a news wire pass: they name their company ("Granite Wireless Inc. files annual
report with the SEC"), carry few tags and advertise nothing. The rule reads the text alone, so
it gives the same answer at every import.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Literal

from data.headlines import LINK

ScreenKind = Literal["link_only", "off_topic", "another_ticker", "ticker_list", "promotional"]

MIN_WORDS = 3
LIST_CASHTAGS = 3
MANY_CASHTAGS = 4
CASHTAG = re.compile(
    r"(?:^|(?<=[\s(\[\"'“‘,;:/]))\$([A-Za-z]{1,6}(?:[.-][A-Za-z]{1,3})?)(?=$|[\s.,:;!?)\]'\"/$-])"
)
"""A `$SYMBOL` standing on its own: after a space or an opening mark, not inside a word (`L$D`,
`D?$T`), not glued to one (`$T🌍NA`) and not cut short (`$T…`)."""
HASHTAG = re.compile(r"(?<!\w)#\w+")
MENTION = re.compile(r"(?<!\w)@\w+")
WORD = re.compile(r"[^\W\d_]{2,}")
NAME_WORD = re.compile(r"[^\W\d_][\w&'-]*")
LEADING_SYMBOL = re.compile(r"^\s*\$?([A-Z]{1,6}(?:[.-][A-Z]{1,3})?)\b")
LEGAL_SUFFIXES = frozenset((
    "inc", "incorporated", "corp", "corporation", "co", "company", "companies", "plc", "ltd",
    "limited", "llc", "lp", "sa", "nv", "ag", "se", "spa", "the", "group", "holdings", "holding",
))  # fmt: skip
COMMON_WORDS = frozenset((
    "general", "international", "american", "america", "national", "united", "bank",
    "financial", "services", "systems", "energy", "motor", "motors", "resources", "industries",
    "technologies", "technology", "communications", "capital", "global", "health", "petroleum",
    "power", "electric", "china", "royal", "first", "trust", "fund", "shares", "stock",
    "market", "stores", "brands", "foods",
))  # fmt: skip
"""Words of company names too common to say by themselves which company a post is about."""
PROMOTION = (
    "watchlist", "watch list", "for free", "free video", "free trial", "get free", "giveaway",
    "give away", "trade alerts", "trading alerts", "stock alerts", "pro alerts", "penny stock",
    "pennystock", "pennystocks", "stock picks", "autotrade", "check my bio", "sign up",
    "subscribe", "join us", "dm me", "trading guru", "message board", "stock forum",
    "click here", "limited time", "trending", "check it out", "subscription", "stock pick",
    "find out why",
)  # fmt: skip
"""Phrases of advertisements for services, lists and giveaways (whole words, plurals too)."""
_PROMOTION = re.compile(
    r"(?<!\w)(?:" + "|".join(re.escape(p) for p in PROMOTION) + r")(?:s|es)?(?!\w)",
    re.IGNORECASE,
)


@dataclass(frozen=True)
class Screen:
    """Why a post is not news about its company: the test it failed and what was seen."""

    kind: ScreenKind
    detail: str

    def __str__(self) -> str:
        return f"not news ({self.kind}): {self.detail}"


@dataclass(frozen=True)
class Company:
    """What a post must name to be about a company: its ticker and its name's forms."""

    ticker: str
    phrase: str
    words: tuple[str, ...]

    @classmethod
    def of(cls, ticker: str, name: str) -> Company:
        words = [w.strip(".,()'\"") for w in name.replace(",", " ").split()]
        words = [w for w in words if w]
        core = " ".join(w for w in words if w.casefold().strip(".") not in LEGAL_SUFFIXES)
        core = core.strip(" &")
        distinct = tuple(
            w
            for w in NAME_WORD.findall(core)
            if len(w) >= 4 and w.casefold() not in COMMON_WORDS | LEGAL_SUFFIXES
        )
        return cls(ticker.upper(), core, distinct)

    def same_symbol(self, symbol: str) -> bool:
        """This ticker, or another class of its share (`GOOG` and `GOOGL`, `BRK-A` and `BRK.B`)."""
        plain, own = re.sub(r"[.-]", "", symbol.upper()), re.sub(r"[.-]", "", self.ticker)
        return plain == own or (len(own) >= 3 and plain[:-1] == own and len(plain) == len(own) + 1)

    def named_in(self, text: str) -> bool:
        forms = [self.phrase, *self.words] if self.phrase else list(self.words)
        return any(
            re.search(rf"(?<!\w){re.escape(form)}(?!\w)", text, re.IGNORECASE) for form in forms
        )

    def ticker_in(self, text: str, cashtags: list[str]) -> bool:
        if any(self.same_symbol(tag) for tag in cashtags):
            return True
        own = re.escape(self.ticker)
        if re.search(rf"\((?:[A-Z]+:\s*)?{own}\)|\b[A-Z]{{3,}}:\s*{own}\b", text):
            return True
        return len(self.ticker) >= 2 and re.search(rf"(?<![\w$]){own}(?![\w$])", text) is not None


def screen_post(text: str, company: Company) -> Screen | None:
    """None when the post is news about `company`; otherwise the first test it fails."""
    cashtags = CASHTAG.findall(text)
    hashtags = HASHTAG.findall(text)
    prose = MENTION.sub(" ", HASHTAG.sub(" ", CASHTAG.sub(" ", LINK.sub(" ", text))))
    words = WORD.findall(prose)
    if len(words) < MIN_WORDS:
        return Screen("link_only", f"{len(words)} words beside links and tags")
    named = company.named_in(LINK.sub(" ", text))
    if not named and not company.ticker_in(text, cashtags):
        return Screen("off_topic", f"names neither ${company.ticker} nor {company.phrase}")
    if not named and (lead := _lead_symbol(text, cashtags)) and not company.same_symbol(lead):
        return Screen("another_ticker", f"about ${lead.upper()}, not {company.phrase}")
    tags = len(cashtags) + len(hashtags)
    listed = len(cashtags) >= LIST_CASHTAGS and tags > len(words)
    if listed or (len(cashtags) >= MANY_CASHTAGS and not named):
        return Screen(
            "ticker_list",
            f"{len(cashtags)} cashtags and {len(hashtags)} hashtags, {len(words)} words",
        )
    if found := _PROMOTION.search(text):
        return Screen("promotional", f'"{found.group(0)}"')
    return None


def _lead_symbol(text: str, cashtags: list[str]) -> str | None:
    """The ticker a post is about first: the symbol it opens with (when it also tags that
    symbol, as quote-page bots write `GDX Market Vectors ... $GDX`), else its first cashtag."""
    opening = LEADING_SYMBOL.match(text)
    if opening and opening.group(1) in {c.upper() for c in cashtags}:
        return opening.group(1)
    return cashtags[0] if cashtags else None

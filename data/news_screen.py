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
- `another_company`: it names neither the company nor its ticker in its prose but names
  another company of the feed by its name (`$T - Verizon Won't Cap Its Unlimited Data Plans`).
- `ticker_list`: it carries at least `LIST_CASHTAGS` cashtags and more tags (cashtags and
  hashtags) than words, or at least `MANY_CASHTAGS` cashtags without naming the company: a
  line of symbols, not a story.
- `promotional`: it uses a phrase of `PROMOTION` (watchlists, alerts services, penny-stock
  picks, giveaways, "for free", "check my bio", ...; plurals too): an advertisement, not news.
- `other_language`: its prose is confidently not English (`py3langid`, a language-identification
  model shipped in its wheel, over the languages of `LANGUAGES`): a report in English or Spanish
  cannot quote it, and a feed's foreign posts are mostly about something else (`U$D 10 millones`).
- `quote_page`: it is a bot's template line: a quote page or message board (`BAC Bank Of
  America Corp. Ask Size <link>`, `$INTC Stock Forum Updated Sunday, ...`), a ratings round-up
  (`Weekly Ratings Changes for ...`), a filing notice (`Statement of Changes in Beneficial
  Ownership`), a fund's holding of the company (`KSA Capital Cuts Stake in Microsoft`).
- `no_story`: the news model (`data.news_model`) does not read it as news: a logistic
  regression over its words, its author, its form (tags, links, capitals, a question) and the
  patterns below (first-person talk, chart talk, words of news, promotion), fitted on labelled
  real tweets by `python -m data.news_training`. Chatter, price-only talk and clickbait end
  here; the detail names the features that weighed most against it.

The rules and the model read the text and its author alone, so they give the same answer at
every import.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from functools import cache
from typing import Literal

from py3langid.langid import MODEL_FILE, LanguageIdentifier

from data.headlines import LINK
from data.news_model import Post, features
from data.news_model import load as load_model

ScreenKind = Literal[
    "link_only",
    "off_topic",
    "another_ticker",
    "another_company",
    "ticker_list",
    "promotional",
    "other_language",
    "quote_page",
    "no_story",
]

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
COMMON_FIRST_WORDS = frozenset((
    "southern", "steel", "compass", "philip", "banco", "charter", "taiwan", "wells", "royal",
    "global", "medical", "total", "johnson", "procter", "walt", "dutch", "national", "icahn",
))  # fmt: skip
"""First words of company names that other posts use in other senses."""
PROMOTION = (
    "watchlist", "watch list", "for free", "free video", "free trial", "get free", "giveaway",
    "trade alerts", "trading alerts", "stock alerts", "pro alerts", "penny stock",
    "pennystock", "pennystocks", "stock picks", "autotrade", "check my bio", "sign up",
    "subscribe", "join us", "dm me", "trading guru", "message board", "stock forum",
    "click here", "limited time", "trending", "check it out", "stock pick",
    "find out why", "reasons to buy", "time to buy", "stock headed", "buy now", "coupon",
    "newsletter", "video recap", "before you buy", "real-time feed", "nice gains", "profit charts",
    "in profits", "blogroll",
)  # fmt: skip
"""Phrases of advertisements for services, lists and giveaways (whole words, plurals too; not
inside a compound: `ad-free video` is a product). Words that news uses as often (`subscription`,
`give away`) are left to the model."""
_PROMOTION = re.compile(
    r"(?<![\w-])(?:" + "|".join(re.escape(p) for p in PROMOTION) + r")(?:s|es)?(?!\w)",
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

    def called_in(self, text: str) -> bool:
        """Whether `text` calls the company by its name or the first word of it, written with its
        capitals (`Verizon`, `Apple's`): what another company's post is recognised by. A first
        word too common to tell (`Home`, `Southern`) does not count alone."""
        first = self.phrase.split()[0] if self.phrase else ""
        forms = [self.phrase]
        if len(first) >= 5 and first.casefold() not in COMMON_WORDS | COMMON_FIRST_WORDS:
            forms.append(first)
        return any(re.search(rf"(?<![\w$#@]){re.escape(f)}(?!\w)", text) for f in forms if f)

    def spoken_in(self, prose: str) -> bool:
        """The ticker as a bare word of the prose (`GE-Electrolux`), for tickers of two letters
        or more: what a headline calls the company by."""
        own = re.escape(self.ticker)
        return len(self.ticker) >= 2 and re.search(rf"(?<![\w$]){own}(?![\w$])", prose) is not None

    def ticker_in(self, text: str, cashtags: list[str]) -> bool:
        if any(self.same_symbol(tag) for tag in cashtags):
            return True
        own = re.escape(self.ticker)
        if re.search(rf"\((?:[A-Z]+:\s*)?{own}\)|\b[A-Z]{{3,}}:\s*{own}\b", text):
            return True
        return len(self.ticker) >= 2 and re.search(rf"(?<![\w$]){own}(?![\w$])", text) is not None


def screen_post(text: str, company: Company, others: Iterable[Company] = ()) -> Screen | None:
    """None when the post is news about `company`; otherwise the first test it fails. `others`
    are the other companies of the feed: a post that names one of them and not `company` is
    about that one."""
    cashtags = CASHTAG.findall(text)
    hashtags = HASHTAG.findall(text)
    prose = MENTION.sub(" ", HASHTAG.sub(" ", CASHTAG.sub(" ", LINK.sub(" ", text))))
    words = WORD.findall(prose)
    if len(words) < MIN_WORDS:
        return Screen("link_only", f"{len(words)} words beside links and tags")
    named = company.named_in(LINK.sub(" ", text))
    if not named and not company.ticker_in(text, cashtags):
        return Screen("off_topic", f"names neither ${company.ticker} nor {company.phrase}")
    spoken = named or company.spoken_in(prose)
    if not spoken and (lead := _lead_symbol(text, cashtags)) and not company.same_symbol(lead):
        return Screen("another_ticker", f"about ${lead.upper()}, not {company.phrase}")
    if not spoken and (other := _other_company(LINK.sub(" ", text), company, others)):
        return Screen("another_company", f"about {other.phrase}, not {company.phrase}")
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


def screen_news(
    text: str, company: Company, others: Iterable[Company] = (), source: str = ""
) -> Screen | None:
    """None when a social post is worth quoting about `company`: it passes the rules
    (`screen_rules`) and the model (`data.news_model`, which weighs the words, the author
    `source` and the form of the post) reads it as news."""
    if screen := screen_rules(text, company, others):
        return screen
    model = load_model()
    names = post_features(text, company, source)
    probability = model.probability(names)
    if probability < model.threshold:
        why = ", ".join(model.strongest(names)) or "no sign of news"
        return Screen(
            "no_story", f"reads as news at {probability:.0%} (needs {model.threshold:.0%}): {why}"
        )
    return None


def screen_rules(text: str, company: Company, others: Iterable[Company] = ()) -> Screen | None:
    """The tests no model is needed for: about the company (`screen_post`), in English, not a
    bot's template."""
    if screen := screen_post(text, company, others):
        return screen
    prose = MENTION.sub(" ", HASHTAG.sub(" ", CASHTAG.sub(" ", LINK.sub(" ", text))))
    return _template_screen(text, prose, company)


def post_features(text: str, company: Company, source: str = "") -> list[str]:
    """What the model reads of a post: its features, with the patterns below that match it."""
    plain = LINK.sub(" ", text)
    rules = [
        name
        for name, pattern in (
            ("chatter", CHATTER),
            ("price_talk", PRICE_TALK),
            ("news_word", NEWS_WORDS),
            ("promotion", _PROMOTION),
            ("quote_page", QUOTE_PAGE),
        )
        if pattern.search(plain)
    ]
    names = sorted({company.phrase, *company.words} - {""}, key=len, reverse=True)
    return features(Post(text, source, company.ticker, tuple(names)), rules)


LANGUAGES = ("en", "es", "pt", "fr", "de", "it", "nl", "ja", "zh", "ko", "ru", "ar", "tr", "id")
"""The languages the identifier chooses among: those of the feeds met so far. A short English
post read against all 97 languages of the model often scores as Latin or Luxembourgish."""
FOREIGN_CONFIDENCE = 0.8
"""How sure the identifier must be that prose is not English before a post is dropped for it."""
FOREIGN_SCRIPT = re.compile(r"[^\x00-\u024f\u2000-\u2bff\U0001f000-\U0001faff]")
"""A letter outside the Latin alphabets (kana, Han, Cyrillic, Arabic, ...)."""
QUOTE_PAGE = re.compile(
    r"^\W*\$?(?-i:[A-Z][A-Z0-9.&-]{0,11})\s[^$]{2,90}?\s(?:last price|ask size|bid size|prev close"
    r"|day (?:high|low)|52wk (?:high|low)|ex-div date|company info|quotes|volume|open|tick|change"
    r"|shares|ideas|financials|filings|eod data|investor opinions|chart|current price|market cap"
    r"|p/e ratio|last trade|message board posts|recent news|exchange)\s*(?:\$|…|$)"
    r"|\b(?:stock forum|message board|stock message board|news|company info|financials|recent news)"
    r" updated (?:monday|tuesday|wednesday|thursday|friday|saturday|sunday)\b"
    r"|^\W*ratings watch\b|\bratings updates\b|\btop news - |\bvolume actives\b"
    r"|\bmorning insights\b|\bstocks report\b|\btoptickertweets\b|\brelative volume\b"
    r"|\bon (?:strength|weakness)\b|\bsentiment (?:rise|fall|drop)\b|\bsignal created\b"
    r"|\breceived a new alert\b|\bfundamental rating\b|\bconsensus recommendation\b"
    r"|\bupdated eps estimates\b|\bimpact score\b|\bshort interest (?:up|down|rises|falls)\b"
    r"|\bweekly (?:analysts?['’]? )?ratings (?:changes|updates)\b|\bratings (?:changes|updates) for\b"
    r"|\b(?:stake|position|shares|holdings) (?:\w+ ){0,2}(?:maintained|bought|sold|trimmed|lowered"
    r"|raised|increased|decreased|cut|reduced|boosted) by\b|\b\w+ largest position\b"
    r"|\bstatement of changes in beneficial ownership\b|\bform (?:10-q|10-k|8-k|s-8)\b|\b424b\d\b"
    r"|\bpost-effective amendment\b|\bnew sec filing\b|\bfiled pursuant to rule\b"
    r"|\bstake held by\b|\b(?:management|capital|advisors?|advisers|partners|associates|llc"
    r"|l\.?p\.?|& co\.?|company|trust|investments?|investors|securities|asset|wealth|fund"
    r"|group|bank|financial|research) (?:sells|buys|acquires|purchases|adds|trims|lowers|raises"
    r"|boosts|cuts|reduces|increases|has|takes|holds)\b[^.]{0,40}?\b(?:shares|stake|position"
    r"|holdings)\b"
    r"|\b(?:price target update|ratings and sentiment update|stock ratings update"
    r"|short interest update|stock insights|earnings surprise in focus|given consensus\s*…)",
    re.IGNORECASE,
)
"""The lines of quote-page, message-board, screener, filing and fund-holding bots: a field name before
the link, a board "updated" on a weekday, the bot's own heading, a fund trading the company's
shares (`Baker Avenue Asset Management Sells 264,785 Shares of Bank of America`; an officer's
sale is news and stays), or an aggregator's title that names no story (`Chevron Corporation
Price Target Update`)."""
HOLDING = re.compile(
    r"\b(?:stake|position|holdings|shares) in (.{1,40}?)(?:\s[-–—:|]|[.;,(]|$)", re.IGNORECASE
)
"""`Jennison Associates Has $427,479,000 Position in Schlumberger Limited.`: a fund's filing,
when what follows `in` is the company itself (`Alibaba takes stake in Ele.me` is a deal)."""
CHATTER = re.compile(
    r"\b(?:I|I'm|I've|I'd|I'll|Im|[Mm]e|[Mm]y|[Ww]e|[Ww]e're|[Oo]ur|us|[Yy]ou|[Yy]ou're)\b"
    r"|(?i:\b(?:lol|lmao|haha|omg|wtf|fuck\w*|shit\w*|damn|crap|scum)\b)"
    r"|(?i:^\W*(?:closed|took|now (?:long|short)|bought|sold)\b)"
    r"|(?i:\b(?:bought|sold|shorted|covered|buy|sell|short)\s+(?:\w+\s+){0,3}?(?:at|@)\s*\$?\d)"
    r"|^[a-z][a-z']*\s"
)
"""First-person talk, laughter and swearing, a trade told with its price (`bought last night at
106.12`), or a post that opens in lower case: a trader speaking, not a report."""
PRICE_TALK = re.compile(
    r"\b(?:new (?:high|highs|low|lows)|all-time high|record (?:high|close)|closes? at a record"
    r"|breakout|resistance|gap fill|bear flag|bull flag|channel low|dma|moving average"
    r"|overbought|oversold|(?:higher|lower|up|down) today|uptrend|downtrend"
    r"|chart|pts|bollinger|test coming|and down it goes|flies tomorrow)\b",
    re.IGNORECASE,
)
"""Talk of the chart and the price level, which the report's own figures already state."""
NEWS_WORDS = re.compile(
    r"\b(?:earnings|eps|revenues?|sales?|profits?|net income|guidance|outlook|forecasts?|growth"
    r"|slowdown|demand|margins?|cash|debt|credit|currency|q[1-4]|quarterly"
    r"|(?:first|second|third|fourth)[- ]quarter|results|dividends?|buybacks?|repurchases?"
    r"|(?:shares|stock) (?:split|offering)|ratings?|upgraded?|upgrades|downgraded?|downgrades"
    r"|price target|pt|target|analysts?|outperform|underperform|overweight|underweight"
    r"|consensus|estimates?|est|beat|beats|beating|miss|misses|missed|metrics|valuation|expensive"
    r"|cheap|bets?"
    r"|fda|approves?|approved|approval|trials?|phase [1-3i]+|study|studies|lawsuits?|sues|sued"
    r"|patents?|settlement|court|probe|investigation|fined?|regulators?|antitrust|sec|ftc|doj"
    r"|acquires?|acquired|acquisition|buyout|merger|merges?|deal|stake|to buy|agreed"
    r"|layoffs?|job cuts|strike|launch(?:es|ed)?|unveils?|unveiled|introduces?|releases?"
    r"|debuts?|updates|rolls? out|announces?|announced|reports|reported|orders?|contracts?"
    r"|partnership|partners|partnering|joint venture|ceo|cfo|chief|executives?|exec|president"
    r"|chairman|founder|board|resigns?|appoints?|promotes|hires?|ipo|spin-?off|recalls?"
    r"|insider|sells|buys|subscribers|users|customers|campus|plans?|considers?|considering"
    r"|strategy|expansion|expands|invests?|investment|nobel|drug|iphone|ipad|android|youtube"
    r"|windows|azure|app|ads|advertising|retail|streaming|box office|datacenter"
    r"|factory|plant|rival|rivals|competition|decision|protest|research|agreement|offering"
    r"|conference|takeover|customer|meeting|shareholders?|halted|delisted|trading begins)\b",
    re.IGNORECASE,
)
"""Words of what a reader of a report wants from the news: results and guidance, ratings and
targets, capital returns, regulators and courts, deals, people, products and plans."""
EXCHANGE_NAME = re.compile(r"[^()]*\((?:(?:NYSE|NASDAQ|AMEX)\b[^)]*|[A-Z]{1,6})(?:\)|$)")
"""`Microsoft Corporation (NASDAQ:MSFT)`, `Apple Inc. (AAPL)`: an aggregator's formal name (and
what comes before it), which names no story."""


@cache
def _identifier() -> LanguageIdentifier:
    identifier = LanguageIdentifier.from_model_file(MODEL_FILE, norm_probs=True)
    identifier.set_languages(list(LANGUAGES))
    return identifier


def language_of(prose: str) -> tuple[str, float]:
    """The language `prose` is most likely written in, and how likely (0 to 1)."""
    language, probability = _identifier().classify(prose)
    return str(language), float(probability)


def _template_screen(text: str, prose: str, company: Company) -> Screen | None:
    """The tests no model is needed for: another language or script, a bot's template (a
    fund's holding of the company, `KSA Capital Cuts Stake in Microsoft`, is one)."""
    words = " ".join(prose.split())
    if FOREIGN_SCRIPT.search(words):
        return Screen("other_language", "written in another script")
    language, probability = language_of(words)
    if language != "en" and probability >= FOREIGN_CONFIDENCE:
        return Screen("other_language", f"{language} ({probability:.0%} sure)")
    if found := QUOTE_PAGE.search(LINK.sub(" ", text)):
        return Screen("quote_page", f'"{found.group(0).strip()}"')
    for found in HOLDING.finditer(text):
        if company.named_in(found.group(1)) or company.ticker_in(found.group(1), []):
            return Screen("quote_page", f'"{found.group(0).strip()}"')
    return None


def _other_company(text: str, company: Company, others: Iterable[Company]) -> Company | None:
    """The first of `others` that `text` names (as it is written, capitals included)."""
    for other in others:
        if (
            other.ticker != company.ticker
            and other.phrase != company.phrase
            and other.called_in(text)
        ):
            return other
    return None


def _lead_symbol(text: str, cashtags: list[str]) -> str | None:
    """The ticker a post is about first: the symbol it opens with (when it also tags that
    symbol, as quote-page bots write `GDX Market Vectors ... $GDX`), else its first cashtag."""
    opening = LEADING_SYMBOL.match(text)
    if opening and opening.group(1) in {c.upper() for c in cashtags}:
        return opening.group(1)
    return cashtags[0] if cashtags else None

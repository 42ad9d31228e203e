"""How much a post reads like news a report would quote: a small logistic regression over named
features of its text, trained on labelled real tweets.

Word lists fitted by hand to a few hundred tweets reached 92% precision on them and 65% on
tweets drawn afterwards: every new feed brings new phrasings of chatter, bot lines and
headlines. A linear model over the same kind of evidence, with its weights fitted by a script
(`python -m data.news_training`) and cross-validated, generalises better and says how sure it
is. It only judges what the rules of `data.news_screen` leave: posts about the company, in
English, that are not a bot's template.

The features are named strings, so the weights file reads as a table (`word:earnings 1.2`,
`source:marketcurrents 0.9`, `rule:chatter -1.4`):

- `word:` and `pair:` the words and adjacent word pairs of the prose, lower-cased, with the
  company's own cashtag as `OWN`, other cashtags as `TAG`, the company's name as `CO`, numbers
  as `NUM`, money as `MONEY`, percentages as `PCT` (so a rule learned on Apple holds for Exxon);
- `source:` the account that wrote it (a retweet counts as its original author): wires and
  news desks recur in a feed, and so do bots;
- `shape:` counts and forms: cashtags, hashtags, links, words, a question, an exclamation, an
  emoji, text cut short with `…`, the share of capitalised words (headlines are title case),
  whether the company is named in the prose or only tagged, and how the post opens;
- `lead:` what the prose opens with once tags and dashes are off: the company's name, another
  capitalised name (a story about someone else, when the company is not named), lower case,
  a number, a quotation;
- `group:` and `near:` kinds of words (results, analyst actions, deals, courts, people and
  products, price talk, fund holdings, round-ups, clickbait, first person, opinion) found in the
  post, and found within four words after the company's name or cashtag (`Alibaba in talks`);
- `rule:` what the hand-written patterns of `data.news_screen` see (first-person talk, chart
  talk, a word of news, a promotion phrase), as evidence rather than verdicts;
- `char:` the runs of four characters of the text (links out, lower case): stems, spellings
  and marks the words miss. They lifted the cross-validated recall at 95% precision from 43%
  to 48%, and the test split's from 49% to 55% (`python -m data.news_training --test`), for
  about a second more to screen the 11,137-post stocknet feed. Mean-pooled hidden states of the
  packaged small LM (SmolLM2-135M), tried beside them, added about three points more at 3 to 8
  posts a second on two cores: minutes for the four thousand posts a feed puts to the model.

The weights live in `news_model.json` beside this module: deterministic, under a megabyte, no
dependency beyond the standard library at run time.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Iterable
from dataclasses import dataclass
from functools import cache
from pathlib import Path

WEIGHTS = Path(__file__).with_name("news_model.json")
URL = re.compile(r"https?://\S*|\bt\.co/\S*|\bwww\.\S+", re.IGNORECASE)
CASHTAG = re.compile(r"(?<![\w$])\$([A-Za-z]{1,6}(?:[.-][A-Za-z]{1,3})?)(?![\w$])")
HASHTAG = re.compile(r"(?<!\w)#(\w+)")
MENTION = re.compile(r"(?<!\w)@\w+")
MONEY = re.compile(r"[$€£]\s?\d[\d,.]*\s?(?:[kmb]n?|million|billion)?\b", re.IGNORECASE)
PERCENT = re.compile(r"[+-]?\d[\d,.]*\s?%")
NUMBER = re.compile(r"\d[\d,.:/]*")
TOKEN = re.compile(r"[A-Za-z][A-Za-z'&.-]*[A-Za-z]|[A-Za-z]|[?!]")
EMOJI = re.compile(r"[\U0001f000-\U0001faff\u2600-\u27bf]")
LEADING_TAGS = re.compile(r"^(?:\s|RT\b|[$#@][\w.-]+:?|[-–—:|/•.]+)*")
"""The tags, mentions, retweet marks and dashes a post may open with before its prose."""
PLACEHOLDERS = {"OWN", "TAG", "CO", "NUM", "MONEY", "PCT"}
GRAM = 4
"""The length of the `char:` features: four characters carry a stem (`upgr`, `acqu`, `beat`),
a spelling (`lol `, `!!!`) or a bot's mark that a whole word misses when it is inflected,
misspelled or glued to a tag."""
WEEKDAYS = "monday|tuesday|wednesday|thursday|friday|saturday|sunday"
GROUPS = {
    "results": r"earnings|eps|revenues?|sales|profits?|net income|quarter(?:ly)?|f?q[1-4]"
    r"|results|beats?|misses|missed|tops|est|estimates?|expected|consensus|guidance|outlook"
    r"|forecasts?|comparable|comps|margins?|reports?|reported|posts",
    "analyst": r"upgraded?|upgrades|downgraded?|downgrades|ratings?|rated|reiterated?|reiterates"
    r"|reaffirm(?:s|ed)?|maintain(?:s|ed)?|price target|target price|pt|outperform"
    r"|underperform|overweight|underweight|equal[- ]weight|market perform|neutral|lifted|lowers"
    r"|lowered|raises|raised|cuts|initiates?|coverage|analysts?|brokerages?|recommendation",
    "capital": r"dividends?|buybacks?|repurchases?|split|offering|bonds?|notes|debt|retired?",
    "deal": r"acquires?|acquisition|acquired|merger|merges?|deal|talks|bid|takeover|buyout"
    r"|combination|partners?|partnership|joint venture|agreement|teams up|contracts?|orders?"
    r"|invests?|investment|to buy|buying",
    "legal": r"fda|approv\w*|trials?|phase|study|patents?|lawsuits?|suit|sues?|sued|court|judge"
    r"|settle\w*|probe|investigation|doj|justice|sec|ftc|regulat\w*|antitrust|fined?|class action"
    r"|recalls?",
    "corporate": r"ceo|cfo|chief|executives?|exec|chairman|president|director|board|resign\w*"
    r"|appoint\w*|names|hires?|layoffs?|job cuts|jobs|plant|factory|headquarters|hq|opens?"
    r"|launch\w*|unveil\w*|introduc\w*|releas\w*|announc\w*|expands?|expansion|plans?"
    r"|strategy|spending|sells|bought",
    "price": r"up|down|rally|rallies|gains?|falls?|drops?|slides?|surges?|soars?|jumps?|plunges?"
    r"|gap(?:s|ped)?|highs?|lows?|all-time|record|support|resistance|breakout|breaks?|charts?"
    r"|technicals?|moving average|dma|trend|uptrend|downtrend|bullish|bearish|calls|puts|options"
    r"|volume|short interest|volatility|closes?|closing|trading (?:at|near)|level",
    "holding": r"(?:position|stake|shares|holdings?) (?:in|of|bought|sold|maintained|cut|raised"
    r"|increased|decreased|lowered)|institutional|capital management|associates|llc|hedge funds?",
    "roundup": r"weekly|round-?up|movers|to watch|trending|top (?:stocks|news|picks)|daily|list"
    r"|best stocks|stocks to|updated (?:" + WEEKDAYS + r")|recap|newsletter|video|podcast",
    "clickbait": r"why|should|could|would|is it|time to|here's|here is|this one|what to|things"
    r"|reasons|secret|you|your|buy now|opportunity",
    "first_person": r"i|i'm|i've|im|my|me|we|we're|our|us|lol|haha|lmao|omg",
    "opinion": r"think|believe|guess|hope|feel|wonder|maybe|imo|probably|seems|looks like",
}
"""Words that often mark a kind of post, pooled so that evidence learned on one word of a
kind (`downgraded`) counts for the others (`lowered`): the model weighs each kind."""
_GROUPS = {
    name: re.compile(rf"(?<![\w$])(?:{pattern})(?![\w])", re.IGNORECASE)
    for name, pattern in GROUPS.items()
}


@dataclass(frozen=True)
class Post:
    """What the model reads of a post: its text, who wrote it and how its company is called."""

    text: str
    source: str
    ticker: str
    names: tuple[str, ...]
    """The forms of the company's name to look for (its name without legal suffixes and its
    distinctive words), longest first."""


def features(post: Post, rules: Iterable[str] = ()) -> list[str]:
    """The named features of `post`; `rules` are the names of the hand-written patterns that
    match it (given by `data.news_screen`, which owns them)."""
    text = URL.sub(" ", post.text)
    cashtags = [c.upper() for c in CASHTAG.findall(text)]
    own = sum(1 for c in cashtags if _same_symbol(c, post.ticker))
    hashtags = HASHTAG.findall(text)
    prose = CASHTAG.sub(
        lambda m: " OWN " if _same_symbol(m.group(1).upper(), post.ticker) else " TAG ", text
    )
    prose = HASHTAG.sub(lambda m: f" {m.group(1)} ", MENTION.sub(" @ ", prose))
    named = False
    for name in post.names:
        pattern = re.compile(rf"(?<![\w$#@]){re.escape(name)}(?:'s|’s)?(?!\w)", re.IGNORECASE)
        prose, found = pattern.subn(" CO ", prose)
        named = named or found > 0
    prose = PERCENT.sub(" PCT ", MONEY.sub(" MONEY ", prose))
    prose = NUMBER.sub(" NUM ", prose)
    raw = TOKEN.findall(prose)
    words = [w if w in PLACEHOLDERS else w.lower().strip(".'") for w in raw]
    words = [w for w in words if w and w != "@"]
    out = [f"word:{w}" for w in sorted(set(words))]
    out += [f"pair:{a}_{b}" for a, b in sorted(set(zip(["^", *words], [*words, "$"], strict=True)))]
    out.append(f"source:{post.source.casefold()}")
    plain = [w for w in raw if w not in PLACEHOLDERS and w.isalpha()]
    capitals = sum(1 for w in plain if w[0].isupper()) / max(len(plain), 1)
    stripped = post.text.lstrip()
    out += [
        f"shape:cashtags={min(len(cashtags), 5)}",
        f"shape:other_cashtags={min(len(cashtags) - own, 4)}",
        f"shape:hashtags={min(len(hashtags), 4)}",
        f"shape:links={min(len(URL.findall(post.text)), 3)}",
        f"shape:words={_bucket(len(plain), (3, 6, 10, 16, 24))}",
        f"shape:capitals={_bucket(round(capitals * 10), (2, 4, 6, 8))}",
        "shape:named" if named else "shape:not_named",
        "shape:question" if "?" in text else "shape:no_question",
    ]
    out += [f"shape:{name}" for name, seen in (
        ("exclamation", "!" in text),
        ("emoji", EMOJI.search(post.text) is not None),
        ("cut_short", post.text.rstrip().endswith(("…", "..."))),
        ("opens_with_tag", stripped.startswith("$")),
        ("opens_lower", stripped[:1].islower()),
        ("opens_with_mention", stripped.startswith("@")),
        ("mention", MENTION.search(post.text) is not None),
        ("shouting", sum(1 for w in plain if len(w) > 3 and w.isupper()) >= 3),
    ) if seen]  # fmt: skip
    spoken = " ".join(raw)
    for name, pattern in _GROUPS.items():
        found = len(pattern.findall(spoken))
        if found:
            out.append(f"group:{name}")
            if found > 1:
                out.append(f"group:{name}>1")
    near = set()
    for at, word in enumerate(raw):
        if word in ("CO", "OWN"):
            after = " ".join(raw[at + 1 : at + 5])
            near |= {name for name, pattern in _GROUPS.items() if pattern.search(after)}
    out += [f"near:{name}" for name in sorted(near)]
    first = raw[:4]
    out.append("shape:named_first" if "CO" in first or "OWN" in first[:1] else "shape:not_first")
    lead = _lead(text, post.names)
    out.append(f"lead:{lead}")
    if lead == "capital" and not named:
        out.append("lead:capital_not_named")
    out += [f"rule:{name}" for name in rules]
    out += _grams(text)
    return out


def _grams(text: str) -> list[str]:
    """The `char:` features: every run of `GRAM` characters of the text, links out, lower-cased,
    spaces collapsed."""
    plain = " ".join(text.lower().split())
    return sorted({f"char:{plain[i : i + GRAM]}" for i in range(len(plain) - GRAM + 1)})


def _lead(text: str, names: tuple[str, ...]) -> str:
    """What the prose opens with once leading tags and dashes are off: the company's name
    (`$XOM - Exxon cuts spending`), another capitalised name (`$ABBV AstraZeneca in talks to
    buy Acerta`: a story about someone else), upper case, lower case (talk), a number or a
    quotation."""
    opening = LEADING_TAGS.match(text)
    prose = text[opening.end() :] if opening else text
    if any(re.match(rf"{re.escape(name)}(?!\w)", prose, re.IGNORECASE) for name in names):
        return "company"
    for kind, pattern in (
        ("capital", r"[A-Z][a-z]"),
        ("upper", r"[A-Z]{2}"),
        ("lower", r"[a-z]"),
        ("number", r"[\d$]"),
        ("quote", r"[\"'“‘]"),
    ):
        if re.match(pattern, prose):
            return kind
    return "other"


def _bucket(value: int, edges: tuple[int, ...]) -> str:
    for edge in edges:
        if value < edge:
            return f"<{edge}"
    return f">={edges[-1]}"


def _same_symbol(symbol: str, ticker: str) -> bool:
    plain, own = re.sub(r"[.-]", "", symbol), re.sub(r"[.-]", "", ticker.upper())
    return plain == own or (len(own) >= 3 and plain[:-1] == own and len(plain) == len(own) + 1)


@dataclass(frozen=True)
class Model:
    """A fitted model: weights by feature name, a bias and the probability a post must reach."""

    weights: dict[str, float]
    bias: float
    threshold: float

    def probability(self, names: Iterable[str]) -> float:
        z = self.bias + sum(self.weights.get(n, 0.0) for n in set(names))
        return 1.0 / (1.0 + math.exp(-max(min(z, 30.0), -30.0)))

    def strongest(self, names: Iterable[str], count: int = 3) -> list[str]:
        """The features that pulled the score down the most: what a dropped post is told."""
        weighted = sorted((self.weights.get(n, 0.0), n) for n in set(names))
        return [n for w, n in weighted[:count] if w < 0]

    def to_json(self, meta: dict[str, object]) -> str:
        weights = {k: round(v, 4) for k, v in sorted(self.weights.items()) if round(v, 4)}
        body = {"meta": meta, "bias": round(self.bias, 4), "threshold": self.threshold}
        return json.dumps({**body, "weights": weights}, indent=0, ensure_ascii=False) + "\n"


@cache
def load(path: Path = WEIGHTS) -> Model:
    """The model the importer screens with (read once per process)."""
    body = json.loads(path.read_text(encoding="utf-8"))
    weights = {str(k): float(v) for k, v in body["weights"].items()}
    return Model(weights, float(body["bias"]), float(body["threshold"]))

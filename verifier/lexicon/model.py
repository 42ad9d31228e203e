"""The shape of one language's lexicon."""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True)
class Lexicon:
    """One language's words, each entry a tuple of regex fragments (case-folded text)."""

    name: str
    months: tuple[str, ...] = ()
    """The twelve month names, January first (plain words, not fragments)."""
    weekdays: tuple[tuple[str, ...], ...] = ()
    """The names of each day of the week, Monday first, with their abbreviations."""
    ordinals: tuple[tuple[str, ...], ...] = ()
    """The words for first to fifth ("first 1st", "primer primero"), for quarters."""
    number_words: tuple[tuple[str, ...], ...] = ()
    """The words for two to twelve, two first."""
    not_tickers: str = ""
    """Upper-case words that are not tickers unless the trace names them as one."""
    windows: dict[str, tuple[str, ...]] = field(default_factory=dict)
    """Phrases that state the time a change covers, by kind: day, week, month, quarter, ytd,
    year ("over the past week", "en lo que va de año")."""
    since: tuple[str, ...] = ()
    """Words that open a window at the date after them ("since", "desde")."""
    through: tuple[str, ...] = ()
    """Words that end a window at the date after them ("as of", "through", "hasta")."""
    range_open: tuple[str, ...] = ()
    """Words before the first date of a range ("from", "between", "del")."""
    range_join: tuple[str, ...] = ()
    """Words between the two dates of a range ("to", "and", "al")."""
    governing: dict[str, tuple[str, ...]] = field(default_factory=dict)
    """Direction words that govern the figure after them ("rose 2.1%", "cayó un 1,2 %"), by
    direction: "up" or "down"."""
    signs: dict[str, tuple[str, ...]] = field(default_factory=dict)
    """Words that say a change's sign without governing a figure ("negative", "in the red",
    "flat"), by sign: "up", "down" or "flat". Each is held against the figure it qualifies, the
    window it names or its subject's day (`verifier.rules.direction_rules`); one none of them
    settles is a claim no rule checked."""
    after_figure: tuple[str, ...] = ()
    """Direction words that also govern the figure right before them ("closed 1.31% lower")."""
    rise: tuple[str, ...] = ()
    """Words that say a price went up, with or without a figure after them."""
    fall: tuple[str, ...] = ()
    """Words that say a price went down."""
    price_nouns: tuple[str, ...] = ()
    """Words that may stand between a ticker and its direction word ("AXO shares fell")."""
    other_nouns: tuple[str, ...] = ()
    """Words that make a direction word about something else than the price ("volume fell")."""
    negations: tuple[str, ...] = ()
    portfolio: tuple[str, ...] = ()
    """Words for the portfolio as a whole: a sentence naming it and no ticker is about it; a
    figure right after it speaks of the portfolio ("AXO beat the portfolio's 0.52%")."""
    level_nouns: tuple[str, ...] = ()
    """Names of a level (a close, a price, a value): never negative, so a bracketed figure
    right after one is an aside ("el cierre (337,27)"), not an amount in accounting style."""
    benchmark: tuple[str, ...] = ()
    """Words for what a portfolio is measured against: a figure right after one speaks of the
    benchmark ("AXO lagged the benchmark, which returned -0.57%")."""
    extended_hours: tuple[str, ...] = ()
    """Phrases of trading outside the session ("before the open", "after hours"): a move said
    for them is not the day's change, and no result holds it."""
    announce_verbs: tuple[str, ...] = ()
    """Verbs that say an item was made public ("announced", "declared", "anunció"): a day said
    with one is the day an item of the subject was announced or published."""
    session_verbs: tuple[str, ...] = ()
    """Verbs of a session's end: a direction said with them is the day's ("closed lower")."""
    contribution_after: tuple[str, ...] = ()
    """What follows a figure that is a position's contribution ("to the portfolio's return")."""
    traded: tuple[str, ...] = ()
    """Field names for the last price ("last traded at"): the close."""
    events: dict[str, tuple[str, ...]] = field(default_factory=dict)
    """Names of corporate events by kind (earnings, dividend, split): a date right after one is
    named as that event's day."""
    sessions: dict[str, tuple[str, ...]] = field(default_factory=dict)
    """When a piece of news came (before, during or after the session), as a draft says it."""
    relative_days: dict[str, tuple[str, ...]] = field(default_factory=dict)
    """Words that name a session by its distance from the report date, by name: "today" (the
    report date), "yesterday" (the session before it), "tomorrow" (the weekday after it),
    "year_end" ("the year", "year-end": the report date, where it is in the year's last week)."""
    relations: dict[str, tuple[str, ...]] = field(default_factory=dict)
    """Words that order two subjects by their move ("AXO outperformed BRQ"), by what they say
    of the first: "above" or "below"."""
    rankings: dict[str, tuple[str, ...]] = field(default_factory=dict)
    """Superlatives that rank a subject in its portfolio ("the biggest holding", "top gainer"),
    by the ranking they name: `return_top`, `return_bottom`, `weight_top`, `pnl_top`,
    `pnl_bottom`; an ordinal before one ("second-largest") gives the place."""
    streaks: dict[str, tuple[str, ...]] = field(default_factory=dict)
    """Runs of sessions in one direction ("fourth straight gain"), by direction: "up", "down";
    the count is the ordinal or number right before."""
    membership: dict[str, tuple[str, ...]] = field(default_factory=dict)
    """A holding said to be one of a group of its portfolio ("one of its detractors", "among
    the five biggest contributors"), by group: `detractors`, `contributors` (the day P&L's
    sign, or the ranks' top five where a size or count is named), `gainers`, `decliners` (the
    day return's sign, or the top and bottom movers)."""
    rank_lists: dict[str, tuple[str, ...]] = field(default_factory=dict)
    """The label of one of the ranks' lists said with the tickers it holds ("Top contributors:
    FSA, WED and HEX", "los mayores lastres, YDLJ y BGBO", "FSA leading the contributor list"),
    by list: `contributors`, `detractors`, `gainers`, `decliners`; `first_` before one names
    its first place ("the top contributor", "el mayor lastre")."""
    list_lead: tuple[str, ...] = ()
    """Verbs that put the ticker before them at the head of the list after them ("leading",
    "heading", "encabeza")."""
    relation_lead: tuple[str, ...] = ()
    """Words that state the streak or ranking named right after them ("that marks a fourth
    straight gain", "encadena tres sesiones a la baja", "ranks as the third-largest"): they say
    no more than the relation, which is checked."""
    news_order: dict[str, tuple[str, ...]] = field(default_factory=dict)
    """Words that place a quoted headline in time among the others of its search ("the most
    recent was", "the earliest item"), by place: "latest" or "earliest"."""
    counted: dict[str, tuple[str, ...]] = field(default_factory=dict)
    """What a count right before them counts among a portfolio's positions ("5 gainers", "3
    of its 10 positions fell"), by count: "gainers" or "decliners"."""
    absence: dict[str, tuple[str, ...]] = field(default_factory=dict)
    """What a draft may say there is none of ("no headlines", "nothing is scheduled"), by what
    settles it: "news" (the searches), "events" or a kind of event (the events results)."""
    absence_words: tuple[str, ...] = ()
    """The words that deny ("no", "none", "nothing", "ningún", "sin")."""
    qualities: dict[str, tuple[str, ...]] = field(default_factory=dict)
    """Words that judge a move ("a rough week", "a modest gain", "prácticamente plano", "more
    than doubled"), by what they claim: `<direction>_<band>` (direction `up`, `down` or
    `either`; band `any`, `small`, `large`, `flat`, `over_double`, `double`), `day_up` /
    `day_down` (a move of the day said without a figure: "snapping back", "un respiro"),
    `size_small` / `size_large` (a holding's weight: "a small holding"). Checked by
    `verifier.rules.qualities` against the figure they qualify; earlier groups win."""
    degrees: dict[str, tuple[str, ...]] = field(default_factory=dict)
    """Words that size the gap of the comparison right after them ("slightly beat",
    "comfortably ahead of", "well below"), by gap: "small" or "large"."""
    runner_up: dict[str, tuple[str, ...]] = field(default_factory=dict)
    """A place among a portfolio's holdings said by the figure just stated ("contributing
    0.31% — second only to OEE", "the most of any position"), by place: "first", "second"
    (whose leader is the ticker after it) or "behind" (after a ranking: "second-biggest
    detractor behind YDLJ")."""
    news_terms: dict[str, tuple[str, ...]] = field(default_factory=dict)
    """Words that retell a headline in other words, by the headline's own words they stand for
    ("CFO" and "director financiero" for "chief financial officer", "resignation" for
    "resigns"): `verifier.rules.paraphrase` binds a retold headline to one of its ticker's."""
    news_nouns: tuple[str, ...] = ()
    """Words that attribute what follows to the news ("story", "announcement", "informó"): a
    headline is retold only in a sentence that names a wire or one of these."""
    news_claims: dict[str, tuple[str, ...]] = field(default_factory=dict)
    """What a draft says of a ticker's news or calendar as a whole, by what settles it:
    `latest` (the date after it is the subject's last news day: "its latest story is from
    December 26"), `recent` (the items of the search: "the only recent headline"), `cause`
    (no news explains the move, said where a negation stands before it: holds only where the
    search found nothing), `clear` (an empty calendar), `one`, `two`, `three` (how many items
    the search or the calendar holds: "the lone headline", "la única cita")."""
    counts: tuple[tuple[str, ...], ...] = ()
    """The words for the ordinals and numbers one to twelve, one first ("first one", "primer
    uno"): the place of a ranking and the length of a streak."""
    fields: dict[str, tuple[str, ...]] = field(default_factory=dict)
    """What a draft calls the figure right after it, by field ("closed at", "previous close
    of", "valor de mercado"): keys of `verifier.grammar.field_words.FIELDS`."""

"""Evidence: everything a trace can vouch for, indexed once per trace (by `verifier.index`).

Facts are the numbers of successful tool results, bound by the structure of their result (ticker,
session or window, key) and in the question; a number written inside a result string is a fact
too, one that vouches for no market figure, and inside a news string for quoting only. Dates,
tickers and headlines are indexed the same way. Failed calls are kept, with whether a later call
of the same tool for the same ticker succeeded, and vouch for the dates of their absence."""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from dataclasses import dataclass, field
from datetime import date

from verifier.claim import Claim, DateReading
from verifier.coverage import words_of_name
from verifier.grammar.figures import clear_caches as clear_claim_caches
from verifier.grammar.quotes import normalise_headline
from verifier.literals import tolerance
from verifier.quoting import normalised, quoted_by
from verifier.readings import arg_dates, date_keys, read_text
from verifier.reuse import forget
from verifier.spans import spans_named
from verifier.trace_facts import (
    QUESTION,
    YEAR,
    Fact,
    Failure,
    fraction_key,
    in_percent,
    make_fact,
    percent_key,
    writes_money,
)


@dataclass(slots=True)
class Evidence:
    """The index of one trace."""

    facts: list[Fact] = field(default_factory=list)
    magnitudes: list[float] = field(default_factory=list)
    fractions: list[Fact] = field(default_factory=list)
    fraction_magnitudes: list[float] = field(default_factory=list)
    dates: dict[DateReading, set[str]] = field(default_factory=dict)
    tickers: dict[str, set[str]] = field(default_factory=dict)
    headlines: dict[tuple[str, str], None] = field(default_factory=dict)
    """(text, event) of every string a news result or the question holds; normalised on demand."""
    runs: list[tuple[str, list[str]]] = field(default_factory=list)
    """Per event walked, in order, the strings its result (or the question) holds, each once:
    `texts` pairs them with the event (a pair per string would be most of the index's
    objects, and few drafts read them)."""
    sessions: dict[str, set[str]] = field(default_factory=dict)
    """The sessions ("before", "during", "after") each news headline came in, where its results
    say so."""
    published: dict[str, set[str]] = field(default_factory=dict)
    """The times (`published_at`, as written) each news headline came at, where its result
    says so."""
    event_days: dict[DateReading, set[tuple[str | None, str]]] = field(default_factory=dict)
    """The (ticker, kind) of the corporate events a result lists on each day (filed with and
    without the year), for "earnings on 2025-01-13" where the trace's event that day is a
    dividend."""
    announced_days: dict[DateReading, set[tuple[str | None, str]]] = field(default_factory=dict)
    """The same for the days the events were announced: "declared a dividend on 2024-12-02" is
    faithful on the announcement day, also where earnings fall that day."""
    question_money: bool = False
    """Whether the question writes an amount of money at all: if not, its numbers ("the next 30
    days") support no money figure of the draft."""
    called: set[str] = field(default_factory=set)
    """Tickers that calls were made for (arguments and `ticker` fields), not merely mentioned."""
    failures: list[Failure] = field(default_factory=list)
    free_dates: dict[DateReading, set[str]] = field(default_factory=dict)
    """`dates` less the quarters a source names only as a comparison base."""
    event_windows: list[tuple[str | None, date, date]] = field(default_factory=list)
    """The windows an events result covers, per ticker: in them, a day not listed for an event
    kind is not that kind's day."""
    event_dates: dict[tuple[str | None, str], list[date]] = field(default_factory=dict)
    """The days each (ticker, kind) of event is listed on."""
    news_tickers: dict[str, set[str | None]] = field(default_factory=dict)
    """The ticker each news string was returned for (its row's, or the call's)."""
    names: list[str] = field(default_factory=list)
    """The names the results give (`verifier.coverage.NAME_KEYS`: a company, a sector, a wire),
    as written: their words may stand in a draft unchecked."""
    changes: dict[str, list[Fact]] = field(default_factory=dict)
    """Each ticker's price changes that a result's structure holds, with their windows: what a
    direction word said of the ticker is held against."""

    @property
    def texts(self) -> list[tuple[str, str]]:
        """(text, event) of every string a successful result or the question holds."""
        return [(text, event) for event, strings in self.runs for text in strings]

    def match_figure(self, claim: Claim) -> list[Fact]:
        """Facts that round to the claim at the precision it displays (any ticker).

        A number in text may be rounded by one decimal more than the claim shows, except that a
        bare whole number (a count: "12 aircraft") stands only for a whole number.
        """
        found: list[Fact] = []
        scale, unit = claim.scale, claim.unit
        count = claim.kind == "number" and scale == 1.0 and not unit
        shift = 2 if scale == 0.01 else 0  # "87 cents" is written to the cent: 0.87
        for value, decimals in claim.readings:
            places = 0 if count and not decimals else decimals + 1 + shift
            if unit == "bps":  # as written (a bps field), not where a key says percent
                written: list[Fact] = []
                self._near(written, value, decimals, scale, places)
                found += [f for f in written if not in_percent(f.key)]
                value, decimals = value / 100, decimals + 2
            if decimals < 0:  # a hedged round figure ("roughly 60%"): the same kind of value
                near: list[Fact] = []
                self._near(near, value, decimals, scale, places)
                found += [f for f in near if f.percent == (unit == "%")]
                continue
            self._near(found, value, decimals, scale, places)
            if unit:
                half = tolerance(decimals)
                lo, hi = (value - half) * scale, (value + half) * scale
                magnitudes = self.fraction_magnitudes
                for f in self.fractions[bisect_left(magnitudes, lo) : bisect_right(magnitudes, hi)]:
                    if f.decimals <= places:
                        found.append(f)
        if claim.sign:
            negative = claim.sign < 0
            found = [f for f in found if f.signed and (f.value < 0) == negative]
        if (
            found
            and any(1899 < r.value * scale < 2101 for r in claim.readings)
            and not (claim.kind == "number" and YEAR.fullmatch(claim.text))
        ):
            found = [f for f in found if f.key != "year"]  # "2,024 shares" is not the year 2024
        return found

    def _near(
        self, found: list[Fact], value: float, decimals: int, scale: float, places: int
    ) -> None:
        """Add the facts within half a unit of the claim's last decimal, written with at most
        `places` decimals.

        A number written in text rounds half up (1.65 is not "1.6"); a JSON number is compared
        by its binary value, as formatting it would round it.
        """
        half = tolerance(decimals)
        lo, hi = (value - half) * scale, (value + half) * scale
        top = (value + 0.5 * 10.0**-decimals * (1 - 1e-9)) * scale
        magnitudes = self.magnitudes
        for f in self.facts[bisect_left(magnitudes, lo) : bisect_right(magnitudes, hi)]:
            if f.decimals < 0 or (f.decimals <= places and abs(f.value) < top):
                found.append(f)

    def match_date(self, claim: Claim, free: bool = False) -> list[str]:
        """Event ids whose results (or the question) hold the date, at the detail it gives.

        With `free`, a quarter counts only where a source names it for what it says, not only as
        a comparison base ("from Q3 2019", "down from $2.39 in Q3 2019").
        """
        index = self.free_dates if free else self.dates
        events: list[str] = []
        for reading in claim.dates:
            events += index.get(reading, ())
        return sorted(set(events))

    def match_name(self, claim: Claim) -> list[Fact]:
        """The designation a number is part of ("MAX 10"), where a result or the question writes
        it (case and spacing ignored, as for headlines)."""
        name = normalise_headline(claim.name)
        events = dict.fromkeys(event for text, event in self.texts if name in normalised(text))
        value = claim.readings[0].value if claim.readings else 0.0
        return [make_fact(value, e, "", "name", None, False, False, -1, None) for e in events]

    def match_headline(self, claim: Claim) -> list[str]:
        """Event ids of the news results (or the question) that hold the quote (`quoted_by`)."""
        whole, part = quoted_by(claim.text), quoted_by(claim.text, whole=False)
        return sorted(
            {
                event
                for text, event in self.headlines
                if (part(text) if event == QUESTION else whole(text))
            }
        )

    def quote_tickers(self, claim: Claim) -> set[str | None]:
        """The tickers whose news results hold the quote (None: a result about no ticker)."""
        whole = quoted_by(claim.text)
        return {t for text, tickers in self.news_tickers.items() if whole(text) for t in tickers}

    def headline_sessions(self, claim: Claim) -> set[str]:
        """The sessions of the news headlines the quote matches (those whose result gives one)."""
        holds = quoted_by(claim.text)
        return {
            when for text, sessions in self.sessions.items() if holds(text) for when in sessions
        }

    def headline_times(self, quote: str) -> set[str]:
        """The publication times of the news headlines the quote matches (where given)."""
        holds = quoted_by(quote)
        return {when for text, times in self.published.items() if holds(text) for when in times}

    def near(self, claim: Claim) -> Fact | None:
        """The fact closest to the claim's first reading, to show an analyst what was there."""
        if not claim.readings or not self.facts:
            return None
        target = abs(claim.readings[0].value * claim.scale)
        i = bisect_left(self.magnitudes, target)
        candidates = self.facts[max(i - 1, 0) : i + 1]
        return min(candidates, key=lambda f: abs(abs(f.value) - target))


def clear_caches() -> None:
    """Forget the strings read so far (memory, or a cold-start measurement)."""
    caches = (
        read_text,
        arg_dates,
        normalised,
        date_keys,
        percent_key,
        in_percent,
        fraction_key,
        words_of_name,
        writes_money,
        spans_named,
    )
    for cached in caches:
        cached.cache_clear()
    clear_claim_caches()
    forget()

"""Tickers: symbols and cashtags, the upper-case words that are not tickers, and the tickers each figure speaks of."""

from __future__ import annotations

import re
from bisect import bisect_left, bisect_right

from verifier.claim import Claim

TICKER = re.compile(r"(?<![\w$&.])(\$)?([A-Z]{1,5}(?:[.-][A-Z]{1,2})?)(?![\w&-])")


TICKER_SCAN = re.compile(
    r"[$A-Z](?<![\w$&.].)(?:(?<=\$)[A-Z]|(?<!\$))[A-Z]{0,4}(?:[.-][A-Z]{1,2})?(?![\w&-])"
)
"""`TICKER` opening with its first character; a cashtag is a match that starts with `$`."""


STOPWORDS = frozenset(
    re.findall(
        r"\S+",
        """
        I A AM PM ET EST EDT UTC GMT USD EUR GBP JPY CHF CAD AUD CNY HKD MXN US USA U.S UK EU EE
        UU CEO CFO COO CTO EPS ETF IPO GDP CPI PPI FED FOMC ECB BCE SEC NYSE AMEX NASDAQ AI OK
        TV PC YOY YTD QTD MTD QOQ PNL P L NA N YES NO GAAP FY FX IR ROE ROI ROA ESG M B K PE PB
        IPC PIB SA SL NV INC CO LLC LTD PLC ADR API SQL JSON OPEC COVID NOTE NEWS FDA FTC DOJ
        IRS EV EVS R D RD IT HR FCF OCF CAGR ARPU SAAS ASP SG SGA LIBOR SOFR NIM CET BPS PCT MM
        MN BN TN VS ETA NAV AUM TSR OEM Q H II III IV VI CET1 S&P DE LA EL EN Y O UN OR AND THE
        TO OF IN ON AT BY AN AS IS UP NOT ALL NEW IMPORTANT REIT REITS OTC WSJ CNBC AP FT PT
        EOD ATH ATL RSI SMA EMA MACD VWAP EBITDA EBIT CAPEX OPEX ROIC DCF SPAC ETN ATM BOE BOJ
        PBOC IMF WTO NFP PMI ISM AGM PR UPI BBC CNN NYT DJ MW IBD BPA OPA OPV IVA PER BNA
        """,
    )
)
"""Upper-case words that are not tickers unless the trace names them as one."""


def find_tickers(text: str, known: frozenset[str], claims: list[Claim]) -> list[Claim]:
    tickers = []
    for m in TICKER_SCAN.finditer(text):
        written = m.group()
        cashtag = written[0] == "$"
        symbol = written[1:] if cashtag else written
        if not cashtag and symbol not in known and (len(symbol) < 2 or symbol in STOPWORDS):
            continue
        start, end = m.span()
        tickers.append(Claim(written, start, end, "ticker", symbol=symbol))
    claims.extend(tickers)
    return tickers


def attach_scopes(figures: list[Claim], tickers: list[Claim], sentence_starts: list[int]) -> None:
    """Each figure speaks about the tickers named before it in its sentence and the last one named.

    Figures and tickers (both in order of position) are walked together; a scope is built once
    for each distinct (sentence, tickers so far).
    """
    ticker_starts = [t.start for t in tickers]
    scopes: dict[tuple[int, int], frozenset[str]] = {}
    seen = 0
    for figure in figures:
        while seen < len(tickers) and tickers[seen].end <= figure.start:
            seen += 1
        if not seen:
            continue
        sentence = sentence_starts[bisect_right(sentence_starts, figure.start) - 1]
        first = bisect_left(ticker_starts, sentence, 0, seen)
        scope = scopes.get((first, seen))
        if scope is None:
            symbols = {t.symbol for t in tickers[first:seen]}
            symbols.add(tickers[seen - 1].symbol)
            scope = scopes[(first, seen)] = frozenset(symbols)
        figure.scope = scope

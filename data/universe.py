"""The generated company universe: tickers, names, sectors and listing exchanges.

Tickers come out sorted, so every table the generator writes is ordered by ticker first.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pyarrow as pa

from data.contract import COMPANIES

SECTORS: dict[str, tuple[str, ...]] = {
    "Information Technology": ("Software", "Semiconductor", "Systems", "Networks", "Data"),
    "Health Care": ("Therapeutics", "Biosciences", "Medical", "Health", "Pharma"),
    "Financials": ("Financial", "Bancorp", "Capital", "Insurance", "Trust"),
    "Consumer Discretionary": ("Retail", "Motors", "Apparel", "Resorts", "Brands"),
    "Consumer Staples": ("Foods", "Beverages", "Household", "Grocers", "Farms"),
    "Industrials": ("Industries", "Aerospace", "Machinery", "Logistics", "Rail"),
    "Energy": ("Energy", "Petroleum", "Oilfield", "Pipeline", "Resources"),
    "Materials": ("Materials", "Chemicals", "Mining", "Steel", "Packaging"),
    "Utilities": ("Utilities", "Power", "Water", "Electric", "Gas"),
    "Real Estate": ("Realty", "Properties", "REIT", "Land", "Residential"),
    "Communication Services": ("Media", "Telecom", "Broadcasting", "Interactive", "Wireless"),
}
_PREFIXES = (
    "Apex", "Blue Ridge", "Cedar", "Northwind", "Summit", "Harbor", "Ironwood", "Lakeshore",
    "Meridian", "Pinnacle", "Redstone", "Silverline", "Trident", "Vanguard Hill", "Westfield",
    "Atlas", "Beacon", "Crescent", "Evergreen", "Falcon", "Granite", "Horizon", "Keystone",
    "Liberty", "Magnolia", "Nova", "Orion", "Pacific", "Quantum", "Riverbend", "Sterling",
    "Tidewater", "Unity", "Vertex", "Willow", "Zenith", "Alder", "Bristol", "Coastal", "Delta",
)  # fmt: skip
_SUFFIXES = ("Inc.", "Corp.", "Holdings", "Group", "Co.")
_LETTERS = np.array(list("ABCDEFGHIJKLMNOPQRSTUVWXYZ"))


@dataclass(frozen=True)
class Universe:
    """Per-ticker attributes, index-aligned with `tickers` (sorted)."""

    tickers: list[str]
    names: list[str]
    sector_index: np.ndarray
    exchanges: list[str]

    @property
    def size(self) -> int:
        return len(self.tickers)


def draw_tickers(rng: np.random.Generator, count: int) -> list[str]:
    """`count` distinct 3- or 4-letter symbols, sorted."""
    found: set[str] = set()
    while len(found) < count:
        need = count - len(found)
        lengths = rng.choice([3, 4], size=need * 2, p=[0.4, 0.6])
        letters = _LETTERS[rng.integers(0, 26, size=(need * 2, 4))]
        for row, length in zip(letters, lengths, strict=True):
            found.add("".join(row[:length]))
            if len(found) == count:
                break
    return sorted(found)


def draw_universe(rng: np.random.Generator, count: int) -> Universe:
    """Tickers with plausible names, sectors and a listing on NYSE or NASDAQ."""
    tickers = draw_tickers(rng, count)
    sector_names = list(SECTORS)
    sector_index = rng.integers(0, len(sector_names), size=count)
    prefix = rng.integers(0, len(_PREFIXES), size=count)
    root = rng.integers(0, 5, size=count)
    suffix = rng.integers(0, len(_SUFFIXES), size=count)
    names = [
        f"{_PREFIXES[p]} {SECTORS[sector_names[s]][r]} {_SUFFIXES[x]}"
        for p, s, r, x in zip(prefix, sector_index, root, suffix, strict=True)
    ]
    exchanges = np.where(rng.random(count) < 0.55, "NASDAQ", "NYSE").tolist()
    return Universe(tickers, names, sector_index, exchanges)


def build_companies(universe: Universe) -> pa.Table:
    """The `companies` table."""
    sector_names = np.array(list(SECTORS))
    return pa.table(
        {
            "ticker": universe.tickers,
            "name": universe.names,
            "sector": sector_names[universe.sector_index].tolist(),
            "currency": ["USD"] * universe.size,
            "exchange": universe.exchanges,
            "price_basis": ["as_traded"] * universe.size,
        },
        schema=COMPANIES.schema,
    )

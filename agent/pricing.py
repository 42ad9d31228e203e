"""Price table: what a model's tokens cost, per million, editable by the operator.

The bundled `prices.json` is a starting point; `load_prices(path)` reads an operator's own file in
the same shape. A model matches its exact name first, then the longest listed prefix (so
`gpt-4o-2024-08-06` is priced as `gpt-4o`). Providers listed as free (offline, local) cost 0.

Tokens drafted through a provider's batch interface cost `batch` times the direct price (both
OpenAI's Batch API and Anthropic's Message Batches charge half); tokens read from the prompt cache
cost `cached_input`, tokens written to it (Anthropic) `cache_write`.
"""

from __future__ import annotations

import json
from pathlib import Path

from pydantic import BaseModel, Field, ValidationError

from contract.errors import InputError
from contract.files import read_input_text
from contract.trace import Usage

BUNDLED_PRICES = Path(__file__).with_name("prices.json")


class Price(BaseModel):
    """USD per million tokens; cached input and cache writes are charged as input when not
    listed; `batch` is the share of these prices a batch request pays."""

    input: float = Field(ge=0)
    cached_input: float | None = Field(None, ge=0)
    cache_write: float | None = Field(None, ge=0)
    output: float = Field(ge=0)
    batch: float = Field(0.5, ge=0, le=1)


class PriceTable(BaseModel):
    source: str = ""
    note: str = ""
    free_providers: list[str] = Field(default_factory=list)
    models: dict[str, Price] = Field(default_factory=dict)


def load_prices(path: Path | None = None) -> PriceTable:
    """The bundled price table, or the operator's file at `path`."""
    path = path or BUNDLED_PRICES
    text = read_input_text(path, "price file")
    try:
        table = PriceTable.model_validate(json.loads(text))
    except (json.JSONDecodeError, ValidationError) as exc:
        first = str(exc).splitlines()[0]
        raise InputError(f"price file {path} is not a valid price table: {first}") from None
    if path != BUNDLED_PRICES and not table.source:
        table.source = str(path)
    return table


def find_price(table: PriceTable, model: str) -> Price | None:
    """The price of `model`: exact name, else the longest listed prefix, else None."""
    if model in table.models:
        return table.models[model]
    prefixes = [name for name in table.models if model.startswith(name)]
    return table.models[max(prefixes, key=len)] if prefixes else None


def estimate_cost(
    table: PriceTable, provider: str, model: str, usage: Usage, *, batch: bool = False
) -> tuple[float | None, str | None]:
    """Estimated USD for `usage` (at the batch price when `batch`), or (None, why) when the
    model has no price."""
    if provider in table.free_providers:
        return 0.0, None
    price = find_price(table, model)
    if price is None:
        return None, f"no price for model {model!r} in the price table"
    cached_rate = price.input if price.cached_input is None else price.cached_input
    write_rate = price.input if price.cache_write is None else price.cache_write
    plain = max(usage.input_tokens - usage.cached_tokens - usage.cache_write_tokens, 0)
    dollars = (
        plain * price.input
        + usage.cached_tokens * cached_rate
        + usage.cache_write_tokens * write_rate
        + usage.output_tokens * price.output
    )
    return dollars * (price.batch if batch else 1.0) / 1_000_000, None

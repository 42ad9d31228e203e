"""Checks a night's configuration before anything runs or any token is spent.

The CLI runs them before Prefect starts, so bad input costs no server start; the flow runs
them again, so a run started from the UI fails at once with the same one-line message instead
of filling the rejected pile.
"""

from __future__ import annotations

import os
import shutil
import tempfile
from concurrent.futures import ThreadPoolExecutor
from contextvars import copy_context
from datetime import UTC, date, datetime
from pathlib import Path

from agent.pricing import load_prices
from agent.providers.base import Message, ModelRequest
from agent.providers.local_folder import local_model_dir
from agent.questions import load_question_set
from contract.errors import InputError
from contract.tools import ToolResult
from data.calendar import next_session
from flows.publish.layout import RunLayout, catalog_dir, check_name
from flows.publish.tree import check_output_tree, night_trees
from flows.run.config import OUT_ROOT_ENV, RunConfig
from flows.run.provider import open_provider
from tools.catalog import (
    Catalog,
    check_report_day,
    first_price_date,
    open_catalog,
    price_range,
)
from tools.registry import run_tool


def check_night(config: RunConfig) -> RunConfig:
    """The configuration with its report date resolved, once data, date, portfolios,
    question set and provider are known to be usable; otherwise an `InputError`, and an
    output folder these checks created (for the catalog's cache) is removed again."""
    made = Path(config.out_dir).absolute()  # the first folder of it that does not exist yet
    while not made.parent.exists():
        made = made.parent
    fresh = not made.exists()
    try:
        return _check_night(config)
    except InputError:
        if fresh:
            shutil.rmtree(made, ignore_errors=True)
        raise


def check_out_root(out_dir: Path) -> None:
    """A served run writes only under the root its deployment was served with: a caller of the
    Prefect API who asks for another folder (where the catalog, with every portfolio in it,
    would go) is refused in one line. Links are resolved first, so none leads out of it."""
    allowed = os.environ.get(OUT_ROOT_ENV)
    if not allowed:
        return
    root, asked = Path(allowed).resolve(), Path(out_dir).resolve()
    if asked != root and root not in asked.parents:
        raise InputError(
            f"out_dir {out_dir} is outside {allowed}, the only folder this deployment writes "
            "to (fixed by `nightdesk serve --out-root`): set out_dir to it or a folder inside it"
        )


def _check_night(config: RunConfig) -> RunConfig:
    check_out_root(Path(config.out_dir))
    root = Path(config.out_dir)
    check_output_tree(root, [catalog_dir(root)])
    check_writable(catalog_dir(config.out_dir))
    report_date = config.report_date or latest_session(config.data_dir, config.out_dir)
    check_date_in_data(config.data_dir, report_date)
    layout = RunLayout(root, report_date)
    check_output_tree(root, night_trees(layout))
    for folder in (layout.accepted, layout.rejected, layout.results):
        check_writable(folder)
    # The provider's imports and tokenizer hold the interpreter; the catalog's build does not
    with ThreadPoolExecutor(1, thread_name_prefix="nightdesk-check") as pool:
        provider = pool.submit(copy_context().run, check_provider, config)  # its options
        with open_catalog(config.data_dir, report_date, workdir=catalog_dir(config.out_dir)) as cat:
            check_report_date(cat, report_date)
            check_holdings(cat, resolve_portfolios(cat, config.portfolios), report_date)
        load_question_set(config.question_set)
        load_prices(config.budget.price_file)
        provider.result()
    return config.model_copy(update={"report_date": report_date})


def check_provider(config: RunConfig) -> None:
    """The provider can be built and can count a request's tokens before sending it (its
    tokenizer loads now, beside the catalog's build, not on the night's first call)."""
    if config.provider == "local":  # building it loads the weights: that happens once, later
        local_model_dir(config.model)
        return
    provider = open_provider(config)
    provider.estimate_tokens(ModelRequest(system="", messages=[Message(role="user", text="")]))


def latest_session(data_dir: Path, out_dir: Path) -> date:
    """The last session in the data up to today (the clock is read here, in flows/, only)."""
    today = datetime.now(UTC).date()
    with open_catalog(data_dir, today, workdir=catalog_dir(out_dir)) as catalog:
        if not catalog.sessions:
            raise InputError(f"data set {data_dir} has no prices up to {today}; pass --date D")
        return catalog.sessions[-1]


def resolve_portfolios(catalog: Catalog, wanted: list[str]) -> list[str]:
    """The requested portfolio ids (checked against the data), or every one of them."""
    known = catalog.portfolio_ids()
    unknown = [p for p in wanted if p not in known]
    if unknown:
        raise InputError(
            f"unknown portfolio {', '.join(unknown)}: the data has {', '.join(known[:20])}; "
            "pass --portfolio one of them (or none, for all)"
        )
    chosen = wanted or known
    if not chosen:
        raise InputError(f"data set {catalog.data_dir} has no portfolios")
    return [check_name(p, "portfolio id") for p in chosen]


def check_writable(folder: Path) -> None:
    """The run can create and write `folder` (found before a token is spent, not at publish):
    the folder is made, a probe file written, and what the probe made removed again, so special
    file systems (/proc, read-only mounts) are refused here, in one line."""
    existing, made = Path(folder), None  # made: the first folder the probe creates
    while not existing.exists() and existing != existing.parent:
        existing, made = existing.parent, existing
    problem = f"{existing} is a file, not a folder" if not existing.is_dir() else None
    if problem is None:
        try:
            Path(folder).mkdir(parents=True, exist_ok=True)
            with tempfile.TemporaryFile(dir=folder):
                pass
        except OSError as exc:
            problem = f"{exc.strerror or type(exc).__name__} ({exc.filename or folder})"
        finally:
            if made is not None:
                shutil.rmtree(made, ignore_errors=True)
    if problem:
        raise InputError(
            f"cannot write the run's outputs to {folder}: {problem}; pass --out a folder you "
            "can write (or move what is in the way)"
        )


def check_holdings(catalog: Catalog, portfolios: list[str], report_date: date) -> None:
    """At least one portfolio holds something on the date: otherwise there is nothing to report."""
    for portfolio_id in portfolios:
        outcome = run_tool(catalog, "get_portfolio", {"portfolio_id": portfolio_id})
        if isinstance(outcome, ToolResult) and outcome.data.get("holdings"):
            return
    raise InputError(
        f"no portfolio of {', '.join(portfolios)} holds anything on {report_date}: import "
        "holdings (`nightdesk data import --holdings`) or pass --date a day they held positions"
    )


def check_date_in_data(data_dir: Path, report_date: date) -> None:
    """A date before the data's first price or after its last is refused from the file alone,
    before a catalog is built for it (9999-12-31 included, whose night has no end)."""
    check_report_day(report_date)
    first, last = price_range(data_dir)
    if first is not None and report_date < first:
        raise InputError(no_prices_before(data_dir, report_date, first))
    if last is not None and report_date > last:
        raise InputError(no_prices_after(data_dir, report_date, last))


def no_prices_before(data_dir: Path, report_date: date, first: date | None) -> str:
    hint = f"its prices start on {first}; pass --date {first} or later" if first else ""
    return (
        f"data set {data_dir} has no prices up to {report_date}: {hint or 'it holds none at all'}"
    )


def no_prices_after(data_dir: Path, report_date: date, last: date) -> str:
    return (
        f"data set {data_dir} has no prices after {last} up to {report_date}: "
        f"pass --date {last} or earlier, or import the missing days"
    )


def check_report_date(catalog: Catalog, report_date: date) -> None:
    """A night reports on a session the data holds: not a holiday, not past the data."""
    last = catalog.sessions[-1] if catalog.sessions else None
    if last == report_date:
        return
    if last is None:
        first = first_price_date(catalog.data_dir)
        raise InputError(no_prices_before(catalog.data_dir, report_date, first))
    if next_session(last) <= report_date:
        raise InputError(no_prices_after(catalog.data_dir, report_date, last))
    raise InputError(
        f"{report_date} is not a trading session; the sessions around it are {last} and "
        f"{next_session(report_date)}: pass --date one of them"
    )

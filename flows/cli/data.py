"""`nightdesk data generate|check|import` and `nightdesk tools list|call`: the data set, the
tools as the model reads them, and one tool called as the model would call it."""

from __future__ import annotations

from datetime import date
from pathlib import Path

from cyclopts import App

from contract.errors import InputError
from contract.text import display_text, escape_hidden
from data.contract import MAX_DAY_MOVE

data_app = App(name="data", help="Generate, check and import the Parquet data set.")
tools_app = App(name="tools", help="Call the read-only tools the model uses.")


@data_app.command(name="generate")
def data_generate(
    *,
    out: Path,
    tickers: int = 50,
    start: date = date(2023, 1, 3),
    end: date = date(2024, 12, 31),
    portfolios: int = 3,
    seed: int = 20240101,
    overwrite: bool = False,
) -> None:
    """Generate a deterministic data set (same arguments, same rows) into a new folder.

    Parameters
    ----------
    out
        Folder to create; it must be absent or empty unless --overwrite is given.
    tickers
        Number of companies.
    start
        First calendar day YYYY-MM-DD.
    end
        Last calendar day YYYY-MM-DD.
    portfolios
        Number of portfolios (8-25 holdings each).
    seed
        Random seed.
    overwrite
        Replace an existing data set in OUT (the swap is atomic).
    """
    from data.generate import generate_dataset

    facts = generate_dataset(
        out,
        tickers=tickers,
        start=start,
        end=end,
        portfolios=portfolios,
        seed=seed,
        overwrite=overwrite,
    )
    rows = ", ".join(f"{name} {count:,}" for name, count in facts.rows.items())
    print(f"wrote {out}: {rows} (seed {seed}, {start}..{end})")


@data_app.command(name="check")
def data_check(directory: Path, /, *, max_day_move: float = MAX_DAY_MOVE) -> None:
    """Check a data folder against the contract; print every violation, exit 1 on any.

    Parameters
    ----------
    directory
        Folder holding the Parquet tables.
    max_day_move
        Largest factor between two closes in a row (splits taken out) taken as a real move.
    """
    from data.check import check_dataset, count_rows
    from data.contract import TABLES

    if not max_day_move > 1:
        raise InputError(f"--max-day-move {max_day_move} must be above 1, e.g. 10")
    violations = check_dataset(directory, max_day_move=max_day_move)
    for violation in violations:
        print(display_text(str(violation)))
    if violations:
        tables = len({v.table for v in violations})
        print(f"failed: {len(violations)} violations in {tables} of {len(TABLES)} tables")
        raise SystemExit(1)
    print(f"ok: {count_rows(directory):,} rows in {len(TABLES)} tables")


@data_app.command(name="import")
def data_import(
    *,
    out: Path,
    prices: list[Path],
    companies: Path | None = None,
    news: Path | None = None,
    holdings: Path | None = None,
    overwrite: bool = False,
    notes: Path | None = None,
) -> None:
    """Import vendor files into a checked data set; print what was dropped or repaired.

    Parameters
    ----------
    out
        Folder to create; it must be absent or empty unless --overwrite is given.
    prices
        Folder of one CSV per ticker (Yahoo or csvdir layout); repeat it: the first given wins a date.
    companies
        TSV or CSV with symbol, name and sector.
    news
        JSONL with ticker, published_at, text (or headline), user (or source).
    holdings
        CSV with portfolio_id, as_of, ticker, quantity, cost_basis.
    overwrite
        Replace an existing data set in OUT (the swap is atomic).
    notes
        Also write every dropped or repaired row with its reason to this file (the summary
        counts them by kind once a table has more than ten).
    """
    from data.importer import ImportSources, import_dataset
    from flows.publish.layout import write_atomic

    if notes is not None and not notes.parent.is_dir():
        raise InputError(f"--notes {notes}: folder {notes.parent} does not exist; create it first")
    sources = ImportSources(tuple(prices), companies, news, holdings)
    log = import_dataset(out, sources, overwrite=overwrite)
    for line in log.render():
        print(display_text(line))
    if notes is not None:
        write_atomic(notes, "".join(f"{n}\n" for n in log.notes))
        print(f"wrote {len(log.notes):,} row notes to {notes}")
    print(f"wrote {out}")


@tools_app.command(name="call")
def tools_call(
    name: str,
    *,
    date: date,
    args: str = "{}",
    data: Path = Path("data/sample"),
) -> None:
    """Run one tool against the catalog of a report date and print its JSON result.

    Parameters
    ----------
    name
        Tool name, e.g. get_price (`nightdesk tools list` shows them all).
    date
        Report date YYYY-MM-DD; the catalog holds what was known at its end, and a tool's
        `date` argument is this date unless ARGS gives one.
    args
        The tool's arguments as a JSON object.
    data
        Directory holding the Parquet data set.
    """
    import json

    from contract.errors import ToolError
    from contract.tools import ToolFailure
    from tools.catalog import open_catalog
    from tools.registry import TOOLS, parse_arguments, run_tool

    if name not in TOOLS:
        raise InputError(f"unknown tool {name!r}; valid tools: {', '.join(TOOLS)}")
    arguments: str | dict[str, object] = args
    try:
        arguments = parse_arguments(args)
    except ToolError:
        pass  # the tool reports it, as the model would read it
    else:
        if "date" in TOOLS[name].args_model.model_fields:
            arguments.setdefault("date", date.isoformat())
    with open_catalog(data, date) as catalog:
        outcome = run_tool(catalog, name, arguments)
    print(escape_hidden(json.dumps(outcome.as_json(), indent=2, ensure_ascii=False)))
    if isinstance(outcome, ToolFailure):
        raise SystemExit(1)


@tools_app.command(name="list")
def tools_list() -> None:
    """List every tool as the model reads it: name, one-line description and arguments."""
    from tools.registry import TOOLS

    for tool in TOOLS.values():
        schema = tool.parameters()
        required = set(schema.get("required", []))
        properties: dict[str, dict[str, object]] = schema.get("properties", {})
        names = [p if p in required else f"{p}?" for p in properties]
        print(f"{tool.name}({', '.join(names)})")
        print(f"    {tool.description}")
        for arg, spec in properties.items():
            default = f" (default {spec['default']})" if "default" in spec else ""
            print(f"    {arg}: {spec.get('description', spec.get('type', ''))}{default}")

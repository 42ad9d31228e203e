"""The `nightdesk` command line: a thin shell that turns library errors into one-line messages.

Each command imports its room lazily, so `nightdesk verify` does not pay for Prefect.
"""

from __future__ import annotations

import gc
import os
import sys
from datetime import date
from importlib import metadata
from pathlib import Path
from typing import Annotated, Any

from cyclopts import App, CycloptsError, Parameter

from contract.errors import InputError
from contract.secrets import redact, redact_logs
from contract.text import escape_hidden, visible_chars

app = App(
    name="nightdesk",
    help="A verified daily report for every stock portfolio, every night.",
    print_error=False,  # a parse error is raised to `main`, which prints it as one line
    exit_on_error=False,
    version=lambda: metadata.version("nightdesk"),  # the string the manifest records
    default_parameter=Parameter(negative_iterable=()),  # no --empty-portfolio flags
)
app.command("flows.cli.data:data_app", name="data")
app.command("flows.cli.data:tools_app", name="tools")
app.command(
    "flows.cli.review:review_app",
    name="review",
    help="List, show and decide the rejected cases of a run.",
)
app.command(
    "flows.cli.run:run_nightly",
    name="run",
    help="Run the nightly reports locally (no server needed) and print where they are.",
)
app.command(
    "flows.cli.review:rebuild_report",
    name="report",
    help="Rebuild a run's reports and review page with the analysts' decisions applied.",
)


@app.command(name="verify")
def verify_traces(
    trace: Annotated[str | None, Parameter(allow_leading_hyphen=True)] = None,
    /,
    *,
    jsonl: Annotated[str | None, Parameter(allow_leading_hyphen=True)] = None,
) -> None:
    """Verify drafts against their traces; print the verdict JSON.

    Exit 0 when every draft is accepted, 1 when one is rejected, 2 when the input is not
    readable as traces (one line on stderr, nothing printed).

    Parameters
    ----------
    trace
        A trace JSON file, or - for stdin.
    jsonl
        A file (or -) with one trace per line; prints one verdict per line, in order.
    """
    from flows.run.judge import verdict_of
    from verifier.trace_files import read_source, verify_lines

    if (trace is None) == (jsonl is None):
        raise InputError("give one trace file (or -) or --jsonl FILE (or -), not both or neither")
    if jsonl is not None:
        verdicts = verify_lines(read_source(jsonl), judge=verdict_of)
    else:
        verdicts = verify_lines(read_source(trace or "-"), single=True, judge=verdict_of)
    for verdict in verdicts:
        print(escape_hidden(verdict.model_dump_json()))
    raise SystemExit(0 if all(v.accepted for v in verdicts) else 1)


@app.command(name="budget")
def budget_show(*, date: date, out: Path = Path("outputs")) -> None:
    """Print where a run's tokens went: per provider, model and question kind, and what every
    attempt at the night spent (a crashed attempt included, also before any has published).

    Parameters
    ----------
    date
        Report date YYYY-MM-DD of the run.
    out
        Output root the run wrote to.
    """
    from pydantic import ValidationError

    from agent.budget.ledger import BudgetLedger, merge_ledgers
    from flows.cli.tables import render_budget_table, render_night
    from flows.cli.terminal import output_console
    from flows.publish.cases import open_run, read_manifest
    from flows.publish.layout import RunLayout
    from flows.run.attempts import load_night, night_ledger
    from flows.run.options import as_command

    console = output_console()
    layout = RunLayout(out, date)
    night = load_night(layout)
    if night.attempts and not layout.manifest.is_file():
        console.print(render_night(night))
        last = night.attempts[-1].config
        command = as_command(last) if last else f"nightdesk run {layout.cli_args}"
        console.print(
            f"No attempt at {date} has published yet: rerun the night with `{command}` (it "
            "reuses every finished ticker).",
            soft_wrap=True,
        )
        return
    open_run(out, date)
    try:
        ledger = BudgetLedger.model_validate(read_manifest(layout)["budget"])
    except (KeyError, ValidationError):
        raise InputError(
            f"{layout.manifest} holds no readable budget: run the night again to rewrite it"
        ) from None
    if len(night.attempts) > 1:  # a resumed night: every attempt's spend, each question once
        manifest = read_manifest(layout)
        by_kind = manifest.get("counts", {}).get("questions_by_kind")
        if by_kind is None:  # a manifest written before the night counted its kinds
            ledger = merge_ledgers([a.ledger for a in night.attempts])
        else:
            ledger = night_ledger(
                [a.ledger for a in night.attempts], by_kind, cut_questions(layout)
            )
        title = (
            f"Token budget of the night ({len(night.attempts)} attempts): "
            f"{ledger.used.total:,} used by all attempts"
        )
        console.print(render_budget_table(ledger, title=title))
        console.print(render_night(night))
    else:
        console.print(render_budget_table(ledger))


def cut_questions(layout: Any) -> set[str]:
    """The questions a published night ended `budget_exhausted` (its rejected index)."""
    import json

    try:
        lines = layout.rejected_index.read_text(encoding="utf-8").splitlines()
    except OSError:
        return set()
    rows = [json.loads(line) for line in lines if line.strip()]
    return {row["question_id"] for row in rows if row.get("reason") == "budget_exhausted"}


@app.command(name="serve")
def serve_nightly(
    *,
    cron: str = "30 18 * * 1-5",
    timezone: str = "America/New_York",
    data: Path = Path("data/sample"),
    out: Path = Path("outputs"),
    pool: str = "nightdesk",
    out_root: Path | None = None,
) -> None:
    """Register the `nightly` deployment with a schedule and serve it (needs a Prefect server).

    Also registers the `shard` deployment on the process work pool POOL, whose workers
    (`prefect worker start --pool POOL`) run the shards of nights with shards above 1.

    Parameters
    ----------
    cron
        When to run, as a cron expression (default: weekdays at 18:30).
    timezone
        IANA time zone of the schedule.
    data
        Data folder the scheduled runs read.
    out
        Output root the scheduled runs write to.
    pool
        Prefect work pool whose workers run the shards.
    out_root
        The one folder the served runs may write under (default: OUT); a run that asks for
        another out_dir is refused. Warns when the Prefect API listens beyond loopback with no
        credentials set.
    """
    from flows.night.deploy import serve_deployment

    serve_deployment(
        cron=cron, timezone=timezone, data_dir=data, out_dir=out, work_pool=pool, out_root=out_root
    )


@app.command(name="ask")
def ask_question(
    question: str,
    /,
    *,
    date: date,
    ticker: str,
    portfolio: str | None = None,
    provider: str = "offline",
    model: str = "",
    mode: str = "plan",
    language: str = "en",
    data: Path = Path("data/sample"),
    questions: Path | None = None,
    json: bool = False,
) -> None:
    """Ask one question about a ticker; print the draft, its trace and verdict; exit 1 unless accepted.

    Parameters
    ----------
    question
        The question, in quotes; or a question id of the set (move, news, events, position).
    date
        Report date YYYY-MM-DD; the tools see what was known at its end.
    ticker
        Ticker symbol, in any case (axo is AXO).
    portfolio
        Portfolio id, for questions about a position.
    provider
        offline, openai, anthropic or local.
    model
        Model name (a folder for local); default: the provider's default.
    mode
        plan (the program calls the tools) or react (the model chooses them).
    language
        en or es.
    data
        Folder of the Parquet data set.
    questions
        A question set file (JSON or YAML); default: the built-in set.
    json
        Print the trace as JSON instead, with the verdict under "verdict".
    """
    import asyncio

    from agent.ask import ask
    from agent.questions import load_question_set
    from flows.cli.terminal import output_console, render_trace, render_verdict
    from flows.run.judge import verdict_of
    from flows.run.preflight import check_report_date, resolve_portfolios
    from tools.catalog import open_catalog

    qset = load_question_set(questions)
    with open_catalog(data, date) as catalog:
        check_report_date(catalog, date)
        if portfolio is not None:
            resolve_portfolios(catalog, [portfolio])
        trace = asyncio.run(
            ask(
                question,
                catalog=catalog,
                ticker=ticker,
                qset=qset,
                portfolio_id=portfolio,
                provider_name=provider,
                model=model,
                mode=mode,  # type: ignore[arg-type]
                language=language,
            )
        )
    verdict = verdict_of(trace)
    if json:
        import json as json_module

        shown = {**trace.model_dump(mode="json"), "verdict": verdict.model_dump(mode="json")}
        print(escape_hidden(json_module.dumps(shown, indent=2, ensure_ascii=False)))
    else:
        console = output_console()
        console.print(render_trace(trace))
        console.print(render_verdict(trace.draft, verdict))
    if not verdict.accepted:
        raise SystemExit(1)


def fail(message: str, code: int = 2) -> None:
    """Print one line to stderr and exit."""
    print(f"nightdesk: error: {visible_chars(redact(message))}", file=sys.stderr)
    raise SystemExit(code)


BROKEN_PIPE_EXIT = 141
"""The status a shell gives a command whose reader went away (128 + SIGPIPE)."""


def main() -> None:
    redact_logs()
    try:
        try:
            app()
        except InputError as exc:
            fail(exc.message)
        except CycloptsError as exc:  # unknown command or option, a value of the wrong type
            fail(" ".join(str(exc).split()))
        finally:
            sys.stdout.flush()  # here, where a reader gone away can still be answered quietly
            # What a finished command holds is freed by the system at exit: a last collection
            # over a night's objects took half a second and changes nothing.
            gc.freeze()
    except BrokenPipeError:  # `nightdesk data check ... | head`: the reader has all it wanted
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())  # no error at exit
        raise SystemExit(BROKEN_PIPE_EXIT) from None

"""`nightdesk review list|show|decide` and `nightdesk report`: the analyst's commands.

A thin shell: it reads the clock and the user name here, at the edge, and leaves the rest to
`flows.publish.cases`, `flows.review.decisions`, `flows.review.rerun` and `flows.review.rebuild`.
"""

from __future__ import annotations

import asyncio
import getpass
import os
from datetime import UTC, datetime
from datetime import date as Date
from pathlib import Path

from cyclopts import App

from contract.errors import InputError
from contract.text import display_text

review_app = App(name="review", help="Review rejected cases: list, show, decide.")


def current_user() -> str:
    try:
        return os.environ.get("USER") or getpass.getuser()
    except (KeyError, OSError):
        return "unknown"


@review_app.command(name="list")
def list_cases(*, date: Date, reason: str | None = None, out: Path = Path("outputs")) -> None:
    """List a run's rejected cases with their cause, reason and the decision in force: first
    the cases an analyst can decide (a draft the verifier rejected), then those a rerun asks
    again (cut by the budget, lost to provider errors, no draft), with the command to rerun.

    Parameters
    ----------
    date
        Report date YYYY-MM-DD of the run.
    reason
        Show only cases with this reason code (e.g. unsupported_figure).
    out
        Output root the run wrote to.
    """
    from rich.table import Column, Table

    from contract.reasons import CAUSE_WORDS
    from flows.cli.terminal import output_console, shown
    from flows.publish.cases import open_run, read_manifest
    from flows.review.hint import night_rerun
    from flows.review.state import ReviewState

    layout = open_run(out, date)
    state = ReviewState.load(layout)
    cases = [c for c in state.cases.values() if reason is None or c.reason == reason]
    if reason is not None and not cases:
        known = sorted({c.reason or "unknown" for c in state.cases.values()})
        raise InputError(
            f"no case with reason {reason!r} on {date}; reasons: {', '.join(known) or 'none'}"
        )
    cases.sort(key=lambda case: not case.decidable)  # an analyst's cases first, else in order
    table = Table("ticker", "question", "portfolios", "cause", "reason", "tokens", "decision")
    table.columns.insert(0, Column("case", no_wrap=True))
    table.columns[6].justify = "right"
    for case in cases:
        decision = state.decision_for(case)
        table.add_row(
            shown(case.case_id),
            shown(case.ticker),
            shown(case.kind),
            shown(", ".join(case.portfolios)),
            "to decide" if case.decidable else f"rerun: {CAUSE_WORDS[case.cause]}",
            shown(case.reason),
            f"{case.total_tokens:,}",
            decision.action if decision else "",
        )
    console = output_console()
    console.print(table)
    decide = sum(case.decidable for case in cases)
    console.print(
        f"{len(cases)} cases, {decide} to decide; review page: "
        f"{out / date.isoformat() / 'review.html'}"
    )
    rest = [case for case in cases if not case.decidable]
    if rest:
        cut = sum(case.cause == "budget" for case in rest)
        command = night_rerun(layout, read_manifest(layout), cut)
        console.print(
            f"{len(rest)} have no draft for an analyst ({cut} cut by the budget): run the night "
            f"again to ask them: {command}",
            soft_wrap=True,
        )


@review_app.command(name="show")
def show_case(case: str, /, *, date: Date, out: Path = Path("outputs")) -> None:
    """Print one case: the draft with failing spans marked, its reasons, trace and decisions.

    Parameters
    ----------
    case
        Case id, as `review list` prints it.
    date
        Report date YYYY-MM-DD of the run.
    out
        Output root the run wrote to.
    """
    from rich.text import Text

    from flows.cli.terminal import output_console, render_trace, render_verdict, shown
    from flows.publish.cases import load_case, open_run
    from flows.review.decisions import describe_decision, read_decisions

    layout = open_run(out, date)
    found = load_case(layout, case)
    logged = read_decisions(layout)  # a log that is refused prints nothing of the case
    console = output_console()
    console.print(
        Text.assemble(
            shown(found.case_id, "bold"), shown(f" · {found.status} · reason {found.reason}")
        )
    )
    if found.trace:
        console.print(render_trace(found.trace))
    if found.verdict:
        console.print(render_verdict(found.draft, found.verdict))
    else:
        for reason in found.reasons:
            console.print(shown(f"{reason.code}: {reason.message}"))
    for decision in logged:
        if decision.case_id == found.case_id:
            console.print(shown(f"decision {decision.decision_id}: {describe_decision(decision)}"))


@review_app.command(name="decide")
def decide_case(
    case: str,
    /,
    *,
    date: Date,
    note: str,
    approve: bool = False,
    reject: bool = False,
    rerun: bool = False,
    by: str | None = None,
    out: Path = Path("outputs"),
    data: Path | None = None,
    provider: str | None = None,
    model: str | None = None,
    question_tokens: int | None = None,
) -> None:
    """Record a decision about a case in the run's decision log (the case file is not changed).

    Parameters
    ----------
    case
        Case id, as `review list` prints it.
    date
        Report date YYYY-MM-DD of the run.
    note
        Why: it is shown in the report beside the answer.
    approve
        Release the draft as analyst-approved.
    reject
        Keep it withheld.
    rerun
        Ask the question again and verify the new attempt.
    by
        Who decides; default: $USER. The log records the OS account beside it.
    out
        Output root the run wrote to.
    data
        Data set for --rerun; default: the run's.
    provider
        Provider for --rerun; default: the run's.
    model
        Model for --rerun; default: the run's.
    question_tokens
        Tokens the re-asked question may spend; default: the run's.
    """
    from flows.publish.cases import load_case, open_run, read_manifest
    from flows.review.decisions import describe_decision, record_decision
    from flows.review.rerun import rerun_case

    if approve + reject + rerun != 1:
        raise InputError("give exactly one of --approve, --reject or --rerun")
    rerun_only: dict[str, object] = {
        "--data": data,
        "--provider": provider,
        "--model": model,
        "--question-tokens": question_tokens,
    }
    given = [flag for flag, value in rerun_only.items() if value is not None]
    if given and not rerun:
        raise InputError(f"{', '.join(given)} only apply to --rerun: drop them, or use --rerun")
    layout = open_run(out, date)
    found = load_case(layout, case)
    if found.rerun_of is not None:
        raise InputError(f"{case} is a re-asked attempt: decide on {found.rerun_of} instead")
    if approve and not found.draft:
        instead = "--reject" if found.spec_id == "summary" else "--rerun or --reject"
        raise InputError(f"case {case} has no draft to approve: use {instead}")
    extra = {}
    if rerun:
        attempt = asyncio.run(
            rerun_case(
                layout,
                found,
                read_manifest(layout),
                data_dir=data,
                provider=provider,
                model=model,
                question_tokens=question_tokens,
            )
        )
        extra = {
            "rerun_case": attempt.case_id,
            "rerun_status": attempt.status,
            "rerun_reason": attempt.reason,
        }
    decision = record_decision(
        layout,
        found.case_id,
        "approve" if approve else "reject" if reject else "rerun",
        note=note,
        by=by or current_user(),
        at=datetime.now(UTC),
        draft=found.draft,
        **extra,
    )
    print(display_text(f"{decision.decision_id}: {describe_decision(decision)}"))
    print(f"rebuild the reports with `nightdesk report {layout.cli_args}`")


def rebuild_report(*, date: Date, out: Path = Path("outputs")) -> None:
    """Rebuild a run's portfolio reports and review page from its cases and decisions.

    Parameters
    ----------
    date
        Report date YYYY-MM-DD of the run.
    out
        Output root the run wrote to.
    """
    from flows.review.rebuild import rebuild_run

    for path in rebuild_run(out, date):
        print(f"wrote {path}")

"""Running the nightly flow from a shell: Prefect settings that work on a fresh machine with no
server, a progress bar while the tickers finish, and a summary with the output paths."""

from __future__ import annotations

import asyncio
import atexit
import gc
import os
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

from contract.errors import InputError
from flows.night.guard import start_guard
from flows.night.server import TemporaryServer, reachable
from flows.night.watch import ServerWatch
from flows.run.config import RunConfig
from flows.run.options import as_command
from flows.run.preflight import check_night

PREFECT_DEFAULTS = {
    "PREFECT_SERVER_EPHEMERAL_STARTUP_TIMEOUT_SECONDS": "180",
    "PREFECT_SERVER_ANALYTICS_ENABLED": "false",
    "PREFECT_SERVER_LOGGING_LEVEL": "CRITICAL",
    "PREFECT_LOGGING_LOGGERS_PREFECT_TASK_RUNS_LEVEL": "WARNING",
    "PREFECT_SERVER_SERVICES_TASK_RUN_RECORDER_BATCH_SIZE": "500",
    "PREFECT_SERVER_SERVICES_TASK_RUN_RECORDER_FLUSH_INTERVAL": "1",
    "PREFECT_SERVER_SERVICES_EVENT_PERSISTER_BATCH_SIZE": "500",
    "PREFECT_SERVER_SERVICES_EVENT_PERSISTER_FLUSH_INTERVAL": "1",
}


def prefect_home(default: Path = Path(".nightdesk/prefect")) -> Path:
    """The run's Prefect home: PREFECT_HOME, or a project-local folder."""
    return Path(os.environ.get("PREFECT_HOME") or default.resolve())


def prepare_prefect() -> None:
    """Project-local Prefect home and patient ephemeral-server settings, unless already set.

    Must run before prefect is imported: it reads its settings once.
    """
    os.environ["PREFECT_HOME"] = str(prefect_home())
    prefect_home().mkdir(parents=True, exist_ok=True)
    for name, value in PREFECT_DEFAULTS.items():
        os.environ.setdefault(name, value)


def run_with_progress(config: RunConfig, console: Console | None = None) -> dict[str, Any]:
    """Check the night (`flows.run.preflight`), then run the flow in this process, showing
    tickers done, accepted, rejected and tokens.

    Without PREFECT_API_URL the run's temporary server comes up while the run checks its input,
    imports the flow and builds the night's catalog, and stops when the process exits. Where
    the Prefect home's database exists it starts before the checks, and a refusal stops it at
    once; on a first night's home it starts once the checks have passed, as its first start
    creates the database, and a refused night then leaves nothing behind. (Where Prefect was
    imported before, it has read its settings: it starts its own server then.)"""
    api_url = os.environ.get("PREFECT_API_URL")
    early = early_server(config, api_url)
    try:
        config = check_night(config)
    except InputError:
        if early is not None:
            early.abandon()
        raise
    prepare_prefect()
    if config.shards > 1:  # refused now, before any server of the run's own starts
        from flows.night.shard import check_server

        check_server(config.work_pool)
    start_guard()  # a run killed outright takes its temporary Prefect server with it
    server = early
    if api_url:
        check_api(api_url)
    elif server is None and (server := temporary_server()) is not None:
        launch_server(server)
    return run_flow(config, console, server, CatalogBuild(config))


def early_server(config: RunConfig, api_url: str | None) -> TemporaryServer | None:
    """The run's temporary server, started before the checks, where a refusal cannot cut its
    work short: no PREFECT_API_URL, one shard, a Prefect home whose database exists."""
    if api_url or config.shards > 1 or not prefect_database_exists():
        return None
    prepare_prefect()
    server = temporary_server()
    if server is not None:
        start_guard()
        launch_server(server)
    return server


def temporary_server() -> TemporaryServer | None:
    """The run's own server, unless Prefect was imported before: it has read its settings then,
    and starts its own."""
    if "prefect" in sys.modules:
        return None
    return TemporaryServer(prefect_home() / "server.log")


def launch_server(server: TemporaryServer) -> None:
    """Start the run's temporary server; it stops when the process exits."""
    server.start()
    atexit.register(server.stop)  # after Prefect has sent its last logs and events to it


def prefect_database_exists() -> bool:
    """Whether the temporary server will find its database made (a night has run on this Prefect
    home before, or the database is not Prefect's default SQLite file)."""
    if any(os.environ.get(name) for name in DATABASE_URL_SETTINGS):
        return True
    return (prefect_home() / "prefect.db").is_file()


DATABASE_URL_SETTINGS = (
    "PREFECT_SERVER_DATABASE_CONNECTION_URL",
    "PREFECT_API_DATABASE_CONNECTION_URL",
)


def check_api(api_url: str) -> None:
    """A server listens at PREFECT_API_URL, or the run stops now in one line (Prefect would
    fail on its first call with a traceback)."""
    for _ in range(API_TRIES):
        if reachable(api_url):
            return
        time.sleep(0.5)
    raise InputError(
        f"PREFECT_API_URL={api_url} does not answer: start that Prefect server, or unset "
        "PREFECT_API_URL to let the run start a temporary one"
    )


API_TRIES = 3


class CatalogBuild:
    """The night's catalog, built (or found) in a thread from the run's first moment; the flow
    reuses it. DuckDB builds it without holding the interpreter, so it is built while the run
    imports Prefect and the flow and while a temporary server starts, not after them: at 2,000
    tickers that was two seconds of every night."""

    def __init__(self, config: RunConfig) -> None:
        self.error: BaseException | None = None
        self.thread = threading.Thread(
            target=self._build, args=(config,), name="nightdesk-catalog", daemon=True
        )
        self.thread.start()

    def _build(self, config: RunConfig) -> None:
        from flows.publish.layout import catalog_dir
        from tools.catalog import open_catalog

        try:
            if config.report_date is not None:
                open_catalog(
                    config.data_dir, config.report_date, workdir=catalog_dir(config.out_dir)
                ).close()
        except BaseException as exc:  # raised where the run waits for it, as if built there
            self.error = exc

    def wait(self) -> None:
        self.thread.join()
        if self.error is not None:
            raise self.error


def run_flow(
    config: RunConfig,
    console: Console | None,
    server: TemporaryServer | None,
    catalog: CatalogBuild | None = None,
) -> dict[str, Any]:
    from prefect.exceptions import FailedRun  # Prefect and the flow load while the server starts

    from flows.night.flow import nightly_reports
    from flows.run.progress import RunProgress, listen

    console = console or Console(stderr=True)
    bar = Progress(
        TextColumn("[bold]tickers"),
        BarColumn(),
        MofNCompleteColumn(),
        TextColumn("{task.fields[detail]}"),
        TimeElapsedColumn(),
        console=console,
        transient=False,
    )
    task_id = bar.add_task("tickers", total=None, detail="starting Prefect...")

    def show(p: RunProgress) -> None:
        detail = (
            f"accepted {p.accepted}  rejected {p.rejected}  "
            f"tokens {p.tokens_used:,} of {p.tokens_budget:,}"
        )
        bar.update(task_id, total=p.tickers_total, completed=p.tickers_done, detail=detail)

    own = server.process.pid if server is not None and server.process is not None else None
    # Without PREFECT_API_URL, Prefect imported before the run starts its own server
    search = own is None and not os.environ.get("PREFECT_API_URL")
    with bar, listen(show), ServerWatch(as_command(config), own, search=search):
        if catalog is not None:
            catalog.wait()
        if server is not None:
            load_ahead()  # on the core the server's start leaves idle until it answers
            server.wait_ready(float(os.environ["PREFECT_SERVER_EPHEMERAL_STARTUP_TIMEOUT_SECONDS"]))
        try:
            with settled_heap():
                result = asyncio.run(nightly_reports(config))
        except FailedRun as exc:  # the flow's checks refused what the CLI's passed a moment ago
            check_night(config)  # the same refusal, worded with the CLI's options
            raise InputError(str(exc)) from None
        except RuntimeError as exc:
            if "ephemeral Prefect API server" not in str(exc):
                raise
            raise InputError(  # Prefect's own error holds the server's whole output
                f"the temporary Prefect server did not start ({str(exc).split('. ')[0]}); "
                "check PREFECT_HOME and that nothing stops it, then run the command again"
            ) from None
    assert isinstance(result, dict)
    return result


def load_ahead() -> None:
    """Load what the night loads later, while the run waits for its temporary server: the
    encoder Prefect serialises the flow run's parameters with as it creates the run, and the
    report and review templates the publisher compiles (together about 0.3 s of a night)."""
    with suppress(ImportError):  # Prefect's dependency, not ours: its absence costs nothing
        import fastapi.encoders  # noqa: F401

    from flows.publish.render import report_template
    from flows.review.page import review_template

    report_template()
    review_template()


@contextmanager
def settled_heap() -> Iterator[None]:
    """The night runs with what start-up built (modules, classes, schemas, settings) frozen
    out of the cyclic collector's sight, and with the collector on.

    Start-up only builds what lives all night, so `nightdesk run` starts with the collector off
    (its full collections during the imports took 0.3 s of every run); each of the night's full
    collections then walked those objects again: 77 ms each before, 20-35 ms frozen
    (`tests/bench/bench_night.py`). They are given back to the collector when the night ends."""
    gc.freeze()
    gc.enable()
    try:
        yield
    finally:
        gc.unfreeze()

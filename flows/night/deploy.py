"""The `nightly` deployment: the same flow on a cron schedule, its parameters (budget included)
a form in the Prefect UI. `nightdesk serve` registers it with a running server and serves it,
and registers the `shard` deployment that the workers of the pool run for sharded nights."""

from __future__ import annotations

import asyncio
import os
import sys
from collections.abc import Mapping
from pathlib import Path
from urllib.parse import urlsplit
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from prefect.deployments.runner import RunnerDeployment
from prefect.schedules import Cron

from contract.errors import InputError
from flows.night.flow import nightly_reports
from flows.night.shard import register_shard_deployment
from flows.run.config import DATA_ENV, OUT_ENV, OUT_ROOT_ENV, RunConfig
from flows.run.options import form_values
from flows.run.preflight import check_writable
from tools.catalog import check_data_dir

DEPLOYMENT = "nightly"


def nightly_deployment(
    *, cron: str, timezone: str, data_dir: Path, out_dir: Path, work_pool: str = "nightdesk"
) -> RunnerDeployment:
    """The deployment object, with its schedule checked before anything is registered."""
    try:
        ZoneInfo(timezone)
    except (ZoneInfoNotFoundError, ValueError):
        raise InputError(
            f"unknown time zone {timezone!r}: use an IANA name such as Europe/Madrid"
        ) from None
    try:
        schedule = Cron(cron, timezone=timezone)
    except ValueError:
        raise InputError(f"invalid cron expression {cron!r}: e.g. '30 18 * * 1-5'") from None
    config = RunConfig(data_dir=data_dir.resolve(), out_dir=out_dir.resolve(), work_pool=work_pool)
    deployment: RunnerDeployment = nightly_reports.to_deployment(  # type: ignore[assignment]
        name=DEPLOYMENT,
        schedules=[schedule],
        parameters={"config": form_values(config)},
        description="Nightly verified reports for every portfolio.",
        tags=["nightdesk"],
    )
    return deployment


def serve_deployment(
    *,
    cron: str,
    timezone: str,
    data_dir: Path,
    out_dir: Path,
    work_pool: str = "nightdesk",
    out_root: Path | None = None,
) -> None:
    """Register both deployments and run the scheduled nights in this process until stopped;
    without the work pool the nights still run, unsharded. The data, the output root and the
    server are checked first, so a serve that cannot work says so at once, not every night.
    The runs served here write only under `out_root` (default: `out_dir`), whatever folder a
    caller of the Prefect API asks for."""
    from prefect import serve

    root = Path(out_root or out_dir).resolve()
    if Path(out_dir).resolve() != root and root not in Path(out_dir).resolve().parents:
        raise InputError(f"--out {out_dir} is outside --out-root {root}: put it inside")
    check_data_dir(Path(data_dir))
    check_writable(Path(out_dir))
    asyncio.run(check_server())
    if warning := exposure_warning():
        print(warning, file=sys.stderr)
    os.environ[DATA_ENV] = str(Path(data_dir).resolve())  # the runs served here default to them
    os.environ[OUT_ENV] = str(Path(out_dir).resolve())
    os.environ[OUT_ROOT_ENV] = str(root)
    nightly = nightly_deployment(
        cron=cron, timezone=timezone, data_dir=data_dir, out_dir=out_dir, work_pool=work_pool
    )
    try:
        asyncio.run(register_shard_deployment(work_pool))
    except InputError as exc:
        print(f"shard deployment not registered: {exc}")
    serve(nightly)


LOOPBACK = frozenset({"127.0.0.1", "localhost", "::1", "[::1]"})


def exposure_warning(url: str | None = None, environ: Mapping[str, str] = os.environ) -> str | None:
    """A line to print when the Prefect API this deployment registers with listens beyond
    loopback and this process sends it no credentials: anyone who reaches it can start runs
    (Prefect's server takes an auth string, `PREFECT_SERVER_API_AUTH_STRING`; Prefect Cloud a
    key)."""
    if url is None:
        from prefect.settings import PREFECT_API_URL

        url = PREFECT_API_URL.value() or ""
    host = urlsplit(url).hostname or ""
    if not host or host in LOOPBACK:
        return None
    if environ.get("PREFECT_API_AUTH_STRING") or environ.get("PREFECT_API_KEY"):
        return None
    return (
        f"warning: the Prefect API at {url} is reachable beyond this machine and this process "
        "sends it no credentials: set PREFECT_SERVER_API_AUTH_STRING on the server and "
        "PREFECT_API_AUTH_STRING here, or serve it on 127.0.0.1"
    )


async def check_server() -> None:
    """A Prefect server answers at PREFECT_API_URL (a temporary one would vanish with us)."""
    from prefect.client.orchestration import get_client
    from prefect.settings import PREFECT_API_URL

    url = PREFECT_API_URL.value()
    if not url:
        raise InputError(
            "serve needs a Prefect server: start one (`prefect server start`) and set "
            "PREFECT_API_URL to its address, e.g. http://127.0.0.1:4200/api"
        )
    async with get_client() as client:
        failure = await client.api_healthcheck()
    if failure is not None:
        raise InputError(
            f"no Prefect server answers at {url}: start it (`prefect server start`) or set "
            "PREFECT_API_URL to the address of a running one"
        )

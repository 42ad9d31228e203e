"""`nightdesk budget --date D`: the ledger of a finished run, or one line saying why not."""

from __future__ import annotations

import json
import subprocess
import sys
from datetime import date
from pathlib import Path

import pytest

from agent.budget.limits import BudgetConfig
from agent.budget.meter import RunBudget
from contract.trace import Usage
from flows.cli.main import app

DAY = date(2024, 6, 28)


def write_run(root: Path) -> None:
    config = BudgetConfig(run_tokens=10_000, question_tokens=2_000, max_output_tokens=500)
    run = RunBudget(config, ["MSFT", "AAPL"], provider="openai", model="gpt-4o-mini")
    for ticker in ("MSFT", "AAPL"):
        meter = run.ticker(ticker).question(f"{ticker}:move", "daily_move")
        reservation = meter.reserve(900, prompt_tokens=400)
        assert reservation is not None
        meter.settle(reservation, Usage(input_tokens=380, cached_tokens=128, output_tokens=95))
    day = root / DAY.isoformat()
    day.mkdir(parents=True)
    manifest = {"date": DAY.isoformat(), "budget": run.ledger().model_dump(mode="json")}
    (day / "manifest.json").write_text(json.dumps(manifest), encoding="utf-8")


def run_command(*args: str) -> subprocess.CompletedProcess[str]:
    """The installed `nightdesk` entry point, as an operator runs it."""
    nightdesk = Path(sys.executable).with_name("nightdesk")
    return subprocess.run(
        [str(nightdesk), *args], capture_output=True, text=True, timeout=120, check=False
    )


def test_prints_the_ledger_of_a_run(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    write_run(tmp_path)
    monkeypatch.setenv("COLUMNS", "200")
    try:
        app(["budget", "--date", DAY.isoformat(), "--out", str(tmp_path)])
    except SystemExit as exc:
        assert not exc.code
    out = " ".join(capsys.readouterr().out.split())
    assert "950 of 10,000 used" in out
    assert "gpt-4o-mini" in out and "daily_move" in out
    assert "760" in out and "256" in out and "190" in out


@pytest.mark.parametrize(
    ("manifest", "expected"),
    [
        (None, "no run for 2024-06-28"),
        ("{}", "holds no readable budget"),
        ("not json", "cannot read"),
    ],
)
def test_missing_or_broken_run_is_one_line_and_nonzero(
    tmp_path: Path, manifest: str | None, expected: str
) -> None:
    if manifest is not None:
        (tmp_path / DAY.isoformat()).mkdir()
        (tmp_path / DAY.isoformat() / "manifest.json").write_text(manifest, encoding="utf-8")
    done = run_command("budget", "--date", DAY.isoformat(), "--out", str(tmp_path))
    assert done.returncode == 2
    assert done.stdout == ""
    assert done.stderr.count("\n") == 1
    assert done.stderr.startswith("nightdesk: error: ")
    assert expected in done.stderr


def test_piped_output_keeps_every_figure_whole(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Into a pipe or a cron log the table is not cut to 80 columns ("13,…")."""
    write_run(tmp_path)
    monkeypatch.delenv("COLUMNS", raising=False)
    done = run_command("budget", "--date", DAY.isoformat(), "--out", str(tmp_path))
    assert done.returncode == 0, done.stderr
    assert "…" not in done.stdout
    assert "gpt-4o-mini" in done.stdout and "daily_move" in done.stdout


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (
            ("budget", "--date", "2024-13-01"),
            'Invalid value for --date: unable to convert "2024-13-01" into date.',
        ),
        (("budget", "--date", "2024-06-28", "--zzz"), "Unknown option: --zzz."),
        (("budgets",), 'Unknown command "budgets".'),
    ],
)
def test_a_command_line_that_does_not_parse_is_one_line_and_exit_2(
    args: tuple[str, ...], message: str
) -> None:
    done = run_command(*args)
    assert done.returncode == 2 and done.stdout == ""
    (line,) = done.stderr.splitlines()
    assert line.startswith(f"nightdesk: error: {message}")


def test_after_a_resumed_night_the_figures_are_the_nights_totals(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from datetime import UTC, datetime

    from flows.publish.layout import RunLayout
    from flows.run.attempts import Attempt, save_attempt

    write_run(tmp_path)  # the published attempt: 950 tokens
    config = BudgetConfig(run_tokens=10_000, question_tokens=2_000, max_output_tokens=500)
    layout = RunLayout(tmp_path, DAY)
    for number, (tickers, spent) in enumerate(((["MSFT"], 4_000), (["AAPL"], 0))):
        run = RunBudget(config, tickers, provider="openai", model="gpt-4o-mini")
        if spent:
            meter = run.ticker(tickers[0]).question(f"{tickers[0]}:news", "news")
            reservation = meter.reserve(1_900, prompt_tokens=400)
            assert reservation is not None
            meter.settle(reservation, Usage(input_tokens=spent - 500, output_tokens=500))
        started = datetime(2024, 6, 28, 22, number, tzinfo=UTC)
        save_attempt(
            layout,
            Attempt(run_id=f"run-{number}", started_at=started, answered=True, ledger=run.ledger()),
        )
    monkeypatch.setenv("COLUMNS", "200")
    try:
        app(["budget", "--date", DAY.isoformat(), "--out", str(tmp_path)])
    except SystemExit as exc:
        assert not exc.code
    out = " ".join(capsys.readouterr().out.split())
    assert "Token budget of the night (2 attempts): 4,000 used" in out
    assert "news" in out and "night" in out

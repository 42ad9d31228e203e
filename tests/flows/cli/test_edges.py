"""The command line's edges, through the installed `nightdesk` entry point: listing the tools,
a tool's date taken from --date, defaults in help, and output piped into `head`."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pyarrow.parquet as pq
import pytest

from tools.registry import TOOLS

NIGHTDESK = Path(sys.executable).with_name("nightdesk")


def nightdesk(*args: str, columns: int = 200) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "COLUMNS": str(columns)}
    return subprocess.run(
        [str(NIGHTDESK), *args], capture_output=True, text=True, timeout=120, env=env
    )


def test_tools_list_shows_every_tool_with_its_description_and_arguments() -> None:
    done = nightdesk("tools", "list")
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    headers = [line for line in lines if not line.startswith(" ")]
    assert [h.split("(")[0] for h in headers] == list(TOOLS)
    assert "search_news(ticker, start, end, limit?)" in headers
    assert "list_tables()" in headers
    price = lines.index("get_price(ticker, date)")
    assert lines[price + 1].strip() == TOOLS["get_price"].description
    assert lines[price + 3].strip() == "date: ISO date YYYY-MM-DD"
    assert "    limit: Most recent headlines to return (1-10) (default 5)" in lines


def test_tools_call_takes_the_date_from_the_date_option(small_data: Path) -> None:
    def price(args: dict[str, str]) -> dict[str, object]:
        done = nightdesk(
            "tools", "call", "get_price", "--date", "2024-12-20",
            "--args", json.dumps(args), "--data", str(small_data),
        )  # fmt: skip
        assert done.returncode == 0, done.stdout + done.stderr
        return json.loads(done.stdout)

    symbol = pq.read_table(small_data / "companies.parquet").column("ticker")[0].as_py()
    implied = price({"ticker": symbol})
    assert implied["date"] == "2024-12-20"
    assert implied == price({"ticker": symbol, "date": "2024-12-20"})
    assert price({"ticker": symbol, "date": "2024-06-03"})["date"] == "2024-06-03"


def test_run_help_shows_budget_defaults_and_no_empty_flags() -> None:
    done = nightdesk("run", "--help")
    assert done.returncode == 0, done.stderr
    lines = {line.split()[1]: line for line in done.stdout.splitlines() if "│ --" in line}
    assert "[default: 2,000,000]" in lines["--run-tokens"]
    assert "[default: 60,000, at most --run-tokens]" in lines["--question-tokens"]
    assert "[default: what the provider's" in lines["--requests-per-minute"]
    assert "[default: what the provider's" in lines["--tokens-per-minute"]
    assert "--empty-" not in done.stdout
    assert "--empty-" not in nightdesk("data", "import", "--help").stdout


def test_output_into_a_closed_pipe_ends_quietly() -> None:
    for args in (("tools", "list"), ("data", "check", "data/sample")):
        read, write = os.pipe()
        os.close(read)  # the reader (`head`) has gone before the first line is written
        with subprocess.Popen([str(NIGHTDESK), *args], stdout=write, stderr=subprocess.PIPE) as p:
            os.close(write)
            _, err = p.communicate(timeout=120)
        assert err.decode() == "", args
        assert p.returncode == 141, args


def test_a_sharded_night_without_a_server_is_refused_at_once(
    small_data: Path, tmp_path: Path
) -> None:
    env = {k: v for k, v in os.environ.items() if k != "PREFECT_API_URL"}
    env["PREFECT_HOME"] = str(tmp_path / "prefect")  # no profile that names a server
    out = tmp_path / "out"
    done = subprocess.run(
        [str(NIGHTDESK), "run", "--data", str(small_data), "--out", str(out), "--shards", "2"],
        capture_output=True, text=True, timeout=120, env=env,
    )  # fmt: skip
    assert done.returncode == 2 and done.stdout == ""
    (line,) = done.stderr.splitlines()
    assert line.startswith("nightdesk: error: --shards above 1 needs a Prefect server")
    assert "set PREFECT_API_URL" in line
    assert not (out / ".ledgers").exists(), "refused before any attempt started"


@pytest.mark.parametrize(
    ("options", "why"),
    [
        (["--provider", "offline"], "--batch needs --provider openai or anthropic"),
        (["--provider", "openai", "--mode", "react"], "--batch needs --mode plan"),
    ],
)
def test_a_batch_night_without_a_batch_interface_is_refused_in_one_line(
    small_data: Path, tmp_path: Path, options: list[str], why: str
) -> None:
    out = tmp_path / "out"
    done = nightdesk("run", "--data", str(small_data), "--out", str(out), "--batch", *options)
    assert done.returncode == 2 and done.stdout == ""
    (line,) = done.stderr.splitlines()
    assert line.startswith(f"nightdesk: error: {why}")
    assert not out.exists(), "refused before anything was written"


@pytest.mark.parametrize(
    ("command", "why"),
    [
        (["run", "--date", "9999-12-31"], "report date 9999-12-31 has no next day"),
        (["run", "--date", "9999-12-30"], "has no prices after 2024-12-31 up to 9999-12-30"),
        (["run", "--date", "0001-01-01"], "has no prices up to 0001-01-01"),
        (["ask", "--date", "9999-12-31", "--ticker", "AAA", "move"], "has no next day"),
        (["tools", "call", "get_price", "--date", "9999-12-31"], "has no next day"),
    ],
)
def test_a_date_outside_the_data_is_one_line_before_anything_is_built(
    small_data: Path, tmp_path: Path, command: list[str], why: str
) -> None:
    out = tmp_path / "out"
    where = ["--out", str(out)] if command[0] == "run" else []
    done = nightdesk(*command, "--data", str(small_data), *where)
    assert done.returncode == 2 and done.stdout == ""
    (line,) = done.stderr.splitlines()
    assert line.startswith("nightdesk: error: ") and why in line
    assert not out.exists(), "refused before a catalog was built or a run created"

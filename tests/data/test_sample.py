"""The bundled sample: valid, small, and exactly what the command recorded in data/README.md makes."""

from __future__ import annotations

import re
import shlex
import subprocess
import sys
from datetime import date
from pathlib import Path

import pyarrow.parquet as pq

from data.calendar import next_session, previous_session
from data.check import check_dataset
from data.contract import TABLES
from data.facts import read_facts

ROOT = Path(__file__).resolve().parents[2]
SAMPLE = ROOT / "data" / "sample"
NIGHTDESK = Path(sys.executable).with_name("nightdesk")


def recorded_command() -> list[str]:
    readme = (ROOT / "data" / "README.md").read_text()
    (line,) = re.findall(r"^nightdesk data generate .*$", readme, flags=re.MULTILINE)
    return shlex.split(line)


def test_sample_passes_the_check_and_meets_the_size_goals() -> None:
    assert check_dataset(SAMPLE) == []
    facts = read_facts(SAMPLE)
    assert facts.tickers >= 50 and facts.portfolios == 3
    first_session = next_session(date(facts.start.year - 1, 12, 31))
    last_session = previous_session(date(facts.end.year + 1, 1, 1))
    assert facts.start <= first_session and facts.end >= last_session
    assert facts.end.year - facts.start.year + 1 >= 2
    assert sum(p.stat().st_size for p in SAMPLE.iterdir()) < 5_000_000


def test_sample_is_reproduced_by_the_recorded_command(tmp_path: Path) -> None:
    args = recorded_command()
    out = args.index("--out") + 1
    assert Path(args[out]) == Path("data/sample")
    args[out] = str(tmp_path / "again")
    done = subprocess.run([str(NIGHTDESK), *args[1:]], capture_output=True, text=True, cwd=ROOT)
    assert done.returncode == 0, done.stderr
    for table in TABLES.values():
        regenerated = pq.read_table(tmp_path / "again" / table.filename)
        assert regenerated.equals(pq.read_table(SAMPLE / table.filename)), table.name
    assert read_facts(tmp_path / "again") == read_facts(SAMPLE)

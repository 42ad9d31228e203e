"""The suite's own configuration: warnings stay errors, tests run in a random order."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

WARNING_TEST = """
import warnings

def test_new_deprecation():
    warnings.warn("a call that will go away", DeprecationWarning)
"""


def run_pytest(test_file: Path, *args: str) -> subprocess.CompletedProcess[str]:
    """pytest on one file under this project's configuration (pyproject.toml)."""
    command = [sys.executable, "-m", "pytest", str(test_file), "-c", str(ROOT / "pyproject.toml")]
    command += ["--rootdir", str(test_file.parent), "-p", "no:cacheprovider", *args]
    return subprocess.run(command, capture_output=True, text=True, timeout=120, check=False)


def test_a_new_deprecation_warning_fails_the_suite(tmp_path: Path) -> None:
    test_file = tmp_path / "test_warns.py"
    test_file.write_text(WARNING_TEST)
    done = run_pytest(test_file)
    assert done.returncode == 1, done.stdout
    assert "DeprecationWarning: a call that will go away" in done.stdout


def test_the_order_is_random_and_its_seed_printed(tmp_path: Path) -> None:
    test_file = tmp_path / "test_many.py"
    test_file.write_text("".join(f"def test_{i}():\n    pass\n" for i in range(30)))
    orders = []
    for seed in ("1", "2"):
        done = run_pytest(test_file, "-v", "-p", "randomly", f"--randomly-seed={seed}")
        assert done.returncode == 0, done.stdout
        assert f"--randomly-seed={seed}" in done.stdout
        orders.append(
            [line.split("::")[1].split()[0] for line in done.stdout.splitlines() if "::" in line]
        )
    assert sorted(orders[0]) == sorted(orders[1]) and orders[0] != orders[1]

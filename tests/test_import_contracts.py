"""The import contracts of `make lint` are as strict as the README's words: an import against them
fails lint-imports. The packages and pyproject.toml are copied to a temporary folder once; each
test adds one import there and runs lint-imports on the copy (about a second each)."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("contract", "data", "tools", "agent", "verifier", "flows")
LINT_IMPORTS = Path(sys.executable).with_name("lint-imports")


@pytest.fixture(scope="module")
def tree(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A copy of the packages and pyproject.toml, shared by the tests of this module."""
    copy = tmp_path_factory.mktemp("tree")
    for package in PACKAGES:
        shutil.copytree(ROOT / package, copy / package, ignore=shutil.ignore_patterns("*.pyc"))
    shutil.copy(ROOT / "pyproject.toml", copy)
    return copy


def lint(tree: Path, module: str = "", statement: str = "") -> subprocess.CompletedProcess[str]:
    """lint-imports over the copy, with `statement` appended to `module` (a path) for the run."""
    path = tree / (module or "contract/__init__.py")
    original = path.read_text()
    if module:
        path.write_text(original + f"\n{statement}\n")
    command = [str(LINT_IMPORTS), "--no-cache", "--config", "pyproject.toml"]
    try:
        return subprocess.run(
            command, cwd=tree, capture_output=True, text=True, timeout=120, check=False
        )
    finally:
        path.write_text(original)


def status(done: subprocess.CompletedProcess[str], contract: str) -> str:
    """KEPT or BROKEN: what the run's summary says of the contract whose name holds `contract`."""
    summary = " ".join(done.stdout.split("Analyzed", 1)[-1].split("Contracts:", 1)[0].split())
    assert contract in summary, done.stdout + done.stderr
    found = re.search(r"\b(KEPT|BROKEN)\b", summary.split(contract, 1)[1])
    return found.group(1) if found else ""


def test_the_copy_keeps_every_contract(tree: Path) -> None:
    done = lint(tree)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "0 broken" in done.stdout
    assert status(done, "Inside verifier") == "KEPT"


@pytest.mark.parametrize(
    ("module", "statement", "contract"),
    [
        ("flows/night/flow.py", "import rich", "Terminal rendering (rich)"),
        ("agent/loop.py", "import tiktoken", "Token counts live in agent.providers"),
        ("flows/run/config.py", "import transformers", "Token counts live in agent.providers"),
        ("verifier/grammar/dates.py", "import verifier.rules.case", "Inside verifier"),
        ("verifier/scanner.py", "from verifier import verify", "Inside verifier"),
        ("agent/prompts.py", "import agent.loop", "Inside agent"),
        ("tools/values.py", "import tools.registry", "Inside tools"),
    ],
)
def test_an_import_against_the_contracts_fails(
    tree: Path, module: str, statement: str, contract: str
) -> None:
    done = lint(tree, module, statement)
    assert done.returncode != 0
    assert status(done, contract) == "BROKEN", done.stdout

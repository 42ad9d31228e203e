"""What the README says that code can check: every command of its Commands table exists with the
options it names, the defaults it states are the code's, and how tickers run (no Prefect task
per ticker). The README is read as it is written; a row or a sentence it no longer has fails
with its name, so a rewrite updates this test on purpose."""

from __future__ import annotations

import ast
import io
import re
from pathlib import Path

import pytest
from rich.console import Console

from agent.budget.limits import BudgetConfig
from agent.pricing import load_prices
from agent.providers.anthropic import AnthropicProvider
from agent.providers.openai import OpenAIProvider
from agent.providers.transport import PooledTransport
from contract.tools import MAX_DEPTH, MAX_RESULT_CHARS
from flows.cli.main import app
from tools.portfolio_table import MATERIAL_CONTRIBUTION_PCT, MATERIAL_MOVE_PCT

ROOT = Path(__file__).resolve().parents[1]
README = (ROOT / "README.md").read_text()
FLAT = " ".join(README.split())
"""The README with every run of white space one space: sentences wrap anywhere."""
FLAG = re.compile(r"(?<![\w-])--[a-z][a-z-]*")


def commands_table() -> dict[tuple[str, ...], set[str]]:
    """Each command path of the README's Commands table, with the flags its row names."""
    section = README.split("## Commands", 1)[1].split("\n## ", 1)[0]
    commands: dict[tuple[str, ...], set[str]] = {}
    for row in section.splitlines():
        if not row.startswith("| `nightdesk"):
            continue
        first: list[tuple[str, ...]] = []
        for snippet in re.findall(r"`([^`]+)`", row.replace("\\|", "|")):
            if not snippet.startswith("nightdesk "):
                for path in first:
                    commands[path] |= set(FLAG.findall(snippet))
                continue
            words: list[str] = []
            for word in snippet.split()[1:]:
                if not re.fullmatch(r"[a-z]+(\|[a-z]+)*", word):
                    break
                words.append(word)
            *parents, last = words
            paths = [(*parents, choice) for choice in last.split("|")]
            for path in paths:
                commands.setdefault(path, set()).update(FLAG.findall(snippet))
            first = first or paths
    return commands


def help_text(path: tuple[str, ...]) -> str:
    out = io.StringIO()
    app.help_print(list(path), console=Console(file=out, width=400, color_system=None))
    return out.getvalue()


COMMANDS = commands_table()


def test_the_commands_table_is_read() -> None:
    assert {("run",), ("ask",), ("verify",), ("review", "decide"), ("data", "import")} <= set(
        COMMANDS
    )
    assert {"--date", "--provider", "--mode", "--fresh"} <= COMMANDS[("run",)]


@pytest.mark.parametrize("path", sorted(COMMANDS), ids=" ".join)
def test_each_command_of_the_readme_exists_with_its_options(path: tuple[str, ...]) -> None:
    text = help_text(path)
    assert text.startswith(f"Usage: nightdesk {' '.join(path)}"), text.splitlines()[:1]
    offered = set(FLAG.findall(text))
    assert COMMANDS[path] <= offered, f"nightdesk {' '.join(path)} lacks {COMMANDS[path] - offered}"


def default_shown(path: tuple[str, ...], flag: str) -> str:
    """The `[default: ...]` the help shows for `flag`."""
    text = " ".join(help_text(path).split())
    found = re.search(re.escape(flag) + r" .*?\[default: ([^\]]+)\]", text)
    assert found, f"no default shown for {flag}"
    return found.group(1)


def readme_says(pattern: str) -> re.Match[str]:
    found = re.search(pattern, FLAT)
    assert found, f"the README no longer says /{pattern}/"
    return found


def test_the_run_defaults_the_readme_states() -> None:
    readme_says(r"`--provider offline` \(default\)")
    assert default_shown(("run",), "--provider") == "offline"
    readme_says(r"`--batch-window-minutes` \(default a day\)")
    assert float(default_shown(("run",), "--batch-window-minutes")) == 24 * 60
    readme_says(r"`--batch-fallback direct`, the default")
    assert default_shown(("run",), "--batch-fallback") == "direct"
    product = readme_says(r"default the product's (\d[\d,]*\d)").group(1)
    assert BudgetConfig().run_tokens == int(product.replace(",", ""))
    shown = default_shown(("run",), "--run-tokens")
    assert int(shown.replace(",", "").replace("_", "")) == BudgetConfig().run_tokens


def test_the_budget_and_bounds_the_readme_states(no_proxy: None) -> None:
    factor = readme_says(r"`usage_fault_factor` \((\d+)\)").group(1)
    assert BudgetConfig().usage_fault_factor == int(factor)
    move = readme_says(r"day P&L is at least ([\d.]+)% of its value").group(1)
    contribution = readme_says(r"at least ([\d.]+) percentage points").group(1)
    assert (float(move), float(contribution)) == (MATERIAL_MOVE_PCT, MATERIAL_CONTRIBUTION_PCT)
    depth, kib = readme_says(r"nested at most (\d+) levels and (\d+) KiB").groups()
    assert (int(depth), int(kib) * 1024) == (MAX_DEPTH, MAX_RESULT_CHARS)
    module = readme_says(r"over aiohttp's connection pool \(`([\w/]+)\.py`").group(1)
    assert PooledTransport.__module__ == module.replace("/", ".")
    for provider in (OpenAIProvider("m", api_key="k"), AnthropicProvider("m", api_key="k")):
        assert isinstance(provider.client._client._transport, PooledTransport)
    batch = readme_says(r"`batch` in `agent/prices.json`, ([\d.]+)").group(1)
    assert {price.batch for price in load_prices().models.values()} == {float(batch)}


def takes_prefect_task(node: ast.AST) -> bool:
    """`from prefect import task` (or from a prefect module), or `prefect.task`."""
    if isinstance(node, ast.ImportFrom):
        return (node.module or "").startswith("prefect") and any(
            alias.name == "task" for alias in node.names
        )
    return (
        isinstance(node, ast.Attribute)
        and node.attr == "task"
        and isinstance(node.value, ast.Name)
        and node.value.id == "prefect"
    )


def prefect_tasks() -> list[str]:
    """The modules under flows/ that take Prefect's `task`."""
    return [
        str(path.relative_to(ROOT))
        for path in sorted((ROOT / "flows").rglob("*.py"))
        if any(takes_prefect_task(node) for node in ast.walk(ast.parse(path.read_text())))
    ]


def test_how_tickers_run_is_what_the_readme_says() -> None:
    one_task = "one Prefect task per ticker" in FLAT
    no_task = "no Prefect task per ticker" in FLAT
    assert one_task != no_task, "the README says neither (or both) of how tickers run"
    assert bool(prefect_tasks()) == one_task, prefect_tasks()

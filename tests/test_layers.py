"""The import graph of the project's packages has no cycle at all, lazy imports included
(`make lint` checks the layers between rooms with import-linter)."""

from __future__ import annotations

import grimp

PACKAGES = ("contract", "data", "tools", "agent", "verifier", "flows")


def cycles(graph: grimp.ImportGraph) -> list[list[str]]:
    """Strongly connected groups of more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(module: str) -> None:
        index[module] = low[module] = len(index)
        stack.append(module)
        on_stack.add(module)
        for other in graph.find_modules_directly_imported_by(module):
            if other not in graph.modules or other.split(".")[0] not in PACKAGES:
                continue
            if other not in index:
                visit(other)
                low[module] = min(low[module], low[other])
            elif other in on_stack:
                low[module] = min(low[module], index[other])
        if low[module] == index[module]:
            group = []
            while True:
                top = stack.pop()
                on_stack.discard(top)
                group.append(top)
                if top == module:
                    break
            if len(group) > 1:
                found.append(sorted(group))

    for module in sorted(graph.modules):
        if module.split(".")[0] in PACKAGES and module not in index:
            visit(module)
    return found


def test_no_module_imports_itself_through_others() -> None:
    graph = grimp.build_graph(*PACKAGES, cache_dir=None)
    assert cycles(graph) == []


def test_the_cycle_finder_sees_a_cycle() -> None:
    graph = grimp.build_graph(*PACKAGES, cache_dir=None)
    graph.add_import(importer="contract.trace", imported="flows.cli.main")
    assert any("contract.trace" in group for group in cycles(graph))

"""The import structure: nothing outside ``memlab.cli`` imports the CLI, and no two
modules import each other (directly or round a longer loop).

Imports are read from the source (every ``import`` statement, including those inside
functions), so a lazy import counts as much as one at the top of a module.
"""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[1] / "memlab"


def module_name(path: Path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


MODULES = {module_name(p): p for p in sorted(PACKAGE.rglob("*.py"))}


def _target(name: str) -> str | None:
    """The memlab module an imported name lives in (``memlab.a.b.c`` → ``memlab.a.b``)."""
    while name and name not in MODULES:
        name = name.rpartition(".")[0]
    return name or None


def imports_of(module: str) -> set[str]:
    """memlab modules that ``module`` imports anywhere in its source."""
    path = MODULES[module]
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join([*anchor, base] if base else anchor)
            names = [f"{base}.{a.name}" for a in node.names]
        else:
            continue
        for name in names:
            target = _target(name) if name.startswith("memlab") else None
            if target and target != module:
                found.add(target)
    return found


GRAPH = {m: imports_of(m) for m in MODULES}


def cycles() -> list[list[str]]:
    """Strongly connected components with more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    out: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        for w in GRAPH[v]:
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                out.append(sorted(component))

    for v in GRAPH:
        if v not in index:
            visit(v)
    return out


def is_cli(module: str) -> bool:
    """The CLI and ``python -m memlab``, its entry point."""
    return module in ("memlab.cli", "memlab.__main__") or module.startswith("memlab.cli.")


def test_nothing_outside_the_cli_imports_it() -> None:
    offenders = {m: sorted(filter(is_cli, GRAPH[m])) for m in GRAPH if not is_cli(m)}
    assert {m: v for m, v in offenders.items() if v} == {}


def test_no_import_cycles() -> None:
    assert cycles() == []


def test_the_graph_sees_lazy_imports() -> None:
    # guards the two tests above against a parser that finds nothing
    assert "memlab.cli.demo" in GRAPH["memlab.cli.search"]  # imported inside cmd_demo
    assert "memlab.retrieval.ranking" in GRAPH["memlab.retrieval.pipeline"]


def test_importing_the_workbench_loads_no_cli_module() -> None:
    code = (
        "import sys, memlab.workbench, memlab.eval.compare.experiment, memlab.sweep.runner, "
        "memlab.report.run_report, memlab.demo\n"
        "print(sorted(m for m in sys.modules if m == 'memlab.cli' or m.startswith('memlab.cli.')))"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=120
    )
    assert out.stdout.strip() == "[]"


def test_the_cluster_module_imports_no_work_it_runs() -> None:
    # the sweep and dream layers hand memlab.cluster their warm-ups (connect(warmers=…))
    assert GRAPH["memlab.cluster"] == {"memlab.errors", "memlab.parallel"}

"""The CLI starts light: the parser and a search import nothing heavy.

``memlab --help`` and ``memlab search`` run in a fresh interpreter; afterwards none
of pandas, scipy, matplotlib, ranx or numba has been imported (they cost seconds
to import, and neither command needs them). Speed itself is measured by
``benchmarks/bench_cli.py``, not here.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from tests.conftest import T0, WS, write

HEAVY = ("pandas", "scipy", "matplotlib", "ranx", "numba", "torch", "sentence_transformers")
PROBE = (
    "import json, sys\n"
    "from memlab.cli import main\n"
    "try:\n"
    "    main(sys.argv[1:])\n"
    "except SystemExit:\n"
    "    pass\n"
    f"heavy = {{m.split('.')[0] for m in sys.modules}} & set({HEAVY!r})\n"
    "print(json.dumps(sorted(heavy)), file=sys.stderr)\n"
)


def heavy_modules(*argv: str) -> list[str]:
    out = subprocess.run(
        [sys.executable, "-c", PROBE, *argv], capture_output=True, text=True, timeout=120
    )
    loaded: list[str] = json.loads(out.stderr.strip().splitlines()[-1])
    return loaded


def test_help_imports_nothing_heavy() -> None:
    assert heavy_modules("--help") == []
    assert heavy_modules("search", "--help") == []


def test_a_search_imports_nothing_heavy(tmp_path: Path) -> None:
    root = tmp_path / "memory"
    write(root, f"{WS}/MEMORY.md", "# Project\n\nCI runs on Node 22.\n")
    write(root, f"{WS}/sessions/2026-01-02-ci-00000001.md", "# CI\n\nMoved CI to Node 22.\n")
    now = str(T0)
    assert heavy_modules("index", str(root), "--workspace", WS, "--now", now) == []
    assert heavy_modules("search", str(root), "node version", "--now", now, "--json") == []


def test_the_probe_sees_heavy_imports() -> None:
    """Guards the tests above against a probe that cannot see anything."""
    assert "pandas" in heavy_modules("dream", "simulate", "--users", "3", "--days", "1", "--json")

"""CLI start-up: ``memlab --help`` and a warm ``memlab search``, in fresh processes.

Each figure is the median of five runs with its spread (min–max), in CPU seconds of
the process (user + system, from the children's rusage: the shared machine's load
moves wall time, not CPU) and in wall seconds:

* ``python -c pass`` (the anchor: an interpreter that does nothing);
* ``memlab --help`` (the parser only), on a copy of the package without ``.pyc``
  files (a fresh checkout: every module it imports is compiled) and with them;
* ``memlab search ROOT QUERY`` on the small demo memory, already indexed (sync
  finds nothing to do: start-up, keywords, FTS, the scoring core, printing).

    python benchmarks/bench_cli.py [--json]
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

RUNS = 5


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def timed(args: list[str], n: int = RUNS, env: dict[str, str] | None = None) -> dict[str, float]:
    """Median CPU and wall seconds of ``args`` over ``n`` fresh processes, with the spread."""
    cpu, wall = [], []
    for _ in range(n):
        before, start = _children_cpu(), time.perf_counter()
        subprocess.run(args, check=True, capture_output=True, env=env)
        wall.append(time.perf_counter() - start)
        cpu.append(_children_cpu() - before)
    return {
        "cpu_s": round(statistics.median(cpu), 3),
        "cpu_min_s": round(min(cpu), 3),
        "cpu_max_s": round(max(cpu), 3),
        "wall_s": round(statistics.median(wall), 3),
    }


def without_pyc(tmp: Path) -> dict[str, str]:
    """An environment whose ``memlab`` is a copy of the package without ``.pyc`` files,
    imported first and never cached (``-B``): what a fresh checkout pays."""
    import memlab

    src = Path(memlab.__file__).resolve().parent
    shutil.copytree(src, tmp / "memlab", ignore=shutil.ignore_patterns("__pycache__"))
    return {**os.environ, "PYTHONPATH": str(tmp), "PYTHONDONTWRITEBYTECODE": "1"}


def measure() -> dict[str, dict[str, float]]:
    py = sys.executable
    with tempfile.TemporaryDirectory(prefix="bench-cli-") as tmp:
        demo = Path(tmp) / "demo"
        subprocess.run([py, "-m", "memlab", "demo", "--out", str(demo)], check=True,
                       capture_output=True)  # fmt: skip
        search = [py, "-m", "memlab", "search", str(demo / "memory"), "which node version"]
        subprocess.run(search, check=True, capture_output=True)  # indexed, caches warm
        bare = without_pyc(Path(tmp) / "checkout")
        return {
            "python": timed([py, "-c", "pass"]),
            "help_no_pyc": timed([py, "-B", "-m", "memlab", "--help"], env=bare),
            "help": timed([py, "-m", "memlab", "--help"]),
            "search": timed(search),
        }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--json", action="store_true")
    out = measure()
    print(json.dumps(out) if ap.parse_args().json else json.dumps(out, indent=2))


if __name__ == "__main__":
    main()

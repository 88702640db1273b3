"""CLI start-up: ``memlab --help`` and a warm ``memlab search``, in fresh processes.

Times, best of three, from the interpreter's start to its exit:

* ``python -c pass`` (the anchor: an interpreter that does nothing);
* ``memlab --help`` (the parser only);
* ``memlab search ROOT QUERY`` on the small demo memory, already indexed (sync
  finds nothing to do: start-up, keywords, FTS, the scoring core, printing).

    python benchmarks/bench_cli.py [--json]
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
import time
from pathlib import Path


def best_of(args: list[str], n: int = 3) -> float:
    times = []
    for _ in range(n):
        start = time.perf_counter()
        subprocess.run(args, check=True, capture_output=True)
        times.append(time.perf_counter() - start)
    return min(times)


def measure() -> dict[str, float]:
    py = sys.executable
    with tempfile.TemporaryDirectory(prefix="bench-cli-") as tmp:
        demo = Path(tmp) / "demo"
        subprocess.run([py, "-m", "memlab", "demo", "--out", str(demo)], check=True,
                       capture_output=True)  # fmt: skip
        search = [py, "-m", "memlab", "search", str(demo / "memory"), "which node version"]
        subprocess.run(search, check=True, capture_output=True)  # indexed, caches warm
        return {
            "python_s": round(best_of([py, "-c", "pass"]), 3),
            "help_s": round(best_of([py, "-m", "memlab", "--help"]), 3),
            "search_s": round(best_of(search), 3),
        }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--json", action="store_true")
    out = measure()
    print(json.dumps(out) if ap.parse_args().json else json.dumps(out, indent=2))


if __name__ == "__main__":
    main()

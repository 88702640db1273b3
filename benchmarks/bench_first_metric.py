"""A fresh process's first metric, once warm: memlab's measures against ranx's.

A notebook kernel is a fresh process. Each probe runs in a new interpreter with
the caches of a previous run in place (the replay of the shipped dataset and
numba's compilation cache: "warm") and times, from the interpreter's start:

* ``memlab``: ``run_experiment("agent-memory", ["hybrid"])`` — import, the
  replayed timeline from the cache, ranking, every default measure (memlab's
  vectorised measures; ranx is not imported) — to the first nDCG@10;
* ``ranx`` (the anchor, the reference before): importing ranx and computing the
  same family of metrics on one tiny run (``ranx_backend.warm_up``) — its numba
  code loads from the persistent cache, yet Qrels/Run's typed-dict operations
  compile again in every process.

Each probe runs three times; the best is reported.

    python benchmarks/bench_first_metric.py [--json]
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time

MEMLAB = (
    "import time\n"
    "from memlab.eval.experiment import run_experiment\n"
    "exp = run_experiment('agent-memory', ['hybrid'])\n"
    "value = float(exp.table().iloc[0]['nDCG@10'])\n"
    "import sys, json\n"
    "print(json.dumps({'nDCG@10': value, 'ranx_imported': 'ranx' in sys.modules}))\n"
)
RANX = "import json\nfrom memlab.eval.ranx_backend import warm_up\nprint(json.dumps(warm_up()))\n"


def probe(code: str) -> tuple[float, dict[str, object]]:
    """Wall time of a fresh interpreter running ``code`` (start to exit) and its output."""
    start = time.perf_counter()
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, env=os.environ
    )
    elapsed = time.perf_counter() - start
    return elapsed, json.loads(out.stdout.strip().splitlines()[-1])


def measure() -> dict[str, object]:
    probe(MEMLAB)  # warm: the replay cache and numba's cache exist after one run
    probe(RANX)
    memlab = min((probe(MEMLAB) for _ in range(3)), key=lambda r: r[0])
    ranx = min((probe(RANX) for _ in range(3)), key=lambda r: r[0])
    return {
        "memlab_first_metric_s": round(memlab[0], 3),
        "memlab": memlab[1],
        "ranx_first_metrics_s": round(ranx[0], 3),
        "ranx": ranx[1],
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--json", action="store_true")
    out = measure()
    print(json.dumps(out) if ap.parse_args().json else json.dumps(out, indent=2))


if __name__ == "__main__":
    main()

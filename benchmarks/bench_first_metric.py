"""The first metric, once warm: in a fresh process and in a fresh Jupyter kernel.

A notebook user's first metric runs in a fresh kernel; a script's in a fresh
process. Each probe runs ``run_experiment("agent-memory", ["hybrid"])`` — import,
the replayed timeline from the cache, ranking, every default measure — to the first
nDCG@10, with the caches of a previous run in place (the replay of the shipped
dataset and numba's compilation cache: "warm"):

* ``process``: ``python -c CODE``, timed from the interpreter's start to its exit;
  CPU seconds from the children's rusage (user + system), wall seconds around it;
* ``kernel``: a fresh kernel (``jupyter_client``, this interpreter's ``python3``
  kernel) runs CODE as its first cell; the cell's wall seconds (execute request to
  reply) and CPU seconds (the kernel's rusage at the cell's end minus at its start);
  the kernel's start-up is reported apart;
* ``ranx`` (for reference, not the same work): a fresh process importing ranx and
  computing the same family of metrics on one tiny run — no memlab imported.

Each figure is the median of ``runs`` (5) with its spread (lowest–highest).

    python benchmarks/bench_first_metric.py [--runs 5] [--json]
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import time
from typing import Any

MEMLAB = (
    "from memlab.eval.compare.experiment import run_experiment\n"
    "exp = run_experiment('agent-memory', ['hybrid'])\n"
    "value = float(exp.table().iloc[0]['nDCG@10'])\n"
    "import sys, json\n"
    "print(json.dumps({'nDCG@10': value, 'ranx_imported': 'ranx' in sys.modules}))\n"
)
RANX = (
    "import json\n"
    "import ranx\n"
    "scores = ranx.evaluate(ranx.Qrels({'q': {'a': 2, 'b': 1}}),\n"
    "    ranx.Run({'q': {'a': 3.0, 'c': 2.0, 'b': 1.0}}),\n"
    "    ['ndcg@10', 'recall@5', 'precision@5', 'mrr', 'hit_rate@5', 'map'])\n"
    "print(json.dumps({k: float(v) for k, v in scores.items()}))\n"
)
CELL = (
    "import resource as _r\n"
    "_u = _r.getrusage(_r.RUSAGE_SELF)\n"
    "_c0 = _u.ru_utime + _u.ru_stime\n"
    "{code}"
    "_u = _r.getrusage(_r.RUSAGE_SELF)\n"
    "print(json.dumps({{'cell_cpu_s': _u.ru_utime + _u.ru_stime - _c0}}))\n"
)


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def spread(values: list[float]) -> dict[str, float]:
    return {
        "median": round(statistics.median(values), 3),
        "min": round(min(values), 3),
        "max": round(max(values), 3),
    }


def _env() -> dict[str, str]:
    """This environment with numba's cache where memlab keeps it (``memlab.jit``), so
    ranx run without memlab also loads its compiled code from the warm cache."""
    cache = os.environ.get("MEMLAB_CACHE_DIR") or os.path.expanduser("~/.cache/memlab")
    return {"NUMBA_CACHE_DIR": os.path.join(cache, "numba"), **os.environ}


def process_probe(code: str) -> tuple[float, float, dict[str, Any]]:
    """Wall and CPU seconds of a fresh interpreter running ``code`` and its last line."""
    before, start = _children_cpu(), time.perf_counter()
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, env=_env()
    )
    wall, cpu = time.perf_counter() - start, _children_cpu() - before
    return wall, cpu, json.loads(out.stdout.strip().splitlines()[-1])


def kernel_probe(code: str) -> dict[str, Any]:
    """Start a fresh kernel, run ``code`` as its first cell; start-up and cell seconds."""
    from jupyter_client.manager import start_new_kernel

    start = time.perf_counter()
    km, kc = start_new_kernel(kernel_name="python3", env=_env())
    started = time.perf_counter() - start
    lines: list[str] = []
    try:
        t = time.perf_counter()
        reply = kc.execute_interactive(
            CELL.format(code=code),
            timeout=600,
            output_hook=lambda msg: (
                lines.append(msg["content"].get("text", ""))
                if msg["msg_type"] == "stream"
                else None
            ),
        )
        cell = time.perf_counter() - t
    finally:
        kc.stop_channels()
        km.shutdown_kernel(now=True)
    if reply["content"]["status"] != "ok":
        raise RuntimeError(f"the kernel's cell failed: {reply['content'].get('evalue')}")
    out = [json.loads(x) for x in "".join(lines).splitlines() if x.startswith("{")]
    return {"start_s": started, "cell_s": cell, "cell_cpu_s": out[-1]["cell_cpu_s"], **out[0]}


def measure(runs: int = 5, kernel: bool = True) -> dict[str, Any]:
    process_probe(MEMLAB)  # warm: the replay cache and numba's cache exist after one run
    process_probe(RANX)
    mem = [process_probe(MEMLAB) for _ in range(runs)]
    ranx = [process_probe(RANX) for _ in range(runs)]
    out: dict[str, Any] = {
        "runs": runs,
        "process_cpu_s": spread([m[1] for m in mem]),
        "process_wall_s": spread([m[0] for m in mem]),
        "memlab": mem[0][2],
        "ranx_cpu_s": spread([r[1] for r in ranx]),
        "ranx_wall_s": spread([r[0] for r in ranx]),
    }
    if kernel:
        cells = [kernel_probe(MEMLAB) for _ in range(runs)]
        out["kernel_cell_wall_s"] = spread([c["cell_s"] for c in cells])
        out["kernel_cell_cpu_s"] = spread([c["cell_cpu_s"] for c in cells])
        out["kernel_start_s"] = spread([c["start_s"] for c in cells])
        out["kernel_same_value"] = all(c["nDCG@10"] == mem[0][2]["nDCG@10"] for c in cells)
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--no-kernel", action="store_true", help="fresh processes only")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    out = measure(args.runs, kernel=not args.no_kernel)
    print(json.dumps(out) if args.json else json.dumps(out, indent=2))


if __name__ == "__main__":
    main()

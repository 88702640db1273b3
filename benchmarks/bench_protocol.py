"""Protocol evaluation CPU: ``memlab eval DEST --protocol beir`` against a plain script.

On the seeded SciFact-shaped BEIR folder of ``bench_beir`` (5,183 documents, 300
queries), each in a fresh process, alternating ``--repeat`` times (medians):

* ``plain``: ``plain_beir_protocol.py`` — no memlab import; FTS5 (porter), one row
  per document, 1,000 results per query, nDCG@k and R@k computed by the script;
* ``memlab``: ``memlab eval DEST --protocol beir --set vectors=false`` from a cold
  replay cache (import of memlab, replay, candidates, ranking, the unit rankings,
  the measures and the statistics).

The figures are CPU seconds (user + system, from ``getrusage`` of the child) and
peak memory; both sides print nDCG@10 and R@100, which must agree to three decimals
(the same ranking work). The goal is memlab within 2× of the plain script's CPU.

    python benchmarks/bench_protocol.py [--docs 5183] [--queries 300] [--repeat 3] [--json]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import tempfile
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

import bench_beir

PLAIN = Path(__file__).resolve().parent / "plain_beir_protocol.py"
REPEAT = 3


def measure(docs: int, queries: int, repeat: int = REPEAT) -> dict[str, Any]:
    from memlab.datasets.importers import import_dataset

    with tempfile.TemporaryDirectory(prefix="bench-protocol-") as tmp:
        base = Path(tmp)
        src = bench_beir.write_beir(base / "src", docs, queries)
        dest = base / "beir"
        import_dataset("beir", src, dest)
        stop = bench_beir.stop_words_file(base / "stop-words.txt")
        plain: list[float] = []
        ours: list[float] = []
        plain_mb = ours_mb = 0.0
        plain_out = ours_out = ""
        for i in range(repeat):
            cpu, mb, plain_out = bench_beir.child([sys.executable, str(PLAIN), str(src), str(stop)])
            plain.append(cpu)
            plain_mb = max(plain_mb, mb)
            work = base / f"work-{i}"
            command = [sys.executable, "-m", "memlab", "eval", str(dest), "--protocol", "beir"]
            command += ["--set", "vectors=false", "--quiet", "--json", "--work", str(work)]
            env = {**os.environ, "MEMLAB_CACHE_DIR": str(work / "cache")}
            cpu, mb, ours_out = bench_beir.child(command, env)
            ours.append(cpu)
            ours_mb = max(ours_mb, mb)
    theirs = json.loads(plain_out)
    rows = {r["measure"]: r["value"] for r in json.loads(ours_out)}
    same = all(round(theirs[m], 3) == round(rows[m], 3) for m in ("nDCG@10", "R@100"))
    p, m = statistics.median(plain), statistics.median(ours)
    return {
        "documents": docs,
        "queries": queries,
        "repeat": repeat,
        "plain_cpu_s": p,
        "plain_cpu_samples_s": plain,
        "memlab_cpu_s": m,
        "memlab_cpu_samples_s": ours,
        "ratio": m / p,
        "plain_peak_mb": plain_mb,
        "memlab_peak_mb": ours_mb,
        "same_numbers": same,
        "plain": theirs,
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--docs", type=int, default=bench_beir.DOCS)
    ap.add_argument("--queries", type=int, default=bench_beir.QUERIES)
    ap.add_argument("--repeat", type=int, default=REPEAT)
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    result = measure(args.docs, args.queries, args.repeat)
    if args.json:
        print(json.dumps(result, indent=2))
        return
    print(
        f"plain script {result['plain_cpu_s']:.2f} s CPU ({result['plain_peak_mb']:.0f} MB); "
        f"memlab --protocol beir {result['memlab_cpu_s']:.2f} s CPU "
        f"({result['memlab_peak_mb']:.0f} MB): {result['ratio']:.2f}× (goal ≤ 2×); "
        f"same numbers: {result['same_numbers']}"
    )


if __name__ == "__main__":
    main()

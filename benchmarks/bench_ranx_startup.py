"""ranx start-up: cold (empty numba cache) vs warm (cache filled), each in a fresh process.

A fresh notebook kernel is a fresh process; with memlab's persistent numba cache
(``memlab warmup`` fills it at set-up) it reaches its first metric in the warm time.

    python benchmarks/bench_ranx_startup.py
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile

PROBE = (
    "import json, time\n"
    "t0 = time.perf_counter()\n"
    "from memlab.eval.ranx_backend import warm_up\n"
    "timings = warm_up()\n"
    "timings['process_total_s'] = time.perf_counter() - t0\n"
    "print(json.dumps(timings))\n"
)


def probe(cache_dir: str) -> dict[str, float]:
    env = {**os.environ, "NUMBA_CACHE_DIR": cache_dir}
    out = subprocess.run(
        [sys.executable, "-c", PROBE], capture_output=True, text=True, env=env, check=True
    )
    return json.loads(out.stdout.strip().splitlines()[-1])  # type: ignore[no-any-return]


def main() -> None:
    with tempfile.TemporaryDirectory(prefix="memlab-numba-") as cache:
        cold = probe(cache)
        warm = [probe(cache) for _ in range(3)]
    best_warm = min(warm, key=lambda t: t["total_s"])
    print(
        json.dumps(
            {
                "cold": cold,
                "warm_best_of_3": best_warm,
                "speedup": cold["total_s"] / best_warm["total_s"],
            },
            indent=2,
        )
    )


if __name__ == "__main__":
    main()

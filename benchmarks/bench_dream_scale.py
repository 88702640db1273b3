"""Dream capacity at fleet scale: the planner's figures for 10^2 … 10^6 users (30 days by
default), each size simulated in bounded memory (``stream.simulate_summary``), with the
time and the process tree's peak resident memory of each size and the fitted log–log
exponent of every figure. Not a default test: 10^6 users × 30 days takes minutes.

    python benchmarks/bench_dream_scale.py [--sizes 100,1000,10000,100000,1000000]
        [--days 30] [--workers N] [--json]
"""

from __future__ import annotations

import argparse
import json
import resource
import time

from memlab.config import profile
from memlab.dream.sim.kernel import ready
from memlab.dream.sim.params import SimParams
from memlab.dream.sim.scaling import FIGURES, exponents
from memlab.dream.sim.stream import simulate_summary


def peak_rss_mb() -> float:
    """Peak resident memory of this process and of its finished children (MB)."""
    own = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    children = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    return max(own, children) / 1024.0


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--sizes", default="100,1000,10000,100000,1000000")
    ap.add_argument("--days", type=float, default=30.0)
    ap.add_argument("--workers", type=int, default=None)
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    config = profile("grok-c0").dream
    ready()
    rows = []
    for n in (int(x) for x in args.sizes.split(",")):
        params = SimParams(users=n, days=args.days)
        start = time.perf_counter()
        s = simulate_summary(params, config, workers=args.workers).summary()
        took = time.perf_counter() - start
        rows.append({"users": n, "seconds": took, "peak_rss_mb": peak_rss_mb(),
                     **{f: s[f] for f in FIGURES}})  # fmt: skip
        if not args.json:
            print(f"{n:>9,} users: {took:7.1f} s, peak RSS {rows[-1]['peak_rss_mb']:,.0f} MB, "
                  + ", ".join(f"{f} {s[f]:,.4g}" for f in FIGURES), flush=True)  # fmt: skip
    import pandas as pd

    fits = exponents(pd.DataFrame(rows))
    if args.json:
        print(json.dumps({"rows": rows, "exponents": fits}))
        return
    print("exponents in N: " + ", ".join(f"{k} {v:.3f}" for k, v in fits.items() if v is not None))


if __name__ == "__main__":
    main()

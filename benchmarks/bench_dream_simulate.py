"""Dream capacity simulator benchmark: 10,000 users × 90 days (by default).

Times the public path — ``Fleet.generate`` (sessions), ``simulate`` (triggers,
vectorised engine, result tables) and ``summary`` — for the c0 profile and for
the later release (hourly periodic checks) on the same sessions, in wall-clock
and process CPU time (the machines are shared: CPU time is the steadier number),
and prints the runs found, so a change in the model shows up beside a change in
speed.

    python benchmarks/bench_dream_simulate.py [--users 10000] [--days 90] [--json]
"""

from __future__ import annotations

import argparse
import json
import time
from collections.abc import Callable
from typing import Any

from memlab.config import profile
from memlab.dream.sim.fleet import Fleet, simulate
from memlab.dream.sim.params import SimParams


def timed(fn: Callable[[], Any]) -> tuple[Any, float, float]:
    wall, cpu = time.perf_counter(), time.process_time()
    value = fn()
    return value, time.perf_counter() - wall, time.process_time() - cpu


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--users", type=int, default=10_000)
    parser.add_argument("--days", type=float, default=90.0)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    params = SimParams(users=args.users, days=args.days)
    fleet, gen_wall, gen_cpu = timed(lambda: Fleet.generate(params))
    sessions = sum(len(b.user) for b in fleet.blocks)
    report: dict[str, Any] = {"users": args.users, "days": args.days, "sessions": sessions,
                              "generate_wall_s": round(gen_wall, 3),
                              "generate_cpu_s": round(gen_cpu, 3)}  # fmt: skip
    for name in ("grok-c0", "grok-2026-08"):
        config = profile(name).dream
        result, sim_wall, sim_cpu = timed(lambda c=config: simulate(params, c, fleet=fleet))
        summary, sum_wall, sum_cpu = timed(result.summary)
        report[name] = {
            "checks": summary["checks"], "model_calls": summary["attempts"],
            "runs": summary["runs"], "simulate_wall_s": round(sim_wall, 3),
            "summary_wall_s": round(sum_wall, 3),
            "total_wall_s": round(gen_wall + sim_wall + sum_wall, 3),
            "total_cpu_s": round(gen_cpu + sim_cpu + sum_cpu, 3),
        }  # fmt: skip
    if args.json:
        print(json.dumps(report))
        return
    print(f"{args.users:,} users × {args.days:g} days: {sessions:,} sessions, "
          f"generated in {gen_wall:.2f} s")  # fmt: skip
    for name in ("grok-c0", "grok-2026-08"):
        r = report[name]
        print(f"  {name:<13} {r['checks']:>10,} gate checks {r['model_calls']:>9,} model calls "
              f"{r['runs']:>9,} runs | simulate {r['simulate_wall_s']:.2f} s, summary "
              f"{r['summary_wall_s']:.2f} s | from scratch {r['total_wall_s']:.2f} s wall, "
              f"{r['total_cpu_s']:.2f} s CPU")  # fmt: skip


if __name__ == "__main__":
    main()

"""Dream capacity simulator benchmark: 10,000 users × 90 days (by default).

Times the three phases — generate the sessions, build one configuration's
triggers, run the vectorised engine — for the c0 profile and for the later
release (hourly periodic checks), with wall-clock and process CPU time (the
machines are shared: CPU time is the steadier number), and prints the runs
found so a change in the model shows up next to a change in speed.

    python benchmarks/bench_dream_simulate.py [--users 10000] [--days 90] [--json]
"""

from __future__ import annotations

import argparse
import json
import time
from collections.abc import Callable
from typing import Any

from memlab.config import profile
from memlab.dream.sim_engine import simulate_trace
from memlab.dream.sim_params import SimParams
from memlab.dream.sim_trace import build_trace, generate_sessions


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
    sessions, gen_wall, gen_cpu = timed(lambda: generate_sessions(params))
    report: dict[str, Any] = {"users": args.users, "days": args.days,
                              "sessions": len(sessions.user),
                              "generate_wall_s": round(gen_wall, 3),
                              "generate_cpu_s": round(gen_cpu, 3)}  # fmt: skip
    for name in ("grok-c0", "grok-2026-08"):
        config = profile(name).dream
        trace, tr_wall, tr_cpu = timed(lambda c=config: build_trace(sessions, c, params))
        (cols, _), en_wall, en_cpu = timed(lambda c=config, t=trace: simulate_trace(t, c, params))
        report[name] = {
            "triggers": trace.n_triggers, "model_calls": len(cols["user"]),
            "runs": int((cols["outcome"] == 3).sum()),
            "trace_wall_s": round(tr_wall, 3), "engine_wall_s": round(en_wall, 3),
            "total_wall_s": round(gen_wall + tr_wall + en_wall, 3),
            "total_cpu_s": round(gen_cpu + tr_cpu + en_cpu, 3),
        }  # fmt: skip
    if args.json:
        print(json.dumps(report))
        return
    print(f"{args.users:,} users × {args.days:g} days: {report['sessions']:,} sessions, "
          f"generated in {gen_wall:.2f} s")  # fmt: skip
    for name in ("grok-c0", "grok-2026-08"):
        r = report[name]
        print(f"  {name:<13} {r['triggers']:>10,} triggers {r['model_calls']:>9,} calls "
              f"{r['runs']:>9,} runs | trace {r['trace_wall_s']:.2f} s, engine "
              f"{r['engine_wall_s']:.2f} s | total {r['total_wall_s']:.2f} s wall, "
              f"{r['total_cpu_s']:.2f} s CPU")  # fmt: skip


if __name__ == "__main__":
    main()

"""Dream capacity simulator benchmark: 10,000 users × 90 days (by default).

For the c0 profile and for the later release (hourly periodic checks), times
the public path from scratch — ``simulate(params, config)``: every block of
users generates its sessions, builds its triggers and runs the engine, on every
core (``memlab.dream.sim.fleet``) — then ``summary()``; and the same on one core
(``workers=1``), in wall-clock and CPU time of the whole process tree (the
machines are shared: CPU time is the steadier number). It prints the runs found,
so a change in the model shows up beside a change in speed. Loading the compiled
engine (``sim.kernel.ready``: numba's start in this process, about 0.5 s, or the
one-off compile when its cache is cold) is timed first and reported on its own
line, ``engine_load``, like the imports it is left out of the runs.

``cli_cpu`` times the command a user runs, ``python -m memlab dream simulate --users N
--days D``, in fresh processes: the CPU time of the process tree (``RUSAGE_CHILDREN``:
imports, numba's start and the engine's cache, sessions, engine, tally, table), the
median of ``repeat`` runs and their spread (numba's cache is warmed by one run first).

    python benchmarks/bench_dream_simulate.py [--users 10000] [--days 90] [--repeat 5]
        [--json]
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
from collections.abc import Callable
from typing import Any

from memlab.config import profile
from memlab.dream.sim.fleet import simulate
from memlab.dream.sim.kernel import ready
from memlab.dream.sim.params import SimParams


def cpu_seconds() -> float:
    t = os.times()
    return t.user + t.system + t.children_user + t.children_system


def timed(fn: Callable[[], Any]) -> tuple[Any, float, float]:
    wall, cpu = time.perf_counter(), cpu_seconds()
    value = fn()
    return value, time.perf_counter() - wall, cpu_seconds() - cpu


_FRESH = """
import os, time
import numpy, pandas  # what the simulator used before its compiled engine: left out
t, c = time.perf_counter(), os.times()
from memlab.dream.sim.kernel import ready
ready()
d = os.times()
print(time.perf_counter() - t, d.user + d.system - c.user - c.system)
"""


def fresh_engine_load() -> dict[str, float]:
    """Importing the simulator (numba with it) and loading its compiled engine in a fresh
    process where numpy and pandas are imported already (what a ``memlab dream
    simulate`` pays for the compiled engine; in this process numba may be loaded
    already). The runs themselves leave every import out, as they always have."""
    out = subprocess.run(
        [sys.executable, "-c", _FRESH], check=True, capture_output=True, text=True
    ).stdout.split()
    return {"wall_s": round(float(out[0]), 3), "cpu_s": round(float(out[1]), 3)}


def cli_cpu(users: int, days: float, repeat: int = 5) -> dict[str, Any]:
    """CPU seconds of the process tree of ``memlab dream simulate --users --days`` (fresh
    processes, numba's cache warm): median, min and max of ``repeat`` runs, and wall."""
    command = [sys.executable, "-m", "memlab", "dream", "simulate",
               "--users", str(users), "--days", f"{days:g}"]  # fmt: skip
    subprocess.run(command, check=True, capture_output=True)  # numba's cache warm
    cpus, walls = [], []
    for _ in range(repeat):
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        start = time.perf_counter()
        subprocess.run(command, check=True, capture_output=True)
        walls.append(time.perf_counter() - start)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpus.append(after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime)
    return {
        "users": users,
        "days": days,
        "repeat": repeat,
        "cpu_s": round(statistics.median(cpus), 3),
        "cpu_min_s": round(min(cpus), 3),
        "cpu_max_s": round(max(cpus), 3),
        "wall_s": round(statistics.median(walls), 3),
    }


def measure(
    users: int, days: float, profiles: tuple[str, ...] = ("grok-c0", "grok-2026-08")
) -> dict[str, Any]:
    params = SimParams(users=users, days=days)
    report: dict[str, Any] = {"users": users, "days": days}
    _, wall, cpu = timed(ready)
    report["engine_load"] = {"wall_s": round(wall, 3), "cpu_s": round(cpu, 3)}
    report["engine_load_fresh"] = fresh_engine_load()
    for name in profiles:
        config = profile(name).dream
        for label, workers in (("all_cores", None), ("one_core", 1)):
            result, wall, cpu = timed(
                lambda c=config, w=workers: simulate(params, c, workers=w).summary()
            )
            report[f"{name}/{label}"] = {
                "sessions": result["sessions"],
                "checks": result["checks"],
                "model_calls": result["attempts"],
                "runs": result["runs"],
                "wall_s": round(wall, 3),
                "cpu_s": round(cpu, 3),
            }
    return report


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--users", type=int, default=10_000)
    parser.add_argument("--days", type=float, default=90.0)
    parser.add_argument("--repeat", type=int, default=5, help="CLI runs (median)")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    report = measure(args.users, args.days)
    report["cli"] = cli_cpu(args.users, args.days, args.repeat)
    if args.json:
        print(json.dumps(report))
        return
    print(f"{args.users:,} users × {args.days:g} days, from scratch (sessions, triggers, engine, "
          "summary):")  # fmt: skip
    load = report["engine_load"]
    print(f"  compiled engine loaded in {load['wall_s']:.2f} s ({load['cpu_s']:.2f} s CPU)")
    for key, r in report.items():
        if isinstance(r, dict) and "model_calls" in r:
            calls, wall, cpu = r["model_calls"], r["wall_s"], r["cpu_s"]
            print(f"  {key:<24} {r['sessions']:>10,} sessions {calls:>9,} model calls "
                  f"{r['runs']:>9,} runs | {wall:.2f} s wall, {cpu:.2f} s CPU")  # fmt: skip
    cli = report["cli"]
    print(
        f"  `memlab dream simulate --users {args.users} --days {args.days:g}`: "
        f"{cli['cpu_s']:.2f} s CPU of the process tree (median of {cli['repeat']}, "
        f"{cli['cpu_min_s']:.2f}–{cli['cpu_max_s']:.2f}), {cli['wall_s']:.2f} s wall"
    )


if __name__ == "__main__":
    main()

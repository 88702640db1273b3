"""``memlab dream check | run | simulate``: Dream's gate decision, one run, capacity planning."""

from __future__ import annotations

import argparse
import json
import math
import os
import time
from typing import TYPE_CHECKING, Any

from memlab.cli.args import existing_file, integer, number, time_value, workspace_name
from memlab.cli.commands import summary
from memlab.cli.dream_run import add_run_args, run_config
from memlab.cli.dream_run import cmd_run as run_command
from memlab.cli.options import (
    add_config_args,
    parse_assignments,
    parse_value,
    read_config_file,
    resolve_config,
)
from memlab.cli.scheduler import add_scheduler_arg, scheduler_client
from memlab.cluster import executor as cluster_executor
from memlab.config import DreamConfig, from_dict
from memlab.errors import ConfigError
from memlab.timefmt import format_iso, parse_time

if TYPE_CHECKING:
    from memlab.dream.sim.params import SimParams


def register(sub: Any) -> None:
    dream = sub.add_parser("dream", help=summary("dream"))
    dsub = dream.add_subparsers(dest="dream_command", metavar="ACTION")
    dsub.required = True

    c = dsub.add_parser("check", help="show the gate decision and why")
    _target_args(c)
    c.add_argument(
        "--now", type=time_value, help="time of the check (ISO 8601 or unix seconds; default: now)"
    )
    c.set_defaults(func=cmd_check)

    r = dsub.add_parser(
        "run", help="run Dream once: a dry run unless --yes (or --out DIR); gates unless --force"
    )
    _target_args(r)
    add_run_args(r)
    r.set_defaults(func=cmd_run)

    s = dsub.add_parser("simulate", help="capacity planning: Dream runs and cost of a fleet")
    s.add_argument("--users", type=integer(1, 10**9), help="simulated users (default 1000)")
    s.add_argument(
        "--days", type=number(0, 36_500, open_lo=True), help="simulated days (default 30)"
    )
    s.add_argument(
        "--events",
        type=existing_file,
        help="CSV of real sessions: user,start,end[,subagent][,bytes][,dream_at]",
    )
    _config_args(s)
    s.add_argument(
        "--sim",
        action="append",
        default=[],
        metavar="KEY=VALUE",
        help="a simulation parameter, e.g. --sim sessions_per_day=8 (repeatable)",
    )
    s.add_argument(
        "--sweep",
        action="append",
        default=[],
        metavar="KEY=V1,V2,…",
        help="sweep a Dream setting (JSON values), e.g. --sweep min_hours=1,4,24 "
        "--sweep check_interval_secs=null,3600 (repeatable)",
    )
    s.add_argument(
        "--max-freshness-hours",
        type=number(0, 1e6, open_lo=True),
        metavar="H",
        help="with --sweep: the cheapest settings whose p95 freshness (session end to "
        "MEMORY.md) stays within H hours, and the front of cost per day against it",
    )
    s.add_argument("--plot", help="write a PNG: fleet runs per hour (or the sweep)")
    s.add_argument("--json", action="store_true", help="print JSON")
    add_scheduler_arg(s)
    s.set_defaults(func=cmd_simulate)


def _config_args(p: argparse.ArgumentParser) -> None:
    add_config_args(p, "dream", "min_hours=24")


def _target_args(p: argparse.ArgumentParser) -> None:
    p.add_argument("root", help="memory root")
    p.add_argument(
        "--workspace", type=workspace_name, help="workspace directory name (default: the only one)"
    )
    p.add_argument("--session", help="id of the current session (its log is excluded)")
    p.add_argument("--subagent", action="store_true", help="the current session is a sub-agent")
    _config_args(p)
    p.add_argument("--json", action="store_true", help="print JSON")


def dream_config(args: argparse.Namespace) -> tuple[DreamConfig, dict[str, Any]]:
    """The Dream config (profile, then --config's dream section, then --set) and the
    simulation section of --config."""
    config, data = resolve_config(args, "dream", extra=("simulation",))
    return config.dream, dict(data.get("simulation") or {})


def _layout(args: argparse.Namespace) -> Any:
    from memlab.store.layout import MemoryLayout

    return MemoryLayout.open(args.root, args.workspace)


def _trigger(args: argparse.Namespace) -> Any:
    from memlab.dream.gates import Trigger

    return Trigger.MANUAL if getattr(args, "force", False) else Trigger.SESSION_END


def cmd_check(args: argparse.Namespace) -> int:
    from memlab.dream.gates import decide
    from memlab.dream.lock import DreamLock
    from memlab.dream.plan import scan_sessions

    config, _ = dream_config(args)
    layout = _layout(args)
    parsed = parse_time(args.now)
    now = time.time() if parsed is None else parsed
    lock = DreamLock.for_workspace(layout.home, config.stale_lock_secs)
    last = lock.last_success()
    decision = decide(
        _trigger(args),
        config,
        last,
        scan_sessions(layout.home / "sessions"),
        args.session,
        now,
        is_subagent=args.subagent,
    )
    sessions = list(getattr(decision, "sessions", ()))
    if args.json:
        print(
            json.dumps(
                {
                    "decision": decision.kind,
                    "open": decision.is_open,
                    "reason": decision.reason(),
                    "last_consolidation": last,
                    "now": now,
                    "sessions": sessions,
                }
            )
        )
        return 0
    print(f"{decision.kind}: {decision.reason()}")
    print(f"last consolidation: {format_iso(last) if last is not None else 'never (no lock)'}")
    for stem in sessions:
        print(f"  {stem}")
    return 0


def _explicit_keys(args: argparse.Namespace) -> set[str]:
    """Dream keys the user set by --config or --set (they win over the CLI's safe defaults)."""
    data = read_config_file(getattr(args, "config", None), "dream", ("simulation",))
    keys = set(data.get("dream") or {}) | set(parse_assignments(args.set))
    return {k.removeprefix("dream.") for k in keys}


def cmd_run(args: argparse.Namespace) -> int:
    config, _ = dream_config(args)
    config = run_config(args, config, _explicit_keys(args))
    return run_command(args, config, _layout(args), _trigger(args))


def cmd_simulate(args: argparse.Namespace) -> int:
    from memlab.dream.sim import load_events, sweep
    from memlab.dream.sim.params import SimParams
    from memlab.dream.sim.stream import simulate_summary

    config, sim_file = dream_config(args)
    values = {**sim_file, **parse_assignments(args.sim, "--sim")}
    if args.users is not None:
        values["users"] = args.users
    if args.days is not None:
        values["days"] = args.days
    if args.events and ("users" in values or "days" in values):
        raise ConfigError("--events replays real sessions; drop --users/--days")
    params = from_dict(SimParams, values, where="simulation")
    grid = _sweep_grid(args.sweep)
    if args.max_freshness_hours is not None and not grid:
        raise ConfigError(
            "--max-freshness-hours chooses among swept settings: add --sweep KEY=V1,V2,…"
        )
    if not args.events:
        check_fleet_fits(params, config, streamed=not grid)
    fleet = load_events(args.events, params) if args.events else None
    from memlab import progress
    from memlab.dream.sim.kernel import ready

    with progress.phase("loading the Dream simulator's engine"):
        ready()  # loads the compiled engine (compiles it once per machine, with a note)
    if grid:
        table = sweep(params, config, grid, fleet=fleet, progress=not args.json)
        if args.max_freshness_hours is not None:
            _print_decision(table, list(grid), args.max_freshness_hours, args.json)
        else:
            print(table.to_json(orient="records") if args.json else table.to_string(index=False))
        if args.plot:
            _save_sweep_plot(table, list(grid), args.plot)
        return 0
    with scheduler_client(args) as client:
        executor = cluster_executor(client) if client is not None else None
        result = simulate_summary(params, config, fleet=fleet, executor=executor)
    _print_summary(result.summary(), args.json, params)
    if args.plot:
        from memlab.dream.sim.plot import plot_runs_per_hour, save

        save(plot_runs_per_hour(result.runs_per_hour), args.plot)
    return 0


def _print_summary(summary: dict[str, Any], as_json: bool, params: SimParams) -> None:
    if as_json:
        print(
            json.dumps(
                {
                    k: (None if isinstance(v, float) and not math.isfinite(v) else v)
                    for k, v in summary.items()
                }
            )
        )
        return
    from memlab.dream.sim.table import summary_table

    print(summary_table(summary, params))


def _print_decision(table: Any, keys: list[str], max_hours: float, as_json: bool) -> None:
    """The sweep, then the cheapest settings within the freshness bound and the front."""
    from memlab.dream.sim.decide import FRESHNESS, cheapest_fresh_gates, choice_text

    choice = cheapest_fresh_gates(table, max_hours)
    if as_json:
        chosen = None if choice.chosen is None else json.loads(choice.chosen.to_json())
        out = {
            "sweep": json.loads(table.to_json(orient="records")),
            "max_freshness_hours": max_hours,
            "chosen": chosen,
            "eligible": choice.eligible,
            "front": json.loads(choice.front.to_json(orient="records")),
        }
        print(json.dumps(out))
        return
    print(table.to_string(index=False))
    print(f"\n{choice_text(choice, keys, len(table))}")
    cols = [*keys, "cost_per_day", "calls_per_day", "concurrent_calls_max", FRESHNESS]
    print("\nfront of cost per day against p95 freshness:")
    print(choice.front[cols].to_string(index=False))


def _sweep_grid(items: list[str]) -> dict[str, list[Any]]:
    """``--sweep min_hours=1,4,24`` → ``{"min_hours": [1, 4, 24]}`` (YAML values)."""
    grid = {}
    for item in items:
        key, sep, values = item.partition("=")
        if not sep or not key.strip():
            raise ConfigError(f"--sweep expects KEY=V1,V2,…, got '{item}'")
        parsed = parse_value(f"[{values}]")
        grid[key.strip().removeprefix("dream.")] = parsed if isinstance(parsed, list) else [parsed]
    return grid


# Simulator state per session, measured at about 210 bytes (20,000 users × 30 days: 745 MB
# for 3.6 M sessions); with a margin for pandas' summaries.
BYTES_PER_SESSION = 400


def available_memory() -> int | None:
    """Bytes of memory available now (Linux: MemAvailable), or None if unknown."""
    try:
        with open("/proc/meminfo", encoding="ascii") as fh:
            for line in fh:
                if line.startswith("MemAvailable:"):
                    return int(line.split()[1]) * 1024
    except (OSError, ValueError, IndexError):
        pass
    try:
        return int(os.sysconf("SC_AVPHYS_PAGES")) * int(os.sysconf("SC_PAGE_SIZE"))
    except (ValueError, OSError, AttributeError):
        return None


def check_fleet_fits(params: Any, config: DreamConfig, *, streamed: bool = False) -> None:
    """``ConfigError`` if the simulated fleet would not fit in the memory available
    (``streamed``: only the summary is kept, ``dream.sim.stream``)."""
    sessions = params.users * params.days * params.sessions_per_day
    need = sessions * BYTES_PER_SESSION
    if streamed:
        from memlab.dream.sim.stream import memory_needed
        from memlab.parallel import available_cores

        need = memory_needed(params, config, available_cores(), BYTES_PER_SESSION)
    free = available_memory()
    if free is not None and need > 0.8 * free:
        raise ConfigError(
            f"--users {params.users} × --days {params.days:g} × {params.sessions_per_day:g} "
            f"sessions/day is about {sessions:,.0f} sessions and needs about "
            f"{need / 2**30:.1f} GiB; {free / 2**30:.1f} GiB is available — simulate fewer "
            "users or days (runs per user scale: a sample of users gives the same rates)"
        )


def _save_sweep_plot(table: Any, keys: list[str], path: str) -> None:
    from memlab.dream.sim.plot import plot_sweep, save

    save(plot_sweep(table, keys[0], hue=keys[1] if len(keys) > 1 else None), path)

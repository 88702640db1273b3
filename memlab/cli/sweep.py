"""``memlab sweep``: score a grid (or random draws) of search configurations."""

from __future__ import annotations

import argparse
import json
import math
from pathlib import Path
from typing import Any

from memlab.cli.args import existing_file, integer, nonempty, number
from memlab.cli.evaluate import add_memory_options, base_config, prepared_from
from memlab.cli.options import add_config_args
from memlab.cli.scheduler import add_scheduler_arg, scheduler_client
from memlab.eval.measures import SWEEP_MEASURES

EXAMPLE = """\
grid file (YAML): dotted configuration paths mapped to the values to try, e.g.

  half_life_days: [1, 7, 30, null]   # null = no decay
  source_weights.session: [0.5, 1.0]
  mmr.enabled: [true, false]
  mmr.lambda: [0.5, 0.7, 1.0]
  strategy: [grok, rrf]

With --random N, a path may also map to {uniform: [lo, hi]}, {loguniform: [lo, hi]}
or {randint: [lo, hi]}. Rerunning with the same --out skips finished configurations.
"""


def register(sub: Any) -> None:
    p = sub.add_parser(
        "sweep",
        help="sweep search configurations (half-life, source weights, λ, …) on a dataset",
        description="Score every configuration of a grid on a labelled dataset: candidates "
        "are gathered once, then each configuration is rescored by the scoring core.",
        epilog=EXAMPLE,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("dataset", help="dataset folder (see `memlab dataset validate`)")
    p.add_argument(
        "--grid",
        required=True,
        type=existing_file,
        help="YAML file: configuration paths → value lists",
    )
    p.add_argument("--out", help="results folder: sweep.csv, sweep.json, best.csv (resumable)")
    p.add_argument("--embedder", help="embedding provider (default: the dataset's shipped vectors)")
    p.add_argument(
        "--measure", type=nonempty, default="nDCG@10", help="choose the configuration by this"
    )
    p.add_argument(
        "--measures",
        default=",".join(SWEEP_MEASURES),
        help="comma-separated measures to compute (the --measure is added if missing)",
    )
    p.add_argument(
        "--random",
        type=integer(1, 10**7),
        metavar="N",
        help="draw N configurations, not the grid",
    )
    p.add_argument("--seed", type=integer(0, 2**32 - 1), default=0, help="seed of the draws")
    p.add_argument(
        "--holdout",
        type=number(0, 1),
        default=0.3,
        help="share of queries held out (0..1, below 1)",
    )
    p.add_argument(
        "--split-seed", type=integer(0, 2**32 - 1), default=0, help="seed of the dev/holdout split"
    )
    p.add_argument(
        "--no-stratify", action="store_true", help="do not stratify the split by category"
    )
    p.add_argument(
        "--top", type=integer(1, 10**6), default=5, help="how many best configurations to show"
    )
    add_config_args(p, "search", "min_score=0.2 (the base every point starts from)")
    p.add_argument("--level", help="judgement level (e.g. session or turn)")
    add_memory_options(p)
    p.add_argument(
        "--work", help="where replays are built and cached (default ~/.cache/memlab/replays)"
    )
    p.add_argument("--json", action="store_true", help="print the chosen configuration as JSON")
    p.add_argument("--quiet", action="store_true", help="no progress bars")
    add_scheduler_arg(p)
    p.set_defaults(func=cmd_sweep)


def cmd_sweep(args: argparse.Namespace) -> int:
    measures = [m.strip() for m in args.measures.split(",") if m.strip()]
    if args.measure not in measures:
        measures.insert(0, args.measure)
    prepared = prepared_from(args)  # bad input fails before a cluster starts
    with scheduler_client(args) as client:
        if client is not None:
            prepared.use_cluster(client)  # candidates gathered per group on the workers
        result = _run(args, prepared, measures, client)
    top = result.best(args.measure, args.top) if len(result.table) else None
    if args.out and top is not None:
        top.to_csv(Path(args.out) / "best.csv", index=False)
    if args.json:
        print(json.dumps(_chosen_json(result, args.measure), indent=2, allow_nan=False))
    else:
        print(result.summary(args.measure))
        if top is not None:
            print(top.to_string(index=False, float_format=lambda v: f"{v:.4f}"))
        if args.out:
            print(f"results in {args.out}")
    if result.interrupted:
        done = len(result.table)
        hint = "rerun the same command to resume" if args.out else "nothing saved (no --out)"
        print(f"interrupted after {done} of {result.total} configurations; {hint}")
        return 130
    return 0


def _chosen_json(result: Any, measure: str) -> dict[str, Any]:
    if result.table.empty:
        return {"configurations": 0, "interrupted": result.interrupted}
    chosen = result.chosen(measure)
    chosen.pop("config")
    return {
        "configurations": len(result.table),
        "evaluated": result.evaluated,
        "resumed": result.resumed,
        "interrupted": result.interrupted,
        "chosen": {k: _finite(v) for k, v in chosen.items()},
    }


def _finite(value: Any) -> Any:
    if isinstance(value, float) and not math.isfinite(value):
        return None
    if isinstance(value, tuple):
        return [_finite(v) for v in value]
    return value


def _run(args: argparse.Namespace, prepared: Any, measures: list[str], client: Any) -> Any:
    from memlab.sweep.runner import run_sweep

    return run_sweep(
        prepared,
        Path(args.grid),
        random=args.random,
        seed=args.seed,
        base=base_config(args),
        measures=measures,
        holdout=args.holdout,
        split_seed=args.split_seed,
        stratify=not args.no_stratify,
        out=args.out,
        progress=not args.quiet,
        client=client,
    )

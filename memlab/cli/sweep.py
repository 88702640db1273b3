"""``memlab sweep``: score a grid (or random draws) of search configurations."""

from __future__ import annotations

import argparse
import json
import math
from pathlib import Path
from typing import Any

from memlab.cli.args import integer, nonempty, number, text
from memlab.cli.commands import summary
from memlab.cli.evaluate import add_memory_options, prepared_from, resolved
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
  tokenizer: [unicode61, porter]     # index options: tokenizer, chunk_bytes, chunk_overlap,
                                     # chunking (each distinct index replayed once)

--grid also takes a shipped grid's name ({grids}; `memlab init DIR` copies them to
DIR/grids). With --random N, a path may also map to
{uniform: [lo, hi]}, {loguniform: [lo, hi]} or {randint: [lo, hi]}. Rerunning with
the same --out skips finished configurations.

choice: by default the best --measure on dev among the configurations whose
AbstainHits (hits returned for queries nothing answers) and Tokens (what the hits
add to the agent's context) are at most --cost-tolerance (5 %) above the base
profile's; --max-abstain-hits / --max-tokens set absolute caps instead; --objective
quality chooses on quality alone, --objective 'nDCG@10 - 0.05*AbstainHits' by a
utility. --export DIR writes chosen.yaml (for --config and --runs NAME=FILE), the
Grok and OpenClaw settings, mapping.md, decision.md and split.json.
"""


def epilog() -> str:
    from memlab.grids import shipped_grids

    return EXAMPLE.replace("{grids}", ", ".join(shipped_grids()))


def grid_arg(value: str) -> Path:
    """``--grid``: a grid file or a shipped grid's name."""
    from memlab.errors import ConfigError
    from memlab.grids import grid_file

    try:
        return grid_file(text(value))
    except ConfigError as e:
        raise argparse.ArgumentTypeError(str(e)) from None


def register(sub: Any) -> None:
    p = sub.add_parser(
        "sweep",
        help=summary("sweep"),
        description="Score every configuration of a grid on a labelled dataset: candidates "
        "are gathered once, then each configuration is rescored by the scoring core.",
        epilog=epilog(),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("dataset", type=nonempty, help="dataset folder (see `memlab dataset validate`)")
    p.add_argument(
        "--grid",
        required=True,
        type=grid_arg,
        help="YAML file (configuration paths → value lists) or a shipped grid's name",
    )
    p.add_argument(
        "--out",
        help="results folder: sweep.csv, sweep.json (resumable), best.csv, decision.json, "
        "fronts.csv, fronts.png",
    )
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
    add_choice_args(p)
    p.add_argument(
        "--export",
        metavar="DIR",
        help="write chosen.yaml, grok-settings.toml, openclaw.json, mapping.md, decision.md, "
        "fronts.png, split.json",
    )
    p.add_argument("--json", action="store_true", help="print the decision as JSON")
    p.add_argument("--quiet", action="store_true", help="no progress bars")
    add_scheduler_arg(p)
    p.set_defaults(func=cmd_sweep)


def add_choice_args(p: argparse.ArgumentParser) -> None:
    """The choice rule's options (see the epilog)."""
    p.add_argument(
        "--objective",
        default="constrained",
        help="constrained (default: the best --measure within the base's costs), quality "
        "(unconstrained) or a utility such as 'nDCG@10 - 0.05*AbstainHits - 0.0002*Tokens'",
    )
    p.add_argument(
        "--cost-tolerance",
        type=number(0, 10),
        default=0.05,
        help="how much worse than the base's AbstainHits and Tokens a choice may be "
        "(a share; default 0.05)",
    )
    p.add_argument(
        "--max-abstain-hits",
        type=number(0),
        metavar="X",
        help="cap the mean AbstainHits (hits per unanswerable query) at X",
    )
    p.add_argument(
        "--max-tokens", type=number(0), metavar="N", help="cap the mean Tokens returned at N"
    )
    p.add_argument(
        "--splits",
        type=integer(0, 1000),
        default=5,
        help="other dev/holdout splits the choice is repeated on, to measure its optimism "
        "(default 5; 0: none)",
    )


def cmd_sweep(args: argparse.Namespace) -> int:
    from memlab.sweep.choice import ChoiceRule

    measures = [m.strip() for m in args.measures.split(",") if m.strip()]
    if args.measure not in measures:
        measures.insert(0, args.measure)
    rule = ChoiceRule.parse(
        args.objective,
        measure=args.measure,
        tolerance=args.cost_tolerance,
        max_abstain_hits=args.max_abstain_hits,
        max_tokens=args.max_tokens,
    )  # bad input fails before anything runs
    measures += [m for m in rule.measures if m not in measures]
    from memlab import progress

    progress.note(f"sweep {args.dataset}: grid {args.grid}")
    found = resolved(args)  # one read of --config, one parse of --set
    with progress.phase(f"loading dataset {args.dataset}"):
        prepared = prepared_from(args, found)  # bad input fails before a cluster starts
    with scheduler_client(args) as client:
        if client is not None:
            prepared.use_cluster(client)  # candidates gathered per group on the workers
        result = _run(args, prepared, measures, client, found.config.search)
    if result.interrupted:
        done = len(result.table)
        hint = "rerun the same command to resume" if args.out else "nothing saved (no --out)"
        print(result.summary(args.measure).splitlines()[0])
        print(f"interrupted after {done} of {result.total} configurations; {hint}")
        return 130
    if result.table.empty:
        print(result.summary(args.measure))
        return 0
    decision = result.decide(rule, splits=args.splits, seed=args.split_seed)
    top = result.best(args.measure, args.top)
    if args.out:
        top.to_csv(Path(args.out) / "best.csv", index=False)
        text = json.dumps(_clean(decision.to_dict()), indent=2, allow_nan=False) + "\n"
        (Path(args.out) / "decision.json").write_text(text, encoding="utf-8")
        from memlab.export.sweep_decision import write_fronts

        write_fronts(decision, args.out)
    exported = _export(args, result, decision, found.config.profile) if args.export else None
    if args.json:
        print(json.dumps(_chosen_json(result, decision, exported), indent=2, allow_nan=False))
        return 0
    _print(args, result, decision, top, exported)
    return 0


def _export(args: argparse.Namespace, result: Any, decision: Any, profile_name: str) -> Any:
    from memlab.export.sweep_decision import export_sweep

    return export_sweep(
        result,
        decision,
        args.export,
        profile_name=profile_name,
        dataset=args.dataset,
        embedder=args.embedder,
    )


def _print(args: argparse.Namespace, result: Any, decision: Any, top: Any, exported: Any) -> None:
    from memlab.sweep.decision_text import decision_text

    print(result.summary(args.measure).splitlines()[0])
    print()
    print(decision_text(decision))
    print()
    where = "dev" if result.split.holdout else "all queries"
    print(f"best by {args.measure} on {where}, whatever it costs (top {len(top)})")
    print(top.to_string(index=False, float_format=lambda v: f"{v:.4f}"))
    if args.out:
        print(f"results in {args.out}")
    if exported is not None:
        print()
        print("\n".join(exported.lines()))


def _chosen_json(result: Any, decision: Any, exported: Any) -> dict[str, Any]:
    chosen = result.chosen(decision.rule.measure, decision.rule)
    chosen.pop("config")
    out = {
        "configurations": len(result.table),
        "evaluated": result.evaluated,
        "resumed": result.resumed,
        "interrupted": result.interrupted,
        "chosen": {k: _finite(v) for k, v in chosen.items()},
        "decision": _clean(decision.to_dict()),
    }
    if exported is not None:
        out["exported"] = [str(p) for p in exported.written]
    return out


def _clean(value: Any) -> Any:
    """NaN and infinities as null, everywhere (JSON has neither)."""
    if isinstance(value, dict):
        return {str(k): _clean(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_clean(v) for v in value]
    if hasattr(value, "item") and not isinstance(value, (str, bytes)):
        value = value.item()  # numpy scalars
    return _finite(value)


def _finite(value: Any) -> Any:
    if isinstance(value, float) and not math.isfinite(value):
        return None
    if isinstance(value, tuple):
        return [_finite(v) for v in value]
    if hasattr(value, "item") and not isinstance(value, (str, bytes)):
        return _finite(value.item())  # numpy scalars
    return value


def _run(
    args: argparse.Namespace, prepared: Any, measures: list[str], client: Any, base: Any
) -> Any:
    from memlab.sweep.runner import SweepOptions, run_sweep

    options = SweepOptions(
        random=args.random,
        seed=args.seed,
        base=base,
        measures=tuple(measures),
        holdout=args.holdout,
        split_seed=args.split_seed,
        stratify=not args.no_stratify,
    )
    return run_sweep(
        prepared,
        Path(args.grid),
        options,
        out=args.out,
        progress=not args.quiet,
        client=client,
    )

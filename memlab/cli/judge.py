"""``memlab pool`` and ``memlab judge``: pooled judging of a dataset in the terminal.

Imports stay light here (the library is imported inside the commands).
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from memlab.cli.args import comma_list, integer, nonempty
from memlab.cli.commands import summary
from memlab.eval.runs.rankers import DEFAULT_RUNS, RANKERS

RUNS_HELP = (
    f"comma-separated runs: {', '.join(RANKERS)}, ranker@profile, "
    "or NAME=FILE.yaml (a profile and search settings)"
)


def register(sub: Any) -> None:
    p = sub.add_parser(
        "pool",
        help=summary("pool"),
        description="For every query, at its own time, take the union of the first DEPTH "
        "candidates of each run (returned hits first, then near misses), de-duplicated and "
        "in an order that does not reveal the ranker; merged into DATASET/pool.jsonl.",
    )
    p.add_argument(
        "dataset", type=nonempty, help="the dataset folder (e.g. written by `dataset from-memory`)"
    )
    p.add_argument(
        "--runs",
        type=comma_list,
        default=",".join(DEFAULT_RUNS),
        help=RUNS_HELP + f" (default {','.join(DEFAULT_RUNS)})",
    )
    p.add_argument(
        "--depth", type=integer(1, 10_000), default=10, help="candidates per run and query (10)"
    )
    p.add_argument("--seed", type=integer(0), default=0, help="seed of the blind order (0)")
    p.add_argument("--embedder", help="embedding provider (default: the dataset's vectors)")
    p.add_argument(
        "--queries", type=comma_list, help="comma-separated query ids to pool (default: all)"
    )
    p.add_argument("--work", help="where replays are built and cached")
    p.set_defaults(func=cmd_pool)

    j = sub.add_parser(
        "judge",
        help=summary("judge"),
        description="One candidate at a time, its query terms highlighted; every grade is "
        "saved at once to DATASET/qrels.tsv (who and when in judgements.jsonl). Quit any "
        "time and run again to resume. --health reports Judged@k per run and agreement.",
    )
    j.add_argument("dataset", type=nonempty, help="the dataset folder")
    j.add_argument("--judge", help="your name in judgements.jsonl (default: the login name)")
    j.add_argument(
        "--qrels",
        type=Path,
        help="write grades to this file instead (a second judge; the dataset is not changed)",
    )
    j.add_argument("--health", action="store_true", help="report judging health and exit")
    j.add_argument(
        "--runs", type=comma_list, help="--health: runs to check (default: the pool's runs)"
    )
    j.add_argument(
        "--depth", type=integer(1, 10_000), help="--health: k of Judged@k (default: the pool's)"
    )
    j.add_argument("--embedder", help="--health: embedding provider (default: the pool's)")
    j.add_argument(
        "--agreement",
        action="append",
        default=[],
        type=Path,
        metavar="QRELS",
        help="--health: Cohen's κ between the dataset's qrels and this judge's (repeatable)",
    )
    j.add_argument("--work", help="where replays are built and cached")
    j.set_defaults(func=cmd_judge)


def cmd_pool(args: argparse.Namespace) -> int:
    from memlab import progress
    from memlab.judging.pool import pool_dataset
    from memlab.judging.session import dataset_folder

    queries = [q.strip() for q in args.queries.split(",") if q.strip()] if args.queries else None
    progress.note(f"pool {args.dataset}: runs {args.runs}, depth {args.depth}")
    report = pool_dataset(
        dataset_folder(args.dataset),
        args.runs,
        depth=args.depth,
        seed=args.seed,
        embedder=args.embedder,
        queries=queries,
        work_dir=args.work,
        progress=progress.active(),
    )
    print(report.summary())
    for warning in report.warnings:
        print(f"warning: {warning}")
    print(f"next: memlab judge {args.dataset}")
    return 0


def cmd_judge(args: argparse.Namespace) -> int:
    if args.health:
        from memlab.judging.health import judging_health

        health = judging_health(
            args.dataset,
            args.runs,
            depth=args.depth,
            embedder=args.embedder,
            others=args.agreement,
            work_dir=args.work,
        )
        print(health.text())
        return 0
    from memlab.judging.session import JudgingSession
    from memlab.judging.terminal import run_terminal, terminal_console

    session = JudgingSession.open(
        args.dataset, judge=args.judge, qrels=args.qrels, work_dir=args.work
    )
    return run_terminal(session, terminal_console())

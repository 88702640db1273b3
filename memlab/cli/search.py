"""``memlab index``, ``memlab search`` and ``memlab demo``."""

from __future__ import annotations

import argparse
import json
from typing import TYPE_CHECKING, Any

from memlab.cli.args import integer, number, time_value, workspace_name
from memlab.cli.commands import summary
from memlab.cli.options import add_config_args, resolve_config
from memlab.config import (
    CREATED_AT_RULES,
    KEYWORD_MODES,
    MAX_RESULTS,
    TOKENIZERS,
    MemlabConfig,
    strategy_names,
)
from memlab.timefmt import parse_time

if TYPE_CHECKING:  # the store and the search are imported by the commands that run them
    from memlab.store.store import MemoryStore


def register(sub: Any) -> None:
    p = sub.add_parser("index", help=summary("index"))
    p.add_argument("root", help="memory root (holds MEMORY.md and workspace directories)")
    _store_args(p)
    p.add_argument("--rebuild", action="store_true", help="delete the index and build it anew")
    p.add_argument(
        "--now", type=time_value, help="logical time of the indexing (ISO 8601 or unix seconds)"
    )
    p.add_argument("--json", action="store_true", help="print a JSON summary")
    p.set_defaults(func=cmd_index)

    s = sub.add_parser("search", help=summary("search"))
    s.add_argument("root")
    s.add_argument("query")
    _store_args(s)
    _search_args(s)
    s.add_argument("--explain", action="store_true", help="show the stage-by-stage trace")
    s.add_argument("--json", action="store_true", help="print one JSON object")
    s.add_argument(
        "--record-access",
        action=argparse.BooleanOptionalAction,
        default=False,
        help="bump the access counts of the returned hits as the agent does (c0's search "
        "always does; off here, so exploring does not change later rankings)",
    )
    s.set_defaults(func=cmd_search)

    e = sub.add_parser("embedders", help=summary("embedders"))
    e.add_argument("--json", action="store_true")
    e.set_defaults(func=cmd_embedders)

    d = sub.add_parser("demo", help=summary("demo"))
    d.add_argument("--out", help="directory to copy the demo memory into (default: a temp dir)")
    d.set_defaults(func=cmd_demo)


def _store_args(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--workspace", type=workspace_name, help="workspace directory name (default: the only one)"
    )
    p.add_argument(
        "--index",
        dest="index_path",
        help="index file (default: <workspace>/index.sqlite); only ever a memlab index",
    )
    p.add_argument(
        "--tokenizer",
        choices=TOKENIZERS,
        help="FTS5 tokenizer (an index property; default unicode61)",
    )
    p.add_argument(
        "--created-at",
        choices=CREATED_AT_RULES,
        help="what a chunk's age counts from (an index property): insert (when first "
        "indexed, c0's rule and the default), mtime (the file's modification time) or "
        "filename-date (a YYYY-MM-DD date in the file name, else mtime: OpenClaw's rule)",
    )
    p.add_argument("--embedder", help="embedding provider (see `memlab embedders`)")


def _search_args(p: argparse.ArgumentParser) -> None:
    add_config_args(p, "search", "half_life_days=30, mmr.lambda=0.5")
    p.add_argument("--strategy", help="merge strategy: " + ", ".join(strategy_names()))
    p.add_argument(
        "--half-life",
        type=number(0, hint=" (days; 0 = no decay)"),
        help="decay half-life in days (0 = no decay)",
    )
    p.add_argument(
        "--mmr",
        action=argparse.BooleanOptionalAction,
        default=None,
        help="MMR diversity rerank on/off",
    )
    p.add_argument("--lambda", dest="lam", type=number(0, 1), help="MMR λ (0..1)")
    p.add_argument("--max-results", type=integer(1, MAX_RESULTS), help="hits to return")
    p.add_argument(
        "--min-score", type=number(0, 1), help="drop hits whose score is below this (0..1)"
    )
    p.add_argument(
        "--keywords",
        choices=KEYWORD_MODES,
        help=(
            "c0 (runs of Unicode alphanumerics and _, default) or index "
            "(read the query with the index's tokenizer)"
        ),
    )
    p.add_argument(
        "--now", type=time_value, help="search time (ISO 8601 or unix seconds; default: now)"
    )


def config_from_args(args: argparse.Namespace) -> MemlabConfig:
    """The profile, ``--config``, the search flags, then ``--set`` (``cli.options``)."""
    flags = {
        "strategy": args.strategy,
        "half_life_days": args.half_life,
        "mmr.enabled": args.mmr,
        "mmr.lambda": args.lam,
        "max_results": args.max_results,
        "min_score": args.min_score,
        "keywords": args.keywords,
    }
    return resolve_config(args, "search", flags=flags)[0]


def open_store(args: argparse.Namespace, *, rebuild: bool = False) -> MemoryStore:
    from memlab.embeddings.registry import get_embedder
    from memlab.store.store import MemoryStore

    embedder = get_embedder(args.embedder) if args.embedder else None
    if rebuild:
        from pathlib import Path

        from memlab.store.guard import remove_index
        from memlab.store.layout import MemoryLayout

        layout = MemoryLayout.open(args.root, args.workspace)
        if args.index_path:
            remove_index(Path(args.index_path))
        else:
            remove_index(layout.default_index_path, layout.root)
    return MemoryStore.open(
        args.root,
        args.workspace,
        index_path=args.index_path,
        tokenizer=args.tokenizer,
        embedder=embedder,
        created_at_rule=args.created_at,
    )


def cmd_index(args: argparse.Namespace) -> int:
    with open_store(args, rebuild=args.rebuild) as store:
        report = store.build(parse_time(args.now), reclaim_dead=True)
        stats = store.index.stats()
        summary = {
            "root": str(store.layout.root),
            "workspace": store.layout.workspace,
            "index": str(store.index.path),
            "tokenizer": store.index.tokenizer,
            "created_at": store.index.config.created_at_rule,
            "files_changed": len(report.outcomes),
            "skipped": [{"path": o.path, "reason": o.reason} for o in report.skipped],
            "chunks": stats.chunks,
            "by_source": stats.by_source,
            "embedded": report.embedded,
            "versions": store.index.connection.versions(),
        }
    if args.json:
        print(json.dumps(summary, indent=2))
    else:
        print(
            f"indexed {summary['files_changed']} changed file(s): {stats.chunks} chunks "
            f"{stats.by_source} in {summary['index']}"
        )
        for o in report.skipped:
            print(f"  skipped {o.path}: {o.reason}")
    return 0


def cmd_search(args: argparse.Namespace) -> int:
    from memlab.retrieval.explain import format_result
    from memlab.retrieval.pipeline import search
    from memlab.retrieval.strategies import get_strategy

    cfg = config_from_args(args)
    get_strategy(cfg.search.strategy)  # an unknown strategy fails before the index is touched
    with open_store(args) as store:
        embedder = store.embedder.id if store.embedder is not None else None
        result = search(
            store,
            args.query,
            cfg,
            parse_time(args.now),
            trace=args.explain,
            record_access=args.record_access,
        )
    if args.json:
        print(json.dumps(result.to_dict(include_trace=args.explain), ensure_ascii=False))
    else:
        print(format_result(result, cfg.search, explain=args.explain))
        if args.explain:
            from memlab.retrieval.explain import format_legend

            print(format_legend(cfg.search, embedder))
    return 0


def cmd_embedders(args: argparse.Namespace) -> int:
    from memlab.embeddings.registry import list_embedders

    rows = list_embedders()
    if args.json:
        print(json.dumps(rows, indent=2))
        return 0
    for row in rows:
        state = "usable" if row["usable"] else "NOT usable"
        note = f" — {row['note']}" if row["note"] else ""
        print(f"{row['name']:<8} {state:<11} {row['description']}{note}")
    return 0


def cmd_demo(args: argparse.Namespace) -> int:
    from memlab.cli.demo import run_demo

    return run_demo(args.out)

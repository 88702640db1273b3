"""``memlab dataset …``: validate, inspect, import, generate datasets and update digests."""

from __future__ import annotations

import argparse
import shutil
from collections import Counter
from pathlib import Path
from typing import Any

from memlab.cli.args import existing_dir, existing_file, integer, iso_time, time_value
from memlab.cli.commands import summary
from memlab.datasets import compute_digest, load_dataset, update_digest, validate_dataset
from memlab.datasets.importers import IMPORTERS, ImportOptions, import_dataset
from memlab.datasets.importers.longmemeval import FUTURE_POLICIES
from memlab.timefmt import format_iso


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "dataset",
        help=summary("dataset"),
        description="Work with memlab datasets (format: see `pydoc memlab.datasets`).",
    )
    sub = parser.add_subparsers(dest="dataset_command", metavar="SUBCOMMAND")
    sub.required = True

    p = sub.add_parser("validate", help="report every problem of a dataset (exit 1 if any error)")
    p.add_argument("dir", type=existing_dir, help="dataset folder")
    p.add_argument("--all", action="store_true", help="show every problem, not the first 50")
    p.set_defaults(func=cmd_validate)

    p = sub.add_parser("info", help="summarise a dataset: metadata, groups, queries, judgements")
    p.add_argument("dir", type=existing_dir, help="dataset folder")
    p.set_defaults(func=cmd_info)

    p = sub.add_parser("digest", help="print the digest of a dataset's files (--write: store it)")
    p.add_argument("dir", type=existing_dir, help="dataset folder")
    p.add_argument("--write", action="store_true", help="write the digest into manifest.json")
    p.set_defaults(func=cmd_digest)

    _add_import(sub)
    _add_from_memory(sub)

    p = sub.add_parser(
        "generate", help="write the synthetic agent-memory dataset (seeded, reproducible)"
    )
    p.add_argument("dest", type=Path, metavar="DEST", help="the dataset folder to write")
    p.add_argument(
        "--seed",
        type=integer(0, 2**32 - 1),
        default=None,
        help="random seed (default: the shipped dataset's)",
    )
    p.add_argument(
        "--force", action="store_true", help="overwrite a dataset already in DEST (keeps vectors/)"
    )
    p.set_defaults(func=cmd_generate)

    p = sub.add_parser(
        "vectors", help="precompute the vectors of every chunk and query (vectors/<id>.sqlite)"
    )
    p.add_argument("dir", type=existing_dir, help="dataset folder")
    p.add_argument("--embedder", default="minilm", help="provider (default minilm)")
    p.set_defaults(func=cmd_vectors)


def cmd_vectors(args: argparse.Namespace) -> int:
    from memlab.eval.replay.precompute import precompute_vectors

    report = precompute_vectors(args.dir, args.embedder, progress=True)
    print(
        f"{report.path}: {report.texts} texts, {report.embedded} newly embedded "
        f"with {report.provider}"
    )
    return 0


def _add_import(sub: Any) -> None:
    kinds = "; ".join(f"{k}: {imp.summary}" for k, imp in IMPORTERS.items())
    p = sub.add_parser(
        "import",
        help="convert an external dataset into the memlab format",
        description=f"KIND is one of {kinds}. Nothing is downloaded.",
    )
    p.add_argument("kind", metavar="KIND", help=", ".join(IMPORTERS))
    p.add_argument("src", type=Path, metavar="SRC", help="the source file or folder")
    p.add_argument("dest", type=Path, metavar="DEST", help="the dataset folder to write")
    p.add_argument("--name", help="dataset name (default from SRC)")
    p.add_argument("--description", help="dataset description")
    p.add_argument("--licence", help="licence to record (default: the source's)")
    p.add_argument("--origin", help="origin to record (default: the source and its sha256)")
    p.add_argument(
        "--as-of",
        dest="as_of",
        type=iso_time,
        help="evaluation time, ISO 8601 (e.g. 2026-06-30T18:00:00Z)",
    )
    p.add_argument(
        "--limit",
        type=integer(1),
        help="import only the first N questions / conversations",
    )
    p.add_argument("--split", default="test", help="beir: qrels split to use (default: test)")
    p.add_argument(
        "--future-sessions",
        dest="future_sessions",
        default="clamp",
        choices=FUTURE_POLICIES,
        help="longmemeval: sessions dated after the question (default: clamp to its date)",
    )
    p.add_argument("--force", action="store_true", help="overwrite a dataset already in DEST")
    p.set_defaults(func=cmd_import)


def _add_from_memory(sub: Any) -> None:
    p = sub.add_parser(
        "from-memory",
        help="a dataset from a real memory folder (one group per workspace), to judge",
        description="Copy a memory folder (~/.grok/memory, or a folder of users' memories) "
        "into a dataset: one group per workspace, file times from mtimes or the dates in "
        "session file names; queries from --queries or entered later in `memlab judge`. "
        "The folder is only read (no link out of it is followed).",
    )
    p.add_argument("root", type=existing_dir, metavar="ROOT", help="the memory folder")
    p.add_argument("dest", type=Path, metavar="DEST", help="the dataset folder to write")
    p.add_argument(
        "--queries",
        type=existing_file,
        help="the team's queries: a text file (one per line) or JSON lines "
        '({"text", "group"?, "as_of"?, "query_id"?, "category"?})',
    )
    p.add_argument(
        "--as-of",
        dest="as_of",
        type=time_value,
        help="when the queries are asked, ISO 8601 (default: the newest file's time)",
    )
    p.add_argument(
        "--dates",
        choices=["mtime", "name"],
        default="mtime",
        help="file times: modification times (default) or the YYYY-MM-DD in session names",
    )
    p.add_argument(
        "--layout",
        choices=["auto", "root", "users"],
        default="auto",
        help="ROOT is one memory root, or a folder of users' roots (default: tell by looking)",
    )
    p.add_argument("--group", help="the group of queries that name none (several workspaces)")
    p.add_argument("--name", help="dataset name (default: DEST's folder name)")
    p.add_argument(
        "--embedder",
        help="also precompute vectors with this provider (e.g. minilm), so "
        "hybrid runs need no model later",
    )
    p.add_argument("--force", action="store_true", help="overwrite a dataset already in DEST")
    p.set_defaults(func=cmd_from_memory)


def cmd_from_memory(args: argparse.Namespace) -> int:
    from memlab.datasets.from_memory import dataset_from_memory
    from memlab.timefmt import parse_time

    result = dataset_from_memory(
        args.root,
        args.dest,
        queries=args.queries,
        as_of=parse_time(args.as_of),
        dates=args.dates,
        layout=args.layout,
        group=args.group,
        name=args.name,
        force=args.force,
    )
    print(result.summary())
    if args.embedder:
        from memlab.eval.replay.precompute import precompute_vectors

        report = precompute_vectors(result.dest, args.embedder)
        print(f"vectors: {report.texts} texts embedded with {report.provider}")
    print(f"next: memlab pool {args.dest}")
    return 0


def cmd_validate(args: argparse.Namespace) -> int:
    report = validate_dataset(args.dir)
    print(report.format(limit=None if args.all else 50))
    return 0 if report.ok else 1


def cmd_info(args: argparse.Namespace) -> int:
    ds = load_dataset(args.dir)
    print(f"name:        {ds.name}")
    print(f"description: {ds.description}")
    print(f"licence:     {ds.licence}")
    print(f"origin:      {ds.origin}")
    print(f"as_of:       {format_iso(ds.as_of)}")
    print(f"digest:      {ds.digest}")
    files = sum(len(g.created_at) for g in ds.groups.values())
    events = sum(len(g.events) for g in ds.groups.values())
    print(f"format:      {ds.format_version}")
    print(f"groups:      {len(ds.groups)} ({files} memory files, {events} timeline events)")
    if ds.index or ds.timeline:
        print(f"defaults:    index {dict(ds.index)}, timeline {dict(ds.timeline)}")
    if len(ds.groups) == 1:
        group = next(iter(ds.groups.values()))
        print(f"workspace:   {group.workspace or '(none: global memory only)'}")
    categories = Counter(q.category or "(none)" for q in ds.queries)
    print(f"queries:     {len(ds.queries)} ({sum(q.abstention for q in ds.queries)} abstention)")
    for name, n in sorted(categories.items()):
        print(f"  {name}: {n}")
    for level in ds.levels:
        judged = ds.with_level(level)
        relevant = sum(g > 0 for j in judged.qrels.values() for g in j.values())
        unjudged = sum(not q.abstention and not judged.judged(q.query_id) for q in ds.queries)
        default = " (default)" if level == ds.levels[0] else ""
        print(
            f"level {level}{default}: {relevant} relevant targets, "
            f"{unjudged} unjudged non-abstention queries"
        )
    return 0


def cmd_digest(args: argparse.Namespace) -> int:
    if args.write:
        print(update_digest(args.dir))
    else:
        print(compute_digest(args.dir))
    return 0


def cmd_import(args: argparse.Namespace) -> int:
    options = ImportOptions(
        name=args.name,
        description=args.description,
        licence=args.licence,
        origin=args.origin,
        as_of=args.as_of,
        limit=args.limit,
        split=args.split,
        future_sessions=args.future_sessions,
        force=args.force,
    )
    result = import_dataset(args.kind, args.src, args.dest, options)
    print(result.summary())
    report = validate_dataset(result.dest)
    print(report.format(limit=20))
    return 0 if report.ok else 1


def cmd_generate(args: argparse.Namespace) -> int:
    from memlab.datasets.generator import DEFAULT_SEED, generate_agent_memory

    seed = DEFAULT_SEED if args.seed is None else args.seed
    dest = generate_agent_memory(args.dest, seed=seed, force=args.force)
    print(validate_dataset(dest).format(limit=20))
    print(shipped_vectors_note(Path(dest), copied=copy_shipped_vectors(Path(dest))))
    return 0


def copy_shipped_vectors(dest: Path) -> list[str]:
    """Copy the shipped dataset's precomputed vectors into a generated dataset that has
    none (they are keyed by text: with the shipped seed they cover every chunk)."""
    from memlab.datasets.locate import DEFAULT_DATASET, resolve_dataset
    from memlab.errors import DatasetError

    try:
        shipped = resolve_dataset(DEFAULT_DATASET) / "vectors"
    except DatasetError:
        return []
    if not shipped.is_dir() or shipped.resolve() == (dest / "vectors").resolve():
        return []
    copied = []
    for src in sorted(shipped.glob("*.sqlite")):
        target = dest / "vectors" / src.name
        if not target.exists():
            target.parent.mkdir(exist_ok=True)
            shutil.copyfile(src, target)
            copied.append(src.stem)
    return copied


def shipped_vectors_note(dest: Path, copied: list[str]) -> str:
    have = sorted(p.stem for p in (dest / "vectors").glob("*.sqlite"))
    if not have:
        return (
            f"vectors: none in {dest}; hybrid and mmr runs fall back to text only (with a "
            f"warning) until `memlab dataset vectors {dest}` (needs memlab[minilm]) or "
            "--embedder hash"
        )
    source = "copied from the shipped dataset" if copied else "kept"
    return (
        f"vectors: {', '.join(have)} {source} (keyed by text: complete for the shipped seed; "
        f"for another seed, `memlab dataset vectors {dest}` embeds the texts they miss)"
    )

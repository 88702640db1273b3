"""``memlab eval``, ``memlab compare`` and ``memlab warmup``."""

from __future__ import annotations

import argparse
import gc
import json
from collections.abc import Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any

from memlab.cli.args import comma_list, named_file, nonempty
from memlab.cli.commands import summary
from memlab.cli.options import add_config_args, parse_assignments, read_config_file, resolve_config
from memlab.cli.protocol import add_protocol_args, run_protocol_command, use_protocol_profile
from memlab.cli.scheduler import add_scheduler_arg, scheduler_client
from memlab.config import (
    CHUNKING_MODES,
    DEFAULT_PROFILE,
    TOKENIZERS,
    DreamConfig,
    IndexConfig,
    MemlabConfig,
    SearchConfig,
    flatten,
    profile,
    with_overrides,
)
from memlab.eval.measures import AGENT_MEASURES, DEFAULT_MEASURES
from memlab.eval.metrics import check_measures
from memlab.eval.runs import DEFAULT_RUNS, RANKERS
from memlab.eval.significance import FAMILIES

if TYPE_CHECKING:
    from collections.abc import Mapping

    from memlab.eval.external import RunFile
    from memlab.eval.prepare import Prepared
    from memlab.eval.runs import Run

DREAM = "dream."  # --set dream.min_hours=24: the Dream settings of the replay


def register(sub: Any) -> None:
    e = sub.add_parser("eval", help=summary("eval"))
    _common(e)
    add_scheduler_arg(e)
    e.set_defaults(func=cmd_eval)

    c = sub.add_parser("compare", help=summary("compare"))
    _common(c)
    c.add_argument(
        "--runs",
        type=comma_list,
        default=",".join(DEFAULT_RUNS),
        help=f"comma-separated: {', '.join(RANKERS)}, ranker@profile, "
        "or NAME=FILE.yaml (a profile and search settings); the first is the baseline",
    )
    c.add_argument(
        "--run",
        action="append",
        default=[],
        type=named_file,
        metavar="NAME=FILE.trec",
        help="a TREC run from elsewhere, scored on the same judgements (repeatable; chunk "
        "ids 'path:i', or file paths with --unit file); listed after --runs",
    )
    c.add_argument(
        "--test",
        choices=["t", "fisher"],
        default="t",
        help="paired t-test (default) or Fisher randomisation",
    )
    c.add_argument(
        "--end-to-end-only",
        action="store_true",
        help="skip what follows the main table: reachability, the ranking-only view, "
        "answer-age and category tables, power, the min_score sweep",
    )
    c.add_argument(
        "--family",
        choices=FAMILIES,
        default="measure",
        help="the Holm family: each measure's comparisons (default), every test of the "
        "table (all), or no correction (none)",
    )
    c.add_argument(
        "--table",
        choices=["markdown", "latex"],
        help="also print every pair of runs tested, as a table for papers and slides "
        "(--out writes table.md and table.tex in any case)",
    )
    add_scheduler_arg(c)
    c.set_defaults(func=cmd_compare)

    w = sub.add_parser(
        "warmup",
        help=summary("warmup"),
    )
    w.set_defaults(func=cmd_warmup)


def _common(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "dataset", type=nonempty, help="dataset folder or a shipped dataset's name (agent-memory)"
    )
    add_config_args(p, "search", "half_life_days=30, mmr.lambda=0.5")
    p.add_argument("--embedder", help="embedding provider (default: the dataset's shipped vectors)")
    p.add_argument("--level", help="judgement level (e.g. session or turn)")
    add_memory_options(p)
    p.add_argument(
        "--unit",
        choices=["chunk", "file"],
        help="judge chunks or files (a file at its best chunk's rank); default: the "
        "profile's (chunk; file for standard-ir)",
    )
    p.add_argument(
        "--measures", type=comma_list, default=",".join(DEFAULT_MEASURES), help="comma-separated"
    )
    p.add_argument(
        "--exclude-tag",
        action="append",
        default=[],
        metavar="TAG",
        help="leave out queries with this tag (e.g. no-user-evidence for LongMemEval)",
    )
    add_protocol_args(p)
    p.add_argument("--out", help="write aggregated.csv, perquery.csv, manifest.json, runs/")
    p.add_argument(
        "--work", help="where replays are built and cached (default ~/.cache/memlab/replays)"
    )
    p.add_argument("--json", action="store_true", help="print the aggregated table as JSON")
    p.add_argument("--quiet", action="store_true", help="no progress bars")


def add_memory_options(p: argparse.ArgumentParser) -> None:
    """Index options and Dream on the timeline (defaults: the dataset's manifest)."""
    p.add_argument(
        "--tokenizer",
        choices=TOKENIZERS,
        help="FTS5 tokenizer of every query's replayed index (default: the dataset's, with "
        "its per-tag tokenizers, else unicode61)",
    )
    p.add_argument(
        "--chunk-bytes", type=int, metavar="N", help="chunk size in UTF-8 bytes (default 1600)"
    )
    p.add_argument(
        "--chunk-overlap", type=int, metavar="N", help="chunk overlap in characters (default 320)"
    )
    p.add_argument(
        "--chunking",
        choices=CHUNKING_MODES,
        help="c0 (SPEC chunker, default), record (one chunk per turn / document) or file "
        "(one chunk per file)",
    )
    p.add_argument(
        "--roles",
        metavar="ROLES",
        help="index only these speakers' turns (comma-separated, e.g. user; default all)",
    )
    p.add_argument(
        "--dream",
        choices=["on", "off"],
        help="run Dream at every session end of the replay (default: the dataset's "
        "timeline.dream); gates from --profile and --set dream.KEY=VALUE",
    )


def base_config(args: argparse.Namespace) -> SearchConfig:
    """The search configuration: profile, ``--config``, ``--set`` (``cli.options``);
    ``dream.*`` settings go to ``dream_config``."""
    search_only = [s for s in getattr(args, "set", []) or [] if not s.strip().startswith(DREAM)]
    return resolve_config(argparse.Namespace(**{**vars(args), "set": search_only}), "search")[
        0
    ].search


def chosen_profile(args: argparse.Namespace) -> MemlabConfig:
    """The profile the command starts from: ``--profile``, else the ``--config`` file's."""
    data = read_config_file(getattr(args, "config", None), "search")
    return profile(str(getattr(args, "profile", None) or data.get("profile") or DEFAULT_PROFILE))


def unit_of(args: argparse.Namespace) -> str:
    """``--unit``, else the profile's (``file`` for ``standard-ir``)."""
    return str(getattr(args, "unit", None) or chosen_profile(args).unit)


def tokenizer_of(args: argparse.Namespace) -> str | None:
    """``--tokenizer``, else a profile's own (porter for ``standard-ir``), else None: the
    dataset's."""
    if getattr(args, "tokenizer", None):
        return str(args.tokenizer)
    wanted = chosen_profile(args).index.tokenizer
    return wanted if wanted != IndexConfig().tokenizer else None


def dream_config(args: argparse.Namespace) -> DreamConfig:
    """The Dream settings of the replay: the profile's, the ``--config`` file's ``dream``
    section, then ``--set dream.KEY=VALUE``."""
    data = read_config_file(getattr(args, "config", None), "search")
    name = getattr(args, "profile", None) or data.get("profile") or DEFAULT_PROFILE
    overrides = dict(flatten(data.get("dream") or {}))
    sets = parse_assignments(getattr(args, "set", []) or [])
    overrides.update({k.removeprefix(DREAM): v for k, v in sets.items() if k.startswith(DREAM)})
    cfg = profile(str(name)).dream
    return with_overrides(cfg, overrides) if overrides else cfg


def selected_dataset(args: argparse.Namespace) -> Any:
    """The dataset named on the command line, at ``--level``, without ``--exclude-tag``."""
    from memlab.datasets import load_dataset

    ds = load_dataset(args.dataset, args.level)
    tags = getattr(args, "exclude_tag", None)
    return ds.select(exclude_tags=set(tags)) if tags else ds


def index_options(args: argparse.Namespace) -> dict[str, Any]:
    """The index options: the flags (``--tokenizer`` …), else the ``--config`` file's
    ``index`` section, else the profile's tokenizer (None: the dataset's)."""
    from memlab.eval.index_options import options_of_section

    path = getattr(args, "config", None)
    data = read_config_file(path, "search")
    found = options_of_section(data.get("index") or {}, f"config file {path}")
    flags = {
        "tokenizer": getattr(args, "tokenizer", None),
        "chunk_bytes": args.chunk_bytes,
        "chunk_overlap": args.chunk_overlap,
        "chunking": args.chunking,
        "roles": args.roles,
    }
    out = {k: v if v is not None else found.get(k) for k, v in flags.items()}
    out["tokenizer"] = out["tokenizer"] or tokenizer_of(args)
    return out


def prepared_from(args: argparse.Namespace) -> Prepared:
    """The dataset prepared as the command line says (index options, Dream, embedder)."""
    from memlab.eval.prepare import prepare_dataset

    return prepare_dataset(
        selected_dataset(args),
        embedder=args.embedder,
        **index_options(args),
        dream=None if args.dream is None else args.dream == "on",
        dream_config=dream_config(args),
        work_dir=args.work,
        progress=not args.quiet,
    )


def _run(args: argparse.Namespace, runs: Mapping[str, SearchConfig | Run | RunFile]) -> int:
    if getattr(args, "protocol", None):
        with fewer_collections():  # as an evaluation without a protocol
            ranked = _ranked(runs)
            return run_protocol_command(args, ranked, selected_dataset(args), dream_config(args))
    measures = [m.strip() for m in args.measures.split(",") if m.strip()]
    check_measures(measures)  # before the replay: a typo costs nothing
    with fewer_collections():
        return _evaluate(args, runs, measures)


@contextmanager
def fewer_collections(gen0: int = 10_000) -> Iterator[None]:
    """While an evaluation runs, the cyclic garbage collector runs less often: it
    allocates hundreds of thousands of small objects (chunks, candidates, judgements)
    that live until it ends, and each collection would walk them again. The modules
    imported so far are frozen out of the collections; the thresholds and the freeze
    are undone afterwards (the process, e.g. a notebook, keeps its own settings)."""
    before = gc.get_threshold()
    gc.freeze()
    gc.set_threshold(max(before[0], gen0), *before[1:])
    try:
        yield
    finally:
        gc.set_threshold(*before)
        gc.unfreeze()


def _evaluate(
    args: argparse.Namespace,
    runs: Mapping[str, SearchConfig | Run | RunFile],
    measures: list[str],
) -> int:
    from memlab import progress
    from memlab.eval.compare_view import compare_text
    from memlab.eval.experiment import run_experiment

    command = "compare" if getattr(args, "func", None) is cmd_compare else "eval"
    progress.note(f"{command} {args.dataset}: {len(runs)} run(s) ({', '.join(runs)})")
    with progress.phase(f"loading dataset {args.dataset}") as loading:
        prepared = prepared_from(args)
        loading.describe(f"{len(prepared.dataset.queries)} queries")
    with scheduler_client(args) as client:
        if client is not None:
            prepared.use_cluster(client)  # groups indexed and searched on the workers
        exp = run_experiment(
            prepared,
            runs,
            base=base_config(args),
            measures=measures,
            unit=unit_of(args),
            test=getattr(args, "test", "t"),
            family=getattr(args, "family", "measure"),
            out=args.out,
        )
    if args.json:
        print(json.dumps(exp.aggregated_records(), indent=2))
        return 0
    print(compare_text(exp, measures), flush=True)  # before the separation's long wait
    if getattr(args, "table", None):
        from memlab.eval.significance import pairwise_table

        table = pairwise_table(
            exp.perquery, list(exp.runs), [m for m in measures if m != "NumQ"],
            test=args.test, family=args.family,
        )  # fmt: skip
        print()
        print(table.to_markdown() if args.table == "markdown" else table.to_latex())
    if getattr(args, "func", None) is cmd_compare and not args.end_to_end_only:
        _separation(exp, measures, args.out)
    for w in exp.warnings:
        print(f"warning: {w}")
    if args.out:
        print(f"results in {args.out}")
    return 0


def _separation(exp: Any, measures: list[str], out: str | None) -> None:
    """Filtering and ranking taken apart (``memlab.eval.separation``), printed and written."""
    from pathlib import Path

    from memlab.eval.separation import separate, write_separation
    from memlab.eval.separation_text import separation_text

    ir = [m for m in measures if m not in ("NumQ", *AGENT_MEASURES)]
    if not ir:
        return
    sep = separate(exp, measure="nDCG@10" if "nDCG@10" in ir else ir[0])
    print()
    print(separation_text(sep), flush=True)
    if out:
        write_separation(sep, Path(out))


def cmd_eval(args: argparse.Namespace) -> int:
    use_protocol_profile(args, ",".join(DEFAULT_MEASURES))
    return _run(args, {"config": base_config(args)})


def cmd_compare(args: argparse.Namespace) -> int:
    from memlab.errors import ConfigError
    from memlab.eval.external import parse_run_files
    from memlab.eval.runs import parse_run_specs

    use_protocol_profile(args, ",".join(DEFAULT_MEASURES))
    # under --protocol a run file without a profile starts from the protocol's profile
    name = args.profile if args.protocol and args.profile else DEFAULT_PROFILE
    specs = parse_run_specs(args.runs, base=base_config(args), profile_name=name)
    runs: dict[str, Run | RunFile] = dict(specs)
    for run_name, run_file in parse_run_files(args.run).items():
        if run_name in runs:
            raise ConfigError(f"run '{run_name}' is named twice; give each run its own name")
        runs[run_name] = run_file
    return _run(args, runs)


def _ranked(runs: Mapping[str, SearchConfig | Run | RunFile]) -> dict[str, SearchConfig | Run]:
    """The runs memlab ranks itself; ``--run NAME=FILE`` has no place under --protocol."""
    from memlab.errors import ConfigError
    from memlab.eval.external import RunFile

    files = [name for name, run in runs.items() if isinstance(run, RunFile)]
    if files:
        raise ConfigError(
            f"--run {files[0]}=…: --protocol ranks the paper's units itself; compare runs "
            "from elsewhere without --protocol"
        )
    return {name: run for name, run in runs.items() if not isinstance(run, RunFile)}


def cmd_warmup(args: argparse.Namespace) -> int:
    from memlab.eval.ranx_backend import numba_cache_dir, warm_up

    timings = warm_up()
    print(
        f"ranx ready: import {timings['import_s']:.1f} s, first metrics "
        f"{timings['first_metrics_s']:.1f} s (numba cache: {numba_cache_dir()})"
    )
    import time

    from memlab.dream.sim.kernel import ready

    start = time.perf_counter()
    ready()
    print(f"Dream simulator ready: {time.perf_counter() - start:.1f} s")
    return 0

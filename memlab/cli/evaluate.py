"""``memlab eval``, ``memlab compare`` and ``memlab warmup``."""

from __future__ import annotations

import argparse
import json
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from memlab.cli.args import comma_list, named_file, nonempty
from memlab.cli.commands import summary
from memlab.cli.options import add_config_args, resolve_config
from memlab.cli.protocol import add_protocol_args, run_protocol_command, use_protocol_profile
from memlab.cli.scheduler import add_scheduler_arg, scheduler_client
from memlab.config import (
    CHUNKING_MODES,
    DEFAULT_PROFILE,
    TOKENIZERS,
    IndexConfig,
    MemlabConfig,
    SearchConfig,
)
from memlab.eval.compare.orchestration import fewer_collections
from memlab.eval.measures import (
    DEFAULT_MEASURES,
    MEASURE_FAMILIES,
    check_measures,
)
from memlab.eval.runs.rankers import DEFAULT_RUNS, RANKERS
from memlab.eval.stats.significance import FAMILIES

if TYPE_CHECKING:
    from collections.abc import Mapping

    from memlab.eval.replay.prepared import Prepared, PrepareOptions
    from memlab.eval.runs.external import RunFile
    from memlab.eval.runs.rankers import Run


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
        "--measures",
        type=comma_list,
        default=",".join(DEFAULT_MEASURES),
        help="comma-separated, of: " + ", ".join(f.usage for f in MEASURE_FAMILIES.values()),
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


@dataclass(frozen=True)
class Resolved:
    """A command's whole configuration, from one read of ``--config`` and one parse of
    ``--set`` (``cli.options.resolve_config``): the profile with the search and Dream
    settings merged (``dream.*`` keys are Dream's), the index options, the file."""

    config: MemlabConfig
    index: dict[str, Any]
    data: dict[str, Any]


def resolved(args: argparse.Namespace) -> Resolved:
    """The configuration the command line gives (see ``Resolved``); the index options:
    the flags (``--tokenizer`` …), else the ``--config`` file's ``index`` section, else
    the profile's tokenizer (None: the dataset's)."""
    from memlab.eval.replay.index_options import options_of_section

    config, data = resolve_config(args, "search", also=("dream",))
    path = getattr(args, "config", None)
    found = options_of_section(data.get("index") or {}, f"config file {path}")
    flags = {
        "tokenizer": getattr(args, "tokenizer", None),
        "chunk_bytes": args.chunk_bytes,
        "chunk_overlap": args.chunk_overlap,
        "chunking": args.chunking,
        "roles": args.roles,
    }
    index = {k: v if v is not None else found.get(k) for k, v in flags.items()}
    if not index["tokenizer"]:
        wanted = config.index.tokenizer  # a profile's own (porter for standard-ir)
        index["tokenizer"] = wanted if wanted != IndexConfig().tokenizer else None
    return Resolved(config, index, data)


def base_config(args: argparse.Namespace) -> SearchConfig:
    """The search configuration: profile, ``--config``, ``--set`` (``cli.options``);
    ``dream.*`` settings go to the Dream settings."""
    return resolve_config(args, "search", also=("dream",))[0].search


def unit_of(args: argparse.Namespace, config: MemlabConfig) -> str:
    """``--unit``, else the profile's (``file`` for ``standard-ir``)."""
    return str(getattr(args, "unit", None) or config.unit)


def index_options(args: argparse.Namespace) -> dict[str, Any]:
    """The index options (see ``resolved``)."""
    return resolved(args).index


def prepare_options(args: argparse.Namespace, found: Resolved) -> PrepareOptions:
    """How the command line prepares the dataset: ``--embedder``, ``--level``,
    ``--exclude-tag``, the index options, ``--dream`` and the Dream settings, ``--work``,
    progress unless ``--quiet``."""
    from memlab.eval.replay.prepared import PrepareOptions

    return PrepareOptions(
        embedder=args.embedder,
        level=args.level,
        exclude_tags=tuple(getattr(args, "exclude_tag", None) or ()),
        **found.index,
        dream=None if args.dream is None else args.dream == "on",
        dream_config=found.config.dream,
        work_dir=args.work,
        progress=not args.quiet,
    )


def prepared_from(args: argparse.Namespace, found: Resolved | None = None) -> Prepared:
    """The dataset prepared as the command line says (index options, Dream, embedder)."""
    from memlab.eval.replay.prepared import prepare_dataset

    return prepare_dataset(args.dataset, prepare_options(args, found or resolved(args)))


def _run(
    args: argparse.Namespace, found: Resolved, runs: Mapping[str, SearchConfig | Run | RunFile]
) -> int:
    if getattr(args, "protocol", None):
        with fewer_collections():  # as an evaluation without a protocol
            options = prepare_options(args, found)
            dataset = options.load(args.dataset)
            return run_protocol_command(args, _ranked(runs), dataset, found.config.dream)
    measures = [m.strip() for m in args.measures.split(",") if m.strip()]
    check_measures(measures)  # before the replay: a typo costs nothing
    with fewer_collections():
        return _evaluate(args, found, runs, measures)


def _evaluate(
    args: argparse.Namespace,
    found: Resolved,
    runs: Mapping[str, SearchConfig | Run | RunFile],
    measures: list[str],
) -> int:
    from memlab import progress
    from memlab.eval.compare.experiment import Scoring
    from memlab.eval.compare.orchestration import run_comparison
    from memlab.eval.compare.view import compare_text

    command = "compare" if getattr(args, "func", None) is cmd_compare else "eval"
    progress.note(f"{command} {args.dataset}: {len(runs)} run(s) ({', '.join(runs)})")
    with progress.phase(f"loading dataset {args.dataset}") as loading:
        prepared = prepared_from(args, found)
        loading.describe(f"{len(prepared.dataset.queries)} queries")
    scoring = Scoring(
        unit=unit_of(args, found.config),
        test=getattr(args, "test", "t"),
        family=getattr(args, "family", "measure"),
    )
    with scheduler_client(args) as client:
        exp = run_comparison(
            prepared,
            runs,
            profile_name=found.config.profile,
            base=found.config.search,
            measures=measures,
            scoring=scoring,
            out=args.out,
            client=client,
        )
    if args.json:
        print(json.dumps(exp.aggregated_records(), indent=2))
        return 0
    print(compare_text(exp, measures), flush=True)  # before the separation's long wait
    if getattr(args, "table", None):
        from memlab.eval.stats.significance import pairwise_table

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
    """Filtering and ranking taken apart (``eval.compare.orchestration``), printed and
    written."""
    from pathlib import Path

    from memlab.eval.compare.orchestration import separation_of
    from memlab.eval.compare.separation import write_separation
    from memlab.eval.compare.separation_view import separation_text

    sep = separation_of(exp, measures)
    if sep is None:
        return
    print()
    print(separation_text(sep), flush=True)
    if out:
        write_separation(sep, Path(out))


def cmd_eval(args: argparse.Namespace) -> int:
    use_protocol_profile(args, ",".join(DEFAULT_MEASURES))
    found = resolved(args)
    return _run(args, found, {"config": found.config.search})


def cmd_compare(args: argparse.Namespace) -> int:
    from memlab.errors import ConfigError
    from memlab.eval.compare.orchestration import compare_runs
    from memlab.eval.runs.external import parse_run_files

    use_protocol_profile(args, ",".join(DEFAULT_MEASURES))
    found = resolved(args)
    # under --protocol a run file without a profile starts from the protocol's profile
    name = args.profile if args.protocol and args.profile else DEFAULT_PROFILE
    specs = compare_runs(args.runs, base=found.config.search, profile_name=name)
    runs: dict[str, Run | RunFile] = dict(specs)
    for run_name, run_file in parse_run_files(args.run).items():
        if run_name in runs:
            raise ConfigError(f"run '{run_name}' is named twice; give each run its own name")
        runs[run_name] = run_file
    return _run(args, found, runs)


def _ranked(runs: Mapping[str, SearchConfig | Run | RunFile]) -> dict[str, SearchConfig | Run]:
    """The runs memlab ranks itself; ``--run NAME=FILE`` has no place under --protocol."""
    from memlab.errors import ConfigError
    from memlab.eval.runs.external import RunFile

    files = [name for name, run in runs.items() if isinstance(run, RunFile)]
    if files:
        raise ConfigError(
            f"--run {files[0]}=…: --protocol ranks the paper's units itself; compare runs "
            "from elsewhere without --protocol"
        )
    return {name: run for name, run in runs.items() if not isinstance(run, RunFile)}


def cmd_warmup(args: argparse.Namespace) -> int:
    from memlab.eval.measures.ranx_backend import numba_cache_dir, warm_up

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

"""``memlab eval|compare DATASET --protocol locomo|longmemeval|beir [--published FILE]``.

Under a protocol the rankers start from the ``standard-ir`` profile (no decay,
``min_score`` 0, deep lists; ``--profile`` or the config file's ``profile`` chooses
another) and the dataset is evaluated at the paper's unit and on its question
set, with its measures (``memlab.eval.protocols``). The output states the unit,
the index and the question set, then the runs, the per-category means, the
paired comparisons and, with ``--published``, memlab's runs beside the paper's
numbers.
"""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING, Any

from memlab.config import STANDARD_IR
from memlab.config_file import read_config_file
from memlab.errors import ConfigError

if TYPE_CHECKING:
    from collections.abc import Mapping

    import pandas as pd

    from memlab.config import DreamConfig, SearchConfig
    from memlab.datasets import Dataset
    from memlab.eval.protocols import ProtocolResult, References
    from memlab.eval.runs.rankers import Run

PROTOCOL_NAMES = ("locomo", "longmemeval", "beir")


def add_protocol_args(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--protocol",
        choices=PROTOCOL_NAMES,
        help="evaluate as the benchmark's paper does: its unit (turn, session, document, "
        "with the source's ids), its question set and its measures (rankers on the "
        f"{STANDARD_IR} profile unless --profile says otherwise)",
    )
    p.add_argument(
        "--published",
        metavar="FILE.yaml",
        help="with --protocol: reference numbers from the paper (references: [{system, "
        "values: {MEASURE: VALUE}}]) shown beside memlab's runs",
    )
    p.add_argument(
        "--evidence",
        choices=("upstream", "turns"),
        help="with --protocol: which judged sessions are evidence: upstream (default: every "
        "session the source names, LongMemEval's answer_session_ids) or turns (only those "
        "holding an indexed evidence turn)",
    )


def use_protocol_profile(args: argparse.Namespace, default_measures: str) -> None:
    """Under ``--protocol``, the ``standard-ir`` profile unless one is chosen; ``--unit``
    (the protocol decides) is refused; ``--measures`` names the protocol's measures
    shown (``args.protocol_measures``; None: the paper's)."""
    for flag in ("published", "evidence"):
        if getattr(args, flag, None) and not getattr(args, "protocol", None):
            raise ConfigError(f"--{flag} needs --protocol (it belongs to a paper's evaluation)")
    if not getattr(args, "protocol", None):
        return
    if args.unit not in (None, "chunk"):
        raise ConfigError(f"--unit: --protocol {args.protocol} ranks the paper's unit (--level)")
    args.protocol_measures = None
    if args.measures != default_measures:
        from memlab.eval.protocols.paper_measures import parse

        names = tuple(m.strip() for m in args.measures.split(",") if m.strip())
        for name in names:
            try:
                parse(name)
            except ConfigError as exc:
                raise ConfigError(f"--measures: {exc}") from None
        args.protocol_measures = names or None
    if args.profile:
        return
    if not read_config_file(getattr(args, "config", None), "search").get("profile"):
        args.profile = STANDARD_IR


def run_protocol_command(
    args: argparse.Namespace,
    runs: Mapping[str, SearchConfig | Run],
    dataset: Dataset,
    dream: DreamConfig,
) -> int:
    """Run ``runs`` on ``dataset`` (as the command line selected it) under ``--protocol``;
    ``dream``: the Dream settings of the replay."""
    from pathlib import Path

    from memlab.eval.protocols import (
        get_protocol,
        load_references,
        prepare_protocol,
        published_table,
        run_protocol,
        write_protocol_outputs,
    )
    from memlab.eval.runs.rankers import as_run

    protocol = get_protocol(args.protocol)
    prepared = prepare_protocol(
        dataset,
        protocol,
        level=args.level,
        profile_name=args.profile,
        tokenizer=args.tokenizer,
        roles=args.roles,
        embedder=args.embedder,
        chunk_bytes=args.chunk_bytes,
        chunk_overlap=args.chunk_overlap,
        chunking=args.chunking,
        dream=None if args.dream is None else args.dream == "on",
        dream_config=dream,
        work_dir=args.work,
        progress=not args.quiet,
    )
    unit = protocol.units[prepared.dataset.level]
    measures = getattr(args, "protocol_measures", None)
    refs = (
        load_references(args.published, protocol.with_measures(measures or ()), unit)
        if args.published
        else None
    )
    specs = {name: as_run(spec) for name, spec in runs.items()}
    result = run_protocol(
        prepared,
        specs,
        protocol,
        evidence=args.evidence or "upstream",
        measures=measures,
        test=getattr(args, "test", "t"),
    )
    published = (
        published_table(result.aggregated, result.categories, list(result.runs), refs)
        if refs is not None
        else None
    )
    if args.json:
        import json

        print(json.dumps(result.records, indent=2))
    else:
        print("\n".join(protocol_report(result, args.profile, refs, published)))
    if args.out:
        write_protocol_outputs(result, Path(args.out), published, refs)
        print(f"results in {args.out}")
    table = getattr(args, "table", None)
    if table:
        from memlab.eval.protocols.paper_table import digits_of, paper_table, table_text

        suffix = ".md" if table == "markdown" else ".tex"
        print()
        print(table_text(paper_table(result, refs), suffix, digits=digits_of(result)), end="")
    return 0


def protocol_report(
    result: ProtocolResult,
    profile_name: str | None,
    refs: References | None = None,
    published: pd.DataFrame | None = None,
) -> list[str]:
    """The printed report (see the module docstring)."""
    from memlab.eval.protocols.paper_table import digits_of
    from memlab.eval.protocols.spec import is_unit_chunking
    from memlab.eval.protocols.units import EVIDENCE_RULES

    p, qs = result.protocol, result.questions
    memory = result.prepared.memory
    chunking = memory.index.chunking
    per_chunk = (
        f"one {result.unit} per chunk (the paper's unit)"
        if is_unit_chunking(chunking.mode, result.unit)
        else f"chunk rankings aggregated to {result.unit}s by first occurrence"
    )
    lines = [
        f"protocol {p.name}: {p.source}",
        f"unit: {result.unit} (the source's ids); index {memory.label()}; {per_chunk}",
        f"question set: {p.questions}: {qs.describe()}",
    ]
    if result.unit == "session":
        lines.append(f"session evidence: {result.evidence}: {EVIDENCE_RULES[result.evidence]}")
    if any(qs.categories):
        lines.append(
            "scored per category: " + ", ".join(f"{c} {n}" for c, n in qs.categories.items())
        )
    scale = 100.0 if p.percent else 1.0
    lines += [
        f"rankers on profile {profile_name or 'grok-c0'}; embedder "
        f"{result.prepared.embedder_id or 'none'}"
        + ("; values in percent, as the paper prints them" if p.percent else ""),
        "",
        _means_table(result, scale, digits_of(result)),
    ]
    if len(qs.categories) > 1:
        cats = _category_table(result)
        shown = [m for m in p.shown if m in cats.columns]
        cats[shown] = cats[shown] * scale
        lines += ["", "per category (mean, n):", _fmt(cats, digits_of(result))]
    if len(result.runs) > 1 and not result.compared.empty:
        cols = ["run", "measure", "delta", "ci_low", "ci_high", "p", "p_holm", "wins", "ties"]
        cols += ["losses", "n"]
        lines += ["", f"against {next(iter(result.runs))}:", _fmt(result.compared[cols])]
    if refs is not None and published is not None:
        pub = published.copy()
        values = [c for c in pub.columns if c not in ("system", "kind", "category")]
        pub[values] = pub[values] * scale
        lines += ["", _published_header(refs, result), _fmt(pub, digits_of(result))]
    lines += [f"warning: {w}" for w in result.warnings]
    return lines


def _published_header(refs: References, result: ProtocolResult) -> str:
    theirs = f"; the references: {refs.questions}" if refs.questions else ""
    source = f" ({refs.source})" if refs.source else ""
    return (
        f"published{source} — memlab at unit {result.unit}, "
        f"{len(result.questions.scored)} scored questions{theirs}:"
    )


def _category_table(result: ProtocolResult) -> pd.DataFrame:
    cats = result.categories
    shown = cats[cats["measure"].isin(result.protocol.shown)]
    wide = shown.pivot_table(
        index=["run", "category"], columns="measure", values="mean", sort=False
    )
    wide = wide.reindex(columns=[m for m in result.protocol.shown if m in wide.columns])
    counts = shown.groupby(["run", "category"], sort=False)["count"].max()
    wide["n"] = counts.astype(int)
    return wide.reset_index()


def _means_table(result: ProtocolResult, scale: float, digits: int) -> str:
    """Runs × the measures shown and NumQ, as ``memlab eval`` prints its table (no
    pandas: ``ProtocolResult.means``)."""
    from memlab.eval.compare.view import text_grid

    shown = list(result.protocol.shown)
    rows = [["run", *shown, "NumQ"]]
    for means in result.means(shown):
        n = means["NumQ"]
        cells = [_number(means[m] * scale, digits) for m in shown]
        rows.append([str(means["run"]), *cells, "NaN" if n != n else str(round(n))])
    return text_grid(rows)


def _number(value: float, digits: int) -> str:
    return "NaN" if value != value else f"{value:.{digits}f}"


def _fmt(frame: Any, digits: int = 3) -> str:
    """A pandas table in the grid ``memlab eval`` prints (text columns first, left-aligned;
    numbers right-aligned, floats to ``digits``)."""
    from memlab.eval.compare.view import text_grid

    columns = [str(c) for c in frame.columns]
    rows = [columns]
    for values in frame.itertuples(index=False, name=None):
        rows.append([_cell(v, digits) for v in values])
    text = [all(isinstance(v, str) for v in frame[c]) for c in frame.columns]
    left = next((i for i, is_text in enumerate(text) if not is_text), len(columns))
    return text_grid(rows, left=max(left, 1))


def _cell(value: Any, digits: int) -> str:
    if isinstance(value, float):
        return _number(value, digits)
    return "NaN" if value is None else str(value)

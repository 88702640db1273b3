"""What ``memlab eval`` and ``memlab compare`` print: a table people read.

* one row per run, one column per measure (the mean; one run: with its 95% CI),
  ``▲`` / ``▼`` where a run is significantly better / worse than the first run, and
  a line that names the significance family (``memlab.eval.stats.significance``);
* the comparisons with the first run: delta with its bootstrap CI, p, the adjusted p,
  wins/ties/losses and the verdict, for the measures asked for;
* notes: where an interval and a verdict seem to disagree, and runs that return the
  same ranking as an earlier run for most queries (with MMR: why).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

import numpy as np

from memlab.eval.compare.experiment import Experiment
from memlab.eval.measures import AGENT_MEASURES, NUGGET_MEASURES
from memlab.eval.stats.significance import ALPHA, family_sentence

MARK = {"better": "▲", "worse": "▼"}
SHOWN_AGENT = ("Redundancy", "Stale")


def header(exp: Experiment) -> str:
    ds = exp.dataset
    numq = [
        r["value"]
        for r in exp.aggregated_records()
        if r["measure"] == "NumQ" and not _missing(r["value"])
    ]
    scored = int(max(numq)) if numq else 0  # no NumQ row: nothing scored
    return (
        f"dataset {ds.name} ({len(ds.queries)} queries, {scored} scored by the IR measures), "
        f"embedder {exp.prepared.embedder_id or 'none'}, memory {exp.prepared.memory.label()}, "
        f"unit {exp.manifest.get('unit', 'chunk')}"
    )


def columns(exp: Experiment, measures: Sequence[str]) -> list[str]:
    have = {r["measure"] for r in exp.aggregated_records()}
    wanted = [m for m in measures if m != "NumQ"] + [m for m in SHOWN_AGENT if m not in measures]
    return [m for m in wanted if m in have] + (["NumQ"] if "NumQ" in have else [])


def run_table(exp: Experiment, measures: Sequence[str]) -> str:
    """Runs × measures; marks against the first run (several runs) or CIs (one run)."""
    agg = {(r["run"], r["measure"]): r for r in exp.aggregated_records()}
    verdicts = {(r["run"], r["measure"]): r["verdict"] for r in exp.compared_records()}
    cols = columns(exp, measures)
    single = len(exp.runs) == 1
    rows = [["run", *cols, "degraded"]]
    for run, result in exp.runs.items():
        cells = [run]
        for m in cols:
            if (run, m) not in agg:
                cells.append("-")
                continue
            row = agg[(run, m)]
            if m == "NumQ":
                cells.append(f"{int(row['value'])}")
                continue
            cell = f"{row['value']:.3f}"
            if m in NUGGET_MEASURES:
                cell += f" (n={int(row['n'])})"
            if single and m not in AGENT_MEASURES:
                cell += f" [{row['ci_low']:.3f}, {row['ci_high']:.3f}]"
            cells.append(cell + MARK.get(verdicts.get((run, m), ""), ""))
        cells.append(str(sum(result.degraded.values())))
        rows.append(cells)
    return text_grid(rows)


def baseline_table(exp: Experiment, measures: Sequence[str]) -> str:
    """The comparisons with the first run, for the measures asked for."""
    wanted = [m for m in measures if m != "NumQ"]
    rows = [["run", "measure", "delta", "95% CI", "p", "p_holm", "win/tie/loss", "verdict"]]
    for r in (r for r in exp.compared_records() if r["measure"] in wanted):
        rows.append(
            [
                str(r["run"]),
                str(r["measure"]),
                f"{r['delta']:+.3f}",
                f"[{r['ci_low']:+.3f}, {r['ci_high']:+.3f}]",
                f"{r['p']:.3f}",
                f"{r['p_holm']:.3f}",
                f"{r['wins']}/{r['ties']}/{r['losses']}",
                str(r["verdict"]),
            ]
        )
    return text_grid(rows, left=2)


def same_rankings(exp: Experiment) -> list[str]:
    """Runs that return an earlier run's ranking for more than half of the queries."""
    notes = []
    names = list(exp.runs)
    for i, name in enumerate(names[1:], start=1):
        run = exp.runs[name]
        best = max(
            ((other, _identical(exp.runs[other].rankings, run.rankings)) for other in names[:i]),
            key=lambda x: x[1],
        )
        other, same = best
        total = len(run.rankings)
        if total and same * 2 > total:
            line = f"{name} returns the same ranking as {other} for {same} of {total} queries"
            if run.config.mmr.enabled and not exp.runs[other].config.mmr.enabled:
                hits = np.median([len(ids) for ids in run.rankings.values()])
                line += (
                    f": MMR only reorders the hits that pass min_score "
                    f"({run.config.min_score:g}), a median of {hits:g} per query here"
                )
            notes.append(line)
    return notes


def _identical(a: dict[str, list[str]], b: dict[str, list[str]]) -> int:
    return sum(1 for qid, ids in b.items() if a.get(qid, []) == ids)


def compare_text(exp: Experiment, measures: Sequence[str]) -> str:
    """The whole printout of ``memlab eval`` / ``memlab compare``."""
    lines = [header(exp), "", run_table(exp, measures)]
    compared = exp.compared_records()
    tested = [r for r in compared if r["measure"] in measures]
    if len(exp.runs) > 1 and len(tested):
        base = next(iter(exp.runs))
        family = str(exp.manifest.get("family", "measure"))
        lines += [
            f"▲/▼: significantly better/worse than {base} (the first run); "
            + family_sentence(family, len(exp.runs), _distinct(compared, "measure"), ALPHA),
            "",
            f"against {base}: mean difference with its 95% bootstrap CI, "
            f"{'paired t-test' if exp.manifest.get('test') == 't' else 'randomisation test'} "
            "p, Holm-adjusted p",
            baseline_table(exp, measures),
        ]
    notes = [
        f"{r['run']} {r['measure']}: {r['note']}"
        for r in compared
        if r.get("note") and r["measure"] in measures
    ] + same_rankings(exp)
    if notes:
        lines += ["", "notes:", *(f"  {n}" for n in notes)]
    return "\n".join(lines)


def _missing(value: Any) -> bool:
    return value is None or (isinstance(value, float) and math.isnan(value))


def _distinct(records: list[dict[str, Any]], key: str) -> int:
    """Distinct values of ``key`` (missing ones left out, as pandas' ``nunique``)."""
    return len({r[key] for r in records if not _missing(r[key])})


def text_grid(rows: list[list[str]], left: int = 1) -> str:
    """Columns padded to their widest cell: the first ``left`` columns (and the heading)
    left-aligned, numbers right-aligned."""
    widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]))]
    out = []
    for n, row in enumerate(rows):
        cells = [
            c.ljust(w) if i < left or n == 0 else c.rjust(w)
            for i, (c, w) in enumerate(zip(row, widths, strict=True))
        ]
        out.append("  ".join(cells).rstrip())
    return "\n".join(out)

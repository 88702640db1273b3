"""Per-query measures of runs, their aggregates with CIs, and paired comparisons.

Every table is long and tidy: ``perquery`` has one row per (run, query_id,
measure); ``aggregate`` one row per (run, measure) with the mean, a bootstrap
CI and the number of queries; ``compare`` one row per (run, measure) against a
baseline run, with the delta, its CI, the p-value, the Holm-adjusted p-value
within its family (per measure by default; ``memlab.eval.stats.significance``), the
verdict, a note where CI and verdict seem to disagree, and win/tie/loss counts.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

import numpy as np

from memlab import progress
from memlab.datasets import qrels_by_file
from memlab.errors import ConfigError, unknown_name
from memlab.eval.measures import (
    AGENT_MEASURES,
    DEFAULT_MEASURES,
    DEFAULT_TOKEN_BUDGET,
    Returned,
    build_judgements,
    compute,
    parse_measure,
    redundancy,
    stale_above,
    tokens_of,
)
from memlab.eval.measures.novelty import NuggetTable, nugget_measure
from memlab.eval.replay.as_of import Timeline
from memlab.eval.replay.prepared import Prepared
from memlab.eval.runs.rankers import RunResult, to_file_level
from memlab.eval.stats import paired as stats
from memlab.eval.stats.significance import adjust

if TYPE_CHECKING:  # pandas loads when a table is built, not with ``memlab eval``
    import pandas as pd

PERQUERY_COLUMNS = ["run", "query_id", "category", "measure", "value"]
AGGREGATED_COLUMNS = ["run", "measure", "value", "ci_low", "ci_high", "n"]
Row = tuple[str, str, str, str, float]  # one perquery row, in PERQUERY_COLUMNS order
TESTS = ("t", "fisher")


UNITS = ("chunk", "file")


def unit_qrels(timeline: Timeline, unit: str) -> dict[str, dict[str, int]]:
    """The judgements at ``unit``: chunks as resolved at each query's time, or files
    (``qrels_by_file``: a file at its best target's grade)."""
    if unit == "chunk":
        return timeline.qrels
    if unit == "file":
        ds = timeline.dataset
        return {q: g for gid in ds.groups for q, g in qrels_by_file(ds, group=gid).items()}
    raise ConfigError(unknown_name("unit", str(unit), UNITS))


def measured_qrels(
    timeline: Timeline, qrels: Mapping[str, Mapping[str, int]]
) -> dict[str, dict[str, int]]:
    """The judgements of the queries the IR measures score: a positive grade, not an
    abstention query (what ``runs/<run>.qrels`` holds, so other tools score the same)."""
    abstain = {q.query_id for q in timeline.dataset.queries if q.abstention}
    return {
        qid: dict(g)
        for qid, g in qrels.items()
        if any(v > 0 for v in g.values()) and qid not in abstain
    }


def evaluate_run(
    source: Timeline | Prepared,
    run: RunResult,
    measures: Sequence[str] = DEFAULT_MEASURES,
    *,
    unit: str = "chunk",
    budget: int = DEFAULT_TOKEN_BUDGET,
) -> pd.DataFrame:
    """Per-query values of ``measures`` (IR, over judged queries) and the agent measures.

    ``source`` holds the judgements resolved at each query's time: the timeline the
    run was ranked on (a ``Prepared``: its default memory's)."""
    import pandas as pd

    rows = evaluate_rows(source, run, measures, unit=unit, budget=budget)
    return pd.DataFrame(rows, columns=PERQUERY_COLUMNS)


def evaluate_rows(
    source: Timeline | Prepared,
    run: RunResult,
    measures: Sequence[str] = DEFAULT_MEASURES,
    *,
    unit: str = "chunk",
    budget: int = DEFAULT_TOKEN_BUDGET,
) -> list[Row]:
    """``evaluate_run``'s rows as tuples (run, query_id, category, measure, value)."""
    timeline = source if isinstance(source, Timeline) else source.judged()
    qrels: Mapping[str, Mapping[str, int]] = unit_qrels(timeline, unit)
    if unit == "file":
        run = to_file_level(run)
    queries = {q.query_id: q for q in timeline.dataset.queries}
    judged = measured_qrels(timeline, qrels)
    rows: list[Row] = []

    def add(qid: str, measure: str, value: float | None) -> None:
        if value is not None:
            rows.append((run.name, qid, queries[qid].category or "", measure, float(value)))

    parsed = [parse_measure(m) for m in measures if m not in ("NumQ", *AGENT_MEASURES)]
    ir = [m.name for m in parsed if not m.nugget]
    abstention = {qid for qid, q in queries.items() if q.abstention}
    values = ir_values(run.rankings, qrels, list(queries), ir, abstention=abstention)
    for m in parsed:
        if m.nugget:
            if unit == "chunk":
                for qid, value in nugget_values(timeline, run, m.family, m.cutoff or 10).items():
                    add(qid, m.name, value)
            continue
        for qid in sorted(judged):
            add(qid, m.name, values[m.name][qid])
    stale_of = timeline.stale  # built once: a dict over every query
    count_hits = "Hits" in measures  # when asked for (the other agent measures: always)
    seen: dict[str, frozenset[str]] = {}  # snippet -> its tokens (Redundancy)
    for qid, q in queries.items():
        ranking, snippets = run.rankings.get(qid, []), run.snippets.get(qid, [])
        if count_hits:
            add(qid, "Hits", len(ranking))
        known_text = run.source is None  # an external run's snippets are unknown
        if known_text:
            add(qid, "Redundancy", redundancy(snippets, seen))
        relevant = {d for d, g in qrels.get(qid, {}).items() if g > 0}
        stale = set(stale_of.get(qid, []))
        if unit == "file":
            stale = {c.rsplit(":", 1)[0] for c in stale}
        add(qid, "Stale", stale_above(ranking, stale, relevant))
        if q.abstention:
            add(qid, "AbstainHits", len(ranking))
            add(qid, "Abstained", 1.0 if not ranking else 0.0)
        if known_text:
            tokens = tokens_of(snippets)
            add(qid, "Tokens", tokens)
            add(qid, "OverBudget", 1.0 if tokens > budget else 0.0)
    return rows


def ir_values(
    rankings: Mapping[str, Sequence[str]],
    qrels: Mapping[str, Mapping[str, int]],
    query_ids: Sequence[str],
    measures: Sequence[str],
    *,
    abstention: Collection[str] = (),
) -> dict[str, dict[str, float]]:
    """Per-query values of IR ``measures`` (``nDCG@10``, ``R@5``, ``RR``, ``Judged@10``, …)
    of ranked document ids, for the judged queries (not abstentions, a positive grade).

    Computed by memlab's vectorised measures (``memlab.eval.measures``), the same
    code a sweep uses; ranx is their reference (tests compare the two on real runs).
    A judged query with no hits scores 0."""
    docs = [(q, d) for q, qid in enumerate(query_ids) for d in rankings.get(qid, [])]
    segment = np.array([q for q, _ in docs], dtype=np.int64)
    ids = [d for _, d in docs]
    judgements = build_judgements(
        list(query_ids), segment, ids, [""] * len(ids), qrels, abstention=abstention
    )
    depth = max((len(rankings.get(qid, [])) for qid in query_ids), default=0)
    ranks = np.full((depth, len(query_ids)), -1, dtype=np.int64)
    if len(docs):
        first = np.r_[0, np.flatnonzero(np.diff(segment)) + 1]
        position = np.arange(len(docs)) - np.repeat(first, np.diff(np.r_[first, len(docs)]))
        ranks[position, segment] = np.arange(len(docs))
    hits = Returned(ranks, np.arange(len(query_ids), dtype=np.int64))
    values = compute(measures, hits, judgements)
    judged = [q for q, ok in enumerate(judgements.judged) if ok]
    return {m: {query_ids[q]: float(values[m][q]) for q in judged} for m in measures}


def nugget_values(timeline: Timeline, run: RunResult, family: str, k: int) -> dict[str, float]:
    """``alpha-nDCG@k``, ``NR@k`` or ``NRAll@k`` of every query judged with nuggets."""
    nuggets = timeline.nuggets
    queries = [q for q in timeline.dataset.queries if nuggets.get(q.query_id) and not q.abstention]
    if not queries:
        return {}
    row_nuggets, seg, rank = [], [], []
    for i, q in enumerate(queries):
        for r, chunk in enumerate(run.rankings.get(q.query_id, []), start=1):
            row_nuggets.append(nuggets[q.query_id].get(chunk, frozenset()))
            seg.append(i)
            rank.append(r)
    pools = [list(nuggets[q.query_id].values()) for q in queries]
    table = NuggetTable.build(row_nuggets, pools, np.ones(len(queries), dtype=bool))
    rows = np.arange(len(seg), dtype=np.int64)
    values = nugget_measure(
        family, table, rows, np.array(seg, np.int64), np.array(rank, np.int64), len(queries), k
    )
    return {q.query_id: float(v) for q, v in zip(queries, values, strict=True)}


def aggregate(perquery: pd.DataFrame, *, seed: int = 0, n_resamples: int = 2000) -> pd.DataFrame:
    """Mean, 95% bootstrap CI and query count per (run, measure); plus NumQ per run."""
    import pandas as pd

    rows = perquery[PERQUERY_COLUMNS].itertuples(index=False, name=None)
    records = aggregate_records(rows, seed=seed, n_resamples=n_resamples)
    return pd.DataFrame(records, columns=AGGREGATED_COLUMNS)


def aggregate_records(
    rows: Iterable[Row], *, seed: int = 0, n_resamples: int = 2000
) -> list[dict[str, Any]]:
    """``aggregate`` on perquery rows, as records (no pandas): one per (run, measure) in
    the order they first appear — the mean (NaN values left out, as pandas does), the
    bootstrap CI of every value and the row count — then NumQ per run (distinct
    queries with an IR measure)."""
    values: dict[tuple[str, str], list[float]] = {}
    scored: dict[str, set[str]] = {}
    for run, qid, _, measure, value in rows:
        if not _present(run) or not _present(measure):
            continue  # pandas' groupby leaves out missing keys
        values.setdefault((run, measure), []).append(value)
        if measure not in AGENT_MEASURES:
            scored.setdefault(run, set())
            if _present(qid):
                scored[run].add(qid)
    out: list[dict[str, Any]] = []
    draws = stats.SharedDraws()  # the measures of one query set share one draw
    for run, measure in progress.counted(list(values), "confidence intervals", "measure"):
        x = np.asarray(values[(run, measure)], dtype=np.float64)
        lo, hi = stats.bootstrap_ci(x, n_resamples, seed=seed, draws=draws)
        out.append(
            {
                "run": run,
                "measure": measure,
                "value": _mean(x),
                "ci_low": lo,
                "ci_high": hi,
                "n": len(x),
            }
        )
    for run, qids in scored.items():
        n = len(qids)
        out.append(
            {
                "run": run,
                "measure": "NumQ",
                "value": float(n),
                "ci_low": float(n),
                "ci_high": float(n),
                "n": n,
            }
        )
    return out


def _present(key: object) -> bool:
    """Not a missing value (None or NaN), which pandas' groupby and nunique skip."""
    return key is not None and key == key  # NaN is not equal to itself


def _mean(x: np.ndarray[Any, np.dtype[np.float64]]) -> float:
    """The mean as pandas takes it: NaN left out, the rest summed (NaN as 0) and divided
    by their count (NaN if none)."""
    missing = np.isnan(x)
    if missing.any():
        count = len(x) - int(missing.sum())
        if count == 0:
            return float("nan")
        return float(np.where(missing, 0.0, x).sum() / np.float64(count))
    return float(x.sum() / np.float64(len(x))) if len(x) else float("nan")


def compare(
    perquery: pd.DataFrame,
    baseline: str,
    *,
    test: str = "t",
    seed: int = 0,
    n_resamples: int = 2000,
    family: str = "measure",
) -> pd.DataFrame:
    """Every other run against ``baseline`` on every measure (paired over common queries);
    p-values Holm-adjusted within ``family`` (``memlab.eval.stats.significance``: per measure by
    default), with the verdict and a note where CI and verdict seem to disagree."""
    import pandas as pd

    if test not in TESTS:
        raise ConfigError(unknown_name("test", str(test), TESTS))
    wide = perquery.pivot_table(index=["measure", "query_id"], columns="run", values="value")
    rows = []
    draws = stats.SharedDraws()
    for run in [r for r in perquery["run"].unique() if r != baseline]:
        for measure in perquery["measure"].unique():
            if measure not in wide.index.get_level_values(0):
                continue
            part = wide.loc[measure][[baseline, run]].dropna()
            if part.empty:
                continue
            a, b = part[baseline].to_numpy(), part[run].to_numpy()
            p = stats.paired_t(a, b) if test == "t" else stats.fisher_randomisation(a, b, seed=seed)
            lo, hi = stats.bootstrap_ci(b - a, n_resamples, seed=seed, draws=draws)
            wtl = stats.win_tie_loss(a, b)
            rows.append(
                {
                    "run": run,
                    "baseline": baseline,
                    "measure": measure,
                    "base_value": a.mean(),
                    "value": b.mean(),
                    "delta": (b - a).mean(),
                    "ci_low": lo,
                    "ci_high": hi,
                    "p": p,
                    "wins": wtl.wins,
                    "ties": wtl.ties,
                    "losses": wtl.losses,
                    "n": len(a),
                }
            )
    return adjust(pd.DataFrame(rows), family, test=test)


def per_category(perquery: pd.DataFrame) -> pd.DataFrame:
    """Mean of every measure per run and query category (wide: one column per run)."""
    table = perquery.groupby(["category", "measure", "run"], sort=True)["value"].agg(
        ["mean", "count"]
    )
    return table.reset_index()

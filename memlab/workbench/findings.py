"""The c0 findings, measured rather than asserted.

* **Age limit.** With no accesses and source weight 1, a decaying chunk's best
  possible score is its decay (merged ≤ 1), so it can never pass ``min_score``
  once ``age > half_life · log2(1 / min_score)``: 10.6 days for c0 (7 days,
  0.35). ``age_limit_table``, ``decay_limit_plot`` and ``session_ages`` show it.
* **The evergreen supplement.** Rows the supplement adds (evergreen chunks
  outside the main FTS list) rank below every main-list row, so min–max
  normalisation puts them at or near 0: FTS-only they can pass only with help
  from the vector side. ``supplement_tally`` counts them over a dataset;
  ``supplement_effect`` switches the supplement off and on; ``supplement_example``
  shows one query's traces.

The dataset functions take a ``Prepared`` (``prepare_dataset``): indexes built
once, candidates gathered read-only.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from functools import cache
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from memlab.config import PROFILES, SearchConfig
from memlab.datasets import load_dataset
from memlab.datasets.locate import resolve_dataset
from memlab.eval.embedders import evaluation_embedder
from memlab.eval.prepare import Prepared, gather_batch, prepare
from memlab.search.ranking import rank_batch
from memlab.search.scoring import candidate_limit
from memlab.store.layout import is_evergreen
from memlab.workbench.demo import DAY, Demo
from memlab.workbench.display import Panel, Plot, figure
from memlab.workbench.traces import query_trace


def age_limit(half_life: float, min_score: float) -> float:
    """Days after which an unaccessed, unweighted chunk cannot pass ``min_score``."""
    if min_score <= 0:
        return math.inf
    return half_life * math.log2(1.0 / min_score)


def age_limit_table() -> pd.DataFrame:
    rows = []
    for name, cfg in PROFILES.items():
        s = cfg.search
        hl = s.effective_half_life()
        limit = age_limit(hl, s.min_score) if hl else math.inf
        rows.append(
            {
                "profile": name,
                "half-life (days)": hl,
                "min_score": s.min_score,
                "age limit (days)": round(limit, 2),
            }
        )
    return pd.DataFrame(rows)


def decay_limit_plot(max_days: float = 40.0) -> Plot:
    """Best possible score against age for each profile, with its age limit."""
    fig = figure(width=8, height=4)
    ax = fig.axes[0]
    days = np.linspace(0, max_days, 400)
    for (name, cfg), color in zip(PROFILES.items(), ("#c44e52", "#4c72b0"), strict=False):
        s = cfg.search
        hl = s.effective_half_life() or math.inf
        ax.plot(days, 0.5 ** (days / hl), color=color, label=f"{name}: half-life {hl:g} d")
        ax.axhline(s.min_score, color=color, ls=":", lw=1)
        limit = age_limit(hl, s.min_score)
        ax.axvline(limit, color=color, ls="--", lw=1)
        ax.annotate(
            f"{limit:.1f} d", (limit, 0.95), color=color, xytext=(3, 0), textcoords="offset points"
        )
    ax.set_xlabel("age of the chunk (days)")
    ax.set_ylabel("best possible score (decay × 1.0)")
    ax.set_ylim(0, 1.02)
    ax.legend()
    return Plot(fig, "age limit")


def session_ages(demo: Demo) -> pd.DataFrame:
    """Every decaying chunk of the demo: its age, decay, best score, accesses it would need."""
    cfg = demo.config()
    hl = cfg.effective_half_life()
    rows = demo.store.index.db.execute(
        "SELECT id, source, created_at, access_count FROM chunks ORDER BY created_at"
    ).fetchall()
    out = []
    for cid, source, created, accesses in rows:
        if is_evergreen(source):
            continue
        age = max((demo.now - created) / DAY, 0.0)
        decay = 0.5 ** (age / hl) if hl and hl > 0 else 1.0
        best = decay * (1 + 0.05 * math.log1p(accesses)) * cfg.source_weight(source)
        out.append(
            {
                "chunk": cid.split("/")[-1],
                "age (days)": round(age, 2),
                "decay": decay,
                "best possible score": best,
                "can pass min_score": best >= cfg.min_score,
                "accesses needed": accesses_needed(best, cfg.min_score),
            }
        )
    return pd.DataFrame(out)


def accesses_needed(best: float, min_score: float) -> str:
    """Accesses that would lift ``best`` to ``min_score`` (boost = 1 + 0.05·ln(1 + n))."""
    if best >= min_score:
        return "0"
    if best <= 0:
        return "never"
    exponent = (min_score / best - 1) / 0.05  # ln(1 + n)
    if exponent > 30:
        return f"about 10^{exponent / math.log(10):.0f}"
    return f"{math.ceil(math.expm1(exponent)):,}"


@cache
def _prepared(path: Path, embedder: str | None) -> Prepared:
    ds = load_dataset(path)
    return prepare(ds, embedder=evaluation_embedder(ds, embedder))


def prepare_dataset(dataset: str = "agent-memory", embedder: str = "") -> Prepared:
    """Load a dataset and build (or reuse) its indexes; cached per notebook kernel."""
    return _prepared(resolve_dataset(dataset), embedder or None)


def dataset_overview(prepared: Prepared) -> pd.DataFrame:
    """Queries per category, judged or not, and the index each group was built into."""
    ds = prepared.dataset
    rows: dict[str, dict[str, Any]] = {}
    for q in ds.queries:
        row = rows.setdefault(
            q.category or "-", {"category": q.category or "-", "queries": 0, "judged": 0}
        )
        row["queries"] += 1
        row["judged"] += int(ds.judged(q.query_id))
    table = pd.DataFrame(list(rows.values()))
    table.attrs["dataset"] = ds.name
    return table


def _supplement_only(prepared: Prepared, config: SearchConfig) -> tuple[Any, Any, np.ndarray]:
    limit = candidate_limit(config)
    batch = gather_batch(prepared, limit)
    ranked = rank_batch(batch, config, prepared.query_now)
    only = (batch.fts_pos >= limit) & (batch.supp_pos < limit)
    return batch, ranked, only


def supplement_tally(prepared: Prepared, runs: Sequence[str] = ("fts", "hybrid")) -> pd.DataFrame:
    """Supplement-only candidates over the whole dataset, FTS-only and hybrid (c0)."""
    rows = []
    for name in runs:
        config = SearchConfig(vectors=name != "fts")
        batch, ranked, only = _supplement_only(prepared, config)
        relevant = np.array(
            [
                prepared.qrels.get(batch.query_ids[s], {}).get(str(c), 0) > 0
                for s, c in zip(batch.segment, batch.chunk_id, strict=True)
            ],
            dtype=bool,
        )
        returned = ranked.final_rank > 0
        rows.append(
            {
                "run": name,
                "supplement-only candidates": int(only.sum()),
                "highest fts": float(ranked.fts[only].max(initial=0.0)),
                "with a vector score": int((only & (ranked.vec > 0)).sum()),
                "highest merged": float(ranked.merged[only].max(initial=0.0)),
                "passed min_score": int((only & ranked.kept).sum()),
                "returned": int((only & returned).sum()),
                "relevant among them": int((only & relevant).sum()),
                "relevant returned": int((only & relevant & returned).sum()),
            }
        )
    return pd.DataFrame(rows)


def supplement_effect(prepared: Prepared, category: str = "evergreen-crowded") -> pd.DataFrame:
    """Queries of ``category`` whose answer is returned, supplement off and on."""
    qids = [q.query_id for q in prepared.dataset.queries if q.category == category]
    rows = []
    for vectors in (False, True):
        for supplement in (False, True):
            config = SearchConfig(vectors=vectors, evergreen_supplement=supplement)
            batch, ranked, _ = _supplement_only(prepared, config)
            found = sum(1 for q in qids if _answer_returned(prepared, batch, ranked, q))
            rows.append(
                {
                    "run": "hybrid" if vectors else "fts",
                    "supplement": supplement,
                    "queries": len(qids),
                    "answer returned": found,
                }
            )
    return pd.DataFrame(rows)


def _answer_returned(prepared: Prepared, batch: Any, ranked: Any, qid: str) -> bool:
    q = batch.query_ids.index(qid)
    grades = prepared.qrels.get(qid, {})
    return any(grades.get(str(batch.chunk_id[i]), 0) > 0 for i in ranked.hits(q))


def supplement_example(prepared: Prepared, query_id: str = "") -> Panel:
    """Traces of a query whose supplement-only row passes only with vectors on."""
    if not query_id:
        batch, ranked, only = _supplement_only(prepared, SearchConfig(vectors=True))
        picked = np.flatnonzero(only & ranked.kept)
        if not len(picked):
            return Panel("no supplement-only row passes min_score in this dataset")
        query_id = batch.query_ids[int(batch.segment[picked[0]])]
    q = prepared.dataset.query(query_id)
    panel = Panel(
        f"{query_id}: {q.text!r}", ["rows shown: returned hits and every row the supplement found"]
    )
    for name, config in (
        ("FTS-only", SearchConfig(vectors=False)),
        ("hybrid", SearchConfig(vectors=True)),
    ):
        df = query_trace(prepared, query_id, config)
        keep = df["rank"].notna() | df["supplement"].notna()
        panel.add(name, df[keep].drop(columns=["in limit"]))
    return panel

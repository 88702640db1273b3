"""The c0 findings, measured rather than asserted (the evergreen supplement on a
dataset: ``memlab.workbench.supplement``).

* **Age limit.** A decaying chunk's best possible score is decay × source weight
  × access boost (merged ≤ 1). With no accesses and weight 1 it can never pass
  ``min_score`` once ``age > half_life · log2(1 / min_score)``: 10.6 days for c0
  (7 days, 0.35). Every access raises the limit — after 10 searches that
  returned it, ``half_life · log2(boost(10) / min_score)`` ≈ 11.7 days — and
  live searches count accesses, so a chunk that keeps being found lives longer.
  ``age_limit_table``, ``decay_limit_plot`` and ``session_ages`` show it; the
  formulas are the scoring core's (``decay_factor``, ``access_boost`` and their
  inverses).

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

from memlab.config import PROFILES, MemlabConfig
from memlab.datasets import load_dataset
from memlab.datasets.locate import resolve_dataset
from memlab.eval.replay.embedders import evaluation_embedder
from memlab.eval.replay.prepared import Prepared, prepare
from memlab.retrieval.scoring import (
    access_boost,
    accesses_for_boost,
    age_at_decay,
    decay_factor,
    source_weights,
)
from memlab.sources import is_evergreen
from memlab.timefmt import DAY
from memlab.workbench.display import Plot, figure
from memlab.workbench.tour import Demo


def age_limit(half_life: float | None, min_score: float, accesses: int = 0) -> float:
    """Days after which a chunk with ``accesses`` and source weight 1 cannot pass
    ``min_score`` even with a perfect match (inf when nothing decays)."""
    if min_score <= 0:
        return math.inf
    boost = float(access_boost(np.array([float(accesses)]))[0])
    return age_at_decay(min_score / boost, half_life)


def decaying_profiles() -> dict[str, MemlabConfig]:
    """The profiles whose search decays with age (the Grok releases; not standard-ir)."""
    return {n: c for n, c in PROFILES.items() if c.search.effective_half_life() is not None}


def age_limit_table(accesses: Sequence[int] = (0,)) -> pd.DataFrame:
    """Each decaying profile's half-life, min_score and age limit (per number of accesses)."""
    rows = []
    for name, cfg in decaying_profiles().items():
        s = cfg.search
        hl = s.effective_half_life()
        row: dict[str, Any] = {"profile": name, "half-life (days)": hl, "min_score": s.min_score}
        for n in accesses:
            label = "age limit (days)" if n == 0 else f"after {n} accesses"
            row[label] = round(age_limit(hl, s.min_score, n), 2)
        rows.append(row)
    return pd.DataFrame(rows)


def decay_limit_plot(max_days: float = 40.0) -> Plot:
    """Best possible score against age for each decaying profile, with its age limit."""
    fig = figure(width=8, height=4)
    ax = fig.axes[0]
    days = np.linspace(0, max_days, 400)
    colors = ("#c44e52", "#4c72b0")
    for (name, cfg), color in zip(decaying_profiles().items(), colors, strict=False):
        s = cfg.search
        hl = s.effective_half_life()
        best = decay_factor(np.zeros_like(days), days * DAY, hl, np.zeros(len(days), bool))
        ax.plot(days, best, color=color, label=f"{name}: half-life {hl or math.inf:g} d")
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
    """Every decaying chunk of the demo: its age, decay, best score, accesses it would need.

    The best score is what a perfect match (merged = 1) would get at the demo's time,
    computed by the scoring core's decay, source weight and access boost.
    """
    cfg = demo.config()
    chunks = [c for c in demo.store.index.chunks() if not is_evergreen(c.source)]
    chunks.sort(key=lambda c: c.created_at)
    created = np.array([c.created_at for c in chunks], dtype=np.float64)
    sources = np.array([c.source for c in chunks], dtype=object)
    accesses = np.array([c.access_count for c in chunks], dtype=np.float64)
    decay = decay_factor(
        created,
        np.full(len(chunks), demo.now),
        cfg.effective_half_life(),
        np.zeros(len(chunks), bool),
    )
    base = decay * source_weights(sources, cfg)
    best = base * access_boost(accesses)
    return pd.DataFrame(
        [
            {
                "chunk": c.chunk_id.split("/")[-1],
                "age (days)": round(max((demo.now - c.created_at) / DAY, 0.0), 2),
                "decay": float(decay[i]),
                "best possible score": float(best[i]),
                "can pass min_score": bool(best[i] >= cfg.min_score),
                "accesses needed": accesses_needed(float(base[i]), cfg.min_score),
            }
            for i, c in enumerate(chunks)
        ]
    )


def accesses_needed(base: float, min_score: float) -> str:
    """Accesses that would lift a best score of ``base`` (with no accesses) to ``min_score``."""
    if base >= min_score:
        return "0"
    if base <= 0:
        return "never"
    n = accesses_for_boost(min_score / base)
    if n < 1e12:
        return f"{math.ceil(n):,}"
    return f"about 10^{math.log10(n):.0f}" if math.isfinite(n) else "more than 10^308"


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

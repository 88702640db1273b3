"""Stage-by-stage traces as tables and plots, for the demo memory and for dataset queries.

A trace has one row per candidate with every stage's value (SPEC §4.1–§5):
where FTS ranked it (``fts list``; ``supplement`` for rows the evergreen
supplement added), its bm25 rank and min–max ``fts`` score, its vector distance
and ``vec`` score, the ``merged`` score, the content-free flag, ``decay``,
source weight, access ``boost``, the ``raw`` product, the clamped ``score``,
whether it passed ``min_score`` (``kept``), its MMR position and final rank.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np
import pandas as pd

from memlab.config import SearchConfig
from memlab.eval.replay.memory import Memory
from memlab.eval.replay.prepared import Prepared
from memlab.retrieval.candidates_batch import build_batch
from memlab.retrieval.keywords import extract_keywords, match_expression, token_outcomes
from memlab.retrieval.pipeline import SearchResult, search
from memlab.retrieval.ranking import rank_batch
from memlab.retrieval.strategies import candidate_limit
from memlab.retrieval.trace import TRACE_FIELDS, trace_rows
from memlab.workbench.display import Panel, Plot, figure
from memlab.workbench.tour import Demo

TRACE_VIEW = {f.key: f.label for f in TRACE_FIELDS if f.label}


def short_id(chunk_id: str) -> str:
    """``ws-1234/sessions/2026-03-05-x.md:0`` → ``sessions/2026-03-05-x.md:0``."""
    parts = chunk_id.split("/")
    return "/".join(parts[-2:]) if "sessions" in parts else chunk_id


def trace_frame(
    rows: list[dict[str, Any]], grades: Mapping[str, int] | None = None
) -> pd.DataFrame:
    """A trace (``SearchResult.trace``) as a table with readable column names."""
    df = pd.DataFrame(rows).reindex(columns=list(TRACE_VIEW)).rename(columns=TRACE_VIEW)
    if grades is not None:
        df.insert(2, "grade", [grades.get(cid) for cid in df["chunk"]])
    df["chunk"] = df["chunk"].map(short_id)
    for col in ("rank", "fts list", "supplement", "mmr"):
        df[col] = df[col].astype("Int64")
    for col in ("bm25", "distance"):
        df[col] = pd.to_numeric(df[col], errors="coerce")
    return df


def keywords(query: str) -> pd.DataFrame:
    """Each token of the query and what keyword extraction does with it (SPEC §4.1)."""
    rows = [{"token": token, "outcome": why} for token, why in token_outcomes(query)]
    match = match_expression(extract_keywords(query))
    rows.append({"token": "MATCH", "outcome": match or "(no FTS query)"})
    return pd.DataFrame(rows)


def run_search(
    demo: Demo, query: str, overrides: Mapping[str, Any] | None = None, **kwargs: Any
) -> tuple[SearchResult, SearchConfig]:
    config = demo.config(overrides)
    kwargs.setdefault("record_access", False)
    return search(demo.store, query, config, demo.now, trace=True, **kwargs), config


def trace(demo: Demo, query: str, overrides: Mapping[str, Any] | None = None) -> Panel:
    """Search the demo memory (read-only) and show every candidate's stages."""
    result, config = run_search(demo, query, overrides)
    return Panel(
        f"trace of {query!r}", search_notes(result, config), [("", trace_frame(result.trace or []))]
    )


def search_notes(result: SearchResult, config: SearchConfig) -> list[str]:
    limit = candidate_limit(config)
    words = extract_keywords(result.query)
    mmr = f"on, λ {config.mmr.lambda_}" if config.mmr.enabled else "off"
    notes = [
        f"keywords {words} → candidate limit {limit}; vectors "
        f"{'on' if config.vectors else 'off'}; min_score {config.min_score}; half-life "
        f"{config.effective_half_life()} days; MMR {mmr}",
        f"{len(result.hits)} hit(s) returned"
        + (f"; DEGRADED: {'; '.join(result.reasons)}" if result.degraded else "; not degraded"),
    ]
    return notes


def stage_plot(demo: Demo, query: str, overrides: Mapping[str, Any] | None = None) -> Plot:
    """Bars of fts, vec, merged and raw for every candidate, with the min_score line."""
    result, config = run_search(demo, query, overrides)
    df = trace_frame(result.trace or [])
    df = df[df["in limit"]].iloc[::-1]
    fig = figure(width=9, height=0.45 * len(df) + 1.5)
    ax = fig.axes[0]
    y = np.arange(len(df))
    series = [("fts", "#4c72b0"), ("vec", "#55a868"), ("merged", "#8172b2"), ("raw", "#c44e52")]
    height = 0.8 / len(series)
    for i, (col, color) in enumerate(series):
        ax.barh(y + (i - 1.5) * height, df[col].fillna(0.0), height, label=col, color=color)
    ax.axvline(config.min_score, color="k", ls="--", lw=1, label=f"min_score {config.min_score}")
    ax.set_yticks(y, list(df["chunk"]))
    ax.set_xlabel("score")
    ax.set_title(f"stages of {query!r}")
    ax.legend(loc="lower right", fontsize="small")
    return Plot(fig, f"stages of {query!r}")


def query_trace(
    prepared: Prepared, query_id: str, config: SearchConfig, memory: Memory | None = None
) -> pd.DataFrame:
    """The trace of one dataset query under ``config`` at the query's as_of: the scoring
    core over its candidates gathered when the replay reached that moment (what
    ``search()`` returns then; no SQL)."""
    q = prepared.dataset.query(query_id)
    timeline = prepared.timeline(candidate_limit(config), vectors=config.vectors, memory=memory)
    ranked = rank_batch(build_batch([timeline.candidates[query_id]]), config, q.as_of)
    rows = [r for r in trace_rows(ranked, 0) if r["in_set"]]
    return trace_frame(rows, timeline.judgements[query_id].grades)


def decay_side_by_side(
    demo: Demo, query: str, overrides: Mapping[str, Any] | None = None
) -> pd.DataFrame:
    """Every full-text candidate of ``query`` with decay off (``half_life_days`` null) and
    with the profile's decay: its text and merged scores, age, decay, and its score and
    rank in each.

    A rank of ``<NA>`` means the chunk is not returned (its score is under ``min_score``).
    """
    off, _ = run_search(demo, query, {**(overrides or {}), "half_life_days": None})
    on, config = run_search(demo, query, overrides)
    label = f"half-life {config.effective_half_life():g} d"
    rows: dict[str, dict[str, Any]] = {}
    for name, result in (("decay off", off), (label, on)):
        for r in result.trace or []:
            if r["bm25_rank"] is None:
                continue
            row = rows.setdefault(
                short_id(r["chunk_id"]),
                {"fts": r["fts"], "merged": r["merged"], "age (days)": round(r["age_days"], 1)},
            )
            if name != "decay off":
                row["decay"] = r["decay"]
            row[f"{name}: score"] = r["display"]
            row[f"{name}: rank"] = r["final_rank"]
    df = pd.DataFrame.from_dict(rows, orient="index").rename_axis("chunk")
    for col in ("decay off: rank", f"{label}: rank"):
        df[col] = df[col].astype("Int64")
    return df.sort_values("fts", ascending=False)

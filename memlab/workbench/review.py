"""The chapter's review questions, each answered by running the engine (one cell each).

* ``why_three_times``: the candidate limit and how many rows each list gave a real
  search (SPEC §4.1);
* ``mmr_defaults``: MMR's defaults from the config, and a search showing that
  λ 0.7 changes nothing until MMR is enabled (SPEC §5);
* ``lock_race``: two processes that both acquire the best-effort DreamLock
  (SPEC §7.4);
* ``missing_fields``: the fields EffectiveRuntimeConfig has, and the three it
  lacks (SPEC §8.1);
* ``capability_levels``: which cascade levels can set ``capability_mode``
  (SPEC §8.2);
* ``persona_vs_role_prompt``: a spawn aborted by ``persona_error`` beside one
  that continues with ``role_prompt_warning`` (SPEC §8.3).
"""

from __future__ import annotations

import os
from dataclasses import fields
from typing import Any

import pandas as pd

from memlab.workbench.display import Panel
from memlab.workbench.tour import Demo

NOT_IN_THE_RESULT = ("temperature", "max_tokens", "tools")


def why_three_times(demo: Demo, query: str = "which Node version does CI use?") -> Panel:
    """The candidate limit and the rows each candidate list gave ``query``."""
    from memlab.retrieval.pipeline import search
    from memlab.retrieval.strategies import candidate_limit

    config = demo.config()
    limit = candidate_limit(config)
    rows = search(demo.store, query, config, demo.now, trace=True, record_access=False).trace
    rows = rows or []
    table = pd.DataFrame(
        [
            {"list": "full text (bm25)", "limit": limit, "rows": _count(rows, "fts_pos")},
            {"list": "evergreen supplement", "limit": limit, "rows": _count(rows, "supp_pos")},
            {"list": "KNN (vectors)", "limit": limit, "rows": _count(rows, "vec_pos")},
            {"list": "merged (distinct chunks)", "limit": None, "rows": len(rows)},
            {"list": "returned", "limit": config.max_results, "rows": _returned(rows)},
        ]
    )
    notes = [
        f"candidate_limit = max_results {config.max_results} × {config.candidate_multiplier} "
        f"= {limit}: each list recalls wide, then merging, decay, min_score and MMR "
        f"cut it to at most {config.max_results}; ranking first would drop a right "
        "answer at the first step"
    ]
    return Panel(f"why max_results × 3? ({query!r})", notes, [("", table)])


def _count(rows: list[dict[str, Any]], key: str) -> int:
    return sum(1 for r in rows if r[key] is not None)


def _returned(rows: list[dict[str, Any]]) -> int:
    return sum(1 for r in rows if r["final_rank"])


def mmr_defaults(
    demo: Demo, query: str = "redis port node ci", overrides: dict[str, Any] | None = None
) -> Panel:
    """MmrConfig's defaults, c0's, and the hits under λ 0.7 and 0.3 with MMR off and on."""
    from memlab.config import MmrConfig
    from memlab.retrieval.pipeline import search

    base = overrides or {"vectors": False, "half_life_days": 30, "max_results": 3}
    default = MmrConfig()
    rows = []
    for enabled in (False, True):
        for lam in (default.lambda_, 0.3):
            config = demo.config({**base, "mmr.enabled": enabled, "mmr.lambda": lam})
            result = search(demo.store, query, config, demo.now, record_access=False)
            rows.append(
                {
                    "mmr.enabled": enabled,
                    "mmr.lambda": lam,
                    "hits": " · ".join(h.chunk_id.split("/")[-1] for h in result.hits),
                }
            )
    notes = [
        f"MmrConfig(): enabled={default.enabled}, lambda={default.lambda_}; "
        f"{(demo.base.mmr.enabled and 'on') or 'off'} in this profile",
        "λ only matters once MMR is enabled: off, every λ gives the same list",
    ]
    return Panel(f"MMR's defaults ({query!r})", notes, [("", pd.DataFrame(rows))])


def lock_race(stale_secs: float = 3600.0) -> pd.DataFrame:
    """Process A takes a real ``.dream-lock``; its model call outlives ``stale_secs``;
    process B (another live PID) reclaims the lock: both hold it."""
    from memlab.dream.lock import DreamLock
    from memlab.scratch import scratch_dir
    from memlab.workbench.dream_lessons import NOW

    folder = scratch_dir("memlab-dream-race-")
    a = DreamLock.for_workspace(folder, stale_secs)
    b = DreamLock(a.path, stale_secs, pid=os.getppid())
    steps = [
        ("A", a, NOW, "A starts a run"),
        ("B", b, NOW + 60, "B, a minute later (A alive, lock fresh)"),
        ("B", b, NOW + stale_secs + 1, "B, once A's lock is older than stale_lock_secs"),
    ]
    rows = []
    for who, lock, at, when in steps:
        got = lock.try_acquire(at)
        state = lock.read()
        rows.append(
            {
                "process": f"{who} (pid {lock.pid})",
                "when": when,
                "acquired": got.acquired,
                "lock body": state.pid if state else None,
                "why": getattr(got, "reason", "acquired"),
            }
        )
    both = rows[0]["acquired"] and rows[-1]["acquired"]  # A never rolled back
    rows.append(
        {
            "process": "A and B",
            "when": "A still running, B running",
            "acquired": both,
            "lock body": rows[-1]["lock body"],
            "why": "both believe they hold the lock: Dream must be idempotent"
            if both
            else "one holder",
        }
    )
    return pd.DataFrame(rows)


def missing_fields() -> pd.DataFrame:
    """EffectiveRuntimeConfig's fields, and whether the three often assumed exist."""
    from memlab.agents.types import EffectiveRuntimeConfig

    names = [f.name for f in fields(EffectiveRuntimeConfig)]
    rows = [{"field": n, "in EffectiveRuntimeConfig": True} for n in names]
    rows += [{"field": n, "in EffectiveRuntimeConfig": n in names} for n in NOT_IN_THE_RESULT]
    return pd.DataFrame(rows)


def capability_levels() -> pd.DataFrame:
    """For every combination of level states of the cascade, which level decided
    ``capability_mode``: the levels that can set it, and how often each did."""
    from memlab.agents.tables import cascade_matrix

    matrix = cascade_matrix(["capability_mode"])
    counts = matrix["level"].value_counts()
    levels = ("override", "role", "persona", "definition", "none")
    return pd.DataFrame(
        [{"level": lv, "decides capability_mode": int(counts.get(lv, 0))} for lv in levels]
    )


def persona_vs_role_prompt(ws: Any) -> pd.DataFrame:
    """A spawn with a ``persona_error`` beside one with a ``role_prompt_warning``."""
    from memlab.workbench.agents import failure_modes

    table = failure_modes(ws)
    shown = ["persona instructions file missing", "role prompt file missing"]
    picked = table[table["scenario"].isin(shown)]
    return picked[["spawn", "persona_error", "role_prompt_warning", "proceeds", "capability_mode"]]

"""ranx behind one function, with numba's compilation cache made persistent.

ranx JIT-compiles its metrics with numba on first use (tens of seconds in a
fresh environment). numba caches compiled code on disk; memlab points that
cache at ``$MEMLAB_CACHE_DIR/numba`` (default ``~/.cache/memlab/numba``) unless
``NUMBA_CACHE_DIR`` is already set, so the cost is paid once per machine and a
fresh notebook kernel reaches its first metric in seconds. ``warm_up()``
(run by ``make setup`` through ``memlab warmup``) pays it ahead of time.
"""

from __future__ import annotations

import time
from collections.abc import Mapping, Sequence
from typing import Any

from memlab.jit import compile_pending, note_compiling, numba_cache_dir, use_cache_dir

__all__ = ["compile_pending", "evaluate", "note_compiling", "numba_cache_dir", "warm_up"]


def _ranx() -> Any:
    use_cache_dir()
    note_compiling()
    import warnings

    warnings.filterwarnings("ignore", message=".*unsafe cast.*")
    import ranx

    return ranx


def evaluate(
    qrels: Mapping[str, Mapping[str, int]],
    rankings: Mapping[str, Sequence[str]],
    metrics: Sequence[str],
) -> dict[str, dict[str, float]]:
    """Per-query values of ranx ``metrics`` for every query in ``qrels``.

    ``qrels`` holds positive grades only; ``rankings`` the returned documents in
    order (ties already broken). A query missing from ``rankings`` or with no
    hits scores 0.
    """
    judged = {q: {d: int(r) for d, r in docs.items() if r > 0} for q, docs in qrels.items()}
    judged = {q: docs for q, docs in judged.items() if docs}
    if not judged or not metrics:
        return {m: {} for m in metrics}
    ranx = _ranx()
    run_dict = {
        q: {d: float(len(docs) - i) for i, d in enumerate(docs)}  # strictly decreasing
        for q, docs in rankings.items()
        if q in judged and docs
    }
    qids = sorted(judged)
    if not run_dict:
        return {m: dict.fromkeys(qids, 0.0) for m in metrics}
    scores = ranx.evaluate(
        ranx.Qrels(judged),
        ranx.Run(run_dict),
        list(metrics),
        return_mean=False,
        make_comparable=True,
    )
    if len(metrics) == 1:
        scores = {metrics[0]: scores}
    order = sorted(judged)  # ranx keys queries in sorted order after make_comparable
    return {m: {q: float(v) for q, v in zip(order, scores[m], strict=True)} for m in metrics}


def warm_up() -> dict[str, float]:
    """Import ranx and compute every metric family once; return the timings in seconds."""
    start = time.perf_counter()
    _ranx()
    imported = time.perf_counter()
    evaluate(
        {"q": {"a": 2, "b": 1}},
        {"q": ["a", "c", "b"]},
        ["ndcg@10", "recall@5", "precision@5", "mrr", "hit_rate@5", "map"],
    )
    done = time.perf_counter()
    return {
        "import_s": imported - start,
        "first_metrics_s": done - imported,
        "total_s": done - start,
    }

"""A test-only plugin: a new IR measure family and a new merge strategy, each defined
in this one file (what docs/contributing.md says a new one touches). Loaded by
``MEMLAB_PLUGINS=tests.plugins.extra_rankers``; tests run it in a subprocess so the
registries of the test process stay as shipped."""

from __future__ import annotations

import numpy as np

from memlab.arrays import FloatArray
from memlab.eval.measures import Cells, Family, register_family
from memlab.retrieval.strategies import STRATEGIES, Signals, Strategy, Weight, register_strategy


def found(c: Cells) -> FloatArray:
    """Relevant hits in the top k (a count: P@k × k)."""
    values: FloatArray = c.relevant[: c.k].sum(axis=0, dtype=np.float64)
    return values


def _max_merge(s: Signals, vw: Weight, tw: Weight) -> FloatArray:
    merged: FloatArray = np.maximum(s.vec, s.fts)
    return merged


register_family(Family("Found", "ir", "relevant hits in the top k", found, "required"))
_c0 = STRATEGIES["grok"]
register_strategy(
    Strategy("max", "max(v, f) of c0's signals", _c0.candidate_limit, _c0.signals, _max_merge)
)

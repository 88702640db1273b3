"""Measures, vectorised over all queries — and over many configurations — at once.

Every measure memlab reports is computed here: by evaluation
(``memlab.eval.compare.per_query``) for one run and by sweeps for thousands of
configurations. Each is its family's function (``memlab.eval.measures.families``)
over a dense table of returned hits (``Returned``: one line per query, or per
query under each of many configurations; one column per rank), with each row's
grade looked up once per candidate batch (``Judgements``). ranx is the
reference: tests compare every IR measure with ranx on random and real runs
(ranx itself is imported only there, as its numba code compiles in every fresh
process).

IR measures score the judged queries (not abstentions, at least one positive
judgement); a judged query with no hits scores 0. Every function returns one
value per query, NaN where the query is not scored.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

import numpy as np

from memlab.arrays import FloatArray
from memlab.eval.measures.agent import PairMean, PairSimilarity
from memlab.eval.measures.families import MEASURE_FAMILIES, Cells
from memlab.eval.measures.judgements import Judgements
from memlab.eval.measures.names import DEFAULT_TOKEN_BUDGET, parse_measure
from memlab.eval.measures.returned import Returned


def check_measures(measures: Sequence[str]) -> list[str]:
    """Validate measure names (ConfigError with a hint for unknown ones); ``NumQ`` and
    repeats dropped."""
    out = []
    for name in measures:
        parse_measure(name)
        if name != "NumQ" and name not in out:
            out.append(name)
    return out


def compute(
    measures: Sequence[str],
    hits: Returned,
    judgements: Judgements,
    *,
    similarity: PairSimilarity | None = None,
    budget: int = DEFAULT_TOKEN_BUDGET,
    pair_mean: PairMean | None = None,
) -> dict[str, FloatArray]:
    """Per-cell values (NaN = not scored) of every measure in ``measures``.

    ``similarity`` (for Redundancy) gives the Jaccard of row pairs; ``pair_mean``, when
    given, the mean pairwise Jaccard of each cell's hits directly
    (``memlab.retrieval.many.ManyScorer.mean_pair_similarity``, compiled)."""
    out: dict[str, FloatArray] = {}
    relevant = hits.take(judgements.grade > 0)  # ranks × cells, shared
    judged = judgements.judged[hits.query]
    base = Cells(hits, judgements, relevant, None, similarity, pair_mean, budget)
    for name in measures:
        m = parse_measure(name)
        family = MEASURE_FAMILIES[m.family]
        if family.compute is None:
            raise ValueError(f"'{name}' is not computed per query (it is a count)")
        values = family.compute(base if m.cutoff is None else replace(base, k=m.cutoff))
        out[name] = np.where(judged, values, np.nan) if family.kind == "ir" else values
    return out

"""Measures: their names, their families, and computing them over every query at once.

The face of the measures wing: ``parse_measure`` and the default lists
(``names``), one record per family (``families``: kind, cutoff rule, function,
ranx name, direction; ``register_family`` adds one), the table of returned hits
(``Returned``), ``compute`` and ``check_measures`` (``compute``), the judgements
the measures read (``judgements``), nugget measures (``novelty``), one query's
plain definitions (``one_query``) and ranx behind one function
(``ranx_backend``, imported on its own: ranx is heavy).
"""

from memlab.eval.measures.agent import PairMean, PairSimilarity
from memlab.eval.measures.compute import check_measures, compute
from memlab.eval.measures.families import MEASURE_FAMILIES, Cells, Family, register_family
from memlab.eval.measures.judgements import Judgements, build_judgements, judgements_for
from memlab.eval.measures.names import (
    AGENT_MEASURES,
    COST_MEASURES,
    DEFAULT_MEASURES,
    DEFAULT_TOKEN_BUDGET,
    NUGGET_MEASURES,
    SWEEP_MEASURES,
    Measure,
    better_sign,
    good_direction,
    parse_measure,
)
from memlab.eval.measures.novelty import NuggetTable, nugget_measure
from memlab.eval.measures.one_query import judged_at, redundancy, stale_above, tokens_of
from memlab.eval.measures.returned import Returned

__all__ = [
    "AGENT_MEASURES",
    "COST_MEASURES",
    "DEFAULT_MEASURES",
    "DEFAULT_TOKEN_BUDGET",
    "MEASURE_FAMILIES",
    "NUGGET_MEASURES",
    "SWEEP_MEASURES",
    "Cells",
    "Family",
    "Judgements",
    "Measure",
    "NuggetTable",
    "PairMean",
    "PairSimilarity",
    "Returned",
    "better_sign",
    "build_judgements",
    "check_measures",
    "compute",
    "good_direction",
    "judged_at",
    "judgements_for",
    "nugget_measure",
    "parse_measure",
    "redundancy",
    "register_family",
    "stale_above",
    "tokens_of",
]

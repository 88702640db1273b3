"""The measure families: one record per family, the one place a measure is defined.

A family (``nDCG``, ``R``, ``Redundancy``, …) is everything memlab knows about a
measure, in the style of ir_measures' measure registry and of the merge
strategies' ``STRATEGIES``: its name, what kind of queries it scores, whether it
takes a cutoff (``@k``), the function computing it over every cell at once, its
ranx name (ranx is the tests' reference), and which way is better. Parsing
(``memlab.eval.measures.names``), computing (``memlab.eval.measures.compute``),
the significance tests' direction, the reports' arrows and the ``--measures``
help all read this registry.

A new measure is one ``Family`` here (built in) or a ``register_family`` call (a
plugin module named in ``MEMLAB_PLUGINS``, see ``memlab.plugins``).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from memlab.arrays import BoolArray, FloatArray
from memlab.errors import ConfigError
from memlab.eval.measures import agent, ir
from memlab.eval.measures.agent import PairMean, PairSimilarity
from memlab.eval.measures.judgements import Judgements
from memlab.eval.measures.novelty import nugget_measure
from memlab.eval.measures.returned import Returned

KINDS = ("ir", "nugget", "agent", "count")
CUTOFFS = ("required", "optional", "none")
DIRECTIONS = ("higher", "lower", "neither")


@dataclass(frozen=True)
class Cells:
    """What a family's function reads: the hits of every cell, their judgements, the
    ranks × cells table of relevant hits, the cutoff, and the agent measures' inputs
    (pairwise similarity of candidate rows or its per-cell mean, the token budget)."""

    hits: Returned
    judgements: Judgements
    relevant: BoolArray
    k: int | None = None
    similarity: PairSimilarity | None = None
    pair_mean: PairMean | None = None
    budget: int = 2000


MeasureFunction = Callable[[Cells], FloatArray]


@dataclass(frozen=True)
class Family:
    """One measure family.

    ``kind``: ``ir`` scores the judged queries (at least one positive judgement, not
    an abstention; NaN elsewhere), ``nugget`` the queries judged with nuggets (the
    function returns NaN for the others), ``agent`` whatever its function says (NaN
    where a query is not scored), ``count`` is ``NumQ`` (reported beside the
    measures, not computed per cell). ``cutoff``: whether ``@k`` is ``required``,
    ``optional`` or refused (``none``). ``ranx``: ranx's metric name, if ranx has
    the measure. ``direction``: which way is better (``neither`` for counts)."""

    name: str
    kind: str
    describe: str
    compute: MeasureFunction | None
    cutoff: str = "optional"
    ranx: str | None = None
    direction: str = "higher"
    form: str = ""  # how the hints show it, when not the default (nDCG: "nDCG@k")

    def __post_init__(self) -> None:
        if self.kind not in KINDS or self.cutoff not in CUTOFFS:
            raise ValueError(f"family {self.name!r}: kind {self.kind!r}, cutoff {self.cutoff!r}")
        if self.direction not in DIRECTIONS:
            raise ValueError(f"family {self.name!r}: direction {self.direction!r}")
        if "@" in self.name or not self.name:
            raise ValueError(f"family name {self.name!r}: no '@', not empty")

    @property
    def usage(self) -> str:
        """How users write it: ``nDCG@k``, ``RR``, ``Redundancy``."""
        return self.form or self.name + ("@k" if self.cutoff == "required" else "")


def _ir(f: Callable[[Returned, Judgements, BoolArray, int | None], FloatArray]) -> MeasureFunction:
    return lambda c: f(c.hits, c.judgements, c.relevant, c.k)


def _nugget(family: str) -> MeasureFunction:
    def compute(c: Cells) -> FloatArray:
        hits, nuggets = c.hits, c.judgements.nuggets
        if nuggets is None:
            return np.full(hits.n_cells, np.nan)
        cell, col = np.nonzero(hits.ranks.T >= 0)  # by cell, then rank
        rows = hits.ranks[col, cell]
        k = c.k or 10
        return nugget_measure(
            family, nuggets, rows, cell, col + 1, hits.n_cells, k, cells=hits.query
        )

    return compute


def _redundancy(c: Cells) -> FloatArray:
    if c.pair_mean is not None:
        return c.pair_mean(c.hits)
    if c.similarity is None:
        raise ValueError("Redundancy needs the candidates' pairwise similarity")
    return agent.redundancy(c.hits, c.similarity)


MEASURE_FAMILIES: dict[str, Family] = {}


def register_family(family: Family) -> Family:
    """Add a measure family (a plugin's, or a built-in one); names are unique, case
    included and ignored (``ndcg`` would shadow ``nDCG`` in the hints)."""
    clash = next((n for n in MEASURE_FAMILIES if n.lower() == family.name.lower()), None)
    if clash is not None:
        raise ConfigError(f"measure family '{family.name}' is already defined ('{clash}')")
    MEASURE_FAMILIES[family.name] = family
    return family


_IR_FAMILIES = (  # name, describe, function, cutoff, ranx name
    ("nDCG", "normalised discounted cumulated gain", ir.ndcg, "optional", "ndcg"),
    ("R", "recall: relevant in the top k / all relevant", ir.recall, "required", "recall"),
    ("P", "precision: relevant in the top k / k", ir.precision, "required", "precision"),
    ("RR", "reciprocal rank of the first relevant hit", ir.reciprocal_rank, "optional", "mrr"),
    ("Success", "any relevant hit in the top k", ir.success, "required", "hit_rate"),
    ("MAP", "mean average precision", ir.average_precision, "optional", "map"),
    ("Judged", "share of the top k that is judged", ir.judged_share, "required", None),
)
_AGENT_FAMILIES: tuple[tuple[str, str, MeasureFunction, str], ...] = (
    # name, describe, function, direction
    ("Redundancy", "mean pairwise Jaccard of the hits", _redundancy, "lower"),
    (
        "Stale",
        "a superseded fact ranks above its replacement",
        lambda c: agent.stale_above(c.hits, c.judgements, c.relevant),
        "lower",
    ),
    (
        "AbstainHits",
        "hits for a query nothing answers",
        lambda c: agent.abstain_hits(c.hits, c.judgements),
        "lower",
    ),
    (
        "Abstained",
        "no hit for a query nothing answers",
        lambda c: agent.abstained(c.hits, c.judgements),
        "higher",
    ),
    ("Tokens", "tokens returned", lambda c: agent.tokens(c.hits, c.judgements), "lower"),
    (
        "OverBudget",
        "tokens returned exceed the budget",
        lambda c: (agent.tokens(c.hits, c.judgements) > c.budget).astype(np.float64),
        "lower",
    ),
    ("Hits", "hits returned", lambda c: c.hits.count(), "lower"),
)

for _name, _describe, _function, _cutoff, _ranx in _IR_FAMILIES:
    register_family(
        Family(
            _name,
            "ir",
            _describe,
            _ir(_function),
            _cutoff,
            _ranx,
            form="nDCG@k" if _name == "nDCG" else "",
        )
    )
register_family(Family("NumQ", "count", "queries scored", None, "none", direction="neither"))
for _name, _describe in (
    ("alpha-nDCG", "novelty-aware nDCG over nuggets"),
    ("NR", "nugget recall: nuggets covered in the top k / all"),
    ("NRAll", "every nugget covered within the top k"),
):
    register_family(Family(_name, "nugget", _describe, _nugget(_name), "required"))
for _name, _describe, _measure, _direction in _AGENT_FAMILIES:
    register_family(Family(_name, "agent", _describe, _measure, "none", direction=_direction))

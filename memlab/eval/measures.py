"""Measures: names as IR users write them, and the agent-memory measures.

IR measures (``nDCG@10``, ``R@5``, ``P@5``, ``RR``, ``Success@5``, ``MAP``) are
computed over judged queries (graded relevance; a query with no hits scores 0;
nDCG as in Järvelin & Kekäläinen, ACM TOIS 2002, with ranx's linear gain) by
memlab's vectorised measures (``memlab.eval.metrics``); each maps to a ranx
metric name (``Measure.ranx_name``), ranx being their reference in the tests.
``Judged@k`` (share of the top k that carry a judgement) and ``NumQ`` have no
ranx counterpart.
Novelty-aware and multi-note measures over nuggets (``alpha-nDCG@k``,
``NR@k``, ``NRAll@k``; ``memlab.eval.novelty``) score only the queries judged
with nuggets (their ``n`` says how many).

Agent-memory measures (IR tools lack them), computed here per query:

* ``Redundancy`` — mean pairwise Jaccard of the returned snippets' token sets
  (queries with ≥ 2 hits);
* ``Stale`` — 1 if a chunk holding a superseded fact ranks above every chunk
  holding its replacement (or the replacement is missing), for queries that
  have stale targets;
* ``AbstainHits`` — hits that pass ``min_score`` for a query that nothing
  answers; ``Abstained`` — 1 if there were none;
* ``Tokens`` — returned tokens (UTF-8 bytes / 4, rounded up, per snippet);
  ``OverBudget`` — 1 if Tokens exceeds the budget;
* ``Hits`` — hits returned (every query).

``COST_MEASURES`` are what a configuration costs the agent (false hits, context
tokens, hits); every sweep row carries them beside its quality measures.
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from memlab.errors import ConfigError, unknown_name
from memlab.text import jaccard, snippet_tokens

NUGGET_MEASURES = ("alpha-nDCG@10", "NR@10", "NRAll@10")
DEFAULT_MEASURES = (
    "nDCG@10",
    "R@5",
    "P@5",
    "RR",
    "Success@5",
    "Judged@10",
    *NUGGET_MEASURES,
    "NumQ",
)
COST_MEASURES = ("AbstainHits", "Tokens", "Hits")  # what a configuration costs the agent
SWEEP_MEASURES = ("nDCG@10", "R@5", "P@5", "RR", "Success@5", "Redundancy", *COST_MEASURES)
AGENT_MEASURES = (
    "Redundancy",
    "Stale",
    "AbstainHits",
    "Abstained",
    "Tokens",
    "OverBudget",
    "Hits",
)
DEFAULT_TOKEN_BUDGET = 2000

_RANX = {
    "nDCG": "ndcg",
    "R": "recall",
    "P": "precision",
    "Success": "hit_rate",
    "MAP": "map",
    "RR": "mrr",
}
_PATTERN = re.compile(r"^(alpha-nDCG|nDCG|NRAll|NR|R|P|Success|MAP|RR|Judged)(?:@(\d+))?$")
_NEEDS_CUTOFF = ("R", "P", "Success", "Judged", "alpha-nDCG", "NR", "NRAll")
# Measures where less is better (every other measure: more is better, but for the
# counts of NO_DIRECTION).
LOWER_IS_BETTER = frozenset({"Redundancy", "Stale", "AbstainHits", "Tokens", "OverBudget", "Hits"})
# Counts with no better direction: how many queries the measures were computed over.
NO_DIRECTION = frozenset({"NumQ"})


def better_sign(measure: str) -> int:
    """+1 when a higher value of ``measure`` is better, −1 when a lower one is."""
    return -1 if measure in LOWER_IS_BETTER else 1


def good_direction(measure: str) -> str:
    """Which way ``measure`` is better, in words: ``"higher"``, ``"lower"`` or
    ``"neither"`` (a count of queries, ``NumQ``)."""
    if measure in NO_DIRECTION:
        return "neither"
    return "lower" if measure in LOWER_IS_BETTER else "higher"


@dataclass(frozen=True)
class Measure:
    name: str  # as users write it: "nDCG@10"
    family: str  # "nDCG", "R", ..., "Judged", "NumQ"
    cutoff: int | None

    @property
    def nugget(self) -> bool:
        """Measured over nuggets (``memlab.eval.novelty``)."""
        return self.family in ("alpha-nDCG", "NR", "NRAll")

    @property
    def ranx_name(self) -> str | None:
        if self.family not in _RANX:
            return None
        base = _RANX[self.family]
        return f"{base}@{self.cutoff}" if self.cutoff else base


def parse_measure(name: str) -> Measure:
    """``nDCG@10`` → Measure; unknown names list the valid forms."""
    if name == "NumQ":
        return Measure(name, "NumQ", None)
    m = _PATTERN.match(name)
    if not m:
        family, _, cutoff = name.partition("@")
        families = (*_RANX, "Judged", "NumQ", "alpha-nDCG", "NR", "NRAll")
        proper = next((f for f in families if f.lower() == family.lower()), None)
        if proper is not None:
            fixed = proper + ("@" + cutoff if cutoff else "")
            raise ConfigError(f"unknown measure '{name}'; did you mean '{fixed}'?")
        valid = ["nDCG@k", "R@k", "P@k", "RR", "Success@k", "MAP", "Judged@k", "NumQ"]
        valid += ["alpha-nDCG@k", "NR@k", "NRAll@k"]
        raise ConfigError(unknown_name("measure", name, valid))
    family, cutoff = m.group(1), m.group(2)
    if family in _NEEDS_CUTOFF and cutoff is None:
        raise ConfigError(f"measure '{name}' needs a cutoff, e.g. {family}@5")
    return Measure(name, family, int(cutoff) if cutoff else None)


def judged_at(ranking: Sequence[str], judged: Mapping[str, int], k: int) -> float:
    """Share of the top ``k`` positions holding a judged document (0 if none returned)."""
    top = list(ranking[:k])
    return sum(1 for d in top if d in judged) / k if top else 0.0


def redundancy(
    snippets: Sequence[str], seen: dict[str, frozenset[str]] | None = None
) -> float | None:
    """Mean pairwise Jaccard of snippet token sets; None with fewer than two.
    ``seen``: the token sets of snippets already split (a run's queries share many
    snippets), filled as it goes."""
    if len(snippets) < 2:
        return None
    if seen is None:
        tokens = [snippet_tokens(s) for s in snippets]
    else:
        tokens = [seen[s] if s in seen else seen.setdefault(s, snippet_tokens(s)) for s in snippets]
    pairs = [jaccard(a, b) for i, a in enumerate(tokens) for b in tokens[i + 1 :]]
    return sum(pairs) / len(pairs)


def stale_above(ranking: Sequence[str], stale: set[str], relevant: set[str]) -> float | None:
    """1.0 if a stale chunk ranks above every relevant one (or no relevant one is returned)."""
    if not stale:
        return None
    first_stale = next((i for i, d in enumerate(ranking) if d in stale), None)
    if first_stale is None:
        return 0.0
    first_good = next((i for i, d in enumerate(ranking) if d in relevant), None)
    return 1.0 if first_good is None or first_stale < first_good else 0.0


def tokens_of(snippets: Sequence[str]) -> int:
    return sum(math.ceil(len(s.encode("utf-8")) / 4) for s in snippets)

"""Measures by name, as IR users write them: ``nDCG@10``, ``R@5``, ``RR``, ``Tokens``.

IR measures (``nDCG@10``, ``R@5``, ``P@5``, ``RR``, ``Success@5``, ``MAP``) are
computed over judged queries (graded relevance; a query with no hits scores 0;
nDCG as in Järvelin & Kekäläinen, ACM TOIS 2002, with ranx's linear gain) by
memlab's vectorised measures (``memlab.eval.measures.compute``); each maps to a
ranx metric name (``Measure.ranx_name``), ranx being their reference in the
tests. ``Judged@k`` (share of the top k that carry a judgement) and ``NumQ`` have
no ranx counterpart. Novelty-aware and multi-note measures over nuggets
(``alpha-nDCG@k``, ``NR@k``, ``NRAll@k``; ``memlab.eval.measures.novelty``) score
only the queries judged with nuggets (their ``n`` says how many).

Agent-memory measures (IR tools lack them; ``memlab.eval.measures.one_query``
defines them for one query): ``Redundancy``, ``Stale``, ``AbstainHits``,
``Abstained``, ``Tokens``, ``OverBudget``, ``Hits``.

``COST_MEASURES`` are what a configuration costs the agent (false hits, context
tokens, hits); every sweep row carries them beside its quality measures. What
each family is — its kind, cutoff rule, ranx name, direction, function — is its
record in ``memlab.eval.measures.families``.
"""

from __future__ import annotations

from dataclasses import dataclass

from memlab.errors import ConfigError, unknown_name
from memlab.eval.measures.families import MEASURE_FAMILIES, Family

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
# the built-in agent-memory measures, in the order reports list them
AGENT_MEASURES = tuple(f.name for f in MEASURE_FAMILIES.values() if f.kind == "agent")
DEFAULT_TOKEN_BUDGET = 2000


def _direction(measure: str) -> str:
    family = MEASURE_FAMILIES.get(measure.partition("@")[0])
    return family.direction if family is not None else "higher"


def better_sign(measure: str) -> int:
    """+1 when a higher value of ``measure`` is better, −1 when a lower one is."""
    return -1 if _direction(measure) == "lower" else 1


def good_direction(measure: str) -> str:
    """Which way ``measure`` is better, in words: ``"higher"``, ``"lower"`` or
    ``"neither"`` (a count of queries, ``NumQ``)."""
    return _direction(measure)


@dataclass(frozen=True)
class Measure:
    name: str  # as users write it: "nDCG@10"
    family: str  # "nDCG", "R", ..., "Judged", "NumQ", "Tokens"
    cutoff: int | None

    @property
    def record(self) -> Family:
        """The family's record (``memlab.eval.measures.families``)."""
        return MEASURE_FAMILIES[self.family]

    @property
    def nugget(self) -> bool:
        """Measured over nuggets (``memlab.eval.measures.novelty``)."""
        return self.record.kind == "nugget"

    @property
    def ranx_name(self) -> str | None:
        base = self.record.ranx
        if base is None:
            return None
        return f"{base}@{self.cutoff}" if self.cutoff else base


def parse_measure(name: str) -> Measure:
    """``nDCG@10`` → Measure; unknown names list the valid forms."""
    family_name, at, cutoff = name.partition("@")
    family = MEASURE_FAMILIES.get(family_name)
    if family is None or (at and not cutoff.isdecimal()) or (at and family.cutoff == "none"):
        if family is not None and family.cutoff == "none":
            raise ConfigError(f"measure '{family_name}' takes no cutoff: write '{family_name}'")
        proper = next((f for f in MEASURE_FAMILIES if f.lower() == family_name.lower()), None)
        if proper is not None and proper != family_name:
            fixed = proper + ("@" + cutoff if cutoff else "")
            raise ConfigError(f"unknown measure '{name}'; did you mean '{fixed}'?")
        if proper is not None:  # right family, a cutoff that is not a number
            usage = MEASURE_FAMILIES[proper].usage
            raise ConfigError(f"unknown measure '{name}'; the cutoff is a number: {usage}")
        valid = [f.usage for f in MEASURE_FAMILIES.values()]
        raise ConfigError(unknown_name("measure", name, valid))
    if family.cutoff == "required" and not at:
        raise ConfigError(f"measure '{name}' needs a cutoff, e.g. {family_name}@5")
    return Measure(name, family_name, int(cutoff) if at else None)

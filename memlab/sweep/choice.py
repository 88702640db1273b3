"""Choosing a configuration: an explicit rule over quality and costs, and the Pareto fronts.

A sweep row carries quality measures (``nDCG@10`` …) and costs (``AbstainHits``:
hits returned for queries nothing answers; ``Tokens``: what the hits add to the
agent's context; ``Hits``). The choice is made on the dev queries by a
``ChoiceRule``:

* ``constrained`` (the default): the best quality among the configurations whose
  ``AbstainHits`` and ``Tokens`` are no worse than the base profile's by more than
  ``tolerance`` (a share of the base's value); ``max_abstain_hits`` /
  ``max_tokens`` replace that cap by an absolute one;
* ``quality``: the best quality, whatever it costs (only explicit caps apply) —
  the unconstrained choice;
* a linear utility, ``"nDCG@10 - 0.05*AbstainHits - 0.0002*Tokens"``: the best
  value of that sum (only explicit caps apply).

Ties at the top keep the base when it is one of them (no change without evidence),
else go by sweep order. ``pareto_front``
gives the configurations no other one beats on quality at no higher cost.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from memlab.errors import ConfigError, unknown_name

OBJECTIVES = ("constrained", "quality")
DEFAULT_TOLERANCE = 0.05
CONSTRAINED_COSTS = ("AbstainHits", "Tokens")  # what the default rule holds to the base's
TIE = 1e-12  # scores closer than this are tied
_TERM = re.compile(r"(?:([0-9.eE+-]+)\*)?([A-Za-z][\w@.-]*)")
UTILITY_EXAMPLE = "'nDCG@10 - 0.05*AbstainHits - 0.0002*Tokens'"


@dataclass(frozen=True)
class ChoiceRule:
    """How a sweep picks its configuration (see the module docstring)."""

    measure: str = "nDCG@10"
    objective: str = "constrained"
    tolerance: float = DEFAULT_TOLERANCE
    max_abstain_hits: float | None = None
    max_tokens: float | None = None
    utility: tuple[tuple[str, float], ...] = field(default=())

    @classmethod
    def parse(
        cls,
        objective: str = "constrained",
        *,
        measure: str = "nDCG@10",
        tolerance: float = DEFAULT_TOLERANCE,
        max_abstain_hits: float | None = None,
        max_tokens: float | None = None,
    ) -> ChoiceRule:
        """A rule from its command-line form: ``constrained``, ``quality`` or a utility."""
        if not math.isfinite(tolerance) or tolerance < 0:
            raise ConfigError(f"the cost tolerance must be a share >= 0, got {tolerance}")
        for name, cap in (("--max-abstain-hits", max_abstain_hits), ("--max-tokens", max_tokens)):
            if cap is not None and not (math.isfinite(cap) and cap >= 0):
                raise ConfigError(f"{name} must be a number >= 0, got {cap}")
        text = objective.strip()
        terms: tuple[tuple[str, float], ...] = ()
        if text not in OBJECTIVES:
            terms = parse_utility(text)
            text = "utility"
        return cls(measure, text, tolerance, max_abstain_hits, max_tokens, terms)

    @property
    def measures(self) -> list[str]:
        """The measures the rule reads (its score and its caps)."""
        scored = [m for m, _ in self.utility] if self.utility else [self.measure]
        return list(dict.fromkeys([*scored, *self.capped]))

    @property
    def capped(self) -> list[str]:
        """The costs the rule caps."""
        out = list(CONSTRAINED_COSTS) if self.objective == "constrained" else []
        if self.max_abstain_hits is not None and "AbstainHits" not in out:
            out.append("AbstainHits")
        if self.max_tokens is not None and "Tokens" not in out:
            out.append("Tokens")
        return out

    def caps(self, base: Mapping[str, float]) -> dict[str, float]:
        """The cap on each capped cost, from the base's values (NaN: nothing to cap, e.g.
        no abstention query among the queries the choice is made on)."""
        explicit = {"AbstainHits": self.max_abstain_hits, "Tokens": self.max_tokens}
        out: dict[str, float] = {}
        for cost in self.capped:
            given = explicit.get(cost)
            out[cost] = float(given) if given is not None else base[cost] * (1 + self.tolerance)
        return out

    def score(self, rows: pd.DataFrame, column: ColumnOf) -> pd.Series:
        """What the rule maximises, per row."""
        if not self.utility:
            return rows[column(self.measure)].astype(float)
        total = pd.Series(0.0, index=rows.index)
        for name, weight in self.utility:
            total = total + weight * rows[column(name)].astype(float)
        return total

    def describe(self, base: Mapping[str, float], where: str = "dev") -> str:
        """The rule in one sentence, with its numbers (``where``: the queries it reads)."""
        if self.utility:
            head = f"the best utility {format_utility(self.utility)}"
        else:
            head = f"the best {self.measure}"
        caps = self.caps(base)
        if not caps:
            return head + f" on {where}, whatever it costs (unconstrained)"
        parts = []
        given = {"AbstainHits": self.max_abstain_hits, "Tokens": self.max_tokens}
        for cost, cap in caps.items():
            explicit = given.get(cost) is not None
            if math.isnan(cap):
                parts.append(f"{cost} not capped (no query on {where} measures it)")
            elif explicit:
                parts.append(f"{cost} ≤ {cap:.4g}")
            else:
                parts.append(
                    f"{cost} ≤ {cap:.4g} (the base's {base[cost]:.4g} + {self.tolerance:.0%})"
                )
        return f"{head} on {where} among the configurations with " + " and ".join(parts)


ColumnOf = Callable[[str], str]


def parse_utility(text: str) -> tuple[tuple[str, float], ...]:
    """``"nDCG@10 - 0.05*AbstainHits"`` → ``(("nDCG@10", 1.0), ("AbstainHits", -0.05))``:
    terms ``[WEIGHT*]MEASURE`` joined by `` + `` or `` - `` (spaces around them, as
    measure names hold hyphens: ``alpha-nDCG@10``)."""
    words = text.split()
    terms: list[tuple[str, float]] = []
    for i in range(0, len(words), 2):
        sign = 1.0
        if i:
            if words[i - 1] not in ("+", "-"):
                break
            sign = -1.0 if words[i - 1] == "-" else 1.0
        m = _TERM.fullmatch(words[i])
        weight = _number(m.group(1)) if m and m.group(1) else 1.0
        if m is None or weight is None:
            break
        terms.append((m.group(2), sign * weight))
    if not words or len(words) % 2 == 0 or len(terms) != (len(words) + 1) // 2:
        raise ConfigError(_bad_objective(text))
    from memlab.eval.measures import check_measures

    try:
        check_measures([name for name, _ in terms])
    except ConfigError as e:
        raise ConfigError(_bad_objective(text) if len(terms) == 1 else f"{e}") from None
    return tuple(terms)


def _bad_objective(text: str) -> str:
    return (
        f"{unknown_name('objective', text, OBJECTIVES)}; or a utility such as "
        f"{UTILITY_EXAMPLE} (spaces around + and -)"
    )


def _number(text: str) -> float | None:
    try:
        value = float(text)
    except ValueError:
        return None
    return value if math.isfinite(value) else None


def format_utility(terms: Sequence[tuple[str, float]]) -> str:
    out = ""
    for i, (name, weight) in enumerate(terms):
        sign = "-" if weight < 0 else ("+" if i else "")
        size = abs(weight)
        text = name if size == 1 else f"{size:g}*{name}"
        out += (f" {sign} " if i else sign) + text
    return out


@dataclass
class Choice:
    """The outcome of a rule over candidate rows (one of them the base)."""

    chosen: int  # the chosen row's position in the candidates
    eligible: np.ndarray  # per candidate: meets the caps
    score: np.ndarray  # per candidate: what the rule maximises
    caps: dict[str, float]
    tied: list[int]  # positions of the eligible candidates tied with the chosen one

    @property
    def n_eligible(self) -> int:
        return int(self.eligible.sum())


def choose(candidates: pd.DataFrame, rule: ChoiceRule, base: int, column: ColumnOf) -> Choice:
    """Apply ``rule`` to the candidate rows (``base``: the base's position; ``column``
    maps a measure to the column the choice reads, its dev column)."""
    for name in rule.measures:
        if column(name) not in candidates:
            raise ConfigError(
                f"the rule reads {name}, which this sweep did not compute; add it to --measures"
            )
    base_row = candidates.iloc[base]
    caps = rule.caps({c: float(base_row[column(c)]) for c in rule.capped})
    score = rule.score(candidates, column).to_numpy(dtype=float)
    eligible = ~np.isnan(score)
    for cost, cap in caps.items():
        if not math.isnan(cap):
            values = candidates[column(cost)].to_numpy(dtype=float)
            eligible &= np.nan_to_num(values, nan=0.0) <= cap + TIE
    if not eligible.any():
        text = rule.describe(base_row_costs(base_row, rule, column))
        raise ConfigError(
            f"no configuration meets the rule ({text}); "
            "loosen --max-abstain-hits / --max-tokens or use --objective quality"
        )
    best = float(np.max(score[eligible]))
    tied = [int(i) for i in np.flatnonzero(eligible & (score >= best - TIE))]
    chosen = base if base in tied else tied[0]  # no change without evidence for it
    return Choice(chosen, eligible, score, caps, tied)


def base_row_costs(row: pd.Series, rule: ChoiceRule, column: ColumnOf) -> dict[str, float]:
    return {c: float(row[column(c)]) for c in rule.capped}


def pareto_front(
    quality: Sequence[float] | np.ndarray,
    cost: Sequence[float] | np.ndarray,
    prefer: Sequence[int] = (),
) -> list[int]:
    """Positions of the rows no other row beats (higher quality at no higher cost, or
    lower cost at no lower quality), by increasing cost; NaN rows are left out and of
    rows equal on both only one is kept: the first of ``prefer`` among them, else the
    first in order."""
    q = np.asarray(quality, dtype=float)
    c = np.asarray(cost, dtype=float)
    ok = np.flatnonzero(~(np.isnan(q) | np.isnan(c)))
    rank = np.full(len(q), len(prefer), dtype=np.int64)
    for r, i in enumerate(prefer):
        rank[i] = min(rank[i], r)
    order = ok[np.lexsort((ok, rank[ok], -q[ok], c[ok]))]  # cost up, quality down
    front: list[int] = []
    best = -math.inf
    for i in order:
        if q[i] > best + TIE:
            front.append(int(i))
            best = q[i]
    return front

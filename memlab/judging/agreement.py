"""Agreement between two judges: Cohen's κ on the judgements both made.

κ = (p_o − p_e) / (1 − p_e), with p_o the share of items given the same grade
and p_e the agreement expected by chance from each judge's own grade
frequencies (J. Cohen, "A coefficient of agreement for nominal scales",
Educational and Psychological Measurement 20(1), 1960). Reported on the graded
scale (0, 1, 2 as categories) and on relevance alone (grade > 0). κ is
undefined (None) when chance agreement is total — both judges used one and the
same grade throughout. Pure; the arithmetic is statsmodels'.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass


def cohen_kappa(pairs: Sequence[tuple[int, int]]) -> float | None:
    """Cohen's κ of paired categorical labels (None if undefined or no pairs). Uses
    statsmodels' cohens_kappa on the contingency table of its to_table (imported here:
    statsmodels is heavy)."""
    if len(pairs) == 0:
        return None
    import numpy as np
    from statsmodels.stats.inter_rater import cohens_kappa, to_table

    table, _ = to_table(np.asarray(pairs, dtype=np.int64).reshape(-1, 2))
    if table.shape[0] == 1:
        return None  # one grade throughout, from both: chance agreement is total
    return float(cohens_kappa(table, return_results=False))


@dataclass(frozen=True)
class Agreement:
    items: int  # (query, target) pairs both judged
    observed: float  # share of them with the same grade
    kappa: float | None  # on the grades 0 / 1 / 2
    kappa_relevant: float | None  # on relevant (grade > 0) or not
    only_first: int
    only_second: int

    def text(self) -> str:
        def show(value: float | None) -> str:
            return "undefined" if value is None else f"{value:.2f}"

        return (
            f"κ {show(self.kappa)} on grades, κ {show(self.kappa_relevant)} on relevant-or-not, "
            f"over {self.items} judgements both made (same grade {self.observed:.0%}; "
            f"{self.only_first} judged by the first only, {self.only_second} by the second only)"
        )


def agreement(
    first: Mapping[str, Mapping[str, int]], second: Mapping[str, Mapping[str, int]]
) -> Agreement:
    """Agreement of two qrels (``{query: {target: grade}}``) on the items both judged."""
    both = [
        (grade, second[qid][target])
        for qid, judged in first.items()
        for target, grade in judged.items()
        if target in second.get(qid, {})
    ]
    n_first = sum(len(j) for j in first.values())
    n_second = sum(len(j) for j in second.values())
    return Agreement(
        len(both),
        sum(a == b for a, b in both) / len(both) if both else 0.0,
        cohen_kappa(both),
        cohen_kappa([(int(a > 0), int(b > 0)) for a, b in both]),
        n_first - len(both),
        n_second - len(both),
    )

"""Dev / holdout split of a dataset's queries (seeded, optionally stratified).

A sweep chooses its configuration on the dev queries and reports it on the
holdout queries, so the gap between the two shows how much of the gain is
tuning to the dev set. Stratifying by category keeps every category's share
the same in both parts (largest-remainder rounding, so the holdout size is
``round(n · holdout)`` overall).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from memlab.arrays import BoolArray
from memlab.errors import ConfigError, unknown_name


@dataclass(frozen=True)
class Split:
    """Which queries a sweep tunes on (dev) and which it reports on (holdout)."""

    dev: tuple[str, ...]
    holdout: tuple[str, ...]
    share: float = 0.0
    seed: int = 0
    stratified: bool = True

    def mask(self, query_ids: Sequence[str], part: str) -> BoolArray:
        """Boolean mask over ``query_ids``: ``part`` is "dev", "holdout" or "all"."""
        if part == "all":
            return np.ones(len(query_ids), dtype=bool)
        if part not in ("dev", "holdout"):
            raise ConfigError(unknown_name("part", str(part), ("dev", "holdout", "all")))
        chosen = set(self.dev if part == "dev" else self.holdout)
        return np.array([q in chosen for q in query_ids], dtype=bool)

    @property
    def parts(self) -> tuple[str, ...]:
        """The parts a sweep reports: ("all",) without holdout, else all, dev, holdout."""
        return ("all", "dev", "holdout") if self.holdout else ("all",)

    def describe(self) -> dict[str, Any]:
        return {
            "holdout": self.share,
            "seed": self.seed,
            "stratified": self.stratified,
            "dev_queries": len(self.dev),
            "holdout_queries": len(self.holdout),
        }


def split_queries(
    queries: Sequence[Any],
    holdout: float = 0.3,
    *,
    seed: int = 0,
    stratify: bool = True,
) -> Split:
    """Split queries (dataset ``Query`` objects, or plain ids) into dev and holdout.

    ``holdout`` is the share held out (0 → every query is dev). With ``stratify``
    each category (``Query.category``; plain ids have none) is split separately.
    """
    if not 0.0 <= holdout < 1.0:
        raise ConfigError(f"holdout must be in [0, 1), got {holdout}")
    ids = [q if isinstance(q, str) else q.query_id for q in queries]
    if len(set(ids)) != len(ids):
        raise ConfigError("query ids must be unique to split them")
    cats = [(None if isinstance(q, str) else getattr(q, "category", None)) or "" for q in queries]
    groups: dict[str, list[str]] = {}
    for qid, cat in zip(ids, cats, strict=True):
        groups.setdefault(cat if stratify else "", []).append(qid)
    sizes = _allocate({c: len(g) for c, g in groups.items()}, holdout, round(len(ids) * holdout))
    rng = np.random.default_rng(seed)
    held: set[str] = set()
    for cat in sorted(groups):
        members = sorted(groups[cat])
        picked = rng.permutation(len(members))[: sizes[cat]]
        held.update(members[i] for i in picked)
    return Split(
        dev=tuple(q for q in ids if q not in held),
        holdout=tuple(q for q in ids if q in held),
        share=float(holdout),
        seed=seed,
        stratified=stratify,
    )


def _allocate(counts: dict[str, int], share: float, total: int) -> dict[str, int]:
    """Largest-remainder rounding of ``count · share`` per group, summing to ``total``."""
    exact = {c: n * share for c, n in counts.items()}
    sizes = {c: int(np.floor(x)) for c, x in exact.items()}
    order = sorted(counts, key=lambda c: (-(exact[c] - sizes[c]), c))
    for c in order[: max(0, total - sum(sizes.values()))]:
        sizes[c] += 1
    return sizes

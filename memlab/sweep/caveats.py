"""Warnings about a sweep's decision: what a reader must not take for certainty.

Each function returns the warning's text, or None when there is nothing to say:

* ``small_holdout`` — fewer than ``MIN_HOLDOUT`` (30) scored holdout queries;
* ``uncapped`` — a cost the rule caps that no dev query measures;
* ``tied_top`` — several configurations tie at the top of the rule;
* ``grid_edges`` — a chosen value on the edge of its grid axis ("extend the grid"),
  unless it is the setting's own bound (λ 1, ``min_score`` 0, no decay, …);
* ``all_tied`` — every holdout query ties between base and chosen: the paired
  test's power is undefined, not 0;
* ``gain_unclear`` — the holdout gain's CI includes 0;
* ``holdout_costs`` — on holdout, the chosen configuration's costs exceed the caps
  the rule held it to on dev.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any

from memlab.sweep.honest import Gain

MIN_HOLDOUT = 30
# The natural range of a swept setting: a chosen value at one of these ends is not
# "on the edge of the grid" (nothing lies beyond it). None: unbounded.
BOUNDS: dict[str, tuple[float | None, float | None]] = {
    "mmr.lambda": (0.0, 1.0),
    "min_score": (0.0, 1.0),  # display scores lie in [0, 1]
    "vector_weight": (0.0, None),
    "text_weight": (0.0, None),
    "max_results": (1, None),
    "candidate_multiplier": (1, None),
    "half_life_days": (0.0, None),  # null (no decay) lies beyond every half-life
    "recency_decay": (0.0, 1.0),
    "chunk_bytes": (1, None),
    "chunk_overlap": (0, None),
}
SOURCE_WEIGHT_BOUNDS = (0.0, None)


def queries(n: int) -> str:
    return f"{n} quer{'y' if n == 1 else 'ies'}"


def uncapped(caps: Mapping[str, float]) -> list[str]:
    """A cost the rule means to cap but cannot: no dev query measures it."""
    return [
        f"no dev query measures {cost} (e.g. no abstention query among them): the rule "
        f"cannot hold {cost} to the base's; add such queries or hold out fewer"
        for cost, cap in caps.items()
        if math.isnan(cap)
    ]


def small_holdout(n: int, has_holdout: bool) -> str | None:
    if not has_holdout:
        return (
            "no holdout: the chosen configuration is reported on the queries it was chosen "
            "on, which flatters it; hold out queries (--holdout 0.3)"
        )
    if n < MIN_HOLDOUT:
        return (
            f"the holdout has {queries(n)} scored (fewer than {MIN_HOLDOUT}): its CI is wide "
            "and the gain may not hold; use more queries or a larger --holdout"
        )
    return None


def tied_top(
    n_tied: int, score: float, what: str, base_kept: bool = False, where: str = "dev"
) -> str | None:
    if n_tied < 2:
        return None
    taken = "the base is one of them and is kept" if base_kept else "the first in sweep order"
    return (
        f"{n_tied} configurations tie at the top ({what} {score:.4f} on {where}; {taken}): "
        "the data cannot tell them apart"
    )


def _bounds(axis: str) -> tuple[float | None, float | None]:
    if axis.startswith("source_weights."):
        return SOURCE_WEIGHT_BOUNDS
    return BOUNDS.get(axis, (None, None))


def _numeric(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value)


def grid_edges(chosen: Mapping[str, Any], axes: Mapping[str, Sequence[Any]]) -> list[str]:
    """A warning per numeric axis whose chosen value is its lowest or highest (and not
    the setting's own bound); ``axes`` lists each axis's values in the grid."""
    out = []
    for axis, values in axes.items():
        value = chosen.get(axis)
        numbers = sorted({float(v) for v in values if _numeric(v)})
        if len(numbers) < 2 or not _numeric(value):
            continue
        lo, hi = _bounds(axis)
        beyond_null = axis == "half_life_days" and any(v is None for v in values)
        v = float(value)  # type: ignore[arg-type]  # _numeric checked it
        listing = ", ".join(f"{x:g}" for x in numbers)
        if v == numbers[0] and (lo is None or v > lo):
            step = numbers[1] - numbers[0]
            nxt = v - step if lo is None or v - step > lo else (lo + v) / 2
            out.append(
                f"{axis} = {v:g} is the lowest value of its grid axis ({listing}): the best "
                f"may lie below it; extend the grid (e.g. add {nxt:g})"
            )
        elif v == numbers[-1] and not beyond_null and (hi is None or v < hi):
            step = numbers[-1] - numbers[-2]
            nxt = v + step if hi is None or v + step < hi else (hi + v) / 2
            out.append(
                f"{axis} = {v:g} is the highest value of its grid axis ({listing}): the best "
                f"may lie above it; extend the grid (e.g. add {nxt:g})"
            )
    return out


def all_tied(gain: Gain, same: bool) -> str | None:
    if same or not gain.all_tied:
        return None
    return (
        f"every one of the {queries(gain.n)} of the holdout ties between the base and the chosen "
        f"configuration on {gain.measure}: the gain is 0 and the paired test's power is "
        "undefined (not an MDE of 0)"
    )


def gain_unclear(gain: Gain, same: bool) -> str | None:
    lo, hi = gain.ci
    if same or gain.n == 0 or gain.all_tied or math.isnan(lo) or lo > 0 or hi < 0:
        return None
    return (
        f"the holdout gain on {gain.measure} ({gain.diff:+.4f}, 95% CI [{lo:+.4f}, {hi:+.4f}], "
        f"p = {gain.p:.3f}) includes 0: the chosen configuration is not shown to beat the base"
    )


def holdout_costs(
    caps: Mapping[str, float],
    base: Mapping[str, float],
    chosen: Mapping[str, float],
    tolerance: float,
    explicit: Mapping[str, bool],
) -> list[str]:
    """Costs within their caps on dev but beyond them on holdout (base-relative caps are
    taken from the base's holdout value)."""
    out = []
    for cost, cap in caps.items():
        value = chosen.get(cost, math.nan)
        limit = cap if explicit.get(cost) else base.get(cost, math.nan) * (1 + tolerance)
        if math.isnan(value) or math.isnan(limit) or value <= limit + 1e-12:
            continue
        out.append(
            f"on holdout the chosen configuration's {cost} is {value:.4g}, above the "
            f"{limit:.4g} the rule allows (base {base.get(cost, math.nan):.4g}): the cost "
            "constraint held on dev only"
        )
    return out

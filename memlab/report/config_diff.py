"""What differs between a run's configuration and the baseline's, and whether it reaches
the run's results.

A run's manifest entry records its search configuration (``config``, with its hash)
and, for a run on its own memory, the memory it replayed (``memory``: index options,
Dream). ``run_changes`` lists every setting that differs as a dotted key
(``candidate_multiplier``, ``mmr.lambda``, ``memory.dream.min_hours``) with the
baseline's value and the run's.

A change is *inert* for a run when the search reads the setting only through a
quantity the change leaves equal (``READ_THROUGH``): ``candidate_multiplier`` only as
the strategy's candidate limit (``openclaw`` takes ``4 × max_results`` whatever the
multiplier), the decay settings only as the half-life in effect, ``mmr.lambda`` only
with MMR on. A run whose changes are all inert is compared as usual, its changes
named; any other change makes its values incomparable (DESIGN invariant 6).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from memlab.config import SearchConfig, flatten, from_dict
from memlab.errors import ConfigError
from memlab.retrieval.strategies import candidate_limit


class _Absent:
    """A setting one side does not record."""

    def __repr__(self) -> str:
        return "(not set)"


ABSENT: Any = _Absent()


def _mmr_in_effect(config: SearchConfig) -> float | str:
    return config.mmr.lambda_ if config.mmr.enabled else "off"


# Settings the search reads only through one quantity: (its name, how it is computed).
READ_THROUGH: dict[str, tuple[str, Callable[[SearchConfig], Any]]] = {
    "candidate_multiplier": ("candidate limit", candidate_limit),
    "temporal_decay": ("half-life in effect", SearchConfig.effective_half_life),
    "half_life_days": ("half-life in effect", SearchConfig.effective_half_life),
    "recency_decay": ("half-life in effect", SearchConfig.effective_half_life),
    "mmr.lambda": ("MMR λ", _mmr_in_effect),
}


def show(value: Any) -> str:
    """A setting's value as a configuration file writes it (``true``, ``null``, ``grok``)."""
    if value is ABSENT or isinstance(value, str):
        return repr(value) if value is ABSENT else value
    return json.dumps(value, sort_keys=True)


@dataclass(frozen=True)
class Change:
    key: str
    baseline: Any  # ABSENT when the baseline does not record it
    value: Any  # ABSENT when the run does not record it

    def text(self) -> str:
        return f"{self.key} {show(self.baseline)} → {show(self.value)}"

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"key": self.key}
        if self.baseline is not ABSENT:
            out["baseline"] = self.baseline
        if self.value is not ABSENT:
            out["value"] = self.value
        return out


@dataclass(frozen=True)
class RunChanges:
    """How one run's configuration differs from the baseline's."""

    run: str
    changes: tuple[Change, ...]
    hashes: tuple[str, str]  # the baseline's config hash, the run's
    inert: str = ""  # why no change reaches the run's results ('' when one does)

    @property
    def affected(self) -> bool:
        return not self.inert

    @property
    def keys(self) -> list[str]:
        return [c.key for c in self.changes]

    def text(self) -> str:
        """``candidate_multiplier 3 → 2; min_score 0.35 → 0.3`` (the hashes when no
        recorded setting differs)."""
        if not self.changes:
            return (
                f"config_hash {self.hashes[0]} → {self.hashes[1]} "
                "(no recorded setting differs: the baseline was written differently)"
            )
        return "; ".join(c.text() for c in self.changes)

    def to_json(self) -> dict[str, Any]:
        return {
            "run": self.run,
            "affected": self.affected,
            "changes": [c.to_json() for c in self.changes],
            "inert": self.inert,
        }


def _settings(entry: Mapping[str, Any]) -> dict[str, Any]:
    out = flatten(entry.get("config") or {})
    out.update(flatten(entry.get("memory") or {}, "memory."))
    return out


def run_changes(
    run: str, baseline: Mapping[str, Any], current: Mapping[str, Any]
) -> RunChanges | None:
    """The differences between two manifest entries of ``run`` (None when there are none)."""
    want, have = _settings(baseline), _settings(current)
    keys = dict.fromkeys([*have, *want])
    changes = tuple(
        Change(k, want.get(k, ABSENT), have.get(k, ABSENT))
        for k in keys
        if want.get(k, ABSENT) != have.get(k, ABSENT)
    )
    hashes = str(baseline.get("config_hash")), str(current.get("config_hash"))
    if not changes and hashes[0] == hashes[1]:
        return None
    inert = _inert(changes, baseline.get("config"), current.get("config"))
    return RunChanges(run, changes, hashes, inert)


def _inert(changes: tuple[Change, ...], baseline: Any, current: Any) -> str:
    """Why none of ``changes`` reaches the search ('' when one may)."""
    if not changes or any(c.key not in READ_THROUGH for c in changes):
        return ""
    try:
        before = from_dict(SearchConfig, baseline)
        after = from_dict(SearchConfig, current)
    except (ConfigError, TypeError, ValueError):
        return ""  # a configuration this memlab cannot read: assume it matters
    quantities = dict.fromkeys(READ_THROUGH[c.key] for c in changes)
    same = []
    for name, quantity in quantities:
        value = quantity(before)
        if quantity(after) != value:
            return ""
        same.append(f"{name} {show(value)}")
    return "not read by this run: its " + " and ".join(same) + " either way"


def config_changes(
    baseline: Mapping[str, Any], current: Mapping[str, Any], runs: list[str]
) -> list[RunChanges]:
    """Per run of ``runs`` recorded in both manifests, how its configuration differs."""
    want, have = baseline.get("runs") or {}, current.get("runs") or {}
    out = []
    for run in runs:
        if run in want and run in have:
            found = run_changes(run, want[run], have[run])
            if found is not None:
                out.append(found)
    return out

"""Search spaces: grids and seeded random draws of search configurations.

A space maps dotted configuration paths (the ``with_overrides`` syntax) to what
to try::

    half_life_days: [1, 7, 30, null]     # a list: these values (null = no decay)
    source_weights.session: [0.5, 1.0]
    mmr: {enabled: [true, false], lambda: [0.5, 0.7, 1.0]}   # nested = dotted
    strategy: [grok, rrf]
    min_score: 0.0                       # a scalar: fixed
    vector_weight: {uniform: [0.3, 0.9]} # a distribution (random search only)
    tokenizer: [unicode61, porter]       # an index option (memlab.sweep.indexes)

``grid`` takes the Cartesian product of the lists (in file order); ``random_configs``
draws points with a seeded generator: a list is a uniform choice, ``uniform`` /
``loguniform`` give floats in [lo, hi], ``randint`` integers in [lo, hi]. Every key
and value is checked against the configuration up front; an unknown key raises
``ConfigError`` with a did-you-mean hint. Duplicate configurations are dropped.
"""

from __future__ import annotations

import hashlib
import itertools
import json
import math
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from memlab.config import SearchConfig, config_hash, flatten, to_dict, with_overrides
from memlab.errors import ConfigError, unknown_name
from memlab.sources import KNOWN_SOURCES
from memlab.sweep.indexes import INDEX_AXES, check_index_value, split_overrides

DISTRIBUTIONS = ("uniform", "loguniform", "randint")


@dataclass
class SweepPoint:
    """One configuration of a sweep: its overrides of the base (search paths and index
    options, ``memlab.sweep.indexes``) and the search configuration they give."""

    overrides: dict[str, Any]
    config: SearchConfig
    key: str = field(default="")  # the row key of a results file
    index: dict[str, Any] = field(default_factory=dict)  # index options (none: the sweep's)

    def __post_init__(self) -> None:
        if not self.key:
            self.key = point_key(self.config, self.index)


def point_key(config: SearchConfig, index: Mapping[str, Any]) -> str:
    """The configuration hash, and with index options a hash of both (16 hex digits)."""
    if not index:
        return config_hash(config)
    blob = json.dumps([config_hash(config), dict(sorted(index.items()))], sort_keys=True)
    return hashlib.sha256(blob.encode()).hexdigest()[:16]


def make_point(overrides: Mapping[str, Any], base: SearchConfig) -> SweepPoint:
    """The point of ``overrides`` (search paths and index options) on ``base``."""
    search, index = split_overrides(overrides)
    return SweepPoint(dict(overrides), with_overrides(base, search), index=index)


def flatten_space(data: Mapping[str, Any]) -> dict[str, Any]:
    """Nested mappings → dotted paths (``flatten``); distribution specs stay as they are."""
    return flatten(data, leaf=_is_distribution)


def load_grid(path: str | Path) -> dict[str, Any]:
    """Read a YAML (or JSON) grid file into a flat space."""
    from memlab.datafile import load_data

    file = Path(path)
    data = load_data(file, what="grid file")
    if not isinstance(data, Mapping) or not data:
        raise ConfigError(f"{file}: expected a mapping of configuration paths to value lists")
    return flatten_space(data)


def check_space(space: Mapping[str, Any], base: SearchConfig | None = None) -> dict[str, Any]:
    """Flatten ``space`` and check every key and every listed value against ``base``."""
    base = base or SearchConfig()
    flat = flatten_space(space)
    if not flat:
        raise ConfigError("the search space is empty; give at least one configuration path")
    for key, spec in flat.items():
        _check_key(key)
        if _is_distribution(spec):
            if key in INDEX_AXES:
                raise ConfigError(
                    f"{key}: an index option takes a list of values, not a distribution "
                    "(each distinct index is one replay of the memory)"
                )
            _check_distribution(key, spec)
            continue
        for value in _values(spec):
            _check_value(base, key, value)
    return flat


def grid(space: Mapping[str, Any], base: SearchConfig | None = None) -> list[SweepPoint]:
    """Every combination of the listed values (first key varies slowest)."""
    base = base or SearchConfig()
    flat = check_space(space, base)
    bad = [k for k, v in flat.items() if _is_distribution(v)]
    if bad:
        raise ConfigError(
            f"'{bad[0]}' is a distribution; distributions need random search (--random N)"
        )
    keys = list(flat)
    combos = itertools.product(*(_values(flat[k]) for k in keys))
    return _unique((dict(zip(keys, combo, strict=True)) for combo in combos), base)


def random_configs(
    space: Mapping[str, Any], n: int, *, seed: int = 0, base: SearchConfig | None = None
) -> list[SweepPoint]:
    """``n`` distinct points drawn from ``space`` with ``numpy.random.default_rng(seed)``.

    A finite space with fewer than ``n`` distinct configurations yields all it has.
    """
    if n < 1:
        raise ConfigError(f"the number of random configurations must be >= 1, got {n}")
    base = base or SearchConfig()
    flat = check_space(space, base)
    rng = np.random.default_rng(seed)
    draws = ({k: _draw(rng, spec) for k, spec in flat.items()} for _ in range(50 * n))
    return _unique(draws, base, n)


def as_points(
    items: Iterable[SweepPoint | SearchConfig | Mapping[str, Any]], base: SearchConfig
) -> list[SweepPoint]:
    """Sweep points from points, configurations (overrides = differences from ``base``)
    or override mappings."""
    out = []
    for item in items:
        if isinstance(item, SweepPoint):
            out.append(item)
        elif isinstance(item, SearchConfig):
            out.append(SweepPoint(config_diff(base, item), item))
        else:
            out.append(make_point(flatten_space(item), base))
    return out


def config_diff(base: SearchConfig, config: SearchConfig) -> dict[str, Any]:
    """Dotted paths whose value differs between ``base`` and ``config``."""
    a, b = _flat_config(base), _flat_config(config)
    return {k: v for k, v in b.items() if a.get(k, _MISSING) != v}


_MISSING = object()


def _flat_config(config: SearchConfig) -> dict[str, Any]:
    return flatten(to_dict(config))


def _unique(
    overrides: Iterable[dict[str, Any]], base: SearchConfig, limit: int | None = None
) -> list[SweepPoint]:
    """Distinct configurations (by hash) from override dicts, in order, at most ``limit``."""
    seen: dict[str, SweepPoint] = {}
    for ov in overrides:
        point = make_point(ov, base)
        seen.setdefault(point.key, point)
        if limit is not None and len(seen) >= limit:
            break
    return list(seen.values())


def _is_distribution(value: Any) -> bool:
    return isinstance(value, Mapping) and len(value) == 1 and next(iter(value)) in DISTRIBUTIONS


def _values(spec: Any) -> list[Any]:
    if isinstance(spec, (list, tuple)):
        if not spec:
            raise ConfigError("an empty list of values in the search space")
        return list(spec)
    return [spec]


def _check_key(key: str) -> None:
    if key in INDEX_AXES:
        return
    parts = key.split(".")
    if parts[0] == "source_weights" and len(parts) == 2 and parts[1] not in KNOWN_SOURCES:
        raise ConfigError(f"{key}: " + unknown_name("source", parts[1], KNOWN_SOURCES))


def _check_value(base: SearchConfig, key: str, value: Any) -> None:
    if key in INDEX_AXES:
        check_index_value(key, value)
        return
    with_overrides(base, {key: value})  # the config checks every value, strategy names too


def _check_distribution(key: str, spec: Mapping[str, Any]) -> None:
    kind, bounds = next(iter(spec.items()))
    ok = (
        isinstance(bounds, (list, tuple))
        and len(bounds) == 2
        and all(isinstance(b, (int, float)) and not isinstance(b, bool) for b in bounds)
        and bounds[0] <= bounds[1]
    )
    if not ok:
        raise ConfigError(f"{key}: {kind} needs [low, high] with low <= high, got {bounds!r}")
    if kind == "loguniform" and bounds[0] <= 0:
        raise ConfigError(f"{key}: loguniform needs low > 0, got {bounds[0]}")


def _draw(rng: np.random.Generator, spec: Any) -> Any:
    if not _is_distribution(spec):
        values = _values(spec)
        return values[int(rng.integers(len(values)))]
    kind, (lo, hi) = next(iter(spec.items()))
    if kind == "randint":
        return int(rng.integers(int(lo), int(hi) + 1))
    if kind == "loguniform":
        return round(math.exp(rng.uniform(math.log(lo), math.log(hi))), 6)
    return round(float(rng.uniform(lo, hi)), 6)


def describe(overrides: Mapping[str, Any]) -> str:
    """A short label for a point: ``half_life_days=7, mmr.lambda=0.5``."""
    return ", ".join(f"{k}={json.dumps(v)}" for k, v in overrides.items()) or "(base)"

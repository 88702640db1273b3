"""Run manifests (DESIGN invariant 6): what produced a set of numbers.

A manifest records the dataset (name, digest, level, as_of), the configuration
of every run and its hash, the embedder id and dimension, the index config and
Dream on the timeline (a run on its own memory records it),
the SQLite / FTS5 / sqlite-vec versions, the memlab version, the measures, the
statistical test and the seed. ``incompatibilities`` names what differs between
two manifests in a way that makes their numbers incomparable, so runs built on
different indexes are never compared silently. No wall-clock time is recorded:
the same inputs give the same manifest.
"""

from __future__ import annotations

import json
import math
import platform
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from memlab import __version__
from memlab.config import SearchConfig, config_hash, to_dict
from memlab.eval.replay.prepared import Prepared
from memlab.eval.runs.rankers import RunResult
from memlab.timefmt import format_iso

# Keys whose difference makes two manifests' numbers incomparable.
COMPARABILITY_KEYS = (
    "dataset.digest",
    "dataset.level",
    "unit",
    "index.config",
    "index.by_tag",
    "timeline.dream",
    "embedder.id",
    "embedder.dims",
    "measures",
)


def build_manifest(
    prepared: Prepared,
    configs: Mapping[str, SearchConfig],
    results: Mapping[str, RunResult],
    *,
    measures: Sequence[str],
    unit: str,
    test: str,
    seed: int,
    budget: int,
) -> dict[str, Any]:
    ds = prepared.dataset
    emb = prepared.embedder
    return {
        "memlab_version": __version__,
        "python": platform.python_version(),
        "dataset": {
            "name": ds.name,
            "digest": ds.digest,
            "level": ds.level,
            "as_of": format_iso(ds.as_of),
            "queries": len(ds.queries),
            "groups": len(ds.groups),
            "origin": ds.origin,
            "licence": ds.licence,
        },
        "unit": unit,
        "index": {
            "config": to_dict(prepared.index_config),
            "by_tag": prepared.memory.to_dict().get("by_tag"),  # queries on their own index
            "versions": prepared.versions,
            "unresolved_queries": len(prepared.unresolved),
        },
        "timeline": {
            "dream": prepared.memory.to_dict()["dream"],
            "query_times": len({q.as_of for q in ds.queries}),
        },
        "embedder": {"id": emb.id if emb else None, "dims": emb.dims if emb else None},
        "runs": {name: _run_entry(cfg, results[name]) for name, cfg in configs.items()},
        "measures": list(measures),
        "test": test,
        "seed": seed,
        "token_budget": budget,
    }


def _run_entry(cfg: SearchConfig, result: RunResult) -> dict[str, Any]:
    entry: dict[str, Any] = {
        "config": to_dict(cfg),
        "config_hash": config_hash(cfg),
        "degraded_queries": sum(result.degraded.values()),
    }
    if result.memory is not None:  # a run on its own memory (Dream settings, index options)
        entry["memory"] = result.memory.to_dict()
    return entry


def _get(manifest: Mapping[str, Any], dotted: str) -> Any:
    node: Any = manifest
    for part in dotted.split("."):
        node = node.get(part) if isinstance(node, Mapping) else None
    return node


def incompatibilities(a: Mapping[str, Any], b: Mapping[str, Any]) -> list[str]:
    """Human-readable differences that make two runs' numbers incomparable."""
    return [
        f"{key}: {_get(a, key)!r} != {_get(b, key)!r}"
        for key in COMPARABILITY_KEYS
        if _get(a, key) != _get(b, key)
    ]


def _clean(obj: Any) -> Any:
    if isinstance(obj, float) and not math.isfinite(obj):
        return None
    if isinstance(obj, Mapping):
        return {str(k): _clean(v) for k, v in obj.items()}
    if isinstance(obj, (list, tuple)):
        return [_clean(v) for v in obj]
    return obj


def write_json(path: Path, obj: Any) -> None:
    """JSON with sorted keys and no NaN (NaN becomes null)."""
    path.write_text(
        json.dumps(_clean(obj), indent=2, sort_keys=True, allow_nan=False) + "\n", encoding="utf-8"
    )

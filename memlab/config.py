"""Configuration: frozen dataclasses with the c0 defaults (SPEC §6) and named profiles.

* ``MemlabConfig`` groups ``IndexConfig``, ``SearchConfig``, ``WatcherConfig`` and
  ``DreamConfig``. Every class is frozen and hashable, so a configuration can be a
  dictionary key in a sweep.
* ``from_dict`` builds any of them from plain data and rejects unknown keys with a
  did-you-mean message; ``with_overrides`` applies dotted paths
  (``"mmr.lambda"``, ``"source_weights.session"``) — the grid-file syntax of sweeps.
* Profiles: ``grok-c0`` (default, the seed) and ``grok-2026-08`` (the later release);
  ``standard-ir`` is the standard IR protocol, for numbers comparable with published
  BM25 tables (BEIR and the like): no decay, ``min_score`` 0, deep lists (1,000 hits),
  the porter tokenizer, judged per file (the document) — ``memlab compare DATASET
  --profile standard-ir --runs fts``; ``--protocol`` starts from it too.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

# Re-exported: the dict conversion is part of the public config API.
from memlab.config_dict import (
    OMIT_DEFAULT,
    config_hash,
    flatten,
    from_dict,
    to_dict,
    with_overrides,
)
from memlab.errors import ConfigError, unknown_name
from memlab.sources import DREAM, WORKSPACE

TOKENIZERS = ("unicode61", "porter", "trigram")
# "c0": SPEC §2.1's chunker; "record": one chunk per record (a conversation turn, a
# label-free file whole); "file": one chunk per file (``memlab.store.chunking``)
CHUNKING_MODES = ("c0", "record", "file")
CREATED_AT_RULES = ("insert", "mtime", "filename-date")
DREAM_MEMORY_SOURCES = (DREAM, WORKSPACE)  # where Dream files the new MEMORY.md
KEYWORD_MODES = ("c0", "index")
# Merge strategies: "grok" (c0) and the peers' merges. The names are owned here, so a
# SearchConfig rejects an unknown one at once; memlab.retrieval.strategies.STRATEGIES holds
# their code under exactly these names (a test checks they are equal).
STRATEGY_NAMES = ("grok", "openclaw", "rrf", "basic-memory")
_ADDED_STRATEGIES: list[str] = []  # a plugin's (memlab.retrieval.strategies.register_strategy)


def strategy_names() -> tuple[str, ...]:
    """Every strategy a configuration may name: the built-in ones, then a plugin's."""
    return (*STRATEGY_NAMES, *_ADDED_STRATEGIES)


def add_strategy_name(name: str) -> None:
    """Accept ``name`` as a strategy (``register_strategy`` calls this with its code)."""
    if name in strategy_names():
        raise ConfigError(f"strategy '{name}' is already defined")
    _ADDED_STRATEGIES.append(name)


# "vec0": sqlite-vec's KNN (c0); "exact": one numpy product over the stored vectors, the
# same ids and distances as vec0 (memlab option; store/exact_knn.py)
KNN_MODES = ("vec0", "exact")
MAX_RESULTS = 100_000  # beyond any use; keeps candidate limits inside SQLite's integers


@dataclass(frozen=True)
class ChunkingConfig:
    """SPEC §2.1: sizes in UTF-8 bytes, overlap in characters.

    memlab options (``memlab.store.chunking``; c0: ``mode`` "c0", every role):
    ``mode`` "record" makes every record one chunk (a conversation turn as the
    importers render it, a file without turns whole), "file" every file one chunk
    (sizes then play no part); ``roles`` indexes only the turns of these speakers
    (e.g. ``("user",)``; empty: all). Both are left out of ``to_dict`` at their
    defaults, so c0's configurations keep their hashes.
    """

    max_bytes: int = 1600
    overlap_chars: int = 320
    mode: str = field(default="c0", metadata=OMIT_DEFAULT)
    roles: tuple[str, ...] = field(default=(), metadata=OMIT_DEFAULT)

    def __post_init__(self) -> None:
        _check(self.max_bytes >= 1, "chunking.max_bytes must be >= 1")
        _check(self.overlap_chars >= 0, "chunking.overlap_chars must be >= 0")
        if self.mode not in CHUNKING_MODES:
            raise ConfigError(unknown_name("chunking mode", str(self.mode), CHUNKING_MODES))
        object.__setattr__(self, "roles", parse_roles(self.roles))


def parse_roles(value: Any) -> tuple[str, ...]:
    """Indexed roles from a tuple, a list or a comma-separated string; ``all`` (or
    nothing) means every role: ``()``."""
    items = value.split(",") if isinstance(value, str) else value
    if not isinstance(items, (list, tuple)) or not all(isinstance(r, str) for r in items):
        raise ConfigError(f"chunking.roles must be role names such as user, got {value!r}")
    roles = tuple(dict.fromkeys(r.strip() for r in items if r.strip()))
    if "all" in roles:
        _check(roles == ("all",), "chunking.roles: 'all' stands alone (every role)")
        return ()
    bad = [r for r in roles if "*" in r]
    _check(not bad, f"chunking.roles: a role name has no '*', got {bad[:1]}")
    return roles


@dataclass(frozen=True)
class IndexConfig:
    """Properties of an index: fixed when the index is created."""

    tokenizer: str = "unicode61"
    chunking: ChunkingConfig = field(default_factory=ChunkingConfig)
    # Files larger than this are skipped with a warning (c0 has no limit).
    max_file_bytes: int = 10 * 1024 * 1024
    # What a new chunk's created_at (the start of its age) is (SPEC §2.2):
    # "insert": when the chunk row is first inserted (c0);
    # "mtime": the file's own modification time;
    # "filename-date": the OpenClaw rule (YYYY-MM-DD in the file name, else mtime).
    # An index keeps the rule it was built with (memlab.store.schema.created_at_rule).
    created_at_rule: str = "insert"

    def __post_init__(self) -> None:
        if self.tokenizer not in TOKENIZERS:
            raise ConfigError(unknown_name("tokenizer", self.tokenizer, TOKENIZERS))
        if self.created_at_rule not in CREATED_AT_RULES:
            raise ConfigError(
                unknown_name("created_at_rule", self.created_at_rule, CREATED_AT_RULES)
            )
        _check(self.max_file_bytes >= 1, "max_file_bytes must be >= 1")


@dataclass(frozen=True)
class MmrConfig:
    """SPEC §5: ``MmrConfig::default()`` = disabled, λ 0.7 (λ clamped to [0, 1] when used)."""

    enabled: bool = False
    lambda_: float = 0.7


@dataclass(frozen=True)
class SearchConfig:
    """Everything that shapes one search (SPEC §4–§5, §6)."""

    max_results: int = 6
    min_score: float = 0.35
    vector_weight: float = 0.7
    text_weight: float = 0.3
    temporal_decay: bool = True
    half_life_days: float | None = 7.0
    # Legacy: used only when temporal_decay is off; half-life = -1 / log2(r).
    recency_decay: float | None = 0.95
    source_weights: Mapping[str, float] = field(default_factory=dict)
    mmr: MmrConfig = field(default_factory=MmrConfig)
    strategy: str = "grok"
    candidate_multiplier: int = 3
    evergreen_supplement: bool = True
    # Use the vector path when an embedder and sqlite-vec are available.
    vectors: bool = True
    # "c0": runs of Unicode alphanumerics and "_" (c0); "index": read the query with the index's own
    # tokenizer, LIKE for short trigram keywords (memlab option; search/query_terms.py).
    keywords: str = "c0"
    # How the vector candidates are found: "vec0" (c0) or "exact" (the same result by
    # one matrix product over vectors kept in memory; faster on large indexes).
    knn: str = field(default="vec0", metadata=OMIT_DEFAULT)

    def __post_init__(self) -> None:
        _check(
            1 <= self.max_results <= MAX_RESULTS,
            f"max_results must be >= 1 (and at most {MAX_RESULTS}), got {self.max_results!r}",
        )
        _check(
            1 <= self.candidate_multiplier <= 1000,
            "candidate_multiplier must be >= 1 (and at most 1000), "
            f"got {self.candidate_multiplier!r}",
        )
        half_life = self.half_life_days
        _check(
            half_life is None or not math.isnan(half_life),
            "half_life_days must be a number of days or null (no decay), not NaN",
        )
        _check(not math.isnan(self.mmr.lambda_), "mmr.lambda must be a number, not NaN")
        if self.strategy not in strategy_names():
            raise ConfigError(unknown_name("strategy", str(self.strategy), strategy_names()))
        if self.keywords not in KEYWORD_MODES:
            raise ConfigError(unknown_name("keywords", self.keywords, KEYWORD_MODES))
        if self.knn not in KNN_MODES:
            raise ConfigError(unknown_name("knn", str(self.knn), KNN_MODES))
        for name in ("min_score", "vector_weight", "text_weight"):
            value = getattr(self, name)
            _check(math.isfinite(value), f"{name} must be a finite number, got {value!r}")
        # Freeze the mapping (sorted pairs) so the config stays hashable.
        weights = dict(self.source_weights)
        for key, value in weights.items():
            _check(
                isinstance(value, (int, float)) and math.isfinite(value) and value >= 0,
                f"source_weights.{key} must be a finite number >= 0, got {value!r}",
            )
        object.__setattr__(self, "source_weights", _FrozenWeights(sorted(weights.items())))

    def effective_half_life(self) -> float | None:
        """Half-life in days actually applied, or None for no decay."""
        if self.temporal_decay:
            return self.half_life_days
        r = self.recency_decay
        if r is None or not (0.0 < r < 1.0):
            return None
        return -1.0 / math.log2(r)

    def source_weight(self, source: str) -> float:
        return float(self.source_weights.get(source, 1.0))


class _FrozenWeights(dict[str, float]):
    """A read-only, hashable dict for source weights."""

    def __init__(self, items: Any = ()) -> None:
        super().__init__(items)

    def __hash__(self) -> int:  # type: ignore[override]
        return hash(tuple(sorted(self.items())))

    def __reduce__(self) -> tuple[Any, ...]:  # pickled whole (a sweep's workers get configs)
        return (type(self), (dict(self),))

    def _readonly(self, *args: Any, **kwargs: Any) -> None:
        raise TypeError("source_weights is read-only; use with_overrides()")

    __setitem__ = __delitem__ = clear = pop = popitem = setdefault = update = _readonly  # type: ignore[assignment]


@dataclass(frozen=True)
class WatcherConfig:
    """SPEC §3: file watcher and the reindex claim."""

    enabled: bool = True
    claim_stale_secs: float = 60.0
    # memlab option (c0: off): a claim whose holder PID is dead on this machine is
    # taken at once instead of after claim_stale_secs (e.g. after a crash).
    reclaim_dead_claims: bool = False
    # memlab option (c0: off): sync also when nothing changed but chunks lack vectors
    # (a failed embedding batch, or an index opened with a new embedder), so they are
    # embedded at the next search. c0 embeds missing vectors only after reindexing a
    # changed file, so a failed batch waits for the next change.
    retry_missing_vectors: bool = False


@dataclass(frozen=True)
class DreamConfig:
    """SPEC §7 (gates, input caps, lock) plus memlab's opt-in improvements."""

    enabled: bool = True
    min_hours: float = 4.0
    min_sessions: int = 3
    stale_lock_secs: float = 3600.0
    check_interval_secs: float | None = None
    max_existing_bytes: int = 16_000
    max_input_bytes: int = 32_000
    max_response_chars: int = 16_000
    active_grace_secs: float = 300.0
    model_timeout_secs: float = 1800.0
    # c0 reindexes the new MEMORY.md with source "dream" (decays); "workspace" fixes it.
    memory_source: str = "dream"
    # c0 overwrites MEMORY.md in place; True writes a temp file and renames it.
    atomic_write: bool = False
    # c0 takes the lock after the model call and never checks that another run finished
    # meanwhile; True skips a run whose input is older than the last consolidation.
    stale_input_check: bool = False

    def __post_init__(self) -> None:
        if self.memory_source not in DREAM_MEMORY_SOURCES:
            raise ConfigError(
                unknown_name("memory_source", self.memory_source, DREAM_MEMORY_SOURCES)
            )
        _check(self.min_sessions >= 0, "dream.min_sessions must be >= 0")
        _check(self.min_hours >= 0, "dream.min_hours must be >= 0")

    def periodic_interval(self) -> float | None:
        """The periodic check interval, or None (SPEC §7.2: None and 0 mean no timer)."""
        if self.enabled and self.check_interval_secs and self.check_interval_secs > 0:
            return float(self.check_interval_secs)
        return None


@dataclass(frozen=True)
class MemlabConfig:
    """A complete configuration; ``profile`` records where it started from."""

    profile: str = "grok-c0"
    index: IndexConfig = field(default_factory=IndexConfig)
    search: SearchConfig = field(default_factory=SearchConfig)
    watcher: WatcherConfig = field(default_factory=WatcherConfig)
    dream: DreamConfig = field(default_factory=DreamConfig)
    # What evaluation judges a ranking by: "chunk" (the hits c0 returns) or "file"
    # (each file at its best chunk: the document of standard IR); --unit overrides it.
    unit: str = "chunk"


def _check(ok: bool, message: str) -> None:
    if not ok:
        raise ConfigError(message)


# --------------------------------------------------------------------------- profiles

STANDARD_IR = "standard-ir"
STANDARD_IR_DEPTH = 1000  # results per query: deep enough for R@100 over documents

PROFILES: dict[str, MemlabConfig] = {
    "grok-c0": MemlabConfig(),
    "grok-2026-08": MemlabConfig(
        profile="grok-2026-08",
        search=SearchConfig(min_score=0.7, half_life_days=30.0, mmr=MmrConfig(enabled=True)),
        dream=DreamConfig(min_hours=24.0, min_sessions=5, check_interval_secs=3600.0),
    ),
    # Standard IR protocol (BEIR-style tables): no time decay, no score threshold,
    # deep lists, the porter tokenizer; evaluated at the file / document unit.
    STANDARD_IR: MemlabConfig(
        profile=STANDARD_IR,
        index=IndexConfig(tokenizer="porter"),
        search=SearchConfig(min_score=0.0, half_life_days=None, max_results=STANDARD_IR_DEPTH),
        unit="file",
    ),
    # standard-ir with the merge chosen on LoCoMo's development conversations
    # (benchmarks/tune_locomo.py, docs/locomo-tuning.md): OpenClaw's merge, which lets a
    # strong vector match outrank the best text match (no c0 floor), weights 0.7 / 0.3.
    "locomo-tuned": MemlabConfig(
        profile="locomo-tuned",
        index=IndexConfig(tokenizer="porter"),
        search=SearchConfig(
            min_score=0.0,
            half_life_days=None,
            max_results=STANDARD_IR_DEPTH,
            strategy="openclaw",
            vector_weight=0.7,
            text_weight=0.3,
        ),
        unit="file",
    ),
}
DEFAULT_PROFILE = "grok-c0"


def profile(name: str = DEFAULT_PROFILE) -> MemlabConfig:
    """The named profile; an unknown name lists the valid ones."""
    try:
        return PROFILES[name]
    except KeyError:
        raise ConfigError(unknown_name("profile", name, PROFILES)) from None


__all__ = [
    "CHUNKING_MODES",
    "DEFAULT_PROFILE",
    "PROFILES",
    "STANDARD_IR",
    "ChunkingConfig",
    "DreamConfig",
    "IndexConfig",
    "MemlabConfig",
    "MmrConfig",
    "SearchConfig",
    "WatcherConfig",
    "config_hash",
    "flatten",
    "from_dict",
    "profile",
    "to_dict",
    "with_overrides",
]

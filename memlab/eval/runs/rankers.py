"""Named rankers and running them over a candidate batch with the scoring core.

Short names (``memlab compare --runs …``), each derived from a base config
(the c0 profile unless told otherwise):

* ``fts`` — c0 without vectors;  ``hybrid`` — c0 with vectors;
* ``mmr`` — hybrid with MMR on (λ 0.7);
* ``openclaw``, ``rrf``, ``basic-memory`` — hybrid with that peer merge strategy;
* ``ranker@profile`` — the ranker on another profile (``hybrid@grok-2026-08``);
* ``name=FILE.yaml`` — the configuration in a file (``profile`` and search keys,
  or a ``search:`` section, as ``--config`` reads them; an ``index:`` section
  refines the memory the run searches), under that name.

``parse_run_specs`` reads such a list (``"fts,hybrid,mine=tuned.yaml"``) into
named ``Run`` s; every command that takes ``--runs`` uses it.

All rankers of one comparison score the same candidates (gathered once at the
widest limit any of them needs), so differences come from ranking alone. A
``Run`` may also name the memory it searches (``memlab.eval.replay.memory.Memory``:
Dream settings, index options); runs that share a memory share its replay.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import numpy as np

from memlab.arrays import IntArray
from memlab.config import (
    DEFAULT_PROFILE,
    MmrConfig,
    SearchConfig,
    flatten,
    profile,
    with_overrides,
)
from memlab.config_file import read_config_file
from memlab.errors import ConfigError, unknown_name
from memlab.eval.replay.memory import Memory
from memlab.retrieval.candidates_batch import CandidateBatch
from memlab.retrieval.ranking import RankedBatch, rank_batch
from memlab.retrieval.strategies import STRATEGIES, candidate_limit

Ranker = Callable[[SearchConfig], SearchConfig]
_FIXED: dict[str, Ranker] = {
    "fts": lambda c: replace(c, vectors=False),
    "hybrid": lambda c: replace(c, vectors=True),
    "mmr": lambda c: replace(c, vectors=True, mmr=MmrConfig(enabled=True, lambda_=0.7)),
}


class _Rankers(Mapping[str, Ranker]):
    """The named rankers: ``fts``, ``hybrid`` (c0's merge), ``mmr``, and a hybrid run for
    every other merge strategy, named by it (``openclaw``, ``rrf``, ``basic-memory``,
    and a plugin's: read from ``STRATEGIES`` whenever asked)."""

    def _merges(self) -> list[str]:
        return [s for s in STRATEGIES if s != "grok" and s not in _FIXED]

    def __getitem__(self, name: str) -> Ranker:
        if name in _FIXED:
            return _FIXED[name]
        if name in self._merges():
            return lambda c: replace(c, vectors=True, strategy=name)
        raise KeyError(name)

    def __iter__(self) -> Iterator[str]:
        return iter([*_FIXED, *self._merges()])

    def __len__(self) -> int:
        return len(_FIXED) + len(self._merges())


RANKERS: Mapping[str, Ranker] = _Rankers()
DEFAULT_RUNS = ("fts", "hybrid", "mmr")


def ranker_configs(names: Sequence[str], base: SearchConfig) -> dict[str, SearchConfig]:
    out = {}
    for name in names:
        if name not in RANKERS:
            raise ConfigError(unknown_name("run", name, RANKERS))
        out[name] = RANKERS[name](base)
    return out


@dataclass(frozen=True)
class Run:
    """A search configuration and the memory it searches (None: the prepared one);
    ``index``: index options (``memlab.eval.replay.index_options``) that refine the prepared
    memory for this run (a run file's ``index`` section); ``spec`` is how the command
    line named it (``mine=tuned.yaml``), when it did."""

    config: SearchConfig
    memory: Memory | None = None
    spec: str = ""
    index: tuple[tuple[str, Any], ...] = ()

    def memory_on(self, prepared: Memory) -> Memory:
        """The memory this run searches when the prepared one is ``prepared``."""
        if self.memory is not None:
            return self.memory
        return prepared.refined(**dict(self.index)) if self.index else prepared


def as_run(spec: SearchConfig | Run) -> Run:
    return spec if isinstance(spec, Run) else Run(spec)


def run_label(name: str, config: SearchConfig) -> str:
    """What a run is, in words: ``c0 FTS-only``, ``c0 hybrid + MMR λ 0.7``, ``c0 + rrf
    merge`` (a peer's merge under c0's candidates and filters), ``grok-2026-08 hybrid``.

    The first word is the run's profile (``ranker@profile``; c0 otherwise): its
    candidates, decay and ``min_score`` apply, whatever the merge. A run read from a
    file (``NAME=FILE``) is described by its own configuration."""
    ranker, _, other = name.partition("@")
    base = other if other and other != DEFAULT_PROFILE else "c0"
    if ranker not in RANKERS:
        base = f"{name}'s own configuration"  # NAME=FILE: whatever the file says
    if config.strategy != "grok":
        return f"{base} + {config.strategy} merge"
    text = f"{base} {'hybrid' if config.vectors else 'FTS-only'}"
    return text + (f" + MMR λ {config.mmr.lambda_:g}" if config.mmr.enabled else "")


def named_configs(
    names: Sequence[str], profile_name: str = DEFAULT_PROFILE
) -> dict[str, SearchConfig]:
    """Configurations of run names: a ranker, optionally on another profile than
    ``profile_name`` (``{"fts": …, "hybrid@grok-2026-08": …}``)."""
    out: dict[str, SearchConfig] = {}
    for name in names:
        ranker, _, other = name.partition("@")
        out[name] = ranker_configs([ranker], profile(other or profile_name).search)[ranker]
    return out


RUN_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]*")


def run_from_file(path: str | Path, profile_name: str = DEFAULT_PROFILE) -> SearchConfig:
    """The search configuration a run file describes: its ``profile`` (else
    ``profile_name``) with its search keys applied (``read_run`` also reads its index)."""
    return read_run(path, profile_name).config


def read_run(path: str | Path, profile_name: str = DEFAULT_PROFILE, spec: str = "") -> Run:
    """The run a file describes: its ``profile`` (else ``profile_name``) with its search
    keys applied, and its ``index`` section (tokenizer, chunking) refining the memory."""
    from memlab.eval.replay.index_options import options_of_section

    data = read_config_file(str(path), "search")
    extra = sorted(set(data) - {"profile", "search", "index"})
    if extra:
        raise ConfigError(
            f"run file {path}: '{extra[0]}' settings shape the replay, not the run; "
            "a run file holds a profile, search settings and index settings (set Dream "
            "with --dream and --set dream.KEY=VALUE)"
        )
    base = profile(str(data.get("profile") or profile_name)).search
    overrides = flatten(data.get("search") or {})
    config = with_overrides(base, overrides) if overrides else base
    index = options_of_section(data.get("index") or {}, f"run file {path}")
    return Run(config, spec=spec, index=tuple(sorted(index.items())))


def parse_run_specs(
    specs: str | Sequence[str],
    *,
    base: SearchConfig | None = None,
    profile_name: str = DEFAULT_PROFILE,
) -> dict[str, Run]:
    """Named runs from ``"fts,hybrid,mmr,mine=tuned.yaml"`` (or a list of such items):
    a ranker (on ``base``, else ``profile_name``'s search settings), ``ranker@profile``,
    or ``name=FILE``. Names are unique words (they name result files)."""
    items = specs.split(",") if isinstance(specs, str) else list(specs)
    items = [item.strip() for item in items if item.strip()]
    if not items:
        raise ConfigError("no runs given; name some, e.g. fts,hybrid,mmr or mine=tuned.yaml")
    out: dict[str, Run] = {}
    for item in items:
        name, sep, file = item.partition("=")
        name, file = name.strip(), file.strip()
        if sep:
            if not RUN_NAME.fullmatch(name) or not file:
                raise ConfigError(
                    f"run '{item}': write NAME=FILE with NAME a plain word, e.g. mine=tuned.yaml"
                )
            run = read_run(file, profile_name, item)
        else:
            ranker, _, other = name.partition("@")
            if ranker not in RANKERS:
                raise ConfigError(unknown_name("run", ranker, [*RANKERS, "NAME=FILE.yaml"]))
            start = profile(other).search if other else (base or profile(profile_name).search)
            run = Run(RANKERS[ranker](start), spec=item)
        if name in out:
            raise ConfigError(f"run '{name}' is named twice; give each run its own name")
        out[name] = run
    return out


def needed_limit(
    configs: Mapping[str, SearchConfig | Run] | Sequence[SearchConfig | Run],
) -> int:
    """The widest candidate limit any configuration needs."""
    values = configs.values() if isinstance(configs, Mapping) else configs
    return max(candidate_limit(as_run(c).config) for c in values)


def keyword_mode(configs: Sequence[SearchConfig]) -> str:
    """The ``keywords`` setting all ``configs`` share (it shapes the candidates, so one
    candidate batch serves one setting)."""
    modes = sorted({c.keywords for c in configs}) or ["c0"]
    if len(modes) > 1:
        raise ConfigError(
            f"these configurations read query keywords differently ({', '.join(modes)}); "
            "candidates are gathered once, so evaluate each keywords= setting separately"
        )
    return modes[0]


@dataclass
class RunResult:
    """What one ranker returned for every query (ties already broken)."""

    name: str
    config: SearchConfig
    rankings: dict[str, list[str]]  # query_id -> chunk ids, best first
    scores: dict[str, list[float]]  # display scores, same order
    snippets: dict[str, list[str]]
    degraded: dict[str, bool]
    memory: Memory | None = None  # the memory it searched, when not the prepared one
    source: str | None = None  # an external run: the TREC file (its snippets are unknown)


def run_config(
    name: str, batch: CandidateBatch, config: SearchConfig, now: float | np.ndarray
) -> RunResult:
    """Rank every query of ``batch`` under ``config`` (the same core as live search)."""
    return run_of(name, rank_batch(batch, config, now))


def hit_rows(ranked: RankedBatch) -> tuple[IntArray, IntArray]:
    """Every query's returned hits at once: their rows, query by query and best first
    within each (``ranked.hits(q)`` is ``rows[bounds[q]:bounds[q + 1]]``), and the bounds."""
    final = ranked.final_rank
    rows = np.flatnonzero(final > 0)
    segment = ranked.batch.segment[rows]
    rows = rows[np.lexsort((final[rows], segment))]  # stable: equal ranks keep row order
    bounds = np.searchsorted(segment, np.arange(ranked.batch.n_queries + 1), side="left")
    return rows, bounds


def run_of(name: str, ranked: RankedBatch) -> RunResult:
    """The returned hits of every query of a ranked batch, as a run."""
    batch, config = ranked.batch, ranked.config
    result = RunResult(name, config, {}, {}, {}, {})
    rows, bounds = hit_rows(ranked)
    ids, scores = batch.chunk_id[rows].tolist(), ranked.display[rows].tolist()
    texts, ends = batch.text[rows].tolist(), bounds.tolist()
    for q, qid in enumerate(batch.query_ids):
        start, stop = ends[q], ends[q + 1]
        result.rankings[qid] = ids[start:stop]
        result.scores[qid] = scores[start:stop]
        result.snippets[qid] = texts[start:stop]
        # a vector failure degrades vector runs; a keyword miss (the text side) every run
        text_side = bool(batch.settled[q]) if batch.settled else False
        result.degraded[qid] = bool(batch.degraded[q]) and (config.vectors or text_side)
    return result


def file_of(doc_id: str) -> str:
    """The file of a chunk id (``path:i`` → ``path``); any other id is already a file."""
    path, sep, index = doc_id.rpartition(":")
    return path if sep and index.isdigit() else doc_id


def to_file_level(result: RunResult) -> RunResult:
    """Rankings of files instead of chunks: each file at its best chunk's position."""
    out = RunResult(
        result.name, result.config, {}, {}, {}, dict(result.degraded), result.memory, result.source
    )
    for qid, ids in result.rankings.items():
        seen: dict[str, int] = {}
        for i, cid in enumerate(ids):
            seen.setdefault(file_of(cid), i)
        order = list(seen.values())
        out.rankings[qid] = list(seen)
        out.scores[qid] = [result.scores[qid][i] for i in order]
        snippets = result.snippets.get(qid)  # none for a run from elsewhere
        out.snippets[qid] = [snippets[i] for i in order] if snippets else []
    return out

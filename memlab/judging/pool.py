"""Pooling: the candidates to judge, from the top k of several rankers, blind to which.

For each query, at the query's own time (``memlab.eval.replay.prepared``: the memory as
it stood then), every run ranks the same candidates with the scoring core
(``rank_batch``); the pool is the union of each run's first ``depth``
candidates: the hits it returns, in order, then — when it returns fewer — the
candidates it had in play that ``min_score`` or ``max_results`` cut, best raw
score first (the stage trace's order, content-free chunks left out). So the
pool also holds the near misses a tuned configuration (a longer half-life, a
lower ``min_score``) would return: c0's decay hides every session log older
than about ten days, which on a real memory is most of them. A
candidate is named by its *target* — ``path#La-Lb``, the lines of the file
version at the query's time that the chunk holds — so a judgement survives
re-chunking; it keeps the chunk's text, and for every run that found it, its
rank and its stage trace (``memlab.retrieval.trace``), shown only on request.

Candidates are de-duplicated by target and ordered by a hash of (seed, query,
target): a stable order that does not reveal which ranker found a candidate,
and does not change when a later pooling adds candidates (``pool_dataset``
merges into the existing pool; nothing judged is ever dropped).

Files in the dataset folder (outside its digest): ``pool.jsonl`` (one line per
(query, candidate)) and ``pool.json`` (the runs, depth, seed and embedder used,
so queries added while judging are pooled the same way).
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from memlab.datasets import Dataset, load_dataset, span_target
from memlab.datasets.jsonl import dumps
from memlab.datasets.model import POOL, POOL_SETTINGS
from memlab.datasets.untrusted import MAX_TABLE_BYTES, read_optional
from memlab.errors import DatasetError
from memlab.eval.replay.memory import Memory
from memlab.eval.replay.prepared import Prepared, PrepareOptions, prepare_dataset
from memlab.eval.runs.rankers import Run, needed_limit, parse_run_specs
from memlab.progress import phase
from memlab.retrieval.candidates_batch import CandidateBatch
from memlab.retrieval.ranking import rank_batch
from memlab.retrieval.trace import trace_rows
from memlab.safefs import write_atomic

DEFAULT_POOL_RUNS = ("fts", "hybrid", "mmr")
DEFAULT_DEPTH = 10


@dataclass
class Candidate:
    """One pooled candidate of one query."""

    query_id: str
    target: str  # path#La-Lb of the file version at the query's time
    chunk_id: str
    path: str
    start_line: int
    end_line: int
    text: str
    source: str
    key: str  # the blind order
    found_by: dict[str, int] = field(default_factory=dict)  # run -> 1-based rank
    traces: dict[str, dict[str, Any]] = field(default_factory=dict)  # run -> trace row


@dataclass(frozen=True)
class PoolSettings:
    runs: tuple[str, ...] = DEFAULT_POOL_RUNS  # run specs as parse_run_specs reads them
    depth: int = DEFAULT_DEPTH
    seed: int = 0
    embedder: str | None = None
    queries: tuple[str, ...] = ()  # the queries pooled (a pool may be empty)


@dataclass
class PoolReport:
    settings: PoolSettings
    queries: int
    added: int  # candidates new to the pool
    total: int  # candidates in the pool
    warnings: list[str] = field(default_factory=list)

    def summary(self) -> str:
        return (
            f"pooled {self.queries} queries with {', '.join(self.settings.runs)} to depth "
            f"{self.settings.depth}: {self.added} new candidates, {self.total} in the pool"
        )


def pool_key(seed: int, query_id: str, target: str) -> str:
    """The blind sort key of a candidate: a hash of (seed, query, target)."""
    return hashlib.sha256(f"{seed}\0{query_id}\0{target}".encode()).hexdigest()[:16]


def _candidate(b: CandidateBatch, i: int, qid: str, seed: int) -> tuple[str, Candidate]:
    chunk_id = str(b.chunk_id[i])
    path, first, last = str(b.path[i]), int(b.start_line[i]), int(b.end_line[i])
    target = span_target(path, first, last)
    text, source = str(b.text[i]), str(b.source[i])
    return target, Candidate(
        qid, target, chunk_id, path, first, last, text, source, pool_key(seed, qid, target)
    )


def pool_candidates(
    prepared: Prepared, runs: Mapping[str, Run], depth: int, seed: int = 0
) -> dict[str, list[Candidate]]:
    """Every query's pool (query id -> candidates in blind order) from ``runs``' top ``depth``."""
    found: dict[str, dict[str, Candidate]] = {q.query_id: {} for q in prepared.dataset.queries}
    if not found:
        return {}
    by_memory: dict[Memory, dict[str, Run]] = {}
    for name, run in runs.items():
        by_memory.setdefault(run.memory or prepared.memory, {})[name] = run
    for memory, group in by_memory.items():
        vectors = any(r.config.vectors for r in group.values())
        timeline = prepared.timeline(needed_limit(group), vectors=vectors, memory=memory)
        b = timeline.batch
        for name, run in group.items():
            with phase(f"pooling {name}'s top {depth}", len(b.query_ids), "query") as bar:
                bar.describe("ranking")
                ranked = rank_batch(b, run.config, timeline.query_now)
                for q, qid in enumerate(b.query_ids):
                    where = {str(b.chunk_id[i]): i for i in range(b.offsets[q], b.offsets[q + 1])}
                    rows = [
                        r for r in trace_rows(ranked, q) if r["in_set"] and not r["content_free"]
                    ]
                    for rank, row in enumerate(rows[:depth], start=1):
                        target, cand = _candidate(b, where[row["chunk_id"]], qid, seed)
                        cand = found[qid].setdefault(target, cand)
                        cand.found_by[name] = rank
                        cand.traces[name] = row
                    bar.advance(detail="")
    return {qid: sorted(c.values(), key=lambda c: c.key) for qid, c in found.items()}


def read_pool(dataset_dir: str | Path) -> dict[str, list[Candidate]]:
    """The pool on disk (query id -> candidates in blind order); empty without one."""
    path = Path(dataset_dir) / POOL
    out: dict[str, list[Candidate]] = {}
    data = read_optional(path, dataset_dir, MAX_TABLE_BYTES)  # untrusted, like the dataset
    if data is None:
        return out
    text = data.decode("utf-8")
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        try:
            cand = Candidate(**json.loads(line))
        except (ValueError, TypeError) as exc:
            raise DatasetError(
                f"{path}:{number}: not a pool line ({exc}); pool again with `memlab pool`"
            ) from None
        out.setdefault(cand.query_id, []).append(cand)
    return out


def read_settings(dataset_dir: str | Path) -> PoolSettings | None:
    path = Path(dataset_dir) / POOL_SETTINGS
    raw = read_optional(path, dataset_dir, MAX_TABLE_BYTES)  # untrusted, like the dataset
    if raw is None:
        return None
    try:
        data = json.loads(raw.decode("utf-8"))
        return PoolSettings(
            tuple(data["runs"]),
            int(data["depth"]),
            int(data["seed"]),
            data.get("embedder"),
            tuple(data.get("queries", ())),
        )
    except (ValueError, KeyError, TypeError) as exc:
        raise DatasetError(f"{path}: unreadable ({exc}); pool again with `memlab pool`") from None


def merge(
    old: Mapping[str, Sequence[Candidate]], new: Mapping[str, Sequence[Candidate]]
) -> dict[str, list[Candidate]]:
    """The union of two pools (a candidate in both keeps its text, gains the new traces)."""
    out: dict[str, dict[str, Candidate]] = {
        qid: {c.target: c for c in cands} for qid, cands in old.items()
    }
    for qid, cands in new.items():
        mine = out.setdefault(qid, {})
        for c in cands:
            if c.target in mine:
                mine[c.target].found_by.update(c.found_by)
                mine[c.target].traces.update(c.traces)
            else:
                mine[c.target] = c
    return {qid: sorted(c.values(), key=lambda c: c.key) for qid, c in out.items()}


def write_pool(
    dataset_dir: Path,
    pool: Mapping[str, Sequence[Candidate]],
    order: Iterable[str],
    settings: PoolSettings,
) -> None:
    """Write ``pool.jsonl`` (queries in ``order``) and ``pool.json``, each atomically."""
    order = [q for q in order if q in pool] + sorted(set(pool) - set(order))
    lines = [dumps(asdict(c)) + "\n" for q in order for c in pool[q]]
    write_atomic(dataset_dir / POOL, "".join(lines))
    write_atomic(dataset_dir / POOL_SETTINGS, json.dumps(asdict(settings), indent=2) + "\n")


def _absolute_specs(specs: Iterable[str]) -> tuple[str, ...]:
    """Run specs with their files made absolute (the judging flow may run elsewhere)."""
    out = []
    for spec in specs:
        name, sep, file = spec.partition("=")
        out.append(f"{name.strip()}={Path(file.strip()).resolve()}" if sep else spec.strip())
    return tuple(out)


def _union(old: Sequence[str], new: Sequence[str]) -> tuple[str, ...]:
    names = {s.partition("=")[0].strip(): s for s in old}
    names.update({s.partition("=")[0].strip(): s for s in new})
    return tuple(names.values())


def pool_dataset(
    dataset: str | Path | Dataset,
    runs: str | Sequence[str] = DEFAULT_POOL_RUNS,
    *,
    depth: int = DEFAULT_DEPTH,
    seed: int = 0,
    embedder: str | None = None,
    queries: Iterable[str] | None = None,
    work_dir: str | Path | None = None,
    progress: bool = False,
) -> PoolReport:
    """Pool ``runs`` (``"fts,hybrid,mine=tuned.yaml"``) to ``depth`` for every query (or
    ``queries``) and merge the result into the dataset's pool (module docstring)."""
    if depth < 1:
        raise DatasetError(f"pool depth {depth} must be at least 1")
    with phase(f"loading dataset {getattr(dataset, 'name', dataset)}"):
        ds = dataset if isinstance(dataset, Dataset) else load_dataset(dataset)
    if queries is not None:
        wanted = set(queries)
        ds = ds.select(where=lambda q: q.query_id in wanted)
    items = runs.split(",") if isinstance(runs, str) else list(runs)
    specs = _absolute_specs(i for i in items if i.strip())
    named = parse_run_specs(specs)
    old_settings = read_settings(ds.path)
    before_ids = old_settings.queries if old_settings else ()
    settings = PoolSettings(
        _union(old_settings.runs if old_settings else (), specs),
        depth,
        seed,
        embedder if embedder is not None else (old_settings.embedder if old_settings else None),
        tuple(dict.fromkeys([*before_ids, *(q.query_id for q in ds.queries)])),
    )
    old = read_pool(ds.path)
    if old_settings is not None and old_settings.seed != seed and old:
        raise DatasetError(
            f"the pool of {ds.path} was drawn with seed {old_settings.seed}; pool with "
            f"--seed {old_settings.seed} (a new seed would reorder what is being judged)"
        )
    new: dict[str, list[Candidate]] = {}
    warnings: list[str] = []
    if ds.queries:
        prepared = prepare_dataset(
            ds, PrepareOptions(embedder=settings.embedder, work_dir=work_dir, progress=progress)
        )
        new = pool_candidates(prepared, named, depth, seed)
        warnings = list(prepared.warnings)
        if prepared.embedder is None and any(r.config.vectors for r in named.values()):
            warnings.append(
                "no embedder and no shipped vectors: runs that use vectors ranked FTS-only "
                "(pass --embedder, or build the dataset with --embedder)"
            )
    pool = merge(old, new)
    before = sum(len(c) for c in old.values())
    total = sum(len(c) for c in pool.values())
    full = load_dataset(ds.path) if queries is not None else ds
    with phase(f"writing the pool of {len(pool)} queries"):
        write_pool(ds.path, pool, [q.query_id for q in full.queries], settings)
    return PoolReport(settings, len(ds.queries), total - before, total, warnings)

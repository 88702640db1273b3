"""The scoring core for many configurations equals ``rank_batch``, hit for hit and bit for bit.

Batches are drawn to make ties common: few distinct BM25 ranks, distances,
creation times and snippet texts (so raw scores, MMR scores and Jaccard values
tie), several sources, content-free rows, queries with zero, one or many
candidates. Every draw is ranked once by ``ManyScorer`` for many configurations
together and once per configuration by ``rank_batch``.
"""

from __future__ import annotations

import numpy as np
import pytest

from memlab.config import SearchConfig, with_overrides
from memlab.retrieval.candidates_batch import (
    ABSENT,
    CandidateBatch,
    CandidateRow,
    QueryCandidates,
    build_batch,
)
from memlab.retrieval.many import BatchArrays, HitMatrix, ManyScorer
from memlab.retrieval.ranking import rank_batch
from memlab.retrieval.strategies import candidate_limit
from memlab.timefmt import DAY
from tests.sweep.conftest import draw_overrides

NOW = 1_790_000_000.0
TEXTS = ["alpha beta", "alpha beta gamma", "beta gamma", "delta", "", "alpha", "gamma delta"]
SOURCES = ["session", "workspace", "global", "dream", "openclaw"]


def draw_batch(rng: np.random.Generator, n_queries: int, limit: int) -> CandidateBatch:
    items = []
    for q in range(n_queries):
        n = int(rng.integers(0, 3 * limit + 1))
        ids = rng.choice(200, size=n, replace=False)
        fts = rng.permutation(n)
        vec = rng.permutation(n)
        n_fts, n_supp, n_vec = (int(rng.integers(0, limit + 1)) for _ in range(3))
        rows = []
        for i, cid in enumerate(ids):
            in_fts = fts[i] < n_fts
            in_supp = not in_fts and fts[i] < n_fts + n_supp
            in_vec = vec[i] < n_vec or not (in_fts or in_supp)
            rows.append(
                CandidateRow(
                    chunk_id=f"c{cid:03d}",
                    path=f"p{cid % 7}.md",
                    start_line=1,
                    end_line=2,
                    text=TEXTS[int(rng.integers(len(TEXTS)))],
                    source=SOURCES[int(rng.integers(len(SOURCES)))],
                    created_at=NOW - DAY * float(rng.integers(0, 4) * 5),
                    access_count=int(rng.integers(0, 3)),
                    fts_rank=-float(rng.integers(1, 4)) if (in_fts or in_supp) else np.nan,
                    fts_pos=int(fts[i]) if in_fts else ABSENT,
                    supp_pos=int(fts[i]) - n_fts if in_supp else ABSENT,
                    distance=float(rng.integers(0, 5)) / 4 if in_vec else np.nan,
                    vec_pos=int(vec[i]) if in_vec else ABSENT,
                )
            )
        items.append(
            QueryCandidates(f"q{q}", "query", limit, rows, vector_used=bool(rng.random() < 0.8))
        )
    return build_batch(items)


def draw_configs(rng: np.random.Generator, n: int, limit: int) -> list[SearchConfig]:
    out = []
    while len(out) < n:
        cfg = with_overrides(SearchConfig(), draw_overrides(rng))
        if candidate_limit(cfg) <= limit:
            out.append(cfg)
    return out


def assert_equal_to_rank_batch(
    batch: CandidateBatch, configs: list[SearchConfig], found: HitMatrix, now: object
) -> int:
    compared = 0
    for g, cfg in enumerate(configs):
        ranked = rank_batch(batch, cfg, now)  # type: ignore[arg-type]
        for q in range(batch.n_queries):
            rows, raw = found.of(g, q)
            expected = ranked.hits(q)
            assert rows.tolist() == expected.tolist(), (cfg, q)
            assert (found.rows[len(expected) :, g, q] == -1).all()
            assert raw.tobytes() == ranked.raw[expected].tobytes(), (cfg, q)
            compared += len(expected)
    return compared


@pytest.mark.parametrize("seed", range(6))
def test_many_configurations_rank_like_rank_batch(seed: int) -> None:
    rng = np.random.default_rng(seed)
    batch = draw_batch(rng, n_queries=int(rng.integers(1, 30)), limit=40)
    configs = draw_configs(rng, 60, batch.limit)
    now = NOW + DAY * rng.integers(0, 10, size=batch.n_queries)  # each query its own time
    found = ManyScorer(BatchArrays.of(batch), now).rank(configs)
    assert assert_equal_to_rank_batch(batch, configs, found, now) > 0


def test_ties_are_broken_by_chunk_id_and_mmr_ties_like_mmr_select() -> None:
    rng = np.random.default_rng(99)
    batch = draw_batch(rng, n_queries=40, limit=30)
    base = SearchConfig(min_score=0.0, half_life_days=None, max_results=10)
    configs = [base]
    for lam in (0.0, 0.3, 0.5, 0.7, 0.99):
        configs.append(with_overrides(base, {"mmr.enabled": True, "mmr.lambda": lam}))
    found = ManyScorer(BatchArrays.of(batch), NOW).rank(configs)
    assert assert_equal_to_rank_batch(batch, configs, found, NOW) > 0
    shown = found.raw[:, 0][found.rows[:, 0] >= 0]
    assert len(shown) > len(np.unique(shown))  # the draw does produce tied scores


def test_one_block_or_many_gives_the_same_hits(monkeypatch: pytest.MonkeyPatch) -> None:
    rng = np.random.default_rng(3)
    batch = draw_batch(rng, n_queries=20, limit=40)
    configs = draw_configs(rng, 40, batch.limit)
    whole = ManyScorer(BatchArrays.of(batch), NOW).rank(configs)
    monkeypatch.setattr("memlab.retrieval.many.BLOCK_CELLS", 1)  # one configuration per block
    single = ManyScorer(BatchArrays.of(batch), NOW).rank(configs)
    assert np.array_equal(whole.rows, single.rows) and np.array_equal(whole.raw, single.raw)


def test_batch_arrays_pickle_without_text() -> None:
    import pickle

    batch = draw_batch(np.random.default_rng(1), n_queries=5, limit=10)
    arrays = pickle.loads(pickle.dumps(BatchArrays.of(batch)))
    assert not any(isinstance(v, np.ndarray) and v.dtype == object and "text" in k
                   for k, v in vars(arrays).items())  # fmt: skip
    configs = draw_configs(np.random.default_rng(2), 10, batch.limit)
    found = ManyScorer(arrays, NOW).rank(configs)
    assert_equal_to_rank_batch(batch, configs, found, NOW)

"""Vectorised sweep measures equal ranx and ``evaluate_run`` (the reference path)."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from memlab.config import SearchConfig, with_overrides
from memlab.eval.compare.per_query import evaluate_run
from memlab.eval.measures import (
    AGENT_MEASURES,
    Returned,
    build_judgements,
    compute,
    judged_at,
    parse_measure,
    ranx_backend,
)
from memlab.eval.replay.prepared import Prepared
from memlab.sweep import Sweep
from tests.sweep.conftest import draw_overrides

IR = ["nDCG@10", "nDCG@3", "nDCG@1", "nDCG", "R@5", "R@1", "P@5", "P@2", "RR", "RR@3"]
IR += ["Success@5", "Success@1", "MAP", "MAP@4"]


def random_run(rng: np.random.Generator) -> dict[str, Any]:
    """Queries with candidates (some returned, in order), graded qrels partly outside them."""
    n_q = int(rng.integers(1, 25))
    qids = [f"q{i:02d}" for i in range(n_q)]
    segment, chunks, final_rank, rankings, qrels = [], [], [], {}, {}
    abstention = set()
    for q, qid in enumerate(qids):
        pool = [f"c{j}" for j in rng.permutation(30)[: int(rng.integers(0, 15))]]
        returned = int(rng.integers(0, len(pool) + 1))
        rankings[qid] = pool[:returned]
        for pos, cid in enumerate(pool):
            segment.append(q)
            chunks.append(cid)
            final_rank.append(pos + 1 if pos < returned else 0)
        judged = rng.permutation(30)[: int(rng.integers(0, 8))]
        qrels[qid] = {f"c{j}": int(rng.integers(0, 4)) for j in judged}
        if rng.random() < 0.1:
            qrels[qid] = {c: 0 for c in qrels[qid]}
            abstention.add(qid)
    order = rng.permutation(len(chunks))  # rows need not be in rank order
    seg = np.array(segment, dtype=np.int64)[order]
    return {
        "qids": qids,
        "segment": seg,
        "chunks": [chunks[i] for i in order],
        "final_rank": np.array(final_rank, dtype=np.int64)[order],
        "rankings": rankings,
        "qrels": qrels,
        "abstention": abstention,
    }


def test_ir_measures_equal_ranx_on_random_runs() -> None:
    rng = np.random.default_rng(2026)
    compared = 0
    for _ in range(60):
        r = random_run(rng)
        j = build_judgements(
            r["qids"],
            r["segment"],
            r["chunks"],
            r["chunks"],
            r["qrels"],
            abstention=r["abstention"],
        )
        hits = Returned.from_final_rank(r["final_rank"], r["segment"], len(r["qids"]))
        ours = compute([*IR, "Judged@5"], hits, j)
        judged = {
            q: g
            for q, g in r["qrels"].items()
            if any(v > 0 for v in g.values()) and q not in r["abstention"]
        }
        names = {m: str(parse_measure(m).ranx_name) for m in IR}
        ref = ranx_backend.evaluate(judged, r["rankings"], list(names.values()))
        for i, qid in enumerate(r["qids"]):
            if qid not in judged:
                assert all(np.isnan(ours[m][i]) for m in IR)
                continue
            for m in IR:
                assert ours[m][i] == pytest.approx(ref[names[m]][qid], rel=1e-12, abs=1e-15), m
            assert ours["Judged@5"][i] == judged_at(r["rankings"][qid], r["qrels"][qid], 5)
            compared += 1
    assert compared > 200


@pytest.mark.parametrize(
    "dataset",
    ["evalmini", pytest.param("agent_memory", marks=pytest.mark.slow)],  # CI slow suite
)
def test_every_measure_equals_evaluate_run(dataset: str, request: pytest.FixtureRequest) -> None:
    prepared: Prepared = request.getfixturevalue(dataset)
    measures = ["nDCG@10", "R@5", "P@5", "RR", "Success@5", "Judged@10", *AGENT_MEASURES]
    sweep = Sweep(prepared, measures=measures)
    rng = np.random.default_rng(8)
    configs = [SearchConfig(), SearchConfig(min_score=0.0, half_life_days=None)]
    configs += [with_overrides(SearchConfig(), draw_overrides(rng)) for _ in range(4)]
    sweep.prepare_for(configs)
    for cfg in configs:
        ours = sweep.per_query(cfg)
        ir = [m for m in measures if m not in AGENT_MEASURES]
        ref = evaluate_run(prepared, sweep.run_result(cfg), [*ir, "Hits"])
        for m in measures:
            expected = ref[ref["measure"] == m].set_index("query_id")["value"]
            got = {q: v for q, v in zip(sweep.query_ids, ours[m], strict=True) if not np.isnan(v)}
            assert set(got) == set(expected.index), m
            for qid, value in got.items():
                assert value == pytest.approx(expected[qid], rel=1e-12, abs=1e-15), (m, qid)

"""memlab's measures equal ranx's on real runs, for every measure ranx can express.

Evaluation reports memlab's vectorised measures (``memlab.eval.measures``); ranx
is their reference. Here each run of a real experiment — the shipped dataset
with its MiniLM vectors and a small timeline dataset, at chunk and at file level,
the named rankers and random configurations — is measured both ways.
``Judged@k`` (no ranx counterpart) is checked against its plain definition.
"""

from __future__ import annotations

import numpy as np
import pytest

from memlab.config import SearchConfig, with_overrides
from memlab.datasets import load_dataset
from memlab.eval.compare.per_query import evaluate_run
from memlab.eval.measures import DEFAULT_MEASURES, judged_at, parse_measure, ranx_backend
from memlab.eval.replay.as_of import Timeline
from memlab.eval.replay.prepared import Prepared, prepare
from memlab.eval.runs.rankers import to_file_level
from tests.eval.conftest import write_eval_dataset
from tests.sweep.conftest import AGENT_MEMORY, draw_overrides, shipped_embedder

RANX = ["nDCG@10", "nDCG@3", "nDCG", "R@5", "R@1", "P@5", "P@2", "RR", "RR@3"]
RANX += ["Success@5", "Success@1", "MAP", "MAP@4"]
JUDGED = ["Judged@10", "Judged@3"]


@pytest.fixture(scope="module")
def shipped(tmp_path_factory: pytest.TempPathFactory) -> Prepared:
    ds = load_dataset(AGENT_MEMORY)
    return prepare(ds, embedder=shipped_embedder(ds), work_dir=tmp_path_factory.mktemp("w"))


@pytest.fixture(scope="module")
def small(tmp_path_factory: pytest.TempPathFactory) -> Prepared:
    from memlab.embeddings.hashing import HashEmbedder

    path = write_eval_dataset(tmp_path_factory.mktemp("ds") / "evalmini")
    return prepare(
        load_dataset(path), embedder=HashEmbedder(), work_dir=tmp_path_factory.mktemp("w")
    )


def configs() -> dict[str, SearchConfig]:
    rng = np.random.default_rng(14)
    out = {
        "fts": SearchConfig(vectors=False),
        "hybrid": SearchConfig(),
        "mmr": with_overrides(SearchConfig(), {"mmr.enabled": True}),
        "open": SearchConfig(min_score=0.0, max_results=20, half_life_days=None),
    }
    out.update({f"draw{i}": with_overrides(SearchConfig(), draw_overrides(rng)) for i in range(6)})
    return out


def assert_equal_to_ranx(timeline: Timeline, unit: str) -> int:
    from memlab.datasets import qrels_by_file
    from memlab.eval.runs.rankers import run_config

    ds = timeline.dataset
    qrels = timeline.qrels
    if unit == "file":
        qrels = {q: g for gid in ds.groups for q, g in qrels_by_file(ds, group=gid).items()}
    abstention = {q.query_id for q in ds.queries if q.abstention}
    judged = {
        q: g for q, g in qrels.items() if any(v > 0 for v in g.values()) and q not in abstention
    }
    compared = 0
    for name, cfg in configs().items():
        run = run_config(name, timeline.batch, cfg, timeline.query_now)
        ours = evaluate_run(timeline, run, [*RANX, *JUDGED], unit=unit)
        rankings = (to_file_level(run) if unit == "file" else run).rankings
        names = {m: str(parse_measure(m).ranx_name) for m in RANX}
        ref = ranx_backend.evaluate(judged, rankings, list(names.values()))
        for m in [*RANX, *JUDGED]:
            got = ours[ours["measure"] == m].set_index("query_id")["value"].to_dict()
            assert set(got) == set(judged), (name, m)
            for qid, value in got.items():
                if m in JUDGED:
                    k = int(m.split("@")[1])
                    expected = judged_at(rankings.get(qid, []), qrels[qid], k)
                else:
                    expected = ref[names[m]][qid]
                assert value == pytest.approx(expected, rel=1e-12, abs=1e-15), (name, m, qid)
                compared += 1
    return compared


@pytest.mark.parametrize("unit", ["chunk", "file"])
@pytest.mark.parametrize(
    "dataset",
    [pytest.param("shipped", marks=pytest.mark.slow), "small"],  # shipped: CI slow suite
)
def test_every_ir_measure_equals_ranx_on_real_runs(
    dataset: str, unit: str, request: pytest.FixtureRequest
) -> None:
    prepared: Prepared = request.getfixturevalue(dataset)
    timeline = prepared.timeline(max(c.max_results * 4 for c in configs().values()))
    assert assert_equal_to_ranx(timeline, unit) > 500


def test_the_reported_measures_are_all_covered() -> None:
    """Every IR measure evaluation reports by default is among those compared with ranx
    (or is Judged@k, or a nugget measure checked against its reference in test_novelty)."""
    for name in DEFAULT_MEASURES:
        m = parse_measure(name)
        if name == "NumQ" or m.nugget:
            continue
        assert name in RANX or name in JUDGED, name


def test_evaluation_does_not_import_ranx(small: Prepared) -> None:
    import subprocess
    import sys

    code = (
        "import sys\n"
        "from memlab.datasets import load_dataset\n"
        "from memlab.embeddings.hashing import HashEmbedder\n"
        "from memlab.eval.compare.experiment import run_experiment\n"
        "from memlab.eval.replay.prepared import prepare\n"
        f"p = prepare(load_dataset({str(small.dataset.path)!r}), embedder=HashEmbedder())\n"
        "run_experiment(p, ['fts', 'hybrid', 'mmr'])\n"
        "print(sorted(m for m in ('ranx', 'numba') if m in sys.modules))\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=300
    )
    assert out.stdout.strip().splitlines()[-1] == "[]"

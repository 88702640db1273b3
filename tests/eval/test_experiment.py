"""End-to-end evaluation on a small dataset: outputs, read-only, statistics, CLI."""

from __future__ import annotations

import hashlib
import json
import math
from pathlib import Path

import pandas as pd
import pytest

from memlab.cli import main
from memlab.config import SearchConfig
from memlab.datasets import load_dataset, read_run
from memlab.eval.compare.experiment import Scoring, run_experiment
from memlab.eval.compare.manifest import incompatibilities
from memlab.eval.replay.prepared import PrepareOptions, gather_batch, prepare, prepare_dataset
from memlab.eval.runs.rankers import RANKERS, needed_limit, ranker_configs

BASE = SearchConfig(half_life_days=None, min_score=0.0)


def tree_digest(path: Path) -> str:
    h = hashlib.sha256()
    for p in sorted(path.rglob("*")):
        if p.is_file():
            h.update(str(p.relative_to(path)).encode() + p.read_bytes())
    return h.hexdigest()


@pytest.fixture(scope="module")
def experiment(eval_dataset: Path, tmp_path_factory: pytest.TempPathFactory):  # type: ignore[no-untyped-def]
    before = tree_digest(eval_dataset)
    out = tmp_path_factory.mktemp("out")
    prepared = prepare_dataset(
        eval_dataset, PrepareOptions(embedder="hash", work_dir=tmp_path_factory.mktemp("work"))
    )
    exp = run_experiment(prepared, list(RANKERS), base=BASE, out=out)
    assert tree_digest(eval_dataset) == before  # evaluation never writes into the dataset
    return exp, out


def test_outputs_are_written(experiment) -> None:  # type: ignore[no-untyped-def]
    exp, out = experiment
    for name in (
        "aggregated.csv",
        "perquery.csv",
        "compare.csv",
        "per_category.csv",
        "manifest.json",
    ):
        assert (out / name).is_file()
    perquery = pd.read_csv(out / "perquery.csv")
    assert list(perquery.columns) == ["run", "query_id", "category", "measure", "value"]
    assert set(perquery["run"]) == set(RANKERS)
    manifest = json.loads((out / "manifest.json").read_text())
    assert manifest["embedder"] == {"id": "hash-384", "dims": 384}
    assert manifest["dataset"]["digest"] == exp.dataset.digest
    assert set(manifest["runs"]) == set(RANKERS)
    assert manifest["index"]["versions"]["sqlite_vec"]
    assert "NaN" not in (out / "manifest.json").read_text()
    run = read_run(out / "runs" / "fts.trec")
    assert {q: list(d) for q, d in run.items()} == {
        q: ids for q, ids in exp.runs["fts"].rankings.items() if ids
    }


def test_every_judged_query_is_scored(experiment) -> None:  # type: ignore[no-untyped-def]
    exp, _ = experiment
    agg = exp.aggregated.set_index(["run", "measure"])
    assert agg.loc[("fts", "NumQ"), "value"] == 4  # the abstention query is not an IR query
    ndcg = exp.perquery[exp.perquery["measure"] == "nDCG@10"]
    assert ndcg.groupby("run")["query_id"].nunique().eq(4).all()
    assert not exp.perquery["value"].isna().any()


def test_known_answers(experiment) -> None:  # type: ignore[no-untyped-def]
    exp, _ = experiment
    pq = exp.perquery.set_index(["run", "query_id", "measure"])["value"]
    assert pq[("fts", "q-tests", "RR")] == 1.0  # the global preference is found
    assert pq[("fts", "q-pay", "RR")] == 1.0
    assert pq[("fts", "q-none", "AbstainHits")] >= 0
    assert ("fts", "q-node", "Stale") in pq.index


def test_comparison_has_statistics(experiment) -> None:  # type: ignore[no-untyped-def]
    exp, _ = experiment
    c = exp.compared
    assert set(c["run"]) == set(RANKERS) - {"fts"} and (c["baseline"] == "fts").all()
    assert {"delta", "ci_low", "ci_high", "p", "p_holm", "wins", "ties", "losses"} <= set(c)
    assert (c["p_holm"] >= c["p"] - 1e-12).all()
    assert ((c["wins"] + c["ties"] + c["losses"]) == c["n"]).all()


def test_stale_measure_follows_the_ranking(eval_dataset: Path, tmp_path: Path) -> None:
    """Stale = 1 exactly when the Node 18 chunk ranks above the Node 22 one."""
    exp = run_experiment(
        prepare_dataset(eval_dataset, PrepareOptions(work_dir=tmp_path)),
        {"c0": SearchConfig(min_score=0.0, vectors=False)},
    )
    ranking = exp.runs["c0"].rankings["q-node"]
    old = next(i for i, c in enumerate(ranking) if "-ci-" in c)
    new = next((i for i, c in enumerate(ranking) if "-node-" in c), len(ranking))
    pq = exp.perquery.set_index(["query_id", "measure"])["value"]
    assert pq[("q-node", "Stale")] == (1.0 if old < new else 0.0)


def test_all_rankers_share_candidates(eval_dataset: Path, tmp_path: Path) -> None:
    ds = load_dataset(eval_dataset)
    prepared = prepare(ds, work_dir=tmp_path)
    configs = ranker_configs(["fts", "openclaw"], BASE)
    assert needed_limit(configs) == 24  # openclaw takes 4 × max_results
    batch = gather_batch(prepared, needed_limit(configs), vectors=False)
    assert gather_batch(prepared, 18, vectors=False) is batch  # a wider batch serves
    assert batch.limit == 24


def test_incompatible_manifests_are_named(experiment) -> None:  # type: ignore[no-untyped-def]
    exp, _ = experiment
    other = json.loads(json.dumps(exp.manifest))
    assert incompatibilities(exp.manifest, other) == []
    other["embedder"]["id"] = "all-MiniLM-L6-v2"
    other["dataset"]["digest"] = "sha256:0"
    problems = incompatibilities(exp.manifest, other)
    assert len(problems) == 2 and "embedder.id" in problems[1]


def test_file_unit_ranks_files(eval_dataset: Path, tmp_path: Path) -> None:
    exp = run_experiment(
        prepare_dataset(eval_dataset, PrepareOptions(work_dir=tmp_path)),
        {"fts": BASE.__class__(min_score=0.0, vectors=False)},
        scoring=Scoring(unit="file"),
    )
    pq = exp.perquery.set_index(["query_id", "measure"])["value"]
    assert pq[("q-tests", "RR")] == 1.0
    assert not math.isnan(pq[("q-redis", "nDCG@10")])


def test_compare_cli(
    eval_dataset: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code = main(
        [
            "compare",
            str(eval_dataset),
            "--runs",
            "fts,hybrid,mmr",
            "--embedder",
            "hash",
            "--set",
            "half_life_days=null",
            "--set",
            "min_score=0",
            "--out",
            str(tmp_path),
            "--work",
            str(tmp_path / "w"),
            "--quiet",
            "--test",
            "fisher",
        ]
    )
    out = capsys.readouterr().out
    assert code == 0 and "nDCG@10" in out and "p_holm" in out
    assert (tmp_path / "compare.csv").exists()


def test_cli_errors(eval_dataset: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["compare", str(eval_dataset), "--runs", "fts,hybird", "--quiet"]) == 2
    assert "did you mean 'hybrid'" in capsys.readouterr().err
    assert main(["eval", str(eval_dataset), "--set", "half_life=3", "--quiet"]) == 2
    assert "did you mean 'half_life_days'" in capsys.readouterr().err
    assert main(["eval", str(eval_dataset), "--measures", "ndcg@10", "--quiet"]) == 2
    assert "did you mean 'nDCG@10'" in capsys.readouterr().err

"""memlab's TREC runs with the qrels written beside them: ranx scores them as memlab does,
and a run from elsewhere (``RunFile``) is scored like one of memlab's."""

from __future__ import annotations

from pathlib import Path

import pandas as pd
import pytest

from memlab.config import SearchConfig
from memlab.datasets import read_qrels, read_run, write_run
from memlab.errors import ConfigError
from memlab.eval.compare.experiment import Experiment, Scoring, run_experiment
from memlab.eval.measures.ranx_backend import _ranx
from memlab.eval.replay.prepared import PrepareOptions, prepare_dataset
from memlab.eval.runs.external import RunFile, parse_run_files
from memlab.eval.runs.rankers import ranker_configs, to_file_level
from memlab.eval.runs.trec_out import run_files, strictly_decreasing

BASE = SearchConfig(half_life_days=None, min_score=0.0)
RANX = {"nDCG@10": "ndcg@10", "R@5": "recall@5", "P@5": "precision@5", "RR": "mrr"}
RANX["Success@5"] = "hit_rate@5"


def ranx_means(folder: Path, run: str, unit: str) -> dict[str, float]:
    ranx = _ranx()
    run_path, qrels_path = run_files(folder / "runs", run, unit)
    scores = ranx.evaluate(
        ranx.Qrels.from_file(str(qrels_path), kind="trec"),
        ranx.Run.from_file(str(run_path), kind="trec"),
        list(RANX.values()),
        make_comparable=True,
    )
    return {m: float(scores[r]) for m, r in RANX.items()}


def memlab_means(exp: Experiment, run: str) -> dict[str, float]:
    agg = exp.aggregated.set_index(["run", "measure"])["value"]
    return {m: float(agg[(run, m)]) for m in RANX}


@pytest.fixture(scope="module")
def by_unit(
    eval_dataset: Path, tmp_path_factory: pytest.TempPathFactory
) -> dict[str, tuple[Experiment, Path]]:
    prepared = prepare_dataset(
        eval_dataset, PrepareOptions(embedder="hash", work_dir=tmp_path_factory.mktemp("w"))
    )
    runs = ranker_configs(["fts", "hybrid", "mmr", "rrf"], BASE)
    out = {}
    for unit in ("chunk", "file"):
        folder = tmp_path_factory.mktemp(unit)
        out[unit] = (run_experiment(prepared, runs, scoring=Scoring(unit=unit), out=folder), folder)
    return out


@pytest.mark.parametrize("unit", ["chunk", "file"])
def test_ranx_on_the_written_run_and_qrels_reproduces_memlab(
    by_unit: dict[str, tuple[Experiment, Path]], unit: str
) -> None:
    exp, folder = by_unit[unit]
    for run in exp.runs:
        assert ranx_means(folder, run, unit) == pytest.approx(memlab_means(exp, run), abs=1e-9)


def test_the_qrels_hold_the_scored_queries_at_each_unit(
    by_unit: dict[str, tuple[Experiment, Path]],
) -> None:
    exp, folder = by_unit["chunk"]
    chunk = read_qrels(folder / "runs" / "fts.qrels")
    files = read_qrels(folder / "runs" / "fts.file.qrels")
    scored = set(exp.perquery[exp.perquery["measure"] == "nDCG@10"]["query_id"])
    assert set(chunk) == set(files) == scored and "q-none" not in chunk  # abstention left out
    assert all(":" in doc for judged in chunk.values() for doc in judged)  # chunk ids
    assert all(doc.endswith(".md") for judged in files.values() for doc in judged)
    ranking = read_run(folder / "runs" / "fts.file.trec")
    assert all(doc.endswith(".md") for docs in ranking.values() for doc in docs)


def test_a_run_from_elsewhere_scores_as_the_same_run_of_memlab(
    by_unit: dict[str, tuple[Experiment, Path]], eval_dataset: Path, tmp_path: Path
) -> None:
    for unit in ("chunk", "file"):
        exp, folder = by_unit[unit]
        run_path, _ = run_files(folder / "runs", "rrf", unit)
        again = run_experiment(
            exp.prepared,
            {"fts": ranker_configs(["fts"], BASE)["fts"], "theirs": RunFile(run_path)},
            scoring=Scoring(unit=unit),
            out=tmp_path / unit,
        )
        ours = exp.perquery[exp.perquery["run"] == "rrf"].drop(columns="run")
        theirs = again.perquery[again.perquery["run"] == "theirs"].drop(columns="run")
        measured = set(theirs["measure"])
        assert {"Redundancy", "Tokens"}.isdisjoint(measured)  # snippets unknown
        assert {*RANX, "Stale", "Abstained"} <= measured
        expected = ours[ours["measure"].isin(measured)].sort_values(["measure", "query_id"])
        got = theirs.sort_values(["measure", "query_id"])
        pd.testing.assert_frame_equal(
            expected.reset_index(drop=True), got.reset_index(drop=True), check_exact=False
        )
        entry = again.manifest["runs"]["theirs"]["external"]
        assert entry["file"] == run_path.name and entry["digest"].startswith("sha256:")
        assert not again.warnings


def test_a_run_with_other_ids_or_queries_is_measured_with_a_warning(
    by_unit: dict[str, tuple[Experiment, Path]], tmp_path: Path
) -> None:
    exp, _ = by_unit["chunk"]
    path = tmp_path / "other.trec"
    write_run(path, {"q-node": {"somewhere/else.md": 1.0}, "q-unknown": {"x.md:0": 1.0}})
    again = run_experiment(exp.prepared, {"other": RunFile(path)}, scoring=Scoring(unit="chunk"))
    assert any("1 of its 2 queries are not in the dataset" in w for w in again.warnings)
    assert any("none of its documents is judged" in w for w in again.warnings)
    ndcg = again.aggregated.set_index(["run", "measure"]).loc[("other", "nDCG@10"), "value"]
    assert ndcg == 0.0


@pytest.mark.parametrize(
    ("items", "message"),
    [
        (["bm25"], "NAME=FILE.trec"),
        (["my run=x.trec"], "NAME a plain word"),
        (["a=x.trec", "a=y.trec"], "named twice"),
    ],
)
def test_bad_run_files(items: list[str], message: str) -> None:
    with pytest.raises(ConfigError, match=message):
        parse_run_files(items)


def trec_eval_order(lines: list[str]) -> list[str]:
    """A query's documents as trec_eval re-ranks a run: by score descending, ties by
    document id descending (the written rank column is ignored)."""
    rows = [line.split() for line in lines]
    return [r[2] for r in sorted(rows, key=lambda r: (float(r[4]), r[2]), reverse=True)]


def test_scores_made_strictly_decreasing_keep_ties_and_mmr_swaps_in_order() -> None:
    assert strictly_decreasing([0.9, 0.5, 0.5, 0.5, 0.7, 0.2]) == [
        0.9,
        0.5,
        0.499999,
        0.499998,
        0.499997,
        0.2,
    ]


def test_a_run_with_tied_scores_is_re_ranked_in_the_written_order(tmp_path: Path) -> None:
    ids = ["a", "b", "c", "d", "e"]  # trec_eval would put "e" first among equal scores
    scores = strictly_decreasing([0.4] * 5)
    write_run(tmp_path / "r.trec", {"q": dict(zip(ids, scores, strict=True))}, sort=False)
    assert trec_eval_order((tmp_path / "r.trec").read_text().splitlines()) == ids


@pytest.mark.parametrize("unit", ["chunk", "file"])
def test_the_written_scores_are_the_rankers_in_rank_order(
    unit: str, by_unit: dict[str, tuple[Experiment, Path]]
) -> None:
    exp, folder = by_unit[unit]
    for name, result in exp.runs.items():
        ranking = result if unit == "chunk" else to_file_level(result)
        lines = run_files(folder / "runs", name, unit)[0].read_text().splitlines()
        for qid, ids in ranking.rankings.items():
            mine = [line for line in lines if line.split()[0] == qid]
            assert [line.split()[2] for line in mine] == ids  # the ranking, as memlab's
            assert trec_eval_order(mine) == ids  # and as a score-sorting reader reads it
            written = [float(line.split()[4]) for line in mine]
            assert written == strictly_decreasing(ranking.scores[qid])

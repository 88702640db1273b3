"""The ``standard-ir`` profile: BM25 order over whole files, comparable with published
tables (no decay, min_score 0, deep lists, porter, the file as the document)."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest

from memlab.cli import main
from memlab.config import STANDARD_IR, profile
from memlab.eval.replay.prepared import PrepareOptions, prepare_dataset
from memlab.eval.runs.rankers import needed_limit, run_config


def test_the_profile_says_what_the_readme_says() -> None:
    cfg = profile(STANDARD_IR)
    s = cfg.search
    assert (s.effective_half_life(), s.min_score, s.max_results) == (None, 0.0, 1000)
    assert (cfg.index.tokenizer, cfg.unit) == ("porter", "file")
    assert profile("grok-c0").unit == "chunk"


def test_its_rankings_are_bm25_order(eval_dataset: Path, tmp_path: Path) -> None:
    prepared = prepare_dataset(eval_dataset, PrepareOptions(tokenizer="porter", work_dir=tmp_path))
    cfg = replace(profile(STANDARD_IR).search, vectors=False)  # the fts ranker
    limit = needed_limit([cfg])
    timeline = prepared.timeline(limit, vectors=False)
    result = run_config("bm25", timeline.batch, cfg, timeline.query_now)
    b = timeline.batch
    checked = 0
    for q, qid in enumerate(b.query_ids):
        rows = range(int(b.offsets[q]), int(b.offsets[q + 1]))
        ranks = {str(b.chunk_id[i]): float(b.fts_rank[i]) for i in rows if b.fts_pos[i] < limit}
        returned = [ranks[c] for c in result.rankings[qid]]
        assert np.all(np.diff(returned) >= 0)  # bm25 rank ascending = best first
        kept = {c for c in ranks if not b.content_free[list(b.chunk_id).index(c)]}
        assert set(result.rankings[qid]) == kept  # min_score 0: every text match returned
        checked += bool(returned)
    assert checked >= 3


def test_compare_under_the_profile_judges_files_with_porter(
    eval_dataset: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "out"
    args = ["compare", str(eval_dataset), "--profile", "standard-ir", "--runs", "fts"]
    assert main([*args, "--out", str(out), "--quiet"]) == 0
    manifest = json.loads((out / "manifest.json").read_text())
    assert manifest["unit"] == "file" and manifest["index"]["config"]["tokenizer"] == "porter"
    assert manifest["runs"]["fts"]["config"]["min_score"] == 0.0
    flags = ["--unit", "chunk", "--tokenizer", "unicode61"]
    assert main([*args, *flags, "--out", str(out), "--quiet"]) == 0
    manifest = json.loads((out / "manifest.json").read_text())
    assert manifest["unit"] == "chunk" and manifest["index"]["config"]["tokenizer"] == "unicode61"
    capsys.readouterr()

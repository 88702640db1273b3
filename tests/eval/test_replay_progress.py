"""Evaluation says what it is doing: replay progress by file and by query, and one line
before ranx's metrics compile (only when they do)."""

from __future__ import annotations

from pathlib import Path

import pytest

from memlab import jit
from memlab.datasets import load_dataset
from memlab.eval.measures import ranx_backend
from memlab.eval.replay.as_of import replay_queries
from memlab.eval.replay.memory import memory_for
from memlab.eval.replay.replay_progress import MIN_STEPS, ReplayProgress

AGENT_MEMORY = Path(__file__).resolve().parents[2] / "datasets" / "agent-memory"


def test_the_replay_counts_every_file_event_and_query(tmp_path: Path) -> None:
    ds = load_dataset(AGENT_MEMORY)
    gid = min(ds.groups, key=lambda g: len(ds.queries_in(g)))
    bar = ReplayProgress.start(ds, gid)
    assert bar is not None and bar.files_total + bar.queries_total >= MIN_STEPS
    replay_queries(
        ds, gid, memory_for(ds), limit=18, work=tmp_path / "w", tick=bar.query, on_file=bar.file
    )
    bar.close()
    assert (bar.files, bar.queries) == (bar.files_total, bar.queries_total)
    assert bar.files > 0 and bar.queries == len(ds.queries_in(gid))
    assert bar.bar.n == bar.files + bar.queries


def test_a_small_group_has_no_bar(eval_dataset: Path) -> None:
    ds = load_dataset(eval_dataset)
    assert ReplayProgress.start(ds, next(iter(ds.groups))) is None


def test_the_compile_note_appears_once_and_only_before_a_compile(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    ranx_backend.evaluate({"q": {"a": 1}}, {"q": ["a"]}, ["ndcg@10"])  # compiled and cached
    capsys.readouterr()
    assert not ranx_backend.compile_pending()
    monkeypatch.setattr(jit, "_NOTED", set())
    ranx_backend.note_compiling()
    assert capsys.readouterr().err == ""
    monkeypatch.setenv("NUMBA_CACHE_DIR", str(tmp_path / "empty"))
    assert ranx_backend.compile_pending()
    ranx_backend.note_compiling()
    ranx_backend.note_compiling()
    err = capsys.readouterr().err.splitlines()
    assert len(err) == 1 and err[0].startswith("memlab: compiling ranx's metrics once")
    assert str(tmp_path / "empty") in err[0]


def test_the_simulator_note_appears_before_its_engine_compiles(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from memlab.dream.sim.kernel import ready

    ready()  # compiled (once per machine) and cached, or loaded from the cache
    capsys.readouterr()
    assert not jit.compile_pending("memlab.dream.sim.kernel")
    monkeypatch.setattr(jit, "_NOTED", set())
    ready()
    assert capsys.readouterr().err == ""
    monkeypatch.setenv("NUMBA_CACHE_DIR", str(tmp_path / "empty"))
    assert jit.compile_pending("memlab.dream.sim.kernel")
    jit.note_compiling("the Dream simulator's engine", "memlab.dream.sim.kernel")
    err = capsys.readouterr().err.splitlines()
    assert len(err) == 1 and err[0].startswith("memlab: compiling the Dream simulator's engine")


def test_without_dream_on_one_index_part_the_replay_bar_reaches_its_total(tmp_path: Path) -> None:
    """Issue 30: files indexed in bulk (Dream off) were never counted, and a part of the
    dataset (the queries of one index) was counted with the whole dataset's queries, so
    the bar ended at 47-56 %."""
    ds = load_dataset(AGENT_MEMORY)
    part = ds.select(exclude_tags={"trigram"})  # the default index's queries
    split = [g for g in part.groups if 0 < len(part.queries_in(g)) < len(ds.queries_in(g))]
    gid = min(split, key=lambda g: len(part.queries_in(g)))
    bar = ReplayProgress.start(part, gid)
    assert bar is not None
    memory = memory_for(part, dream=False)
    replay_queries(
        part, gid, memory, limit=18, work=tmp_path / "w", tick=bar.query, on_file=bar.file
    )
    bar.close()
    assert (bar.files, bar.queries) == (bar.files_total, bar.queries_total)
    assert bar.bar.n == bar.bar.total and bar.files > 0

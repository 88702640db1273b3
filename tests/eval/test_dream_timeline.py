"""Dream on the timeline: the real gates and run at each session end of the replay."""

from __future__ import annotations

from pathlib import Path

import pytest

from memlab.config import DreamConfig, SearchConfig
from memlab.datasets import DatasetWriter, load_dataset
from memlab.dream.lock import MAX_PID as REPLAY_PID  # the PID a replay's lock holds
from memlab.dream.lock import pid_alive
from memlab.embeddings.hashing import HashEmbedder
from memlab.eval.compare.experiment import run_experiment
from memlab.eval.compare.reach import reachability, relevant_chunks
from memlab.eval.replay.memory import Memory, memory_for
from memlab.eval.replay.prepared import Prepared, prepare
from memlab.eval.runs.rankers import Run
from memlab.retrieval.pipeline import search
from memlab.retrieval.ranking import rank_batch
from tests.datasets.v2fixture import DAY, HOUR, T0

WS = "shop"
TOPICS = ["kafka", "nginx", "pytest", "docker", "grafana", "vault", "celery", "sentry"]


def log(day: int) -> str:
    return f"{WS}/sessions/2026-03-{1 + day:02d}-{TOPICS[day - 1]}-dddd{day:04d}.md"


def write_sessions(dest: Path, dream: bool = True) -> Path:
    """One session a day for 8 days; each states one fact; queries after every day."""
    w = DatasetWriter(
        dest,
        name="dreamy",
        licence="CC0-1.0",
        origin="tests",
        as_of=T0 + 10 * DAY,
        format_version=2,
        timeline={"dream": dream},
    )
    w.add_file("MEMORY.md", "# Global\n\n- Be brief\n", T0)
    for day, topic in enumerate(TOPICS, start=1):
        text = f"# {topic}\n\n## Tools\n\n- {topic.title()} version: {day}.0 in production\n"
        w.add_file(log(day), text, T0 + day * DAY)
        w.add_fact(f"f-{topic}", log(day), f"{topic.title()} version: {day}.0")
        w.add_query(f"q-{topic}", f"{topic} version", as_of=T0 + 9 * DAY, category="fact")
        w.judge(f"q-{topic}", f"fact:f-{topic}", 2)
        w.add_query(f"q-{topic}-day", f"{topic} version", as_of=T0 + day * DAY + HOUR)
        w.judge(f"q-{topic}-day", f"fact:f-{topic}", 2)
    return w.finish()


@pytest.fixture(scope="module")
def dreamy(tmp_path_factory: pytest.TempPathFactory) -> Prepared:
    path = write_sessions(tmp_path_factory.mktemp("ds") / "dreamy")
    return prepare(load_dataset(path), work_dir=tmp_path_factory.mktemp("w"))


def statuses(prepared: Prepared, memory: Memory | None = None) -> list[tuple[int, str]]:
    timeline = prepared.timeline(18, memory=memory)
    return [(round((d.at - T0) / DAY), d.status) for d in timeline.dreams]


def test_the_gates_open_at_the_right_logical_times(dreamy: Prepared) -> None:
    """c0: 4 h and 3 sessions. No lock yet: the time gate is open; the triggering
    session never counts, so the 4th session end consolidates sessions 1–3, and the
    8th (sessions 5–7: the 4th is older than the lock) — the 4th is stranded."""
    assert dreamy.memory.dream == DreamConfig()
    got = statuses(dreamy)
    assert got == [(d, "completed" if d in (4, 8) else "gate-closed") for d in range(1, 9)]
    timeline = dreamy.timeline(18)
    completed = [d for d in timeline.dreams if d.status == "completed"]
    assert completed[0].processed == tuple(log(d).split("/")[-1][:-3] for d in (1, 2, 3))
    assert completed[0].deleted == completed[0].processed
    assert completed[1].processed == tuple(log(d).split("/")[-1][:-3] for d in (5, 6, 7))


def test_processed_logs_are_deleted_and_the_trigger_is_stranded(dreamy: Prepared) -> None:
    timeline = dreamy.timeline(18)
    late = timeline.judgements["q-kafka"]  # asked at day 9: kafka's log was consolidated
    assert list(late.grades) == [f"{WS}/MEMORY.md:0"]
    assert timeline.judgements["q-docker"].grades == {f"{log(4)}:0": 2}  # stranded, still there
    (chunk,) = timeline.judgements["q-kafka"].relevant
    assert chunk.source == "dream"  # c0: the new MEMORY.md decays like a session
    assert chunk.created_at == T0 + 4 * DAY  # created by the first consolidation, kept after
    early = timeline.judgements["q-kafka-day"]  # day 1: the log itself
    assert early.grades == {f"{log(1)}:0": 2}


def test_memory_source_workspace_makes_the_consolidated_memory_evergreen(
    dreamy: Prepared,
) -> None:
    fixed = dreamy.memory.with_dream(memory_source="workspace")
    timeline = dreamy.timeline(18, memory=fixed)
    (chunk,) = timeline.judgements["q-kafka"].relevant
    assert chunk.source == "workspace"
    # the ranking differs only by decay: a month later the dream chunk has decayed
    cfg = SearchConfig(min_score=0.0)
    now = dreamy.query_now + 30 * DAY
    q = dreamy.dataset.queries.index(dreamy.dataset.query("q-kafka"))
    c0 = rank_batch(dreamy.batch(18), cfg, now)
    ws = rank_batch(timeline.batch, cfg, now)
    assert ws.decay[ws.hits(q)[0]] == 1.0 and c0.decay[c0.hits(q)[0]] < 0.1


def test_gate_settings_change_when_dream_runs(dreamy: Prepared) -> None:
    two = dreamy.memory.with_dream(min_sessions=2)
    got = statuses(dreamy, two)
    # 3rd end: sessions 1–2; 6th: 4–5 (3 is stranded); then 9 never comes
    assert [d for d, s in got if s == "completed"] == [3, 6]
    slow = dreamy.memory.with_dream(min_hours=100.0)
    got = statuses(dreamy, slow)
    assert [d for d, s in got if s == "completed"] == [4]  # day 8 is only 96 h after day 4
    slower = dreamy.memory.with_dream(min_hours=100.0, min_sessions=2)
    assert [d for d, s in statuses(dreamy, slower) if s == "completed"] == [3, 8]


def test_dream_off_keeps_every_log(tmp_path: Path) -> None:
    ds = load_dataset(write_sessions(tmp_path / "ds"))
    off = prepare(ds, memory=memory_for(ds, dream=False), work_dir=tmp_path / "w")
    timeline = off.timeline(18)
    assert not timeline.dreams
    assert timeline.judgements["q-kafka"].grades == {f"{log(1)}:0": 2}


def test_the_lock_holds_a_dead_pid_stamped_with_logical_time(dreamy: Prepared) -> None:
    assert not pid_alive(REPLAY_PID)
    with dreamy.store_at("default", T0 + 4 * DAY + HOUR) as store:
        lock = store.layout.workspace_dir / ".dream-lock"  # type: ignore[operator]
        assert lock.read_text() == str(REPLAY_PID)
        assert lock.stat().st_mtime == T0 + 4 * DAY
        memory = store.layout.workspace_dir / "MEMORY.md"  # type: ignore[operator]
        assert memory.stat().st_mtime == T0 + 4 * DAY and "Kafka version: 1.0" in memory.read_text()
        assert store.index.path is not None  # with Dream, the replay's index is a file


def test_ranking_with_dream_equals_search_at_each_time(tmp_path: Path) -> None:
    ds = load_dataset(write_sessions(tmp_path / "ds"))
    prepared = prepare(ds, embedder=HashEmbedder(), work_dir=tmp_path / "w")
    for memory in (prepared.memory, prepared.memory.with_dream(memory_source="workspace")):
        batch = prepared.batch(18, memory=memory)
        for cfg in (SearchConfig(), SearchConfig(min_score=0.0, vectors=False)):
            ranked = rank_batch(batch, cfg, prepared.query_now)
            for q in ds.queries[::3]:
                i = ds.queries.index(q)
                with prepared.store_at(q.group, q.as_of, memory) as store:
                    live = search(store, q.text, cfg, q.as_of, record_access=False, sync=False)
                ours = [(str(batch.chunk_id[r]), float(ranked.display[r])) for r in ranked.hits(i)]
                assert ours == [(h.chunk_id, h.score) for h in live.hits], (memory, q.query_id)


def test_reachability_follows_decay_and_the_memory_source(dreamy: Prepared) -> None:
    fast = SearchConfig(half_life_days=1.0, min_score=0.35)
    table = reachability(dreamy, fast).set_index("query_id")
    assert table.loc["q-kafka-day", "reachable"]  # asked an hour after it was written
    kafka = table.loc["q-kafka"]  # day 9: in MEMORY.md since day 4, source "dream"
    assert kafka["source"] == "dream" and not kafka["reachable"]
    assert kafka["answer_age_days"] == pytest.approx(5.0)
    assert kafka["decay"] == pytest.approx(0.5**5)
    fixed = dreamy.timeline(18, memory=dreamy.memory.with_dream(memory_source="workspace"))
    assert reachability(fixed, fast).set_index("query_id").loc["q-kafka", "reachable"]
    rows = relevant_chunks(dreamy)
    assert set(rows["query_id"]) == {q.query_id for q in dreamy.dataset.queries}


def test_runs_on_different_memories_are_compared_by_retrieval_measures(dreamy: Prepared) -> None:
    fast = SearchConfig(half_life_days=1.0, vectors=False)
    fixed = dreamy.memory.with_dream(memory_source="workspace")
    exp = run_experiment(dreamy, {"c0": Run(fast), "workspace": Run(fast, fixed)})
    pq = exp.perquery.set_index(["run", "query_id", "measure"])["value"]
    # at day 9 the consolidated kafka fact has decayed as "dream", not as "workspace"
    assert pq[("c0", "q-kafka", "RR")] == 0.0 and pq[("workspace", "q-kafka", "RR")] == 1.0
    assert exp.manifest["runs"]["workspace"]["memory"]["dream"]["memory_source"] == "workspace"
    assert "memory" not in exp.manifest["runs"]["c0"]
    wins = exp.compared.set_index("measure").loc["RR", "wins"]
    assert wins > 0

"""The shipped agent-memory dataset (format 2): regeneration, shape, queries and their times."""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path

import pytest

from memlab.datasets import load_dataset, validate_dataset
from memlab.datasets.generator import (
    CATEGORIES,
    DEFAULT_SEED,
    Generated,
    generate,
    generate_agent_memory,
)
from memlab.datasets.generator.draft import DAY
from memlab.datasets.generator.world import END, WORKSPACES
from memlab.store.chunker import chunk_markdown
from memlab.store.layout import FLUSH_SEPARATOR
from memlab.timefmt import parse_iso

SHIPPED = Path(__file__).resolve().parents[2] / "datasets" / "agent-memory"
SESSION_NAME = re.compile(r"\d{4}-\d{2}-\d{2}-[a-z0-9-]+-[0-9a-f]{8}\.md")
FLUSH_HEAD = FLUSH_SEPARATOR.split("{time}")[0]


def _files(root: Path) -> dict[str, bytes]:
    return {
        p.relative_to(root).as_posix(): p.read_bytes()
        for p in sorted(root.rglob("*"))
        if p.is_file() and p.relative_to(root).parts[0] != "vectors"
    }


@pytest.fixture(scope="module")
def gen() -> Generated:
    return generate()


def test_shipped_dataset_is_regenerated_byte_for_byte(tmp_path: Path) -> None:
    fresh = generate_agent_memory(tmp_path / "am", seed=DEFAULT_SEED)
    shipped, regenerated = _files(SHIPPED), _files(fresh)
    assert sorted(shipped) == sorted(regenerated)
    changed = [name for name in shipped if shipped[name] != regenerated[name]]
    assert not changed, (
        f"regenerate with `memlab dataset generate {SHIPPED} --force`: {changed[:5]}"
    )


def test_shipped_dataset_validates_cleanly_and_is_small() -> None:
    report = validate_dataset(SHIPPED)
    assert report.ok and not report.problems, report.format()
    assert sum(len(b) for b in _files(SHIPPED).values()) < 6_000_000
    total = sum(p.stat().st_size for p in SHIPPED.rglob("*") if p.is_file())
    assert total < 25_000_000  # five workspaces: about 2.8 MB of files and 19 MB of vectors
    # nothing indexed inside the shipped folder; only the precomputed vectors are SQLite files
    assert [p.relative_to(SHIPPED).parts[0] for p in SHIPPED.rglob("*.sqlite")] == ["vectors"]


def test_shipped_manifest_one_root_three_groups_dream_on_the_timeline() -> None:
    ds = load_dataset(SHIPPED)
    assert ds.format_version == 2 and ds.timeline == {"dream": True}
    assert ds.index == {
        "tokenizer": "unicode61",
        "max_bytes": 1600,
        "overlap_chars": 320,
        "by_tag": {"trigram": {"tokenizer": "trigram"}},
    }
    assert {q.category for q in ds.queries if "trigram" in q.tags} == {"cjk"}
    assert {g.workspace for g in ds.groups.values()} == {w.dir for w in WORKSPACES}
    assert len({g.root for g in ds.groups.values()}) == 1  # one memory root, shared


def test_memory_shape(gen: Generated) -> None:
    texts = gen.final_texts()
    chunks = sum(len(chunk_markdown(t)) for t in texts.values())
    assert chunks >= 2000
    assert "MEMORY.md" in texts  # the global memory
    for ws in WORKSPACES:
        memory = f"{ws.dir}/MEMORY.md"
        writes = [w for w in gen.writes if w.path == memory]
        assert len(chunk_markdown(writes[0].text)) >= 5  # written in several sections
        assert len(writes) >= 2 and all(w.append for w in writes[1:])  # the user appends
        sessions = [p for p in texts if p.startswith(f"{ws.dir}/sessions/")]
        assert len(sessions) >= 40
        assert all(SESSION_NAME.fullmatch(p.rsplit("/", 1)[1]) for p in sessions)
    first, last = min(w.at for w in gen.writes), max(w.at for w in gen.writes)
    assert last - first >= 180 * DAY and last <= END
    everything = "".join(texts.values())
    assert "<!-- fact" not in everything
    assert sum("\u4e00" <= ch <= "\u9fff" for ch in everything) > 2000  # Chinese text
    assert everything.count("```") >= 400  # code blocks and stack traces
    assert everything.count("Traceback (most recent call last):") >= 20


def test_session_logs_grow_by_flushes_and_end_once(gen: Generated) -> None:
    by_path: dict[str, list] = {}
    for w in gen.writes:
        by_path.setdefault(w.path, []).append(w)
    sessions = {p: ws for p, ws in by_path.items() if "/sessions/" in p}
    grown = 0
    for writes in sessions.values():
        assert [w.at for w in writes] == sorted(w.at for w in writes)
        assert [w.end for w in writes] == [False] * (len(writes) - 1) + [True]
        assert all(w.text.startswith(FLUSH_HEAD) for w in writes[1:])
        assert not writes[0].text.startswith(FLUSH_HEAD)
        grown += len(writes) > 1
    assert grown >= len(sessions) // 2
    for ws in WORKSPACES:  # one developer: sessions of a workspace never overlap
        starts = sorted((ws_[0].at, ws_[-1].at) for p, ws_ in sessions.items() if ws.dir in p)
        assert all(a[1] < b[0] for a, b in zip(starts, starts[1:], strict=False))


def test_queries_categories_and_counts(gen: Generated) -> None:
    counts = Counter(q.category for q in gen.queries)
    assert set(counts) == set(CATEGORIES)
    assert len(gen.queries) >= 800 and all(n >= 50 for n in counts.values())
    assert all(q.abstention == (q.category == "abstention") for q in gen.queries)
    assert len({q.qid for q in gen.queries}) == len(gen.queries)
    assert {q.group for q in gen.queries} == {w.group for w in WORKSPACES}


def test_every_query_has_its_own_time_after_its_answer(gen: Generated) -> None:
    for q in gen.queries:
        assert q.as_of <= END
        if q.abstention:
            assert q.answer_at is None
            continue
        assert q.answer_at is not None and q.answer_at < q.as_of
        assert all(t.fact.at <= q.as_of for t in q.targets)
    assert len({q.as_of for q in gen.queries}) > 0.9 * len(gen.queries)


def test_gaps_are_recency_biased(gen: Generated) -> None:
    gaps = [q.gap / DAY for q in gen.queries if q.gap is not None]
    share = [sum(lo <= g < hi for g in gaps) / len(gaps) for lo, hi in ((0, 7), (7, 30), (30, 181))]
    assert 0.4 <= share[0] <= 0.6 and 0.2 <= share[1] <= 0.4 and 0.1 <= share[2] <= 0.3
    assert max(gaps) <= 180 and sum(g < 1 for g in gaps) > 0.2 * len(gaps)
    # crowding needs sessions before the query: such queries come three weeks in at least
    for q in gen.queries:
        if q.category == "evergreen-crowded":
            first = next(w.first_session for w in WORKSPACES if w.group == q.group)
            assert q.as_of >= first + 21 * DAY


def test_shipped_queries_carry_their_times() -> None:
    ds = load_dataset(SHIPPED)
    lines = (SHIPPED / "queries.jsonl").read_text().splitlines()
    assert all('"as_of"' in line for line in lines)
    judged = [q for q in ds.queries if ds.judged(q.query_id)]
    assert all(q.answer_at is not None and q.answer_at < q.as_of for q in judged)
    assert max(q.as_of for q in ds.queries) <= parse_iso("2026-07-31T23:00:00Z")


def test_other_seeds_are_valid_and_differ(tmp_path: Path) -> None:
    a = generate(seed=1)
    assert [w.text for w in a.writes] == [w.text for w in generate(seed=1).writes]
    assert [w.text for w in generate(seed=2).writes] != [w.text for w in a.writes]
    dest = generate_agent_memory(tmp_path / "seed7", seed=7)
    assert validate_dataset(dest).ok

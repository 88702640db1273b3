"""The shipped agent-memory dataset: byte-identical regeneration and label integrity."""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path

import pytest

from memlab.datasets import (
    chunk_group,
    load_dataset,
    resolve_qrels,
    resolve_stale_targets,
    validate_dataset,
)
from memlab.datasets.generator import CATEGORIES, DEFAULT_SEED, generate, generate_agent_memory
from memlab.search.content import is_content_free

SHIPPED = Path(__file__).resolve().parents[2] / "datasets" / "agent-memory"
SESSION_NAME = re.compile(r"\d{4}-\d{2}-\d{2}-[a-z0-9-]+-[0-9a-f]{8}\.md")


def _files(root: Path) -> dict[str, bytes]:
    return {
        p.relative_to(root).as_posix(): p.read_bytes()
        for p in sorted(root.rglob("*"))
        if p.is_file() and p.relative_to(root).parts[0] != "vectors"
    }


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
    assert sum(len(b) for b in _files(SHIPPED).values()) < 2_000_000
    # nothing indexed inside the shipped folder; only the precomputed vectors are SQLite files
    assert [p.relative_to(SHIPPED).parts[0] for p in SHIPPED.rglob("*.sqlite")] == ["vectors"]


def test_shape_of_the_memory() -> None:
    ds = load_dataset(SHIPPED)
    group = ds.groups["default"]
    sessions = [p for p in group.created_at if "/sessions/" in p]
    assert 100 <= len(sessions) <= 200
    assert all(SESSION_NAME.fullmatch(p.rsplit("/", 1)[1]) for p in sessions)
    assert {"MEMORY.md", f"{group.workspace}/MEMORY.md"} <= set(group.created_at)
    assert all(t <= ds.as_of for t in group.created_at.values())
    months = {p.rsplit("/", 1)[1][:7] for p in sessions}
    assert len(months) >= 5  # several months of history
    text = "".join((group.root / p).read_text() for p in group.created_at)
    assert sum("\u4e00" <= ch <= "\u9fff" for ch in text) > 500  # some Chinese text
    assert "<!-- flush " in text  # flush-appended sessions
    counts = Counter(q.category for q in ds.queries)
    assert set(counts) == set(CATEGORIES) and 150 <= len(ds.queries) <= 300
    assert all(counts[c] >= 15 for c in CATEGORIES)
    assert all(q.abstention == (q.category == "abstention") for q in ds.queries)


def test_every_label_resolves_to_a_chunk_with_content() -> None:
    ds = load_dataset(SHIPPED)
    chunks = chunk_group(ds.groups["default"])
    by_id = {c.chunk_id: c for c in chunks}
    qrels = resolve_qrels(ds, chunks)
    for q in ds.queries:
        if q.abstention:
            assert q.query_id not in qrels
            continue
        answers = [cid for cid, g in qrels[q.query_id].items() if g == 2]
        assert answers, q.query_id
        assert all(not is_content_free(by_id[c].text, by_id[c].source) for c in answers)
    for category, tag in (("evergreen-crowded", None), ("newest-wins", "stale-evergreen")):
        for q in ds.queries:
            if q.category == category and (tag is None or tag in q.tags):
                sources = {by_id[c].source for c, g in qrels[q.query_id].items() if g == 2}
                expected = {"session"} if tag else {"global", "workspace"}
                assert sources <= expected, q.query_id


def test_newest_wins_versions_are_in_time_order() -> None:
    ds = load_dataset(SHIPPED)
    group = ds.groups["default"]
    chunks = chunk_group(group)
    stale = resolve_stale_targets(ds, chunks)
    qrels = resolve_qrels(ds, chunks)
    by_id = {c.chunk_id: c for c in chunks}
    newest_wins = [q for q in ds.queries if q.category == "newest-wins"]
    assert len(newest_wins) >= 20 and all(q.stale_targets for q in newest_wins)
    for q in newest_wins:
        (answer,) = [c for c, g in qrels[q.query_id].items() if g == 2]
        assert stale[q.query_id] and all(
            by_id[c].created_at < by_id[answer].created_at
            for c in stale[q.query_id]
            if by_id[c].source == "session"
        )


def test_duplicates_hide_a_second_answer() -> None:
    ds = load_dataset(SHIPPED)
    for q in (q for q in ds.queries if q.category == "duplicates"):
        grades = sorted(ds.qrels[q.query_id].values())
        assert grades.count(2) == 1 and 3 <= grades.count(1) <= 4


def test_other_seeds_are_valid_and_differ(tmp_path: Path) -> None:
    a, b = generate(seed=1), generate(seed=1)
    assert a.files == b.files and [q for q, _ in a.queries] == [q for q, _ in b.queries]
    assert generate(seed=2).files != a.files
    dest = generate_agent_memory(tmp_path / "seed7", seed=7)
    assert validate_dataset(dest).ok


@pytest.mark.parametrize("seed", [3, 11])
def test_label_checks_hold_for_more_seeds(seed: int) -> None:
    generate(seed=seed)  # raises DatasetError if a label check fails

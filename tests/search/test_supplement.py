"""The evergreen supplement at c0's defaults (min_score 0.35, 18 candidates), FTS-only.

Eighteen session notes fill the main FTS list: one strong match and seventeen
equal weaker ones. The workspace MEMORY.md mentions the word once in a long
text, so it ranks below all of them and only the supplement finds it. Without
the supplement the seventeen weaker notes share the bottom of the min–max range
(fts 0) and only the strong note is returned. With it, the MEMORY.md row is the
new bottom: it scores 0 itself, but it stretches the range, so the weaker notes'
text scores rise above min_score and they are returned. The supplement changes
FTS-only results without any of its own rows being returned.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from memlab.config import SearchConfig
from memlab.retrieval.pipeline import SearchResult, search
from memlab.store.store import MemoryStore
from tests.conftest import T0, WS, write

FILLER = " ".join(f"word{i}" for i in range(120))


def crowded_memory(root: Path) -> Path:
    """A workspace MEMORY.md crowded out of the main FTS list by 18 session notes."""
    write(root, f"{WS}/MEMORY.md", f"# Project\n\n{FILLER} canary {FILLER}\n")
    write(root, f"{WS}/sessions/2026-01-01-strong-00000000.md", "# S\n\ncanary canary canary\n")
    for i in range(1, 18):
        write(
            root, f"{WS}/sessions/2026-01-01-weak{i:02d}-{i:08d}.md", f"# W\n\ncanary note{i:02d}\n"
        )
    return root


@pytest.fixture
def store(tmp_path: Path, open_store: Callable[..., MemoryStore]) -> MemoryStore:
    s = open_store(crowded_memory(tmp_path / "m"))
    s.build(now=T0)
    return s


def run(store: MemoryStore, supplement: bool) -> SearchResult:
    config = SearchConfig(vectors=False, evergreen_supplement=supplement)  # c0 otherwise
    assert (config.min_score, config.max_results) == (0.35, 6)
    return search(store, "canary", config, T0, trace=True, record_access=False)


def test_the_supplement_changes_fts_only_hits_by_stretching_the_range(store: MemoryStore) -> None:
    off, on = run(store, False), run(store, True)
    assert [h.path.split("-")[-2] for h in off.hits] == ["strong"]
    assert len(on.hits) == 6 and all(h.source == "session" for h in on.hits)
    memory_row = next(r for r in on.trace or [] if r["source"] == "workspace")
    assert memory_row["fts_pos"] is None and memory_row["supp_pos"] == 0  # supplement only
    assert memory_row["fts"] == 0.0 and not memory_row["kept"]  # the new bottom
    weak_off = {r["chunk_id"]: r["fts"] for r in off.trace or [] if "weak" in r["chunk_id"]}
    weak_on = {r["chunk_id"]: r["fts"] for r in on.trace or [] if "weak" in r["chunk_id"]}
    assert set(weak_off.values()) == {0.0}  # they shared the bottom
    assert min(weak_on.values()) > 0.35  # lifted past min_score by the stretched range


def test_the_supplement_query_equals_ranking_every_match_then_filtering(
    tmp_path: Path, open_store: Callable[..., MemoryStore]
) -> None:
    """The supplement ranks only the evergreen rows (picked by rowid first); ranking every
    match and keeping the evergreen ones gives the same rows, ranks and order."""
    from memlab.retrieval.candidates import _SUPPLEMENT_SQL
    from memlab.sources import EVERGREEN_SOURCES

    root = crowded_memory(tmp_path / "memory")
    write(root, "MEMORY.md", f"# Global\n\ncanary {FILLER}\n\nnote03 canary again\n")
    write(root, f"{WS}/MEMORY.md", f"# Project\n\n{FILLER} canary {FILLER}\nnote07 note11\n")
    store = open_store(root)
    store.sync(T0)
    marks = ", ".join("?" * len(EVERGREEN_SOURCES))
    reference = (
        "SELECT f.rowid, f.rank FROM chunks_fts AS f JOIN chunks AS c ON c.rowid = f.rowid "
        f"WHERE chunks_fts MATCH ? AND c.source IN ({marks}) ORDER BY f.rank, f.rowid LIMIT ?"
    )
    found = 0
    for match in ["canary", "note03 OR canary", "note07 OR note11 OR word5", "word1 OR word2"]:
        for limit in (1, 2, 5, 30):
            params = (match, *EVERGREEN_SOURCES, limit)
            ours = store.index.db.execute(_SUPPLEMENT_SQL, params).fetchall()
            assert ours == store.index.db.execute(reference, params).fetchall(), (match, limit)
            found += len(ours)
    assert found > 10

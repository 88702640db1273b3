"""SQL errors on the text side of candidate generation, through real SQLite (SPEC §4.1).

c0 treats each query's error on its own: an error yields an empty list for that
query and the search goes on. memlab does the same and also says so
(``degraded``, with a reason per failed query).
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from memlab.config import SearchConfig
from memlab.retrieval.candidates import gather
from memlab.retrieval.pipeline import search
from memlab.store.store import MemoryStore
from tests.conftest import T0

ALL = SearchConfig(min_score=0.0, half_life_days=None)


class FailingStatements:
    """The real connection, except that statements containing ``marker`` raise the
    driver's own error (fault injection for one of the two FTS queries)."""

    def __init__(self, db: Any, marker: str, error: type[Exception]) -> None:
        self.db, self.marker, self.error = db, marker, error

    def execute(self, sql: str, *args: Any) -> Any:
        if self.marker in sql:
            raise self.error(f"injected failure of: {sql[:40]}…")
        return self.db.execute(sql, *args)

    def __getattr__(self, name: str) -> Any:
        return getattr(self.db, name)


@pytest.fixture
def store(memory: Path, open_store: Callable[..., MemoryStore]) -> MemoryStore:
    s = open_store(memory)
    s.build(now=T0)
    return s


def test_a_real_fts_sql_error_degrades_and_does_not_fail(store: MemoryStore) -> None:
    store.index.db.execute("ALTER TABLE chunks_fts RENAME TO chunks_fts_gone")
    result = search(store, "API port pytest", ALL, T0, record_access=False, sync=False)
    assert result.hits == [] and result.degraded
    assert any("FTS query failed" in r and "no such table" in r for r in result.reasons)
    assert any("evergreen supplement query failed" in r for r in result.reasons)


def test_a_failed_supplement_keeps_the_main_list(store: MemoryStore) -> None:
    words = "API port pytest token refresh deploy"
    healthy = gather(store.index, words, 18)
    assert not healthy.degraded and healthy.reasons == []
    store.index.db = FailingStatements(store.index.db, "source IN", store.index.connection.Error)
    broken = gather(store.index, words, 18)
    main = {r.chunk_id for r in healthy.rows if r.fts_pos < 18}
    assert main and {r.chunk_id for r in broken.rows} == main  # only supplement rows are gone
    assert broken.degraded and broken.reasons == [
        next(r for r in broken.reasons if r.startswith("evergreen supplement query failed"))
    ]
    assert all(r.supp_pos > 18 for r in broken.rows)  # ABSENT


def test_a_failed_main_query_keeps_the_supplement(store: MemoryStore) -> None:
    words = "API port pytest token refresh deploy"
    error = store.index.connection.Error
    store.index.db = FailingStatements(store.index.db, "MATCH ? ORDER BY", error)
    result = gather(store.index, words, 18)
    assert result.degraded and "FTS query failed" in result.reasons[0]
    sources = {r.source for r in result.rows}
    assert sources and sources <= {"global", "workspace"}  # only the supplement's rows


def test_no_supplement_is_asked_of_an_index_without_evergreen_rows(
    store: MemoryStore,
) -> None:
    """``evergreen_rows=False`` (evaluation asks ``has_evergreen_rows`` once per moment)
    skips a supplement that could find nothing: the same candidates and reasons; a failed
    FTS list still asks it, so both failures are reported as before."""
    from memlab.retrieval.candidates import has_evergreen_rows

    words = "API port pytest token refresh deploy"
    assert has_evergreen_rows(store.index)  # the fixture has MEMORY.md files
    store.index.db.execute("DELETE FROM chunks WHERE source IN ('global', 'workspace')")
    assert not has_evergreen_rows(store.index)
    asked = gather(store.index, words, 18)
    skipped = gather(store.index, words, 18, evergreen_rows=False)
    assert asked.rows and asked == skipped
    real = store.index.db
    store.index.db = FailingStatements(real, "source IN", store.index.connection.Error)
    assert gather(store.index, words, 18, evergreen_rows=False) == skipped  # never asked
    assert has_evergreen_rows(store.index)  # cannot tell: ask
    store.index.db = FailingStatements(real, "MATCH", store.index.connection.Error)
    failed = gather(store.index, words, 18)
    assert failed.degraded and len(failed.reasons) == 2
    assert gather(store.index, words, 18, evergreen_rows=False).reasons == failed.reasons

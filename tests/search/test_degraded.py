"""Degraded searches warn once per query alone, once per kind of reason in a batch.

Real SQLite (a trigram index, whose c0 keywords miss every word shorter than 3
characters); the results keep their own flag and reasons either way.
"""

from __future__ import annotations

import logging
from pathlib import Path

import pytest

from memlab.cli import main
from memlab.config import SearchConfig
from memlab.retrieval.degraded import aggregated, summary
from memlab.retrieval.pipeline import search
from memlab.store.store import MemoryStore
from tests.conftest import T0, write

QUERIES = ["东京", "Go", "JS", "东京 Go", "护照"]
CFG = SearchConfig(min_score=0.0)


@pytest.fixture(scope="module")
def store(tmp_path_factory: pytest.TempPathFactory) -> MemoryStore:
    root = tmp_path_factory.mktemp("trigram") / "memory"
    write(root, "tokyo.md", "# 出差\n\n下周去东京开会，记得带护照。\n")
    write(root, "go.md", "# Stack\n\nWe use Go and JS on the backend.\n")
    s = MemoryStore.open(root, index_path=root.parent / "i.sqlite", tokenizer="trigram")
    s.build(now=T0)
    yield s
    s.close()


def warnings(caplog: pytest.LogCaptureFixture) -> list[str]:
    return [r.getMessage() for r in caplog.records if r.levelno == logging.WARNING]


def test_one_search_warns_with_its_reason(
    store: MemoryStore, caplog: pytest.LogCaptureFixture
) -> None:
    result = search(store, "Go", CFG, T0, record_access=False)
    assert result.degraded
    assert warnings(caplog) == [f"search degraded: {result.reasons[0]}"]


def test_many_searches_warn_once_per_kind_of_reason(
    store: MemoryStore, caplog: pytest.LogCaptureFixture
) -> None:
    with aggregated():
        results = [search(store, q, CFG, T0, record_access=False) for q in QUERIES]
        assert warnings(caplog) == []  # nothing while the block runs
    assert all(r.degraded and r.reasons for r in results)  # each result keeps its flag
    (line,) = warnings(caplog)
    assert line.startswith("search degraded in 5 searches: the trigram tokenizer never matches")
    assert "(…)" in line and "e.g. (东京); (go); (js) and 2 more" in line


def test_nested_blocks_report_to_the_outermost(
    store: MemoryStore, caplog: pytest.LogCaptureFixture
) -> None:
    with aggregated():
        with aggregated():
            search(store, "Go", CFG, T0, record_access=False)
        assert warnings(caplog) == []
        search(store, "JS", CFG, T0, record_access=False)
    (line,) = warnings(caplog)
    assert line.startswith("search degraded in 2 searches:")


def test_summary_keeps_a_single_reason_as_it_was_and_kinds_apart() -> None:
    seen = ["FTS query failed (no such table); x", "a (1) b", "a (2) b", "a (1) b"]
    assert summary(seen) == [
        "search degraded: FTS query failed (no such table); x",
        "search degraded in 3 searches: a (…) b — e.g. (1); (2)",
    ]


def test_the_cli_warns_as_the_search_did(
    tmp_path: Path, caplog: pytest.LogCaptureFixture, capsys: pytest.CaptureFixture[str]
) -> None:
    """``memlab search`` runs in an aggregating block: a single reason reads as it was."""
    write(tmp_path, "go.md", "# Stack\n\nWe use Go and JS on the backend.\n")
    assert main(["index", str(tmp_path), "--tokenizer", "trigram"]) == 0
    assert (
        main(["search", str(tmp_path), "Go", "--tokenizer", "trigram", "--no-record-access"]) == 0
    )
    capsys.readouterr()
    (line,) = warnings(caplog)
    assert (
        line.startswith("search degraded: the trigram tokenizer never matches") and "(go)" in line
    )

"""A small evaluation dataset: facts, a superseded fact, duplicates, an abstention query."""

from __future__ import annotations

from pathlib import Path

import pytest

from memlab.datasets import DatasetWriter
from memlab.timefmt import parse_iso

WS = "shop-1234abcd"
DAY = 86400.0


def write_eval_dataset(dest: Path) -> Path:
    t0 = parse_iso("2026-03-01T09:00:00Z")
    w = DatasetWriter(dest, name="evalmini", licence="CC0-1.0", origin="tests", as_of=t0 + 30 * DAY)
    w.add_file("MEMORY.md", "# Prefs\n\n- Always run pytest with -q. <!-- fact:g1 -->\n", t0)
    w.add_file(
        f"{WS}/MEMORY.md", "# Shop\n\n- Dev server: make dev on port 8080. <!-- fact:w1 -->\n", t0
    )
    sessions = [
        (1, "ci", "- CI builds the frontend with Node 18. <!-- fact:n18 -->"),
        (20, "node", "- Moved CI to Node 22 for the frontend build. <!-- fact:n22 -->"),
        (5, "redis", "- Redis cache keys expire after 300 seconds. <!-- fact:r1 -->"),
        (6, "redis2", "- Redis cache keys expire after 300 seconds (same note). <!-- fact:r2 -->"),
        (7, "redis3", "- Redis runs on port 6379 in docker compose. <!-- fact:r3 -->"),
        (9, "pay", "- Payments provider returns HTTP 409 on retried charges. <!-- fact:p1 -->"),
    ]
    for day, slug, line in sessions:
        date = f"2026-03-{1 + day:02d}"
        w.add_file(
            f"{WS}/sessions/{date}-{slug}-{day:08d}.md", f"# {slug}\n\n{line}\n", t0 + day * DAY
        )
    w.add_query("q-tests", "how do I run pytest", category="fact")
    w.judge("q-tests", "fact:g1", 2)
    w.add_query(
        "q-node",
        "which Node version does CI use",
        category="newest-wins",
        stale_targets=["fact:n18"],
    )
    w.judge("q-node", "fact:n22", 2)
    w.judge("q-node", "fact:n18", 0)
    w.add_query("q-redis", "redis cache expiry and port", category="duplicates")
    w.judge("q-redis", "fact:r1", 2)
    w.judge("q-redis", "fact:r2", 1)
    w.judge("q-redis", "fact:r3", 2)
    w.add_query("q-pay", "payments 409 retried charge", category="fact")
    w.judge("q-pay", "fact:p1", 2)
    w.add_query("q-none", "kubernetes helm chart values", category="abstention", abstention=True)
    return w.finish()


@pytest.fixture(scope="session")
def eval_dataset(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return write_eval_dataset(tmp_path_factory.mktemp("ds") / "evalmini")


@pytest.fixture(autouse=True)
def _isolated_cache(
    tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Keep index and vector caches out of the user's home (numba's cache is left alone)."""
    cache = tmp_path_factory.getbasetemp() / "memlab-cache"
    monkeypatch.setenv("MEMLAB_CACHE_DIR", str(cache))
    import os

    monkeypatch.setenv(
        "NUMBA_CACHE_DIR",
        os.environ.get("NUMBA_CACHE_DIR", str(Path.home() / ".cache" / "memlab" / "numba")),
    )

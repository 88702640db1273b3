"""Fixtures for the report tests: a tiny dataset, an isolated cache, running ``memlab report``.

Notebook runs start real ``memlab`` kernels (papermill). The kernels inherit
this process's environment: ``MEMLAB_CACHE_DIR`` points at a per-session folder
(indexes and vector caches stay out of the user's home) while numba's
compilation cache stays the persistent one, so ranx compiles once per machine.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from memlab.cli import main
from memlab.datasets import DatasetWriter
from memlab.timefmt import parse_iso

WS = "shop-1234abcd"
DAY = 86400.0


def write_tiny_dataset(dest: Path) -> Path:
    """Six facts, a superseded one, near-duplicates and an abstention query."""
    t0 = parse_iso("2026-03-01T09:00:00Z")
    w = DatasetWriter(dest, name="tiny", licence="CC0-1.0", origin="tests", as_of=t0 + 12 * DAY)
    w.add_file("MEMORY.md", "# Prefs\n\n- Always run pytest with -q. <!-- fact:g1 -->\n", t0)
    w.add_file(
        f"{WS}/MEMORY.md", "# Shop\n\n- Dev server: make dev on port 8080. <!-- fact:w1 -->\n", t0
    )
    sessions = [
        (1, "ci", "- CI builds the frontend with Node 18. <!-- fact:n18 -->"),
        (9, "node", "- Moved CI to Node 22 for the frontend build. <!-- fact:n22 -->"),
        (5, "redis", "- Redis cache keys expire after 300 seconds. <!-- fact:r1 -->"),
        (6, "redis2", "- Redis cache keys expire after 300 seconds (same). <!-- fact:r2 -->"),
        (7, "redis3", "- Redis runs on port 6379 in docker compose. <!-- fact:r3 -->"),
        (8, "pay", "- Payments provider returns HTTP 409 on retried charges. <!-- fact:p1 -->"),
    ]
    for day, slug, line in sessions:
        path = f"{WS}/sessions/2026-03-{1 + day:02d}-{slug}-{day:08d}.md"
        w.add_file(path, f"# {slug}\n\n{line}\n", t0 + day * DAY)
    w.add_query("q-tests", "how do I run pytest", category="fact")
    w.judge("q-tests", "fact:g1", 2)
    w.add_query(
        "q-node",
        "which Node version does CI use",
        category="newest-wins",
        stale_targets=["fact:n18"],
    )
    w.judge("q-node", "fact:n22", 2)
    w.add_query("q-redis", "redis cache expiry and port", category="duplicates")
    w.judge("q-redis", "fact:r1", 2)
    w.judge("q-redis", "fact:r2", 1)
    w.judge("q-redis", "fact:r3", 2)
    w.add_query("q-pay", "payments 409 retried charge", category="fact")
    w.judge("q-pay", "fact:p1", 2)
    w.add_query("q-none", "kubernetes helm chart values", category="abstention", abstention=True)
    return w.finish()


@pytest.fixture(scope="session")
def tiny_dataset(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return write_tiny_dataset(tmp_path_factory.mktemp("ds") / "tiny")


@pytest.fixture(scope="session", autouse=True)
def _isolated_cache(tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    """Indexes and vector caches in a session folder; numba's cache stays persistent."""
    saved = {k: os.environ.get(k) for k in ("MEMLAB_CACHE_DIR", "NUMBA_CACHE_DIR", "CI")}
    numba = saved["NUMBA_CACHE_DIR"] or str(Path.home() / ".cache" / "memlab" / "numba")
    os.environ["MEMLAB_CACHE_DIR"] = str(tmp_path_factory.getbasetemp() / "report-cache")
    os.environ["NUMBA_CACHE_DIR"] = numba
    yield
    for key, value in saved.items():
        if value is None:
            os.environ.pop(key, None)
        else:
            os.environ[key] = value


@dataclass
class Report:
    """A finished ``memlab report`` run: exit code and output folder."""

    code: int
    out: Path

    @property
    def summary(self) -> str:
        return (self.out / "summary.txt").read_text(encoding="utf-8")

    @property
    def data(self) -> dict[str, Any]:
        data: dict[str, Any] = json.loads((self.out / "summary.json").read_text(encoding="utf-8"))
        return data


def report(out: Path, *args: str) -> Report:
    """Run ``memlab report --out OUT ARGS --quiet`` in this process."""
    return Report(main(["report", "--out", str(out), *args, "--quiet"]), out)


@pytest.fixture(scope="session")
def tiny_regression(tiny_dataset: Path, tmp_path_factory: pytest.TempPathFactory) -> Report:
    """The regression notebook on the tiny dataset, writing a fresh baseline."""
    out = tmp_path_factory.mktemp("regression")
    return report(
        out,
        "--datasets",
        str(tiny_dataset),
        "--param",
        "embedder=hash",
        "--param",
        "runs=[fts, hybrid, mmr]",
        "--write-baseline",
        str(out / "baseline.json"),
    )

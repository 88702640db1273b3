"""Shared fixtures: small memory trees on disk and stores over them."""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from memlab.store.store import MemoryStore

WS = "proj-1234abcd"
ROOT = Path(__file__).resolve().parents[1]


def doc_text(page: str) -> str:
    """The text of ``page`` ("README.md" or a page of docs/, e.g. "guarantees.md"), its
    whitespace collapsed."""
    path = ROOT / page if page == "README.md" else ROOT / "docs" / page
    return " ".join(path.read_text(encoding="utf-8").split())


def docs_say(page: str, text: str) -> bool:
    """Does ``page`` (see ``doc_text``) say ``text`` (whitespace-insensitive)? Tests that
    compute a figure the docs quote check the sentence with it, where it is written."""
    return " ".join(text.split()) in doc_text(page)


SOAK = os.environ.get("MEMLAB_SOAK", "0") not in ("", "0")


def campaign_size(ci: int, soak: int) -> int:
    """How big a slow campaign runs: ``ci`` in the slow suite (`make test-slow`, CI) and
    ``soak`` under `make soak` (``MEMLAB_SOAK=1``, run before releases): the full size the
    README quotes. The CI size makes fewer draws of the same kinds, never fewer kinds."""
    return soak if SOAK else ci


DAY = 86400.0
T0 = 1_767_225_600.0  # 2026-01-01T00:00:00Z


def write(root: Path, rel: str, text: str | bytes) -> Path:
    path = root / rel
    path.parent.mkdir(parents=True, exist_ok=True)
    if isinstance(text, bytes):
        path.write_bytes(text)
    else:
        path.write_text(text, encoding="utf-8")
    return path


@pytest.fixture
def memory(tmp_path: Path) -> Path:
    """A memory root with global, workspace and two session files."""
    root = tmp_path / "memory"
    write(root, "MEMORY.md", "# Preferences\n\nAlways run pytest with -q before committing.\n")
    write(root, f"{WS}/MEMORY.md", "# Project\n\nThe API server listens on port 8080.\n")
    write(
        root,
        f"{WS}/sessions/2026-01-01-auth-aaaa1111.md",
        "# Auth bug\n\nFixed the token refresh bug in the auth middleware.\n",
    )
    write(
        root,
        f"{WS}/sessions/2026-01-05-deploy-bbbb2222.md",
        "# Deploy\n\nDeployed the API with the new rate limits.\n",
    )
    backdate(root)
    return root


def backdate(root: Path, when: float = T0 - DAY) -> None:
    """Give every file under ``root`` an old mtime: the racy-timestamp rule re-reads files
    written less than 2 s before they were indexed, which tests of "nothing changed" avoid."""
    for path in root.rglob("*"):
        if path.is_file() and not path.is_symlink():
            os.utime(path, (when, when))


@pytest.fixture
def open_store(tmp_path: Path) -> Iterator[Callable[..., MemoryStore]]:
    """Factory: open a store (index in tmp_path) and close it at teardown."""
    stores: list[MemoryStore] = []

    def factory(root: Path, **kwargs: object) -> MemoryStore:
        kwargs.setdefault("index_path", tmp_path / f"index-{len(stores)}.sqlite")
        store = MemoryStore.open(root, **kwargs)  # type: ignore[arg-type]
        stores.append(store)
        return store

    yield factory
    for s in stores:
        s.close()


@pytest.fixture(scope="session")
def _benchmark_cache() -> dict[Any, Any]:
    return {}


@pytest.fixture(scope="module")
def shared_benchmarks(_benchmark_cache: dict[Any, Any]) -> Iterator[None]:
    """While a module that asks for it runs, the workbench prepares each benchmark (dataset,
    profile, index options) once per test process and reuses it, as a notebook kernel keeps
    its prepared dataset: the replays it caches (every query's candidates on the timeline)
    are shared by the modules' comparisons and sweeps instead of replayed for each. Only
    the modules that opt in (``pytestmark = pytest.mark.usefixtures("shared_benchmarks")``)
    see the cache; they are scheduled on one worker (``SHARED_SCOPES``)."""
    import memlab.workbench.evaluation as evaluation
    import memlab.workbench.sweeps as sweeps

    original = evaluation.prepare_benchmark

    def cached(*args: Any, **kwargs: Any) -> Any:
        try:
            key = (args, tuple(sorted(kwargs.items())))
            hash(key)
        except TypeError:  # a list of categories: prepared afresh
            return original(*args, **kwargs)
        if key not in _benchmark_cache:
            _benchmark_cache[key] = original(*args, **kwargs)
        return _benchmark_cache[key]

    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(evaluation, "prepare_benchmark", cached)
        mp.setattr(sweeps, "prepare_benchmark", cached)
        yield


# `make test` runs two workers with `--dist loadfile`: a file per worker at a time, so a
# file's module and session fixtures are built once. Two refinements (pytest-xdist's
# scheduler hook, used only with loadfile):
# * SHARED_SCOPES: files that reuse one session-wide product (the shipped dataset's
#   replay) form one unit, so one worker replays it once instead of each worker replaying it.
# * FIRST: the longest units start first (xdist otherwise orders files by their number of
#   tests, which put the longest, with few tests, last: one worker ran on alone at the end).
SHARED_SCOPES = {
    # the session-wide ``agent_memory`` (tests/sweep/conftest.py) and its replays
    "tests/sweep/test_exactness.py": "shipped agent_memory",
    "tests/sweep/test_dask.py": "shipped agent_memory",
    "tests/sweep/test_decision.py": "shipped agent_memory",
    "tests/sweep/test_runner.py": "shipped agent_memory",
    "tests/sweep/test_split.py": "shipped agent_memory",
    # ``shared_benchmarks``: the workbench's c0 comparisons of the shipped dataset
    "tests/test_teaching_compare.py": "shipped c0 benchmark",
    "tests/workbench/test_notebook_claims.py": "shipped c0 benchmark",
}
FIRST = [
    "shipped agent_memory",
    "shipped c0 benchmark",
    "tests/report/test_notebooks_run.py",
    "tests/cli/test_compare_runs.py",
    "tests/datasets/test_generator.py",
    "tests/cli/test_dataset_generate.py",
    "tests/eval/test_protocol_longmemeval.py",
    "tests/datasets/test_generator_labels.py",
    "tests/cli/test_dataset.py",
    "tests/test_cluster.py",
    "tests/report/test_regression.py",
]


def pytest_xdist_make_scheduler(config: pytest.Config, log: Any) -> Any:
    if config.getvalue("dist") != "loadfile":
        return None
    from xdist.scheduler import LoadFileScheduling

    class SharedFirstScheduling(LoadFileScheduling):
        def _split_scope(self, nodeid: str) -> str:
            path = super()._split_scope(nodeid)
            return SHARED_SCOPES.get(path, path)

        def _assign_work_unit(self, node: Any) -> None:
            if not getattr(self, "_first_ordered", False):
                # Once, before the first unit goes out: FIRST's units, then the rest in
                # xdist's order. (Only the queue is reordered: the collections stay as
                # the workers sent them, their indexes name the tests.)
                self._first_ordered = True

                def rank(scope: str) -> int:
                    return FIRST.index(scope) if scope in FIRST else len(FIRST)

                queue = self.workqueue
                self.workqueue = type(queue)((s, queue[s]) for s in sorted(queue, key=rank))
            super()._assign_work_unit(node)

    return SharedFirstScheduling(config, log)


from tests.dask_fixtures import (  # noqa: E402,F401  (session-wide Dask clusters)
    dask_client,
    dask_scheduler_address,
)

"""Shared fixtures: small memory trees on disk and stores over them."""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from pathlib import Path

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


from tests.dask_fixtures import (  # noqa: E402,F401  (session-wide Dask clusters)
    dask_client,
    dask_scheduler_address,
)

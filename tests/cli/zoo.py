"""The zoo of hostile files the bad-input table runs on (a fixture of ``conftest``)."""

from __future__ import annotations

import hashlib
import os
import sqlite3
from dataclasses import dataclass
from pathlib import Path

import pytest

from tests.conftest import WS, backdate, write
from tests.eval.conftest import write_eval_dataset


@dataclass(frozen=True)
class Zoo:
    """Paths a hostile user passes to memlab, keyed by the placeholder names of the table."""

    paths: dict[str, str]

    def fill(self, argv: list[str]) -> list[str]:
        return [a.format(**self.paths) for a in argv]


def digest_tree(root: Path) -> dict[str, str]:
    """sha256 of every regular file under ``root`` (to prove nothing was touched)."""
    out = {}
    for path in sorted(root.rglob("*")):
        if path.is_file() and not path.is_symlink():
            out[str(path.relative_to(root))] = hashlib.sha256(path.read_bytes()).hexdigest()
    return out


@pytest.fixture(scope="session")
def zoo(tmp_path_factory: pytest.TempPathFactory) -> Zoo:
    base = tmp_path_factory.mktemp("zoo")
    root = base / "memory"
    write(root, "MEMORY.md", "# Preferences\n\nAlways run pytest with -q.\n")
    write(root, f"{WS}/MEMORY.md", "# Project\n\nThe API listens on port 8080.\n")
    write(root, f"{WS}/sessions/2026-01-01-auth-aaaa1111.md", "# Auth\n\nFixed the token bug.\n")
    (root / "other-5678efgh").mkdir()
    outside = base / "outside"
    outside.mkdir()
    os.symlink(outside, root / "linked-9999zzzz")
    backdate(root)
    files = base / "files"
    text = write(files, "notes.txt", "just some text\n")
    empty = write(files, "empty.sqlite", b"")
    other_db = files / "other.sqlite"
    with sqlite3.connect(other_db) as conn:
        conn.execute("CREATE TABLE precious (x)")
        conn.execute("INSERT INTO precious VALUES ('keep me')")
    conn.close()
    fifo = files / "fifo"
    os.mkfifo(fifo)
    bad_yaml = write(files, "bad.yaml", "half_life_days: [1, 2\n  oops: {\n")
    deep_yaml = write(files, "deep.yaml", "a: " + "[" * 50_000 + "]" * 50_000 + "\n")
    deep_json = write(files, "deep.json", "[" * 100_000 + "]" * 100_000)
    deep_toml = write(files, "deep.toml", "a = " + "[" * 50_000 + "]" * 50_000 + "\n")
    bad_toml = write(files, "bad.toml", "[roles.x\nmodel = \n")
    list_yaml = write(files, "list.yaml", "- 1\n- 2\n")
    not_utf8 = write(files, "latin1.yaml", b"half_life_days: 3 # caf\xe9\n")
    csv_cols = write(files, "cols.csv", "who,when\nu1,2026-01-01\n")
    csv_back = write(files, "back.csv", "user,start,end\nu1,2026-01-02,2026-01-01\n")
    ds = write_eval_dataset(base / "dataset")
    names = {
        "root": root,
        "ws": WS,
        "md": root / "MEMORY.md",
        "wsmd": root / WS / "MEMORY.md",
        "outside": outside,
        "ds": ds,
        "file": text,
        "empty": empty,
        "otherdb": other_db,
        "fifo": fifo,
        "dir": files,
        "missing": base / "no" / "such" / "path",
        "bad_yaml": bad_yaml,
        "deep_yaml": deep_yaml,
        "deep_json": deep_json,
        "deep_toml": deep_toml,
        "bad_toml": bad_toml,
        "list_yaml": list_yaml,
        "not_utf8": not_utf8,
        "csv_cols": csv_cols,
        "csv_back": csv_back,
        "base": base,
    }
    return Zoo({k: str(v) for k, v in names.items()})

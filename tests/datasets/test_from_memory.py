"""``dataset_from_memory``: a real memory folder becomes a valid format-2 dataset, read only."""

from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path

import pytest

from memlab.datasets import load_dataset, validate_dataset
from memlab.datasets.from_memory import dataset_from_memory
from memlab.datasets.memory_tree import find_memories
from memlab.errors import DatasetError, MemoryRootError
from memlab.timefmt import parse_iso, utc_seconds
from tests.datasets.team_memory import BILLING, FILES, SHOP, write_queries, write_team_memory


def tree_state(root: Path) -> dict[str, tuple[str, int]]:
    """Every entry under ``root`` (links not followed): content hash and mtime."""
    out = {}
    for dirpath, dirnames, filenames in os.walk(root):
        for name in dirnames + filenames:
            p = Path(dirpath) / name
            st = p.lstat()
            data = p.read_bytes() if p.is_file() and not p.is_symlink() else b""
            out[str(p.relative_to(root))] = (hashlib.sha256(data).hexdigest(), st.st_mtime_ns)
    return out


def test_one_group_per_workspace_sharing_the_root(team_memory: Path, tmp_path: Path) -> None:
    before = tree_state(team_memory)
    result = dataset_from_memory(team_memory, tmp_path / "ds")
    assert validate_dataset(tmp_path / "ds").ok
    ds = load_dataset(tmp_path / "ds")
    assert set(ds.groups) == {SHOP, BILLING}
    assert {g.root_rel for g in ds.groups.values()} == {"memory"}
    assert ds.groups[SHOP].workspace == SHOP
    # the global MEMORY.md is indexed into both groups; the other workspace's files not
    assert "MEMORY.md" in ds.groups[SHOP].created_at
    assert "MEMORY.md" in ds.groups[BILLING].created_at
    assert not any(p.startswith(BILLING) for p in ds.groups[SHOP].created_at)
    # file times are the mtimes; as_of is the newest
    for rel, (at, _text) in FILES.items():
        group = BILLING if rel.startswith(BILLING) else SHOP
        assert ds.groups[group].created_at[rel] == parse_iso(at)
    assert ds.as_of == max(parse_iso(at) for at, _ in FILES.values())
    assert result.files == len(FILES)
    assert not ds.dream_default  # the memory already holds what Dream wrote
    assert tree_state(team_memory) == before  # the memory folder is only read


def test_links_out_of_the_root_and_non_markdown_are_left_out(
    team_memory: Path, tmp_path: Path
) -> None:
    result = dataset_from_memory(team_memory, tmp_path / "ds")
    copied = [p for p in (tmp_path / "ds").rglob("*") if p.is_file()]
    assert not any("hunter2" in p.read_text(errors="replace") for p in copied)
    assert not any(p.name in ("index.sqlite", ".dream-lock") for p in copied)
    assert not any(p.is_symlink() for p in (tmp_path / "ds").rglob("*"))
    reasons = dict(result.skipped)
    leak = f"{SHOP}/sessions/2026-03-13-leak-eeee5555.md"
    assert "outside the memory root" in reasons[leak]
    assert f"skipped {leak}" in result.summary()


def test_dates_from_session_names(team_memory: Path, tmp_path: Path) -> None:
    session = f"{SHOP}/sessions/2026-03-10-node-upgrade-bbbb2222.md"
    os.utime(team_memory / session, (utc_seconds(2026, 6, 1), utc_seconds(2026, 6, 1)))
    dataset_from_memory(team_memory, tmp_path / "ds", dates="name")
    ds = load_dataset(tmp_path / "ds")
    assert ds.groups[SHOP].created_at[session] == utc_seconds(2026, 3, 10)  # not June
    # a file without a date in its name keeps its mtime
    assert ds.groups[SHOP].created_at["MEMORY.md"] == parse_iso(FILES["MEMORY.md"][0])


def test_queries_from_json_lines_with_groups_and_times(team_memory: Path, tmp_path: Path) -> None:
    queries = write_queries(tmp_path / "queries.jsonl")
    dataset_from_memory(
        team_memory, tmp_path / "ds", queries=queries, as_of=utc_seconds(2026, 4, 1)
    )
    ds = load_dataset(tmp_path / "ds")
    assert [q.query_id for q in ds.queries] == ["q1", "q2", "q3", "q4"]
    assert ds.query("q3").group == BILLING
    assert ds.query("q1").as_of == utc_seconds(2026, 4, 1)
    assert ds.query("q4").as_of == parse_iso("2026-03-05T12:00:00Z")


def test_queries_from_a_text_file(team_memory: Path, tmp_path: Path) -> None:
    text = tmp_path / "queries.txt"
    text.write_text("# ours\nwhich Node version does CI use?\n\nredis cache expiry\n")
    with pytest.raises(DatasetError, match="several"):  # which workspace is it asked of?
        dataset_from_memory(team_memory, tmp_path / "ds", queries=text)
    dataset_from_memory(team_memory, tmp_path / "ds", queries=text, group=SHOP)
    ds = load_dataset(tmp_path / "ds")
    assert [(q.query_id, q.text, q.group) for q in ds.queries] == [
        ("q001", "which Node version does CI use?", SHOP),
        ("q002", "redis cache expiry", SHOP),
    ]


def test_no_queries_yet_is_a_valid_dataset(team_memory: Path, tmp_path: Path) -> None:
    dataset_from_memory(team_memory, tmp_path / "ds")
    report = validate_dataset(tmp_path / "ds")
    assert report.ok and report.stats["queries"] == 0


def test_a_folder_of_users_memories(tmp_path: Path) -> None:
    users = tmp_path / "users"
    write_team_memory(users / "alice")
    write_team_memory(users / "bob@example")
    (users / "bob@example" / BILLING).rename(users / "bob@example" / "infra-11112222")
    found = find_memories(users)
    assert [m.user for m in found] == ["alice", "bob@example"]
    dataset_from_memory(users, tmp_path / "ds")
    ds = load_dataset(tmp_path / "ds")
    assert set(ds.groups) == {
        f"alice.{SHOP}",
        f"alice.{BILLING}",
        f"bob_example.{SHOP}",
        "bob_example.infra-11112222",
    }
    assert ds.groups[f"alice.{SHOP}"].root_rel == "users/alice"
    assert ds.groups["bob_example.infra-11112222"].root_rel == "users/bob_example"
    manifest = json.loads((tmp_path / "ds" / "manifest.json").read_text())
    assert manifest["import"]["layout"] == "users"


def test_a_root_with_global_memory_only(tmp_path: Path) -> None:
    root = tmp_path / "memory"
    root.mkdir()
    (root / "MEMORY.md").write_text("# Prefs\n\n- tabs, not spaces\n")
    dataset_from_memory(root, tmp_path / "ds")
    ds = load_dataset(tmp_path / "ds")
    assert list(ds.groups) == ["global"] and ds.groups["global"].workspace is None


@pytest.mark.parametrize(
    ("dest", "message"),
    [("memory/ds", "inside the memory folder"), (".", "lies inside DEST")],
)
def test_never_writes_into_the_memory(team_memory: Path, dest: str, message: str) -> None:
    with pytest.raises(DatasetError, match=message):
        dataset_from_memory(team_memory, team_memory.parent / dest)
    assert not (team_memory / "ds").exists()


def test_not_a_memory(tmp_path: Path) -> None:
    (tmp_path / "empty" / "docs").mkdir(parents=True)
    with pytest.raises(MemoryRootError, match="holds no memory"):
        dataset_from_memory(tmp_path / "empty", tmp_path / "ds")
    with pytest.raises(MemoryRootError, match="does not exist"):
        dataset_from_memory(tmp_path / "missing", tmp_path / "ds")


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ('{"text": "x", "grup": "a"}', "unknown key 'grup'; did you mean 'group'"),
        ('{"query_id": "q 1", "text": "x"}', "must be an id"),
        ('{"text": ""}', "non-empty"),
        ('{"text": "x", "as_of": "yesterday"}', "cannot read time"),
        ("[1, 2]", "expected a JSON object"),
        ("{", "not valid JSON"),
    ],
)
def test_bad_query_lines(team_memory: Path, tmp_path: Path, line: str, message: str) -> None:
    queries = tmp_path / "q.jsonl"
    queries.write_text(line + "\n")
    with pytest.raises(DatasetError, match=message) as err:
        dataset_from_memory(team_memory, tmp_path / "ds", queries=queries, group=SHOP)
    assert f"{queries}:1" in str(err.value)


def test_fact_markers_are_refused_in_one_line(team_memory: Path, tmp_path: Path) -> None:
    (team_memory / "MEMORY.md").write_text("# Prefs\n\n- tabs <!-- fact:f1 -->\n")
    with pytest.raises(DatasetError, match="MEMORY.md holds the fact marker") as err:
        dataset_from_memory(team_memory, tmp_path / "ds")
    assert "\n" not in str(err.value) and not (tmp_path / "ds").exists()


def test_a_queries_file_that_is_a_fifo_is_refused(team_memory: Path, tmp_path: Path) -> None:
    fifo = tmp_path / "queries.txt"
    os.mkfifo(fifo)
    with pytest.raises(DatasetError, match=f"queries file {fifo}: a FIFO"):
        dataset_from_memory(team_memory, tmp_path / "ds", queries=fifo)


def test_names_that_are_not_utf8_are_skipped_with_a_reason(tmp_path: Path) -> None:
    """Issue 27, lower item: one non-UTF-8 file or folder name aborted the whole import
    with a message naming no file, leaving a half-written DEST."""
    root = tmp_path / "memory"
    sessions = root / SHOP / "sessions"
    sessions.mkdir(parents=True)
    (root / "MEMORY.md").write_text("# Prefs\n\nAlways run pytest with -q.\n")
    (sessions / "2026-03-01-ok-aaaa1111.md").write_text("# OK\n\nA good note.\n")
    bad_file = os.fsencode(sessions) + b"/2026-03-02-caf\xe9-bbbb2222.md"
    with open(bad_file, "wb") as fh:
        fh.write(b"# Bad\n\nA note with a Latin-1 name.\n")
    os.mkdir(os.fsencode(root) + b"/caf\xe9-folder")
    result = dataset_from_memory(root, tmp_path / "ds")
    reasons = dict(result.skipped)
    assert "not UTF-8" in reasons[f"{SHOP}/sessions/2026-03-02-caf\\xe9-bbbb2222.md"]
    assert "not UTF-8" in reasons["caf\\xe9-folder"]
    assert result.files == 2 and validate_dataset(tmp_path / "ds").ok

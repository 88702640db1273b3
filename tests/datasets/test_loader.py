"""Loading and validating datasets: every problem with file, line, fix; counts."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from memlab.datasets import (
    DEFAULT_GROUP,
    compute_digest,
    load_dataset,
    update_digest,
    validate_dataset,
)
from memlab.errors import DatasetError
from memlab.timefmt import parse_iso

from .conftest import SESSION, WS, write_tiny


def _manifest(path: Path) -> dict:
    return json.loads((path / "manifest.json").read_text())


def _set_manifest(path: Path, **changes: object) -> None:
    manifest = _manifest(path)
    manifest.update(changes)
    (path / "manifest.json").write_text(json.dumps(manifest))


def test_tiny_dataset_loads(tiny: Path) -> None:
    report = validate_dataset(tiny)
    assert report.ok and not report.problems, report.format()
    ds = load_dataset(tiny)
    assert (ds.name, ds.licence, ds.level, ds.levels) == (
        "tiny",
        "CC0-1.0",
        "default",
        ("default",),
    )
    assert ds.as_of == parse_iso("2026-06-30T18:00:00Z")
    group = ds.groups[DEFAULT_GROUP]
    assert group.workspace == WS and group.root == tiny / "memory"
    assert group.created_at[SESSION] == parse_iso("2026-02-01T10:00:00Z")
    assert group.paths[-1] == SESSION  # replay order: by created_at
    assert [q.query_id for q in ds.queries] == ["q1", "q2", "q3"]
    q2 = ds.query("q2")
    assert q2.group == DEFAULT_GROUP and q2.as_of == ds.as_of and q2.stale_targets == ("fact:f2",)
    assert ds.qrels["q2"] == {f"{SESSION}#L3-L4": 2, "fact:f2": 0}
    assert ds.query("q3").abstention and not ds.judged("q3")
    assert ds.facts[DEFAULT_GROUP]["f2"] == ((f"{WS}/MEMORY.md", 3),)
    assert report.stats["memory_files"] == 3 and report.stats["relevant[default]"] == 2


def test_select_filters_queries_and_qrels(tiny: Path) -> None:
    ds = load_dataset(tiny)
    kept = ds.select(abstention=False, where=lambda q: q.query_id != "q2")
    assert [q.query_id for q in kept.queries] == ["q1"] and set(kept.qrels) == {"q1"}
    assert [q.query_id for q in ds.select(categories={"abstention"}).queries] == ["q3"]
    with pytest.raises(DatasetError, match="unknown judgement level 'turn'"):
        ds.with_level("turn")


def test_load_raises_with_every_problem(tiny: Path) -> None:
    (tiny / "queries.jsonl").write_text(
        (tiny / "queries.jsonl").read_text() + '{"query_id": "q1", "text": "again"}\n{not json}\n'
    )
    with (tiny / "qrels.tsv").open("a") as f:
        f.write(
            "q1\t0\tnope.md\t1\nq9\t0\tMEMORY.md\t1\nq1\t0\tMEMORY.md#L2-L99\t1\nq1\t0\tfact:zz\t1\n"
        )
    with pytest.raises(DatasetError) as err:
        load_dataset(tiny)
    text = "\n".join(err.value.problems)
    assert "queries.jsonl:4: error: query_id 'q1' is used twice" in text
    assert "queries.jsonl:5: error: not valid JSON" in text
    assert "qrels.tsv:4:" in text and "nope.md" in text
    assert "qrels.tsv:5:" in text and "query 'q9' is not in queries.jsonl" in text
    assert "has 3 lines" in text and "no '<!-- fact:zz -->' marker" in text
    assert "digest" in text and "memlab dataset digest" in text
    counts = validate_dataset(tiny).counts
    assert counts["unknown_targets"] == 3 and counts["duplicate_ids"] == 1
    assert (
        counts["malformed_lines"] == 1
        and counts["unknown_queries"] == 1
        and counts["digest_mismatch"] == 1
    )


def test_files_jsonl_mismatch_and_future_timestamps(tiny: Path) -> None:
    lines = (tiny / "files.jsonl").read_text().splitlines()
    lines = [ln for ln in lines if "MEMORY.md" not in ln or WS in ln]  # drop the global MEMORY.md
    lines.append(
        json.dumps({"path": f"{WS}/sessions/gone.md", "created_at": "2026-01-01T00:00:00Z"})
    )
    lines.append(json.dumps({"path": SESSION, "created_at": "2026-01-01T00:00:00Z"}))
    lines = [ln.replace("2026-02-01T10:00:00Z", "2027-01-01T00:00:00Z") for ln in lines]
    (tiny / "files.jsonl").write_text("\n".join(lines) + "\n")
    update_digest(tiny)
    report = validate_dataset(tiny)
    counts = report.counts
    assert (
        counts["unlisted_files"] == 1
        and counts["missing_files"] == 1
        and counts["duplicate_ids"] == 1
    )
    assert counts["future_timestamps"] == 1
    future = next(p for p in report.problems if p.kind == "future_timestamps")
    assert future.severity == "warning" and future.file == "files.jsonl" and future.line == 2
    unlisted = next(p for p in report.problems if p.kind == "unlisted_files")
    assert unlisted.file == "memory/MEMORY.md" and "files.jsonl" in unlisted.fix


def test_warnings_do_not_block_loading(tiny: Path) -> None:
    with (tiny / "queries.jsonl").open("a") as f:
        f.write('{"query_id": "q4", "text": "unjudged", "as_of": "2026-01-15T00:00:00Z"}\n')
    (tiny / "memory" / "notes.txt").write_text("not markdown")
    update_digest(tiny)
    report = validate_dataset(tiny)
    assert report.ok
    kinds = sorted(p.kind for p in report.warnings)
    assert kinds == ["future_timestamps", "ignored_files", "unjudged_queries"], report.format()
    assert load_dataset(tiny).query("q4").as_of == parse_iso("2026-01-15T00:00:00Z")


def test_several_workspaces_need_a_named_one(tiny: Path) -> None:
    (tiny / "memory" / "other-ws").mkdir()
    (tiny / "memory" / "other-ws" / "MEMORY.md").write_text("# Other\n")
    update_digest(tiny)
    report = validate_dataset(tiny)
    assert not report.ok
    assert any("several workspaces" in p.message for p in report.errors)


def test_bad_utf8_and_manifest_fields(tiny: Path) -> None:
    (tiny / "memory" / SESSION).write_bytes(b"# Deploy\n\nok\n\xff\xfe broken\n")
    _set_manifest(tiny, license="MIT", as_of="2026-06-30", format_version=3)
    report = validate_dataset(tiny)
    messages = [str(p) for p in report.errors]
    assert any(f"memory/{SESSION}:4" in m and "UTF-8" in m for m in messages)
    assert any(
        "unknown manifest field 'license'" in m and "did you mean 'licence'" in m for m in messages
    )
    assert any("'as_of'" in m and "no UTC offset" in m for m in messages)
    assert any("format_version 3" in m for m in messages)


def test_abstention_with_relevant_target_is_an_error(tiny: Path) -> None:
    with (tiny / "qrels.tsv").open("a") as f:
        f.write("q3\t0\tMEMORY.md\t1\n")
    update_digest(tiny)
    report = validate_dataset(tiny)
    assert [p.kind for p in report.errors] == ["bad_fields"]
    assert "abstention query 'q3'" in report.errors[0].message


def test_digest_ignores_vectors_readme_and_stray_index(tiny: Path) -> None:
    before = compute_digest(tiny)
    (tiny / "vectors").mkdir()
    (tiny / "vectors" / "x.npy").write_bytes(b"\x00")
    (tiny / "README.md").write_text("hello")
    (tiny / "memory" / WS / "index.sqlite").write_bytes(b"db")
    assert compute_digest(tiny) == before
    (tiny / "memory" / SESSION).write_text("# changed\n")
    assert compute_digest(tiny) != before


def test_groups(tmp_path: Path) -> None:
    from memlab.datasets import DatasetWriter

    w = DatasetWriter(
        tmp_path / "g",
        name="g",
        licence="x",
        origin="y",
        as_of=parse_iso("2026-01-10T00:00:00Z"),
        grouped=True,
        levels=("session", "turn"),
    )
    for gid, day in (("a", "05"), ("b", "07")):
        w.add_group(gid, as_of=parse_iso(f"2026-01-{day}T00:00:00Z"), workspace="ws-1")
        w.add_file(
            "ws-1/sessions/2026-01-01-s-00000000.md",
            f"# {gid}\n\nturn one\nturn two\n",
            parse_iso("2026-01-01T00:00:00Z"),
            group=gid,
            origin_id=f"{gid}-s1",
        )
        w.add_query(f"{gid}-q", f"question {gid}", group=gid)
        w.judge(f"{gid}-q", "ws-1/sessions/2026-01-01-s-00000000.md", 2, level="session")
        w.judge(f"{gid}-q", "ws-1/sessions/2026-01-01-s-00000000.md#L3-L3", 2, level="turn")
    w.finish()
    ds = load_dataset(tmp_path / "g", level="turn")
    assert ds.levels == ("session", "turn") and ds.level == "turn"
    assert ds.groups["b"].root == tmp_path / "g" / "groups" / "b" / "memory"
    assert ds.query("a-q").as_of == parse_iso("2026-01-05T00:00:00Z")
    assert ds.qrels["b-q"] == {"ws-1/sessions/2026-01-01-s-00000000.md#L3-L3": 2}
    assert (tmp_path / "g" / "qrels.turn.tsv").is_file()
    with pytest.raises(DatasetError, match="did you mean 'turn'"):
        load_dataset(tmp_path / "g", level="turns")
    lines = (tmp_path / "g" / "queries.jsonl").read_text().replace('"group": "b"', '"group": "c"')
    (tmp_path / "g" / "queries.jsonl").write_text(lines)
    update_digest(tmp_path / "g")
    assert validate_dataset(tmp_path / "g").counts["unknown_groups"] == 1


def test_writer_refuses_to_clobber_and_keeps_vectors(tmp_path: Path) -> None:
    dest = write_tiny(tmp_path / "d")
    with pytest.raises(DatasetError, match="--force"):
        write_tiny(dest)
    (dest / "vectors").mkdir()
    (dest / "vectors" / "keep.npy").write_bytes(b"1")
    first = {p.relative_to(dest): p.read_bytes() for p in dest.rglob("*") if p.is_file()}
    write_tiny(dest, force=True)
    again = {p.relative_to(dest): p.read_bytes() for p in dest.rglob("*") if p.is_file()}
    assert again == first  # deterministic bytes, vectors/ untouched
    other = tmp_path / "other"
    other.mkdir()
    (other / "x.txt").write_text("x")
    with pytest.raises(DatasetError, match="holds no dataset"):
        write_tiny(other, force=True)


def test_files_jsonl_is_optional(tiny: Path) -> None:
    (tiny / "files.jsonl").unlink()
    update_digest(tiny)
    report = validate_dataset(tiny)
    assert report.ok and not report.problems, report.format()
    group = load_dataset(tiny).groups[DEFAULT_GROUP]
    assert set(group.created_at.values()) == {group.as_of} and len(group.created_at) == 3


@pytest.mark.parametrize("which", ["tiny", "shipped"])
def test_loading_reads_each_memory_file_once(
    which: str, request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The digest takes the memory files' hashes from the scan that read them (no second
    read) and is the digest of the files, as ``compute_digest`` reads them."""
    import memlab.datasets.scan as scan

    monkeypatch.setenv("MEMLAB_DATASET_CACHE", "0")  # the reads of a full load, not a kept one
    shipped = which == "shipped"
    path = load_dataset("agent-memory").path if shipped else request.getfixturevalue(which)
    expected = compute_digest(path)
    reread: list[str] = []
    sha256 = scan._sha256
    monkeypatch.setattr(
        scan, "_sha256", lambda d, rel: reread.append(str(d / rel)) or sha256(d, rel)
    )
    ds = load_dataset(path)
    assert ds.digest == expected and not validate_dataset(path).problems
    roots = tuple(f"{g.root}/" for g in ds.groups.values())
    scanned = [f"{g.root}/{rel}" for g in ds.groups.values() for rel in g.created_at]
    assert scanned and not [p for p in reread if p.startswith(roots)]
    assert reread  # the probe sees the files it does read (queries.jsonl, qrels, versions/)


def test_a_changed_memory_file_still_fails_the_digest(tiny: Path) -> None:
    md = sorted((tiny / "memory").rglob("*.md"))[0]
    md.write_text(md.read_text() + "\nchanged\n")
    report = validate_dataset(tiny)
    assert [p.kind for p in report.problems] == ["digest_mismatch"], report.format()

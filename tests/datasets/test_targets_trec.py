"""Targets, timestamps and TREC I/O."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from memlab.datasets import parse_target, read_qrels, read_run, span_target, write_qrels, write_run
from memlab.datasets.targets import fact_marker
from memlab.datasets.trec import decode_id, encode_id
from memlab.errors import DatasetError
from memlab.timefmt import format_iso, parse_iso


def test_parse_targets() -> None:
    assert parse_target("a/b.md").kind == "file"
    span = parse_target("a/b.md#L12-L20")
    assert (span.kind, span.path, span.start_line, span.end_line) == ("span", "a/b.md", 12, 20)
    one = parse_target("a/b.md#L7")
    assert (one.start_line, one.end_line) == (7, 7)
    fact = parse_target("fact:f017")
    assert (fact.kind, fact.fact) == ("fact", "f017")
    assert span_target("x.md", 3, 4) == "x.md#L3-L4"
    assert fact_marker("f1") == "<!-- fact:f1 -->"


@pytest.mark.parametrize(
    "bad",
    [
        "",
        " ",
        "a\nb.md",
        "/abs.md",
        "../up.md",
        "notes.txt",
        "a.md#L0-L2",
        "a.md#L5-L2",
        "fact:",
        "fact:-x",
        "a.md#12",
    ],
)
def test_bad_targets_say_why(bad: str) -> None:
    with pytest.raises(ValueError):
        parse_target(bad)


def test_targets_may_name_files_with_spaces() -> None:
    whole = parse_target("notes/my notes.md")
    assert (whole.kind, whole.path) == ("file", "notes/my notes.md")
    span = parse_target("notes/my #1 notes.md#L2-L3")
    assert (span.kind, span.path, span.start_line, span.end_line) == (
        "span",
        "notes/my #1 notes.md",
        2,
        3,
    )


@pytest.mark.parametrize(
    "text", ["my notes.md", "tab\there.md", "100% sure.md", "a%20b.md", "no-space.md", "全 角.md"]
)
def test_ids_round_trip_through_trec_columns(text: str) -> None:
    encoded = encode_id(text)
    assert not any(ch.isspace() for ch in encoded)
    assert decode_id(encoded) == text
    if "%" not in text and not any(ch.isspace() for ch in text):
        assert encoded == text  # plain ids are written as they are


def test_decode_keeps_escapes_memlab_never_writes() -> None:
    assert decode_id("a%41b%20c") == "a%41b c"


def test_qrels_and_runs_with_spaces_round_trip(tmp_path: Path) -> None:
    qrels = {"q 1": {"my notes.md#L1-L2": 2, "100% sure.md": 1}}
    write_qrels(tmp_path / "q.tsv", qrels)
    assert (tmp_path / "q.tsv").read_text().splitlines() == [
        "q%201\t0\tmy%20notes.md#L1-L2\t2",
        "q%201\t0\t100%25%20sure.md\t1",
    ]
    assert read_qrels(tmp_path / "q.tsv") == qrels
    write_run(tmp_path / "r.trec", {"q 1": {"my notes.md:0": 0.9}}, tag="t")
    assert (tmp_path / "r.trec").read_text() == "q%201 Q0 my%20notes.md:0 1 0.9 t\n"
    assert read_run(tmp_path / "r.trec") == {"q 1": {"my notes.md:0": 0.9}}
    with pytest.raises(DatasetError, match="empty"):
        write_run(tmp_path / "r.trec", {"q": {"": 1.0}})


def test_iso_round_trip_and_offsets() -> None:
    t = parse_iso("2026-06-30T18:00:00Z")
    assert format_iso(t) == "2026-06-30T18:00:00Z"
    assert parse_iso("2026-06-30T20:00:00+02:00") == t
    with pytest.raises(ValueError, match="no UTC offset"):
        parse_iso("2026-06-30T18:00:00")
    with pytest.raises(ValueError, match="ISO 8601"):
        parse_iso("30/06/2026")


def test_qrels_round_trip(tmp_path: Path) -> None:
    qrels = {"q1": {"a.md": 2, "fact:f1": 0}, "q2": {"b.md#L1-L3": 1}}
    path = tmp_path / "qrels.tsv"
    write_qrels(path, qrels)
    assert path.read_text() == "q1\t0\ta.md\t2\nq1\t0\tfact:f1\t0\nq2\t0\tb.md#L1-L3\t1\n"
    assert read_qrels(path) == qrels


def test_qrels_reports_every_bad_line(tmp_path: Path) -> None:
    path = tmp_path / "qrels.tsv"
    path.write_text("q1 0 a.md 1\nq1 0 a.md\nq2 0 b.md high\nq1 0 a.md 2\n")
    with pytest.raises(DatasetError) as err:
        read_qrels(path)
    assert len(err.value.problems) == 3
    assert "qrels.tsv:2" in err.value.problems[0] and "4 columns" in err.value.problems[0]
    assert "qrels.tsv:3" in err.value.problems[1]
    assert "qrels.tsv:4" in err.value.problems[2] and "twice" in err.value.problems[2]


def test_run_round_trip_ties_broken_by_doc_id(tmp_path: Path) -> None:
    path = tmp_path / "run.txt"
    write_run(path, {"q1": {"b": 0.5, "a": 0.5, "c": 0.9}}, tag="fts")
    assert path.read_text().splitlines() == [
        "q1 Q0 c 1 0.9 fts",
        "q1 Q0 a 2 0.5 fts",
        "q1 Q0 b 3 0.5 fts",
    ]
    assert list(read_run(path)["q1"]) == ["c", "a", "b"]
    write_run(path, {"q1": {"b": 0.5, "a": 0.5}}, sort=False)
    assert list(read_run(path)["q1"]) == ["b", "a"]


def test_run_refuses_nan_and_reports_bad_lines(tmp_path: Path) -> None:
    with pytest.raises(DatasetError, match="finite"):
        write_run(tmp_path / "r.txt", {"q": {"a": float("nan")}})
    path = tmp_path / "bad.txt"
    path.write_text("q1 Q0 a 1 0.5 t\nq1 Q0 b x 0.4 t\nq1 Q0 c 3 nan t\nshort line\n")
    with pytest.raises(DatasetError) as err:
        read_run(path)
    assert len(err.value.problems) == 3


def reference_check_path(path: str) -> str | None:
    """``check_path`` as first written, with pathlib (which drops empty and '.' segments)."""
    from pathlib import PurePosixPath

    if "\\" in path or path.startswith("/"):
        return f"'{path}' must be a relative POSIX path (forward slashes, no leading '/')"
    parts = PurePosixPath(path).parts
    if not parts or any(p in ("", ".", "..") for p in parts) or path.endswith("/"):
        return f"'{path}' must not contain '.', '..' or empty segments"
    if not path.endswith(".md"):
        return f"'{path}' is not a Markdown file (memory files end in .md)"
    return None


@settings(max_examples=2000)
@given(st.text(alphabet="/.\\amd\n\x00", max_size=12))
def test_check_path_agrees_with_pathlib(path: str) -> None:
    from memlab.datasets.targets import check_path

    assert check_path(path) == reference_check_path(path)


def test_check_path_on_known_paths() -> None:
    from memlab.datasets.targets import check_path

    for path in ["a.md", "ws/a.md", "a//b.md", "./a.md", "a/./b.md", ".md", "..md", "a..md"]:
        assert check_path(path) is None, path
    for path in ["", ".", "/a.md", "a/../b.md", "../a.md", "a/", "a.txt", "a\\b.md", "a.md/"]:
        assert check_path(path) is not None, path
    for text in ["a.md\n", "a\r.md", "a\x00.md", " ", ""]:
        with pytest.raises(ValueError, match="line break or NUL"):
            parse_target(text)

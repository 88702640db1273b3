"""The judgement files: fsynced appends, atomic rewrites, torn lines cut on resume,
the dataset's digest kept current."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from memlab.datasets import compute_digest, load_dataset, validate_dataset
from memlab.judging.journal import Journal, read_grades
from memlab.judging.judgement_files import append_lines, repair_tail
from memlab.judging.pool import read_pool
from memlab.safefs import Refused


def test_repair_tail(tmp_path: Path) -> None:
    f = tmp_path / "f.tsv"
    assert repair_tail(f) is None
    append_lines(f, ["a\t0\tx.md\t1", "b\t0\ty.md\t2"])
    assert repair_tail(f) is None
    with f.open("ab") as fh:
        fh.write(b"c\t0\tz.md#L1-L")  # what a kill in the middle of a write leaves
    assert repair_tail(f) == "c\t0\tz.md#L1-L"
    assert f.read_text() == "a\t0\tx.md\t1\nb\t0\ty.md\t2\n"
    f.write_bytes(b"torn")
    assert repair_tail(f) == "torn" and f.read_bytes() == b""


def test_judgement_files_must_be_regular_files(pooled: Path, tmp_path: Path) -> None:
    target = tmp_path / "elsewhere.tsv"
    target.write_text("keep\n")
    (pooled / "qrels.tsv").unlink()
    (pooled / "qrels.tsv").symlink_to(target)
    with pytest.raises(Refused, match="must be a regular file"):
        Journal.open(pooled, judge="a")
    fifo = tmp_path / "fifo.tsv"
    os.mkfifo(fifo)
    with pytest.raises(Refused, match="must be a regular file"):
        Journal.open(pooled, qrels=fifo, judge="a")
    assert target.read_text() == "keep\n"


def test_a_torn_line_is_cut_and_the_candidate_asked_again(pooled: Path) -> None:
    journal = Journal.open(pooled, judge="a")
    first = read_pool(pooled)["q1"][0]
    journal.record("q1", first.target, 2)
    second = read_pool(pooled)["q1"][1]
    with (pooled / "qrels.tsv").open("ab") as fh:
        fh.write(f"q1\t0\t{second.target}\t".encode())
    with (pooled / "judgements.jsonl").open("ab") as fh:
        fh.write(b'{"action": "gra')
    assert not validate_dataset(pooled).ok  # torn: the dataset does not load
    again = Journal.open(pooled, judge="a")
    assert len(again.repaired) == 2  # the digest is right again once the torn line is cut
    assert "qrels.tsv: cut a line torn" in again.repaired[0]
    assert again.grades == {"q1": {first.target: 2}}
    assert validate_dataset(pooled).ok
    for line in (pooled / "judgements.jsonl").read_text().splitlines():
        json.loads(line)


def test_the_digest_follows_every_write(pooled: Path) -> None:
    journal = Journal.open(pooled, judge="a")
    cands = read_pool(pooled)["q2"]
    journal.record("q2", cands[0].target, 1)
    journal.record("q2", cands[0].target, 2)  # a regrade: one line, rewritten
    journal.record_many("q2", [c.target for c in cands], 0)
    journal.mark_abstention("q3")
    journal.add_query({"query_id": "x1", "text": "added", "group": "billing-9c8b7a6d"})
    manifest = json.loads((pooled / "manifest.json").read_text())
    assert manifest["digest"] == compute_digest(pooled)
    ds = load_dataset(pooled)
    assert ds.qrels["q2"][cands[0].target] == 2
    assert all(ds.qrels["q2"][c.target] == 0 for c in cands[1:])
    assert ds.query("q3").abstention and ds.query("x1").text == "added"
    assert read_grades(pooled / "qrels.tsv") == {"q2": dict(ds.qrels["q2"])}


def test_a_killed_session_s_digest_says_to_judge_again(pooled: Path) -> None:
    """Issue 27, lower item: a judge killed between the qrels append and the digest
    update left "digest does not match" without a word about judging. The state is made
    deterministically: a grade appended without the digest update."""
    from memlab.errors import DatasetError

    target = read_pool(pooled)["q2"][0].target
    append_lines(pooled / "qrels.tsv", [f"q2\t0\t{target}\t1"])
    with pytest.raises(DatasetError) as info:
        load_dataset(pooled)
    assert f"run `memlab judge {pooled.resolve()}` again" in str(info.value)
    Journal.open(pooled, judge="a")  # what `memlab judge` does first
    assert load_dataset(pooled).qrels["q2"][target] == 1


def test_pool_files_are_read_as_untrusted_input(pooled: Path, tmp_path: Path) -> None:
    """pool.jsonl and pool.json come with a downloaded dataset too: a link out of the
    folder or a FIFO is refused in one line, nothing read."""
    from memlab.datasets.untrusted import DatasetFileRefused
    from memlab.judging.pool import read_settings

    secret = tmp_path / "secret.jsonl"
    secret.write_text('{"query_id": "q", "target": "the password is hunter2"}\n')
    (pooled / "pool.jsonl").unlink()
    os.symlink(secret, pooled / "pool.jsonl")
    (pooled / "pool.json").unlink()
    os.mkfifo(pooled / "pool.json")
    for read, name in ((read_pool, "pool.jsonl"), (read_settings, "pool.json")):
        with pytest.raises(DatasetFileRefused) as info:
            read(pooled)
        assert "\n" not in str(info.value) and name in str(info.value)
        assert "hunter2" not in str(info.value)

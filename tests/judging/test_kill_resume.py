"""``memlab judge`` killed with SIGKILL mid-session, then resumed: nothing saved is lost,
a torn line is cut, and judging continues with the next unjudged candidate."""

from __future__ import annotations

import random
import threading
from pathlib import Path

from memlab.datasets import load_dataset, validate_dataset
from memlab.judging.pool import read_pool
from tests.judging.driver import KEYS, Judge, shown_target


def test_kill_then_resume(pooled: Path) -> None:
    order = [c.target for cands in read_pool(pooled).values() for c in cands]
    first = Judge(pooled)
    for grade in (2, 0, 1):
        shown_target(first)
        first.expect(KEYS)
        first.send(str(grade))
        first.expect("saved:")  # printed after the grade is fsynced
    fourth = shown_target(first)
    first.expect(KEYS)
    first.kill()  # mid-session, waiting for the next key
    lines = (pooled / "qrels.tsv").read_text().splitlines()
    assert [line.split("\t")[2:] for line in lines] == [
        [order[0], "2"],
        [order[1], "0"],
        [order[2], "1"],
    ]
    # A kill in the middle of a write leaves a torn last line; cut from outside, the
    # same bytes a kill during os.write would leave:
    with (pooled / "qrels.tsv").open("ab") as fh:
        fh.write(f"q1\t0\t{fourth[:-3]}".encode())
    second = Judge(pooled)
    assert "qrels.tsv: cut a line torn" in second.expect("repaired:")
    assert shown_target(second) == fourth  # where it stopped
    while True:
        second.expect(KEYS)
        second.send("0")
        line = second.expect("saved:")
        if f" {len(order)}/{len(order)} candidates judged" in line:
            break
        shown_target(second)
    second.expect("everything is judged")
    second.send("")
    assert second.proc.wait(timeout=60) == 0
    assert validate_dataset(pooled).ok
    qrels = load_dataset(pooled).qrels
    assert sum(len(j) for j in qrels.values()) == len(order)
    assert qrels["q1"][order[0]] == 2


def test_a_kill_at_any_moment_of_a_grade(pooled: Path) -> None:
    """Killed right after a key, while the grade may be half written: on resume the
    dataset loads and holds the grade or not, never a broken line."""
    rng = random.Random(17)
    for round_ in range(2):
        before = len((pooled / "qrels.tsv").read_text().splitlines())
        judge = Judge(pooled)
        shown_target(judge)
        judge.expect(KEYS)
        judge.send("1")
        threading.Event().wait(rng.uniform(0.0, 0.02))
        judge.kill()
        resumed = Judge(pooled)
        resumed.expect(KEYS)
        resumed.send("q")
        assert resumed.proc.wait(timeout=60) == 0
        assert validate_dataset(pooled).ok, round_
        after = len((pooled / "qrels.tsv").read_text().splitlines())
        assert after in (before, before + 1)

"""``memlab compare`` with named configurations, a run from elsewhere, and memory files
whose names hold spaces (index, targets, ``--out``, TREC files read back by ranx)."""

from __future__ import annotations

from pathlib import Path

import pandas as pd
import pytest

from memlab.cli import main
from memlab.datasets import DatasetWriter, read_qrels, read_run
from memlab.timefmt import parse_iso
from tests.eval.conftest import write_eval_dataset
from tests.eval.test_trec_out import RANX, ranx_means

DAY = 86400.0
SPACED = "ws-1234abcd/sessions/my notes 2026-03-29.md"


def compare(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(["compare", *args, "--embedder", "hash", "--quiet"])
    out = capsys.readouterr()
    return code, out.out, out.err


@pytest.fixture(scope="module")
def dataset(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return write_eval_dataset(tmp_path_factory.mktemp("ds") / "evalmini")


def test_named_configurations_and_a_run_from_elsewhere(
    dataset: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    first = tmp_path / "first"
    code, _, _ = compare(capsys, str(dataset), "--runs", "fts,rrf", "--out", str(first))
    assert code == 0
    tuned = tmp_path / "tuned.yaml"
    tuned.write_text("half_life_days: 30\nmin_score: 0.1\n")
    out = tmp_path / "second"
    code, text, _ = compare(
        capsys,
        str(dataset),
        "--runs",
        f"fts,hybrid@grok-2026-08,mine={tuned}",
        "--run",
        f"theirs={first / 'runs' / 'rrf.trec'}",
        "--out",
        str(out),
    )
    assert code == 0
    aggregated = pd.read_csv(out / "aggregated.csv")
    assert list(dict.fromkeys(aggregated["run"])) == [
        "fts",
        "hybrid@grok-2026-08",
        "mine",
        "theirs",
    ]
    assert set(pd.read_csv(out / "compare.csv")["run"]) == {"hybrid@grok-2026-08", "mine", "theirs"}
    before = pd.read_csv(first / "aggregated.csv").set_index(["run", "measure"])["value"]
    after = aggregated.set_index(["run", "measure"])["value"]
    for measure in RANX:
        assert after[("theirs", measure)] == pytest.approx(before[("rrf", measure)])
    assert "theirs" in text and "mine" in text


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--run", "theirs"], "is not NAME=FILE"),
        (["--run", "theirs=missing.trec"], "does not exist"),
        (["--runs", "fts", "--run", "fts=README.md"], "named twice"),
    ],
)
def test_bad_runs_are_one_line(
    dataset: Path, capsys: pytest.CaptureFixture[str], args: list[str], message: str
) -> None:
    code, _, err = compare(capsys, str(dataset), *args)
    assert code == 2 and message in err and len(err.strip().splitlines()) == 1


def spaced_dataset(dest: Path) -> Path:
    t0 = parse_iso("2026-03-01T09:00:00Z")
    w = DatasetWriter(dest, name="spaces", licence="CC0-1.0", origin="tests", as_of=t0 + 30 * DAY)
    w.add_file("MEMORY.md", "# Prefs\n\n- Always run pytest with -q. <!-- fact:g1 -->\n", t0)
    w.add_file("ws-1234abcd/MEMORY.md", "# Shop\n\n- Dev server on port 8080.\n", t0)
    w.add_file(SPACED, "# Redis\n\n- Redis runs on port 6379.\n\n- Keys expire.\n", t0 + 28 * DAY)
    w.add_query("q-redis", "redis port", category="fact")
    w.judge("q-redis", SPACED, 2)
    w.add_query("q-keys", "keys expire", category="fact")
    w.judge("q-keys", f"{SPACED}#L5", 2)
    w.add_query("q-tests", "pytest", category="fact")
    w.judge("q-tests", "fact:g1", 2)
    return w.finish()


def test_a_file_name_with_a_space_end_to_end(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    ds = spaced_dataset(tmp_path / "spaced data")
    assert "my%20notes%202026-03-29.md" in (ds / "qrels.tsv").read_text()
    assert main(["dataset", "validate", str(ds)]) == 0
    out = tmp_path / "out dir"
    code, _, _ = compare(capsys, str(ds), "--runs", "fts,hybrid", "--out", str(out))
    assert code == 0
    qrels = read_qrels(out / "runs" / "fts.qrels")
    assert qrels["q-redis"] == {f"{SPACED}:0": 2}
    assert read_qrels(out / "runs" / "fts.file.qrels")["q-keys"] == {SPACED: 2}
    assert next(iter(read_run(out / "runs" / "fts.trec")["q-redis"])) == f"{SPACED}:0"
    agg = pd.read_csv(out / "aggregated.csv").set_index(["run", "measure"])["value"]
    assert agg[("fts", "R@5")] == 1.0
    for unit in ("chunk", "file"):
        assert ranx_means(out, "fts", unit)["R@5"] == 1.0

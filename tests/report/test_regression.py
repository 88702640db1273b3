"""A regression against a doctored baseline exits non-zero and names the metric."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from .conftest import Report, report


def test_doctored_baseline_is_a_regression(
    tiny_regression: Report, tiny_dataset: Path, tmp_path: Path
) -> None:
    assert tiny_regression.code == 0, tiny_regression.summary
    data = json.loads((tiny_regression.out / "baseline.json").read_text())
    entry = data["entries"]["regression/tiny"]
    real = entry["metrics"]["hybrid"]["nDCG@10"]
    entry["metrics"]["hybrid"]["nDCG@10"] = real + 0.2  # the baseline claims better numbers
    entry["metrics"]["fts"]["Redundancy"] -= 0.1  # … and less redundancy
    doctored = tmp_path / "doctored.json"
    doctored.write_text(json.dumps(data))

    run = report(
        tmp_path / "out",
        "--datasets",
        str(tiny_dataset),
        "--param",
        "embedder=hash",
        "--param",
        "runs=[fts, hybrid, mmr]",
        "--baseline",
        str(doctored),
    )
    assert run.code == 1
    lines = run.summary.splitlines()
    fails = [ln for ln in lines if ln.startswith("[FAIL]")]
    assert len(fails) == 2, run.summary
    assert fails[0].split()[1:3] == ["hybrid", "nDCG@10"] or fails[1].split()[1:3] == [
        "hybrid",
        "nDCG@10",
    ]
    assert any("regression: lower than the baseline" in ln for ln in fails)
    assert any("Redundancy" in ln and "higher than the baseline" in ln for ln in fails)
    # everything else passes and is not spelled out: one table row per run, marks only
    # on the two doctored cells
    assert [ln.split()[1] for ln in lines if ln.startswith("[OK]")] == ["regression/tiny"]
    header = next(i for i, ln in enumerate(lines) if ln.startswith("run "))
    rows = {ln.split()[0]: ln for ln in lines[header + 1 : header + 4]}
    assert set(rows) == {"fts", "hybrid", "mmr"}
    assert rows["fts"].count("✗") == rows["hybrid"].count("✗") == 1
    assert "✗" not in rows["mmr"]
    assert any(ln.startswith("deviations (2 of ") for ln in lines)
    assert lines[-1].startswith("result: FAIL — ")
    summary = run.data
    assert summary["ok"] is False
    assert summary["checks"][0]["key"] == "regression/tiny"
    # the notebook shows the same verdict
    executed = (tmp_path / "out" / "regression-tiny" / "regression.ipynb").read_text()
    assert "verdict: FAIL (2 of" in executed


def test_incomparable_baseline_is_refused(
    tiny_regression: Report, tiny_dataset: Path, tmp_path: Path
) -> None:
    data = json.loads((tiny_regression.out / "baseline.json").read_text())
    entry = data["entries"]["regression/tiny"]
    entry["manifest"]["embedder"]["id"] = "all-MiniLM-L6-v2"
    other = tmp_path / "other.json"
    other.write_text(json.dumps(data))
    from memlab.report.baseline import check_outputs

    folder = tiny_regression.out / "regression-tiny"
    result = check_outputs(folder, "regression/tiny", other)
    assert not result.ok
    assert result.incompatible == ["embedder.id: 'all-MiniLM-L6-v2' != 'hash-384'"]
    assert all("incomparable" in c.note for c in result.checks)


@pytest.mark.slow
def test_full_report_on_the_shipped_dataset(tmp_path: Path) -> None:
    """What `make report` runs: regression on agent-memory against the committed baseline."""
    run = report(tmp_path)
    assert run.code == 0, run.summary
    assert "regression/agent-memory against the baseline" in run.summary
    assert "[FAIL]" not in run.summary


# A default changed in the engine, planted in the notebook's kernel (fault injection):
# the default profile's candidate_multiplier 3 → 2.
PLANT = """import dataclasses
import memlab.config as mc
c0 = mc.PROFILES["grok-c0"]
mc.PROFILES["grok-c0"] = dataclasses.replace(
    c0, search=dataclasses.replace(c0.search, candidate_multiplier=2)
)"""


@pytest.mark.slow
def test_a_planted_default_change_fails_the_report_and_is_named(
    tiny_regression: Report, tiny_dataset: Path, tmp_path: Path
) -> None:
    """`memlab report` end to end over 2 of the baseline's 3 runs, the default changed."""
    import nbformat

    from memlab.report.shipped_paths import notebook_dir

    nb = nbformat.read(notebook_dir() / "regression.ipynb", as_version=4)
    setup = next(i for i, c in enumerate(nb.cells) if "wb.setup()" in c.source)
    nb.cells.insert(setup + 1, nbformat.v4.new_code_cell(PLANT))
    folder = tmp_path / "notebooks"
    folder.mkdir()
    nbformat.write(nb, str(folder / "regression.ipynb"))
    run = report(
        tmp_path / "out",
        "--notebook-dir",
        str(folder),
        "--datasets",
        str(tiny_dataset),
        "--param",
        "embedder=hash",
        "--param",
        "runs=[fts, hybrid]",
        "--baseline",
        str(tiny_regression.out / "baseline.json"),
    )
    assert run.code == 1, run.summary
    lines = run.summary.splitlines()
    named = [ln for ln in lines if "candidate_multiplier" in ln]
    assert named == [
        f"[FAIL] {r:<22} candidate_multiplier 3 → 2  (values not compared)"
        for r in ("fts", "hybrid")
    ]
    assert [ln for ln in lines if ln.startswith("not run")] == [
        "not run: mmr (1 of the baseline's 3 runs are not in these results; their values are "
        "not checked)"
    ]
    assert "missing from the results" not in run.summary
    changes = run.data["checks"][0]["config_changes"]
    assert [(c["run"], c["affected"], c["changes"]) for c in changes] == [
        (r, True, [{"key": "candidate_multiplier", "baseline": 3, "value": 2}])
        for r in ("fts", "hybrid")
    ]
    assert run.data["checks"][0]["not_run"] == ["mmr"]
    # the notebook's own check and the index page say the same
    executed = (tmp_path / "out" / "regression-tiny" / "regression.ipynb").read_text()
    assert "candidate_multiplier 3 → 2" in executed
    assert "candidate_multiplier 3 → 2" in (tmp_path / "out" / "index.html").read_text()

"""A measure family and a merge strategy added by a plugin module alone reach every
surface: ``--measures``, ``--runs``, ``--strategy``, their help, and the numbers."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from memlab.config import strategy_names
from memlab.eval.measures import MEASURE_FAMILIES
from memlab.plugins import load, named
from memlab.retrieval.strategies import STRATEGIES
from tests.eval.conftest import write_eval_dataset

ROOT = Path(__file__).resolve().parents[1]
PLUGIN = "tests.plugins.extra_rankers"


def memlab(*args: str, plugins: str = PLUGIN) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "MEMLAB_PLUGINS": plugins, "PYTHONPATH": str(ROOT)}
    return subprocess.run(
        [sys.executable, "-m", "memlab", *args],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
    )


def test_the_plugin_is_not_loaded_here() -> None:
    assert "Found" not in MEASURE_FAMILIES and "max" not in STRATEGIES
    assert tuple(STRATEGIES) == strategy_names()
    assert named(" a.b , ,c ") == ["a.b", "c"]


def test_a_plugin_measure_and_strategy_run_through_compare(tmp_path: Path) -> None:
    dataset = write_eval_dataset(tmp_path / "evalmini")
    out = tmp_path / "out"
    done = memlab(
        "compare",
        str(dataset),
        "--runs",
        "hybrid,max",
        "--measures",
        "Found@5,P@5,nDCG@10",
        "--embedder",
        "hash",
        "--quiet",
        "--out",
        str(out),
    )
    assert done.returncode == 0, done.stderr
    per_query = pd.read_csv(out / "perquery.csv")
    assert set(per_query["run"]) == {"hybrid", "max"}
    wide = per_query.pivot_table(index=["run", "query_id"], columns="measure", values="value")
    found, precision = wide["Found@5"].to_numpy(), wide["P@5"].to_numpy()
    assert np.nanmax(found) >= 1  # the plugin's measure counts real hits
    np.testing.assert_allclose(found, 5 * precision)  # Found@k = k · P@k, query by query
    helped = memlab("compare", "--help")
    assert "Found@k" in helped.stdout and "max" in helped.stdout


def test_a_plugin_strategy_is_a_search_option(tmp_path: Path) -> None:
    (tmp_path / "mem").mkdir()
    (tmp_path / "mem" / "MEMORY.md").write_text("# Notes\n\n- Redis keys expire after 300 s.\n")
    args = ["search", str(tmp_path / "mem"), "redis keys", "--embedder", "hash"]
    assert memlab(*args, "--strategy", "max").returncode == 0
    refused = memlab(*args, "--strategy", "maxx")
    assert refused.returncode == 2 and "max" in refused.stderr


def test_a_broken_plugin_is_one_line() -> None:
    done = memlab("--help", plugins="tests.plugins.no_such_module")
    assert done.returncode == 2
    assert done.stderr.count("\n") == 1 and "no_such_module" in done.stderr
    with pytest.raises(Exception, match="cannot be imported"):
        load("tests.plugins.no_such_module")

"""Running sweeps: the table, best with CIs, holdout gap, resume, Ctrl-C, plots."""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import matplotlib
import numpy as np
import pandas as pd
import pytest

from memlab.config import SearchConfig
from memlab.errors import ConfigError
from memlab.eval.replay.prepared import Prepared
from memlab.sweep import (
    Sweep,
    best,
    grid,
    plot_half_life,
    plot_heatmap,
    plot_lambda,
    read_results,
    run_points,
    run_sweep,
    split_queries,
)
from memlab.sweep.work import SweepWork

matplotlib.use("Agg")

SPACE: dict[str, Any] = {
    "half_life_days": [1, 30, None],
    "source_weights.session": [0.5, 1.0],
    "mmr.enabled": [True, False],
    "mmr.lambda": [0.5, 1.0],
    "strategy": ["grok", "rrf"],
}
MEASURES = ["nDCG@10", "R@5", "Redundancy"]


@pytest.fixture(scope="module")
def sweep(agent_memory: Prepared) -> Sweep:
    split = split_queries(agent_memory.dataset.queries, 0.3, seed=0)
    return Sweep(agent_memory, measures=MEASURES, split=split, base=SearchConfig(min_score=0.0))


def test_table_has_one_row_per_configuration(sweep: Sweep) -> None:
    result = run_sweep(sweep, SPACE, progress=False)
    t = result.table
    assert len(t) == 48 == result.evaluated == result.total
    assert list(t.columns[:6]) == ["config_hash", *SPACE]
    for m in MEASURES:
        assert {m, f"{m}:dev", f"{m}:holdout"} <= set(t.columns)
    assert t["config_hash"].is_unique and t["half_life_days"].isna().sum() == 16
    assert json.loads(t["overrides"][0]) == result.points[0].overrides
    assert t["nDCG@10"].between(0, 1).all() and t["nDCG@10"].nunique() > 5
    row = sweep.score(result.points[7].config)
    assert t.iloc[7]["nDCG@10:holdout"] == row["nDCG@10:holdout"]


def test_best_is_chosen_on_dev_and_reported_on_holdout(sweep: Sweep) -> None:
    result = run_sweep(sweep, SPACE, progress=False)
    top = best(result, "nDCG@10", 3)
    assert list(top["rank"]) == [1, 2, 3]
    assert top["dev"].is_monotonic_decreasing
    assert top["dev"].iloc[0] == result.table["nDCG@10:dev"].max()
    assert (top["gap"] == top["dev"] - top["holdout"]).all()
    assert (top["ci_low"] <= top["holdout"]).all() and (top["holdout"] <= top["ci_high"]).all()
    chosen = result.chosen("nDCG@10")
    assert chosen["config_hash"] == top["config_hash"].iloc[0]
    assert chosen["holdout"] == pytest.approx(sweep.score(chosen["config"])["nDCG@10:holdout"])
    assert "holdout" in result.summary()
    with pytest.raises(ConfigError, match="not computed"):
        result.best("MAP")


def test_long_form_on_request(sweep: Sweep) -> None:
    result = run_sweep(sweep, {"half_life_days": [7, None]}, progress=False)
    long = result.long()
    assert list(long.columns) == ["config_hash", "query_id", "category", "part", "measure", "value"]
    ndcg = long[(long["measure"] == "nDCG@10") & (long["part"] == "holdout")]
    means = ndcg.groupby("config_hash")["value"].mean()
    table = result.table.set_index("config_hash")["nDCG@10:holdout"]
    assert np.allclose(means[table.index], table)


def test_resume_skips_finished_configurations(sweep: Sweep, tmp_path: Path) -> None:
    first = run_sweep(sweep, configs=grid(SPACE, sweep.base)[3:5], out=tmp_path, progress=False)
    assert first.evaluated == 2
    again = run_sweep(sweep, SPACE, out=tmp_path, progress=False)
    assert (again.evaluated, again.resumed) == (46, 2)
    on_disk = read_results(tmp_path)
    assert len(on_disk) == 48 and on_disk["config_hash"].is_unique
    assert set(again.table["config_hash"]) == set(on_disk["config_hash"])
    third = run_sweep(sweep, SPACE, out=tmp_path, progress=False)
    assert (third.evaluated, third.resumed) == (0, 48)
    pd.testing.assert_frame_equal(
        third.table.drop(columns=list(SPACE)), again.table.drop(columns=list(SPACE))
    )


def interrupt_on_chunk(monkeypatch: pytest.MonkeyPatch, n: int) -> None:
    """Fault injection: Ctrl-C while the ``n``-th chunk of configurations is scored."""
    import memlab.sweep.fanout as parallel

    real = parallel.score_chunk
    calls = {"n": 0}

    def interrupting(work: SweepWork, configs: Sequence[SearchConfig]) -> Any:
        calls["n"] += 1
        if calls["n"] >= n:
            raise KeyboardInterrupt
        return real(work, configs)

    monkeypatch.setattr(parallel, "score_chunk", interrupting)


def test_ctrl_c_keeps_finished_work(
    sweep: Sweep, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    interrupt_on_chunk(monkeypatch, 2)
    partial = run_sweep(sweep, SPACE, out=tmp_path, progress=False, workers=1)
    done = len(partial.table)
    assert partial.interrupted and 0 < done < 48 and partial.total == 48
    assert len(read_results(tmp_path)) == done
    monkeypatch.undo()
    rest = run_sweep(sweep, SPACE, out=tmp_path, progress=False)
    assert (rest.evaluated, rest.resumed, rest.interrupted) == (48 - done, done, False)


def test_parallel_chunks_equal_one_process(sweep: Sweep, tmp_path: Path) -> None:
    one = run_sweep(sweep, SPACE, progress=False, workers=1)
    two = run_sweep(sweep, SPACE, out=tmp_path, progress=False, workers=2)
    pd.testing.assert_frame_equal(one.table, two.table)
    assert len(read_results(tmp_path)) == 48


def test_any_executor_runs_the_chunks(sweep: Sweep) -> None:
    from concurrent.futures import ThreadPoolExecutor

    points = grid(SPACE, sweep.base)
    one = run_points(sweep, points, progress=False, workers=1)
    with ThreadPoolExecutor(2) as pool:
        other = run_points(sweep, points, progress=False, executor=pool)
    pd.testing.assert_frame_equal(one.table, other.table)


def test_a_folder_of_another_sweep_is_refused(
    sweep: Sweep, agent_memory: Prepared, tmp_path: Path
) -> None:
    run_sweep(sweep, {"half_life_days": [7]}, out=tmp_path, progress=False)
    other = Sweep(agent_memory, measures=["RR"], split=sweep.split, base=sweep.base)
    with pytest.raises(ConfigError, match="other settings"):
        run_sweep(other, {"half_life_days": [7]}, out=tmp_path, progress=False)


def test_plots_return_figures(sweep: Sweep) -> None:
    table = run_sweep(sweep, SPACE, progress=False).table
    fig = plot_half_life(table, "nDCG@10")
    ax = fig.axes[0]
    assert len(ax.lines) == 4  # two mixes, each a curve and a no-decay level
    legend = ax.get_legend()
    assert legend is not None
    assert "session=0.5" in [t.get_text() for t in legend.get_texts()]
    fig = plot_heatmap(table, "half_life_days", "mmr.lambda", "R@5")
    labels = [t.get_text() for t in fig.axes[0].get_xticklabels()]
    assert labels == ["1", "30", "off"]
    fig = plot_lambda(table, "nDCG@10", "Redundancy")
    assert len(fig.axes) == 2 and fig.axes[1].get_ylabel() == "Redundancy"
    with pytest.raises(ConfigError, match="no column 'mmr.lambda'"):
        plot_lambda(table.drop(columns=["mmr.lambda"]))


def test_user_mistakes_are_memlab_errors(sweep: Sweep) -> None:
    """run_sweep rejects bad input with a ConfigError (one line, exit 2 in the CLI)."""
    with pytest.raises(ConfigError, match="not both"):
        run_sweep(sweep, {"min_score": [0.1]}, configs=[SearchConfig()], progress=False)
    with pytest.raises(ConfigError, match="give a space"):
        run_sweep(sweep, progress=False)
    with pytest.raises(ConfigError, match="unknown part 'test'"):
        sweep.split.mask(["q"], "test")

"""The decision's warnings: one test each, on the numbers that trigger it, and through
``decide`` on a tiny dataset (5 queries) where they must fire."""

from __future__ import annotations

import math

import numpy as np

from memlab.eval.replay.prepared import Prepared
from memlab.sweep import ChoiceRule, SweepOptions, run_sweep
from memlab.sweep import caveats as checks
from memlab.sweep.honest import paired_gain


def test_a_holdout_under_30_scored_queries_is_flagged() -> None:
    assert "12 queries scored (fewer than 30)" in (checks.small_holdout(12, True) or "")
    assert checks.small_holdout(30, True) is None
    assert "no holdout" in (checks.small_holdout(0, False) or "")


def test_ties_at_the_top_are_flagged() -> None:
    text = checks.tied_top(4, 1.0, "nDCG@10")
    assert text is not None and text.startswith("4 configurations tie at the top")
    assert "the base is one of them and is kept" in (checks.tied_top(2, 1, "RR", True) or "")
    assert checks.tied_top(1, 1.0, "nDCG@10") is None


def test_a_chosen_value_on_the_edge_of_its_axis_asks_to_extend_the_grid() -> None:
    axes = {
        "min_score": [0.2, 0.35, 0.5],
        "half_life_days": [1, 7, 30, None],
        "mmr.lambda": [0.5, 1.0],
        "source_weights.session": [0.5, 1.0],
        "strategy": ["grok", "rrf"],
    }
    chosen = {
        "min_score": 0.2,
        "half_life_days": 30,
        "mmr.lambda": 1.0,
        "source_weights.session": 1.0,
        "strategy": "rrf",
    }
    found = checks.grid_edges(chosen, axes)
    assert found == [
        "min_score = 0.2 is the lowest value of its grid axis (0.2, 0.35, 0.5): the best may "
        "lie below it; extend the grid (e.g. add 0.05)",
        "source_weights.session = 1 is the highest value of its grid axis (0.5, 1): the best "
        "may lie above it; extend the grid (e.g. add 1.5)",
    ]  # 30 days: no decay (null) lies beyond; λ 1 is λ's own bound; strategy: no order
    low = checks.grid_edges({"half_life_days": 1}, {"half_life_days": [1, 7, 30]})
    assert low and low[0].endswith("(e.g. add 0.5)")  # never a half-life of 0 (no decay)
    top = checks.grid_edges({"half_life_days": 30}, {"half_life_days": [1, 7, 30]})
    assert top and "highest value" in top[0]
    assert checks.grid_edges({"min_score": 0.0}, {"min_score": [0.0, 0.2]}) == []


def test_all_tied_queries_make_the_power_undefined_not_zero() -> None:
    values = np.array([1.0, 0.5, 0.0, 1.0])
    gain = paired_gain("nDCG@10", values, values.copy(), np.ones(4, dtype=bool))
    assert gain.all_tied and gain.mde is None and gain.diff == 0.0
    text = checks.all_tied(gain, same=False)
    assert text is not None and "undefined (not an MDE of 0)" in text
    assert checks.all_tied(gain, same=True) is None  # the rule kept the base: nothing to test
    shifted = values + np.array([0.1, 0, 0, 0])
    other = paired_gain("nDCG@10", values, shifted, np.ones(4, dtype=bool))
    assert not other.all_tied and other.mde is not None and other.mde > 0
    assert checks.all_tied(other, same=False) is None


def test_a_gain_whose_ci_includes_zero_is_flagged() -> None:
    rng = np.random.default_rng(1)
    a = rng.random(60)
    noisy = paired_gain("RR", a, a + rng.normal(0, 0.2, 60), np.ones(60, dtype=bool))
    assert noisy.ci[0] < 0 < noisy.ci[1]
    assert "includes 0" in (checks.gain_unclear(noisy, same=False) or "")
    clear = paired_gain("RR", a, a + 0.1 + rng.normal(0, 0.01, 60), np.ones(60, dtype=bool))
    assert clear.ci[0] > 0 and checks.gain_unclear(clear, same=False) is None


def test_costs_held_on_dev_but_not_on_holdout_are_flagged() -> None:
    caps = {"AbstainHits": 2.1, "Tokens": 315.0}
    base = {"AbstainHits": 2.0, "Tokens": 300.0}
    over = checks.holdout_costs(caps, base, {"AbstainHits": 2.5, "Tokens": 310.0}, 0.05, {})
    assert len(over) == 1 and over[0].startswith(
        "on holdout the chosen configuration's AbstainHits"
    )
    assert checks.holdout_costs(caps, base, {"AbstainHits": 2.0, "Tokens": 1.0}, 0.05, {}) == []
    explicit = checks.holdout_costs(
        {"Tokens": 400.0}, base, {"Tokens": 390.0}, 0.05, {"Tokens": True}
    )
    assert explicit == []  # an absolute cap is the same on holdout
    assert "no dev query measures AbstainHits" in checks.uncapped({"AbstainHits": math.nan})[0]


def test_the_warnings_fire_on_a_tiny_memory(evalmini: Prepared) -> None:
    """Five queries, one of them an abstention: a holdout of 2, ties, the abstention
    query in the holdout (so nothing on dev measures false hits)."""
    space = {"half_life_days": [1, 7, 30, None], "min_score": [0.0, 0.2, 0.35]}
    result = run_sweep(evalmini, space, SweepOptions(holdout=0.4), progress=False)
    decision = result.decide(splits=2)
    text = "\n".join(decision.warnings)
    assert "(fewer than 30)" in text
    assert "configurations tie at the top" in text
    assert "no dev query measures AbstainHits" in text
    assert decision.keeps_base  # tied with the base: no change without evidence
    quality = result.decide(ChoiceRule.parse("quality"), splits=0)
    assert not quality.keeps_base and quality.resplits is None
    assert any("(fewer than 30)" in w for w in quality.warnings)

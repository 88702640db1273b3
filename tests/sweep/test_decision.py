"""A sweep's decision on the shipped dataset (137 abstention queries): the default rule,
base beside chosen, the holdout gain and the optimism over repeated splits."""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pytest

from memlab.config import profile
from memlab.eval.replay.prepared import Prepared
from memlab.eval.stats import paired as stats
from memlab.sweep import ChoiceRule, Decision, Sweep, SweepResult, run_sweep, split_queries
from memlab.sweep.decision_text import decision_markdown, decision_text

SPACE = {"half_life_days": [7.0, 90.0], "min_score": [0.2, 0.35, 0.5]}


@pytest.fixture(scope="module")
def result(agent_memory: Prepared) -> SweepResult:
    split = split_queries(agent_memory.dataset.queries, 0.3, seed=0)
    engine = Sweep(agent_memory, split=split, base=profile("grok-c0").search)
    return run_sweep(engine, SPACE, progress=False)


@pytest.fixture(scope="module")
def decision(result: SweepResult) -> Decision:
    return result.decide(splits=3)


def dev(d: Decision, i: int, measure: str) -> float:
    return float(d.candidates.iloc[i][f"{measure}:dev"])


def test_a_winner_by_false_hits_is_not_the_default_choice(
    result: SweepResult, decision: Decision
) -> None:
    free = result.decide(ChoiceRule.parse("quality"), splits=0)
    base = decision.base
    assert free.point.overrides == {"half_life_days": 90.0, "min_score": 0.2}
    # it wins on quality, and returns far more false hits and tokens than the base
    assert dev(free, free.chosen, "nDCG@10") > dev(free, base, "nDCG@10") + 0.05
    assert dev(free, free.chosen, "AbstainHits") > 2 * dev(free, base, "AbstainHits")
    assert dev(free, free.chosen, "Tokens") > 2 * dev(free, base, "Tokens")
    # the default rule: within 5 % of the base's costs, and not that configuration
    assert decision.rule.objective == "constrained" and decision.rule.tolerance == 0.05
    assert decision.point.key != free.point.key
    for cost in ("AbstainHits", "Tokens"):
        assert dev(decision, decision.chosen, cost) <= 1.05 * dev(decision, base, cost) + 1e-12
    assert dev(decision, decision.chosen, "nDCG@10") > dev(decision, base, "nDCG@10")
    assert not decision.choice.eligible[free.chosen]
    assert decision.rule_text.startswith("the best nDCG@10 on dev among the configurations")
    docs = (Path(__file__).resolve().parents[2] / "docs" / "decide.md").read_text()
    docs = " ".join(docs.split())
    assert f"`rule: {decision.rule_text}`" in docs  # the example the docs quote


def test_every_row_carries_quality_and_costs(result: SweepResult) -> None:
    for m in ("nDCG@10", "AbstainHits", "Tokens", "Hits"):
        for part in ("", ":dev", ":holdout"):
            assert result.table[f"{m}{part}"].notna().all(), (m, part)
    assert result.base_scores is not None and result.base_scores["Hits"] > 0


def test_the_base_row_is_the_base_profile_scored_beside_the_winner(
    result: SweepResult, decision: Decision
) -> None:
    assert result.sweep is not None
    scores = result.sweep.score(result.sweep.base)
    wide = decision.side_by_side().set_index("")
    assert wide.loc["base", "nDCG@10 holdout"] == pytest.approx(scores["nDCG@10:holdout"])
    assert wide.loc["base", "Tokens dev"] == pytest.approx(scores["Tokens:dev"])
    chosen = result.sweep.score(decision.point.config)
    assert wide.loc["chosen", "AbstainHits holdout"] == pytest.approx(chosen["AbstainHits:holdout"])


def test_the_gain_is_the_paired_difference_on_holdout(
    result: SweepResult, decision: Decision
) -> None:
    sweep = result.sweep
    assert sweep is not None
    a = sweep.per_query(sweep.base)["nDCG@10"]
    b = sweep.per_query(decision.point.config)["nDCG@10"]
    held = result.split.mask(sweep.query_ids, "holdout") & ~np.isnan(a)
    d = b[held] - a[held]
    g = decision.gain
    assert g.n == held.sum() and g.diff == pytest.approx(d.mean())
    assert g.ci == stats.bootstrap_ci(d, 2000, seed=0)
    assert g.p == pytest.approx(stats.paired_t(a[held], b[held]))
    assert g.wins + g.ties + g.losses == g.n and g.mde is not None and g.mde > 0


def test_repeated_splits_choose_as_a_sweep_on_that_split_would(
    agent_memory: Prepared, result: SweepResult, decision: Decision
) -> None:
    r = decision.resplits
    assert r is not None and list(r.table["seed"]) == [1, 2, 3]
    assert r.optimism == pytest.approx((r.table["dev gain"] - r.table["holdout gain"]).mean())
    seed = 2
    split = split_queries(agent_memory.dataset.queries, 0.3, seed=seed)
    other = run_sweep(
        Sweep(agent_memory, split=split, base=profile("grok-c0").search), SPACE, progress=False
    ).decide(splits=0)
    row = r.table.set_index("seed").loc[seed]
    assert decision.points[int(row["chosen"])].key == other.point.key
    base, chosen = other.candidates.iloc[other.base], other.candidates.iloc[other.chosen]
    held = float(chosen["nDCG@10:holdout"] - base["nDCG@10:holdout"])
    assert row["holdout gain"] == pytest.approx(held)


def test_the_fronts_hold_no_dominated_configuration(decision: Decision) -> None:
    q = decision.candidates["nDCG@10:dev"].to_numpy()
    for cost, front in decision.fronts.items():
        c = decision.candidates[f"{cost}:dev"].to_numpy()
        for i in front:
            assert not np.any((q > q[i]) & (c <= c[i])), cost
        assert decision.chosen in front or not decision.choice.eligible.all()


def test_the_text_and_the_markdown_say_the_rule_the_gain_and_the_warnings(
    decision: Decision,
) -> None:
    text = decision_text(decision)
    assert text.startswith(f"rule: {decision.rule_text}")
    assert "base vs chosen" in text and "gain over the base on holdout" in text
    assert "Pareto front: nDCG@10 against AbstainHits (dev)" in text
    assert "chosen again on 3 other splits" in text
    for w in decision.warnings:
        assert f"warning: {w}" in text
    md = decision_markdown(decision, reproduce="memlab compare …")
    assert md.startswith("# Sweep decision\n\n## Rule\n") and "## Warnings" in md
    assert "## Reproduce" in md and re.search(r"\| AbstainHits dev +\|", md)

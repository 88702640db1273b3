"""The choice rule and the Pareto front, on tables made by hand (pure, fast)."""

from __future__ import annotations

import math
import re

import numpy as np
import pandas as pd
import pytest

from memlab.errors import ConfigError
from memlab.sweep.choice import ChoiceRule, choose, format_utility, pareto_front, parse_utility


def column(measure: str) -> str:
    return f"{measure}:dev"


def table(rows: list[tuple[float, float, float]]) -> pd.DataFrame:
    """Rows of (nDCG@10, AbstainHits, Tokens) on dev; row 0 is the base."""
    return pd.DataFrame(
        {
            "nDCG@10:dev": [r[0] for r in rows],
            "AbstainHits:dev": [r[1] for r in rows],
            "Tokens:dev": [r[2] for r in rows],
        }
    )


# base; a small honest gain; a bigger gain bought with false hits; one with tokens
ROWS = [(0.50, 2.0, 300.0), (0.52, 2.05, 310.0), (0.60, 5.0, 320.0), (0.58, 2.0, 700.0)]


def test_a_gain_bought_with_false_hits_is_not_the_default_choice() -> None:
    frame = table(ROWS)
    default = choose(frame, ChoiceRule(), 0, column)
    assert default.chosen == 1  # within 5 % of the base's AbstainHits and Tokens
    assert default.caps == {"AbstainHits": pytest.approx(2.1), "Tokens": pytest.approx(315.0)}
    assert list(default.eligible) == [True, True, False, False]
    unconstrained = choose(frame, ChoiceRule.parse("quality"), 0, column)
    assert unconstrained.chosen == 2 and unconstrained.eligible.all()


def test_explicit_caps_and_tolerance_change_the_rule() -> None:
    frame = table(ROWS)
    loose = ChoiceRule(tolerance=1.5)  # AbstainHits ≤ 5.0, Tokens ≤ 750
    assert choose(frame, loose, 0, column).chosen == 2
    capped = ChoiceRule.parse("constrained", max_tokens=800, max_abstain_hits=2.0)
    assert choose(frame, capped, 0, column).chosen == 3  # 2.0 hits, 700 tokens
    only_tokens = ChoiceRule.parse("quality", max_tokens=400)
    assert only_tokens.capped == ["Tokens"]
    assert choose(frame, only_tokens, 0, column).chosen == 2
    with pytest.raises(ConfigError, match="no configuration meets the rule"):
        choose(frame, ChoiceRule.parse("quality", max_tokens=10), 0, column)


def test_the_rule_says_what_it_does() -> None:
    base = {"AbstainHits": 2.0, "Tokens": 300.0}
    text = ChoiceRule().describe(base)
    assert text == (
        "the best nDCG@10 on dev among the configurations with AbstainHits ≤ 2.1 "
        "(the base's 2 + 5%) and Tokens ≤ 315 (the base's 300 + 5%)"
    )
    assert ChoiceRule.parse("quality").describe({}).endswith("whatever it costs (unconstrained)")
    nan = ChoiceRule().describe({"AbstainHits": math.nan, "Tokens": 300.0})
    assert "AbstainHits not capped (no query on dev measures it)" in nan
    assert "Tokens ≤ 7" in ChoiceRule.parse("quality", max_tokens=7).describe({})


def test_a_utility_weighs_quality_against_costs() -> None:
    terms = parse_utility("nDCG@10 - 0.05*AbstainHits - 2e-4*Tokens")
    assert terms == (("nDCG@10", 1.0), ("AbstainHits", -0.05), ("Tokens", -0.0002))
    assert format_utility(terms) == "nDCG@10 - 0.05*AbstainHits - 0.0002*Tokens"
    assert parse_utility("alpha-nDCG@10 + RR") == (("alpha-nDCG@10", 1.0), ("RR", 1.0))
    rule = ChoiceRule.parse("nDCG@10 - 0.05*AbstainHits - 2e-4*Tokens")
    assert rule.objective == "utility" and rule.capped == []
    scores = rule.score(table(ROWS), column)
    assert scores.tolist() == pytest.approx([0.34, 0.3555, 0.286, 0.34])
    assert choose(table(ROWS), rule, 0, column).chosen == 1


@pytest.mark.parametrize(
    ("objective", "message"),
    [
        ("constrainedd", "did you mean 'constrained'?"),
        ("nDCG@10 -0.05*AbstainHits", "spaces around + and -"),
        ("nDCG@10 - 0.1*Tokns", "unknown measure 'Tokns'"),
        ("", "unknown objective"),
    ],
)
def test_bad_objectives_say_what_to_write(objective: str, message: str) -> None:
    with pytest.raises(ConfigError, match=re.escape(message)):
        ChoiceRule.parse(objective)


def test_bad_caps_and_tolerances_are_refused() -> None:
    with pytest.raises(ConfigError, match="share >= 0"):
        ChoiceRule.parse(tolerance=-0.1)
    with pytest.raises(ConfigError, match="--max-tokens"):
        ChoiceRule.parse(max_tokens=math.inf)


def test_ties_at_the_top_are_all_reported_and_the_first_taken() -> None:
    frame = table([(0.5, 1.0, 10.0), (0.7, 1.0, 10.0), (0.7, 1.0, 10.0), (0.7, 1.0, 9.0)])
    choice = choose(frame, ChoiceRule(), 0, column)
    assert choice.chosen == 1 and choice.tied == [1, 2, 3]
    frame.loc[0, "nDCG@10:dev"] = 0.7  # the base ties too: no change without evidence
    assert choose(frame, ChoiceRule(), 0, column).chosen == 0


def brute_front(q: np.ndarray, c: np.ndarray) -> set[int]:
    out = set()
    for i in range(len(q)):
        dominated = any(
            (q[j] >= q[i] and c[j] <= c[i]) and (q[j] > q[i] or c[j] < c[i]) for j in range(len(q))
        )
        if not dominated:
            out.add(i)
    return out


def test_the_front_is_the_set_of_undominated_rows() -> None:
    rng = np.random.default_rng(7)
    for _ in range(50):
        n = int(rng.integers(1, 40))
        q = np.round(rng.random(n), 2)  # rounding makes ties on both axes
        c = np.round(rng.random(n) * 10, 1)
        front = pareto_front(q, c)
        assert c[front].tolist() == sorted(c[front].tolist())
        last = n - 1
        preferred = pareto_front(q, c, prefer=(last,))
        if last in brute_front(q, c):
            assert last in preferred  # a preferred row wins a tie on both axes
        expected = brute_front(q, c)
        # of rows equal on both axes only the first is kept
        firsts = {min(j for j in expected if (q[j], c[j]) == (q[i], c[i])) for i in expected}
        assert set(front) == firsts
    assert pareto_front([0.5, math.nan], [1.0, 0.5]) == [0]

"""Cohen's κ, computed by hand on small tables."""

from __future__ import annotations

import pytest

from memlab.judging.agreement import agreement, cohen_kappa


def test_kappa_by_hand() -> None:
    # 10 items: both say 1 on 4, both 0 on 3, (1, 0) on 2, (0, 1) on 1
    pairs = [(1, 1)] * 4 + [(0, 0)] * 3 + [(1, 0)] * 2 + [(0, 1)]
    # p_o = 0.7; first: six 1s, four 0s; second: five 1s, five 0s
    # p_e = 0.6·0.5 + 0.4·0.5 = 0.5; κ = (0.7 − 0.5) / 0.5 = 0.4
    assert cohen_kappa(pairs) == pytest.approx(0.4)
    assert cohen_kappa([(2, 2), (0, 0), (1, 1)]) == pytest.approx(1.0)
    assert cohen_kappa([(2, 0), (0, 2)]) == pytest.approx(-1.0)
    assert cohen_kappa([(1, 1), (1, 1)]) is None  # one grade throughout: undefined
    assert cohen_kappa([]) is None


def test_agreement_on_what_both_judged() -> None:
    a = {"q1": {"x": 2, "y": 0, "z": 1}, "q2": {"u": 0}}
    b = {"q1": {"x": 2, "y": 1}, "q2": {"u": 0, "v": 2}}
    result = agreement(a, b)
    assert (result.items, result.only_first, result.only_second) == (3, 1, 1)
    assert result.observed == pytest.approx(2 / 3)
    # graded: pairs (2,2), (0,1), (0,0); relevant-or-not: (1,1), (0,1), (0,0)
    assert result.kappa == pytest.approx(cohen_kappa([(2, 2), (0, 1), (0, 0)]))
    assert result.kappa_relevant == pytest.approx(cohen_kappa([(1, 1), (0, 1), (0, 0)]))
    assert "over 3 judgements both made" in result.text()

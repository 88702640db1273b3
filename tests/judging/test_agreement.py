"""Cohen's κ, computed by hand on small tables and against the references."""

from __future__ import annotations

import numpy as np
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


def kappa_by_hand(pairs: list[tuple[int, int]]) -> float | None:
    """(p_o - p_e) / (1 - p_e) from the two judges' grade counts (the code before
    statsmodels)."""
    from collections import Counter

    n = len(pairs)
    observed = sum(a == b for a, b in pairs) / n
    first, second = Counter(a for a, _ in pairs), Counter(b for _, b in pairs)
    expected = sum(first[c] * second[c] for c in first) / (n * n)
    return None if expected >= 1.0 else (observed - expected) / (1.0 - expected)


def graded_pairs() -> list[list[tuple[int, int]]]:
    rng = np.random.default_rng(0)
    cases: list[list[tuple[int, int]]] = [
        [(0, 0), (0, 1), (0, 0), (0, 0)],  # one judge used one grade only
        [(1, 0), (1, 0)],  # each judge one grade, different: κ 0
        [(2, 2)] * 5 + [(0, 0)] * 5,  # perfect, with ties
        [(0, 0)] * 8 + [(1, 1)] + [(0, 1)],  # mostly tied on 0
    ]
    for n in (3, 10, 60):
        for grades in (2, 3):
            a, b = rng.integers(0, grades, n), rng.integers(0, grades, n)
            b = np.where(rng.random(n) < 0.5, a, b)  # half agree by construction
            cases.append([(int(x), int(y)) for x, y in zip(a, b, strict=True)])
    return cases


def test_kappa_matches_the_formula_and_sklearn() -> None:
    sklearn_metrics = pytest.importorskip("sklearn.metrics")  # installed, not a dependency
    for pairs in graded_pairs():
        ours, hand = cohen_kappa(pairs), kappa_by_hand(pairs)
        assert ours is not None and hand is not None
        assert ours == pytest.approx(hand, abs=1e-12)
        first, second = zip(*pairs, strict=True)
        assert ours == pytest.approx(sklearn_metrics.cohen_kappa_score(first, second), abs=1e-12)


def test_kappa_undefined_when_every_grade_is_one_and_the_same() -> None:
    for pairs in ([(0, 0)] * 6, [(2, 2)], [(1, 1)] * 3):
        assert cohen_kappa(pairs) is None and kappa_by_hand(pairs) is None

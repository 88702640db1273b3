"""MMR golden cases (SPEC §5, §10) and properties."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from memlab.retrieval.mmr import mmr_order, mmr_rerank
from memlab.text import jaccard, snippet_tokens


def test_golden_rust_python() -> None:
    snippets = [
        "rust async programming patterns",
        "rust async programming tutorial",
        "python web framework flask",
    ]
    assert mmr_rerank(snippets, [1.0, 0.95, 0.9], 0.5) == [0, 2, 1]


def test_golden_identical_content() -> None:
    snippets = ["exact same content here", "exact same content here", "completely different topic"]
    assert mmr_rerank(snippets, [1.0, 0.99, 0.5], 0.5)[:2] == [0, 2]


def test_golden_case_only_differences_are_redundant() -> None:
    snippets = ["Rust Async Programming", "rust async programming", "Python Web Framework"]
    assert mmr_rerank(snippets, [1.0, 0.95, 0.9], 0.5) == [0, 2, 1]


def test_golden_relevance_is_raw_not_clamped() -> None:
    # Both would display as 1.0 after clamping; the raw 1.25 must come first.
    assert mmr_rerank(["alpha beta", "gamma delta"], [1.0, 1.25], 0.7)[0] == 1


def test_golden_jaccard() -> None:
    assert jaccard(frozenset("abc"), frozenset("bcd")) == 0.5
    assert jaccard(frozenset(), frozenset()) == 1.0
    assert jaccard(frozenset("a"), frozenset()) == 0.0


def test_tokens_are_a_lowercase_set_without_stopword_removal() -> None:
    assert snippet_tokens("The the, API-key x") == frozenset({"the", "api", "key", "x"})


def test_all_equal_relevance_normalises_to_zero_so_diversity_decides() -> None:
    order = mmr_rerank(["a b c", "a b c", "x y z"], [0.5, 0.5, 0.5], 0.7)
    assert order == [0, 2, 1]


@settings(max_examples=200)
@given(st.lists(st.floats(-2, 2), min_size=0, max_size=12), st.integers(0, 2**31))
def test_lambda_one_is_identity(scores: list[float], seed: int) -> None:
    rng = np.random.default_rng(seed)
    n = len(scores)
    sim = rng.random((n, n))
    assert mmr_order(np.array(scores), (sim + sim.T) / 2, 1.0) == list(range(n))


@settings(max_examples=200)
@given(st.lists(st.floats(-2, 2), min_size=0, max_size=12), st.floats(-1, 2))
def test_mmr_is_a_permutation(scores: list[float], lam: float) -> None:
    n = len(scores)
    order = mmr_order(np.array(scores), np.eye(n), lam)
    assert sorted(order) == list(range(n))


def test_lambda_is_clamped() -> None:
    assert mmr_order(np.array([1.0, 0.5]), np.eye(2), 7.0) == [0, 1]

"""Golden cases of SPEC §10 for the pure scoring functions, and their properties."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from memlab.retrieval.content import is_content_free
from memlab.retrieval.scoring import (
    EPS,
    access_boost,
    decay_factor,
    fts_minmax,
    merge_with_fts_floor,
    vector_from_l2,
)

DAY = 86400.0


def _fts(ranks: list[float]) -> list[float]:
    r = np.array(ranks)
    seg = np.zeros(len(r), dtype=np.int64)
    return list(fts_minmax(r, np.ones(len(r), bool), seg, 1))


def test_fts_normalisation_golden() -> None:
    assert _fts([-3.0, -2.0, -1.0]) == [1.0, 0.5, 0.0]
    assert _fts([-7.5]) == [1.0]
    assert _fts([-2.0, -2.0]) == [1.0, 1.0]
    assert np.finfo(np.float64).eps == EPS


def test_fts_normalisation_is_per_query() -> None:
    r = np.array([-3.0, -1.0, -10.0, -5.0])
    seg = np.array([0, 0, 1, 1])
    out = fts_minmax(r, np.ones(4, bool), seg, 2)
    assert list(out) == [1.0, 0.0, 1.0, 0.0]


def test_absent_fts_is_zero() -> None:
    r = np.array([-3.0, np.nan, -1.0])
    out = fts_minmax(r, np.array([True, False, True]), np.zeros(3, np.int64), 1)
    assert list(out) == [1.0, 0.0, 0.0]


@pytest.mark.parametrize(
    ("fts", "vec", "expected"),
    [(1.0, 0.9, 1.0), (0.5, 0.9, 0.78), (0.0, 0.9, 0.63), (0.5, 0.0, 0.5)],
)
def test_merge_golden(fts: float, vec: float, expected: float) -> None:
    out = merge_with_fts_floor(np.array([fts]), np.array([vec]), 0.7, 0.3)
    assert out[0] == pytest.approx(expected, abs=1e-12)


def test_vector_score_golden() -> None:
    d = np.array([0.2, 2.5, 0.0, np.nan])
    out = vector_from_l2(d, np.array([True, True, True, False]))
    assert list(out) == [pytest.approx(0.9), 0.0, 1.0, 0.0]


@settings(max_examples=300)
@given(st.floats(0, 1), st.floats(0, 1), st.floats(0, 5), st.floats(0, 5))
def test_merged_never_below_fts(fts: float, vec: float, vw: float, tw: float) -> None:
    merged = merge_with_fts_floor(np.array([fts]), np.array([vec]), vw, tw)[0]
    if fts > 0:
        assert merged >= fts


@pytest.mark.parametrize(("age_days", "expected"), [(30, 0.5), (60, 0.25), (-5, 1.0), (0, 1.0)])
def test_decay_golden(age_days: float, expected: float) -> None:
    now = 1_000 * DAY
    out = decay_factor(np.array([now - age_days * DAY]), np.array([now]), 30.0, np.array([False]))
    assert out[0] == pytest.approx(expected)


@pytest.mark.parametrize("half_life", [0.0, -3.0, None])
def test_no_half_life_means_no_decay(half_life: float | None) -> None:
    out = decay_factor(np.array([0.0]), np.array([1e9]), half_life, np.array([False]))
    assert out[0] == 1.0


def test_evergreen_never_decays() -> None:
    out = decay_factor(np.array([0.0, 0.0]), np.array([1e9, 1e9]), 30.0, np.array([True, False]))
    assert out[0] == 1.0 and out[1] < 1e-6


def test_negative_created_at_counts_from_epoch() -> None:
    a = decay_factor(np.array([-500.0]), np.array([30 * DAY]), 30.0, np.array([False]))
    assert a[0] == pytest.approx(0.5)


@settings(max_examples=200)
@given(st.floats(0, 5000), st.floats(0, 5000), st.floats(0.1, 400))
def test_decay_is_monotone_in_age(a: float, b: float, half: float) -> None:
    now = 10_000 * DAY
    young, old = sorted([a, b])
    out = decay_factor(
        np.array([now - young * DAY, now - old * DAY]),
        np.array([now, now]),
        half,
        np.array([False, False]),
    )
    assert out[0] >= out[1]


def test_access_boost_golden() -> None:
    out = access_boost(np.array([0.0, 1.0, 10.0, 100.0]))
    assert out[0] == 1.0
    # SPEC §10 prints five decimals; 1 + 0.05·ln 11 = 1.1198948, within 1e-5 of its 1.11990.
    assert list(out[1:]) == pytest.approx([1.03466, 1.11990, 1.23076], abs=1e-5)
    assert math.isclose(out[2], 1 + 0.05 * math.log(11))


@pytest.mark.parametrize(
    ("text", "source", "expected"),
    [
        ("# Title\n\n## Sub\n", "session", True),
        ("# Title\n<!-- a comment -->\n", "session", True),
        # SPEC §4.3 step 1: an unterminated comment keeps the rest, so the text is content
        ("# Title\n<!-- unterminated\nreal text below\n", "session", False),
        ("# Title\n<!-- done -->\n<!-- unterminated\n", "session", False),
        ("# Title\n> a quote is content\n", "session", False),
        ("# Title\nreal text\n", "session", False),
        ("", "session", True),
        ("# Memory\n\nAuto-populated by dream consolidation\n", "workspace", True),
        ("# Memory\n\nAuto-populated by dream consolidation\n", "session", False),
        ("Add project-specific knowledge here\n" + "x" * 600, "global", False),
    ],
)
def test_content_free(text: str, source: str, expected: bool) -> None:
    assert is_content_free(text, source) is expected

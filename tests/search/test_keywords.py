from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from memlab.search.keywords import STOP_WORDS, extract_keywords, match_expression


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        ("that thing we discussed about the API", ["discussed", "api"]),
        ("what is that?", []),
        ("what's the solution for the bug?", ["solution", "bug"]),
        ("port 8080 and 443 config", ["port", "config"]),
        ("Go and JS patterns", ["go", "js", "patterns"]),
        ("the my_function variable", ["my_function", "variable"]),
    ],
)
def test_golden_keywords(query: str, expected: list[str]) -> None:
    assert extract_keywords(query) == expected


def test_stop_word_count_is_c0s() -> None:
    assert len(STOP_WORDS) == 125


def test_min_two_bytes_counts_bytes_not_characters() -> None:
    # "x" is one byte (dropped); "中" is one character but three bytes (kept).
    assert extract_keywords("x 中 ab") == ["中", "ab"]


def test_dedup_keeps_first_occurrence_and_lowercases() -> None:
    assert extract_keywords("Redis redis REDIS cache Redis") == ["redis", "cache"]


def test_match_expression_quotes_every_keyword() -> None:
    assert match_expression([]) is None
    assert match_expression(["near", "api"]) == '"near" OR "api"'


@settings(max_examples=500)
@given(st.text(max_size=200))
def test_tokenize_splits_on_non_alphanumeric_non_underscore(text: str) -> None:
    from memlab.text import tokenize

    expected, current = [], ""
    for ch in text.lower():
        if ch.isalnum() or ch == "_":
            current += ch
        elif current:
            expected.append(current)
            current = ""
    if current:
        expected.append(current)
    assert tokenize(text) == expected

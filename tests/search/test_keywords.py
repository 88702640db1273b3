from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from memlab.retrieval.keywords import STOP_WORDS, extract_keywords, match_expression
from memlab.unicode_alnum import non_letter_ranges

ALPHABETIC_MARKS = {c for a, b in non_letter_ranges() for c in range(a, b + 1)}


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


# c0 splits on Rust's char::is_alphanumeric (Unicode Alphabetic or Numeric): vowel
# signs and other Alphabetic marks stay inside words; viramas, tone marks and combining
# accents (not Alphabetic) split them (issue 31).
@pytest.mark.parametrize(
    ("query", "expected"),
    [
        ("भाषा", ["भाषा"]),  # Devanagari vowel sign AA (Mc, Other_Alphabetic)
        ("हिन्दी भाषा", ["हिन", "दी", "भाषा"]),  # virama U+094D splits
        ("বাংলা", ["বাংলা"]),  # Bengali vowel sign and anusvara
        ("தமிழ்", ["தமிழ"]),  # Tamil vowel sign kept, final virama dropped
        ("ภาษาไทย ที่นี่", ["ภาษาไทย", "ที", "นี"]),  # Thai vowel kept, tone mark splits
        ("မြန်မာ", ["မြန", "မာ"]),  # Myanmar medial kept, asat splits
        ("كَتَبَ", ["كَتَبَ"]),  # Arabic fatha (Mn, Other_Alphabetic)
        ("שָׁלוֹם", ["שָׁלוֹם"]),  # Hebrew points
        ("Ⓐbc", ["ⓐbc"]),  # circled letter (So, Other_Alphabetic)
        ("e\u0301cole", ["cole"]),  # NFD accent: not Alphabetic, "e" is one byte
        ("İstanbul", ["stanbul"]),  # "İ".lower() is i + U+0307 (not Alphabetic)
    ],
)
def test_golden_keywords_of_combining_mark_scripts(query: str, expected: list[str]) -> None:
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


MARKED = st.text(st.sampled_from("भाषाहिन्दी ที่นี่ 🙂\U00011000 _1"), max_size=40)


@settings(max_examples=500)
@given(st.text(max_size=200) | MARKED)
def test_tokenize_splits_on_non_alphanumeric_non_underscore(text: str) -> None:
    """Alphanumeric is Rust's: Python's isalnum() or an Alphabetic mark or symbol."""
    from memlab.text import tokenize

    expected, current = [], ""
    for ch in text.lower():
        if ch.isalnum() or ch == "_" or ord(ch) in ALPHABETIC_MARKS:
            current += ch
        elif current:
            expected.append(current)
            current = ""
    if current:
        expected.append(current)
    assert tokenize(text) == expected

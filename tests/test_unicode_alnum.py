"""memlab.unicode_alnum: c0's word characters, Rust's ``char::is_alphanumeric`` (issue 31).

Checked three ways: known characters of the Unicode standard, the table's own
derivation (``\\w`` plus the Alphabetic non-letters, equal to categories L*/N* plus the
table on every code point), and, where Perl ships the same Unicode version, Perl's own
Alphabetic property (an independent copy of DerivedCoreProperties.txt).
"""

from __future__ import annotations

import random
import re
import shutil
import subprocess
import sys
import unicodedata

import pytest

from memlab.unicode_alnum import (
    UNICODE_VERSION,
    WORD_CLASS,
    non_letter_ranges,
    words_pattern,
)

WORD = re.compile(WORD_CLASS)
LETTERS_AND_NUMBERS = {"Lu", "Ll", "Lt", "Lm", "Lo", "Nl", "Nd", "No"}

# (character, is it alphanumeric for Rust) — Unicode 14.0.0 PropList/DerivedCoreProperties.
KNOWN = [
    ("a", True),
    ("Z", True),
    ("7", True),
    ("_", True),  # not alphanumeric, but a word character for c0
    ("²", True),  # No
    ("Ⅻ", True),  # Nl
    ("中", True),
    ("\u093e", True),  # DEVANAGARI VOWEL SIGN AA (Mc, Other_Alphabetic)
    ("\u093f", True),  # DEVANAGARI VOWEL SIGN I
    ("\u0902", True),  # DEVANAGARI SIGN ANUSVARA (Mn, Other_Alphabetic)
    ("\u094d", False),  # DEVANAGARI SIGN VIRAMA (Mn, Diacritic only)
    ("\u09be", True),  # BENGALI VOWEL SIGN AA
    ("\u0bcd", False),  # TAMIL SIGN VIRAMA
    ("\u0e31", True),  # THAI CHARACTER MAI HAN-AKAT (Mn, Other_Alphabetic)
    ("\u0e34", True),  # THAI CHARACTER SARA I
    ("\u0e48", False),  # THAI CHARACTER MAI EK (tone mark)
    ("\u064e", True),  # ARABIC FATHA
    ("\u05b8", True),  # HEBREW POINT QAMATS
    ("\u0345", True),  # COMBINING GREEK YPOGEGRAMMENI
    ("\u0301", False),  # COMBINING ACUTE ACCENT
    ("\u0307", False),  # COMBINING DOT ABOVE ("İ".lower())
    ("\u24b6", True),  # CIRCLED LATIN CAPITAL LETTER A (So)
    ("\U0001f130", True),  # SQUARED LATIN CAPITAL LETTER A (So)
    ("\U00011000", True),  # BRAHMI SIGN CANDRABINDU (astral Mc)
    ("\U00011046", False),  # BRAHMI VIRAMA
    ("\U0001f642", False),  # emoji
    ("€", False),
    ("-", False),
    (" ", False),
    ("\u200b", False),
]


@pytest.mark.parametrize(("ch", "alnum"), KNOWN)
def test_known_characters(ch: str, alnum: bool) -> None:
    assert bool(WORD.fullmatch(ch)) is alnum
    assert bool(words_pattern(ch).fullmatch(ch)) is alnum


def test_the_table_is_what_python_lacks() -> None:
    """Every listed code point Python knows is a mark or symbol (not a letter or
    number, which ``\\w`` already covers), and there are 1,404 of them."""
    codes = [c for a, b in non_letter_ranges() for c in range(a, b + 1)]
    assert len(codes) == len(set(codes)) == 1404
    assigned = [chr(c) for c in codes if unicodedata.category(chr(c)) != "Cn"]
    assert {unicodedata.category(ch) for ch in assigned} == {"Mn", "Mc", "So"}
    assert not any(ch.isalnum() for ch in assigned)


def test_class_equals_letters_numbers_and_the_table_on_every_code_point() -> None:
    listed = {c for a, b in non_letter_ranges() for c in range(a, b + 1)}
    text = "".join(chr(c) for c in range(0x110000) if not 0xD800 <= c <= 0xDFFF)
    found = {ord(ch) for m in WORD_CLASS_RUNS.finditer(text) for ch in m.group()}
    expected = {
        ord(ch)
        for ch in text
        if ch == "_" or unicodedata.category(ch) in LETTERS_AND_NUMBERS or ord(ch) in listed
    }
    assert found == expected


WORD_CLASS_RUNS = re.compile(WORD_CLASS + "+")


def test_bmp_fast_path_agrees_with_the_full_class() -> None:
    bmp = "".join(chr(c) for c in range(0x10000) if not 0xD800 <= c <= 0xDFFF)
    assert words_pattern(bmp).findall(bmp) == WORD_CLASS_RUNS.findall(bmp)
    mixed = "भाषा\U00011000x 🙂 ok"
    assert words_pattern(mixed).findall(mixed) == ["भाषा\U00011000x", "ok"]


def test_ascii_fast_path_agrees_with_the_full_class() -> None:
    every = "".join(chr(c) for c in range(128))
    assert words_pattern(every) is not words_pattern("é" + every)
    assert words_pattern(every).findall(every) == WORD_CLASS_RUNS.findall(every)
    rng = random.Random(31)
    for _ in range(200):
        text = "".join(rng.choice(every) for _ in range(rng.randrange(0, 60)))
        assert words_pattern(text).findall(text) == WORD_CLASS_RUNS.findall(text)
        assert words_pattern(text).findall(text.lower()) == WORD_CLASS_RUNS.findall(text.lower())


def _perl_alphabetic() -> tuple[str, set[int]] | None:
    perl = shutil.which("perl")
    if perl is None:
        return None
    script = (
        "use Unicode::UCD qw(prop_invlist);"
        'print Unicode::UCD::UnicodeVersion(), "\\n", join(" ", prop_invlist("Alphabetic"));'
    )
    done = subprocess.run([perl, "-e", script], capture_output=True, text=True, check=False)
    if done.returncode != 0:
        return None
    version, inversion = done.stdout.split("\n", 1)
    bounds = [int(x) for x in inversion.split()] + [0x110000]
    return version, {c for i in range(0, len(bounds) - 1, 2) for c in range(*bounds[i : i + 2])}


def test_against_perls_alphabetic_property() -> None:
    perl = _perl_alphabetic()
    if perl is None or perl[0] != UNICODE_VERSION or unicodedata.unidata_version != UNICODE_VERSION:
        pytest.skip(f"needs Perl and Python at Unicode {UNICODE_VERSION} ({sys.version})")
    _, alphabetic = perl
    letters = {c for c in alphabetic if unicodedata.category(chr(c)) in LETTERS_AND_NUMBERS}
    listed = {c for a, b in non_letter_ranges() for c in range(a, b + 1)}
    assert alphabetic - letters == listed

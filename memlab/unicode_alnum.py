"""Rust's ``char::is_alphanumeric`` as a regular-expression class (c0's word characters).

c0 splits query keywords and snippet tokens on Rust's ``char::is_alphanumeric``: the
Unicode property Alphabetic (general categories Lu Ll Lt Lm Lo Nl, plus
Other_Alphabetic and the letter-like symbols of Other_Uppercase/Other_Lowercase) or
Numeric (Nd Nl No). Python's ``str.isalnum`` — and so ``re``'s ``\\w`` — covers
exactly the letters and numbers and lacks the 1,404 characters (Unicode 14.0.0) that
are Alphabetic without being letters: 857 nonspacing marks (Mn), 417 spacing marks (Mc)
and 130 symbols (So). Among them are the vowel signs of Devanagari, Bengali, Tamil …
(``ा`` U+093E keeps ``भाषा`` one word), Thai vowels (``ั`` U+0E31), Arabic and Hebrew
vowel points, and circled letters (``Ⓐ`` U+24B6). Viramas (``्`` U+094D), Thai tone
marks (``่`` U+0E48) and combining accents (U+0301) are not Alphabetic: c0 splits
words there, and so does this class.

``ALPHABETIC_NON_LETTERS`` lists those 1,404 code points as ranges (hex, ``A-B``
inclusive). It is the Alphabetic property of Unicode 14.0.0 (the version Python
3.11's ``unicodedata`` ships; taken from Perl's ``Unicode::UCD::prop_invlist
("Alphabetic")`` at that version, i.e. DerivedCoreProperties.txt) minus every code
point whose category is L* or Nl. ``tests/test_unicode_alnum.py`` checks it against
known characters and, where Perl has the same Unicode version, against Perl's table.
"""

from __future__ import annotations

import re

UNICODE_VERSION = "14.0.0"

ALPHABETIC_NON_LETTERS = """
0345 05B0-05BD 05BF 05C1-05C2 05C4-05C5 05C7 0610-061A 064B-0657 0659-065F 0670
06D6-06DC 06E1-06E4 06E7-06E8 06ED 0711 0730-073F 07A6-07B0 0816-0817 081B-0823
0825-0827 0829-082C 08D4-08DF 08E3-08E9 08F0-0903 093A-093B 093E-094C 094E-094F
0955-0957 0962-0963 0981-0983 09BE-09C4 09C7-09C8 09CB-09CC 09D7 09E2-09E3 0A01-0A03
0A3E-0A42 0A47-0A48 0A4B-0A4C 0A51 0A70-0A71 0A75 0A81-0A83 0ABE-0AC5 0AC7-0AC9
0ACB-0ACC 0AE2-0AE3 0AFA-0AFC 0B01-0B03 0B3E-0B44 0B47-0B48 0B4B-0B4C 0B56-0B57
0B62-0B63 0B82 0BBE-0BC2 0BC6-0BC8 0BCA-0BCC 0BD7 0C00-0C03 0C3E-0C44 0C46-0C48
0C4A-0C4C 0C55-0C56 0C62-0C63 0C81-0C83 0CBE-0CC4 0CC6-0CC8 0CCA-0CCC 0CD5-0CD6
0CE2-0CE3 0D00-0D03 0D3E-0D44 0D46-0D48 0D4A-0D4C 0D57 0D62-0D63 0D81-0D83 0DCF-0DD4
0DD6 0DD8-0DDF 0DF2-0DF3 0E31 0E34-0E3A 0E4D 0EB1 0EB4-0EB9 0EBB-0EBC 0ECD 0F71-0F81
0F8D-0F97 0F99-0FBC 102B-1036 1038 103B-103E 1056-1059 105E-1060 1062-1064 1067-106D
1071-1074 1082-108D 108F 109A-109D 1712-1713 1732-1733 1752-1753 1772-1773 17B6-17C8
1885-1886 18A9 1920-192B 1930-1938 1A17-1A1B 1A55-1A5E 1A61-1A74 1ABF-1AC0 1ACC-1ACE
1B00-1B04 1B35-1B43 1B80-1B82 1BA1-1BA9 1BAC-1BAD 1BE7-1BF1 1C24-1C36 1DE7-1DF4
24B6-24E9 2DE0-2DFF A674-A67B A69E-A69F A802 A80B A823-A827 A880-A881 A8B4-A8C3 A8C5
A8FF A926-A92A A947-A952 A980-A983 A9B4-A9BF A9E5 AA29-AA36 AA43 AA4C-AA4D AA7B-AA7D
AAB0 AAB2-AAB4 AAB7-AAB8 AABE AAEB-AAEF AAF5 ABE3-ABEA FB1E 10376-1037A 10A01-10A03
10A05-10A06 10A0C-10A0F 10D24-10D27 10EAB-10EAC 11000-11002 11038-11045 11073-11074
11082 110B0-110B8 110C2 11100-11102 11127-11132 11145-11146 11180-11182 111B3-111BF
111CE-111CF 1122C-11234 11237 1123E 112DF-112E8 11300-11303 1133E-11344 11347-11348
1134B-1134C 11357 11362-11363 11435-11441 11443-11445 114B0-114C1 115AF-115B5
115B8-115BE 115DC-115DD 11630-1163E 11640 116AB-116B5 1171D-1172A 1182C-11838
11930-11935 11937-11938 1193B-1193C 11940 11942 119D1-119D7 119DA-119DF 119E4
11A01-11A0A 11A35-11A39 11A3B-11A3E 11A51-11A5B 11A8A-11A97 11C2F-11C36 11C38-11C3E
11C92-11CA7 11CA9-11CB6 11D31-11D36 11D3A 11D3C-11D3D 11D3F-11D41 11D43 11D47
11D8A-11D8E 11D90-11D91 11D93-11D96 11EF3-11EF6 16F4F 16F51-16F87 16F8F-16F92
16FF0-16FF1 1BC9E 1E000-1E006 1E008-1E018 1E01B-1E021 1E023-1E024 1E026-1E02A 1E947
1F130-1F149 1F150-1F169 1F170-1F189
"""


def non_letter_ranges() -> list[tuple[int, int]]:
    """``ALPHABETIC_NON_LETTERS`` as inclusive (first, last) code point pairs."""
    out = []
    for item in ALPHABETIC_NON_LETTERS.split():
        first, _, last = item.partition("-")
        out.append((int(first, 16), int(last or first, 16)))
    return out


def _escape(code: int) -> str:
    return f"\\U{code:08X}"


def _word_class(ranges: list[tuple[int, int]]) -> str:
    """``\\w`` (str.isalnum() or "_") plus ``ranges``, as one character class."""
    spans = (_escape(a) + ("" if a == b else "-" + _escape(b)) for a, b in ranges)
    return "[\\w" + "".join(spans) + "]"


WORD_CLASS = _word_class(non_letter_ranges())
# Without the ranges above U+FFFF, ``re`` compiles the class to an O(1) bitmap lookup
# (as fast as ``\\w``); with them it scans every range for each non-word character.
_BMP_CLASS = _word_class([r for r in non_letter_ranges() if r[1] <= 0xFFFF])
_WORDS = re.compile(WORD_CLASS + "+")
_BMP_WORDS = re.compile(_BMP_CLASS + "+")
_ASTRAL = re.compile("[\U00010000-\U0010ffff]")
# Every range above is outside ASCII, and ``\\w`` on ASCII is exactly these: on ASCII
# text the small class finds the same words, about 40 % faster than the BMP class.
_ASCII_WORDS = re.compile("[0-9A-Za-z_]+")


def words_pattern(text: str) -> re.Pattern[str]:
    """The compiled ``WORD_CLASS + "+"`` for ``text``, or a faster class that finds the
    same words in it: the ASCII class for ASCII text, the BMP-only class when ``text``
    has no character above U+FFFF (where the classes agree)."""
    if text.isascii():
        return _ASCII_WORDS
    return _WORDS if _ASTRAL.search(text) else _BMP_WORDS

"""Response processing (SPEC §7.3 step 3.2) and the input caps (step 1)."""

from __future__ import annotations

from collections.abc import Callable, Mapping

import pytest
from hypothesis import given
from hypothesis import strategies as st

from memlab.dream.inputs import (
    EXISTING_HEADER,
    assemble_input,
    nbytes,
    session_header,
    truncate_bytes,
)
from memlab.dream.response import NewMemory, Nothing, has_heading, is_no_reply, process_response


@pytest.mark.parametrize("text", ["NO_REPLY", "no reply", "No-Reply", "noreply", " NO_REPLY.\n"])
def test_golden_no_reply_variants(text: str) -> None:
    assert is_no_reply(text)
    assert process_response(text, 16_000) == Nothing("no-reply")


@pytest.mark.parametrize("text", ["no reply needed", "I have things to store", "noreplyx"])
def test_golden_not_no_reply(text: str) -> None:
    assert not is_no_reply(text)


def test_empty_and_headingless_responses_are_nothing() -> None:
    assert process_response("  \n\t ", 16_000) == Nothing("empty")
    assert process_response("Just prose, no heading.", 16_000) == Nothing("no-heading")
    assert process_response("#hashtag only", 16_000) == Nothing("no-heading")


def test_c0_heading_test_is_a_substring_anywhere() -> None:
    assert has_heading("prose then # not really a heading")
    assert has_heading("x\n## Facts\n- a")
    got = process_response("  I use C# and F# daily  ", 16_000)
    assert got == NewMemory("I use C# and F# daily", truncated=False)


def test_truncation_counts_characters_not_bytes() -> None:
    text = "# M\n" + "é" * 20_000
    got = process_response(text, 16_000)
    assert isinstance(got, NewMemory) and got.truncated
    assert len(got.text) == 16_000 and got.text == text[:16_000]
    exact = process_response("# " + "x" * 15_998, 16_000)
    assert isinstance(exact, NewMemory) and not exact.truncated


def reader(texts: Mapping[str, str | None], calls: list[str]) -> Callable[[str], str | None]:
    def read(stem: str) -> str | None:
        calls.append(stem)
        return texts[stem]

    return read


def test_existing_memory_capped_on_a_character_boundary() -> None:
    existing = "# Memory\n" + "漢" * 6000  # 3 bytes each
    calls: list[str] = []
    got = assemble_input(
        existing,
        ["s1"],
        reader({"s1": "hello"}, calls),
        max_existing_bytes=16_000,
        max_input_bytes=32_000,
    )
    capped = truncate_bytes(existing, 16_000)
    assert nbytes(capped) == 15_999 and existing.startswith(capped)
    assert got.existing_bytes == nbytes(EXISTING_HEADER) + 15_999
    assert got.text == EXISTING_HEADER + capped + "\n\n" + session_header("s1") + "hello"


@pytest.mark.parametrize(
    "existing", [None, "", "  \n", "# Memory\n\n<!-- Auto-populated by dream consolidation -->\n"]
)
def test_missing_empty_or_scaffold_memory_is_left_out(existing: str | None) -> None:
    got = assemble_input(
        existing, ["s1"], reader({"s1": "a"}, []), max_existing_bytes=16_000, max_input_bytes=32_000
    )
    assert got.text == session_header("s1") + "a"  # no leading separator either
    assert got.existing_bytes == 0


def test_blank_and_unreadable_sessions_are_skipped_not_processed() -> None:
    texts = {"a": "one", "b": "   \n", "c": None, "d": "four"}
    got = assemble_input(
        "# M\nfact",
        list(texts),
        reader(texts, []),
        max_existing_bytes=16_000,
        max_input_bytes=32_000,
    )
    assert got.processed == ("a", "d")


def test_stops_after_the_first_session_reaching_the_cap_and_reads_no_further() -> None:
    texts = {f"s{i}": "x" * 10_000 for i in range(6)}
    calls: list[str] = []
    got = assemble_input(
        None, list(texts), reader(texts, calls), max_existing_bytes=16_000, max_input_bytes=32_000
    )
    # 3 sessions: ~30 kB < 32 kB; the 4th brings it over and is the last one read
    assert got.processed == ("s0", "s1", "s2", "s3")
    assert calls == ["s0", "s1", "s2", "s3"]
    assert got.nbytes >= 32_000


@given(
    sizes=st.lists(st.integers(0, 9000), min_size=1, max_size=12),
    existing=st.integers(0, 20_000),
    cap=st.integers(1, 40_000),
)
def test_cap_rule_brute_force(sizes: list[int], existing: int, cap: int) -> None:
    texts = {f"s{i:02d}": "y" * n for i, n in enumerate(sizes)}
    got = assemble_input(
        "m" * existing if existing else None,
        list(texts),
        reader(texts, []),
        max_existing_bytes=16_000,
        max_input_bytes=cap,
    )
    size = (len(EXISTING_HEADER) + min(existing, 16_000)) if existing else 0
    expected = []
    for stem, text in texts.items():
        if not text:
            continue
        size += (2 if size else 0) + len(session_header(stem)) + len(text)
        expected.append(stem)
        if size >= cap:
            break
    assert got.processed == tuple(expected)
    assert got.nbytes == size

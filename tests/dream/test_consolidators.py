"""Consolidators: the offline one (merge, supersede, drop noise, idempotent), adapters, registry."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from memlab.dream.consolidators import (
    CallableConsolidator,
    ScriptedConsolidator,
    get_consolidator,
)
from memlab.dream.inputs import EXISTING_HEADER, session_header
from memlab.dream.offline import OfflineConsolidator, consolidate_text
from memlab.errors import ConfigError, DreamError


def dream_input(existing: str | None, *sessions: str) -> str:
    parts = [EXISTING_HEADER + existing] if existing else []
    parts += [session_header(f"2026-01-0{i + 1}-s-{i:08d}") + s for i, s in enumerate(sessions)]
    return "\n\n".join(parts)


EXISTING = "# Memory\n\n## Stack\n\n- Database: PostgreSQL 14\n- Deploys run on Fridays\n"
S1 = (
    "# Session: db upgrade\n\nUpgraded the database.\n\n"
    "## stack\n\n- Database: PostgreSQL 16\n- ok\n"
)
S2 = (
    "# Session\n\n<!-- flush 10:00:00 UTC -->\n\n---\n\n## Decisions\n\n"
    "- Use JWT for auth\n  - refresh tokens rotate daily\n- Note: first note\n- Note: second note\n"
    "\n```sh\nmake test\n```\n"
)


def test_merges_sections_by_heading_and_keeps_the_newest_fact() -> None:
    out = consolidate_text(dream_input(EXISTING, S1, S2))
    assert out == (
        "# Memory\n\n## Stack\n\n- Database: PostgreSQL 16\n- Deploys run on Fridays\n\n"
        "## General\n\n- Upgraded the database.\n\n"
        "## Decisions\n\n- Use JWT for auth\n  - refresh tokens rotate daily\n"
        "- Note: first note\n- Note: second note\n```sh\nmake test\n```\n"
    )


def test_drops_noise() -> None:
    out = consolidate_text(
        dream_input(None, "# S\n\n- ok\n- Thanks!\n- ..\n\n***\n\n<!-- x -->\n- kept fact\n")
    )
    assert out == "# Memory\n\n## General\n\n- kept fact\n"


def test_nothing_left_is_no_reply() -> None:
    assert (
        consolidate_text(dream_input(None, "# Title only\n\n<!-- flush -->\n- ok\n")) == "NO_REPLY"
    )


def test_output_passes_response_processing() -> None:
    from memlab.dream.response import NewMemory, process_response

    assert isinstance(
        process_response(consolidate_text(dream_input(EXISTING, S1)), 16_000), NewMemory
    )


line = st.builds(
    lambda label, value, bullet: f"{'- ' if bullet else ''}{label}: {value}",
    st.sampled_from(["Database", "Port", "Owner", "CI", "Cache"]),
    st.text("abcdefgh 0123", min_size=1, max_size=12).map(str.strip).filter(bool),
    st.booleans(),
)
section = st.builds(
    # blank lines between items: two plain lines in a row would be one paragraph
    lambda head, lines: f"## {head}\n\n" + "\n\n".join(lines) + "\n",
    st.sampled_from(["Facts", "facts", "Decisions", "Open questions"]),
    st.lists(line, min_size=1, max_size=4),
)
session = st.lists(section, min_size=1, max_size=3).map(lambda s: "# Session\n\n" + "\n".join(s))


@settings(max_examples=60, deadline=None)
@given(existing=st.one_of(st.none(), session), sessions=st.lists(session, min_size=1, max_size=4))
def test_idempotent_so_a_duplicate_consolidation_is_harmless(
    existing: str | None, sessions: list[str]
) -> None:
    first = consolidate_text(dream_input(existing, *sessions))
    assert consolidate_text(dream_input(first)) == first
    # a second process that re-reads the same sessions on top of the new memory
    assert consolidate_text(dream_input(first, *sessions)) == first


@settings(max_examples=40, deadline=None)
@given(sessions=st.lists(session, min_size=1, max_size=4))
def test_every_label_keeps_its_newest_value(sessions: list[str]) -> None:
    out = consolidate_text(dream_input(None, *sessions))
    newest: dict[tuple[str, str], str] = {}
    for text in sessions:
        head = ""
        for ln in text.splitlines():
            if ln.startswith("## "):
                head = ln[3:].lower()
            elif ":" in ln and head:
                label, value = ln.removeprefix("- ").split(": ", 1)
                newest[(head, label.lower())] = value
    for (_, label), value in newest.items():
        assert any(
            ln.lower().startswith(f"- {label}: ") and ln.endswith(value) for ln in out.splitlines()
        )


def test_scripted_returns_in_order_records_inputs_and_raises() -> None:
    boom = RuntimeError("model down")
    c = ScriptedConsolidator(["# A", boom])
    assert c.consolidate("in-1") == "# A"
    with pytest.raises(RuntimeError):
        c.consolidate("in-2")
    with pytest.raises(DreamError, match="ran out"):
        c.consolidate("in-3")
    assert c.inputs == ["in-1", "in-2", "in-3"]
    assert ScriptedConsolidator(["x"], repeat_last=True).consolidate("a") == "x"


def test_callable_adapter_prepends_instructions() -> None:
    seen: list[str] = []

    def model(prompt: str) -> str:
        seen.append(prompt)
        return "# M"

    c = CallableConsolidator(model, instructions="SYSTEM")
    assert c.consolidate("INPUT") == "# M"
    assert seen == ["SYSTEM\n\nINPUT"]


def test_registry_and_import_path() -> None:
    assert isinstance(get_consolidator("offline"), OfflineConsolidator)
    assert get_consolidator("noreply").consolidate("x") == "NO_REPLY"
    loaded = get_consolidator("memlab.dream.offline:consolidate_text")
    assert isinstance(loaded, CallableConsolidator)
    with pytest.raises(ConfigError, match="valid: noreply, offline"):
        get_consolidator("ofline")
    with pytest.raises(ConfigError, match="cannot load"):
        get_consolidator("no.such.module:fn")

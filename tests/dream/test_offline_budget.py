"""The offline consolidator stays within c0's 16,000 cap: it condenses the largest section,
oldest item first, so a new session's facts are kept and never cut off by c0's truncation."""

from __future__ import annotations

from memlab.config import DreamConfig
from memlab.dream.inputs import EXISTING_HEADER, session_header
from memlab.dream.offline import BUDGET_BYTES, consolidate_text


def dream_input(existing: str | None, *sessions: str) -> str:
    parts = [EXISTING_HEADER + existing] if existing else []
    parts += [session_header(f"2026-01-{i + 1:02d}-s-{i:08d}") + s for i, s in enumerate(sessions)]
    return "\n\n".join(parts)


def session(n: int, items: int = 40) -> str:
    """A session log with ``items`` distinct notes and one fact under its own heading."""
    notes = "\n".join(
        f"- note {n}.{i}: reading through module {n} part {i} took a while" for i in range(items)
    )
    fact = f"- service{n} listens on port {8000 + n}"
    return f"# Session {n}\n\n## Notes\n\n{notes}\n\n## Facts\n\n{fact}\n"


def test_the_budget_is_c0s_cap_on_the_response_and_the_existing_memory() -> None:
    config = DreamConfig()
    assert BUDGET_BYTES == config.max_response_chars == config.max_existing_bytes


def test_without_a_budget_the_memory_outgrows_c0s_cap_and_the_newest_facts_sit_past_it() -> None:
    out = consolidate_text(dream_input(None, *(session(n) for n in range(12))), budget=None)
    assert len(out) > BUDGET_BYTES
    assert out.index("service11 listens") > BUDGET_BYTES  # c0 would cut it off


def test_the_output_fits_the_budget_and_keeps_the_newest_session() -> None:
    memory = consolidate_text(dream_input(None, *(session(n) for n in range(12))))
    assert len(memory.encode("utf-8")) <= BUDGET_BYTES
    assert "- service11 listens on port 8011" in memory
    assert "note 11.39:" in memory  # the newest notes stay
    assert "note 0.0:" not in memory  # the oldest of the largest section went first
    assert "service0 listens" in memory  # the small section was not touched


def test_memory_already_within_budget_is_unchanged_and_older_items_go_as_sessions_arrive() -> None:
    memory = consolidate_text(dream_input(None, *(session(n) for n in range(12))))
    assert consolidate_text(dream_input(memory)) == memory
    later = consolidate_text(dream_input(memory, session(12), session(13)))
    assert len(later.encode("utf-8")) <= BUDGET_BYTES
    assert "note 13.39:" in later and "service13 listens" in later
    kept = [n for n in range(14) if f"note {n}.39:" in later]
    assert kept == list(range(kept[0], 14))  # the oldest notes dropped, newest kept


def test_a_small_budget_counts_utf8_bytes() -> None:
    text = "## 记录\n\n" + "\n".join(
        f"- 第{i}条记录：服务在端口 {9000 + i} 上运行" for i in range(50)
    )
    out = consolidate_text(dream_input(None, text), budget=800)
    assert len(out.encode("utf-8")) <= 800
    assert "端口 9049" in out and "端口 9000 " not in out

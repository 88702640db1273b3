"""Markdown of the memory files, write by write.

A session log starts with its title and time, then each flush appends
c0's flush separator (``flush_separator``, SPEC §1) and its sections. ``MEMORY.md``
starts with the user's sections (the introduction is a section too, so
Dream's rewrite — which files text before the first section under "General" —
keeps the user's sections at their chunk positions); each append adds sections at the end (a
heading the file already has, so Dream's consolidation merges them). A write
holds what it adds; a file's content at any time is the concatenation of its
writes so far.
"""

from __future__ import annotations

from collections.abc import Sequence

from memlab.datasets.generator.draft import MemoryFile, Session, Write
from memlab.store.layout import flush_separator

Entry = tuple[str, tuple[str, ...]]  # (section, lines)

MEMORY_ORDER = (
    "Overview",
    "About",
    "Architecture",
    "Services",
    "People",
    "Conventions",
    "Commands",
    "Configuration",
    "Observability",
    "Operations",
    "Dependencies",
    "Preferences",
    "Tools",
    "Code style",
    "Git",
    "Writing",
    "Communication",
    "Machine",
)


def _is_bullet(lines: tuple[str, ...]) -> bool:
    return len(lines) == 1 and lines[0].startswith("- ")


def render_sections(entries: Sequence[Entry], order: Sequence[str] = ()) -> list[str]:
    """``## section`` blocks in order of first appearance (or ``order`` where listed)."""
    sections: dict[str, list[tuple[str, ...]]] = {}
    for section, lines in entries:
        sections.setdefault(section, []).append(lines)
    rank = {name: i for i, name in enumerate(order)}
    names = sorted(sections, key=lambda s: rank.get(s, len(rank))) if order else list(sections)
    out: list[str] = []
    for name in names:
        out += [f"## {name}", ""]
        for lines in sections[name]:
            if not _is_bullet(lines) and out[-1] != "":
                out.append("")
            out += list(lines)
            if not _is_bullet(lines):
                out.append("")
        if out[-1] != "":
            out.append("")
    return out


def _text(lines: list[str]) -> str:
    return "\n".join(lines).rstrip("\n") + "\n"


def session_writes(
    session: Session, path: str, title: str, entries: Sequence[Sequence[Entry]]
) -> list[Write]:
    """The writes of a session log: its title and first flush, then one append per flush."""
    head = [f"# {title[0].upper()}{title[1:]}", ""]
    writes = []
    last = len(session.slots) - 1
    for i, (slot, slot_entries) in enumerate(zip(session.slots, entries, strict=True)):
        body = _text((head if i == 0 else []) + render_sections(slot_entries))
        if i:
            body = flush_separator(slot.at) + body
        writes.append(Write(path, session.group, slot.at, body, end=i == last))
    return writes


def memory_writes(memory: MemoryFile, entries: Sequence[Sequence[Entry]]) -> list[Write]:
    """The initial MEMORY.md, then one append per user edit that holds something."""
    writes = []
    for i, (slot, slot_entries) in enumerate(zip(memory.slots, entries, strict=True)):
        if i == 0:
            overview = [("Overview", (memory.intro,)), *slot_entries]
            lines = [f"# {memory.title}", "", *render_sections(overview, MEMORY_ORDER)]
            writes.append(Write(memory.path, memory.group, slot.at, _text(lines)))
        elif slot_entries:
            text = "\n" + _text(render_sections(slot_entries, MEMORY_ORDER))
            writes.append(
                Write(memory.path, memory.group, slot.at, text, append=memory.group is not None)
            )
    return writes
